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

PAGES = {**webapp_settings(), "turn_timeout": 3600.0}
"""The page's settings, with turns no wall clock runs out: five pages of a browser on a loaded
machine can take longer than a turn, and a safe default played meanwhile is not what the test
tapped."""

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
    app = await apps.start(**PAGES)
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

        said = {"mus": 0, "bet": 0, "sena": 0}
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
            if not said["sena"] and said["mus"] > 4 and not MUS.features.in_discard(state):
                signs = page.locator(".senas .sena")
                if await signs.count():  # a seña to his partner, once the lances begin
                    await signs.first.click()
                    await page.wait_for_selector(".note")
                    note = await page.inner_text(".note")
                    assert note.startswith(t(LANG, "senas.sent", sena="").strip()[:4]), note
                    said["sena"] = 1
                    version = (await read_doc(redis, group.id) or (version, {}))[0]
                    continue
            if MUS.features.in_discard(state):
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
                lambda v=version: _newer(redis, group.id, v), timeout=15, what="the move stored"
            )
            version = moved[0]
            for other in [*pages, watcher]:  # shown in every page, pushed
                await shown_version(other, version)
            state = await table.state()
        assert said["mus"] > 4 and said["bet"], "a mus round, then a bet"
        assert said["sena"], "a seña from the page"
        felt = [await p.evaluate("window.__haptics") for p in pages]
        assert all(["notification", "success"] in f for f in felt), "told by touch: your turn"
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


def _pick(moves: list[str], playable: int, said: dict[str, int]) -> str | int:
    """A test player's tap in envite or piedras: answer a bet with quiero, bet once, else play
    a card (its position among the playable ones) or pass."""
    if "quiero" in moves:
        return "quiero"
    if not said["bet"] and "envido" in moves:
        said["bet"] = 1
        return "envido"
    if playable:
        return 0
    for calm in ("paso", "no_tumbo"):
        if calm in moves:
            return calm
    return moves[0]


async def _play_a_hand_in_pages(
    tg: FakeTelegram, app: Any, table: Any, lang: str, shot: str
) -> dict[str, int]:
    """Every seat's page and a watcher's open; the seats play the first hand (or round) to its
    end by taps alone; every move shows in every page; the watcher never sees a held card."""
    redis, group = table.redis, table.group
    doc = await table.doc()
    game = get_game(doc["game"])
    shown = doc["shown"]["table_msg"]
    payload = open_button(next(m for m in group.bot_messages() if m.message_id == shown), lang)
    base = base_url(app)
    seated = [next(u for u in table.users if u.id == p["user_id"]) for p in doc["players"]]
    watcher_user = tg.user("Eva", "eva", language_code=lang)
    group.add(watcher_user)

    def hands(state: Any) -> list[list[str]]:
        return [
            [card_name(lang, c) for c in game.view(state, s)["cards"]] for s in range(len(seated))
        ]

    said = {"bet": 0, "discards": 0, "cards": 0}
    async with chromium() as browser:
        pages = [
            await open_page(browser, launch_url(base, init_data(tg, u, payload), payload), lang)
            for u in seated
        ]
        watcher = await open_page(
            browser, launch_url(base, init_data(tg, watcher_user, payload), payload), lang
        )
        version = (await read_doc(redis, group.id) or (0, {}))[0]
        for page in [*pages, watcher]:
            await shown_version(page, version)
        state = game.from_json((await table.doc())["state"])
        for seat, page in enumerate(pages):
            assert sorted(await _hand_labels(page)) == sorted(hands(state)[seat])
        await screenshot(pages[0], shot)
        hand = game.hand_number(state)
        taps = 0
        while game.hand_number(state) == hand and not game.is_over(state):
            taps += 1
            assert taps < 120, "the hand should be over"
            text = await watcher.inner_text("body")
            # A held card the group's own table message names (the trump line names the
            # malilla, "two of coins", whoever holds it) is no leak: the rest of the page is.
            chat = next(m for m in group.bot_messages() if m.message_id == shown).text
            assert not [c for held in hands(state) for c in held if c in text and c not in chat]
            assert await watcher.locator(".card").count() == 0
            seat = game.to_act(state)[0]
            page = pages[seat]
            if game.features.in_discard(state):
                await page.locator(".hand .card").first.click()
                await page.locator(".actions .move").first.click()
                said["discards"] += 1
            else:
                moves = await page.locator(".actions .move").evaluate_all(
                    "bs => bs.map(b => b.dataset.action)"
                )
                playable = page.locator(".hand .card.playable")
                pick = _pick(moves, await playable.count(), said)
                if isinstance(pick, int):
                    await playable.nth(pick).click()
                    said["cards"] += 1
                else:
                    await page.locator(f'.actions .move[data-action="{pick}"]').click()
            moved = await tg.wait_for(
                lambda v=version: _newer(redis, group.id, v), timeout=15, what="the move stored"
            )
            version = moved[0]
            for other in [*pages, watcher]:
                await shown_version(other, version)
            state = game.from_json(moved[1]["state"])
    return said


async def test_an_envite_round_played_in_four_english_pages(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Envite canario (rules envite.md): the cards thrown by tapping them, a bet and quiero."""
    from envite_driver import open_envite

    redis = redis_factory.client()
    app = await apps.start(redis=redis, **PAGES)
    table = await open_envite(tg, redis, players=4, lang="en")
    said = await _play_a_hand_in_pages(tg, app, table, "en", "envite-en")
    assert said["cards"] >= 4 and said["bet"]
    await tg.settle()


async def test_a_piedras_hand_played_in_three_pages(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """Mus a piedras (rules piedras.md): each discards by tapping a card, then the lances."""
    from piedras_driver import open_piedras_table

    redis = redis_factory.client()
    app = await apps.start(redis=redis, **PAGES)
    table = await open_piedras_table(tg, redis, players=3)
    said = await _play_a_hand_in_pages(tg, app, table, "es", "piedras-es")
    assert said["discards"] >= 3
    await tg.settle()
