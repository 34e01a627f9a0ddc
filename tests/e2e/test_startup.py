"""A bot process started while Telegram refuses for a while (issue 25, item 4): a 429 storm or
502s on ``getMe`` and on ``deleteWebhook`` delay the start, they do not stop it; once Telegram
answers the bot polls and plays, and SIGTERM stops it cleanly."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from botproc import BotProcess, polling
from fake_telegram import FakeTelegram

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
        await polling(tg, proc.token, polls)
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


async def test_a_one_minute_429_storm_at_start_up_is_waited_out(
    tg: FakeTelegram, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25's aim: the bot survives a 1-minute 429 storm at start-up, in simulated time.
    Each call of the start-up answers "retry after 7" for a minute of its pauses: ``getMe`` of
    the token check, then the Application's bootstrap as ``python -m bot`` runs it
    (``bootstrap_retries=-1``): ``getMe`` again and ``deleteWebhook``. Then the bot polls and
    answers."""
    import asyncio
    import types

    import polling
    from conftest import make_settings
    from telegram.ext._utils import networkloop

    import bot.__main__ as entry
    from bot.app import build_application

    waited = [0.0]  # simulated seconds of the start-up's pauses in this storm
    real_sleep = asyncio.sleep

    def storm(method: str) -> None:
        tg.fail[method.lower()] = (429, "Too Many Requests: retry after 7")
        waited[0] = 0.0

    async def sleep(seconds: float, *args: Any) -> Any:
        waited[0] += seconds
        if waited[0] >= 60.0:
            tg.fail.clear()  # the storm is over
        return await real_sleep(0, *args)

    def refused(method: str, since: int) -> int:
        return sum(1 for c in tg.calls_to(method, since) if not c.ok)

    settings = make_settings(tg, tg.tokens[0])
    storm("getMe")
    problem = await asyncio.to_thread(
        entry.bot_api_problem, settings, sleep=sleep, clock=lambda: waited[0]
    )
    assert problem is None and waited[0] >= 60.0
    assert refused("getMe", 0) >= 60 // 7
    # PTB's retry loop pauses in simulated time too (only its pauses: the rest runs as usual).
    names = {name: getattr(asyncio, name) for name in dir(asyncio) if not name.startswith("__")}
    monkeypatch.setattr(networkloop, "asyncio", types.SimpleNamespace(**(names | {"sleep": sleep})))
    app = build_application(settings, redis=redis_factory.client())
    storm("getMe")
    since = tg.mark()
    await app._bootstrap_initialize(max_retries=-1)  # what run_polling(bootstrap_retries=-1) does
    assert waited[0] >= 60.0 and refused("getMe", since) >= 60 // 8
    try:
        if app.post_init:
            await app.post_init(app)
        await app.start()
        assert app.updater is not None
        storm("deleteWebhook")
        since = tg.mark()
        await app.updater.start_polling(poll_interval=0, timeout=1, bootstrap_retries=-1)
        assert waited[0] >= 60.0 and refused("deleteWebhook", since) >= 60 // 8
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
        await polling.stop(app)
