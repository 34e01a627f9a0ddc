"""The terminal game (``tapete-terminal``, bot/terminal.py) driven through stdin and stdout: the
three games against computer players, choices by number or by words, refusals in the catalog's
words, Spanish and English, and only your own cards until they are shown."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import render
from bot.terminal import NEVER, Setup, main, my_name, new_table, play
from locales import t, tn

sys.path.insert(0, str(Path(__file__).parent))

from flowkit import posted


def run(script: str, game: str = "mus", words: tuple[str, ...] = (), **kw: object) -> str:
    out = io.StringIO()
    assert play(io.StringIO(script), out, game, words, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue()


@pytest.mark.parametrize("game", ["mus", "envite", "piedras"])
def test_a_few_moves_of_each_game_by_number_and_a_refusal(game: str) -> None:
    text = run("bailar\n1\n1\n1\n1\nquit\n", game, seed=4)
    assert (
        t("es", "terminal.welcome", game=t("es", f"game.{game}"), others="").split("(")[0] in text
    )
    assert "🤖 Máquina 1" in text
    assert t("es", "terminal.refused", why="").strip() in text  # "bailar" is no move
    assert text.count("> ") >= 5 and "  1) " in text
    assert text.rstrip().endswith(t("es", "terminal.bye"))


@pytest.mark.parametrize(
    ("game", "words"), [("mus", ("30", "juegos=1")), ("envite", ("chicos=1",)), ("piedras", ())]
)
def test_a_whole_game_against_the_computers(game: str, words: tuple[str, ...]) -> None:
    text = run("1\n" * 4000, game, words, seed=9, level="facil")
    assert t("es", "terminal.over") in text
    assert t("es", "msg.game_over") in text


def test_only_my_cards_before_the_showdown() -> None:
    setup = Setup(["semilla=5"])
    table = new_table("mus", (), setup, "Ana (tú)")
    posted.start(table, 5, 0.0, NEVER, pause=(0.0, 0.0))
    state = table.engine_state()
    mine = {render.card_name("es", str(c)) for c in state.hands[0]}
    others = {render.card_name("es", str(c)) for h in state.hands[1:] for c in h} - mine
    text = run("quit\n", seed=5)
    assert all(name in text for name in mine)
    assert not [name for name in others if name in text]


def test_s1_s3_a_computer_partners_senas_are_shown_to_me() -> None:
    """rules/senas.md S1, S3: at envite your computer partner's señas reach you in the terminal
    too (and only yours: the opponents' señas never)."""
    text = run("1\n" * 30 + "quit\n", "envite", ("chicos=1",), seed=7)
    partner = "🤖 Máquina 2"
    said = [line for line in text.splitlines() if " te hace " in line]
    assert said and all(line.startswith(partner) for line in said), said


def test_discard_by_positions_and_in_english() -> None:
    for seed in range(30):  # a deal where everybody says mus
        text = run("1\n1 2\nquit\n", seed=seed, lang="en")
        if "1) " in text and tn("en", "terminal.discard_hint", 4) in text:
            break
    else:
        pytest.fail("no discard in 30 deals")
    assert t("en", "hand.cards", cards="").strip() in text
    assert text.rstrip().endswith(t("en", "terminal.bye"))
    after = text.split(tn("en", "terminal.discard_hint", 4))[1]
    assert "Not allowed" not in after.split("> ")[1]


def test_main_asks_for_the_game_and_takes_nueva_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([], stdin=io.StringIO("2\nquit\n")) == 0
    out = capsys.readouterr().out
    assert t("es", "terminal.which_game") in out and "Tapete · Envite" in out
    assert main(["piedras", "idioma=en", "seed=1"], stdin=io.StringIO("")) == 0
    assert "Tapete · Mus a piedras" in capsys.readouterr().out
    assert main(["mus", "bailar"], stdin=io.StringIO("")) == 2
    assert "bailar" in capsys.readouterr().out
    assert main(["mus", "nivel=dios"], stdin=io.StringIO("")) == 2


def test_the_console_script_through_a_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.terminal", "envite", "chicos=1", "nivel=facil", "semilla=3"],
        input="1\n1\n1\nsalir\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "Tapete · Envite" in done.stdout and done.stdout.rstrip().endswith("Hasta luego.")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_terminal_says_how_to_discard_here_not_with_telegrams_buttons(lang: str) -> None:
    """A piedras discard (one card): no "mark your cards here... or in private", no "press
    Discard"; the terminal's own hint, in the singular."""
    text = run("quit\n", "piedras", seed=3, lang=lang)
    assert tn(lang, "terminal.discard_hint", 1) in text
    for phone in (
        t(lang, "table.phase.discard"),
        *(tn(lang, "hand.discard_prompt", n) for n in (1, 2)),
    ):
        assert phone not in text


def test_envite_your_turn_without_the_group_button() -> None:
    text = run("quit\n", "envite", ("chicos=1",), seed=3, lang="en")
    assert "  1) " in text  # your turn, with your choices numbered
    assert t("en", "envite.hand.your_turn") not in text


def test_an_empty_line_shows_the_table_again_without_the_help() -> None:
    text = run("\nquit\n", "mus", seed=4)
    assert t("es", "terminal.help") not in text
    title = t("es", "hand.cards", cards="").strip()
    assert text.count(title) == 2  # the table and your hand, shown again
    assert t("es", "terminal.help") in run("?\nquit\n", "mus", seed=4)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_my_name_reads_right_in_the_third_person(lang: str) -> None:
    """The table speaks of players in the third person ("Le toca a Ana"): you are a name
    marked as you, never a bare "Tú" ("Le toca a Tú", "Tú envida")."""
    text = run("1\n" * 12 + "quit\n", "envite", ("chicos=1",), seed=3, lang=lang, name="ana")
    me = my_name(lang, "ana")
    assert me == ("Ana (tú)" if lang == "es" else "Ana (you)")
    assert t(lang, "table.to_act", names=me) in text
    assert "Tú " not in text and "You:" not in text and "Tú:" not in text


def test_the_name_word_and_a_default_name() -> None:
    assert Setup(["nombre=Lucía", "envite"]).name == "Lucía"
    assert Setup(["envite"]).name is None
    assert my_name("es").endswith(" (tú)") and len(my_name("es")) > len(" (tú)")
