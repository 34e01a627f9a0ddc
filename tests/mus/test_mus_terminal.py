"""The terminal game (bot/terminal.py) driven with scripted input: M6 words, refusals, EOF."""

import io

from bot.terminal import main, play
from engine.mus import Options, new_game


def run(script: str, seed: int = 5, options: Options | None = None) -> str:
    out = io.StringIO()
    assert play(io.StringIO(script), out, seed=seed, options=options) == 0
    return out.getvalue()


def test_m6_terminal_reads_words_and_prints_refusals() -> None:
    text = run("hola\nenvido\ncorto\n")
    assert "No vale: unknown_action" in text
    assert "No vale: wrong_phase" in text
    assert "Tú: corto" in text
    assert "-- GRANDE" in text
    assert text.rstrip().endswith("Hasta luego.")  # end of input


def test_m6_terminal_shows_only_my_cards_before_the_showdown() -> None:
    seed = 5
    state = new_game(seed=seed)
    text = run("corto\n", seed=seed)
    mine = {str(c) for c in state.hands[0]}
    assert all(c in text for c in mine)
    words = set(text.replace(",", " ").split())
    others = {str(c) for h in state.hands[1:] for c in h}
    assert not words & others


def test_m1_terminal_plays_whole_vaca_with_default_actions() -> None:
    text = run("\n" * 5000, seed=3, options=Options(juegos=1))
    assert "Fin de la vaca: ganan" in text
    assert "Se enseñan las cartas:" in text


def test_m2_terminal_discard_with_english_words() -> None:
    seed = 17  # everybody says mus in this game
    state = new_game(seed=seed)
    card = str(state.hands[0][0])
    text = run(f"mus\ndiscard 9z\ndiscard {card}\nquit\n", seed=seed)
    assert "No vale: bad_card" in text
    assert "Tú se descarta de 1" in text
    new_hand = text.split("Tú se descarta de 1")[1].split("Tus cartas: ")[1].split("\n")[0]
    assert card not in new_hand.split() and len(new_hand.split()) == 4


def test_m6_terminal_main_handles_eof(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["--seed", "1", "--juegos", "1"]) == 0
    assert "Hasta luego" in capsys.readouterr().out
