"""How a Mus table looks: the table message, the hand result, the private hand (HTML).

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

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.games.base import TableView
from bot.games.mus import buttons, reasons, worth
from bot.games.mus.reasons import pair_name
from bot.games.render import (
    MAX_LOG_LINES,
    deadline_text,
    discard_lines,
    esc,
    hand_cards,
    hand_title,
    join_words,
    options_text,
    seat_name,
    worth_line,
)
from bot.games.seats import LogEntry
from engine.core import Action, Event
from locales import t, tn

# ---- small pieces ---------------------------------------------------------------------------


def amarracos(lang: str, points: int) -> str:
    """A score both ways: points and amarracos (5 points each) with the rest (rules/mus.md M1)."""
    n, rest = divmod(points, 5)
    if n == 0:
        return str(points)
    whole = tn(lang, "score.amarracos", n)
    if rest:
        whole = t(lang, "score.and_rest", amarracos=whole, rest=rest)
    return f"{points} ({whole})"


def ranks_text(lang: str, cards: Iterable[str]) -> str:
    """``["12o", "3c"]`` → ``rey, tres`` (suits do not matter in mus)."""
    return ", ".join(t(lang, f"rank.{str(c)[:-1]}") for c in cards)


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
    """A spoken action as mus players say it: ``envido 5``, ``envido (van 2)`` when opening,
    ``envido 5 (van 5)``, ``2 más (van 4)`` when raising, a loud órdago: every bet says what
    is on the table.

    >>> _spoken("es", "envido 2", 4), _spoken("es", "envido", 2), _spoken("es", "envido 5", 5)
    ('2 más (van 4)', 'envido (van 2)', 'envido 5 (van 5)')
    """
    try:
        action = Action.parse_text(text)
    except Exception:
        return esc(text)
    if action.kind == "envido" and isinstance(bet, int):
        step = action.amount if action.amount is not None else 2
        if bet > step:
            return t(lang, "said.raise", n=step, total=bet)
        if action.amount is None:
            return t(lang, "said.envido", total=bet)
        return t(lang, "said.envido_total", n=step, total=bet)
    if action.kind == "envido":
        return action_label(lang, action)
    return t(lang, f"said.{action.kind}")


def action_label(lang: str, action: Action, *, raising: bool = False) -> str:
    """The words for an action, also used as button labels (``Envido 2``, ``2 más``)."""
    return buttons.label(lang, action, raising=raising)


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
        who = [seat_name(names, seat) for seat, h in enumerate(has) if h]
        return t(
            lang,
            "event.declared",
            lance=lance_name(lang, d.get("lance")),
            who=join_words(lang, who) if who else t(lang, "event.declared_nobody"),
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
        return "\n".join(showdown_lines(lang, d, names))
    if kind == "scored":
        why = str(d.get("why"))
        lance = d.get("lance")
        return t(
            lang,
            "event.scored",
            pair=pair_name(lang, names, d.get("pair")),
            points=d.get("points"),
            lance=lance_name(lang, lance),
            why="" if why == lance else t(lang, f"why.{why}"),
        )
    if kind == "not_counted":
        return _not_counted(lang, d, names)
    if kind == "hand_over":
        score = list(d.get("score") or [0, 0])
        return t(
            lang,
            "event.hand_over",
            hand=d.get("hand"),
            a=t(
                lang,
                "score.pair",
                pair=pair_name(lang, names, 0),
                score=amarracos(lang, int(score[0])),
            ),
            b=t(
                lang,
                "score.pair",
                pair=pair_name(lang, names, 1),
                score=amarracos(lang, int(score[1])),
            ),
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


def _not_counted(lang: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    """What the end of the hand did not collect, the juego being won (M5): one part per lance
    and pair (an accepted bet and the lance's values together)."""
    parts: list[tuple[object, object, int]] = []
    for item in data.get("items") or []:
        lance, pair, points = item.get("lance"), item.get("pair"), int(item.get("points") or 0)
        if parts and parts[-1][:2] == (lance, pair):
            parts[-1] = (lance, pair, parts[-1][2] + points)
        else:
            parts.append((lance, pair, points))
    said = [
        t(
            lang,
            "event.not_counted_item",
            lance=lance_name(lang, lance),
            points=points,
            pair=pair_name(lang, names, pair),
        )
        for lance, pair, points in parts
    ]
    return t(lang, "event.not_counted", items=" · ".join(said))


def showdown_lines(
    lang: str,
    data: Mapping[str, Any],
    names: Sequence[str],
    order: Callable[[list[str]], list[str]] | None = None,
) -> list[str]:
    """Each hand shown (ranks only, high to low, as the engine orders them) with what it is
    worth: its pares and, when it counts, its juego or punto (from the ``showdown`` event)."""
    hands = list(data.get("hands") or [])
    pares = list(data.get("pares") or [None] * len(hands))
    points = list(data.get("points") or [None] * len(hands))
    juego = any(isinstance(p, int) and p >= JUEGO for p in points)
    lines = []
    for seat, hand in enumerate(hands):
        worth = []
        if seat < len(pares) and pares[seat]:
            worth.append(t(lang, f"pares.{pares[seat]}"))
        pts = points[seat] if seat < len(points) else None
        if isinstance(pts, int) and pts >= JUEGO:
            worth.append(t(lang, "worth.juego", n=pts))
        elif isinstance(pts, int) and not juego:
            worth.append(t(lang, "worth.punto", n=pts))
        cards = order(list(hand)) if order is not None else list(hand)
        line = t(lang, "event.showdown", name=seat_name(names, seat), cards=ranks_text(lang, cards))
        lines.append(f"{line} · {' · '.join(worth)}" if worth else line)
    return lines


JUEGO = 31
"""The juego threshold (rules/mus.md M3), only to word the engine's points (juego or punto)."""


def event_lines(lang: str, events: Iterable[Event | LogEntry], names: Sequence[str]) -> list[str]:
    """Public events as lines, compacted for a phone: a run of "mus" is one line, a round of
    discards one line, and a move played by the clock one line (the ⏱ note)."""
    items = list(events)
    lines: list[str] = []
    i = 0
    while i < len(items):
        kind, data = items[i].kind, items[i].data
        if kind == "timeout" and i + 1 < len(items):
            nxt = items[i + 1]
            if nxt.kind in ("spoke", "discarded") and nxt.data.get("seat") == data.get("seat"):
                # The note already says what the clock played for that seat.
                lines.append(event_line(lang, kind, data, names) or "")
                i += 2
                continue
        run = _run(items, i, kind, data)
        if len(run) > 1 and kind == "spoke":
            who = [seat_name(names, e.data.get("seat")) for e in run]
            lines.append(t(lang, "event.mus_run", names=join_words(lang, who)))
            i += len(run)
            continue
        if run and kind == "discarded":
            parts = [
                t(
                    lang,
                    "event.discard_part",
                    name=seat_name(names, e.data.get("seat")),
                    n=e.data.get("count"),
                )
                for e in run
            ]
            lines.append(t(lang, "event.discards", who=", ".join(parts)))
            i += len(run)
            continue
        line = event_line(lang, kind, data, names)
        if line:
            lines.append(line)
        i += 1
    return lines


def _run(
    items: Sequence[Event | LogEntry], start: int, kind: str, data: Mapping[str, Any]
) -> list[Event | LogEntry]:
    """The consecutive "mus" (or discard) entries from ``start``."""

    def same(e: Event | LogEntry) -> bool:
        if kind == "discarded":
            return e.kind == "discarded"
        return e.kind == "spoke" and e.data.get("action") == "mus"

    if kind != "discarded" and not (kind == "spoke" and data.get("action") == "mus"):
        return []
    return list(itertools.takewhile(same, items[start:]))


# ---- whole messages -------------------------------------------------------------------------


def _bet_text(lang: str, names: Sequence[str], bet: object, view: Mapping[str, Any]) -> str:
    """The bet on the table from the view: an amount, or a dict with amount/pair/ordago."""
    if bet is None and not view.get("ordago"):
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


def _current_log(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """What the table message shows of the log: the talk of the lance being played (its earlier
    lances are in the header) as players said it. Until the first word of a lance, the previous
    lance's talk stays (headed by its name: its last answer is read there); in the first lance,
    the last mus round (who said mus, who cut) stays above it. Before the first lance: the mus
    rounds."""
    starts = [i for i, e in enumerate(entries) if e.kind == "lance_started"]
    if not starts:
        return list(entries)
    current = [
        e for e in entries[starts[-1] + 1 :] if e.kind not in ("lance_closed", "lance_skipped")
    ]
    if len(starts) > 1:
        if any(e.kind == "spoke" for e in current):
            return current
        before = entries[starts[-2] : starts[-1]]
        return [e for e in before if e.kind in _TALK or e.kind == "lance_started"] + current
    return [*_mus_round(entries, starts[0]), *current]


_TALK = frozenset({"spoke", "timeout"})
"""The log entries that are a player's words (a ``timeout`` notes the clock spoke for him)."""


def _mus_round(entries: Sequence[LogEntry], end: int) -> list[LogEntry]:
    """The last mus round before ``end`` (after the last discards): who said mus, who cut."""
    return [e for e in entries[mus_round_start(entries, end) : end] if e.kind in _TALK]


def mus_round_start(entries: Sequence[LogEntry], end: int) -> int:
    """Where the last mus round before ``end`` begins (the log keeps it whole)."""
    return max((i + 1 for i in range(end) if entries[i].kind == "discarded"), default=0)


def _closed_lances(lang: str, names: Sequence[str], entries: Sequence[LogEntry]) -> str:
    results = [
        {
            "lance": e.data.get("lance"),
            "outcome": e.data.get("outcome") or e.data.get("reason"),
            "bet": e.data.get("bet"),
            "pair": e.data.get("pair"),
        }
        for e in entries
        if e.kind in ("lance_closed", "lance_skipped")
        and not (
            e.kind == "lance_skipped"
            and e.data.get("lance") == "juego"
            and e.data.get("reason") == "nobody"
        )
    ]
    return _lances_text(lang, names, results)


def table_text(table: TableView, *, closed: Sequence[LogEntry] | None = None) -> str:
    """The group's table message for the current hand (public view only).

    With ``closed`` (the log of a finished hand) it renders that hand's final, closed form: the
    lances as they went (the result message with the cards and points follows it).
    """
    lang = table.lang
    names = table.names()
    if closed is not None:
        lines = [t(lang, "table.closed_title", game=table.adapter.title(lang))]
        lances = _closed_lances(lang, names, closed)
        if lances:
            lines.append(lances)
        talk = _current_log(closed)
        if not any(e.kind == "lance_started" for e in talk):
            talk = [e for e in closed if e.kind == "lance_started"][-1:] + talk
        lines += event_lines(lang, talk, names)[-MAX_LOG_LINES:]
        return "\n".join(lines)
    view = table.adapter.view(table.engine_state(), None)
    score = list(view.get("score") or [0, 0])
    juegos = list(view.get("juegos") or [0, 0])
    lines = [
        t(
            lang,
            "table.title",
            game=table.adapter.title(lang),
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
    log = event_lines(lang, _current_log(table.log), names)[-MAX_LOG_LINES:]
    if log:
        lines.append("")
        lines += log
    if table.status == "playing":
        turn = _to_act_text(lang, names, view, phase, list(view.get("to_act") or table.to_act()))
        if turn:
            lines.append("")
            clock = deadline_text(lang, table)
            lines.append(f"{turn} · {clock}" if clock else turn)
    elif table.status == "cancelled":
        lines.append(t(lang, "table.cancelled"))
    elif table.status == "over":
        lines += ["", t(lang, "table.over")]
    return "\n".join(lines)


def _to_act_text(
    lang: str, names: Sequence[str], view: Mapping[str, Any], phase: object, to_act: list[int]
) -> str:
    """Whose turn: one player, either of two opponents answering a bet (M4), or the players
    still to discard."""
    if not to_act:
        return ""
    mano = view.get("mano")
    if isinstance(mano, int) and names:
        to_act = sorted(to_act, key=lambda s: (s - mano) % len(names))  # in playing order
    who = [seat_name(names, s) for s in to_act]
    if phase == "discard":
        return tn(lang, "table.to_discard", len(who), names=join_words(lang, who))
    answering = phase == "lance" and (view.get("bet") is not None or bool(view.get("ordago")))
    if answering:
        return tn(lang, "table.to_answer", len(who), names=join_words(lang, who, either=True))
    return t(lang, "table.to_act", names=join_words(lang, who))


def result_text(
    table: TableView, events: Iterable[Event], hand_log: Sequence[LogEntry] = ()
) -> str | None:
    """The hand result message: the score first, then the cards shown with what each hand is
    worth, the points lance by lance (refused bets, collected during the hand, come from
    ``hand_log``), and the juego and vaca won. ``None`` while the hand goes on: a refused bet
    alone is no reason for a new group message (the table message shows it)."""
    shown = [e for e in events if e.public and e.kind in _RESULT_KINDS]
    if not any(e.kind in ("hand_over", "juego_won", "vaca_won") for e in shown):
        return None
    lang, names = table.lang, table.names()
    lines = event_lines(lang, [e for e in shown if e.kind == "hand_over"], names)
    for event in shown:
        if event.kind == "showdown":

            def order(cards: list[str]) -> list[str]:
                return worth.display_order(cards, table.options)

            lines += showdown_lines(lang, event.data, names, order)
    scored: list[tuple[int, str]] = []
    refusals: list[Event | LogEntry] = [e for e in hand_log if e.kind == "lance_closed"]
    refusals += [e for e in shown if e.kind == "lance_closed"]
    seen: set[object] = set()
    for entry in refusals:
        d = entry.data
        if d.get("outcome") != "no_querido" or d.get("lance") in seen:
            continue
        seen.add(d.get("lance"))
        data = {"pair": d.get("pair"), "points": d.get("bet"), "lance": d.get("lance")}
        line = event_line(lang, "scored", {**data, "why": "no_querido"}, names)
        scored.append((_lance_order(d.get("lance")), line or ""))
    showdown = next((e.data for e in reversed(shown) if e.kind == "showdown"), {})
    for event in shown:
        if event.kind == "scored" and event.data.get("why") != "no_querido":
            line = reasons.scored_line(lang, event.data, names, showdown)
            line = line or event_line(lang, "scored", event.data, names)
            scored.append((_lance_order(event.data.get("lance")), line or ""))
    lines += [line for _, line in sorted(scored, key=lambda x: x[0])]
    lines += [
        event_line(lang, e.kind, e.data, names) or "" for e in shown if e.kind == "not_counted"
    ]
    for event in shown:
        if event.kind in ("juego_won", "vaca_won"):
            lines += event_lines(lang, [event], names)
    return "\n".join(lines) if lines else None


def _lance_order(lance: object) -> int:
    order = ("grande", "chica", "pares", "juego", "punto")
    return order.index(lance) if lance in order else len(order)


_RESULT_KINDS = frozenset(
    {"showdown", "scored", "not_counted", "hand_over", "juego_won", "vaca_won", "lance_closed"}
)


def hand_text(table: TableView, seat: int) -> str:
    """A player's private hand message (only this seat's own cards, high to low)."""
    lang = table.lang
    view = table.adapter.view(table.engine_state(), seat)
    cards = table.adapter.seat_cards(table, seat)
    lines = [
        hand_title(table, view.get("hand", table.hand)),
        t(lang, "hand.cards", cards=hand_cards(table, cards)),
    ]
    worth_text = worth_line(lang, worth.hand_worth(cards, table.options))
    if worth_text:
        lines.append(worth_text)
    lines += discard_lines(table, seat, cards)
    return "\n".join(lines)


def cards_alert(table: TableView, seat: int) -> str:
    """The "Mis cartas" private alert (plain text, at most 200 characters)."""
    cards = table.adapter.seat_cards(table, seat)
    lang = table.lang
    text = t(lang, "alert.cards", cards=hand_cards(table, cards))
    worth_text = worth_line(lang, worth.hand_worth(cards, table.options))
    if worth_text:
        text += "\n" + worth_text
    return text[:200]
