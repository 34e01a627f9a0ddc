"""Rendering: scores both ways, event lines, escaping, and no hidden card in public texts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.mus as mus
from bot.games import render
from bot.games.mus import render as mus_render
from engine.cards import DECK
from engine.core import Event
from locales import t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import NAMES, posted, random_steps, seated_table


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
    assert mus_render.amarracos("es", points) == es
    assert mus_render.amarracos("en", points) == en


def test_card_names_in_both_languages() -> None:
    assert render.card_name("es", "12o") == "rey de oros"
    assert render.card_name("es", "1b") == "as de bastos"
    assert render.card_name("en", "11c") == "knight of cups"


def test_table_text_shows_both_scores_names_escaped_and_turn() -> None:
    table = seated_table()
    posted.start(table, 3, 1000.0, 60)
    text = mus_render.table_text(table)
    assert "Ana y Cris &amp; Co: 0" in text
    assert "Bea &lt;b&gt; y Dani: 0" in text
    assert "<b>Ana</b>" in text  # the mano is to act
    assert t("es", "table.to_act", names="<b>Ana</b>") in text
    assert "Bea <b>" not in text


def test_lobby_text_lists_seats_and_escapes_names() -> None:
    table = seated_table()
    text = render.lobby_text(table)
    assert "<b>Pareja 2</b>: Bea &lt;b&gt;, Dani" in text
    assert "Sentados: 4 de 4" in text


def _card_words(lang: str) -> list[str]:
    return [render.card_name(lang, str(c)) for c in DECK]


@given(seed=st.integers(0, 10**6), lang=st.sampled_from(["es", "en"]))
def test_public_texts_never_show_a_hidden_card(seed: int, lang: str) -> None:
    """The table message never names a card; the result message only with a showdown."""
    words = _card_words(lang)
    for table, step in random_steps(seed, lang):
        text = mus_render.table_text(table)
        assert not [w for w in words if w in text], text
        if step.closed_hand_log is not None:
            closed = mus_render.table_text(table, closed=step.closed_hand_log)
            assert not [w for w in words if w in closed], closed
        result = mus_render.result_text(table, step.events) or ""
        if not any(e.kind == "showdown" for e in step.events):
            assert not [w for w in words if w in result], result


@settings(max_examples=40)  # 40 tables x 60 steps x 4 seats
@given(seed=st.integers(0, 10**6))
def test_private_hand_text_shows_exactly_own_cards(seed: int) -> None:
    words = dict(zip([str(c) for c in DECK], _card_words("es"), strict=True))
    for table, _step in random_steps(seed, limit=60):
        if table.status != "playing":
            break
        state = table.engine_state()
        for seat in range(4):
            text = mus_render.hand_text(table, seat)
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
        "not_counted": {"pair": 0, "items": [{"pair": 1, "points": 2, "lance": "juego"}]},
        "hand_over": {"hand": 1, "score": [17, 5], "juegos": [0, 0]},
        "juego_won": {"pair": 1, "juegos": [0, 1]},
        "vaca_won": {"pair": 1},
    }
    assert set(data) | {"dealt"} == set(mus.EVENT_KINDS)
    for lang in ("es", "en"):
        for kind, d in data.items():
            line = mus_render.event_line(lang, kind, d, NAMES)
            assert line, kind
            assert "{" not in line and "event." not in line, (kind, line)
    assert mus_render.event_line("es", "hand_over", data["hand_over"], NAMES) == (
        "🏁 Fin de la mano 1. Ana y Cris &amp; Co 17 (3 amarracos y 2) · "
        "Bea &lt;b&gt; y Dani 5 (1 amarraco)"
    )
    assert "5 más" not in mus_render.event_line("es", "spoke", data["spoke"], NAMES)  # type: ignore[operator]


def test_every_lance_outcome_and_reason_has_a_line() -> None:
    for lang in ("es", "en"):
        for outcome in ("en_paso", "querido", "no_querido", "ordago"):
            d = {"lance": "grande", "outcome": outcome, "bet": 2, "pair": 0}
            line = mus_render.event_line(lang, "lance_closed", d, NAMES)
            assert line and "event." not in line
        for why in ("no_querido", "en_paso", "envite", "pares", "juego", "punto", "ordago"):
            d2 = {"pair": 0, "points": 1, "lance": "grande", "why": why}
            line = mus_render.event_line(lang, "scored", d2, NAMES)
            assert line and "why." not in line
        for reason, lance in (("nobody", "pares"), ("nobody", "juego"), ("one_pair", "juego")):
            d3 = {"lance": lance, "reason": reason, "pair": 1}
            line = mus_render.event_line(lang, "lance_skipped", d3, NAMES)
            assert line and "event." not in line


def test_raises_read_as_players_say_them() -> None:
    line = mus_render.event_line
    assert line("es", "spoke", {"seat": 1, "action": "envido 2", "bet": 4}, NAMES) == (
        "<b>Bea &lt;b&gt;</b>: 2 más (van 4)"
    )
    assert line("es", "spoke", {"seat": 0, "action": "envido", "bet": 2}, NAMES).endswith(
        ": envido (van 2)"
    )
    assert line("es", "spoke", {"seat": 0, "action": "envido 5", "bet": 5}, NAMES).endswith(
        ": envido 5 (van 5)"
    )
    assert line("en", "spoke", {"seat": 0, "action": "envido 5", "bet": 5}, NAMES).endswith(
        ": bet 5 (5 on the table)"
    )
    assert "<b>¡ÓRDAGO!</b>" in line("es", "spoke", {"seat": 0, "action": "ordago"}, NAMES)
    assert line("en", "spoke", {"seat": 2, "action": "envido", "bet": 7}, NAMES).endswith(
        ": 2 more (7 on the table)"
    )


def test_m4_both_opponents_answer_and_the_timer_is_in_seconds() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    posted.play(table, table.to_act()[0], "corto", 1.0, 60)
    posted.play(table, table.to_act()[0], "envido", 2.0, 60)
    first, second = table.to_act()
    text = mus_render.table_text(table)
    mano = table.adapter.view(table.engine_state(), None)["mano"]
    in_order = sorted((first, second), key=lambda s: (s - mano) % 4)
    names = [render.seat_name(NAMES, s) for s in in_order]
    assert f"▶ Responden {names[0]} o {names[1]} · ⏱ queda 1 min" in text
    table.lang = "en"
    english = mus_render.table_text(table)
    assert f"▶ {names[0]} or {names[1]} to answer · ⏱ 1 min left" in english


def test_showdown_is_sorted_and_says_what_each_hand_is_worth() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    data = {
        "hands": [["1b", "3c", "7e", "12o"], ["4o", "5o", "6o", "7o"], ["11o"] * 4, ["2c"] * 4],
        "pares": [None, None, "duples", "duples"],
        "points": [31, 22, 40, 8],
    }

    def order(cards: list[str]) -> list[str]:
        return table.adapter.display_order(cards, table.options)

    lines = mus_render.showdown_lines("es", data, NAMES, order)
    assert lines[0] == "<b>Ana</b>: rey, tres, siete, as · 31"  # 8 reyes: the 3 is a rey
    assert lines[1] == "<b>Bea &lt;b&gt;</b>: siete, seis, cinco, cuatro"  # no juego, no pares
    assert lines[2].endswith("· duples · 40")
    data["points"] = [28, 22, 30, 8]
    lines = mus_render.showdown_lines("es", data, NAMES, order)
    assert lines[0].endswith("· 28 al punto")  # nobody has juego: punto counts


def test_lobby_hint_only_while_seats_are_free() -> None:
    table = seated_table()
    assert "Pulsa Unirme" not in render.lobby_text(table)
    assert t("es", "lobby.full") in render.lobby_text(table)
    posted.start(table, 1, 0.0, 60)
    text = render.lobby_text(table)
    assert "Pulsa Unirme" not in text and t("es", "lobby.started") in text
    table.players.pop()
    table.status = "lobby"
    assert t("es", "lobby.join_hint") in render.lobby_text(table)


def test_private_hand_is_sorted_high_to_low() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    cards = table.adapter.view(table.engine_state(), 0)["cards"]
    order = table.adapter.display_order([str(c) for c in cards], table.options)
    text = mus_render.hand_text(table, 0)
    assert t("es", "hand.cards", cards=render.cards_text("es", order)) in text
    assert "\nLlevas: " in text  # the engine's evaluation: pares, juego or punto


def test_a_refused_bet_is_no_new_message_but_is_in_the_result() -> None:
    """M5: a refusal is collected at once; the group reads it in the hand's result."""
    from bot.games.seats import LogEntry
    from engine.core import Event

    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    refused = {"lance": "pares", "outcome": "no_querido", "bet": 2, "pair": 1}
    scored = {"pair": 1, "points": 2, "lance": "pares", "why": "no_querido"}
    mid_hand = [Event("lance_closed", refused), Event("scored", scored)]
    assert mus_render.result_text(table, mid_hand) is None
    end = [
        Event("scored", {"pair": 0, "points": 1, "lance": "grande", "why": "en_paso"}),
        Event("hand_over", {"hand": 1, "score": [1, 2], "juegos": [0, 0]}),
    ]
    text = mus_render.result_text(table, end, [LogEntry(kind="lance_closed", data=refused)]) or ""
    lines = text.splitlines()
    assert lines[0].startswith("🏁 Fin de la mano 1.")
    assert lines[1:] == [
        "Grande: +1 para Ana y Cris &amp; Co (en paso)",
        "Pares: +2 para Bea &lt;b&gt; y Dani (no querido)",
    ]


def test_an_ordago_on_the_table_stands_out_in_the_header() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    posted.play(table, table.to_act()[0], "corto", 1.0, 60)
    posted.play(table, table.to_act()[0], "ordago", 2.0, 60)
    text = mus_render.table_text(table)
    assert "<b>¡órdago de " in text and "<b>¡ÓRDAGO!</b>" in text


def test_m4_the_table_keeps_the_lance_talk_as_players_say_it() -> None:
    """M2/M4: in the first lance the mus round stays (who said mus, who cut); a partner's
    "quiero" after "no quiero" closes the lance and stays on the table, under the lance's name,
    until the next lance's first word."""
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    first = table.to_act()[0]
    posted.play(table, first, "mus", 1.0, 60)
    cutter = table.to_act()[0]
    posted.play(table, cutter, "corto", 2.0, 60)
    said = [
        t("es", "event.spoke", name=render.seat_name(NAMES, first), action="mus"),
        t("es", "event.spoke", name=render.seat_name(NAMES, cutter), action="no hay mus"),
    ]
    bettor = table.to_act()[0]
    posted.play(table, bettor, "envido 5", 3.0, 60)
    text = mus_render.table_text(table)
    assert all(line in text for line in said), text
    assert text.index(said[0]) < text.index(said[1])
    refuser, partner = table.to_act()
    posted.play(table, refuser, "no quiero", 4.0, 60)
    posted.play(table, partner, "quiero", 5.0, 60)
    text = mus_render.table_text(table)
    talk = [
        t("es", "event.lance_started", lance="Grande"),
        t("es", "event.spoke", name=render.seat_name(NAMES, bettor), action="envido 5 (van 5)"),
        t("es", "event.spoke", name=render.seat_name(NAMES, refuser), action="no quiero"),
        t("es", "event.spoke", name=render.seat_name(NAMES, partner), action="quiero"),
    ]
    assert "\n".join(talk) in text, text
    assert said[1] not in text  # the mus round went with the first lance
    posted.play(table, table.to_act()[0], "paso", 6.0, 60)
    text = mus_render.table_text(table)
    assert talk[-1] not in text and t("es", "event.spoke", name="", action="paso")[2:] in text


def test_m5_the_result_says_what_was_not_counted_because_the_juego_was_won() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    items = [
        {"pair": 1, "points": 5, "lance": "pares", "why": "envite"},
        {"pair": 1, "points": 2, "lance": "pares", "why": "pares"},
        {"pair": 0, "points": 3, "lance": "juego", "why": "juego"},
    ]
    events = [
        Event("scored", {"pair": 0, "points": 1, "lance": "grande", "why": "en_paso"}),
        Event("not_counted", {"pair": 0, "items": items}),
        Event("hand_over", {"hand": 1, "score": [40, 3], "juegos": [1, 0]}),
        Event("juego_won", {"pair": 0, "juegos": [1, 0]}),
    ]
    text = mus_render.result_text(table, events) or ""
    line = (
        "⏹ Sin contar, el juego ya estaba ganado: Pares 7 para Bea &lt;b&gt; y Dani · "
        "Juego 3 para Ana y Cris &amp; Co."
    )
    assert line in text.splitlines(), text
    table.lang = "en"
    assert "Not counted, the juego was already won: Pares 7 to" in (
        mus_render.result_text(table, events) or ""
    )


def test_one_player_left_to_answer_a_bet() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    posted.play(table, table.to_act()[0], "corto", 1.0, 60)
    posted.play(table, table.to_act()[0], "envido", 2.0, 60)
    first, second = table.to_act()
    posted.play(table, first, "no quiero", 3.0, 60)
    name = render.seat_name(NAMES, second)
    assert f"▶ Responde {name} · ⏱ queda 1 min" in mus_render.table_text(table)


def test_the_private_menu_writes_a_replay_as_the_history_does() -> None:
    """``/mano ID N`` in the "/" menu, as /historial and /mano's own help write it."""
    assert "/mano ID N" in t("es", "menu.mano") and "/hand ID N" in t("en", "menu.mano")


@pytest.mark.parametrize(("lang", "shown"), [("es", "R🪙"), ("en", "K🪙")])
def test_the_compact_card_view_shows_a_players_own_cards_short(lang: str, shown: str) -> None:
    """``/vista compacta``: the hand message and the "Mis cartas" alert read ``R🪙 3🏆``,
    every card once, in the hand's order; the normal view names them (issue 24)."""
    from bot.games.render import card_name, short_card

    table = seated_table(lang=lang)
    posted.start(table, 9, 0.0, 60)
    cards = [str(c) for c in table.adapter.seat_cards(table, 0)]
    named = mus_render.hand_text(table, 0)
    assert all(card_name(lang, c) in named for c in cards)
    table.compact_cards = True
    compact = mus_render.hand_text(table, 0)
    line = " ".join(short_card(lang, c) for c in cards)
    assert line in compact and line in mus_render.cards_alert(table, 0)
    assert not any(card_name(lang, c) in compact for c in cards)
    assert short_card(lang, "12o") == shown
