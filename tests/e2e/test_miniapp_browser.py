"""End to end in a real browser: four Mini App pages play a Mus hand with a mus round (rules
mus.md M2, the mus and the discard; M4, the bets), tapping cards to discard, betting and
answering "quiero", while a member of the group who is not seated watches from a fifth page
that never shows a hidden card. The bot is the real Application polling the fake Bot API, on
real Redis; the browser is Debian's Chromium driven by Playwright, Telegram's script stubbed."""

from __future__ import annotations

from typing import Any

import pytest
from browser import chromium, launch_url, open_page, screenshot, shown_version
from driver import LANG, open_table, read_doc, t
from fake_telegram import FakeTelegram
from webapp import base_url, init_data, open_button, webapp_settings

from bot.games.registry import get_game
from bot.games.render import card_name
from engine.mus import view as mus_view

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("browser")]

MUS = get_game("mus")


def _labels(state: Any, seat: int) -> list[str]:
    return [card_name(LANG, c) for c in mus_view(state, seat).to_dict()["cards"]]


async def _hand_labels(page: Any) -> list[str]:
    return [str(x) for x in await page.locator(".hand .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )]  # fmt: skip


def _choose(actions: list[str], said: dict[str, int]) -> str:
    """The move a test player taps: mus once, then cut; bet the first lance and accept it."""
    if "mus" in actions:
        said["mus"] += 1
        return "mus" if said["mus"] <= 4 else "corto"
    if "quiero" in actions:
        return "quiero"
    if "envido" in actions and not said["bet"]:
        said["bet"] = 1
        return "envido"
    return "paso" if "paso" in actions else actions[0]


async def test_four_pages_play_a_mus_hand_with_a_mus_round(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    redis = redis_factory.client()
    app = await apps.start(**webapp_settings())
    table, users, group = await open_table(tg, redis)
    doc = await table.doc()
    payload = open_button(table.table_message(doc))
    base = base_url(app)
    ids = [p["user_id"] for p in doc["players"]]
    seated = [next(u for u in users if u.id == uid) for uid in ids]
    eva = tg.user("Eva", "eva")
    group.add(eva)
    async with chromium() as browser:
        pages = [
            await open_page(browser, launch_url(base, init_data(tg, u, payload), payload))
            for u in seated
        ]
        watcher = await open_page(browser, launch_url(base, init_data(tg, eva, payload), payload))
        version, _ = await read_doc(redis, group.id) or (0, {})
        for page in [*pages, watcher]:
            await shown_version(page, version)
        state = await table.state()
        for seat, page in enumerate(pages):  # each page reads its own hand, as the chat names it
            assert sorted(await _hand_labels(page)) == sorted(_labels(state, seat))
        assert await watcher.locator(".card").count() == 0
        await screenshot(pages[0], "mus-es")

        said = {"mus": 0, "bet": 0}
        taps = 0
        while MUS.hand_number(state) == 1 and not state.is_over:
            taps += 1
            assert taps < 80, "the hand should be over"
            hidden = [label for seat in range(4) for label in _labels(state, seat)]
            text = await watcher.inner_text("body")
            assert not [label for label in hidden if label in text]
            assert await watcher.locator(".card").count() == 0
            seat = MUS.to_act(state)[0]
            page = pages[seat]
            if MUS.in_discard(state):
                await page.locator(".hand .card").first.click()
                assert await page.locator(".hand .card[aria-pressed=true]").count() == 1
                await page.locator(".actions .move").first.click()
            else:
                buttons = page.locator(".actions .move")
                actions = await buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")
                await page.locator(
                    f'.actions .move[data-action="{_choose(actions, said)}"]'
                ).click()
            moved = await tg.wait_for(
                lambda v=version: _newer(redis, group.id, v), what="the move stored"
            )
            version = moved[0]
            for other in [*pages, watcher]:  # shown in every page, pushed
                await shown_version(other, version)
            state = await table.state()
        assert said["mus"] > 4 and said["bet"], "a mus round, then a bet"
        await tg.settle()
        result = t(LANG, "event.hand_over", hand=1, a="", b="").split(".")[0]
        assert any(result in m.text for m in group.bot_messages())
        await table.assert_messages_current()
        for seat, page in enumerate(pages):  # the next hand, in every page
            await shown_version(page, version)
            assert sorted(await _hand_labels(page)) == sorted(_labels(state, seat))
        assert await watcher.locator(".card").count() == 0


async def _newer(redis: Any, chat_id: int, version: int) -> tuple[int, Any] | None:
    found = await read_doc(redis, chat_id)
    return found if found is not None and found[0] > version else None
