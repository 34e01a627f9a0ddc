"""Headless Chromium from Debian's packages (``/usr/bin/chromium``), driven by Playwright, for
the Mini App's browser tests: no browser is downloaded, and nothing reaches the internet
(Telegram's script is answered with ``telegram_stub.js``, any other address but loopback is
refused)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
STUB = (Path(__file__).with_name("telegram_stub.js")).read_text(encoding="utf-8")
THEME = {
    "bg_color": "#ffffff",
    "text_color": "#222222",
    "hint_color": "#707579",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
    "accent_text_color": "#168acd",
    "destructive_text_color": "#d14e4e",
}


def need_chromium() -> None:
    """Skip, saying how to get it, when Debian's Chromium is missing (.ci/run installs it)."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("no /usr/bin/chromium: apt-get install -y chromium (.ci/run does)")


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """One headless browser for a test."""
    need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=ARGS, headless=True
        )
        try:
            yield browser
        finally:
            await browser.close()


def launch_url(base: str, init_data: str, payload: str) -> str:
    """The page's URL as Telegram opens a Main Mini App: the launch parameters in the fragment."""
    params = {
        "tgWebAppData": init_data,
        "tgWebAppVersion": "8.0",
        "tgWebAppPlatform": "tdesktop",
        "tgWebAppStartParam": payload,
        "tgWebAppThemeParams": json.dumps(THEME, separators=(",", ":")),
    }
    fragment = "&".join(f"{k}={quote(v, safe='')}" for k, v in params.items())
    return f"{base}?tgWebAppStartParam={payload}#{fragment}"


async def open_page(browser: Any, url: str, lang: str = "es") -> Any:
    """A page of its own (its own browser context) opened at ``url``."""
    context = await browser.new_context(locale=lang, viewport={"width": 390, "height": 780})

    async def route(request_route: Any) -> None:
        address = request_route.request.url
        if address == TELEGRAM_JS:
            await request_route.fulfill(body=STUB, content_type="text/javascript")
        elif address.startswith(("http://127.0.0.1", "data:")):
            await request_route.continue_()
        else:
            await request_route.abort()

    await context.route("**/*", route)
    page = await context.new_page()
    await page.goto(url)
    return page


async def shown_version(page: Any, version: int, timeout: float = 15.0) -> None:
    """Wait until ``page`` shows the table at ``version`` or later."""
    await page.wait_for_function(
        "v => Number(document.getElementById('app').dataset.version || 0) >= v",
        arg=version,
        timeout=timeout * 1000,
    )


async def screenshot(page: Any, name: str) -> None:
    """With ``TAPETE_SCREENSHOTS=<folder>``, the page as a PNG there (the README's pictures:
    ``TAPETE_SCREENSHOTS=docs/screenshots pytest tests/e2e/test_miniapp_browser.py``)."""
    folder = os.environ.get("TAPETE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
