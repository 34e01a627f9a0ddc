"""How a Mus a piedras table looks: the table message, the hand result, the private hand (HTML).

Everything comes from the engine's public view, its public events and its legal actions (the cap
is the highest amount the player to act may bet; the speaking order and direction are the
engine's ``Betting.queue`` and ``Betting.direction``); texts come from ``locales/``. User names
are escaped by :func:`bot.games.render.seat_name`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import TableView
from bot.games.mus import worth
from bot.games.piedras.events import event_lines, lance_name
from bot.games.piedras.options import card_rules
from bot.games.render import (
    MAX_LOG_LINES,
    deadline_text,
    discard_lines,
    hand_cards,
    hand_title,
    join_words,
    options_text,
    seat_name,
    worth_line,
)
from bot.games.seats import LogEntry
from locales import t, tn

SLOTS = ("grande", "chica", "pares", "juego")
SUMMARY_KINDS = frozenset(
    {
        "lance_closed", "lance_skipped", "to_plate", "deposit_taken", "ordago_settled",
        "freed", "showdown", "hand_over", "juego_lost", "player_out", "match_won",
        "juego_started", "timeout",
    }
)  # fmt: skip
"""Log entries kept for the whole hand (the result is built from them)."""
DETAIL_KINDS = frozenset({"lance_started", "spoke", "deposit_taken", "to_plate", "timeout"})
"""Entries of the lance being played shown in the table message."""
MID_HAND_KINDS = frozenset({"ordago_settled", "freed", "to_plate", "deposit_taken"})
"""Entries of earlier lances still shown in the table message: stones moved at once (a bet
nobody accepted, a refused raise, an órdago settled at once)."""
RESULT_KINDS = frozenset(
    {
        "showdown", "to_plate", "deposit_taken", "ordago_settled", "freed", "hand_over",
        "juego_lost", "player_out", "match_won", "juego_started", "timeout",
    }
)  # fmt: skip


# ---- the table message ----------------------------------------------------------------------


def table_text(table: TableView) -> str:
    """The group's table message for the hand being played (public view only)."""
    lang, names = table.lang, table.names()
    state = table.engine_state()
    view = table.adapter.view(state, None)
    betting: Mapping[str, Any] | None = view.get("betting")
    lines = [
        t(
            lang,
            "piedras.table.title",
            juego=view.get("juego"),
            hand=view.get("hand"),
            options=options_text(lang, table),
        )
    ]
    queue = list(getattr(state.betting, "queue", ()) or ())
    lines += [player_line(lang, names, view, queue, seat) for seat in range(len(names))]
    lines.append(plate_line(lang, view))
    phase = view.get("phase")
    if phase == "lance" and betting is not None:
        lines.append(lance_line(lang, names, table, state, betting))
        hint = quiero_hint(lang, table, state, betting)
        if hint:
            lines.append(hint)
    elif phase == "discard":
        lines.append(t(lang, "table.phase.discard"))
    done = lances_line(lang, names, view)
    if done:
        lines.append(done)
    log = event_lines(lang, current_log(table.log), names, card_rules(table.options))
    if log:
        lines += ["", *log[-MAX_LOG_LINES:]]
    if table.status == "playing":
        turn = turn_line(lang, names, view, state)
        if turn:
            clock = deadline_text(lang, table)
            lines += ["", f"{turn} · {clock}" if clock else turn]
    elif table.status == "cancelled":
        lines.append(t(lang, "table.cancelled"))
    elif table.status == "over":
        lines += ["", t(lang, "table.over")]
    return "\n".join(lines)


def quiero_hint(lang: str, table: TableView, state: Any, betting: Mapping[str, Any]) -> str:
    """What "quiero" means here, said while the player to act may say it: with equal bets the
    worst hand takes the deposit at the end of the hand (P4.2, P5); an órdago accepted, the
    worst hand takes the stones of all who are in it (P4.4)."""
    to_act = table.adapter.to_act(state)
    legal = table.adapter.legal_actions(state, to_act[0]) if to_act else []
    if not any(a.kind == "quiero" for a in legal):
        return ""
    return t(
        lang, "piedras.hint.ordago" if betting.get("ordago") is not None else "piedras.hint.quiero"
    )


def player_line(
    lang: str, names: Sequence[str], view: Mapping[str, Any], queue: Sequence[int], seat: int
) -> str:
    """``Ana: 5 · mano · en el lance (puso 4)``: pile, losses, and where he stands now."""
    piles = list(view.get("piles") or [])
    tags: list[str] = []
    losses = list(view.get("losses") or [])
    lost = losses[seat] if seat < len(losses) else 0
    if seat in (view.get("out") or []):
        tags.append(t(lang, "piedras.tag.out"))
    elif seat in (view.get("free") or []):
        tags.append(t(lang, "piedras.tag.free"))
    else:
        if seat == view.get("mano"):
            tags.append(t(lang, "piedras.tag.mano"))
        status = lance_status(lang, view, queue, seat)
        if status:
            tags.append(status)
    if lost and int(view.get("max_losses") or 1) > 1:
        tags.append(tn(lang, "piedras.tag.losses", lost))
    if seat in (view.get("out") or []) or seat in (view.get("free") or []):
        return " · ".join([seat_name(names, seat), *tags])
    pile = piles[seat] if seat < len(piles) else 0
    line = t(lang, "piedras.table.player", name=seat_name(names, seat), n=pile)
    return " · ".join([line, *tags])


def lance_status(lang: str, view: Mapping[str, Any], queue: Sequence[int], seat: int) -> str:
    """Where a player in the hand stands in the lance being played (``queue``: who speaks next,
    from the engine's betting)."""
    betting: Mapping[str, Any] | None = view.get("betting")
    if seat not in (view.get("in_hand") or []):
        return ""
    if view.get("phase") == "discard":
        discarded = list(view.get("discarded") or [])
        done = seat < len(discarded) and discarded[seat]
        return t(lang, "piedras.tag.discarded") if done else ""
    if betting is None:
        return ""
    put = list(betting.get("put") or [])
    stake = put[seat] if seat < len(put) else 0
    if seat not in (betting.get("players") or []):
        return t(lang, "piedras.tag.not_entitled")
    if seat in (betting.get("in_lance") or []):
        if betting.get("ordago") is not None and (
            seat == betting.get("ordago") or seat in (betting.get("accepted") or [])
        ):
            return t(lang, "piedras.tag.in_ordago")
        return t(lang, "piedras.tag.in_bet", n=stake) if stake else t(lang, "piedras.tag.in")
    if betting.get("stage") == "envite" and seat in queue:
        return t(lang, "piedras.tag.to_answer")
    return t(lang, "piedras.tag.left")


def plate_line(lang: str, view: Mapping[str, Any]) -> str:
    """``🍽 Plato: 7 · Depósitos: Grande 4 · Chica 2`` (only deposits with stones)."""
    deposits: Mapping[str, int] = view.get("deposits") or {}
    punto = view.get("lance") == "punto" or any(
        r.get("lance") == "punto" for r in view.get("lances") or []
    )
    parts = [
        t(
            lang,
            "piedras.deposit",
            lance=lance_name(lang, "punto" if slot == "juego" and punto else slot),
            n=n,
        )
        for slot, n in deposits.items()
        if n
    ]
    line = t(lang, "piedras.table.plate", n=view.get("plate", 0))
    if parts:
        line += " · " + t(lang, "piedras.table.deposits", deposits=", ".join(parts))
    return line


def lance_line(
    lang: str, names: Sequence[str], table: TableView, state: Any, betting: Mapping[str, Any]
) -> str:
    """``Lance: Grande · van 4 · tope 8``: the bets so far and the cap the engine allows now."""
    parts = [t(lang, "table.lance", lance=lance_name(lang, betting.get("lance")))]
    if betting.get("ordago") is not None:
        parts.append(t(lang, "piedras.table.ordago", name=seat_name(names, betting.get("ordago"))))
    elif betting.get("level"):
        parts.append(tn(lang, "piedras.table.level", int(betting["level"])))
    cap = cap_text(lang, table, state, betting)
    if cap:
        parts.append(cap)
    return " · ".join(parts)


def cap_text(lang: str, table: TableView, state: Any, betting: Mapping[str, Any]) -> str:
    """The most anyone may bet now, read from the legal actions of the player to act."""
    to_act = table.adapter.to_act(state)
    if not to_act or betting.get("stage") == "envite" or betting.get("ordago") is not None:
        return ""
    legal = table.adapter.legal_actions(state, to_act[0])
    amounts = [a.amount for a in legal if a.kind == "envido" and a.amount is not None]
    ordago = any(a.kind == "ordago" for a in legal)
    if amounts:
        opening = betting.get("stage") == "open"
        top = max(amounts) if opening else int(betting.get("level") or 0) + max(amounts)
        return t(lang, "piedras.table.cap", n=top)
    return t(lang, "piedras.table.cap_ordago" if ordago else "piedras.table.cap_none")


def lances_line(lang: str, names: Sequence[str], view: Mapping[str, Any]) -> str:
    """The lances of this hand already closed (``Grande en paso · Chica igualada``)."""
    parts = [
        t(
            lang,
            f"piedras.lance_result.{r.get('outcome')}",
            lance=lance_name(lang, r.get("lance")),
            name=seat_name(names, r.get("winner")),
        )
        for r in view.get("lances") or []
    ]
    return t(lang, "table.lances", lances=" · ".join(parts)) if parts else ""


def turn_line(lang: str, names: Sequence[str], view: Mapping[str, Any], state: Any) -> str:
    """Whose turn, who speaks after him and which way the round goes (the engine's queue and
    direction), or who still has to discard."""
    to_act = list(view.get("to_act") or [])
    if not to_act:
        return ""
    if view.get("phase") == "discard":
        mano = int(view.get("mano") or 0)
        order = sorted(to_act, key=lambda s: (s - mano) % max(1, len(names)))
        who = [seat_name(names, s) for s in order]
        return tn(lang, "table.to_discard", len(who), names=join_words(lang, who))
    line = t(lang, "table.to_act", names=seat_name(names, to_act[0]))
    betting = getattr(state, "betting", None)
    queue = list(getattr(betting, "queue", ()) or ())[1:]
    if queue:
        after = [seat_name(names, s) for s in queue[:3]]
        if len(queue) > 3:
            after.append("…")
        line += " · " + t(lang, "piedras.table.after", names=", ".join(after))
    direction = getattr(betting, "direction", None)
    if direction in (1, -1):
        line += " · " + t(lang, "piedras.dir.right" if direction == 1 else "piedras.dir.left")
    return line


def current_log(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """What the table message shows of the log: the stones moved earlier in the hand, then
    the lance being played (its earlier lances are in the header). Until the first word of a
    lance the previous lance's talk stays, under its name: its last answer is read there."""
    starts = [i for i, e in enumerate(entries) if e.kind == "lance_started"]
    last = starts[-1] if starts else len(entries)
    now = [e for e in entries[last:] if e.kind in DETAIL_KINDS]
    if len(starts) > 1 and not any(e.kind == "spoke" for e in now):
        last = starts[-2]
        shown = DETAIL_KINDS | MID_HAND_KINDS
        now = [e for e in entries[last:] if e.kind in shown]
    earlier = [e for e in entries[:last] if e.kind in MID_HAND_KINDS]
    return earlier + now


def keep_log(log: list[LogEntry], limit: int = 24) -> list[LogEntry]:
    """The summaries of the whole hand (the result needs them) and the last ``limit`` moves of
    the lance being played and of the one before it (the table message shows them)."""
    starts = [i for i, e in enumerate(log) if e.kind == "lance_started"]
    last = starts[-2] if len(starts) > 1 else starts[-1] if starts else len(log)
    earlier = [e for e in log[:last] if e.kind in SUMMARY_KINDS]
    now = [e for e in log[last:] if e.kind in SUMMARY_KINDS or e.kind in DETAIL_KINDS]
    details = [i for i, e in enumerate(now) if e.kind == "spoke"]
    drop = set(details[: max(0, len(details) - limit)])
    return earlier + [e for i, e in enumerate(now) if i not in drop]


def closed_table_text(table: TableView, log: Sequence[LogEntry]) -> str:
    """The final form of a finished hand's table message: the lances as they closed."""
    lang, names = table.lang, table.names()
    lines = [t(lang, "table.closed_title", game=table.adapter.title(lang))]
    parts = [
        t(
            lang,
            f"piedras.lance_result.{e.data.get('outcome')}",
            lance=lance_name(lang, e.data.get("lance")),
            name=seat_name(names, e.data.get("winner")),
        )
        for e in log
        if e.kind == "lance_closed"
    ]
    if parts:
        lines.append(t(lang, "table.lances", lances=" · ".join(parts)))
    return "\n".join(lines)


# ---- the hand result ------------------------------------------------------------------------


def result_text(
    table: TableView, events: Sequence[Any], hand_log: Sequence[LogEntry]
) -> str | None:
    """The new group message at the end of a hand: the hands shown, what each lance settled
    (stones to the plate, deposits taken), who got free, the piles, who lost the juego.

    ``None`` while the hand goes on (the table message shows everything else)."""
    if not any(e.public and e.kind in ("hand_over", "match_won") for e in events):
        return None
    lang, names = table.lang, table.names()
    hand = next((e.data.get("hand") for e in events if e.kind == "hand_over"), table.hand)
    lines = [t(lang, "piedras.result.title", hand=hand)]
    entries = [e for e in hand_log if e.kind in RESULT_KINDS]
    if not any(e.kind == "hand_over" for e in entries):  # the log was cut short: use the step
        entries = [e for e in events if e.public and e.kind in RESULT_KINDS]
    just_lost = {e.data.get("seat") for e in entries if e.kind == "juego_lost"}
    out = set(table.adapter.view(table.engine_state(), None).get("out") or []) - just_lost
    lines += event_lines(lang, entries, names, card_rules(table.options), out)
    return "\n".join(lines)


# ---- the private hand -----------------------------------------------------------------------


def hand_text(table: TableView, seat: int) -> str:
    """A player's private hand: his cards best first, what they are worth, his pile."""
    lang = table.lang
    view = table.adapter.view(table.engine_state(), seat)
    cards = table.adapter.seat_cards(table, seat)
    lines = [hand_title(table, view.get("hand", table.hand))]
    if cards:
        lines.append(t(lang, "hand.cards", cards=hand_cards(table, cards)))
        worth_text = worth_line(lang, worth.hand_worth(cards, card_rules(table.options)))
        if worth_text:
            lines.append(worth_text)
    lines.append(pile_text(lang, view, seat))
    lines += discard_lines(table, seat, cards)
    return "\n".join(lines)


def pile_text(lang: str, view: Mapping[str, Any], seat: int) -> str:
    piles = list(view.get("piles") or [])
    n = piles[seat] if seat < len(piles) else 0
    if seat in (view.get("out") or []):
        return t(lang, "piedras.hand.out")
    if seat in (view.get("free") or []):
        return t(lang, "piedras.hand.free")
    return t(lang, "piedras.hand.pile", n=n, plate=view.get("plate", 0))


def cards_alert(table: TableView, seat: int) -> str:
    """The "Mis cartas" private alert (plain text, at most 200 characters)."""
    lang = table.lang
    cards = table.adapter.seat_cards(table, seat)
    view = table.adapter.view(table.engine_state(), seat)
    lines = [t(lang, "alert.cards", cards=hand_cards(table, cards))] if cards else []
    worth_text = worth_line(lang, worth.hand_worth(cards, card_rules(table.options)))
    if worth_text:
        lines.append(worth_text)
    lines.append(pile_text(lang, view, seat))
    return "\n".join(lines)[:200]
