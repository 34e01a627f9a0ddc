"""End to end: four people open a table, join, get their cards in private and play a whole hand.

The bot is the real ``Application`` from ``bot.app.build_application`` polling the fake Bot API;
the players act with commands and with buttons, exactly as Telegram clients would send them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, open_table, play_hand, t
from fake_telegram import FakeTelegram

pytestmark = pytest.mark.e2e


async def test_four_players_play_a_whole_hand(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    await apps.start()
    table, _users, group = await open_table(tg, redis)
    await table.assert_dms_show_hands()
    doc = await table.doc()
    assert "Bea &lt;b&gt;" in table.table_message(doc).raw  # names are escaped

    groups_before = len(tg.group_calls(chat=group))
    state = await play_hand(table, random.Random(5))
    await tg.settle()
    table.check.check(state)

    # The result: the engine's score is what the group reads.
    score = tuple(state.score)
    result = t(LANG, "event.hand_over", hand=1, a="", b="").split(".")[0]
    texts = [m.text for m in group.bot_messages()]
    assert any(result in x for x in texts), texts[-3:]
    assert any(str(score[0]) in x and str(score[1]) in x for x in texts if result in x)
    # At most three new group messages per hand (result, next table, ... ).
    assert len(tg.group_calls(chat=group)) - groups_before <= 3
    # The next hand was dealt and sent in private.
    await table.assert_dms_show_hands()
