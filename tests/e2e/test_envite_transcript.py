"""Prints the group transcript of one envite round in Spanish and English (run with -s)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from envite_driver import open_envite, play_round

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_transcript(tg: Any, apps: Any, redis_factory: Any, lang: str) -> None:
    redis = redis_factory.client()
    await apps.start(redis=redis)
    table = await open_envite(tg, redis, players=4, lang=lang)
    await tg.settle(quiet=0.3)  # the lobby and first table message published (background)
    start = len(table.group.bot_messages())
    await play_round(table, random.Random(4), vias=("button", "command"))
    await tg.settle(quiet=0.3)
    msgs = table.group.bot_messages()
    print(f"\n===== {lang}: {len(msgs) - start} new group messages in the round")
    assert len(msgs) - start <= 2  # the round's result and the next round's table message
    for m in msgs[start - 1 :]:
        print("---", m.message_id)
        print(m.text)
        print("[buttons]", m.button_texts())
