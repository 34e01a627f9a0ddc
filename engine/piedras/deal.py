"""Starting juegos and hands: stones handed out, the mano, the deal of five (P1, P2)."""

from __future__ import annotations

from engine.cards import Card
from engine.envite.deal import shuffled_deck
from engine.piedras.table import _ONLY, Table, card_text


def next_mano(t: Table, after: int) -> int:
    """The first seat to the right of ``after`` that plays (seated and not free) (P1)."""
    n = t.players
    for i in range(1, n + 1):
        seat = (after + i) % n
        if seat in t.seated and seat not in t.free:
            return seat
    raise AssertionError("nobody left to play")


def start_juego(t: Table) -> None:
    """Everyone still in the match gets the starting stones again (P1)."""
    t.juego += 1
    t.seated = tuple([s for s in range(t.players) if t.losses[s] < t.options.losses])
    t.piles = [t.options.stones if s in t.seated else 0 for s in range(t.players)]
    t.plate = 0
    t.deposits = [0, 0, 0, 0]
    t.free = ()
    t.emit("juego_started", juego=t.juego, stones=t.options.stones, players=list(t.seated))


def start_hand(t: Table, mano: int, hands: list[tuple[Card, ...]] | None = None) -> None:
    """Deal five cards each, one at a time from the mano (P2); ``hands`` forces the deal."""
    t.hand_number += 1
    t.mano = mano
    t.in_hand = tuple(t.from_mano([s for s in t.seated if s not in t.free]))
    t.lances = ()
    t.betting = None
    t.revealed = ()
    t.spoken = ()
    assert not any(t.deposits), "every deposit is settled before a new hand"
    t.phase = "discard"
    t._values = None
    if hands is None:
        deck = shuffled_deck(f"{t.seed}/{t.hand_number}")
        k = len(t.in_hand)
        dealt: list[tuple[Card, ...]] = [() for _ in range(t.players)]
        for j, seat in enumerate(t.in_hand):  # one card at a time from the mano (P2)
            dealt[seat] = tuple(deck[j : 5 * k : k])
        hands = dealt
    t.hands = list(hands)
    in_hand = t.in_hand
    t.emit(
        "hand_started",
        hand=t.hand_number,
        juego=t.juego,
        mano=mano,
        dealer=in_hand[-1],
        players=list(in_hand),
        piles=list(t.piles),
        plate=t.plate,
    )
    raw = t.raw
    for s in in_hand:
        raw.append(("dealt", {"seat": s, "cards": list(map(card_text, hands[s]))}, _ONLY[s]))
