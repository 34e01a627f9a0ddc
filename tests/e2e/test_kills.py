"""Bot processes killed (``kill -9``) at random points while four people play: nothing the group
or a player should see is lost, and nothing is posted twice.

Two real bot processes (``python -m bot``) poll the fake Bot API, each under its own token, so
updates are spread over them; both share one real Redis (the test needs ``REDIS_URL``). A random
process is killed right after a move is sent, at a random moment, and restarted at once: the
updates it held are delivered again (Telegram re-delivers what was not confirmed) and what it
was publishing is finished by whichever process publishes next (the table's outbox and the due
set). At the end every hand's result is in the group exactly once, and the table message and
every private hand show the stored table.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from botproc import BotProcess, polling
from driver import LANG, choose, command_for, open_table, t
from fake_telegram import FakeTelegram

import engine.mus as mus

pytestmark = [
    pytest.mark.xdist_group("processes"),
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes need a shared Redis"),
]

SECOND = "654321:SECOND-PROCESS"


async def test_processes_killed_at_random_points_lose_and_double_nothing(
    tg: FakeTelegram, redis_factory: Any
) -> None:
    rng = random.Random(int(os.environ.get("KILL_SEED", "7")))
    hands_wanted = int(os.environ.get("KILL_HANDS", "1"))  # more for a long run
    tg.add_token(SECOND)
    logs = Path(tempfile.mkdtemp(prefix="tapete-kills-"))
    procs = [BotProcess(tg, token, logs / f"bot{i}.log") for i, token in enumerate(tg.tokens)]
    redis = redis_factory.client()
    kills = 0
    try:
        for proc in procs:
            polls = tg.polls_started(proc.token)
            proc.start()
            await polling(tg, proc.token, polls)
        table, _users, group = await open_table(tg, redis)
        state = await table.state()
        first_hand = state.hand_number
        while state.hand_number < first_hand + hands_wanted and not state.is_over:
            seat = state.to_act[0]
            if state.phase == "mus":  # cut at once: the moves that matter are the lances'
                action = next(a for a in mus.legal_actions(state, seat) if a.kind == "corto")
            else:
                action = choose(state, seat, rng.randrange(100))
            doc = await table.doc()
            user = table.seat_user(doc, seat)
            victim = rng.choice(procs) if rng.random() < 0.4 else None
            target = rng.choice(tg.tokens)
            button = table.button_for(doc, action) if rng.random() < 0.5 else None
            if button is not None:
                user.press(button[0], button[1], deliver_to=target)
            else:
                user.send(group, command_for(action), deliver_to=target)
            if victim is not None:
                await asyncio.sleep(rng.uniform(0, 0.15))
                victim.kill()
                kills += 1
                polls = tg.polls_started(victim.token)
                victim.start()
                await polling(tg, victim.token, polls)
            await table.wait_turn_after(doc.get("turn", 0), timeout=30)
            state = await table.state()
        # Everything converges, and every finished hand's result is there exactly once.
        await table.assert_messages_current(timeout=30)
        await table.assert_dms_show_hands(timeout=30)
        head = t(LANG, "event.hand_over", hand="(\\d+)", a="", b="").split(".")[0]
        pattern = re.compile(re.escape(head).replace(re.escape("(\\d+)"), "(\\d+)"))
        results: dict[int, int] = {}
        for message in group.bot_messages():
            found = pattern.search(message.text)
            if found:
                number = int(found.group(1))
                results[number] = results.get(number, 0) + 1
        finished = range(first_hand, state.hand_number)
        lost = sum(1 for n in finished if results.get(n, 0) == 0)
        doubled = sum(1 for n in finished if results.get(n, 0) > 1)
        # The figure for the README (shown with -s): messages lost per kill.
        print(
            f"\nkills {kills}, hands {len(finished)}, results lost {lost}, posted twice {doubled}"
        )
        assert {n: results.get(n, 0) for n in finished} == dict.fromkeys(finished, 1), (
            f"hand results posted (hand: times) after {kills} kills: {results}"
        )
        assert kills > 0
    finally:
        for proc in procs:
            proc.stop()
        started = time.monotonic()
        while any(p.proc is not None and p.proc.poll() is None for p in procs):
            if time.monotonic() - started > 10:
                break
            await asyncio.sleep(0.1)
