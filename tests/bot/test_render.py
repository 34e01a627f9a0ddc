"""Rendering: scores both ways, event lines, escaping, and no hidden card in public texts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.mus as mus
from bot import render
from engine.cards import DECK
from locales import t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import NAMES, random_steps, seated_table


@pytest.mark.parametrize(
    ("points", "es", "en"),
    [
        (0, "0", "0"),
        (4, "4", "4"),
        (5, "5 (1 amarraco)", "5 (1 amarraco)"),
        (17, "17 (3 amarracos y 2)", "17 (3 amarracos and 2)"),
        (40, "40 (8 amarracos)", "40 (8 amarracos)"),
    ],
)
def test_score_is_shown_both_ways(points: int, es: str, en: str) -> None:
    """M1: 5 points = 1 amarraco; the score is shown as points and amarracos."""
    assert render.amarracos("es", points) == es
    assert render.amarracos("en", points) == en


def test_card_names_in_both_languages() -> None:
    assert render.card_name("es", "12o") == "rey de oros"
    assert render.card_name("es", "1b") == "as de bastos"
    assert render.card_name("en", "11c") == "knight of cups"


def test_table_text_shows_both_scores_names_escaped_and_turn() -> None:
    table = seated_table()
    table.start(3, 1000.0, 60)
    text = render.table_text(table)
    assert "Ana y Cris &amp; Co: 0" in text
    assert "Bea &lt;b&gt; y Dani: 0" in text
    assert "<b>Ana</b>" in text  # the mano is to act
    assert t("es", "table.to_act", names="<b>Ana</b>") in text
    assert "Bea <b>" not in text


def test_lobby_text_lists_seats_and_escapes_names() -> None:
    table = seated_table()
    text = render.lobby_text(table)
    assert "2. Bea &lt;b&gt;" in text
    assert "Sentados: 4 de 4" in text


def _card_words(lang: str) -> list[str]:
    return [render.card_name(lang, str(c)) for c in DECK]


@given(seed=st.integers(0, 10**6), lang=st.sampled_from(["es", "en"]))
def test_public_texts_never_show_a_hidden_card(seed: int, lang: str) -> None:
    """The table message never names a card; the result message only with a showdown."""
    words = _card_words(lang)
    for table, step in random_steps(seed, lang):
        text = render.table_text(table)
        assert not [w for w in words if w in text], text
        if step.closed_hand_log is not None:
            closed = render.table_text(table, closed=step.closed_hand_log)
            assert not [w for w in words if w in closed], closed
        result = render.result_text(table, step.events) or ""
        if not any(e.kind == "showdown" for e in step.events):
            assert not [w for w in words if w in result], result


@given(seed=st.integers(0, 10**6))
def test_private_hand_text_shows_exactly_own_cards(seed: int) -> None:
    words = dict(zip([str(c) for c in DECK], _card_words("es"), strict=True))
    for table, _step in random_steps(seed, limit=60):
        if table.status != "playing":
            break
        state = table.engine_state()
        for seat in range(4):
            text = render.hand_text(table, seat)
            own = set(mus.view(state, seat).to_dict()["cards"])
            shown = {c for c, w in words.items() if w in text}
            assert shown == own


def test_every_public_event_kind_has_a_line() -> None:
    data = {
        "hand_started": {"hand": 2, "mano": 1, "postre": 0, "score": [0, 0], "juegos": [0, 0]},
        "spoke": {"seat": 0, "action": "envido 5", "bet": 5},
        "discarded": {"seat": 1, "count": 2},
        "stock_reshuffled": {},
        "declared": {"lance": "pares", "has": [True, False, True, False]},
        "lance_started": {"lance": "grande", "players": [0, 1, 2, 3]},
        "lance_skipped": {"lance": "pares", "reason": "one_pair", "pair": 0},
        "lance_closed": {"lance": "chica", "outcome": "no_querido", "bet": 1, "pair": 1},
        "showdown": {"hands": [["12o", "1b", "3c", "4e"]] * 4},
        "scored": {"pair": 0, "points": 3, "lance": "juego", "why": "juego"},
        "hand_over": {"hand": 1, "score": [17, 5], "juegos": [0, 0]},
        "juego_won": {"pair": 1, "juegos": [0, 1]},
        "vaca_won": {"pair": 1},
    }
    assert set(data) | {"dealt"} == set(mus.EVENT_KINDS)
    for lang in ("es", "en"):
        for kind, d in data.items():
            line = render.event_line(lang, kind, d, NAMES)
            assert line, kind
            assert "{" not in line and "event." not in line, (kind, line)
    assert render.event_line("es", "hand_over", data["hand_over"], NAMES) == (
        "Fin de la mano 1. Tanteo: 17 (3 amarracos y 2) a 5 (1 amarraco)."
    )
    assert "5 más" not in render.event_line("es", "spoke", data["spoke"], NAMES)  # type: ignore[operator]


def test_every_lance_outcome_and_reason_has_a_line() -> None:
    for lang in ("es", "en"):
        for outcome in ("en_paso", "querido", "no_querido", "ordago"):
            d = {"lance": "grande", "outcome": outcome, "bet": 2, "pair": 0}
            line = render.event_line(lang, "lance_closed", d, NAMES)
            assert line and "event." not in line
        for why in ("no_querido", "en_paso", "envite", "pares", "juego", "punto", "ordago"):
            d2 = {"pair": 0, "points": 1, "lance": "grande", "why": why}
            line = render.event_line(lang, "scored", d2, NAMES)
            assert line and "why." not in line
        for reason, lance in (("nobody", "pares"), ("nobody", "juego"), ("one_pair", "juego")):
            d3 = {"lance": lance, "reason": reason, "pair": 1}
            line = render.event_line(lang, "lance_skipped", d3, NAMES)
            assert line and "event." not in line
