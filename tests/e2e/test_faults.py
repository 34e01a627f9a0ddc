"""What the group sees survives faults: Bot API errors, a failed callback answer, Redis down.

Each test breaks something while people play, then checks that every table message and private
hand shows the stored table again within seconds of the fault ending, and that nothing was
posted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlparse

import pytest
from conftest import ShiftedClock
from driver import LANG, MusTable, open_table, read_doc, t
from fake_telegram import FakeTelegram

from bot import botapi

pytestmark = pytest.mark.e2e


async def _converged(table: MusTable, timeout: float = 12.0) -> None:
    await table.assert_messages_current(timeout=timeout)
    await table.assert_dms_show_hands(timeout=timeout)


async def test_a_failed_callback_answer_on_empezar_still_deals_and_posts_the_table(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """The answer to "Empezar" fails (query too old): the game starts all the same, with the
    cards sent and the table message posted."""
    redis = redis_factory.client()
    await apps.start()

    def refuse_answers() -> None:
        tg.expect_bad_requests = True  # the fake refuses the callback answer on purpose
        too_old = "Bad Request: query is too old and response timeout expired"
        tg.fail["answercallbackquery"] = (400, too_old)

    table, _users, group = await open_table(tg, redis, before_start=refuse_answers)
    found = await read_doc(redis, group.id)
    assert found is not None and found[1]["status"] == "playing"
    await _converged(table)
    del tg.fail["answercallbackquery"]


async def test_5xx_for_a_while_then_every_message_converges(
    tg: FakeTelegram, apps: Any, redis_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad Gateway on every send and edit: a publication tries each call a few times, then
    leaves the table due for a while (``RETRY_LATER``); once Telegram answers again,
    everything converges."""
    monkeypatch.setattr(botapi, "RETRY_PAUSE", 0.01)  # the pauses between tries (doubled)
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(timer_tick=0.1, clock=clock)
    table, _users, group = await open_table(tg, redis)
    await tg.settle()
    tg.expect_bad_requests = True
    for method in ("editmessagetext", "sendmessage"):
        tg.fail[method] = (502, "Bad Gateway")
    state = await table.state()
    mark = tg.mark()
    table.seat_user(await table.doc(), state.to_act[0]).send(group, "/mus")
    await table.wait_turn_after((await table.doc()).get("turn", 0) - 1)
    await tg.settle()  # the publisher tried, then left it for later
    failed = [c for c in tg.calls_to("editMessageText", mark) if not c.ok]
    assert len(failed) >= botapi.RETRIES
    tg.fail.clear()
    clock.advance(botapi.RETRY_LATER)
    started = time.monotonic()
    await _converged(table)
    assert time.monotonic() - started < 12


async def test_a_long_flood_wait_is_waited_out_and_the_table_converges(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """A flood wait longer than a publication waits (7 s) leaves the table due: nothing is
    edited before the wait is over, and everything right after (the wait passes in the bot's
    own clock)."""
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(timer_tick=0.1, clock=clock)
    table, _users, group = await open_table(tg, redis)
    await tg.settle()
    tg.expect_bad_requests = True
    tg.fail["editmessagetext"] = (429, "Too Many Requests: retry after 7")
    state = await table.state()
    mark = tg.mark()
    table.seat_user(await table.doc(), state.to_act[0]).send(group, "/mus")
    await tg.wait_call("editMessageText", mark, where=lambda c: not c.ok)
    await tg.settle()
    del tg.fail["editmessagetext"]
    # Not over yet: a sweep or two, and still no edit (the real time that passes meanwhile
    # counts too, up to 2 s on a loaded machine).
    clock.advance(5.0)
    await asyncio.sleep(0.3)
    await tg.settle()
    assert [c for c in tg.calls_to("editMessageText", mark) if c.ok] == []
    clock.advance(2.5)
    await _converged(table, timeout=5)
    results = [m for m in group.bot_messages() if "🏁" in m.text]
    assert len(results) == len({m.text for m in results})  # nothing posted twice


class RedisProxy:
    """A TCP proxy in front of the tests' Redis that can play an outage (connections cut and
    refused), so the bot meets a real "connection refused" from redis-py."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.server: asyncio.Server | None = None
        self.listen_port = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()

    async def up(self) -> None:
        self.server = await asyncio.start_server(
            self._serve, "127.0.0.1", self.listen_port, reuse_address=True
        )
        self.listen_port = self.server.sockets[0].getsockname()[1]

    async def down(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for writer in list(self.writers):
            writer.close()
        self.writers.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@contextlib.asynccontextmanager
async def redis_outage_switch(redis_factory: Any) -> AsyncIterator[tuple[Any, Any]]:
    """A client for the bot whose Redis can be switched off and on: through a TCP proxy on real
    Redis, or fakeredis's own switch. Yields (client, switch) with ``await switch(False)``."""
    url = os.environ.get("REDIS_URL")
    if url:
        import redis.asyncio

        parsed = urlparse(url)
        proxy = RedisProxy(parsed.hostname or "127.0.0.1", parsed.port or 6379)
        await proxy.up()
        client = redis.asyncio.Redis.from_url(
            f"redis://127.0.0.1:{proxy.listen_port}{parsed.path or '/0'}"
        )

        async def switch(on: bool) -> None:
            await (proxy.up() if on else proxy.down())

        try:
            yield client, switch
        finally:
            await proxy.down()
            await client.aclose()
    else:
        client = redis_factory.client()
        server = redis_factory._server

        async def switch(on: bool) -> None:
            server.connected = on

        try:
            yield client, switch
        finally:
            server.connected = True


async def test_redis_down_for_a_while_answers_retry_then_the_game_goes_on(
    tg: FakeTelegram, apps: Any, redis_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    reader = redis_factory.client()
    async with redis_outage_switch(redis_factory) as (client, switch):
        await apps.start(redis=client, timer_tick=0.2)
        table, _users, group = await open_table(tg, reader)
        await tg.settle()
        doc = await table.doc()
        state = await table.state()
        player = table.seat_user(doc, state.to_act[0])
        await switch(False)
        player.send(group, "/mus")
        retry = t(LANG, "msg.retry")
        await tg.wait_for(
            lambda: any(retry in m.text for m in group.bot_messages()),
            timeout=15,
            what="the 'retry' answer",
        )
        await asyncio.sleep(3)  # the outage goes on a little: the sweep meets it too
        await switch(True)
        assert (await table.doc()).get("turn") == doc.get("turn")  # nothing was applied
        player.send(group, "/mus")
        await table.wait_turn_after(doc.get("turn", 0), timeout=10)
        await _converged(table)
    warnings = [r for r in caplog.get_records("call") if "Redis does not answer" in r.getMessage()]
    assert len(warnings) == 1  # one line for the outage, not one per update
    assert not [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]


async def test_a_joiner_is_seated_while_telegram_refuses_the_private_chat_probe(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Issue 25, item 5: a 502 (or a flood wait) on the probe of a joiner's private chat seats
    him (his hand follows), it does not hand him a link as if he had never opened the chat;
    one who never opened it still gets the link."""
    tg.ephemeral_supported = False  # the deep link: where the hand cannot be shown in the group
    redis = redis_factory.client()
    await apps.start()
    ana, bea, cris = tg.user("Ana", "ana"), tg.user("Bea", "bea"), tg.user("Cris", "cris")
    group = tg.group("Sondas", members=[ana, bea, cris], creator=ana)
    ana.start_private()
    bea.start_private()
    ana.send(group, "/nueva mus")
    join = t(LANG, "button.join")
    lobby = await tg.wait_for(
        lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None),
        what="the lobby",
    )
    await tg.settle()
    tg.fail["sendchataction"] = (502, "Bad Gateway")
    bea.press(lobby, join)
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id, bea.id]
    del tg.fail["sendchataction"]
    answer = await tg.wait_answer(cris.press(lobby, join))  # never opened the private chat
    assert answer.get("url"), answer  # the deep link, as before
    await tg.settle()
    found = await read_doc(redis, group.id)
    assert found is not None
    assert [p["user_id"] for p in found[1]["players"]] == [ana.id, bea.id]
    assert any(
        c.method.lower() == "sendmessage" and int(c.params["chat_id"]) == bea.id for c in tg.calls
    ), "Bea's hand was never sent"


async def test_a_bot_api_outage_is_two_warnings_in_the_log(
    tg: FakeTelegram, apps: Any, redis_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 25, item 8: while the long poll fails (502s), the log gets one warning when
    Telegram stops answering and one when it is back, not a traceback a poll (no ERROR: the
    autouse check); the bot answers as soon as Telegram does."""
    await apps.start()
    tg.expect_bad_requests = True
    tg.fail["getupdates"] = (502, "Bad Gateway")
    since = tg.mark()
    await tg.wait_for(  # several failed polls (PTB waits 1, 1.5, 2.25... s between them)
        lambda: sum(1 for c in tg.calls_to("getUpdates", since) if not c.ok) >= 3,
        timeout=15,
        what="three failed polls",
    )
    del tg.fail["getupdates"]
    ana = tg.user("Ana", "ana")
    ana.start_private()
    await tg.wait_for(lambda: ana.private.bot_messages() or None, timeout=15, what="the hello")
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.botapi" and r.levelno >= logging.WARNING
    ]
    assert len(lines) == 2 and "does not answer" in lines[0], lines
    assert "answers again" in lines[1], lines
    polls = [r for r in caplog.records if r.name == "bot.botapi" and r.levelno == logging.DEBUG]
    assert polls, "only one poll failed: the test proved nothing"
