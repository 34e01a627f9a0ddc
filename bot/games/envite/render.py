"""How an envite table looks: the table message, the round result, the private hand (HTML).

Everything comes from the engine's views and events and from ``locales/``. Public texts use only
the public view and public events, so they never show a card still held; names are escaped.

>>> ladder_text("es", {"stake": 4, "bet": {"step": 7, "team": 1}, "bet_closed": False})
'2 · <b>[4]</b> · <u>7?</u> · 9 · chico fuera'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import engine.envite as envite
from bot.games.base import InlineChoice, TableView
from bot.games.render import (
    card_name,
    deadline_text,
    esc,
    hand_cards,
    join_words,
    options_text,
)
from bot.games.seats import LogEntry
from engine.cards import Card
from engine.core import Action, Event
from locales import t, tn

LADDER: tuple[int | str, ...] = (2, 4, 7, 9, "chico fuera")
"""The bet ladder as the view words it (E5)."""


# ---- small pieces ---------------------------------------------------------------------------


def step_text(lang: str, step: object) -> str:
    """``4`` → ``4``; ``"chico fuera"`` → ``chico fuera`` in the chat's language."""
    return t(lang, "envite.chico_fuera") if step == "chico fuera" else str(step)


def ladder_text(lang: str, view: Mapping[str, Any]) -> str:
    """The ladder with the stake in bold brackets and a pending bet underlined with ``?``."""
    stake = view.get("stake")
    pending = (view.get("bet") or {}).get("step")
    parts = []
    for step in LADDER:
        word = step_text(lang, step)
        if step == stake:
            word = f"<b>[{word}]</b>"
        elif step == pending:
            word = f"<u>{word}?</u>"
        parts.append(word)
    return " · ".join(parts)


def name_of(lang: str, names: Sequence[str], seat: object, mocho: object = None) -> str:
    """A seat's name in bold; the mocho's seat is "el mocho"."""
    if seat is not None and seat == mocho:
        return t(lang, "envite.mocho")
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"<b>{esc(names[seat])}</b>"
    return "?"


def team_name(lang: str, names: Sequence[str], team: object) -> str:
    """The players of a team (seats ``team``, ``team + 2``...): ``Ana, Cris y Eva``; with an
    odd number of players the short team also has the mocho (the last seat, E1).

    >>> team_name("es", ["Ana", "Bea", "Cris", "Dani", "Eva"], 1)
    'Bea, Dani y el mocho'
    """
    if not isinstance(team, int) or team not in (0, 1):
        return "?"
    members = [esc(n) for s, n in enumerate(names) if s % 2 == team]
    if len(names) % 2 and len(names) % 2 == team:
        members.append(t(lang, "envite.mocho"))
    return join_words(lang, members)


def action_label(lang: str, action: Action) -> str:
    """Button label of an action (``Envido``, ``Quiero``, ``Chico fuera``...)."""
    if action.kind == "tiro" and action.cards:
        return card_name(lang, str(action.cards[0]))
    return t(lang, f"envite.action.{action.kind}")


def card_button(lang: str, card: str) -> str:
    return "🃏 " + card_name(lang, card)


@cache
def _fixed_cards(k: int) -> frozenset[Card]:
    """E3's fixed trumps for team size ``k``: the trumps whatever the vira's suit."""
    orders = [set(envite.trump_order(Card.parse(f"4{suit}"), k)) for suit in "oceb"]
    return frozenset(set.intersection(*orders))


def trumps_text(lang: str, vira: str, k: int) -> str:
    """``Triunfos: tres de bastos › … › malilla (dos de copas) › copas`` (E3, highest first)."""
    the_vira = Card.parse(vira)
    order = envite.trump_order(the_vira, k)
    fixed = [str(c) for c in order if c in _fixed_cards(k)]
    parts = [card_name(lang, c) for c in fixed]
    malilla = f"2{the_vira.suit}"
    if any(str(c) == malilla for c in order) and malilla not in fixed:
        parts.append(t(lang, "envite.malilla", card=card_name(lang, malilla)))
    parts.append(t(lang, "envite.rest_of_suit", suit=t(lang, f"suit.{the_vira.suit}")))
    return t(lang, "envite.table.trumps", cards=" › ".join(parts))


# ---- events ---------------------------------------------------------------------------------


def event_line(lang: str, kind: str, data: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One public event of the round as a line of the table message; ``None`` if not shown."""
    d = data
    mocho = len(names)

    def who(key: str = "seat") -> str:
        return name_of(lang, names, d.get(key), mocho)

    if kind == "bet":
        if d.get("step") == "chico fuera":
            return t(lang, "envite.event.bet_chico_fuera", name=who())
        said = t(lang, f"envite.said.{d.get('action', 'envido')}")
        return t(lang, "envite.event.bet", name=who(), said=said, step=d.get("step"))
    if kind == "bet_accepted":
        return t(lang, "envite.event.accepted", name=who(), step=step_text(lang, d.get("stake")))
    if kind == "bet_refused":
        return t(lang, "envite.event.refused", name=who())
    if kind == "tumbo_decided":
        key = "envite.event.tumbo_yes" if d.get("play") else "envite.event.tumbo_no"
        return t(lang, key, name=who())
    if kind == "trick_won":
        return t(
            lang,
            "envite.event.trick",
            n=d.get("trick"),
            name=who(),
            card=card_name(lang, str(d.get("card"))),
        )
    if kind == "renuncio_called":
        return t(lang, "envite.event.renuncio_called", name=who())
    if kind == "timeout":
        action = str(d.get("action", ""))
        try:
            label = action_label(lang, Action.parse_text(action))
        except Exception:
            label = esc(action)
        return t(lang, "envite.event.timeout", name=who(), action=label)
    return None


def played_text(lang: str, names: Sequence[str], cards: Sequence[Any], mocho: object) -> str:
    """``Ana rey de espadas · Bea siete de bastos`` from ``[[seat, card], ...]``."""
    return " · ".join(
        t(lang, "envite.table.played", name=name_of(lang, names, s, mocho), card=card_name(lang, c))
        for s, c in cards
    )


def whole_trick(lang: str, data: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """A finished baza with every card and its winner (``Baza 1: Ana … → Dani``), from a
    ``trick_won`` event; ``None`` for an event without its cards (stored before they were)."""
    cards = data.get("cards")
    if not cards:
        return None
    mocho = len(names)
    return t(
        lang,
        "envite.table.trick_done",
        n=data.get("trick"),
        cards=played_text(lang, names, cards, mocho),
        name=name_of(lang, names, data.get("seat"), mocho),
    )


def _lines(
    lang: str,
    entries: Sequence[Event | LogEntry],
    names: Sequence[str],
    *,
    whole_last: bool = False,
) -> list[str]:
    """The log's lines; with ``whole_last`` the last baza is shown whole (no card of the next
    one is on the table yet)."""
    last = max((i for i, e in enumerate(entries) if e.kind == "trick_won"), default=None)
    out = []
    for i, e in enumerate(entries):
        line = whole_trick(lang, e.data, names) if whole_last and i == last else None
        line = line or event_line(lang, e.kind, e.data, names)
        if line:
            out.append(line)
    return out


# ---- the table message ----------------------------------------------------------------------


def _title(lang: str, table: TableView, round_: object) -> str:
    return t(
        lang,
        "envite.table.title",
        game=table.adapter.title(lang),
        round=round_,
        options=options_text(lang, table),
    )


def _team_line(lang: str, names: Sequence[str], view: Mapping[str, Any], team: int) -> str:
    score = list(view.get("score") or [0, 0])
    chicos = list(view.get("chicos") or [0, 0])
    en_tumbo = list(view.get("en_tumbo") or [False, False])
    line = tn(
        lang,
        f"envite.table.team{team}",
        score[team],
        team=team_name(lang, names, team),
        chicos=chicos[team],
    )
    if en_tumbo[team]:
        line += t(lang, "envite.table.en_tumbo")
    return line


def _bet_line(lang: str, names: Sequence[str], view: Mapping[str, Any]) -> str:
    if any(view.get("en_tumbo") or []):
        key = "envite.table.tumbo_round" if view.get("tumbo") else "envite.table.no_bets"
        return t(lang, key, stake=step_text(lang, view.get("stake")))
    line = t(lang, "envite.table.ladder", ladder=ladder_text(lang, view))
    bet = view.get("bet")
    if bet:
        line += t(lang, "envite.table.pending", team=team_name(lang, names, bet.get("team")))
    elif view.get("bet_closed"):
        line += t(lang, "envite.table.accepted")
    return line


def _trick_line(lang: str, names: Sequence[str], view: Mapping[str, Any]) -> str | None:
    trick = view.get("trick") or []
    if not trick:
        return None
    n = len(view.get("tricks") or []) + 1
    cards = played_text(lang, names, trick, view.get("mocho"))
    return t(lang, "envite.table.trick", n=n, cards=cards)


def _turn_line(lang: str, names: Sequence[str], view: Mapping[str, Any]) -> str:
    phase = view.get("phase")
    to_act = list(view.get("to_act") or [])
    if not to_act:
        return ""
    who = name_of(lang, names, to_act[0])
    if phase == "play":
        if view.get("turn") is not None and view.get("turn") == view.get("mocho"):
            return t(lang, "envite.table.turn_mocho", name=who)
        return t(lang, "envite.table.turn", name=who)
    if phase == "bet":
        return t(lang, "envite.table.to_answer", name=who)
    if phase == "tumbo":
        return t(lang, "envite.table.to_tumbo", name=who)
    return ""


def table_text(table: TableView) -> str:
    """The group's table message for the round being played (public view only)."""
    lang, names = table.lang, table.names()
    view = table.adapter.view(table.engine_state(), None)
    mocho = view.get("mocho")
    vira = str(view.get("vira"))
    tricks_won = list(view.get("tricks_won") or [0, 0])
    lines = [
        _title(lang, table, view.get("round")),
        t(
            lang,
            "envite.table.vira",
            vira=card_name(lang, vira),
            suit=t(lang, f"suit.{vira[-1]}"),
        ),
        trumps_text(lang, vira, int(view.get("k") or 2)),
        _team_line(lang, names, view, 0),
        _team_line(lang, names, view, 1),
        t(
            lang,
            "envite.table.dealer",
            dealer=name_of(lang, names, view.get("dealer"), mocho),
            mano=name_of(lang, names, view.get("mano"), mocho),
        ),
        _bet_line(lang, names, view),
    ]
    if view.get("tricks") or view.get("trick"):
        lines.append(
            t(
                lang,
                "envite.table.tricks",
                a=team_name(lang, names, 0),
                b=team_name(lang, names, 1),
                na=tricks_won[0],
                nb=tricks_won[1],
            )
        )
    log = _lines(lang, table.log, names, whole_last=not view.get("trick"))
    if log:
        lines += log
    trick = _trick_line(lang, names, view)
    if trick:
        lines.append(trick)
    if table.status == "playing":
        turn = _turn_line(lang, names, view)
        if turn:
            clock = deadline_text(lang, table)
            lines += ["", f"{turn} · {clock}" if clock else turn]
    elif table.status == "cancelled":
        lines.append(t(lang, "table.cancelled"))
    elif table.status == "over":
        lines += ["", t(lang, "table.over")]
    return "\n".join(lines)


def closed_table_text(table: TableView, log: Sequence[LogEntry]) -> str:
    """A finished round's table message: its bets and tricks as they went (no buttons)."""
    lang = table.lang
    lines = [t(lang, "envite.table.closed", game=table.adapter.title(lang))]
    lines += _lines(lang, log, table.names())
    return "\n".join(lines)


# ---- the round result -----------------------------------------------------------------------

_RESULT_KINDS = frozenset({"round_scored", "chico_won", "game_won", "renuncio_called"})


def _tricks(events: Sequence[Event], team: object) -> tuple[int | None, int | None]:
    """The bazas ``team`` and the other team won this round (the last ``trick_won`` event)."""
    last = next((e.data for e in reversed(events) if e.kind == "trick_won"), None)
    tricks = list((last or {}).get("tricks") or [])
    if not isinstance(team, int) or len(tricks) != 2:
        return None, None
    return int(tricks[team]), int(tricks[1 - team])


def result_text(
    table: TableView, events: Sequence[Event], hand_log: Sequence[LogEntry] = ()
) -> str | None:
    """One group message per round: who won it and why, the bazas played (every card), the
    stones, a chico or the game won. The round's bazas come from ``hand_log`` (the step's own
    events when the log has none)."""
    shown = [e for e in events if e.public and e.kind in _RESULT_KINDS]
    if not any(e.kind in ("round_scored", "chico_won") for e in shown):
        return None
    lang, names = table.lang, table.names()
    mocho = len(names)
    lines: list[str] = []
    bazas = _bazas(lang, names, events, hand_log)  # under the line saying who won the round
    for event in shown:
        d = event.data
        team = team_name(lang, names, d.get("team"))
        if event.kind == "renuncio_called":
            valid = "true" if d.get("valid") else "false"
            key = f"envite.result.renuncio_{valid}"
            lines.append(
                t(
                    lang,
                    key,
                    name=name_of(lang, names, d.get("seat"), mocho),
                    offender=name_of(lang, names, d.get("offender"), mocho),
                )
            )
        elif event.kind == "round_scored":
            key = f"envite.result.{d.get('why')}"
            won, lost = _tricks(events, d.get("team"))
            if d.get("why") == "tricks" and won is not None:
                key = "envite.result.tricks_count"  # how many bazas each team took
            lines.append(
                t(
                    lang,
                    key,
                    round=d.get("round"),
                    team=team,
                    other=team_name(lang, names, 1 - int(d.get("team") or 0)),
                    n=d.get("points"),
                    won=won,
                    lost=lost,
                )
            )
            lines += bazas
            bazas = []
            score = list(d.get("score") or [0, 0])
            lines.append(_stones(lang, names, score))
        elif event.kind == "chico_won":
            chicos = list(d.get("chicos") or [0, 0])
            lines.append(
                t(
                    lang,
                    f"envite.result.chico.{d.get('why')}",
                    team=team,
                    a=chicos[0],
                    b=chicos[1],
                )
            )
            lines += bazas
            bazas = []
        elif event.kind == "game_won":
            chicos = list(d.get("chicos") or [0, 0])
            lines.append(t(lang, "envite.result.game", team=team, a=chicos[0], b=chicos[1]))
    return "\n".join(lines)


def _bazas(
    lang: str, names: Sequence[str], events: Sequence[Event], hand_log: Sequence[LogEntry]
) -> list[str]:
    """Every baza of the round that ended, whole (the next round's events cut off)."""
    done: Sequence[Event | LogEntry] = [e for e in hand_log if e.kind == "trick_won"]
    if not done:
        ended = next((i for i, e in enumerate(events) if e.kind == "round_started"), len(events))
        done = [e for e in events[:ended] if e.kind == "trick_won"]
    return [line for e in done if (line := whole_trick(lang, e.data, names))]


def _stones(lang: str, names: Sequence[str], score: Sequence[int]) -> str:
    return t(
        lang,
        "envite.result.stones",
        a=team_name(lang, names, 0),
        b=team_name(lang, names, 1),
        na=score[0],
        nb=score[1],
    )


# ---- the private hand -----------------------------------------------------------------------


def hand_text(table: TableView, seat: int) -> str:
    """A player's private hand: his cards, and the mocho's for its mandador, clearly labelled."""
    lang = table.lang
    view = table.adapter.view(table.engine_state(), seat)
    vira = str(view.get("vira"))
    lines = [
        t(
            lang,
            "envite.hand.title",
            game=table.adapter.title(lang),
            title=esc(table.title),
            round=view.get("round"),
        ),
        t(lang, "hand.cards", cards=hand_cards(table, view.get("cards") or []) or "—"),
    ]
    mocho_cards = view.get("mocho_cards")
    if mocho_cards is not None:
        lines.append(t(lang, "envite.hand.mocho", cards=hand_cards(table, mocho_cards) or "—"))
    lines.append(
        t(lang, "envite.hand.vira", vira=card_name(lang, vira), suit=t(lang, f"suit.{vira[-1]}"))
    )
    if table.status == "playing" and view.get("phase") == "play" and seat in view["to_act"]:
        mine = view.get("turn") != view.get("mocho")
        lines.append(t(lang, "envite.hand.your_turn" if mine else "envite.hand.mocho_turn"))
    return "\n".join(lines)


def cards_alert(table: TableView, seat: int) -> str:
    """The "Mis cartas" alert (plain text, at most 200 characters)."""
    lang = table.lang
    view = table.adapter.view(table.engine_state(), seat)
    text = t(lang, "alert.cards", cards=hand_cards(table, view.get("cards") or []) or "—")
    if view.get("mocho_cards") is not None:
        text += "\n" + t(lang, "envite.alert.mocho", cards=hand_cards(table, view["mocho_cards"]))
    return text[:200]


def inline_cards(table: TableView, seat: int, actions: Sequence[Action]) -> list[InlineChoice]:
    """The inline results of a seat's playable cards (the mocho's on the mocho's turn)."""
    if not actions:
        return []
    lang = table.lang
    view = table.adapter.view(table.engine_state(), None)
    mocho_turn = view.get("turn") is not None and view.get("turn") == view.get("mocho")
    vira = Card.parse(str(view.get("vira")))
    k = int(view.get("k") or 2)
    out = []
    for action in actions:
        card = str(action.cards[0])
        name = card_name(lang, card)
        trump = envite.is_trump(action.cards[0], vira, k)
        desc_key = "envite.inline.mocho" if mocho_turn else "envite.inline.mine"
        desc = t(lang, desc_key)
        if trump:
            desc += t(lang, "envite.inline.trump")
        text_key = "envite.inline.text_mocho" if mocho_turn else "envite.inline.text"
        out.append(InlineChoice(str(action), name, desc, t(lang, text_key, card=name)))
    return out
