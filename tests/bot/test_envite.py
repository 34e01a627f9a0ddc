"""The envite adapter and its messages (rules/envite.md E1-E7): options, teams, the table message,
the private hand with the mocho, inline results, refusals, and no hidden card in public texts."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

import engine.envite as envite
from bot.flow import moves
from bot.games.base import OptionError
from bot.games.envite.adapter import ENVITE
from bot.games.envite.render import trumps_text
from bot.games.registry import find_game, get_game
from bot.games.render import card_name
from bot.table import Table
from engine.core import IllegalAction

sys.path.insert(0, str(Path(__file__).parent))

from flowkit import posted

NAMES = ["Ana", "Bea", "Cris", "Dani", "Eva", "Fer", "Gus", "Hugo", "Iris", "Juan", "Kim", "Luz"]


def table_of(n: int, options: list[str] | None = None, lang: str = "es", seed: int = 3) -> Table:
    table = Table(chat_id=-100777, creator=1, tid="e1", title="Canarias", game="envite", lang=lang)
    table.options = ENVITE.parse_options(options or [])
    for i in range(n):
        table.join(i + 1, NAMES[i])
    posted.start(table, seed, 0.0, 60)
    return table


def with_state(table: Table, state: envite.EnviteState) -> Table:
    table.state = envite.to_json(state)
    return table


# ---- options and teams (E1, E4, E6) ---------------------------------------------------------


def test_registry_name_and_alias() -> None:
    assert get_game("envite") is ENVITE and find_game("canario") is ENVITE
    assert ENVITE.features.teams == 2 and ENVITE.features.team_captains


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], {"chicos": 2, "mocho": False, "renuncio": False}),
        (["chicos=1"], {"chicos": 1, "mocho": False, "renuncio": False}),
        (["Mocho", "RENUNCIO", "chicos=4"], {"chicos": 4, "mocho": True, "renuncio": True}),
    ],
)
def test_option_words(words: list[str], expected: dict[str, object]) -> None:
    senas = {"sinsenas": False, "senasvistas": False, "pillar": 0.15}
    assert ENVITE.parse_options(words) == {**expected, **senas}


@pytest.mark.parametrize("word", ["chicos=5", "chicos=0", "30", "real", "<b>"])
def test_unknown_option_is_refused_by_name(word: str) -> None:
    with pytest.raises(OptionError) as info:
        ENVITE.parse_options(["mocho", word])
    assert info.value.word == word


def test_option_labels() -> None:
    keys = [k for k, _ in ENVITE.option_labels(ENVITE.parse_options(["mocho", "renuncio"]))]
    assert keys == ["envite.opt.chicos", "envite.opt.mocho", "envite.opt.renuncio"]


@pytest.mark.parametrize(
    ("sizes", "mocho", "ok"),
    [((2, 2), False, True), ((3, 2), False, False), ((3, 2), True, True), ((2, 3), True, True),
     ((4, 2), True, False), ((2, 1), True, False), ((6, 6), False, True)],
)  # fmt: skip
def test_check_teams(sizes: tuple[int, int], mocho: bool, ok: bool) -> None:
    """E1: even teams; the mocho fills one missing seat (teams of at least 2)."""
    options = ENVITE.parse_options(["mocho"] if mocho else [])
    if ok:
        moves.check_teams(ENVITE.features, sizes, options)
    else:
        with pytest.raises(IllegalAction):
            moves.check_teams(ENVITE.features, sizes, options)


def test_uneven_teams_without_mocho_are_refused_at_start() -> None:
    table = Table(chat_id=-1, creator=1, tid="x", game="envite")
    for i in range(5):
        table.join(i + 1, NAMES[i])
    with pytest.raises(IllegalAction) as info:
        posted.start(table, 1, 0.0, 60)
    assert info.value.reason == "uneven_teams" and table.status == "lobby"


def test_mocho_belongs_to_the_short_team_and_mandadores_are_the_first_of_each_team() -> None:
    """Five players: the bigger team sits at 0, 2, 4; the mocho is the last seat (team 1)."""
    table = Table(chat_id=-1, creator=1, tid="x", game="envite")
    table.options = ENVITE.parse_options(["mocho"])
    for i in range(5):
        table.join(i + 1, NAMES[i])
    table.choose_team(3, 1)  # Cris joins Bea and Dani: they are the bigger team now
    posted.start(table, 1, 0.0, 60)
    state = table.engine_state()
    assert state.ghost == 5 and state.ghost % 2 == 1 and state.players == 6
    assert state.mandadores == (0, 1)
    # The bigger team sits first (its first player, Bea, is its mandador); Ana, first of the
    # short team, is the other mandador and plays the mocho.
    assert [p.name for p in table.players] == ["Bea", "Ana", "Cris", "Eva", "Dani"]
    assert [p.team for p in table.players] == [0, 1, 0, 1, 0]


# ---- the table message ------------------------------------------------------------------


def test_table_message_shows_vira_trumps_teams_ladder_and_turn() -> None:
    state = envite.new_game(
        players=6,
        dealer=5,
        hands=[["3o", "4o", "5e"], ["6o", "7o", "12e"], ["1c", "2c", "3c"],
               ["4c", "5c", "6c"], ["7c", "10c", "11c"], ["12c", "1e", "2e"]],
        vira="3e",
        score=(4, 7),
        chicos=(1, 0),
    )  # fmt: skip
    table = with_state(table_of(6), state)
    text = table.adapter.table_text(table)
    assert "Vira: <b>tres de espadas</b> · triunfo: <b>espadas</b>" in text
    # E3, k = 3: the three fixed trumps, then the malilla of the vira suit.
    assert "tres de bastos › caballo de bastos › sota de oros › malilla (dos de espadas)" in text
    assert "🔵 Ana, Cris y Eva: 4 piedras · chicos 1" in text
    assert "🔴 Bea, Dani y Fer: 7 piedras · chicos 0" in text
    assert "Apuesta: <b>[2]</b> · 4 · 7 · 9 · chico fuera" in text
    assert "▶ Le toca a <b>Ana</b>" in text
    step = posted.play(table, 0, "tiro 3o", 0.0, 60)
    assert step.events[0].kind == "card_played"
    posted.play(table, 1, "envido", 0.0, 60)
    text = table.adapter.table_text(table)
    assert "En la mesa (baza 1): <b>Ana</b> tres de oros" in text
    assert "<u>4?</u>" in text and "envidan Bea, Dani y Fer" in text
    assert "<b>Bea</b>: envido (van 4)." in text
    assert "▶ Contesta el mandador: <b>Ana</b>" in text
    labels = [b.label for row in table.adapter.table_buttons(table) for b in row]
    assert labels == ["Quiero", "No quiero", "Siete"]
    with pytest.raises(IllegalAction) as info:
        posted.play(table, 2, "quiero", 0.0, 60)  # Cris is not his team's mandador
    assert info.value.reason == "not_mandador"
    from bot.games.render import error_text

    assert error_text("es", info.value) == "Contesta el mandador: Ana."
    assert error_text("en", info.value) == "The mandador answers: Ana."
    posted.play(table, 0, "quiero", 0.0, 60)
    text = table.adapter.table_text(table)
    assert "<b>[4]</b>" in text and "querido" in text


def test_tumbo_is_shown_and_bets_refused() -> None:
    state = envite.new_game(players=4, seed=8, score=(11, 6))
    table = with_state(table_of(4), state)
    text = table.adapter.table_text(table)
    assert "<b>en tumbo</b>" in text and "no se envida" in text
    assert "▶ Decide <b>Ana</b>: ¿tumbo o no tumbo?" in text
    labels = [b.label for row in table.adapter.table_buttons(table) for b in row]
    assert labels == ["Tumbo", "No tumbo"]
    with pytest.raises(IllegalAction) as info:
        posted.play(table, 0, "envido", 0.0, 60)
    assert info.value.reason == "no_bets_en_tumbo"


def test_mocho_turn_and_private_hands() -> None:
    table = table_of(5, ["mocho"], seed=4)
    state = table.engine_state()
    ghost = state.ghost
    assert ghost == 5
    # Play until the mocho's turn.
    while state.turn != ghost or state.phase != "play":
        seat = state.to_act[0]
        action = next(a for a in envite.legal_actions(state, seat) if a.kind in ("tiro",))
        posted.play(table, seat, str(action), 0.0, 60)
        state = table.engine_state()
    assert state.to_act == (1,)
    text = table.adapter.table_text(table)
    assert "▶ Mano del mocho (juega <b>Bea</b>)" in text
    hand = table.adapter.hand_text(table, 1)
    mine = envite.view(state, 1).to_dict()["cards"]
    ghost_cards = [str(c) for c in state.hands[ghost]]
    assert f"Tus cartas: {', '.join(card_name('es', c) for c in mine)}" in hand
    assert f"Cartas del mocho: {', '.join(card_name('es', c) for c in ghost_cards)}" in hand
    assert "Mano del mocho: elige su carta" in hand
    buttons = [b.action for row in table.adapter.hand_buttons(table, 1) for b in row]
    legal = [str(a) for a in envite.legal_actions(state, 1) if a.cards]
    assert buttons == legal and all(a.split()[1] in ghost_cards for a in legal)
    inline = table.adapter.inline_cards(table, 1)
    assert [c.action for c in inline] == legal
    assert all(c.description.startswith("Carta del mocho") for c in inline)
    assert all(c.text.startswith("🃏 ") and c.text.endswith("(mocho)") for c in inline)
    # Dani (the other player of that team) never sees the mocho's cards.
    assert "mocho" not in table.adapter.hand_text(table, 3)
    assert table.adapter.inline_cards(table, 3) == []
    assert table.adapter.hand_buttons(table, 3) == []


def test_inline_results_are_the_legal_cards_of_the_player_to_act() -> None:
    state = envite.new_game(
        players=4,
        dealer=3,
        hands=[["1o", "4c", "5e"], ["2o", "6c", "7e"], ["12b", "3o", "4b"], ["11c", "6e", "7c"]],
        vira="1e",
    )
    table = with_state(table_of(4), state)
    posted.play(table, 0, "tiro 1o", 0.0, 60)
    choices = table.adapter.inline_cards(table, 1)
    expected = [("tiro 2o", "dos de oros", "🃏 dos de oros")]
    assert [(c.action, c.title, c.text) for c in choices] == expected
    assert table.adapter.inline_cards(table, 0) == []
    with pytest.raises(IllegalAction) as info:
        posted.play(table, 1, "tiro 6c", 0.0, 60)
    assert (
        info.value.reason == "must_follow_suit"
        and info.value.reason in ENVITE.features.private_refusals
    )
    from bot.games.render import error_text

    assert error_text("es", info.value) == "Tienes que asistir al palo: oros."
    en = with_state(table_of(4, lang="en"), table.engine_state())
    with pytest.raises(IllegalAction) as info:
        posted.play(en, 1, "tiro 6c", 0.0, 60)
    assert error_text("en", info.value) == "You must follow suit: coins."


def test_renuncio_button_for_anyone_once_a_player_did_not_follow() -> None:
    state = envite.new_game(
        players=4,
        dealer=3,
        options=envite.Options(renuncio=True),
        hands=[["1o", "4c", "5e"], ["2o", "6c", "7e"], ["12b", "3o", "4b"], ["11c", "6e", "7c"]],
        vira="1e",
    )
    table = with_state(table_of(4, ["renuncio"]), state)
    posted.play(table, 0, "tiro 1o", 0.0, 60)
    posted.play(table, 1, "tiro 6c", 0.0, 60)  # a renuncio: Bea had the 2 of oros
    labels = [b.label for row in table.adapter.table_buttons(table) for b in row]
    assert "¡Renuncio!" in labels
    step = posted.play(table, 2, "renuncio", 0.0, 60)  # Cris is not to act: the engine allows it
    result = table.adapter.result_text(table, step.events, [])
    assert result is not None
    assert "¡Renuncio! Lo canta <b>Cris</b>: <b>Bea</b> no asistió." in result
    assert "renuncio cantado: +4 para Ana y Cris" in result


# ---- no hidden card in public texts (property over random play) -----------------------------

_DECK = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def _mentions(text: str, cards: set[str], lang: str) -> list[str]:
    low = text.lower()
    out = []
    for card in cards:
        name = card_name(lang, card).lower()
        if re.search(rf"(?<![a-záéíóúñ]){re.escape(name)}(?![a-záéíóúñ])", low):
            out.append(card)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_no_public_text_shows_a_card_still_held(seed: int) -> None:
    rnd = random.Random(seed)
    lang = "es" if seed % 2 else "en"
    n = rnd.choice([4, 5, 6, 7, 8, 12])
    options = [w for w in ("mocho", "renuncio") if (w == "mocho" and n % 2) or rnd.random() < 0.4]
    table = table_of(n, options, lang=lang, seed=seed)
    for _ in range(300):
        if table.status != "playing":
            break
        state = table.engine_state()
        seats = [s for s in range(n) if table.adapter.legal_actions(state, s)]
        seat = rnd.choice(seats)
        action = rnd.choice(table.adapter.legal_actions(state, seat))
        before = {str(c) for hand in state.hands for c in hand}
        step = posted.play(table, seat, str(action), 0.0, 60)
        played = {str(e.data["card"]) for e in step.events if e.kind == "card_played"}
        state = table.engine_state()
        playing = table.status == "playing"
        held = {str(c) for hand in state.hands for c in hand} if playing else set()
        # The trumps line is the rule of E3 for this vira (the same for everybody): not a hand.
        rule = trumps_text(lang, str(state.vira), state.k)
        texts = [table.adapter.table_text(table).replace(rule, "")]
        texts += [b.label for row in table.adapter.table_buttons(table) for b in row]
        ended = []  # about the round that ended: its cards never shown stay hidden too
        result = table.adapter.result_text(table, step.events, step.closed_hand_log or [])
        if result:
            ended.append(result)
        if step.closed_hand_log is not None:
            ended.append(table.adapter.closed_table_text(table, step.closed_hand_log))
        for text in texts:
            assert not _mentions(text, held, lang), (text, _mentions(text, held, lang))
        for text in ended:
            hidden = before - played
            assert not _mentions(text, hidden, lang), (text, _mentions(text, hidden, lang))
        # Private texts show exactly the seat's own cards (and the mocho's to its mandador).
        for s in range(n):
            view = envite.view(state, s).to_dict()
            own = set(view["cards"]) | set(view["mocho_cards"] or [])
            shown = set(_mentions(table.adapter.hand_text(table, s), set(_DECK), lang))
            assert shown - {str(state.vira)} == own


def test_a_round_won_on_tricks_says_how_many_each_team_took() -> None:
    rnd = random.Random(5)
    table = table_of(4, seed=5)
    for _ in range(200):
        state = table.engine_state()
        seats = [s for s in range(4) if table.adapter.legal_actions(state, s)]
        legal = table.adapter.legal_actions(state, seats[0])
        plays = [a for a in legal if a.kind == "tiro"] or legal
        step = posted.play(table, seats[0], str(rnd.choice(plays)), 0.0, 60)
        scored = [e for e in step.events if e.kind == "round_scored"]
        if scored and scored[0].data["why"] == "tricks":
            tricks = next(e for e in reversed(step.events) if e.kind == "trick_won").data["tricks"]
            team = scored[0].data["team"]
            result = table.adapter.result_text(table, step.events, []) or ""
            said = f"por bazas, {tricks[team]} a {tricks[1 - team]}: +{scored[0].data['points']}."
            assert said in result, result
            assert tricks[team] == 2
            return
    raise AssertionError("no round was won on tricks")


def _scripted(lang: str = "es") -> Table:
    """Four players, seat 0 mano, vira cuatro de copas (E2's deal given)."""
    table = table_of(4, lang=lang)
    hands = [h.split() for h in ["2c 4e 5e", "12c 6o 7o", "4o 5o 1o", "4b 5b 6b"]]
    return with_state(table, envite.new_game(players=4, dealer=3, hands=hands, vira="4c"))


def test_the_whole_baza_stays_on_the_table_until_the_next_one_starts() -> None:
    """E4: the card that completes a baza is shown with the others and who took it ("→"),
    until the first card of the next baza; then the baza is one short line."""
    table = _scripted()
    for seat, card in [(0, "4e"), (1, "12c"), (2, "4o"), (3, "4b")]:
        posted.play(table, seat, f"tiro {card}", 0.0, 60)
    text = table.adapter.table_text(table)
    whole = "Baza 1: Ana cuatro de espadas · Bea rey de copas · Cris cuatro de oros · "
    assert whole + "Dani cuatro de bastos → Bea" in re.sub("</?b>", "", text)
    assert "En la mesa" not in text
    posted.play(table, 1, "tiro 6o", 0.0, 60)
    text = re.sub("</?b>", "", table.adapter.table_text(table))
    assert "Baza 1 para Bea (rey de copas)." in text and whole not in text
    assert "En la mesa (baza 2): Bea seis de oros" in text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_round_result_lists_every_card_of_every_baza(lang: str) -> None:
    table = _scripted(lang)
    plays = [(0, "4e"), (1, "12c"), (2, "4o"), (3, "4b"), (1, "6o"), (2, "5o"), (3, "5b")]
    for seat, card in plays:
        posted.play(table, seat, f"tiro {card}", 0.0, 60)
    step = posted.play(table, 0, "tiro 5e", 0.0, 60)
    assert any(e.kind == "round_scored" for e in step.events)
    # No table message was posted here: the round's end waits for one, else goes out alone.
    result = re.sub("</?b>", "", list(table.shown.unposted.values())[-1][1])
    if lang == "es":
        assert "Baza 1: Ana cuatro de espadas · Bea rey de copas" in result
        assert "Baza 2: Bea seis de oros · Cris cinco de oros · Dani cinco de bastos · " in result
        assert result.index("Baza 1") < result.index("Baza 2") < result.index("Piedras")
    else:
        assert (
            "Trick 2: Bea six of coins · Cris five of coins · Dani five of clubs · Ana " in result
        )
    assert result.count("→ Bea") == 2


@pytest.mark.parametrize("lang", ["es", "en"])
def test_chico_fuera_is_said_as_players_say_it(lang: str) -> None:
    """Each bet reads as Mus's table talk: who, what he said, and what is on the table."""
    table = _scripted(lang)
    for seat, bet in [(0, "envido"), (1, "siete"), (0, "nueve"), (1, "chico fuera")]:
        posted.play(table, seat, bet, 0.0, 60)
    text = re.sub("</?b>", "", table.adapter.table_text(table))
    if lang == "es":
        assert "Bea: ¡chico fuera! (va el chico)." in text and "van chico fuera" not in text
        assert "Ana: envido (van 4)." in text and "Bea: siete (van 7)." in text
        assert "Ana: nueve (van 9)." in text and "envida:" not in text
    else:
        assert "Bea: chico fuera! (the whole chico on the table)." in text
        assert "Ana: bet (4 on the table)." in text and "Bea: seven (7 on the table)." in text
        assert "Ana: nine (9 on the table)." in text and "bets:" not in text


def test_the_log_keeps_every_baza_however_much_was_said() -> None:
    """A round's three bazas stay in the log (the result lists them) beyond its last bets."""
    from bot.games.seats import LogEntry

    tricks = [LogEntry(kind="trick_won", data={"trick": n}) for n in (1, 2)]
    talk = [LogEntry(kind="bet", data={"step": 4}) for _ in range(20)]
    kept = ENVITE.keep_log([tricks[0], *talk, tricks[1], *talk])
    assert [e.data for e in kept if e.kind == "trick_won"] == [{"trick": 1}, {"trick": 2}]
    assert len(kept) == 2 + 12
