"""The wiring: every command in Spanish and English, the buttons, de-duplication, start-up."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import fakeredis
import pytest
from telegram.error import BadRequest
from telegram.ext import CallbackQueryHandler, CommandHandler, TypeHandler

from bot import app as bot_app
from bot.app import build_application
from bot.handlers.common import SERVICES_KEY
from bot.settings import Settings
from bot.store import RedisStore, SQLiteStore

sys.path.insert(0, str(Path(__file__).parent))
from stores import sqlite_store

SPANISH = [
    "nueva",
    "unirme",
    "salir",
    "empezar",
    "cancelar",
    "mus",
    "corto",
    "paso",
    "envido",
    "quiero",
    "noquiero",
    "ordago",
    "mesa",
    "cartas",
    "ayuda",
    "reglas",
    "idioma",
    "descarto",
    "maquina",
    "vuelvo",
]
ENGLISH = "new join leave go cancel cut pass bet accept fold allin table cards help rules language"
ENGLISH_LIST = [*ENGLISH.split(), "discard", "addbot", "back"]


def settings(**kw: Any) -> Settings:
    """Settings for a test; ``REDIS_URL`` from the environment (CI sets it) is ignored."""
    return Settings(**{"telegram_bot_token": "123:abc", "redis_url": None, **kw})


def test_every_command_is_wired_in_both_languages() -> None:
    app = build_application(settings())
    handlers = [h for group in app.handlers.values() for h in group]
    commands = {c for h in handlers if isinstance(h, CommandHandler) for c in h.commands}
    assert set(SPANISH) | set(ENGLISH_LIST) | {"start"} <= commands
    buttons = [h for h in app.handlers[0] if isinstance(h, CallbackQueryHandler)]
    patterns = {h.pattern.pattern for h in buttons}  # type: ignore[union-attr]
    assert patterns == {
        r"^[jlgxe]:",
        r"^[ah]:",
        r"^[tcp]:",
        r"^n:",
        r"^s:",
        r"^[bfv]:",
        r"^k:",
        r"^o:",
    }
    assert len(app.error_handlers) == 1


def test_storage_choice() -> None:
    app = build_application(settings())
    store = app.bot_data[SERVICES_KEY].store
    assert isinstance(store, SQLiteStore)  # a temporary file
    asyncio.run(store.aclose())
    app = build_application(settings(), redis=fakeredis.FakeAsyncRedis())
    assert isinstance(app.bot_data[SERVICES_KEY].store, RedisStore)


def test_local_bot_api_server_urls() -> None:
    app = build_application(settings(telegram_api_url="http://127.0.0.1:8081/bot"))
    assert app.bot.base_url.startswith("http://127.0.0.1:8081/bot")
    assert app.bot.base_file_url.startswith("http://127.0.0.1:8081/file/bot")


async def test_refused_set_my_commands_is_only_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    async def refuse(*args: Any, **kw: Any) -> bool:
        raise BadRequest("method not allowed")

    fake = SimpleNamespace(bot=SimpleNamespace(set_my_commands=refuse))
    with caplog.at_level(logging.WARNING, logger="bot.app"):
        await bot_app._set_commands(fake)  # type: ignore[arg-type]
    assert "setMyCommands" in caplog.text


async def test_no_update_pays_a_dedupe_round_trip_up_front() -> None:
    """De-duplication moved into the table write (and lazy checks): the only group -1 handlers
    are the guards (shared identities, forged presses), which read no store unless they refuse;
    the only handler for every update notes who wrote in private, in memory (no round trip)."""
    from bot.handlers import guard
    from bot.handlers.common import note_private
    from bot.services import Services

    store = sqlite_store()
    app = build_application(settings(), store=store)
    guards = [h.callback for h in app.handlers.get(-1, [])]
    assert guards == [guard.refuse_shared_identity, guard.refuse_forged_press]
    every = [h for hs in app.handlers.values() for h in hs if isinstance(h, TypeHandler)]
    assert [h.callback for h in every] == [note_private]
    user = SimpleNamespace(id=42)
    update = SimpleNamespace(
        message=None,
        effective_chat=SimpleNamespace(type="private", PRIVATE="private"),
        effective_user=user,
    )
    context = SimpleNamespace(application=app)
    await note_private(update, context)  # type: ignore[arg-type]
    svc = app.bot_data["tapete"]
    assert isinstance(svc, Services) and svc.known_reachable(42) and store.round_trips == 0
