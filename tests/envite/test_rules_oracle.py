"""E3/E4 against a second, literal reading of rules/envite.md, for every team size and vira.

The oracle below is written straight from the rules text (not from ``engine.envite.ranking``):
if the engine and it ever disagree on a trump order, a trick's winner or the cards a player may
play, one of them misreads the rules.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import DECK, Card
from engine.core import Action
from engine.envite import apply, new_game, playable, top_card, trick_winner, trump_order

# E3: the fixed trumps each team size puts above the vira suit, highest first.
FIXED = {
    2: [],
    3: ["3b", "11b", "10o"],
    4: ["5o", "3b", "11b", "10o"],
    5: ["2o", "5o", "3b", "11b", "10o"],
    6: ["1o", "2o", "5o", "3b", "11b", "10o"],
}
VIRA_SUIT = [2, 12, 11, 10, 1, 7, 6, 5, 4, 3]  # malilla, rey, caballo, sota, as, 7..3
PLAIN = [12, 11, 10, 1, 7, 6, 5, 4, 3, 2]  # rey, caballo, sota, as, 7..2


def oracle_trumps(vira: Card, k: int) -> list[Card]:
    """E3: fixed trumps, then the vira suit; each card once at its highest place; no vira."""
    order = [Card.parse(text) for text in FIXED[k]]
    for rank in VIRA_SUIT:
        card = Card.parse(f"{rank}{vira.suit}")
        if card not in order:
            order.append(card)
    return [card for card in order if card != vira]


def oracle_winner(cards: list[Card], vira: Card, k: int) -> int:
    """E3: trumps beat all; else the suit led (a fixed trump's printed suit is not led)."""
    trumps = oracle_trumps(vira, k)
    trump_led = cards[0] in trumps

    def strength(card: Card) -> int:
        if card in trumps:
            return 100 - trumps.index(card)
        if not trump_led and card.suit == cards[0].suit:
            return 50 - PLAIN.index(card.rank)
        return 0

    scores = [strength(card) for card in cards]
    assert scores.count(max(scores)) == 1, "E3: ties between cards cannot happen"
    return scores.index(max(scores))


def oracle_playable(hand: list[Card], led: Card, vira: Card, k: int) -> list[Card]:
    """E4: follow a non-trump suit if able; at an arrastre play a trump, the top card excepted."""
    trumps = oracle_trumps(vira, k)
    if led in trumps:
        mine = [card for card in hand if card in trumps]
        forced = [card for card in mine if card != trumps[0]]
        return mine if forced else hand
    same = [card for card in hand if card not in trumps and card.suit == led.suit]
    return same or hand


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_e3_trump_order_and_top_card_for_every_vira(k: int) -> None:
    """E3/E4: for all 40 viras, the engine's trump order and top card are the oracle's."""
    for vira in DECK:
        expected = oracle_trumps(vira, k)
        assert list(trump_order(vira, k)) == expected, str(vira)
        assert top_card(vira, k) == expected[0], str(vira)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_e3_trick_winner_for_every_vira(k: int) -> None:
    """E3: random full tricks under every vira have the oracle's winner."""
    rng = random.Random(k)
    for vira in DECK:
        rest = [card for card in DECK if card != vira]
        for _ in range(60):
            cards = rng.sample(rest, 2 * k)
            assert trick_winner(cards, vira, k) == oracle_winner(cards, vira, k), (vira, cards)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_e4_cards_a_player_may_play_for_every_vira(k: int) -> None:
    """E4: after a random lead under every vira, the second player may play exactly the oracle's
    cards (follow suit, fixed trumps off their printed suit, arrastre, top-card exemption)."""
    rng = random.Random(100 + k)
    players = 2 * k
    for vira in DECK:
        rest = [card for card in DECK if card != vira]
        for _ in range(25):
            cards = rng.sample(rest, 3 * players)
            hands = [cards[3 * i : 3 * i + 3] for i in range(players)]
            state = new_game(players=players, dealer=players - 1, hands=hands, vira=vira)
            led = rng.choice(hands[0])
            state = apply(state, 0, Action("tiro", cards=(led,))).state
            assert playable(state, 1) == oracle_playable(hands[1], led, vira, k), (vira, led)
