"""The README's pictures of the Mini App: each game's table in Spanish and English.

    .venv/bin/python bench/miniapp_screenshots.py [--out docs/screenshots]

Each table is dealt and played a few random legal moves in memory (the table flow, as the
tests' flowkit does), then the page itself (bot/miniapp/static) is opened in Debian's Chromium
with its API answered by the view the bot would send the first seat (bot.miniapp.views) and
Telegram's script by the tests' stub; the picture is ``<game>-<lang>.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from importlib import resources
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "tests" / "bot"))
sys.path.insert(0, str(ROOT))

from browser import THEME, chromium, launch_url  # noqa: E402
from flowkit import posted  # noqa: E402

from bot.miniapp.auth import sign_init_data, sign_payload  # noqa: E402
from bot.miniapp.views import view_of  # noqa: E402
from bot.table import Table  # noqa: E402

STUB = (ROOT / "tests" / "e2e" / "telegram_stub.js").read_text(encoding="utf-8")
BASE = "http://127.0.0.1:8090/mesa/"
GAMES = {"mus": (4, 0), "envite": (4, 3), "piedras": (3, 3)}
NAMES = ["Ana", "Bea", "Cris", "Dani"]


def table_for(game: str, lang: str) -> Table:
    """A table of ``game`` dealt and a few moves in, its first seat to act or about to."""
    players, moves = GAMES[game]
    rnd = random.Random(3)
    table = Table(chat_id=-100123, creator=11, tid="t1", title="Tapete", game=game, lang=lang)
    for i in range(players):
        table.join(11 + i, NAMES[i])
    posted.start(table, 5, 1000.0, 60)
    for _ in range(moves):
        state = table.engine_state()
        seat = table.to_act()[0]
        legal = table.adapter.legal_actions(state, seat)
        cards = [a for a in legal if a.cards] if game == "envite" else legal
        posted.play(table, seat, str(rnd.choice(cards or legal)), 1000.0, 60)
    return table


def _router(body: str) -> Any:
    """Answers the page's requests: its files, its view, Telegram's script (stubbed)."""

    async def route(r: Any) -> None:
        url = r.request.url
        if url.startswith("https://telegram.org/"):
            await r.fulfill(body=STUB, content_type="text/javascript")
        elif url.startswith(BASE + "api/view"):
            await r.fulfill(body=body, content_type="application/json")
        elif url.startswith(BASE + "api/events"):
            return  # left open: a page that waits for pushes
        elif url.startswith(BASE + "static/"):
            name = url.split("/static/")[1]
            data = resources.files("bot.miniapp").joinpath("static", name)
            kind = "text/css" if name.endswith(".css") else "text/javascript"
            await r.fulfill(body=data.read_bytes(), content_type=kind)
        elif url.startswith(BASE):
            page = resources.files("bot.miniapp").joinpath("static", "index.html")
            await r.fulfill(body=page.read_bytes(), content_type="text/html")
        else:
            await r.abort()

    return route


async def shoot(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    async with chromium() as browser:
        for game in GAMES:
            for lang in ("es", "en"):
                table = table_for(game, lang)
                seat = table.to_act()[0] if table.to_act() else 0
                view = view_of(table, seat, 1)
                body = json.dumps(view, ensure_ascii=False)
                context = await browser.new_context(
                    locale=lang, viewport={"width": 390, "height": 760}, device_scale_factor=1
                )

                await context.route("**/*", _router(body))
                page = await context.new_page()
                user = json.dumps({"id": 11 + seat, "first_name": NAMES[seat]})
                init = sign_init_data("1:x", {"user": user, "auth_date": "1"})
                await page.goto(launch_url(BASE, init, sign_payload("1:x", table.chat_id)))
                await page.wait_for_selector("#app[data-version]")
                await page.screenshot(path=str(out / f"{game}-{lang}.png"), full_page=True)
                await context.close()
                print(out / f"{game}-{lang}.png")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    asyncio.run(shoot(parser.parse_args().out))
    return 0


if __name__ == "__main__":
    assert THEME  # the tests' theme colours, set through the launch parameters
    sys.exit(main())
