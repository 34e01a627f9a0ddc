"""Computer players at the table: the seat model, the pause, their moves by the timer (seeing
only their own seat's view), the takeover after two timeouts and "Vuelvo", and that nothing is
ever sent to a computer seat."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import keyboards
from bot.flow import moves, seating
from bot.flow.clock import PAUSE
from bot.flow.moves import TAKEOVER_AFTER
from bot.games import render
from bot.games.registry import GAMES
from bot.handlers import computers, lobby, play, timers
from bot.records import book
from bot.table import Table
from engine.core import IllegalAction
from locales import t

sys.path.insert(0, str(Path(__file__).parent))

from flowkit import posted
from test_handlers import GROUP, Harness

HUMAN = 101


def one_and_three(game: str = "mus", lang: str = "es", **options: Any) -> Table:
    table = Table(chat_id=GROUP, creator=HUMAN, tid="c0ffee", game=game, lang=lang)
    table.options = GAMES[game].parse_options([f"{k}={v}" for k, v in options.items()])
    table.join(HUMAN, "Ana")
    table.fill_with_computers()
    return table


def test_computer_seats_are_marked_and_never_collide_with_people() -> None:
    table = one_and_three()
    assert [p.user_id for p in table.players] == [HUMAN, -1, -2, -3]
    assert table.names() == ["Ana", "🤖 Máquina 1", "🤖 Máquina 2", "🤖 Máquina 3"]
    assert all(p.bot_level == "normal" for p in table.players[1:])
    lobby_text = render.lobby_text(table)
    assert "🤖 Máquina 3" in lobby_text and t("es", "bots.level.normal") in lobby_text
    with pytest.raises(IllegalAction, match="table_full"):
        table.add_computer()
    english = Table(chat_id=GROUP, creator=HUMAN, tid="e", lang="en", level="facil")
    english.add_computer()
    assert english.names() == ["🤖 Computer 1"] and english.players[0].bot_level == "facil"
    # A removed computer's number is reused, never two with the same id.
    table.players.pop(2)
    table.add_computer()
    assert sorted(p.user_id for p in table.players) == [-3, -2, -1, HUMAN]


def test_computer_in_the_team_asked_or_the_smaller_one() -> None:
    table = Table(chat_id=GROUP, creator=HUMAN, tid="t", game="envite")
    table.join(HUMAN, "Ana")
    table.join(102, "Bea")
    table.choose_team(102, 0)  # both people in team 1
    seat = table.add_computer()  # the smaller team: 2
    assert table.team_of(seat) == 1
    table.add_computer(1)
    half = table.seats_range()[1] // 2
    with pytest.raises(IllegalAction, match="team_full"):
        for _ in range(half):
            table.add_computer(0)
    assert [len(m) for m in table.team_members()] == [half, 2]
    assert table.fill_with_computers() == half - 2
    assert [len(m) for m in table.team_members()] == [half, half]


def test_a_table_needs_one_person() -> None:
    table = Table(chat_id=GROUP, creator=HUMAN, tid="t")
    table.fill_with_computers()
    with pytest.raises(IllegalAction, match=r"bots\.error\.no_humans"):
        posted.start(table, 1, 0.0, 60)


def test_the_pause_is_short_seeded_and_reproducible() -> None:
    def computer_is_mano() -> Table:
        table = Table(chat_id=GROUP, creator=HUMAN, tid="c0ffee")
        table.add_computer()
        table.join(HUMAN, "Ana")
        table.fill_with_computers()
        return table

    person_first = one_and_three()
    posted.start(person_first, 1, 100.0, 60)
    assert person_first.to_act() == (0,) and person_first.deadline == 160.0  # his full minute
    deadlines = set()
    for seed in range(12):
        table = computer_is_mano()
        posted.start(table, seed, 100.0, 60, pause=(1.5, 3.0))
        assert table.to_act() == (0,) and table.players[0].bot_level
        assert table.deadline is not None and 101.5 <= table.deadline <= 103.0
        again = computer_is_mano()
        posted.start(again, seed, 100.0, 60, pause=(1.5, 3.0))
        assert again.deadline == table.deadline
        deadlines.add(table.deadline)
    assert len(deadlines) > 3  # randomised


def _drive(table: Table, person: Any, limit: int = 5000) -> int:
    """Fire the timer and let the person act by ``person(table)``; returns computer moves."""
    made = 0
    for _ in range(limit):
        if table.status != "playing":
            break
        acting = table.to_act()
        if 0 in acting and person is not None:
            action = person(table)
            if action is not None:
                posted.play(table, 0, action, table.moved_at + 1, 60)
                continue
        assert table.deadline is not None
        before = table.turn
        step = posted.fire_timer(table, table.deadline, 60, PAUSE)
        if not step.played:  # the timer was a nudge or the clock's minute, not a move
            assert table.turn == before
            continue
        assert table.turn > before
        made += 1
    return made


@pytest.mark.parametrize("game", ["mus", "envite", "piedras"])
def test_one_person_and_computers_play_a_whole_game(game: str) -> None:
    opts = {"mus": {"juegos": 1}, "envite": {"chicos": 1}, "piedras": {}}[game]
    table = one_and_three(game, **opts)
    posted.start(table, 7, 0.0, 60)
    rng = random.Random(7)

    def person(tb: Table) -> str | None:
        legal = tb.adapter.legal_actions(tb.engine_state(), 0)
        return str(rng.choice(legal)) if legal else None

    assert _drive(table, person) > 10
    assert table.status == "over"
    assert not table.players[0].away  # the person answered every time


def test_the_computer_sees_only_its_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    table = one_and_three()
    posted.start(table, 3, 0.0, 60)
    seen: list[tuple[int, Any]] = []
    game = table.adapter
    real = game.ai.choose

    def spy(view: Any, legal: Any, rng: random.Random, level: str) -> Any:
        seen.append((view.seat, view))
        return real(view, legal, rng, level)

    monkeypatch.setattr(game.ai, "choose", spy)
    for _ in range(40):
        if table.status != "playing":
            break
        state = table.engine_state()
        if 0 in table.to_act():
            posted.play(table, 0, game.default_action(state, 0), table.moved_at + 1, 60)
            continue
        expected = {s: game.engine.view(state, s) for s in table.to_act()}
        discard = game.features.in_discard(state)
        assert table.deadline is not None
        if not posted.fire_timer(table, table.deadline, 60).played:
            assert not seen  # a nudge or the clock's minute: nobody moved
            continue
        assert seen and (discard or len(seen) == 1)
        for seat, view in seen:
            assert seat != 0 and type(view).__name__ == "MusView"
            if discard:  # each computer sees the discards made before its own
                assert view.cards == expected[seat].cards
            else:
                assert view == expected[seat]
        seen.clear()


def test_computers_discard_together_and_wait_for_the_person() -> None:
    for seed in range(100):  # a deal where all three computers say mus
        table = one_and_three()
        posted.start(table, seed, 0.0, 60)
        while table.engine_state().phase == "mus":
            if 0 in table.to_act():
                posted.play(table, 0, "mus", table.moved_at + 1, 60)
            else:
                posted.fire_timer(table, table.deadline or 0, 60)
        if table.adapter.features.in_discard(table.engine_state()):
            break
    assert table.to_act() == (0, 1, 2, 3)
    assert table.deadline is not None and table.deadline < table.moved_at + 3.01
    step = posted.fire_timer(table, table.deadline, 60)
    assert step.played and not step.notes  # the person's time is not up
    assert table.to_act() == (0,) and table.deadline == table.turn_deadline
    assert sum(e.kind == "discarded" for e in step.events) == 3


def test_two_timeouts_in_a_row_hand_the_seat_to_the_computer_and_vuelvo_takes_it_back() -> None:
    table = one_and_three()
    table.players[2] = table.players[2].model_copy(
        update={"user_id": 103, "name": "Cris", "bot_level": None}
    )
    posted.start(table, 5, 0.0, 60)
    misses = 0
    while not table.players[0].away:
        assert table.status == "playing" and table.deadline is not None
        step = posted.fire_timer(table, table.deadline, 60)
        assert step.played
        if any(n.data["seat"] == 0 for n in step.notes):
            misses += 1
    assert misses == TAKEOVER_AFTER and table.players[0].misses == TAKEOVER_AFTER
    assert table.shown.outbox[-1].text == t("es", "bots.takeover", name="Ana")
    assert table.names()[0] == "🤖 Ana" and table.status == "playing"
    markup = keyboards.table_keyboard(table).to_dict()
    assert "🙋 Vuelvo" in str(markup)
    # While she is away her turns are played by the computer after the short pause.
    for _ in range(30):
        if 0 in table.to_act():
            break
        posted.fire_timer(table, table.deadline or 0, 60)
    assert 0 in table.to_act() and table.deadline is not None
    assert table.deadline - table.moved_at <= PAUSE[1]
    with pytest.raises(IllegalAction, match=r"bots\.error\.not_away"):
        seating.come_back(table, 103, 500.0, 60)
    seating.come_back(table, HUMAN, 500.0, 60)
    assert not table.players[0].away and table.players[0].misses == 0
    if table.to_act() == (0,):
        assert table.deadline == 560.0
    assert "Vuelvo" not in str(keyboards.table_keyboard(table).to_dict())


def test_when_nobody_answers_the_table_waits_and_vuelvo_resumes_it() -> None:
    table = one_and_three()
    posted.start(table, 2, 0.0, 60)
    while table.deadline is not None:
        posted.fire_timer(table, table.deadline, 60)
    assert table.status == "playing" and table.players[0].away
    assert table.shown.outbox[-1].text == t("es", "bots.paused")
    assert t("es", "bots.paused_short") in table.adapter.table_text(table)
    assert not posted.fire_timer(table, 10**9, 60).played
    seating.come_back(table, HUMAN, 9000.0, 60)
    assert table.deadline is not None and table.deadline <= 9060.0


def test_a_person_who_acts_himself_is_back() -> None:
    table = one_and_three()
    posted.start(table, 5, 0.0, 60)
    table.players[0].away = True
    for _ in range(30):
        if 0 in table.to_act():
            break
        posted.fire_timer(table, table.deadline or 0, 60)
    state = table.engine_state()
    posted.play(table, 0, table.adapter.default_action(state, 0), table.moved_at + 0.5, 60)
    assert not table.players[0].away


def test_take_level() -> None:
    assert computers.take_level(["level=easy", "mus"]) == ("facil", ["mus"])
    with pytest.raises(computers.LevelError):
        computers.take_level(["nivel=dios"])


# ---- through the handlers (stub bot) ---------------------------------------------------------


async def _open(h: Harness, text: str) -> Table:
    await lobby.nueva(*h.command(HUMAN, text))
    await lobby.unirme(*h.command(HUMAN, "/unirme"))
    table = await h.table()
    assert table is not None
    return table


async def test_maquina_command_button_and_fill_offer_then_no_private_message_to_computers() -> None:
    h = Harness(computer_pause=0.2)
    table = await _open(h, "/nueva mus 30 juegos=1 nivel=facil")
    assert table.level == "facil"
    await computers.maquina(*h.command(HUMAN, "/maquina 2"))
    await computers.button(*h.press(HUMAN, keyboards.pack("b", GROUP, table.tid)))
    table = await h.table()
    assert table.names()[1:] == ["🤖 Máquina 1", "🤖 Máquina 2"]
    assert table.team_of(1) == 1
    await computers.maquina(*h.command(HUMAN, "/maquina 7"))
    assert h.bot.group_sends()[-1] == t("es", "bots.bad_team", word="7")
    await lobby.empezar(*h.command(HUMAN, "/empezar"))
    assert h.bot.group_sends()[-1] == t("es", "error.not_enough_players", have=3, need=4)
    sent = [c for k, c in h.bot.calls if k == "send"][-1]
    assert "f:" in str(sent["reply_markup"].to_dict())
    await computers.button(*h.press(HUMAN, keyboards.pack("f", GROUP, table.tid)))
    table = await h.table()
    assert table.status == "playing" and len(table.players) == 4
    # Play the vaca: the person by buttons/commands, the computers by the timer sweep.
    rng = random.Random(3)
    for _ in range(3000):
        table = await h.table()
        if table.status != "playing":
            break
        state = table.engine_state()
        if 0 in table.to_act():
            legal = table.adapter.legal_actions(state, 0)
            action = rng.choice(legal)
            if action.cards:
                await play.descarto(
                    *h.command(HUMAN, f"/descarto {' '.join(map(str, action.cards))}", HUMAN)
                )
            else:
                data = keyboards.pack("a", GROUP, table.tid, table.turn, str(action))
                await play.table_button(*h.press(HUMAN, data))
            continue
        h.clock = (table.deadline or h.clock) + 0.01
        assert await timers.sweep_once(h.pub) == 1
    assert table.status == "over"
    assert not [
        c
        for _k, c in h.bot.calls
        if isinstance(c.get("chat_id"), int) and c["chat_id"] < 0 and c["chat_id"] != GROUP
    ]
    assert {c["chat_id"] for _k, c in h.bot.calls if "chat_id" in c} <= {GROUP, HUMAN}


async def test_vuelvo_command_and_button() -> None:
    h = Harness(computer_pause=0.2)
    await _open(h, "/nueva mus")
    await computers.maquina(*h.command(HUMAN, "/maquina"))
    await lobby.empezar(*h.command(HUMAN, "/empezar"))
    table = await h.table()
    await computers.button(*h.press(HUMAN, keyboards.pack("f", GROUP, table.tid)))
    await computers.vuelvo(*h.command(HUMAN, "/vuelvo"))
    assert h.bot.group_sends()[-1] == t("es", "bots.error.not_away")
    table = await h.table()
    while not table.players[0].away:
        h.clock = (table.deadline or 0) + 0.01
        await timers.sweep_once(h.pub)
        table = await h.table()
    assert t("es", "bots.takeover", name="Ana") in h.bot.group_sends()
    await computers.button(*h.press(HUMAN, keyboards.pack("v", GROUP, table.tid)))
    assert h.bot.answers()[-1]["text"] == t("es", "bots.welcome")
    table = await h.table()
    assert not table.players[0].away and table.deadline is not None


def test_a_computer_partner_makes_senas_and_the_person_is_told_privately() -> None:
    """S1/S2: with señas on, the computer partner (seat 2) signals what its hand holds once the
    mus is cut; only the person, its partner, is told, in private; opponents are computers."""
    table = one_and_three("mus", juegos=1)
    posted.start(table, 11, 0.0, 60)
    told: list[str] = []
    for _ in range(400):
        if table.status != "playing" or told:
            break
        if 0 in table.to_act():
            state = table.engine_state()
            legal = [str(a) for a in table.adapter.legal_actions(state, 0)]
            posted.play(table, 0, "corto" if "corto" in legal else legal[0], table.moved_at + 1, 60)
            continue
        assert table.deadline is not None
        posted.fire_timer(table, table.deadline, 60, PAUSE)
        told = [n.text for n in table.shown.outbox if n.to == HUMAN and "seña" in n.text]
    assert told, "the computer partner made no seña in a whole vaca"
    assert all(n.to in (HUMAN, None) for n in table.shown.outbox)  # nobody else is written to
    assert not any("seña" in n.text for n in table.shown.outbox if n.to is None)  # never the group


def test_s1_s3_computer_partner_signals_at_the_deal_in_one_message() -> None:
    """S1/S3: at envite the computer partner makes its señas as soon as the cards are dealt,
    before anyone plays (not when its turn comes), and the person gets them in one private
    message; nobody else is written to."""
    partner = 2
    told_before_play = 0
    for seed in range(12):
        table = one_and_three("envite")
        posted.start(table, seed, 0.0, 60)
        state = table.engine_state()
        sent = set(state.senas_sent[partner])
        # It made every seña it wants at this moment: none is left for its turn.
        assert not table.adapter.computer_senas(state, partner, random.Random(0), "normal")
        to_person = [n.text for n in table.shown.outbox if n.to == HUMAN]
        assert all(n.to in (HUMAN, None) for n in table.shown.outbox)
        if sent:
            told_before_play += 1
            assert len(to_person) == 1  # one message, however many señas
            many = len(sent) > 1
            assert ("te hace las señas" if many else "te hace la seña") in to_person[0]
    assert told_before_play >= 8


def test_no_senas_from_computers_with_sinsenas() -> None:
    table = Table(chat_id=GROUP, creator=HUMAN, tid="c0ffee", game="mus")
    table.options = GAMES["mus"].parse_options(["juegos=1", "sinsenas"])
    table.join(HUMAN, "Ana")
    table.fill_with_computers()
    posted.start(table, 11, 0.0, 60)
    for _ in range(200):
        if table.status != "playing":
            break
        if 0 in table.to_act():
            state = table.engine_state()
            posted.play(
                table, 0, str(table.adapter.legal_actions(state, 0)[0]), table.moved_at + 1, 60
            )
            continue
        assert table.deadline is not None
        posted.fire_timer(table, table.deadline, 60, PAUSE)
        assert not any("seña" in n.text for n in table.shown.outbox)


async def test_senas_reach_the_person_after_his_new_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer partner's señas of a new round are posted in the person's private chat after
    that round's hand, so he reads them beside the cards they are about; one message for all."""
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 7)  # a deal with señas
    h = Harness(computer_pause=0.2)
    await _open(h, "/nueva envite chicos=1")
    for _ in range(3):
        await computers.maquina(*h.command(HUMAN, "/maquina"))
    await lobby.empezar(*h.command(HUMAN, "/empezar"))
    table = await h.table()
    assert table is not None and table.status == "playing"
    me = table.seat_of(HUMAN)
    assert me is not None
    partner = (me + 2) % 4
    private = [c["text"] for k, c in h.bot.calls if k == "send" and c["chat_id"] == HUMAN]
    hand = next(i for i, text in enumerate(private) if "🃏" in text)
    notices = [i for i, text in enumerate(private) if " te hace " in text]
    assert table.engine_state().senas_sent[partner]
    assert len(notices) == 1 and notices[0] > hand, private


@pytest.mark.parametrize("game", ["envite", "mus"])
def test_every_hand_with_senas_is_recorded(game: str, caplog: pytest.LogCaptureFixture) -> None:
    """The hand's log holds every seña (a person's, and a computer's made at the deal or before
    its move) in order, so each hand's record replays to the table's state and is kept."""
    table = one_and_three(game)
    posted.start(table, 5, 0.0, 60)
    hands = 0
    for _ in range(3000):
        if table.status != "playing" or hands >= 6:
            break
        state = table.engine_state()
        offered = table.adapter.legal_senas(state, 0)
        if offered:  # the person signals too, out of turn
            moves.signal(table, 0, offered[0], state)
            continue
        before = table.hand
        if 0 in table.to_act():
            legal = table.adapter.legal_actions(state, 0)
            posted.play(table, 0, str(legal[0]), table.moved_at + 1, 60)
        else:
            assert table.deadline is not None
            posted.fire_timer(table, table.deadline, 60, PAUSE)
        hands += table.hand != before
    assert hands >= 3
    assert "does not replay" not in caplog.text
    if table.status == "over":  # the counters went into the game's record
        game_record = next(p.doc for p in table.rec_out if p.hand == 0)
        recorded = game_record["hands"]
    else:
        recorded = table.rec_tally[book.GROUP]["hands"]
    assert recorded >= hands
