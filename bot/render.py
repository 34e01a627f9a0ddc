"""Message texts: the table message, the private hand message and event lines (HTML).

Everything comes from engine views and events (never re-derived) and from ``locales/``. The
public texts use only the public view and public events, so they never show a hidden card; user
names are escaped.

>>> amarracos("es", 17)
'17 (3 amarracos y 2)'
>>> amarracos("en", 5)
'5 (1 amarraco)'
>>> amarracos("es", 3)
'3'
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.table import LogEntry, Table
from engine.core import Action, Event
from locales import t

MAX_LOG_LINES = 8


def esc(text: object) -> str:
    """Escape text for Telegram's HTML parse mode."""
    return html.escape(str(text), quote=False)


# ---- small pieces ---------------------------------------------------------------------------


def amarracos(lang: str, points: int) -> str:
    """A score both ways: points and amarracos (5 points each) with the rest (rules/mus.md M1)."""
    n, rest = divmod(points, 5)
    if n == 0:
        return str(points)
    whole = t(lang, "score.amarraco") if n == 1 else t(lang, "score.amarracos", n=n)
    if rest:
        whole = t(lang, "score.and_rest", amarracos=whole, rest=rest)
    return f"{points} ({whole})"


def card_name(lang: str, card: str) -> str:
    """``12o`` → ``rey de oros`` (``king of coins``)."""
    rank, suit = card[:-1], card[-1]
    return t(lang, "card", rank=t(lang, f"rank.{rank}"), suit=t(lang, f"suit.{suit}"))


def cards_text(lang: str, cards: Iterable[str]) -> str:
    return ", ".join(card_name(lang, str(c)) for c in cards)


def seat_name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"<b>{esc(names[seat])}</b>"
    return "?"


def pair_name(lang: str, names: Sequence[str], pair: object) -> str:
    """Pair 0 is seats 0 and 2, pair 1 seats 1 and 3 (rules/mus.md M1)."""
    if not isinstance(pair, int) or len(names) < 4:
        return t(lang, "pair.unknown")
    return t(lang, "pair.names", a=esc(names[pair]), b=esc(names[pair + 2]))


def lance_name(lang: str, lance: object) -> str:
    return t(lang, f"lance.{lance}") if lance else ""


def action_text(lang: str, text: str) -> str:
    """A canonical engine action text (``envido 5``, ``no quiero``) in the chat's language."""
    try:
        action = Action.parse_text(text)
    except Exception:
        return esc(text)
    return action_label(lang, action)


def _spoken(lang: str, text: str, bet: object) -> str:
    """A spoken action; a bet also shows the total at stake (``5 más → 7``)."""
    try:
        action = Action.parse_text(text)
    except Exception:
        return esc(text)
    if action.kind != "envido" or not isinstance(bet, int):
        return action_label(lang, action)
    raising = action.amount is not None and action.amount != bet
    label = action_label(lang, action, raising=raising)
    return t(lang, "event.bet_total", action=label, n=bet)


def action_label(lang: str, action: Action, *, raising: bool = False) -> str:
    """The words for an action, also used as button labels."""
    if action.kind == "envido" and action.amount is not None:
        return t(lang, "action.raise" if raising else "action.envido_n", n=action.amount)
    if action.kind == "descarto":
        return t(lang, "action.descarto", n=len(action.cards))
    return t(lang, f"action.{action.kind}")


def deadline_text(lang: str, deadline: float | None) -> str:
    if deadline is None:
        return ""
    clock = time.strftime("%H:%M:%S", time.gmtime(deadline))
    return t(lang, "table.deadline", time=clock)


# ---- events ---------------------------------------------------------------------------------


def event_line(lang: str, kind: str, data: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One public event (or bot note) as a line of text; ``None`` for events not shown."""
    d = data
    if kind == "hand_started":
        return t(
            lang, "event.hand_started", hand=d.get("hand"), mano=seat_name(names, d.get("mano"))
        )
    if kind == "spoke":
        return t(
            lang,
            "event.spoke",
            name=seat_name(names, d.get("seat")),
            action=_spoken(lang, str(d.get("action", "")), d.get("bet")),
        )
    if kind == "discarded":
        return t(lang, "event.discarded", name=seat_name(names, d.get("seat")), n=d.get("count"))
    if kind == "stock_reshuffled":
        return t(lang, "event.stock_reshuffled")
    if kind == "lance_started":
        return t(lang, "event.lance_started", lance=lance_name(lang, d.get("lance")))
    if kind == "declared":
        has = d.get("has") or []
        parts = [
            t(lang, "event.declared_yes" if h else "event.declared_no", name=seat_name(names, s))
            for s, h in enumerate(has)
        ]
        return t(
            lang, "event.declared", lance=lance_name(lang, d.get("lance")), who=", ".join(parts)
        )
    if kind == "lance_skipped":
        reason = d.get("reason")
        key = "event.lance_skipped_one_pair" if reason == "one_pair" else "event.lance_skipped"
        if reason == "nobody" and d.get("lance") == "juego":
            key = "event.lance_skipped_nobody_juego"
        return t(
            lang,
            key,
            lance=lance_name(lang, d.get("lance")),
            pair=pair_name(lang, names, d.get("pair")),
        )
    if kind == "lance_closed":
        outcome = str(d.get("outcome"))
        return t(
            lang,
            f"event.lance_closed.{outcome}",
            lance=lance_name(lang, d.get("lance")),
            bet=d.get("bet"),
            pair=pair_name(lang, names, d.get("pair")),
        )
    if kind == "showdown":
        hands = d.get("hands") or []
        return "\n".join(
            [t(lang, "event.showdown_title")]
            + [
                t(lang, "event.showdown", name=seat_name(names, s), cards=cards_text(lang, h))
                for s, h in enumerate(hands)
            ]
        )
    if kind == "scored":
        why = d.get("why")
        return t(
            lang,
            "event.scored",
            pair=pair_name(lang, names, d.get("pair")),
            points=d.get("points"),
            lance=lance_name(lang, d.get("lance")),
            why=t(lang, f"why.{why}"),
        )
    if kind == "hand_over":
        score = list(d.get("score") or [0, 0])
        return t(
            lang,
            "event.hand_over",
            hand=d.get("hand"),
            a=amarracos(lang, int(score[0])),
            b=amarracos(lang, int(score[1])),
        )
    if kind == "juego_won":
        juegos = list(d.get("juegos") or [0, 0])
        return t(
            lang,
            "event.juego_won",
            pair=pair_name(lang, names, d.get("pair")),
            a=juegos[0],
            b=juegos[1],
        )
    if kind == "vaca_won":
        return t(lang, "event.vaca_won", pair=pair_name(lang, names, d.get("pair")))
    if kind == "timeout":
        return t(
            lang,
            "event.timeout",
            name=seat_name(names, d.get("seat")),
            action=action_text(lang, str(d.get("action", ""))),
        )
    return None


def event_lines(lang: str, events: Iterable[Event | LogEntry], names: Sequence[str]) -> list[str]:
    lines = []
    for event in events:
        line = event_line(lang, event.kind, event.data, names)
        if line:
            lines.append(line)
    return lines


# ---- whole messages -------------------------------------------------------------------------


def _bet_text(lang: str, names: Sequence[str], bet: object, view: Mapping[str, Any]) -> str:
    """The bet on the table from the view: an amount, or a dict with amount/pair/ordago."""
    if bet is None:
        return ""
    amount: object = bet
    pair: object = view.get("bet_pair")
    ordago = bool(view.get("ordago"))
    if isinstance(bet, Mapping):
        amount = bet.get("amount", bet.get("bet"))
        pair = bet.get("pair", pair)
        ordago = bool(bet.get("ordago", ordago))
    if ordago:
        return t(lang, "table.bet_ordago", pair=pair_name(lang, names, pair))
    return t(lang, "table.bet", n=amount, pair=pair_name(lang, names, pair))


def _lances_text(lang: str, names: Sequence[str], results: Sequence[Mapping[str, Any]]) -> str:
    """The lances played so far this hand, from the view (``Grande en paso · Chica 2 querido``)."""
    parts = [
        t(
            lang,
            f"lance_result.{r.get('outcome')}",
            lance=lance_name(lang, r.get("lance")),
            bet=r.get("bet"),
            pair=pair_name(lang, names, r.get("pair")),
        )
        for r in results
    ]
    return t(lang, "table.lances", lances=" · ".join(parts)) if parts else ""


def options_text(lang: str, table: Table) -> str:
    labels = table.adapter.option_labels(table.options)
    return ", ".join(t(lang, key, **params) for key, params in labels)


def lobby_text(table: Table) -> str:
    lang = table.lang
    need = table.seats_needed()
    seats = [t(lang, "lobby.seat", n=i + 1, name=esc(p.name)) for i, p in enumerate(table.players)]
    lines = [
        t(
            lang,
            "lobby.title",
            game=t(lang, f"game.{table.game}"),
            options=options_text(lang, table),
        ),
        *seats,
        t(lang, "lobby.count", have=len(table.players), need=need),
    ]
    if table.status == "cancelled":
        lines.append(t(lang, "lobby.cancelled"))
    elif table.status != "lobby":
        lines.append(t(lang, "lobby.started"))
    return "\n".join(lines)


def table_text(table: Table, *, closed: Sequence[LogEntry] | None = None) -> str:
    """The group's table message for the current hand (public view only).

    With ``closed`` (the log of a finished hand) it renders that hand's final, closed form.
    """
    lang = table.lang
    names = table.names()
    if closed is not None:
        lines = [t(lang, "table.closed_title", game=t(lang, f"game.{table.game}"))]
        lines += event_lines(lang, closed, names)[-MAX_LOG_LINES:]
        return "\n".join(lines)
    view = table.adapter.view(table.engine_state(), None)
    score = list(view.get("score") or [0, 0])
    juegos = list(view.get("juegos") or [0, 0])
    lines = [
        t(
            lang,
            "table.title",
            game=t(lang, f"game.{table.game}"),
            hand=view.get("hand", table.hand),
            options=options_text(lang, table),
        ),
        t(
            lang,
            "table.score",
            pair=pair_name(lang, names, 0),
            score=amarracos(lang, int(score[0])),
            juegos=juegos[0],
        ),
        t(
            lang,
            "table.score",
            pair=pair_name(lang, names, 1),
            score=amarracos(lang, int(score[1])),
            juegos=juegos[1],
        ),
        t(lang, "table.mano", name=seat_name(names, view.get("mano"))),
    ]
    phase = view.get("phase")
    if phase == "lance" and view.get("lance"):
        lance_line = t(lang, "table.lance", lance=lance_name(lang, view.get("lance")))
        bet = _bet_text(lang, names, view.get("bet"), view)
        lines.append(f"{lance_line} · {bet}" if bet else lance_line)
    elif phase in ("mus", "discard"):
        lines.append(t(lang, f"table.phase.{phase}"))
    lances = _lances_text(lang, names, view.get("lances") or [])
    if lances:
        lines.append(lances)
    for lance in ("pares", "juego"):
        has = (view.get("declarations") or {}).get(lance)
        if has:
            line = event_line(lang, "declared", {"lance": lance, "has": has}, names)
            lines.append(line or "")
    log = event_lines(lang, table.log, names)[-MAX_LOG_LINES:]
    if log:
        lines.append("")
        lines += log
    if table.status == "playing":
        to_act = [seat_name(names, s) for s in view.get("to_act") or table.to_act()]
        if to_act:
            lines.append("")
            turn = t(lang, "table.to_act", names=", ".join(to_act))
            clock = deadline_text(lang, table.deadline)
            lines.append(f"{turn} {clock}".strip())
    elif table.status == "cancelled":
        lines.append(t(lang, "table.cancelled"))
    return "\n".join(lines)


def result_text(table: Table, events: Iterable[Event]) -> str | None:
    """The hand result message: showdown, points scored, the score, juego and vaca won."""
    shown = [e for e in events if e.public and e.kind in _RESULT_KINDS]
    if not shown:
        return None
    lines = event_lines(table.lang, shown, table.names())
    return "\n".join(lines) if lines else None


_RESULT_KINDS = frozenset({"showdown", "scored", "hand_over", "juego_won", "vaca_won"})


def hand_text(table: Table, seat: int) -> str:
    """A player's private hand message (only this seat's own cards)."""
    lang = table.lang
    state = table.engine_state()
    view = table.adapter.view(state, seat)
    cards = [str(c) for c in view.get("cards") or []]
    lines = [
        t(
            lang,
            "hand.title",
            game=t(lang, f"game.{table.game}"),
            title=esc(table.title),
            hand=view.get("hand", table.hand),
        ),
        t(lang, "hand.cards", cards=cards_text(lang, cards)),
    ]
    if table.status == "playing" and table.adapter.in_discard(state):
        if seat in table.adapter.to_act(state):
            chosen = table.discards.get(str(seat), [])
            lines.append(t(lang, "hand.discard_prompt"))
            if chosen:
                lines.append(t(lang, "hand.discard_chosen", cards=cards_text(lang, chosen)))
        else:
            lines.append(t(lang, "hand.discard_wait"))
    return "\n".join(lines)


def cards_alert(table: Table, seat: int) -> str:
    """The "Mis cartas" private alert (plain text, at most 200 characters)."""
    view = table.adapter.view(table.engine_state(), seat)
    cards = [str(c) for c in view.get("cards") or []]
    return t(table.lang, "alert.cards", cards=cards_text(table.lang, cards))[:200]
