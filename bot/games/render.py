"""Texts every game shares (HTML): names, cards, lists, the lobby and the private hand's frame.

What a game's table message, result and hand look like is in its own package
(``bot/games/<game>/render.py``); this module only holds the pieces they all use. User names are
escaped; texts come only from ``locales/``.

>>> card_name("es", "12o"), card_name("en", "1b")
('rey de oros', 'ace of clubs')
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from bot.games.base import TableView
from bot.games.timing import quarters
from engine.core import IllegalAction
from locales import t, tn

MAX_LOG_LINES = 8
"""Lines of the current hand's log shown in a table message."""


#: Bidi overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069) and the marks that
#: reorder text around them: typed into an echoed word they would reverse the bot's sentence.
_BIDI = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C}


def neutral(text: object) -> str:
    """User text made harmless to echo: bidi controls and control characters removed (a line
    break stays a line break).

    >>> neutral("ab\u202ecd\x07e\u2066f")
    'abcdef'
    """
    return "".join(
        c
        for c in str(text)
        if ord(c) not in _BIDI and (c == "\n" or unicodedata.category(c) != "Cc")
    )


def esc(text: object) -> str:
    """User text for Telegram's HTML parse mode: :func:`neutral`, then HTML-escaped.

    >>> esc("<b>\u202eAna")
    '&lt;b&gt;Ana'
    """
    return html.escape(neutral(text), quote=False)


def card_name(lang: str, card: str) -> str:
    """``12o`` → ``rey de oros`` (``king of coins``)."""
    rank, suit = card[:-1], card[-1]
    return t(lang, "card", rank=t(lang, f"rank.{rank}"), suit=t(lang, f"suit.{suit}"))


def cards_text(lang: str, cards: Iterable[str]) -> str:
    return ", ".join(card_name(lang, str(c)) for c in cards)


def short_card(lang: str, card: str) -> str:
    """``12o`` → ``R🪙`` (``K🪙``): the compact card view.

    >>> short_card("es", "12o"), short_card("en", "11c"), short_card("es", "1e")
    ('R🪙', 'N🏆', 'A🗡️')
    """
    rank, suit = card[:-1], card[-1]
    return t(lang, f"rank.short.{rank}") + t(lang, f"suit.short.{suit}")


def hand_cards(table: TableView, cards: Iterable[object]) -> str:
    """A player's own cards in his hand and alerts: by name (``rey de oros, tres de copas``),
    or ``R🪙 3🏆`` where the chat chose the compact view (``/vista compacta``)."""
    if table.compact_cards:
        return " ".join(short_card(table.lang, str(c)) for c in cards)
    return cards_text(table.lang, [str(c) for c in cards])


def join_words(lang: str, words: Sequence[str], *, either: bool = False) -> str:
    """``Ana, Bea y Cris`` (or ``Bea o Dani`` with ``either``).

    >>> join_words("es", ["Ana", "Bea", "Cris"]), join_words("en", ["Bea", "Dani"], either=True)
    ('Ana, Bea y Cris', 'Bea or Dani')
    """
    if len(words) <= 1:
        return "".join(words)
    key = "list.or" if either else "list.and"
    return t(lang, key, a=", ".join(words[:-1]), b=words[-1])


def seat_name(names: Sequence[str], seat: object) -> str:
    """A seated player's name in bold (``?`` for a seat off the table)."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"<b>{esc(names[seat])}</b>"
    return "?"


def refusal(table: TableView, error: IllegalAction) -> IllegalAction:
    """A refusal with the name its text needs (the game's ``Features.named_refusals``): the
    player of a seat, or a suit in the table's language."""
    for named in table.adapter.features.named_refusals:
        if error.reason != named.reason:
            continue
        value = error.params.get(named.param)
        if named.kind == "seat":
            names = table.names()
            name = names[value] if isinstance(value, int) and value < len(names) else "?"
        elif named.param in error.params:
            name = t(table.lang, f"suit.{value}")
        else:
            continue
        return IllegalAction(error.reason, **{named.param: value, "name": name})
    return error


def deadline_text(lang: str, table: TableView) -> str:
    """How long each player has to answer (a clock time would mean nothing to most players);
    "paused" while nobody plays in person."""
    if table.status == "playing" and table.paused_by:
        return t(lang, "phone.paused_line", name=esc(table.paused_by))
    if table.status == "playing" and table.players and not table.humans_present():
        return t(lang, "bots.paused_short")
    if table.deadline is None or table.turn_seconds <= 0:
        return ""
    acting = table.to_act()
    if acting and all(table.players[seat].computer for seat in acting):
        return ""  # a computer player is about to move: no clock to watch
    if table.clock_quarters <= 0:
        return ""
    return _in_minutes(lang, table.clock_quarters, "phone.clock")


def minutes_text(lang: str, count: int) -> str:
    """``count`` quarters of a minute as a number of minutes: ``2``, ``1½``, ``¾``."""
    whole, part = divmod(count, 4)
    return (str(whole) if whole or not part else "") + (
        t(lang, f"phone.opt.quarter.{part}") if part else ""
    )


def _in_minutes(lang: str, count: int, key: str) -> str:
    """The text ``key`` (plural, whole minutes) or ``key.part`` (a quarter over) for
    ``count`` quarters of a minute."""
    if count % 4 == 0:
        return tn(lang, key, count // 4)
    return t(lang, f"{key}.part", n=minutes_text(lang, count))


def time_label(lang: str, seconds: float) -> str:
    """The turn time in the lobby and the table's title, in the clock's own words
    (:func:`bot.games.timing.quarters`): ``2 min por turno``, ``¾ min`` for 45 s, ``1½ min``
    for 90 s; never seconds.

    >>> time_label("es", 120), time_label("en", 45), time_label("es", 90), time_label("es", 30)
    ('⏱ 2 min por turno', '⏱ ¾ min a turn', '⏱ 1½ min por turno', '⏱ ½ min por turno')
    """
    return t(lang, "phone.opt.minutes", n=minutes_text(lang, quarters(seconds)))


def options_text(lang: str, table: TableView) -> str:
    labels = table.adapter.option_labels(table.options)
    words = [t(lang, key, **params) for key, params in labels]
    seconds = table.turn_time or table.turn_seconds  # chosen, else the bot's own
    if seconds > 0:
        words.append(time_label(lang, seconds))
    return ", ".join(words)


def lobby_text(table: TableView) -> str:
    """The lobby: the game and options, who sits (by team when the game has teams), the count."""
    lang = table.lang
    low, high = table.seats_range()
    lines = [
        t(lang, "lobby.title", game=table.adapter.title(lang), options=options_text(lang, table))
    ]
    if table.adapter.features.teams:
        for team, members in enumerate(table.team_members()):
            names = [esc(p.shown) for p in members]
            if names and table.adapter.features.team_captains:
                names[0] = t(lang, "lobby.mandador", name=names[0])
            label = table.adapter.texts.say(lang, table.adapter.texts.team, n=team + 1)
            lines.append(t(lang, "lobby.team", team=label, names=", ".join(names) or "—"))
    else:
        lines += [
            t(lang, "lobby.seat", n=i + 1, name=esc(p.shown)) for i, p in enumerate(table.players)
        ]
    have = len(table.players)
    if any(p.bot_level for p in table.players) or table.level != "normal":
        lines.append(t(lang, "bots.level_line", level=t(lang, f"bots.level.{table.level}")))
    if low == high:
        lines.append(t(lang, "lobby.count", have=have, need=low))
    else:
        lines.append(t(lang, "lobby.count_range", have=have, low=low, high=high))
    if table.status == "cancelled":
        lines.append(t(lang, "lobby.cancelled"))
    elif table.status != "lobby":
        lines.append(t(lang, "lobby.started"))
    elif have < low:
        lines.append(t(lang, "lobby.join_hint"))
    elif have < high:
        lines.append(t(lang, "lobby.ready"))
    else:
        lines.append(t(lang, "lobby.full"))
    return "\n".join(lines)


def hand_title(table: TableView, hand: object) -> str:
    """The first line of a private hand message: game, group and hand number."""
    lang = table.lang
    return t(lang, "hand.title", game=table.adapter.title(lang), title=esc(table.title), hand=hand)


def worth_line(lang: str, worth: Sequence[tuple[str, dict[str, Any]]]) -> str | None:
    """``Llevas: duples · 31`` from a game's locale keys, or ``None`` when there is nothing."""
    if not worth:
        return None
    return t(lang, "hand.worth", worth=" · ".join(t(lang, k, **p) for k, p in worth))


def discard_lines(table: TableView, seat: int, cards: Sequence[str]) -> list[str]:
    """The private hand's discard prompt (or wait) while the game is in a private discard."""
    lang = table.lang
    state = table.engine_state()
    if table.status != "playing" or not table.adapter.features.in_discard(state):
        return []
    if seat not in table.adapter.to_act(state):
        return [t(lang, "hand.discard_wait")]
    chosen = [c for c in cards if c in table.discards.get(str(seat), [])]
    lines = [tn(lang, "hand.discard_prompt", table.adapter.features.discard_limit)]
    if chosen:
        lines.append(t(lang, "hand.discard_chosen", cards=cards_text(lang, chosen)))
    return lines


def error_text(lang: str, error: IllegalAction, *, plain: bool = False) -> str:
    """A refusal in the chat's language (``error.<reason>``). A dotted reason is a game's own
    locale key (``piedras.error.free``).

    The words it echoes (an unknown action, a bad card...) lose their bidi and control
    characters, and are HTML-escaped for a message, or left as they are for an alert
    (``plain=True``: alerts are plain text, where ``&lt;`` would show as typed).
    """
    clean = neutral if plain else esc
    params: dict[str, Any] = {
        k: clean(v) if isinstance(v, str) else v for k, v in error.params.items()
    }
    key = error.reason if "." in error.reason else f"error.{error.reason}"
    try:
        return t(lang, key, **params)
    except (KeyError, IndexError, ValueError):
        return t(lang, "error.generic")


# ---- the notices the table flow queues (bot/flow writes no text of its own) -------------------


def computer_name(lang: str, number: int) -> str:
    """A computer seat's name ("🤖 Máquina 2")."""
    return t(lang, "bots.name", n=number)


def blocked_notice(lang: str, name: str) -> str:
    """The group is told once that a seated player cannot get private messages."""
    return t(lang, "security.blocked", name=f"<b>{esc(name)}</b>")


def takeover_notice(lang: str, name: str) -> str:
    """The computer plays for a person whose turns timed out."""
    return t(lang, "bots.takeover", name=esc(name))


def alone_notice(lang: str) -> str:
    """Nobody plays himself any more: the table waits."""
    return t(lang, "bots.paused")


MAX_MESSAGE = 4096
"""Telegram's longest message text (counted after the HTML is parsed: an HTML text this long
or shorter always fits)."""


def with_result(text: str, result: str) -> str:
    """A table message's final text followed by the result of its hand (or game): one message,
    within :data:`MAX_MESSAGE` (too long, only the message's first line stays above it, or none).

    >>> print(with_result("Mano 1", "Gana A"))
    Mano 1
    <BLANKLINE>
    Gana A
    >>> len(with_result("x" * 4000, "Gana A")), with_result("x" * 5000, "Gana A")
    (4008, 'Gana A')
    """
    if not result:
        return text
    joined = f"{text}\n\n{result}"
    if len(joined) > MAX_MESSAGE:
        joined = f"{text.split(chr(10), 1)[0]}\n\n{result}"
    return joined if len(joined) <= MAX_MESSAGE else result[:MAX_MESSAGE]


def result_notice(lang: str, result: str | None, *, over: bool) -> str:
    """A step's new group message: the hand's result, and the end of the game ("" if none).

    >>> result_notice("es", None, over=False)
    ''
    """
    parts = [result, t(lang, "msg.game_over") if over else None]
    return "\n\n".join(p for p in parts if p)


def nudge_text(table: TableView, left: int, link: str | None) -> str:
    """The private nudge: your turn, the time left (``left`` seconds) in the table clock's
    words, with a link to the table message (or the group's name where there is no link)."""
    lang = table.lang
    title = esc(table.title or table.adapter.title(lang))
    when = _in_minutes(lang, quarters(left), "phone.time_left")
    if link is not None:
        return t(lang, "phone.nudge", left=when, where=f'<a href="{link}">{title}</a>')
    return t(lang, "phone.nudge_group", left=when, where=title)
