"""The Spanish deck and the card notation of DESIGN.md."""

import json
import random

import pytest
from pydantic import TypeAdapter

from engine.cards import DECK, Card, InvalidCard, parse_cards, shuffled
from engine.core import Action, IllegalAction, normalize, parse_amount, parse_words


def test_deck_has_forty_distinct_cards() -> None:
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert {c.rank for c in DECK} == {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}


@pytest.mark.parametrize("text", ["12o", "12O", " 1b", "7E"])
def test_parse_is_case_insensitive(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text.strip().lower()
    assert Card.parse(str(card)) is card


@pytest.mark.parametrize("text", ["8o", "9c", "0e", "13b", "12x", "", "oros", "1"])
def test_parse_rejects_non_cards(text: str) -> None:
    with pytest.raises(InvalidCard):
        Card.parse(text)


def test_parse_cards_accepts_spaces_and_commas() -> None:
    assert [str(c) for c in parse_cards("12o,3c  1b, 7e")] == ["12o", "3c", "1b", "7e"]


def test_cards_serialise_as_text() -> None:
    adapter = TypeAdapter(tuple[Card, ...])
    cards = parse_cards("12o 3c")
    dumped = adapter.dump_json(cards)
    assert json.loads(dumped) == ["12o", "3c"]
    assert adapter.validate_json(dumped) == cards


def test_action_text_round_trip() -> None:
    for action in [
        Action("paso"),
        Action("envido", amount=5),
        Action("no_quiero"),
        Action("descarto", cards=parse_cards("12o 3c")),
        Action("chico_fuera"),
    ]:
        assert Action.parse_text(str(action)) == action


def test_normalize_strips_accents_and_case() -> None:
    assert normalize("ÓRDAGO") == "ordago"
    assert normalize(" 5  Más ") == "5 mas"


@pytest.mark.parametrize("token", ["-3", "abc", "0", "99999999999", "1.5", ""])
def test_malformed_amounts_are_refused(token: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_amount(token)
    assert info.value.reason == "bad_amount"


def test_parse_words_longest_phrase_wins() -> None:
    phrases = {"no quiero": "no_quiero", "quiero": "quiero", "envido": "envido"}
    assert parse_words("No quiero", phrases) == Action("no_quiero")
    assert parse_words("envido 7", phrases) == Action("envido", amount=7)
    assert parse_words("3 más", phrases) == Action("envido", amount=3)
    with pytest.raises(IllegalAction) as info:
        parse_words("envido abc", phrases)
    assert info.value.reason == "bad_amount"
    with pytest.raises(IllegalAction) as info:
        parse_words("hola", phrases)
    assert info.value.reason == "unknown_action"


def test_shuffled_is_random_shuffle_bit_for_bit() -> None:
    # Every deal comes from engine.cards.shuffled: stored games and seeded tests rely on it.
    for n in (0, 1, 2, 3, 16, 24, 39, 40, 41, 100, 300):
        for seed in range(200):
            items = list(range(n))
            random.Random(f"{seed}/{n}/deal").shuffle(items)
            assert shuffled(f"{seed}/{n}/deal", range(n)) == items
