"""A real bot process (``python -m bot``) against the fake Bot API, under one token, on Redis
(``REDIS_URL``) or a SQLite file: started, killed (``kill -9``), restarted, stopped (SIGSTOP,
starved of CPU) and stopped for good (SIGTERM). The one helper of the tests that run processes
(kills, chaos, start-up, shutdown) and of ``bench/chaos.py``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from driver import PREFIX
from fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """``python -m bot`` under ``token``, its output appended to ``log``; on Redis under
    ``prefix``, or on the SQLite file ``sqlite``; ``env`` adds settings."""

    def __init__(
        self,
        tg: FakeTelegram,
        token: str,
        log: Path,
        sqlite: Path | None = None,
        prefix: str = PREFIX,
        env: dict[str, str] | None = None,
    ) -> None:
        self.tg, self.token, self.log, self.sqlite = tg, token, log, sqlite
        self.prefix, self.env = prefix, dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "TELEGRAM_BOT_TOKEN": self.token,
            "TELEGRAM_API_URL": self.tg.base_url,
            "TAPETE_TURN_TIMEOUT": "600",
            "TAPETE_TIMER_TICK": "0.2",
            "TAPETE_ANSWER_QUIET": "0",
            "TAPETE_REDIS_PREFIX": self.prefix,
            "PYTHONPATH": str(ROOT),
            **self.env,
        }
        if self.sqlite is not None:
            env.pop("REDIS_URL", None)
            env["TAPETE_SQLITE_PATH"] = str(self.sqlite)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=out, stderr=out
            )

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """``kill -9``, and wait for it."""
        if self.proc is not None and self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    async def restart(self) -> None:
        """Killed, started again, and polling."""
        polls = self.tg.polls_started(self.token)
        self.kill()
        self.start()
        await polling(self.tg, self.token, polls, timeout=90)

    async def stall(self, seconds: float) -> None:
        """Starve the process: stopped (SIGSTOP) for ``seconds``, then going on."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(seconds)
        finally:
            os.kill(self.proc.pid, signal.SIGCONT)

    def stop(self) -> None:
        """SIGTERM (after SIGCONT, were it stopped); killed if not gone within 10 s."""
        if self.proc is not None and self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


async def polling(tg: FakeTelegram, token: str, since: int, timeout: float = 30) -> None:
    """Wait for a getUpdates request with ``token`` beyond the first ``since`` (its arrival:
    a long poll with nothing to deliver returns only after its timeout)."""
    await tg.wait_for(
        lambda: tg.polls_started(token) > since,
        timeout=timeout,
        what=f"a process polling with {token[:6]}",
    )
