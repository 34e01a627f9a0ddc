"""The Mini App as Telegram's clients reach it, for the end-to-end tests: the table message's
"🃏 Abrir la mesa" link, ``initData`` signed with the test token as Telegram signs it, and a page's
HTTP calls (its view, its moves, its event stream)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from typing import Any

import aiohttp
from fake_telegram import Chat, FakeTelegram, Message, User

from bot.miniapp.auth import sign_init_data
from bot.miniapp.server import HEADER
from locales import t

LAUNCH = re.compile(r"https://t\.me/(?P<bot>[A-Za-z0-9_]+)\?startapp=(?P<payload>[A-Za-z0-9_-]+)")


def webapp_settings() -> dict[str, Any]:
    """The bot's settings for a page on loopback (its port chosen by the system)."""
    return {
        "webapp_url": "http://127.0.0.1/mesa/",
        "webapp_listen": "127.0.0.1",
        "webapp_port": 0,
    }


def base_url(app: Any) -> str:
    """Where the running Application serves its page."""
    from bot.app import MINIAPP_KEY

    return f"http://127.0.0.1:{app.bot_data[MINIAPP_KEY].port}/mesa/"


def open_button(message: Message, lang: str = "es") -> str:
    """The startapp payload of the table message's "🃏 Abrir la mesa" button."""
    label = t(lang, "miniapp.open")
    urls = [b["url"] for b in message.buttons() if b.get("text") == label and "url" in b]
    assert len(urls) == 1, message.buttons()
    found = LAUNCH.fullmatch(urls[0])
    assert found is not None, urls[0]
    return found.group("payload")


def init_data(tg: FakeTelegram, user: User, payload: str, *, age: float = 0.0) -> str:
    """``Telegram.WebApp.initData`` for ``user`` opening the Main Mini App with ``payload``."""
    who = {"id": user.id, "first_name": user.first_name, "language_code": user.language_code}
    if user.username:
        who["username"] = user.username
    fields = {
        "query_id": f"AA{user.id}",
        "user": json.dumps(who, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(time.time() - age)),
        "start_param": payload,
        "chat_type": "supergroup",
        "chat_instance": "-77",
    }
    return sign_init_data(tg.tokens[0], fields)


class PageClient:
    """One page's calls to the bot (what app.js does), over HTTP."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init: str) -> None:
        self.http, self.base, self.init = http, base, init

    async def view(self) -> tuple[int, dict[str, Any]]:
        async with self.http.get(self.base + "api/view", headers={HEADER: self.init}) as r:
            return r.status, await r.json()

    async def act(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(
            self.base + "api/action", headers={HEADER: self.init}, json=body
        ) as r:
            return r.status, await r.json()


class EventStream:
    """A page's open event stream: the views pushed to it, in order."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init: str) -> None:
        self.http, self.url, self.init = http, base + "api/events", init
        self.views: list[dict[str, Any]] = []
        self.status = 0
        self._task: asyncio.Task[None] | None = None
        self._opened = asyncio.Event()

    async def __aenter__(self) -> EventStream:
        self._task = asyncio.create_task(self._read())
        await asyncio.wait_for(self._opened.wait(), 5)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _read(self) -> None:
        async with self.http.get(self.url, headers={HEADER: self.init}) as r:
            self.status = r.status
            self._opened.set()
            async for line in r.content:
                if line.startswith(b"data: "):
                    self.views.append(json.loads(line[6:]))

    async def until(self, tg: FakeTelegram, check: Any, what: str) -> dict[str, Any]:
        """The first view pushed that passes ``check``."""
        return await tg.wait_for(
            lambda: next((v for v in self.views if check(v)), None), what=f"a pushed view {what}"
        )


def member(group: Chat, user: User) -> None:
    """``user`` joins the group without sitting at its table."""
    group.add(user)
