"""Background publications (bot/background.py): one task per chat, another round for a write made
meanwhile, never two publications of a chat at once; a graceful stop waits, then cancels."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.background import Publications


class Recorder:
    """Publishes nothing: records each publication and how many overlap."""

    def __init__(self, pause: float = 0.02) -> None:
        self.pause = pause
        self.calls: list[int] = []
        self.running: dict[int, int] = {}
        self.overlap = 0

    def of(self, chat_id: int) -> Callable[[], Awaitable[None]]:
        """What a handler would pass to ``Publications.start`` for ``chat_id``."""
        return lambda: self.publish(chat_id)

    async def publish(self, chat_id: int) -> None:
        self.calls.append(chat_id)
        self.running[chat_id] = self.running.get(chat_id, 0) + 1
        self.overlap = max(self.overlap, self.running[chat_id])
        try:
            await asyncio.sleep(self.pause)
        finally:
            self.running[chat_id] -= 1


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


async def test_writes_made_while_a_chat_is_published_make_one_more_round(
    recorder: Recorder,
) -> None:
    pubs = Publications()
    pubs.start(-1, recorder.of(-1))
    await asyncio.sleep(0)  # the first round is running
    for _ in range(3):  # three writes meanwhile: one more round, not three, never at once
        pubs.start(-1, recorder.of(-1))
    pubs.start(-2, recorder.of(-2))  # another chat: at once, beside it
    assert await pubs.drain(5.0)
    assert sorted(recorder.calls) == [-2, -1, -1]
    assert recorder.overlap == 1
    assert len(pubs) == 0


async def test_a_chat_published_after_its_round_ended_gets_a_new_round(
    recorder: Recorder,
) -> None:
    pubs = Publications()
    pubs.start(-1, recorder.of(-1))
    assert await pubs.drain(5.0)
    pubs.start(-1, recorder.of(-1))
    assert await pubs.drain(5.0)
    assert recorder.calls == [-1, -1]


async def test_drain_gives_up_after_its_bound_and_cancels_what_is_left(
    recorder: Recorder,
) -> None:
    recorder.pause = 30.0  # Telegram does not answer
    pubs = Publications()
    pubs.start(-1, recorder.of(-1))
    await asyncio.sleep(0)
    assert not await pubs.drain(0.05)
    assert len(pubs) == 0 and recorder.running[-1] == 0  # cancelled, nothing left running


async def test_a_failed_publication_is_logged_and_the_next_one_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[int] = []

    async def broken(chat_id: int) -> None:
        calls.append(chat_id)
        raise RuntimeError("bug")

    pubs = Publications()
    pubs.start(-1, lambda: broken(-1))
    assert await pubs.drain(1.0)
    pubs.start(-1, lambda: broken(-1))
    assert await pubs.drain(1.0)
    assert calls == [-1, -1]
    assert "publishing table -1 failed" in caplog.text
