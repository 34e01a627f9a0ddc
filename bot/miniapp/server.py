"""The Mini App's page and JSON API (aiohttp, in the bot's event loop), at ``TAPETE_WEBAPP_URL``.

Routes, under the path of ``TAPETE_WEBAPP_URL``:

- ``/`` the page, ``/static/<file>`` its script, style and card pictures;
- ``GET /api/view``: the table as the asker may see it (his seat's view when he is seated, the
  public view for a member of the group who is not, else 403);
- ``POST /api/action``: a move (``{"action", "turn", "tid"}``), a discard (``{"discard":
  [cards], "tid"}``, as ``/descarto``) or a seña (``{"sena", "hand", "tid"}``), through the
  same path as the table message's buttons: one compare-and-set, the turn token, the same
  refusals in the same words (409 with ``{"error"}``), and the group's table message published
  after it;
- ``GET /api/events``: Server-Sent Events, one ``data:`` line with the view each time the
  table changes (:mod:`bot.miniapp.feed`), the first at once, so a page that reconnects catches
  up from the stored table.

Every request carries Telegram's ``initData`` in the ``X-Telegram-Init-Data`` header (checked
by :func:`bot.miniapp.auth.check_init_data`: 401 when missing, forged or too old); its
``start_param`` is the signed payload naming the table's chat (403 when it names none). A
seated player's view costs no Bot API call; a member who is not seated is asked about once
(``getChatMember``), then remembered for :data:`MEMBER_TTL` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web
from telegram import Bot

from bot.flow import discard
from bot.games.senas import sent_text
from bot.handlers.common import is_member
from bot.handlers.mine import after_move
from bot.handlers.play import play
from bot.handlers.senas import send as send_sena
from bot.miniapp.auth import InitData, InitDataError, check_init_data, read_payload
from bot.miniapp.feed import Feed
from bot.miniapp.views import refusal, view_of
from bot.publisher import Publisher
from bot.services import Services
from bot.table import Step, Table
from bot.tables import load_doc
from engine.core import IllegalAction
from locales import language_of, t

__all__ = ["HEADER", "MiniApp"]

log = logging.getLogger("bot.miniapp")

HEADER = "X-Telegram-Init-Data"
"""The request header carrying ``Telegram.WebApp.initData`` as the page got it."""
MEMBER_TTL = 300.0
"""Seconds a "member of the group" answer is remembered (a "not a member" one: a tenth)."""
MEMBERS_KEPT = 10_000
"""Answers remembered before the stale ones are dropped."""
HEARTBEAT = 20.0
"""Seconds between two comment lines on a quiet event stream (proxies close idle ones)."""
STATIC = ("app.js", "app.css", "cards.js")
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"
)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks for which table, and what he may see of it."""

    who: InitData
    chat_id: int
    table: Table | None
    version: int
    seat: int | None

    @property
    def lang(self) -> str:
        return self.table.lang if self.table is not None else language_of(self.who.language_code)

    def view(self) -> dict[str, Any]:
        if self.table is None:
            return {"version": self.version, "status": "none", "lang": self.lang}
        return view_of(self.table, self.seat, self.version)


class MiniApp:
    """The page and its API for one bot process."""

    def __init__(self, svc: Services, bot: Bot, publisher: Publisher, feed: Feed) -> None:
        self.svc, self.bot, self.publisher, self.feed = svc, bot, publisher, feed
        self.base = svc.settings.webapp_path
        self._members: dict[tuple[int, int], tuple[float, bool]] = {}
        self._runner: web.AppRunner | None = None
        self._feed_task: asyncio.Task[None] | None = None
        self.closing = False
        self.port = svc.settings.webapp_port
        """The port listened on (the one the system chose when the setting is 0)."""

    # ---- who is asking --------------------------------------------------------------------

    def _init_data(self, request: web.Request) -> InitData:
        try:
            return check_init_data(
                self.svc.settings.telegram_bot_token, request.headers.get(HEADER), self.svc.clock()
            )
        except InitDataError as exc:
            lang = language_of(request.headers.get("Accept-Language", "")[:2] or None)
            raise _error(web.HTTPUnauthorized, t(lang, "miniapp.signed_out"), str(exc)) from None

    async def _member(self, chat_id: int, user_id: int) -> bool:
        now = time.monotonic()
        known = self._members.get((chat_id, user_id))
        if known is not None and known[0] > now:
            return known[1]
        member = await is_member(self.bot, chat_id, user_id)
        if len(self._members) > MEMBERS_KEPT:  # the answers gone stale go first
            self._members = {k: v for k, v in self._members.items() if v[0] > now}
        self._members[(chat_id, user_id)] = (now + MEMBER_TTL / (1 if member else 10), member)
        return member

    async def viewer(self, request: web.Request) -> Viewer:
        """The asker and the table his payload names, with his seat (403: not his to see)."""
        who = self._init_data(request)
        chat_id = read_payload(self.svc.settings.telegram_bot_token, who.start_param)
        lang = language_of(who.language_code or None)
        if chat_id is None:
            raise _error(web.HTTPForbidden, t(lang, "miniapp.denied"), "payload")
        return await self._load(who, chat_id)

    async def _load(self, who: InitData, chat_id: int) -> Viewer:
        loaded = await self.svc.store.load(chat_id)
        table = load_doc(loaded)
        seat = table.seat_of(who.user_id) if table is not None else None
        viewer = Viewer(who, chat_id, table, loaded.version if loaded else 0, seat)
        if seat is None and not await self._member(chat_id, who.user_id):
            raise _error(web.HTTPForbidden, t(viewer.lang, "miniapp.denied"), "member")
        return viewer

    # ---- the routes -----------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        if request.path == self.base:  # relative links need the trailing slash
            raise web.HTTPFound(
                f"{self.base}/" + (f"?{request.query_string}" * bool(request.query_string))
            )
        # The one text shown before any view: opened outside Telegram (no initData).
        lang = language_of(request.headers.get("Accept-Language", "")[:2] or None)
        signed_out = html.escape(t(lang, "miniapp.signed_out"))
        page = _read("index.html").decode().replace("{{signed_out}}", signed_out)
        return _respond(page.encode(), "text/html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return _file(name, kind)

    async def get_view(self, request: web.Request) -> web.Response:
        viewer = await self.viewer(request)
        return _json(viewer.view())

    async def post_action(self, request: web.Request) -> web.Response:
        viewer = await self.viewer(request)
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest() from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest()
        svc, chat_id, user_id = self.svc, viewer.chat_id, viewer.who.user_id
        tid = str(body.get("tid", ""))
        said = None
        moved: tuple[Table, Step] | None = None
        try:
            if "sena" in body:
                name = str(body["sena"])
                hand = _int(body.get("hand")) or 0
                steps: list[Step] = []
                table = await send_sena(svc, chat_id, tid, hand, user_id, name, steps=steps)
                said = sent_text(table, name)  # as the seña button's alert says
                moved = (table, steps[-1]) if steps else None
            elif "discard" in body:
                # As /descarto: the discard round, not the turn, is what a discard answers.
                if viewer.table is None or viewer.table.tid != tid:
                    raise IllegalAction("stale")
                table, step, _ = await play(
                    svc, chat_id, user_id, _discard(viewer.table, body["discard"])
                )
                moved = (table, step)
            else:
                turn = _int(body.get("turn"))
                table, step, _ = await play(
                    svc, chat_id, user_id, str(body.get("action", "")), turn, tid
                )
                moved = (table, step)
        except IllegalAction as exc:
            await self.publisher.publish(chat_id)  # a stale press repairs what the chat shows
            return _json({"error": refusal(viewer.lang, exc)}, status=409)
        await self.publisher.publish(chat_id)
        if moved is not None:  # the others' hands in the group follow, as after a button press
            await after_move(self.bot, svc, *moved, user_id)
        view = (await self._load(viewer.who, chat_id)).view()
        return _json({**view, "said": said} if said else view)

    async def events(self, request: web.Request) -> web.StreamResponse:
        viewer = await self.viewer(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        last = -1
        with (
            self.feed.watch(viewer.chat_id) as changed,
            contextlib.suppress(ConnectionError, web.HTTPForbidden),
        ):
            while not self.closing:
                if viewer.version != last:
                    data = json.dumps(viewer.view(), ensure_ascii=False, separators=(",", ":"))
                    await response.write(f"data: {data}\n\n".encode())
                    last = viewer.version
                try:
                    await asyncio.wait_for(changed.wait(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": ping\n\n")
                    continue
                # Cleared before the table is read, never after: a change told while it is
                # being read sets the event again, and the next turn of the loop reads it.
                changed.clear()
                if not self.closing:
                    viewer = await self._load(viewer.who, viewer.chat_id)
        return response

    # ---- running --------------------------------------------------------------------------

    def application(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        base = self.base
        app.router.add_get(f"{base}/", self.page)
        if base:
            app.router.add_get(base, self.page)
        app.router.add_get(f"{base}/static/{{name}}", self.static)
        app.router.add_get(f"{base}/api/view", self.get_view)
        app.router.add_post(f"{base}/api/action", self.post_action)
        app.router.add_get(f"{base}/api/events", self.events)
        return app

    async def start(self) -> None:
        settings = self.svc.settings
        self._runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, settings.webapp_listen, settings.webapp_port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        self._feed_task = asyncio.create_task(self.feed.run())
        log.info(
            "Mini App page on %s:%s (%s)", settings.webapp_listen, self.port, settings.webapp_url
        )

    async def stop(self) -> None:
        self.closing = True
        self.feed.wake_all()
        if self._feed_task is not None:
            self._feed_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._feed_task
            self._feed_task = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def _discard(table: Table, cards: object) -> str:
    """The action text of a discard chosen on the page (``descarto 12o 3c``)."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise web.HTTPBadRequest()
    try:
        return str(discard.action(table.adapter.features, cards))
    except ValueError:
        raise web.HTTPBadRequest() from None


def _int(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _error(kind: type[web.HTTPError], text: str, reason: str) -> web.HTTPError:
    body = json.dumps({"error": text, "reason": reason}, ensure_ascii=False)
    return kind(text=body, content_type="application/json")


def _json(data: dict[str, Any], status: int = 200) -> web.Response:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    response = web.Response(text=text, status=status, content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


_FILES: dict[str, bytes] = {}


def _read(name: str) -> bytes:
    if name not in _FILES:
        _FILES[name] = resources.files("bot.miniapp").joinpath("static", name).read_bytes()
    return _FILES[name]


def _file(name: str, kind: str) -> web.Response:
    return _respond(_read(name), kind)


def _respond(body: bytes, kind: str) -> web.Response:
    response = web.Response(body=body, content_type=kind, charset="utf-8")
    response.headers["Cache-Control"] = "no-cache"
    response.enable_compression()
    return response


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response
