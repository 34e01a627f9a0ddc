"""A hand's result reaches the group exactly once when its Bot API call times out, before it
reached Telegram or after it took effect (issue 25, item 1), and a notice that stays a new
message is never posted twice.

The fake Bot API holds the answer of the faulty call back past the bot's timeout
(``TAPETE_API_TIMEOUT``, short here): without ``effect`` the call did nothing, with it the
message was sent or edited and only the answer is lost.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from driver import LANG, open_table, play_hand, t
from fake_telegram import FakeTelegram

pytestmark = pytest.mark.e2e

API_TIMEOUT = 1.0  # the bot's; the fake holds a faulty answer longer
TITLE = t(LANG, "event.hand_over", hand=1, a="", b="").split(".")[0]


def _shows_result(params: dict[str, Any]) -> bool:
    return TITLE in str(params.get("text", ""))


@pytest.mark.parametrize("effect", [False, True], ids=["before-effect", "after-effect"])
async def test_a_result_whose_call_times_out_is_in_the_group_once(
    tg: FakeTelegram, apps: Any, redis_factory: Any, effect: bool
) -> None:
    tg.timeout_hold = API_TIMEOUT + 0.5
    await apps.start(api_timeout=API_TIMEOUT)
    table, _users, group = await open_table(tg, redis_factory.client())
    await tg.settle()
    # Whichever call shows the result (a send or an edit), its first try times out.
    faults = [
        tg.time_out(method, effect=effect, when=_shows_result)
        for method in ("sendMessage", "editMessageText")
    ]
    state = await play_hand(table, random.Random(3), mus_rounds_wanted=0)
    await tg.settle()
    assert state.hand_number == 2
    assert [(params.get("text") is not None, took) for params, took in tg.timed_out] == [
        (True, effect)
    ]
    assert sum(f.left for f in faults) == 1  # one of them was met
    showing = [m for m in group.bot_messages() if TITLE in m.text]
    assert len(showing) == 1, [m.text[:60] for m in group.bot_messages()]
    assert showing[0].text.count(TITLE) == 1
    await table.assert_messages_current()


async def test_a_notice_whose_send_times_out_is_never_posted_twice(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """A new message that timed out after it was sent is not sent again (one that timed out
    before reaching Telegram is then lost: at most once, as README's "Publishing" says)."""
    tg.timeout_hold = API_TIMEOUT + 0.5
    await apps.start(api_timeout=API_TIMEOUT)
    table, users, group = await open_table(tg, redis_factory.client())
    await tg.settle()
    text = t(LANG, "msg.cancelled", name=users[0].first_name)
    tg.time_out("sendMessage", effect=True, when=lambda p: p.get("text") == text)
    users[0].send(group, "/cancelar")
    await tg.settle()
    assert [m.text for m in group.bot_messages()].count(text) == 1
    assert len(tg.timed_out) == 1
    assert (await table.doc()).get("shown", {}).get("outbox") in (None, [])
