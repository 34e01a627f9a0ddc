"""A bot process stopped with SIGTERM (``docker stop``, a deploy) while it holds updates: each one
is finished — answered, its move stored and published (table messages posted again by
``/mesa`` too) — before the process exits, and nothing is posted twice.

Two real bot processes (``python -m bot``) poll the fake Bot API under their own tokens and share
one real Redis (the test needs ``REDIS_URL``). The first one's Bot API answers take 300 ms, so
when it is told to stop it is in the middle of answering presses and publishing tables. The
fake server hands an update to one token only and nobody restarts the stopped process: an
update it dropped would never be answered, and a publication it abandoned would wait for the
other process's sweep (seconds after its publishing lock lapses), longer than the check
allows.
"""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from botproc import BotProcess, polling
from driver import PREFIX, open_table
from fake_telegram import FakeTelegram
from test_kills import SECOND

import engine.mus as mus

pytestmark = [
    pytest.mark.xdist_group("processes"),
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes need a shared Redis"),
]

TABLES = 4
LATENCY = 0.3


async def test_sigterm_finishes_the_updates_in_flight_and_their_publications(
    tg: FakeTelegram, redis_factory: Any
) -> None:
    tg.add_token(SECOND)
    logs = Path(tempfile.mkdtemp(prefix="tapete-shutdown-"))
    first, second = (
        BotProcess(tg, token, logs / f"bot{i}.log") for i, token in enumerate(tg.tokens)
    )
    redis = redis_factory.client()
    try:
        for proc in (first, second):
            polls = tg.polls_started(proc.token)
            proc.start()
            await polling(tg, proc.token, polls)
        tables = [await open_table(tg, redis) for _ in range(TABLES)]
        await tg.settle()
        for method in ("sendmessage", "editmessagetext", "answercallbackquery"):
            tg.delay[(first.token, method)] = LATENCY
        mark = tg.mark()
        pressed: list[tuple[Any, int, str]] = []
        for table, _users, _group in tables:  # the mano cuts: each table's next move, by button
            doc = await table.doc()
            state = await table.state()
            seat = state.to_act[0]
            action = next(a for a in mus.legal_actions(state, seat) if a.kind == "corto")
            button = table.button_for(doc, action)
            assert button is not None
            query = table.seat_user(doc, seat).press(*button, deliver_to=first.token)
            pressed.append((table, int(doc.get("turn", 0)), query))
            # and another player has the table message posted again (an edit, then a send)
            other = table.seat_user(doc, (seat + 1) % 4)
            other.send(table.group, "/mesa", deliver_to=first.token)
        await tg.wait_for(lambda: tg.pending() == 0, timeout=10, what="the updates fetched")
        await asyncio.sleep(0.1)  # in the middle of the answers (300 ms each)
        assert not all(tg.answer(q) for _t, _turn, q in pressed), "nothing was in flight"
        assert first.proc is not None
        stopped = time.monotonic()
        os.kill(first.proc.pid, signal.SIGTERM)
        code = await asyncio.to_thread(first.proc.wait, 20)
        took = time.monotonic() - stopped
        assert code == 0, f"exit status {code} (log: {first.log})"
        # Everything is done by the time the process is gone (a check shorter than a lapsed
        # publishing lock; the other process would only repair it later).
        unanswered = [q for _t, _turn, q in pressed if not tg.answer(q)]
        assert not unanswered, f"{len(unanswered)} presses never answered ({took:.1f} s to stop)"
        for table, turn, _query in pressed:
            chat = table.group.id
            doc = await table.doc()
            assert doc.get("turn", 0) > turn, "a move was not stored"
            assert doc.get("shown", {}).get("table_msg") is not None, (
                "the table message was not posted again"
            )
            # published, not left to another process: no publishing lock held, nothing due
            assert not await redis.exists(f"{PREFIX}:lock:{chat}"), "a publication was abandoned"
            assert await redis.zscore(f"{PREFIX}:pub", str(chat)) is None, "a table is left due"
            await table.assert_messages_current(timeout=2)
            await table.assert_dms_show_hands(timeout=2)
        # Nothing posted twice: no chat got the same new message twice.
        sent = Counter(
            (c.params.get("chat_id"), c.params.get("text"))
            for c in tg.calls[mark:]
            if c.method.lower() == "sendmessage" and c.ok
        )
        assert not [k for k, n in sent.items() if n > 1], "a message was posted twice"
    finally:
        for proc in (first, second):
            proc.stop()


def test_the_subprocess_tests_share_one_worker(request: pytest.FixtureRequest) -> None:
    """Under ``make test`` (``-n auto --dist loadgroup``) every test of the ``processes`` group
    runs on one worker, one at a time: their processes and timings must not overlap."""
    if not getattr(request.config.option, "loadgroup", False):  # set on each xdist worker
        pytest.skip("only with --dist loadgroup")
    assert request.node.nodeid.endswith("@processes"), request.node.nodeid
