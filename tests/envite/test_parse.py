"""E7 actions: Spanish words first, English aliases (rules/envite.md)."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.core import Action
from engine.envite import IllegalAction, apply, new_game, parse_action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Spanish (E7)
        ("tiro 12o", Action("tiro", cards=(Card.parse("12o"),))),
        ("Tiro 1B", Action("tiro", cards=(Card.parse("1b"),))),
        ("envido", Action("envido")),
        ("envido 4", Action("envido", amount=4)),
        ("siete", Action("siete")),
        ("nueve", Action("nueve")),
        ("chico fuera", Action("chico_fuera")),
        ("¡Chico  fuera!", Action("chico_fuera")),
        ("quiero", Action("quiero")),
        ("no quiero", Action("no_quiero")),
        ("tumbo", Action("tumbo")),
        ("no tumbo", Action("no_tumbo")),
        ("renuncio", Action("renuncio")),
        # English aliases (E7)
        ("play 12o", Action("tiro", cards=(Card.parse("12o"),))),
        ("bet", Action("envido")),
        ("raise", Action("envido")),
        ("accept", Action("quiero")),
        ("fold", Action("no_quiero")),
        ("knock", Action("tumbo")),
        ("pass", Action("no_tumbo")),
        ("renege", Action("renuncio")),
        # A bare card means playing it.
        ("7e", Action("tiro", cards=(Card.parse("7e"),))),
    ],
)
def test_e7_words_and_aliases(text: str, expected: Action) -> None:
    """E7: every action word, Spanish and English."""
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    "action",
    [Action("tiro", cards=(Card.parse("10c"),)), Action("envido"), Action("siete"),
     Action("nueve"), Action("chico_fuera"), Action("quiero"), Action("no_quiero"),
     Action("tumbo"), Action("no_tumbo"), Action("renuncio")],
)  # fmt: skip
def test_e7_canonical_text_reads_back(action: Action) -> None:
    """E7: str(action) is the canonical Spanish text and parses back to the same action."""
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "unknown_action"), ("órdago", "unknown_action"), ("tiro 9o", "bad_card"),
     ("envido 0", "bad_amount"), ("quiero 4", "unknown_action"), ("13z", "unknown_action")],
)  # fmt: skip
def test_e7_unreadable_text_is_refused(text: str, reason: str) -> None:
    """E7: unknown words and bad cards are refused with a reason."""
    with pytest.raises(IllegalAction) as err:
        parse_action(text)
    assert err.value.reason == reason


def test_e7_apply_reads_text_in_either_language() -> None:
    """E7: apply takes text; "bet" and "accept" drive the same bet as envido/quiero."""
    hands = [["2c", "12c", "11c"], ["4e", "5e", "6e"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]
    s = new_game(players=4, dealer=3, hands=hands, vira="3c")
    s = apply(s, 0, "bet").state
    s = apply(s, 1, "raise").state
    s = apply(s, 0, "accept").state
    assert s.stake == 7
    s = apply(s, 0, "play 2c").state
    assert s.trick == (Card.parse("2c"),)
