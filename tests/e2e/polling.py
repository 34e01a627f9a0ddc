"""Starting and stopping a real python-telegram-bot ``Application`` by hand, long polling the
fake Bot API, as ``run_polling`` does (the end-to-end fixtures and the benches share it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


async def start(
    app: Any, *, poll_timeout: float = 1, error_callback: Callable[[Any], None] | None = None
) -> None:
    """Initialise and start ``app`` (its ``post_init`` too) and its updater's long polling."""
    await app.initialize()
    if app.post_init:
        await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(
        poll_interval=0, timeout=poll_timeout, error_callback=error_callback
    )


async def stop(app: Any) -> None:
    """Stop what :func:`start` started, in ``run_polling``'s order (each hook once)."""
    if app.updater and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    if app.post_stop:
        await app.post_stop(app)
    await app.shutdown()
    if app.post_shutdown:
        await app.post_shutdown(app)
