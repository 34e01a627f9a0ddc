"""A bot process started while Telegram refuses for a while (issue 25, item 4): a 429 storm or
502s on ``getMe`` and on ``deleteWebhook`` delay the start, they do not stop it; once Telegram
answers the bot polls and plays, and SIGTERM stops it cleanly."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fake_telegram import FakeTelegram
from test_kills import BotProcess, _polling

from locales import t

pytestmark = [
    pytest.mark.xdist_group("processes"),
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes need a shared Redis"),
]


async def _refused_twice(tg: FakeTelegram, token: str, method: str) -> None:
    """Until Telegram has refused ``method`` twice to ``token``: the second is a retry."""
    await tg.wait_for(
        lambda: sum(1 for c in tg.calls_to(method) if c.token == token and not c.ok) >= 2,
        timeout=30,
        what=f"a second refused {method}",
    )


@pytest.mark.parametrize(
    "refusal", [(429, "Too Many Requests: retry after 1"), (502, "Bad Gateway")]
)
async def test_a_start_while_telegram_refuses_waits_and_then_plays(
    tg: FakeTelegram, redis_factory: Any, refusal: tuple[int, str]
) -> None:
    for method in ("getme", "deletewebhook"):
        tg.fail[method] = refusal
    proc = BotProcess(tg, tg.tokens[0], Path(tempfile.mkdtemp(prefix="tapete-start-")) / "bot.log")
    polls = tg.polls_started(proc.token)
    proc.start()
    try:
        await _refused_twice(tg, proc.token, "getMe")  # it retried: the process is still there
        assert proc.proc is not None and proc.proc.poll() is None, proc.log.read_text()
        del tg.fail["getme"]
        await _refused_twice(tg, proc.token, "deleteWebhook")
        assert proc.proc.poll() is None, proc.log.read_text()
        del tg.fail["deletewebhook"]
        await _polling(tg, proc.token, polls)
        ana = tg.user("Ana", "ana")
        ana.start_private()
        await tg.wait_for(
            lambda: any(
                m.text == t("es", "msg.started_private") for m in ana.private.bot_messages()
            ),
            timeout=15,
            what="the bot's hello",
        )
    finally:
        proc.stop()
    assert proc.proc.returncode == 0, proc.log.read_text()
    log = proc.log.read_text()
    assert "Traceback" not in log, log
