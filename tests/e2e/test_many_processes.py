"""Several processes on one Redis: a late copy of a typed command, a spamming member, timers due
together (rules of the table flow, not of a game)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import ShiftedClock
from driver import LANG, PREFIX, open_table, read_doc, t
from fake_telegram import FakeTelegram

from bot.store import doc_digest

pytestmark = pytest.mark.e2e

SECOND = "654321:SECOND-PROCESS"


async def test_a_late_copy_of_a_typed_command_is_refused(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """``/mus`` typed, but held by a process that is not running; meanwhile the same player's
    button moved the table. When the late copy arrives it is refused, not applied to the next
    turn."""
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(clock=clock)
    tg.add_token(SECOND)  # a second process that is not polling yet: its updates wait
    table, _users, group = await open_table(tg, redis)
    doc = await table.doc()
    state = await table.state()
    mano = table.seat_user(doc, state.to_act[0])
    mano.send(group, "/mus", deliver_to=SECOND)  # typed now, delivered late
    clock.advance(1.2)  # the press comes a second later (Telegram dates are whole seconds)
    msg, data = table.button_for(doc, next(a for a in _legal(state, 0) if a.kind == "mus")) or (
        None,
        "",
    )
    assert msg is not None
    mano.press(msg, data)
    moved = await table.wait_turn_after(doc.get("turn", 0))
    await apps.start(token=SECOND, clock=clock)  # the late copy arrives now
    late = t(LANG, "error.typed_too_late")
    await tg.wait_for(lambda: any(late in m.text for m in group.bot_messages()), what="refusal")
    await tg.settle()
    assert (await table.doc()).get("turn") == moved.get("turn")  # nothing more was applied


def _legal(state: Any, _step: int) -> list[Any]:
    import engine.mus as mus

    return mus.legal_actions(state, state.to_act[0])


async def test_a_spamming_member_gets_one_group_answer_across_two_processes(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Twenty ``/ayuda`` spread over two processes: one answer in the group (the budget and the
    quiet period are shared in Redis), the rest in private; the game's next move is shown."""
    redis = redis_factory.client()
    await apps.start(answer_quiet=30.0)
    await apps.start(token=SECOND, answer_quiet=30.0)
    table, users, group = await open_table(tg, redis)
    await tg.settle()
    spammer = users[1]
    before = len(group.bot_messages())
    for _ in range(20):
        spammer.send(group, "/ayuda", deliver_to="round_robin")
    # A loaded machine may answer after a quiet moment: wait for the group's answer, then
    # check that it stays the only one.
    await tg.wait_for(lambda: len(group.bot_messages()) > before, what="the group's answer")
    await tg.settle()
    answers = group.bot_messages()[before:]
    assert len(answers) == 2 and "/nueva mus" in answers[0].text, [m.text for m in answers]
    assert answers[1].text.startswith("📬")  # one line: the rest was answered in private
    await tg.wait_for(  # the others privately (a loaded machine may still be answering)
        lambda: len(spammer.private.bot_messages()) >= 19 - 1, what="the private answers"
    )
    doc = await table.doc()
    state = await table.state()
    table.seat_user(doc, state.to_act[0]).send(group, "/mus")
    await table.wait_turn_after(doc.get("turn", 0))
    await table.assert_messages_current(timeout=8)


async def test_timers_due_together_are_spread_over_processes(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Four tables whose turn timers fall due at once, two processes taking two each per sweep:
    both processes fire timers, and each timer fires once."""
    redis = redis_factory.client()
    first = await apps.start(turn_timeout=600.0)
    tables = [await open_table(tg, redis) for _ in range(4)]
    await apps.stop(first)
    mark = tg.mark()
    settings = {"turn_timeout": 600.0, "timer_tick": 0.05, "sweep_batch": 1}
    await apps.start(**settings)
    await apps.start(token=SECOND, **settings)
    # Both processes are sweeping when every timer falls due at once (one transaction): a
    # process that started sooner on a loaded machine cannot take them all before the other.
    async with redis.pipeline(transaction=True) as due:
        for table, _users, _group in tables:
            found = await read_doc(redis, table.group.id)
            assert found is not None
            text = json.dumps(dict(found[1], deadline=1.0, turn_deadline=1.0))
            due.hset(f"{PREFIX}:t:{table.group.id}", mapping={"d": text, "h": doc_digest(text)})
            due.zadd(f"{PREFIX}:timers", {str(table.group.id): 1.0})
        await due.execute()
    for table, _users, _group in tables:
        await tg.wait_for(
            lambda table=table: _timed_out(redis, table.group.id), timeout=10, what="a timeout"
        )
    await tg.settle()
    tokens = {c.token for c in tg.calls[mark:] if c.method == "editMessageText"}
    assert tokens == {tg.tokens[0], SECOND}  # both processes fired (and published) timers
    for table, _users, _group in tables:
        found = await read_doc(redis, table.group.id)
        assert found is not None and found[1].get("timeouts") == 1  # once each


async def _timed_out(redis: Any, chat_id: int) -> bool:
    found = await read_doc(redis, chat_id)
    return found is not None and found[1].get("timeouts", 0) >= 1
