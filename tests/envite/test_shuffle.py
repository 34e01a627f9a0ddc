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


def test_known_first_deals_unchanged() -> None:
    """Deals written down from the engine before the speed-up (seed 7, first hand)."""
    import engine.envite as envite
    import engine.piedras as piedras

    s = envite.new_game(players=4, seed=7)
    assert [[str(c) for c in h] for h in s.hands] == [
        ["4b", "11o", "5e"],
        ["6e", "3e", "11e"],
        ["1o", "2o", "2c"],
        ["12b", "5o", "6c"],
    ]
    assert str(s.vira) == "10o"
    p = piedras.new_game(players=3, seed=7)
    assert [[str(c) for c in h] for h in p.hands] == [
        ["6e", "1o", "12b", "4b", "10o"],
        ["3e", "2o", "5o", "11o", "5c"],
        ["11e", "2c", "6c", "5e", "6o"],
    ]
