"""M6: action words (Spanish first, English aliases) and every refusal reason code (M2, M4)."""

import pytest

from engine.core import Action, IllegalAction
from engine.mus import Options, apply, default_action, legal_actions, new_game, parse_action
from engine.mus.state import MusState

M7 = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mus", "mus"),
        ("Mus", "mus"),
        ("no hay mus", "corto"),
        ("corto", "corto"),
        ("descarto 12o 3c", "descarto 12o 3c"),
        ("paso", "paso"),
        ("envido", "envido"),
        ("envido 5", "envido 5"),
        ("5 más", "envido 5"),
        ("5 mas", "envido 5"),
        ("quiero", "quiero"),
        ("no quiero", "no quiero"),
        ("órdago", "ordago"),
        ("ordago", "ordago"),
        ("ÓRDAGO!", "ordago"),
        # English aliases
        ("cut", "corto"),
        ("discard 12o 3c", "descarto 12o 3c"),
        ("pass", "paso"),
        ("bet", "envido"),
        ("bet 5", "envido 5"),
        ("raise 5", "envido 5"),
        ("accept", "quiero"),
        ("fold", "no quiero"),
        ("allin", "ordago"),
    ],
)
def test_m6_action_words(text: str, expected: str) -> None:
    action = parse_action(text)
    assert str(action) == expected
    assert parse_action(str(action)) == action  # canonical text reads back


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "unknown_action"),
        ("tengo pares", "unknown_action"),
        ("quiero 5", "unknown_action"),
        ("envido 0", "bad_amount"),
        ("envido mil", "bad_amount"),
        ("envido 1000", "bad_amount"),
        ("descarto 9o", "bad_card"),
        ("descarto 12o 12o", "bad_card"),
    ],
)
def test_m6_unreadable_text_is_refused(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction) as err:
        parse_action(text)
    assert err.value.reason == reason


def refusal(state: MusState, seat: int, text: str | Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, text)
    return err.value.reason


def lance_state(script: str, hands: list[str] | None = None) -> MusState:
    s = new_game(seed=1, hands=hands or M7)
    for step in script.split(";"):
        seat, text = step.split(":")
        s = apply(s, int(seat), text.strip()).state
    return s


def test_m2_refusals_in_the_mus_phase() -> None:
    s = new_game(seed=1, hands=M7)
    assert refusal(s, 1, "mus") == "not_your_turn"
    assert refusal(s, 0, "envido") == "wrong_phase"
    assert refusal(s, 0, "descarto 1o") == "wrong_phase"
    assert refusal(s, 5, "mus") == "not_your_turn"
    assert refusal(s, 0, "hola") == "unknown_action"


def test_m2_refusals_in_the_discard_phase() -> None:
    s = lance_state("0: mus; 1: mus; 2: mus; 3: mus")
    assert refusal(s, 0, "descarto 12o") == "card_not_in_hand"
    assert refusal(s, 0, Action("descarto")) == "bad_discard"
    assert refusal(s, 0, "descarto") == "bad_discard"
    assert refusal(s, 0, "mus") == "wrong_phase"
    assert refusal(s, 0, "descarto 9z") == "bad_card"
    s = apply(s, 0, "descarto 1o").state
    assert refusal(s, 0, "descarto 2c") == "not_your_turn"  # already discarded


def test_m4_refusals_while_betting() -> None:
    s = lance_state("0: corto")
    assert refusal(s, 1, "paso") == "not_your_turn"
    assert refusal(s, 0, "quiero") == "no_bet_to_answer"
    assert refusal(s, 2, "no quiero") == "no_bet_to_answer"
    assert refusal(s, 0, "envido 1") == "bet_too_small"
    assert refusal(s, 0, "mus") == "wrong_phase"
    assert refusal(s, 0, "bet 9999") == "bad_amount"
    s = apply(s, 0, "envido").state
    assert refusal(s, 2, "envido 3") == "cannot_raise_own_bet"  # the partner
    assert refusal(s, 0, "5 más") == "cannot_raise_own_bet"
    assert s.to_act == (1, 3)  # either opponent may answer (M4)
    assert refusal(s, 1, "1 más") == "bet_too_small"
    s = apply(s, 1, "ordago").state
    assert refusal(s, 2, "envido") == "cannot_raise_ordago"
    assert refusal(s, 2, "ordago") == "cannot_raise_ordago"


def test_m4_betting_pares_without_pares_is_refused() -> None:
    hands = ["1o 4c 5c 6b", "7o 7c 5e 4b", "12o 12c 7e 4o", "10o 7b 6e 5o"]
    passes = "0: paso; 1: paso; 2: paso; 3: paso"
    s = lance_state(f"0: corto; {passes}; {passes}", hands)
    assert s.lance == "pares"
    assert refusal(s, 0, "envido") == "not_in_lance"
    assert refusal(s, 3, "paso") == "not_in_lance"
    assert legal_actions(s, 0) == []


def test_m1_game_over_refuses_everything() -> None:
    s = new_game(seed=1, hands=M7, options=Options(juegos=1))
    for step in ("corto", "ordago"):
        s = apply(s, 0, step).state
    s = apply(s, 1, "quiero").state
    assert s.is_over and s.winner == 0
    assert refusal(s, 0, "paso") == "game_over"
    assert legal_actions(s, 0) == []
    with pytest.raises(IllegalAction) as err:
        default_action(s, 0)
    assert err.value.reason == "game_over"


def test_m4_refusal_leaves_the_state_unchanged() -> None:
    s = lance_state("0: corto; 0: envido")
    before = s
    refusal(s, 2, "envido")
    assert s == before and s.to_act == (1, 3)


def test_m4_paso_facing_a_bet_counts_as_no_quiero() -> None:
    s = lance_state("0: corto; 0: envido")
    t = apply(s, 1, "paso")
    assert t.events[0].data == {"seat": 1, "action": "no quiero", "bet": None}
    assert t.state.to_act == (3,)


def test_m4_default_actions_are_safe() -> None:
    s = new_game(seed=1, hands=["12o 3c 5b 4e", "7o 6c 5e 4b", "12c 11c 7e 4o", "10o 7c 6e 5o"])
    assert str(default_action(s, 0)) == "corto"
    d = lance_state("0: mus; 1: mus; 2: mus; 3: mus", ["12e 3c 5b 4e", *M7[1:]])
    assert str(default_action(d, 0)) == "descarto 5b 4e"  # keep reyes (3 is a rey)
    g = lance_state("0: corto")
    assert str(default_action(g, 0)) == "paso"
    g = apply(g, 0, "envido").state
    assert str(default_action(g, 1)) == "no quiero"
    for seat in g.to_act:
        assert default_action(g, seat) in legal_actions(g, seat)


def test_m4_legal_actions_facing_a_bet_and_an_ordago() -> None:
    s = lance_state("0: corto; 0: envido")
    assert [str(a) for a in legal_actions(s, 1)] == [
        "quiero", "no quiero", "envido", "envido 3", "envido 4", "envido 5", "envido 10", "ordago"
    ]  # fmt: skip
    assert legal_actions(s, 2) == []
    s = apply(s, 1, "ordago").state
    assert [str(a) for a in legal_actions(s, 2)] == ["quiero", "no quiero"]
