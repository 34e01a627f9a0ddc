"""Words (P6), views, JSON and lance values (P3) of Mus a piedras."""

from __future__ import annotations

import json

import pytest

from engine import piedras
from engine.cards import Card
from engine.core import Action, IllegalAction
from engine.mus.evaluation import evaluate
from engine.piedras import Options

P6_WORDS = [
    ("descarto 12o", Action("descarto", cards=(Card.parse("12o"),))),
    ("paso", Action("paso")),
    ("envido", Action("envido")),
    ("envido 5", Action("envido", 5)),
    ("5 más", Action("envido", 5)),
    ("5 mas", Action("envido", 5)),
    ("quiero", Action("quiero")),
    ("no quiero", Action("no_quiero")),
    ("órdago", Action("ordago")),
    ("ordago", Action("ordago")),
    ("Órdago!", Action("ordago")),
    ("discard 12o", Action("descarto", cards=(Card.parse("12o"),))),
    ("pass", Action("paso")),
    ("bet", Action("envido")),
    ("bet 5", Action("envido", 5)),
    ("raise 5", Action("envido", 5)),
    ("accept", Action("quiero")),
    ("fold", Action("no_quiero")),
    ("allin", Action("ordago")),
]


@pytest.mark.parametrize(("text", "expected"), P6_WORDS)
def test_p6_every_word_parses(text: str, expected: Action) -> None:
    """P6: Spanish words first, English aliases."""
    assert piedras.parse_action(text) == expected


def test_p6_canonical_text_reads_back() -> None:
    """P6: str(action) of every legal action parses back to the same action."""
    state = piedras.new_game(players=4, seed=3)
    for a in piedras.legal_actions(state, 0):
        assert piedras.parse_action(str(a)) == a
    for text in ("mus", "envido 0", "descarto 13x", "quiero 3"):
        with pytest.raises(IllegalAction) as err:
            piedras.parse_action(text)
        assert err.value.reason in ("unknown_action", "bad_amount", "bad_card")


def test_p6_text_and_action_apply_the_same() -> None:
    """P6: apply accepts the text or the Action."""
    state = piedras.new_game(players=3, seed=8)
    card = state.hands[1][2]
    by_text = piedras.apply(state, 1, f"discard {card}")
    by_action = piedras.apply(state, 1, Action("descarto", cards=(card,)))
    assert by_text == by_action


def test_p3_lance_values() -> None:
    """P3: grande 1, chica 1, par 1, medias 2, duples 3, juego 31 3, other juego 2, punto 1."""
    o = Options()
    cases = [
        ("grande", "1o 2c 4e 5b", 1),
        ("chica", "1o 2c 4e 5b", 1),
        ("pares", "1o 2c 4e 5b", 1),
        ("pares", "7o 7c 7e 12b", 2),
        ("pares", "12o 12c 1e 1b", 3),
        ("pares", "5o 5c 5e 5b", 3),
        ("juego", "7o 7c 7e 12b", 3),
        ("juego", "12o 12c 11e 10b", 2),
        ("juego", "7o 6c 10e 12b", 2),
        ("punto", "1o 2c 4e 5b", 1),
    ]
    for lance, hand, value in cases:
        assert piedras.lance_value(lance, evaluate(hand, o), o) == value, (lance, hand)


def test_p3_tanteo_ampliado_values_only() -> None:
    """P3: tanteo ampliado: 31 real 5, 33 of 7+6+10+10 4; other hands and ranking unchanged."""
    on = Options(tanteo_ampliado=True)
    assert piedras.lance_value("juego", evaluate("7o 7c 7e 3b", on), on) == 5  # 3 is a rey
    assert piedras.lance_value("juego", evaluate("7o 6c 10e 11b", on), on) == 4
    assert piedras.lance_value("juego", evaluate("12o 11c 10e 3b", on), on) == 2  # 33, no 7+6
    assert piedras.lance_value("juego", evaluate("1o 12c 10e 11b", on), on) == 3
    four = Options(tanteo_ampliado=True, reyes=4)
    assert piedras.lance_value("juego", evaluate("12o 11c 10e 3b", four), four) == 2
    assert evaluate("7o 6c 10e 11b", on) == evaluate("7o 6c 10e 11b")  # ranking unchanged


def test_p2_views_show_only_own_cards() -> None:
    """P2: each seat sees his own cards; the public view none."""
    state = piedras.new_game(players=5, seed=12)
    for seat in range(5):
        d = piedras.view(state, seat).to_dict()
        assert d["cards"] == [str(c) for c in state.hands[seat]]
        text = json.dumps(d)
        for other in range(5):
            if other != seat:
                for c in state.hands[other]:
                    assert f'"{c}"' not in text
    public = piedras.view(state, None).to_dict()
    assert public["cards"] is None and public["revealed"] is None
    assert public["deposits"] == {"grande": 0, "chica": 0, "pares": 0, "juego": 0}
    assert public["to_act"] == [0, 1, 2, 3, 4] and public["piles"] == [8] * 5


def test_p1_json_round_trip_and_size() -> None:
    """P1: the state (with its seed) survives JSON unchanged and stays small."""
    state = piedras.new_game(players=8, options=Options(stones=10, losses=3), seed=99)
    text = piedras.to_json(state)
    assert piedras.from_json(text) == state
    assert len(text) < 8192
    for seat in range(8):
        state = piedras.apply(state, seat, piedras.default_action(state, seat)).state
    assert state.phase == "lance"
    assert piedras.from_json(piedras.to_json(state)) == state


def test_p2_explicit_deal_is_checked() -> None:
    """P2: an explicit deal needs five distinct cards per seat."""
    with pytest.raises(ValueError):
        piedras.new_game(players=3, hands=[["1o", "2o", "3o", "4o"]] * 3)
    with pytest.raises(ValueError):
        piedras.new_game(players=3, hands=["1o 2o 3o 4o 5o"] * 3)


def test_p4_view_shows_what_was_said_the_speaking_queue_and_the_options() -> None:
    """P4: everyone hears each word of the hand; the view also says who speaks next."""
    s = piedras.new_game(
        players=3,
        options=Options(reyes=4),
        hands=["12o 12c 3e 3b 4o", "4c 5c 6e 7o 1e", "1c 11c 10e 7c 1b"],
    )
    for seat, card in ((0, "4o"), (1, "1e"), (2, "1b")):
        s = piedras.apply(s, seat, f"descarto {card}").state
    v = piedras.view(s, 1).to_dict()
    assert v["spoken"] == [] and v["betting"]["queue"] == [0, 1, 2]
    assert v["options"]["reyes"] == 4
    s = piedras.apply(s, 0, "envido 3").state
    s = piedras.apply(s, 1, "no quiero").state
    v = piedras.view(s, 2).to_dict()
    assert v["spoken"] == [
        {"seat": 0, "lance": "grande", "action": "envido 3"},
        {"seat": 1, "lance": "grande", "action": "no quiero"},
    ]
    assert v["betting"]["queue"] == [2]
    json.dumps(v)
