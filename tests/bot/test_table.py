"""The table document's pure transitions: lobby, play, discards, timers, size."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.flow import discard
from bot.flow.moves import TAKEOVER_AFTER
from bot.games.mus.adapter import MAX_LOG
from bot.table import Table
from engine.core import IllegalAction

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import posted, random_steps, seated_table


def refused(reason: str):  # type: ignore[no-untyped-def]
    return pytest.raises(IllegalAction, match=f"^{reason}")


def test_lobby_join_leave_and_refusals() -> None:
    table = Table(chat_id=-5, creator=1, tid="x")
    assert table.join(1, "Ana") == 0
    with refused("already_seated"):
        table.join(1, "Ana")
    with refused("not_enough_players"):
        posted.start(table, 1, 0.0, 60)
    table.leave(1)
    with refused("not_seated"):
        table.leave(1)
    for uid in range(10, 14):
        table.join(uid, f"P{uid}")
    with refused("table_full"):
        table.join(99, "Late")
    assert [p.user_id for p in table.players] == [10, 11, 12, 13]  # first four are seats 0..3
    posted.start(table, 1, 0.0, 60)
    assert table.status == "playing" and table.hand == 1 and table.deadline == 60.0
    for call in (
        lambda: table.join(99, "x"),
        lambda: table.leave(10),
        lambda: posted.start(table, 2, 0, 60),
    ):
        with refused("already_started"):
            call()


def test_refused_action_changes_nothing() -> None:
    table = seated_table()
    posted.start(table, 5, 0.0, 60)
    before = table.model_dump_json()
    for seat, text, reason in [
        (1, "mus", "not_your_turn"),
        (0, "envido -3", "bad_amount"),
        (0, "envido abc", "bad_amount"),
        (0, "envido 99999999999", "bad_amount"),
        (0, "quiero", "wrong_phase"),
        (0, "bailar", "unknown_action"),
    ]:
        with refused(reason):
            posted.play(table, seat, text, 10.0, 60)
        assert table.model_dump_json() == before


def test_each_move_bumps_the_turn_and_the_deadline() -> None:
    table = seated_table()
    posted.start(table, 5, 0.0, 60)
    turn = table.turn
    posted.play(table, 0, "mus", 7.0, 60)
    assert table.turn == turn + 1 and table.deadline == 67.0 and table.timeouts == 0


def test_discard_selection_and_confirm() -> None:
    table = seated_table()
    posted.start(table, 2, 0.0, 60)
    for _ in range(4):
        step = posted.play(table, table.to_act()[0], "mus", 0.0, 60)
    assert step.discard_started and table.discard_round == 1
    cards = table.adapter.view(table.engine_state(), 2)["cards"]
    with refused("bad_discard"):
        posted.confirm(table, 2, 1, 0.0, 60)
    discard.toggle(table, 2, cards[1], True, 1)
    discard.toggle(table, 2, cards[0], True, 1)
    discard.toggle(table, 2, cards[0], True, 1)  # idempotent
    assert table.discards["2"] == [cards[0], cards[1]]
    discard.toggle(table, 2, cards[0], False, 1)
    assert table.discards["2"] == [cards[1]]
    with refused("stale"):
        discard.toggle(table, 2, cards[0], True, 0)
    other = table.adapter.view(table.engine_state(), 1)["cards"][0]
    with refused("card_not_in_hand"):
        discard.toggle(table, 2, other, True, 1)
    step = posted.confirm(table, 2, 1, 0.0, 60)
    assert [e.kind for e in step.events] == ["discarded"]
    with refused("already_discarded"):
        posted.confirm(table, 2, 1, 0.0, 60)
    for seat in (0, 1, 3):
        discard.toggle(
            table, seat, table.adapter.view(table.engine_state(), seat)["cards"][0], True, 1
        )
        step = posted.confirm(table, seat, 1, 0.0, 60)
    assert sorted(e.data["seat"] for e in step.events if e.kind == "dealt") == [0, 1, 2, 3]
    assert table.discards == {} and not table.adapter.features.in_discard(table.engine_state())


def test_timer_plays_the_default_and_never_cancels() -> None:
    table = seated_table()
    posted.start(table, 9, 0.0, 60)
    assert not posted.fire_timer(table, 59.0, 60).played  # not due yet
    step = posted.fire_timer(table, 60.0, 60)
    assert step.played
    assert [n.data for n in step.notes] == [{"seat": 0, "action": "corto"}]
    assert table.log[0].kind == "timeout" and table.timeouts == 1 and table.deadline == 120.0
    assert table.turn_seconds == 60
    posted.play(table, table.to_act()[0], "paso", 100.0, 60)  # a person acts: the count restarts
    assert table.timeouts == 0
    for _i in range(3 * TAKEOVER_AFTER):
        step = posted.fire_timer(table, table.deadline or 0, 60)
        assert step.played
    assert table.status == "playing" and table.timeouts > 0


@given(seed=st.integers(0, 10**6))
def test_random_tables_stay_small_and_consistent(seed: int) -> None:
    """The stored document stays well under 8 KB; the log is capped; hands only move forward.

    The publisher posts (and drops) the outbox after every write, and shows a finished hand that
    had no table message: only this step's notices and finished hand stay.
    """
    hand = posted = 0
    unposted: dict[str, tuple[str, str]] = {}
    for table, step in random_steps(seed):
        table.shown.outbox = [n for n in table.shown.outbox if n.seq > posted]
        posted = table.shown.notice_seq
        if table.shown.unposted == unposted:  # (published after the write that queued it)
            table.shown.unposted = {}
        unposted = dict(table.shown.unposted)
        doc = table.model_dump_json(exclude_defaults=True)
        assert len(doc.encode()) < 8 * 1024
        assert len(table.log) <= MAX_LOG
        assert Table.model_validate_json(doc) == table
        assert table.hand >= hand
        hand = table.hand
        if step.closed_hand_log is not None:
            assert table.shown.hand_msgs == {}
    assert table.status in ("over", "playing")


def test_timers_alone_hand_every_seat_to_the_computer_then_wait() -> None:
    table = seated_table()
    posted.start(table, 4, 0.0, 60)
    while table.status == "playing" and table.deadline is not None:
        posted.fire_timer(table, table.deadline, 60)
    assert table.status == "playing" and table.deadline is None  # paused, not cancelled
    assert all(p.away and p.misses >= TAKEOVER_AFTER for p in table.players)
    assert not posted.fire_timer(table, 10**9, 60).played


def _to_bet(table: Table) -> None:
    """Start, cut the mus and open grande with an envido: both opponents may answer (M4)."""
    posted.start(table, 9, 0.0, 60)
    mano = table.to_act()[0]
    posted.play(table, mano, "corto", 1.0, 60)
    posted.play(table, table.to_act()[0], "envido", 2.0, 60)


def test_m4_either_opponent_answers_a_bet() -> None:
    table = seated_table()
    _to_bet(table)
    first, second = table.to_act()
    assert (second - first) % 4 == 2  # the two partners of the other pair
    posted.play(table, second, "quiero", 3.0, 60)  # the second one answers: it stands at once
    assert table.to_act() != (first, second)


def test_m4_timer_refuses_for_each_opponent_and_the_refusal_stands_only_then() -> None:
    table = seated_table()
    _to_bet(table)
    first, second = table.to_act()
    step = posted.fire_timer(table, table.deadline or 0, 60)
    assert step.played
    assert [n.data for n in step.notes] == [
        {"seat": first, "action": "no quiero"},
        {"seat": second, "action": "no quiero"},
    ]
    spoke = [e.data for e in step.events if e.kind == "spoke"]
    assert [d["seat"] for d in spoke] == [first, second]
    closed = [e.data for e in step.events if e.kind == "lance_closed"]
    assert closed and closed[0]["outcome"] == "no_querido"
    assert table.timeouts == 1


def test_m4_one_refusal_leaves_the_partner_to_answer() -> None:
    table = seated_table()
    _to_bet(table)
    first, second = table.to_act()
    step = posted.play(table, first, "no quiero", 3.0, 60)
    assert not [e for e in step.events if e.kind == "lance_closed"]
    assert table.to_act() == (second,)
