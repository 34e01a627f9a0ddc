"""Which tables changed, for the open pages of every process (bot.miniapp.feed): on Redis a
process's write reaches another process's pages through pub/sub; on one SQLite file, through
the watched versions polled; a page that stops watching is forgotten."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import uuid
from pathlib import Path

import pytest
import redis.asyncio

sys.path.insert(0, str(Path(__file__).parent))
from stores import connect, sqlite_store

from bot.miniapp.feed import Feed
from bot.store import RedisStore

CHAT = -100777


async def _told(event: asyncio.Event) -> None:
    await asyncio.wait_for(event.wait(), 10)


async def test_a_write_in_one_process_wakes_this_process_s_pages_at_once() -> None:
    store = sqlite_store()
    feed = Feed(store)
    with feed.watch(CHAT) as event, feed.watch(CHAT + 1) as other:
        feed.changed(CHAT)
        assert event.is_set() and not other.is_set()
    assert not feed._watchers, "pages that left are forgotten"
    await store.aclose()


async def test_on_one_sqlite_file_another_process_s_write_is_seen_by_its_version() -> None:
    writer = sqlite_store()
    reader = connect(writer)
    feed = Feed(reader)
    feed.poll = 0.01
    version = await writer.save(CHAT, 0, '{"chat_id": -100777}')
    assert version
    running = asyncio.create_task(feed.run())
    try:
        with feed.watch(CHAT) as event:
            await asyncio.wait_for(_first_poll(feed), 10)  # its version as the page saw it
            event.clear()
            assert await writer.save(CHAT, version, '{"chat_id": -100777, "turn": 1}')
            await _told(event)
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await writer.aclose()
        await reader.aclose()


async def _first_poll(feed: Feed) -> None:
    while CHAT not in feed._versions:
        await asyncio.sleep(0.005)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it)")
async def test_on_redis_another_process_s_write_arrives_by_pub_sub() -> None:
    url = os.environ["REDIS_URL"]
    prefix = f"tapete-test-feed-{uuid.uuid4().hex[:8]}"
    first = RedisStore(redis.asyncio.Redis.from_url(url), prefix)
    second = RedisStore(redis.asyncio.Redis.from_url(url), prefix)
    writer, pages = Feed(first), Feed(second)
    pages.poll = 3600.0  # nothing but pub/sub can tell it
    assert pages.channel == writer.channel == f"{prefix}:miniapp:0"
    running = asyncio.create_task(pages.run())
    try:
        with pages.watch(CHAT) as event:
            while (
                not await first.redis.pubsub_numsub(pages.channel)
                or not (await first.redis.pubsub_numsub(pages.channel))[0][1]
            ):
                await asyncio.sleep(0.01)  # the other process is listening
            writer.changed(CHAT)
            await _told(event)
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        for store in (first, second):
            await store.redis.aclose()
