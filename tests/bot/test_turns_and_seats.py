"""A whole game on a phone, unit level: the turn time option, nudges once per turn, the clock
by the minute, /pausa and /seguir, seats handed over mid-game, "Otra partida", and discard
buttons on the table message that never show a card."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import pytest

import bot.games.timing
from bot import keyboards
from bot.flow import seating
from bot.games import render
from bot.games.base import OptionError
from bot.games.registry import GAMES
from bot.games.render import card_name
from bot.games.timing import split_time
from bot.records.model import Pending
from bot.table import Table
from engine.core import IllegalAction
from locales import t

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted, seated_table


def test_doctests() -> None:
    assert doctest.testmod(bot.games.timing).failed == 0


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_takes_the_turn_time_through_one_helper(game: str) -> None:
    seconds, rest = split_time(["tiempo=45", *([] if game != "mus" else ["30"])])
    assert seconds == 45
    GAMES[game].parse_options(rest)  # the game's own words alone
    for bad in ("tiempo=29", "tiempo=601", "tiempo=abc", "time=11m"):
        with pytest.raises(OptionError):
            split_time([bad])
    table = Table(chat_id=-1, creator=1, game=game, turn_time=150)
    assert "⏱ 2½ min por turno" in render.lobby_text(table)
    table.turn_time = 120
    assert "⏱ 2 min a turn" in render.options_text("en", table)


def _started(turn_time: float = 120, nudge_after: float = 20) -> Table:
    table = seated_table()
    table.turn_time, table.nudge_after = turn_time, nudge_after
    posted.start(table, 7, 1000.0, 60)
    table.shown.table_msg = 42
    return table


def _nudged(table: Table) -> list[int]:
    return [n.to for n in table.shown.outbox if n.to is not None and n.text.startswith("⏰")]


def test_one_nudge_per_turn_to_the_people_to_act_only_then_the_clock_then_the_default() -> None:
    table = _started()
    assert table.turn_deadline == 1120.0  # tiempo, not the bot's 60 s
    assert table.deadline == 1020.0  # the nudge comes first
    mano = table.to_act()[0]
    nudge = posted.fire_timer(table, 1020.0, 60)
    assert not nudge.played and nudge.nudges == [(table.players[mano].user_id, 100)]  # no move
    assert _nudged(table) == [table.players[mano].user_id]
    assert "https://t.me/c/1234567890/42" in table.shown.outbox[-1].text
    assert table.nudge_at is None and table.deadline == 1050.0  # then the clock's minute
    assert table.clock_quarters == 8  # 2 min
    assert not posted.fire_timer(table, 1050.0, 60).played
    assert table.clock_quarters == 4 and len(_nudged(table)) == 1  # never twice in a turn
    assert render.deadline_text("es", table) == t("es", "phone.clock", n=1) == "⏱ queda 1 min"
    step = posted.fire_timer(table, 1120.0, 60)
    assert step.played and step.notes  # the default move
    assert table.nudge_at == 1140.0  # the next turn has its own nudge
    for player in table.players:  # computer seats are never nudged
        player.bot_level = "normal" if player.user_id != table.players[0].user_id else None
    table.players[0].away = True
    assert not table.humans_present() and table.deadline is not None


def test_a_nudge_names_the_group_without_a_link_in_a_basic_group() -> None:
    table = _started()
    table.chat_id = -4242
    posted.fire_timer(table, 1020.0, 60)
    text = table.shown.outbox[-1].text
    assert "t.me" not in text and "Mus &lt;del&gt; jueves" in text


def test_the_clock_shows_whole_minutes_and_changes_once_a_minute() -> None:
    table = _started(turn_time=180, nudge_after=0)
    assert (table.clock_quarters, table.clock_at) == (12, 1050.0)  # 3 min
    assert render.deadline_text("es", table) == t("es", "phone.clock", n=3)
    changes = 0
    clock = 1000.0
    while table.turn_deadline is not None and table.deadline is not None:
        clock = table.deadline
        if posted.fire_timer(table, clock, 60).played:
            break
        changes += 1
    assert changes == 2 and clock == 1180.0  # 3 → 2 → 1 min, then the default
    fresh = _started(turn_time=30, nudge_after=0)
    assert fresh.clock_at is None and fresh.deadline == 1030.0  # no nudge, no clock change


def test_pause_stops_every_timer_and_resume_gives_fresh_time() -> None:
    table = _started()
    with pytest.raises(IllegalAction) as refused:
        seating.pause(table, 999)
    assert refused.value.reason == "not_seated"
    seating.pause(table, 12)
    assert table.paused_by == "Bea <b>" and table.deadline is None
    assert t("es", "phone.paused_line", name="Bea &lt;b&gt;") in table.adapter.table_text(table)
    assert not posted.fire_timer(table, 5000.0, 60).played and table.turn == 1
    seat = table.to_act()[0]
    with pytest.raises(IllegalAction) as refused:
        posted.play(table, seat, "mus", 1001.0, 60)
    assert refused.value.reason == "phone.error.paused"
    with pytest.raises(IllegalAction):
        seating.pause(table, 13)  # already paused
    seating.resume(table, 13, 9000.0, 60)
    assert table.paused_by is None and table.turn_deadline == 9120.0 and table.deadline == 9020.0
    with pytest.raises(IllegalAction) as refused:
        seating.resume(table, 13, 9001.0, 60)
    assert refused.value.reason == "phone.error.not_paused"
    again = Table.model_validate_json(table.model_dump_json(exclude_defaults=True))
    assert again.deadline == 9020.0


def test_a_seat_left_mid_game_is_played_by_the_computer_until_someone_sits() -> None:
    table = _started()
    seat = seating.free_seat(table, 12, 1001.0, reserved="@Fede")
    assert table.players[seat].computer and table.free_seats() == [seat]
    table.shown.hand_msgs[str(seat)] = 77
    labels = [b.text for row in keyboards.table_keyboard(table).inline_keyboard for b in row]
    assert t("es", "phone.button.sit", name="Bea <b>") in labels
    assert t("es", "bots.back") not in labels  # the free seat is no "Vuelvo" seat
    with pytest.raises(IllegalAction) as refused:
        seating.take_seat(table, seat, 50, "Gus", "gus", 1002.0, 60)
    assert refused.value.reason == "phone.error.reserved"
    with pytest.raises(IllegalAction):
        seating.take_seat(table, seat, 11, "Ana", "fede", 1002.0, 60)  # seated already
    old = seating.take_seat(table, seat, 51, "Fede", "FEDE", 1002.0, 60)
    assert old.user_id == 12 and table.seat_of(12) is None and table.seat_of(51) == seat
    assert str(seat) not in table.shown.hand_msgs  # his hand goes out anew, to him
    assert not table.players[seat].computer and table.free_seats() == []


def test_who_left_takes_his_seat_back_while_it_is_free() -> None:
    table = _started()
    seat = seating.free_seat(table, 13, 1001.0)
    with pytest.raises(IllegalAction) as refused:
        posted.play(table, seat, "mus", 1002.0, 60)
    assert refused.value.reason == "not_seated"
    seating.come_back(table, 13, 1003.0, 60)
    assert not table.players[seat].free and not table.players[seat].computer


def test_hand_over_by_reply_swaps_at_once_and_refuses_a_seated_newcomer() -> None:
    table = _started()
    seat = seating.hand_over(table, 11, 60, "Eva", 1001.0, 60)
    assert table.players[seat].user_id == 60 and table.players[seat].team is not None
    with pytest.raises(IllegalAction) as refused:
        seating.hand_over(table, 60, 12, "Bea", 1002.0, 60)
    assert refused.value.reason == "already_seated"


def test_otra_partida_copies_players_teams_options_and_times() -> None:
    table = _started(turn_time=90)
    with pytest.raises(IllegalAction):
        table.next_table(11, "new1")  # not over yet
    table.status = "over"
    table.rec_out = [Pending(hand=0, doc={})]
    with pytest.raises(IllegalAction) as refused:
        table.next_table(12, "new1")  # the records are not stored yet
    assert refused.value.reason == "phone.error.saving"
    table.rec_out = []
    fresh = table.next_table(12, "new1")
    assert fresh.status == "lobby" and fresh.tid == "new1" and fresh.creator == 12
    assert [(p.user_id, p.team) for p in fresh.players] == [
        (p.user_id, p.team) for p in table.players
    ]
    assert fresh.options == table.options and fresh.turn_time == 90
    assert "42" in fresh.shown.closing  # the finished table's message loses its button
    labels = [b.text for row in keyboards.over_keyboard(table).inline_keyboard for b in row]
    assert labels == [t("es", "phone.button.again")]
    with pytest.raises(IllegalAction):
        table.next_table(999, "new2")


def _to_discard(table: Table) -> None:
    while not table.adapter.features.in_discard(table.engine_state()):
        posted.play(table, table.to_act()[0], "mus", 1001.0, 60)


def test_discard_buttons_on_the_table_message_show_positions_never_cards() -> None:
    table = _started()
    table.bot_name = "TapeteBot"
    _to_discard(table)
    rows = keyboards.discard_rows(table)
    labels = [b.text for row in rows for b in row]
    assert labels[:4] == ["1ª", "2ª", "3ª", "4ª"]
    assert t("es", "phone.button.discard") in labels
    assert rows[-1][-1].url == "https://t.me/TapeteBot"
    every = " ".join(labels)
    for seat in range(4):
        for card in table.adapter.seat_cards(table, seat):
            assert card_name("es", card) not in every
    seating.pause(table, 11)
    assert keyboards.discard_rows(table) == []  # paused: nothing to press


def test_piedras_discards_one_card_from_the_table_message() -> None:
    table = Table(chat_id=-100777, creator=1, tid="p1e2d3", title="Piedras", game="piedras")
    table.options = GAMES["piedras"].parse_options([])
    for i, name in enumerate(["Ana", "Bea", "Cris"]):
        table.join(100 + i, name)
    posted.start(table, 1, 1000.0, 60)
    assert table.adapter.features.in_discard(table.engine_state())
    labels = [b.text for row in keyboards.discard_rows(table) for b in row]
    assert labels[0] == "1ª" and t("es", "phone.button.discard") in labels
    envite = Table(chat_id=-1, creator=1, game="envite")
    assert keyboards.discard_rows(envite) == []
