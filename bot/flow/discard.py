"""The private discard (Mus): each seat selects its cards, then confirms them."""

from __future__ import annotations

from collections.abc import Sequence

from bot.flow import moves
from bot.flow.clock import PAUSE
from bot.games.base import Features
from bot.table import Step, Table
from engine.cards import parse_cards
from engine.core import Action, IllegalAction


def toggle(table: Table, seat: int, card: str, selected: bool, round_: int) -> list[str]:
    """Select or unselect one card for this seat's discard; returns the selection."""
    check(table, seat, round_)
    view = table.adapter.view(table.engine_state(), seat)
    cards = [str(c) for c in view.get("cards") or []]
    if card not in cards:
        raise IllegalAction("card_not_in_hand", card=card)
    chosen = [c for c in table.discards.get(str(seat), []) if c != card]
    if selected and len(chosen) >= table.adapter.features.discard_limit:
        chosen = chosen[1:] if table.adapter.features.discard_limit > 1 else []
    if selected:
        chosen.append(card)
    table.discards[str(seat)] = [c for c in cards if c in chosen]
    return table.discards[str(seat)]


def confirm(
    table: Table,
    seat: int,
    round_: int,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
) -> Step:
    """Discard the selected cards (the engine refuses an empty selection)."""
    check(table, seat, round_)
    chosen = table.discards.get(str(seat), [])
    if not chosen:
        raise IllegalAction("bad_discard", count=0)
    return moves.play(table, seat, action(table.adapter.features, chosen), now, timeout, pause)


def action(features: Features, cards: Sequence[str]) -> Action:
    """The engine action that discards ``cards`` (card texts) in a game with these features.

    >>> str(action(Features(discard_limit=4), ["12o", "3c"]))
    'descarto 12o 3c'
    """
    return Action(features.discard_kind, cards=parse_cards(list(cards)))


def check(table: Table, seat: int, round_: int) -> None:
    if table.status != "playing":
        raise IllegalAction("not_started")
    state = table.engine_state()
    if round_ != table.discard_round or not table.adapter.features.in_discard(state):
        raise IllegalAction("stale")
    if seat not in table.adapter.to_act(state):
        raise IllegalAction("already_discarded")
