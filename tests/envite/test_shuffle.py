"""The inlined deal shuffle is exactly ``random.Random(seed).shuffle`` (E2 deals stay the same)."""

import random

from engine.cards import DECK
from engine.envite.game import shuffled_deck


def test_shuffled_deck_matches_random_shuffle() -> None:
    for seed in range(300):
        for number in (1, 2, 17):
            text = f"{seed}/{number}"
            deck = list(DECK)
            random.Random(text).shuffle(deck)
            assert shuffled_deck(text) == deck


def test_known_first_deal_unchanged() -> None:
    # Fixed by the engine before the speed-up: seed 7, round 1.
    deck = list(DECK)
    random.Random("7/1").shuffle(deck)
    assert [str(c) for c in shuffled_deck("7/1")[:4]] == [str(c) for c in deck[:4]]
