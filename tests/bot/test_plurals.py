"""Texts that count things take the catalog's plural form (issue 10, item 7) where the bot used to
pick one of two keys by hand, and where "1 piedras" / "quedan 1" could be written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bot import present
from bot.flow import clock, discard
from bot.games import render
from bot.games.envite import render as envite_render
from bot.games.mus import render as mus_render
from bot.games.piedras import events as piedras_events
from bot.games.registry import get_game
from bot.games.timing import HIGHEST, LOWEST, quarters
from bot.table import Table
from locales import t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import NAMES, posted, seated_table


def labels(game: str, words: list[str], lang: str) -> str:
    adapter = get_game(game)
    return ", ".join(
        t(lang, k, **p) for k, p in adapter.option_labels(adapter.parse_options(words))
    )


@pytest.mark.parametrize(
    ("game", "words", "lang", "shown"),
    [
        ("mus", ["juegos=1"], "es", "1 juego la vaca"),
        ("mus", ["juegos=3"], "es", "3 juegos la vaca"),
        ("mus", ["juegos=1"], "en", "1 juego per vaca"),
        ("envite", ["chicos=1"], "es", "a un chico"),
        ("envite", ["chicos=2"], "en", "2 chicos to win"),
        ("envite", ["chicos=1"], "en", "one chico"),
        ("piedras", ["perdidas=1"], "es", "fuera al perder 1 juego"),
        ("piedras", ["perdidas=2"], "en", "out after 2 lost juegos"),
    ],
)
def test_option_labels_count_in_the_right_form(
    game: str, words: list[str], lang: str, shown: str
) -> None:
    assert shown in labels(game, words, lang).split(", ")


@pytest.mark.parametrize(
    ("losses", "es", "en"),
    [
        (1, "💀 <b>Ana</b> pierde el juego 2.", "💀 <b>Ana</b> loses juego 2."),
        (
            3,
            "💀 <b>Ana</b> pierde el juego 2 (lleva 3 perdidos).",
            "💀 <b>Ana</b> loses juego 2 (3 lost so far).",
        ),
    ],
)
def test_a_lost_juego_counts_the_losses_from_the_second_on(losses: int, es: str, en: str) -> None:
    data = {"seat": 0, "juego": 2, "losses": losses}
    got = [piedras_events.event_line(lang, "juego_lost", data, NAMES, {}) for lang in ("es", "en")]
    assert got == [es, en]


@pytest.mark.parametrize(("count", "stones"), [(1, "1 piedra"), (3, "3 piedras")])
def test_stones_put_on_the_plate(count: int, stones: str) -> None:
    data = {"seat": 1, "lance": "grande", "count": count, "why": "value"}
    line = piedras_events.event_line("es", "to_plate", data, NAMES, {})
    assert line is not None and f"pone {stones} en el plato" in line


def test_a_juego_starts_with_stones_each() -> None:
    data = {"juego": 1, "stones": 5}
    assert piedras_events.event_line("en", "juego_started", data, NAMES, {}) == (
        "Juego 1 starts: 5 stones each."
    )


@pytest.mark.parametrize(("stones", "es"), [(0, "0 piedras"), (1, "1 piedra"), (7, "7 piedras")])
def test_envite_team_line_counts_stones(stones: int, es: str) -> None:
    view = {"score": [stones, 2], "chicos": [0, 1]}
    assert f": {es} · chicos 0" in envite_render._team_line("es", NAMES, view, 0)
    assert ": 2 stones · chicos 1" in envite_render._team_line("en", NAMES, view, 1)


def test_the_discard_prompt_speaks_of_one_card_or_several() -> None:
    assert t("es", "hand.discard_prompt", n=1).startswith("Elige la carta")
    mus_table = seated_table()
    posted.start(mus_table, 3, 0.0, 60)
    posted.play(mus_table, 0, "mus", 1.0, 60)
    for seat in (1, 2, 3):
        posted.play(mus_table, seat, "mus", 1.0, 60)
    cards = [str(c) for c in mus_table.engine_state().hands[0]]
    assert render.discard_lines(mus_table, 0, cards)[0].startswith("Marca las cartas")
    piedras_table = Table(chat_id=-100777, creator=1, tid="p1e2d3", title="P", game="piedras")
    for i in range(3):
        piedras_table.join(100 + i, NAMES[i])
    posted.start(piedras_table, 1, 1000.0, 60)
    cards = [str(c) for c in piedras_table.engine_state().hands[0]]
    assert render.discard_lines(piedras_table, 0, cards)[0].startswith("Elige la carta")


def test_one_or_several_left_to_discard() -> None:
    table = seated_table()
    posted.start(table, 3, 0.0, 60)
    for seat in range(4):
        posted.play(table, seat, "mus", 1.0, 60)
    for seat in (0, 1, 2):
        card = str(table.engine_state().hands[seat][0])
        discard.toggle(table, seat, card, True, table.discard_round)
        posted.confirm(table, seat, table.discard_round, 1.0, 60)
    assert "▶ Falta por descartarse: <b>Dani</b>" in mus_render.table_text(table)


def test_turn_clock_and_nudge_say_the_time_in_the_same_words() -> None:
    """One clock unit everywhere: the lobby's "2 min por turno", the table's clock and the
    nudge all count minutes and quarters of a minute (the first turn's reading pause makes none
    more)."""
    table = seated_table()
    posted.start(table, 3, 0.0, 120)
    table.clock_quarters = 4
    assert render.deadline_text("es", table) == "⏱ queda 1 min"
    table.clock_quarters = 8
    assert render.deadline_text("es", table) == "⏱ quedan 2 min"
    table.clock_quarters = 6
    assert render.deadline_text("es", table) == "⏱ quedan 1½ min"
    assert render.deadline_text("en", table) == "⏱ 1½ min left"
    link = present.table_link(table)
    assert ": quedan ¼ min." in render.nudge_text(table, 1, link)
    assert ": quedan 1½ min." in render.nudge_text(table, 100, link)
    assert " s." not in render.nudge_text(table, 100, link)
    table.lang = "en"
    assert ": 1½ min left." in render.nudge_text(table, 100, link)
    assert ": 2 min left." in render.nudge_text(table, 125, link)
    fresh = seated_table()
    posted.start(fresh, 3, 0.0, 120)  # the first turn: 120 s and the reading pause
    assert render.deadline_text("es", fresh) == "⏱ quedan 2 min"
    assert render.time_label("es", 120) == "⏱ 2 min por turno"


_QUARTERS = {"": 0.0, "¼": 0.25, "½": 0.5, "¾": 0.75}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_allowed_turn_time_reads_the_same_in_the_header_the_clock_and_the_nudge(
    lang: str,
) -> None:
    """tiempo=30..600: one rounding rule (:func:`bot.games.timing.quarters`) for the title's
    "⏱ 1½ min por turno", the clock of a new hand's first turn (the reading pause included) and
    the nudge at the turn's start: the same minutes in all three, never seconds, at most 10 s
    under and 5 s over the real time; the clock then changes only to whole minutes, to what the
    rule says at that moment (tiempo=90: "1½ min" in the header and on the clock, not "2")."""
    table = seated_table(lang=lang)
    posted.start(table, 3, 0.0, 120)
    minutes = t(lang, "phone.opt.minutes", n="{n}")
    head, tail = minutes.split("{n}")
    link = present.table_link(table)
    for seconds in range(LOWEST, HIGHEST + 1):
        table.turn_time = seconds
        clock.fresh_turn(table, 0.0, 120, read=True)
        header = render.options_text(lang, table).rsplit(", ", 1)[-1]
        assert header.startswith(head) and header.endswith(tail), (seconds, header)
        n = header[len(head) : len(header) - len(tail)]
        value = float(n.rstrip("¼½¾") or 0) + _QUARTERS[n.lstrip("0123456789")]
        assert -10 <= value * 60 - seconds <= 5, (seconds, header)
        shown = render.deadline_text(lang, table)
        nudge = render.nudge_text(table, seconds, link)
        same = re.compile(rf"(?<![0-9¼½¾]){re.escape(n)} min\b")
        for text in (shown, nudge):
            assert same.search(text), (seconds, header, text)
            assert not re.search(r"\d+ ?(s|seg|sec)\b", text), (seconds, text)
        at = table.clock_at
        while at is not None:
            assert table.turn_deadline is not None
            clock.tick_clock(table, at)
            left = table.turn_deadline - at
            assert table.clock_quarters % 4 == 0, (seconds, at, table.clock_quarters)
            assert table.clock_quarters == quarters(left), (seconds, at)
            at = table.clock_at


def test_piedras_lance_level() -> None:
    assert t("es", "piedras.table.level", n=1) == "va 1"
    assert t("es", "piedras.table.level", n=4) == "van 4"
