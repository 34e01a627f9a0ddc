"""Mus a piedras at the table: options, the table message, the result, the private hand, the
buttons within the cap, refusals, and no hidden card in any public text (rules/piedras.md)."""

from __future__ import annotations

import doctest
import random
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bot.games.piedras.adapter
import bot.games.piedras.buttons
import bot.games.piedras.events
import bot.games.piedras.options
import engine.piedras as piedras
from bot.flow import discard
from bot.games.base import OptionError
from bot.games.mus import worth
from bot.games.piedras.adapter import PIEDRAS
from bot.games.registry import find_game, get_game
from bot.games.render import card_name, error_text, seat_name
from bot.table import Step, Table
from engine.core import Action, IllegalAction
from locales import t

sys.path.insert(0, str(Path(__file__).parent))

from flowkit import posted

NAMES = ["Ana", "Bea <b>", "Cris", "Dani", "Eva", "Fede", "Gus", "Hugo"]
DECK = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]

# Five-card hands; the last card of each is the one thrown.
TRIO = ["12o 12c 1e 1b 6o", "7o 7c 6e 5b 6b", "11c 10e 4o 4c 10o"]


def test_docstrings() -> None:
    for module in (
        bot.games.piedras.adapter,
        bot.games.piedras.buttons,
        bot.games.piedras.events,
        bot.games.piedras.options,
    ):
        assert doctest.testmod(module).failed == 0, module.__name__


# ---- options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], {}),
        (["piedras=5"], {"stones": 5}),
        (["PIEDRAS=10"], {"stones": 10}),
        (["perdidas=3"], {"losses": 3}),
        (["4reyes"], {"reyes": 4}),
        (["8reyes"], {"reyes": 8}),
        (["real"], {"real": True}),
        (["ampliado"], {"tanteo_ampliado": True}),
        (["piedras=8", "perdidas=5", "real", "ampliado"], {"losses": 5, "real": True}),
    ],
)
def test_p1_option_words(words: list[str], expected: dict[str, Any]) -> None:
    defaults = piedras.Options().model_dump()
    options = PIEDRAS.parse_options(words)
    assert options == {**defaults, **expected, "tanteo_ampliado": options["tanteo_ampliado"]}
    assert piedras.Options(**options).model_dump() == options
    assert options["tanteo_ampliado"] == ("ampliado" in words)


@pytest.mark.parametrize("word", ["piedras=7", "perdidas=0", "perdidas=6", "30", "juegos=1", "x"])
def test_unknown_option_is_named_with_piedras_options(word: str) -> None:
    with pytest.raises(OptionError) as info:
        PIEDRAS.parse_options(["piedras=5", word])
    assert info.value.word == word
    for lang in ("es", "en"):
        text = t(lang, "piedras.bad_option", word=word)
        assert word in text and "piedras=5|8|10" in text and "perdidas=1..5" in text
    assert t("es", "piedras.bad_option", word=word).startswith("Opción desconocida")


def test_registry_seats_and_labels() -> None:
    assert get_game("piedras") is PIEDRAS and find_game("PIEDRAS") is PIEDRAS
    assert PIEDRAS.features.teams == 0 and PIEDRAS.seats({}) == (3, 8)
    assert PIEDRAS.features.discard_limit == 1
    opts = PIEDRAS.parse_options(["piedras=5", "perdidas=2", "4reyes", "real", "ampliado"])
    text = ", ".join(t("es", k, **p) for k, p in PIEDRAS.option_labels(opts))
    assert text == "5 piedras, fuera al perder 2 juegos, 4 reyes, con la real, tanteo ampliado"
    assert set(PIEDRAS.commands) >= {"paso", "envido", "quiero", "noquiero", "ordago"}
    assert {PIEDRAS.commands[c] for c in ("pass", "bet", "accept", "fold", "allin")} == {
        "paso",
        "envido",
        "quiero",
        "no quiero",
        "ordago",
    }


# ---- helpers --------------------------------------------------------------------------------


def table_of(
    players: int = 3,
    words: Sequence[str] = (),
    lang: str = "es",
    hands: list[str] | None = None,
    seed: int = 1,
) -> Table:
    table = Table(chat_id=-100777, creator=1, tid="p1e2d3", title="Piedras", game="piedras")
    table.lang = lang
    table.options = PIEDRAS.parse_options(list(words))
    for i in range(players):
        table.join(100 + i, NAMES[i])
    posted.start(table, seed, 1000.0, 60)
    if hands is not None:
        state = piedras.new_game(
            players=players, options=piedras.Options(**table.options), hands=hands, seed=seed
        )
        table.state = piedras.to_json(state)
    return table


def act(table: Table, seat: int, text: str) -> Step:
    return posted.play(table, seat, text, 1000.0, 60)


def discard_all(table: Table) -> None:
    """Everyone throws the last card of his hand as dealt (through the private toggles)."""
    for seat in list(table.to_act()):
        state = table.engine_state()
        card = str(state.hands[seat][-1])
        discard.toggle(table, seat, card, True, table.discard_round)
        posted.confirm(table, seat, table.discard_round, 1000.0, 60)


def mentions(text: str, cards: Iterable[str], lang: str) -> list[str]:
    low = text.lower()
    found = []
    for card in cards:
        name = card_name(lang, card).lower()
        if re.search(rf"(?<![0-9a-z]){re.escape(card)}(?![0-9a-z])", low) or name in low:
            found.append(card)
    return found


def labels(table: Table) -> list[list[str]]:
    return [[b.label for b in row] for row in PIEDRAS.table_buttons(table)]


# ---- the table message ----------------------------------------------------------------------


def test_table_message_shows_piles_plate_lance_cap_turn_and_direction() -> None:
    table = table_of(hands=TRIO)
    discard_all(table)
    text = PIEDRAS.table_text(table)
    assert "juego 1 · mano 1" in text
    for name in ("<b>Ana</b>: 8", "<b>Bea &lt;b&gt;</b>: 8", "<b>Cris</b>: 8"):
        assert name in text
    assert "🍽 Plato: 0" in text
    assert "Lance: <b>Grande</b> · tope 8" in text
    assert "▶ Le toca a <b>Ana</b> · luego <b>Bea &lt;b&gt;</b>, <b>Cris</b>" in text
    assert "ronda a la derecha" in text
    # The cap is the engine's: the highest legal envido of the player to act.
    state = table.engine_state()
    top = max(a.amount or 0 for a in piedras.legal_actions(state, 0) if a.kind == "envido")
    assert f"tope {top}" in text

    act(table, 0, "envido 3")
    text = PIEDRAS.table_text(table)
    assert "<b>Ana</b>: 5 · mano · en el lance, puso 3" in text
    assert "<b>Bea &lt;b&gt;</b>: 8 · por contestar" in text
    assert "depósitos: Grande 3" in text
    assert "Lance: <b>Grande</b> · van 3" in text
    assert "<b>Ana</b>: envido 3" in text
    act(table, 1, "no quiero")
    act(table, 2, "quiero")
    text = PIEDRAS.table_text(table)
    assert "<b>Bea &lt;b&gt;</b>: 8 · no quiso" in text
    assert "<b>Cris</b>: 5 · en el lance, puso 3" in text
    assert "depósitos: Grande 6" in text
    # Re-envites go the other way (the engine's direction), Cris first, ending with Ana.
    assert "▶ Le toca a <b>Cris</b> · luego <b>Ana</b> · ronda a la izquierda" in text
    assert "tope 8" in text  # Ana and Cris: 3 put + 5 left each
    act(table, 2, "2 más")
    text = PIEDRAS.table_text(table)
    assert "<b>Cris</b>: 2 más (van 5)" in text and "van 5" in text
    assert labels(table)[0] == ["Quiero", "No quiero", "¡Órdago!"]
    act(table, 0, "quiero")
    text = PIEDRAS.table_text(table)
    assert "▶ Le toca a <b>Ana</b> · luego <b>Cris</b> · ronda a la derecha" in text
    act(table, 0, "paso")
    act(table, 2, "paso")
    text = PIEDRAS.table_text(table)
    assert "Grande igualado, se ve al final" in text
    assert "Lance: <b>Chica</b>" in text


def test_table_message_free_out_losses_and_english() -> None:
    table = table_of(players=4, words=["piedras=5", "perdidas=2"], lang="en", seed=3)
    state = table.engine_state()
    from dataclasses import replace

    state = replace(state, losses=(1, 0, 0, 0), free=(2,), piles=(5, 5, 0, 5), plate=5)
    state = replace(state, in_hand=(0, 1, 3), hands=(*state.hands[:2], (), state.hands[3]))
    table.state = piedras.to_json(state)
    text = PIEDRAS.table_text(table)
    assert "juego 1 · hand 1 · 5 stones, out after 2 lost juegos, 8 kings" in text
    assert "<b>Ana</b>: 5 · mano · 1 lost" in text
    assert "<b>Cris</b> · free 🕊" in text
    assert "🍽 Plate: 5" in text
    assert "Discards: mark your cards here by their order" in text
    state = replace(state, losses=(1, 0, 2, 0), free=())
    table.state = piedras.to_json(state)
    assert "<b>Cris</b> · out" in PIEDRAS.table_text(table)


def test_refused_bet_and_orders_shown_and_result_message() -> None:
    table = table_of(hands=TRIO)
    discard_all(table)
    act(table, 0, "envido 2")
    act(table, 1, "no quiero")
    step = act(table, 2, "no quiero")
    text = PIEDRAS.table_text(table)
    assert "<b>Ana</b> gana Grande sin que nadie quiera: 1 piedra al plato." in text
    assert "Grande para <b>Ana</b> (no quisieron)" in text
    assert "🍽 Plato: 1" in text
    assert PIEDRAS.result_text(table, step.events, table.log) is None
    steps = []
    while table.hand == 1:
        seat = table.to_act()[0]
        steps.append(act(table, seat, "paso"))
    last = steps[-1]
    assert last.closed_hand_log is not None
    result = PIEDRAS.result_text(table, last.events, last.closed_hand_log)
    assert result is not None
    lines = result.splitlines()
    assert lines[0] == "🏁 Fin de la mano 1"
    assert "<b>Ana</b> gana Grande sin que nadie quiera: 1 piedra al plato." in lines
    assert "Cartas:" in lines
    assert "<b>Ana</b>: rey, rey, as, as · duples · 22 al punto" in lines
    assert any(line.startswith("Piedras: <b>Ana</b> ") for line in lines)
    plates = [line for line in lines if "en el plato" in line]  # what each hand was worth
    assert any(line.startswith("Pares: ") and "(en paso: duples)" in line for line in plates), lines
    closed = PIEDRAS.closed_table_text(table, last.closed_hand_log)
    assert "mano terminada" in closed and "Grande para <b>Ana</b>" in closed


def test_p4_ordago_settled_mid_hand_in_table_then_cards_in_result() -> None:
    """P4.4: the órdago's cards are titled apart from the end of the hand's, and an órdago's
    empty deposit is not "taken (0)"."""
    hands = ["12o 12c 1e 1b 6o", "7o 7c 6e 5b 6b", "11c 10e 4o 4c 10o", "5o 5c 4e 4b 2o"]
    table = table_of(players=4, hands=hands)
    discard_all(table)
    act(table, 0, "ordago")
    act(table, 1, "quiero")
    act(table, 2, "quiero")
    step = act(table, 3, "no quiero")
    assert PIEDRAS.result_text(table, step.events, table.log) is None
    text = PIEDRAS.table_text(table)
    assert "¡Órdago a Grande!" in text and "se libra" in text
    assert "Cartas:" not in text  # the cards wait for the result
    while table.hand == 1 and table.status == "playing":
        step = act(table, table.to_act()[0], "paso")
    result = PIEDRAS.result_text(table, step.events, step.closed_hand_log or table.log)
    assert result is not None
    assert result.count("Cartas:") == 1 and "¡Órdago a Grande!" in result
    lines = result.splitlines()
    assert lines.index("Cartas del órdago a Grande:") < lines.index("Cartas:")
    assert "(0)" not in result, result


def test_p4_p5_quiero_says_at_the_choice_that_the_worst_hand_takes_the_deposit() -> None:
    """P4.2 and P5: facing a bet the table says what quiero means in piedras; P4.4 the same for
    an órdago; nothing while nobody has bet."""
    table = table_of(hands=TRIO, words=["piedras=10"])
    discard_all(table)
    hint = t("es", "piedras.hint.quiero")
    assert "peor mano" in hint and hint not in PIEDRAS.table_text(table)
    act(table, 0, "envido 3")
    text = PIEDRAS.table_text(table)
    assert hint in text and "<b>Ana</b>: envido 3 (van 3)" in text
    table.lang = "en"
    assert t("en", "piedras.hint.quiero") in PIEDRAS.table_text(table)
    table = table_of(hands=TRIO, words=["piedras=10"])
    discard_all(table)
    act(table, 0, "ordago")
    assert t("es", "piedras.hint.ordago") in PIEDRAS.table_text(table)


def test_p4_the_last_answer_of_a_lance_stays_until_the_next_lance_speaks() -> None:
    table = table_of(hands=TRIO, words=["piedras=10"])
    discard_all(table)
    act(table, 0, "envido 3")
    act(table, 1, "quiero")
    act(table, 2, "no quiero")
    while PIEDRAS.view(table.engine_state(), None).get("lance") == "grande":
        seat = table.to_act()[0]
        act(table, seat, "paso")
    text = PIEDRAS.table_text(table)
    assert "— Grande —" in text and f"{seat_name(table.names(), seat)}: paso" in text
    act(table, table.to_act()[0], "paso")
    assert "— Grande —" not in PIEDRAS.table_text(table)


# ---- buttons --------------------------------------------------------------------------------


def test_buttons_are_legal_and_few_within_the_cap() -> None:
    table = table_of(hands=TRIO, words=["piedras=10"])
    discard_all(table)
    assert labels(table) == [
        ["Paso", "Envido 2", "¡Órdago!"],
        ["Envido 3", "Envido 4", "Envido 5", "Todo (10)"],
    ]
    act(table, 0, "envido 3")
    assert labels(table) == [["Quiero", "No quiero"]]
    act(table, 1, "quiero")
    act(table, 2, "quiero")
    raises = ["2 más", "3 más", "4 más", "5 más", "7 más (todo)"]
    assert labels(table) == [["Paso", "¡Órdago!"], raises]
    act(table, 2, "5 más")
    assert labels(table) == [["Quiero", "No quiero", "¡Órdago!"], ["2 más (todo)"]]


def test_button_labels_english() -> None:
    table = table_of(hands=TRIO, lang="en", words=["piedras=5"])
    discard_all(table)
    assert labels(table) == [["Pass", "Bet 2", "Órdago!"], ["Bet 3", "Bet 4", "All (5)"]]


# ---- refusals -------------------------------------------------------------------------------


def refusal(table: Table, seat: int, text: str) -> IllegalAction:
    before = table.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        act(table, seat, text)
    assert table.model_dump_json() == before
    return info.value


def test_refusals_are_clear_and_change_nothing() -> None:
    table = table_of(hands=TRIO)
    assert refusal(table, 0, "descarto 12o 12c").reason == "piedras.error.one_card"
    assert (
        error_text("es", IllegalAction("piedras.error.one_card")) == "Tira exactamente una carta."
    )
    assert refusal(table, 0, "descarto 3e").reason == "card_not_in_hand"
    discard_all(table)
    exc = refusal(table, 0, "envido 50")
    assert exc.reason == "bet_above_cap"
    assert error_text("es", exc) == "No se puede envidar tanto: el máximo es 8."
    assert error_text("en", exc).endswith("8.")
    assert refusal(table, 1, "paso").reason == "not_your_turn"
    act(table, 0, "envido 2")
    act(table, 1, "no quiero")
    act(table, 2, "quiero")
    exc = refusal(table, 1, "quiero")
    assert exc.reason == "not_in_lance"
    assert error_text("es", exc) == "No juegas este lance."


def test_free_and_out_players_are_told_so() -> None:
    from dataclasses import replace

    table = table_of(players=4, words=["perdidas=2"])
    state = table.engine_state()
    state = replace(state, free=(2,), losses=(0, 0, 0, 2), in_hand=(0, 1))
    table.state = piedras.to_json(state)
    assert refusal(table, 2, "paso").reason == "piedras.error.free"
    assert refusal(table, 3, "paso").reason == "piedras.error.out"
    for lang in ("es", "en"):
        assert "{" not in error_text(lang, IllegalAction("piedras.error.free"))


# ---- the private hand -----------------------------------------------------------------------


def test_private_hand_best_first_with_worth_and_pile() -> None:
    table = table_of(hands=TRIO, words=["4reyes"])
    text = PIEDRAS.hand_text(table, 0)
    assert "Tus cartas: rey de oros, rey de copas, seis de oros, as de espadas, as de bastos" in (
        text
    )
    assert "Tus piedras: 8 · plato: 0" in text
    assert "Elige la carta que tiras y pulsa Descartar." in text
    # Selecting a card replaces the selection (a single discard).
    discard.toggle(table, 0, "6o", True, table.discard_round)
    assert discard.toggle(table, 0, "1b", True, table.discard_round) == ["1b"]
    discard_all(table)
    text = PIEDRAS.hand_text(table, 0)
    expected = worth.display_order(["12o", "12c", "1e", "1b"], {"reyes": 4})
    assert PIEDRAS.seat_cards(table, 0) == expected == ["12o", "12c", "1e", "1b"]
    assert "Llevas: duples · 22 al punto" in text
    for seat in (1, 2):
        others = [str(c) for c in table.engine_state().hands[seat]]
        assert not mentions(text, others, "es")
    alert = PIEDRAS.cards_alert(table, 0)
    assert len(alert) <= 200 and "Tus piedras: 8" in alert and "<" not in alert


def test_eight_reyes_puts_the_threes_with_the_reyes() -> None:
    hands = ["3o 12c 1e 2b 6o", "7o 7c 6e 5b 6b", "11c 10e 4o 4c 10o"]
    table = table_of(hands=hands)
    assert PIEDRAS.seat_cards(table, 0)[:2] in (["3o", "12c"], ["12c", "3o"])


# ---- no hidden card in public texts (property) ----------------------------------------------


def public_texts(table: Table, step: Step) -> tuple[list[str], str | None]:
    texts = [PIEDRAS.table_text(table)]
    texts += [b.label for row in PIEDRAS.table_buttons(table) for b in row]
    if step.closed_hand_log is not None:
        texts.append(PIEDRAS.closed_table_text(table, step.closed_hand_log))
    hand_log = step.closed_hand_log if step.closed_hand_log is not None else table.log
    return texts, PIEDRAS.result_text(table, step.events, hand_log)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 8),
    lang=st.sampled_from(["es", "en"]),
)
def test_no_public_text_shows_a_card_still_held_by_another_seat(
    seed: int, players: int, lang: str
) -> None:
    """Random legal play: the table message, its buttons and the closed table never show a card
    still hidden; the result shows only cards revealed at a showdown of the hand it closes."""
    rnd = random.Random(seed)
    table = table_of(players=players, words=["piedras=5"], lang=lang, seed=seed)
    for _ in range(250):
        if table.status != "playing":
            break
        before = table.engine_state()
        seat = rnd.choice(table.to_act())
        action = rnd.choice(piedras.legal_actions(before, seat))
        if action.cards:
            discard.toggle(table, seat, str(action.cards[0]), True, table.discard_round)
            step = posted.confirm(table, seat, table.discard_round, 1000.0, 60)
        else:
            step = act(table, seat, str(action))
        state = table.engine_state()
        hidden = _hidden(state) if state.hand_number == before.hand_number else set()
        texts, result = public_texts(table, step)
        if state.hand_number != before.hand_number:
            hidden = _hidden(state)  # the new hand's cards are all hidden
        for text in texts:
            assert not mentions(text, hidden, lang), text
        if result is not None:
            shown = {c for e in step.events if e.kind == "showdown" for h in e.data["hands"] if h
                     for c in h}  # fmt: skip
            shown |= {c for e in table.log if e.kind == "showdown" for h in e.data["hands"] if h
                      for c in h}  # fmt: skip
            held_before = _held(before)
            # Full card names never appear in a result: hands are shown by rank.
            assert not mentions(result, held_before - shown, lang), result
            assert not mentions(result, _hidden(state), lang), result


def _held(state: Any) -> set[str]:
    return {str(c) for h in state.hands for c in h}


def _hidden(state: Any) -> set[str]:
    revealed = {str(c) for s in state.revealed for c in state.hands[s]}
    return _held(state) - revealed


def test_whole_match_renders_in_both_languages() -> None:
    for lang in ("es", "en"):
        rnd = random.Random(4)
        table = table_of(players=5, words=["piedras=5", "perdidas=2"], lang=lang, seed=4)
        results = 0
        for _ in range(3000):
            if table.status != "playing":
                break
            state = table.engine_state()
            seat = table.to_act()[0]
            action: Action = rnd.choice(piedras.legal_actions(state, seat))
            step = act(table, seat, str(action))  # a discard typed, as /descarto does
            texts, result = public_texts(table, step)
            results += result is not None
            assert all("{" not in x for x in texts)
            # posted, as the publisher does (a hand's end with no table message: in a holder)
            table.shown.outbox, table.shown.closing, table.shown.unposted = [], {}, {}
            assert len(table.model_dump_json()) < 8000
        assert table.status == "over" and results >= 2
        assert t(lang, "table.over") in PIEDRAS.table_text(table)


# ---- the turn timer -------------------------------------------------------------------------


def test_timer_plays_the_engine_default_and_says_so_without_the_card() -> None:
    table = table_of(hands=TRIO)
    assert table.deadline is not None
    step = posted.fire_timer(table, table.deadline + 1, 60)
    assert step.played and len(step.notes) == 3
    state = table.engine_state()
    assert state.phase == "lance" and all(len(state.hands[s]) == 4 for s in range(3))
    text = PIEDRAS.table_text(table)
    assert not mentions(text, DECK, "es")
    assert table.deadline is not None
    step = posted.fire_timer(table, table.deadline + 1, 60)
    assert step.played
    # Ana's second turn in a row ran out (the discard, then the lance): the computer plays for her
    assert "⏱ <b>🤖 Ana</b> no contestó a tiempo: paso." in PIEDRAS.table_text(table)


def test_a_private_hand_shows_its_pile_as_it_moves() -> None:
    """The publisher edits a private hand when its text changes: a bet moves the bettor's pile
    (so his message changes) and leaves the others' alone."""
    table = table_of(hands=TRIO)
    discard_all(table)
    before = [PIEDRAS.hand_text(table, seat) for seat in range(3)]
    act(table, 0, "envido 2")
    after = [PIEDRAS.hand_text(table, seat) for seat in range(3)]
    assert after[0] != before[0] and after[1:] == before[1:]


def test_unknown_words_name_piedras_words() -> None:
    table = table_of(hands=TRIO)
    discard_all(table)
    exc = refusal(table, 0, "envido 3 4")
    assert exc.reason == "piedras.error.unknown_action"
    assert error_text("es", exc) == (
        "No entiendo «envido 3 4». Prueba con paso, envido N, N más, quiero, no quiero u órdago."
    )
    assert "mus" not in error_text("en", exc).lower().replace("mus a piedras", "")


def test_an_ordago_on_the_table_reads_as_said() -> None:
    """The lance line says who threw the órdago as players say it ("Ana echa órdago")."""
    hands = ["12o 12c 1e 1b 6o", "7o 7c 6e 5b 6b", "11c 10e 4o 4c 10o", "5o 5c 4e 4b 2o"]
    table = table_of(players=4, hands=hands)
    discard_all(table)
    act(table, 0, "ordago")
    text = PIEDRAS.table_text(table)
    assert "echa <b>órdago</b>" in text and "órdago!</b> de" not in text
