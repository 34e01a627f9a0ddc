"""End to end: the table's Mini App over HTTP, beside the real Application polling the fake Bot
API, on real Redis. The table message's "🃏 Abrir la mesa" link names the table; each page sees
what its viewer may see (his seat's cards, or none); a move from a page is a button press (the
same compare-and-set, turn token and refusals in the same words); every open page is pushed
each change, and the group's table message follows."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest
from driver import LANG, open_table, read_doc, t
from fake_telegram import FakeTelegram
from webapp import EventStream, PageClient, base_url, init_data, open_button, webapp_settings

from bot.games.render import card_name, error_text
from bot.miniapp.auth import MAX_AGE, read_payload, sign_payload
from engine.core import IllegalAction
from engine.mus import view as mus_view

pytestmark = pytest.mark.e2e


async def _open(tg: FakeTelegram, apps: Any, redis_factory: Any) -> tuple[Any, ...]:
    redis = redis_factory.client()
    app = await apps.start(**webapp_settings())
    table, users, group = await open_table(tg, redis)
    payload = open_button(table.table_message(await table.doc()))
    return app, table, users, group, payload


def _hidden(state: Any, seat: int | None) -> list[str]:
    """Every way a page could name a card its viewer may not see (code and name)."""
    cards = [c for s in range(4) if s != seat for c in mus_view(state, s).to_dict()["cards"]]
    return [f'"{c}"' for c in cards] + [card_name(LANG, c) for c in cards]


async def test_each_page_sees_its_seat_or_the_public_table_and_no_one_else_gets_in(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    app, table, users, group, payload = await _open(tg, apps, redis_factory)
    assert read_payload(tg.tokens[0], payload) == group.id
    state = await table.state()
    doc = await table.doc()
    base = base_url(app)
    eva, zoe = tg.user("Eva", "eva"), tg.user("Zoe", "zoe")
    group.add(eva)  # a member who is not seated; Zoe is not in the group
    async with aiohttp.ClientSession() as http:
        async with http.get(base) as r:
            page = await r.text()
            assert r.status == 200 and "telegram-web-app.js" in page
        mark = len(tg.calls)

        def bot_api_calls() -> list[Any]:
            return [c for c in tg.calls[mark:] if c.method.lower() != "getupdates"]

        for user in users:
            status, view = await PageClient(http, base, init_data(tg, user, payload)).view()
            seat = [p["user_id"] for p in doc["players"]].index(user.id)
            assert status == 200 and view["seat"] == seat
            mine = mus_view(state, seat).to_dict()["cards"]
            assert sorted(c["card"] for c in view["cards"]) == sorted(mine)
            assert {c["label"] for c in view["cards"]} == {card_name(LANG, c) for c in mine}
            text = json.dumps(view, ensure_ascii=False)
            assert not [c for c in _hidden(state, seat) if c in text]
        assert not bot_api_calls(), "a seated player's view costs no Bot API call"

        watcher = PageClient(http, base, init_data(tg, eva, payload))
        for _ in range(2):
            status, view = await watcher.view()
            assert status == 200 and view["seat"] is None and view["cards"] == []
            assert view["text"], "the public view tells the table as the group reads it"
            text = json.dumps(view, ensure_ascii=False)
            assert not [c for c in _hidden(state, None) if c in text]
        assert [c.method for c in bot_api_calls()] == ["getChatMember"], "asked once, then known"

        refused = {
            "not a member": (403, init_data(tg, zoe, payload)),
            "missing": (401, ""),
            "expired": (401, init_data(tg, users[0], payload, age=MAX_AGE + 60)),
            "tampered": (401, init_data(tg, users[0], payload).replace("Ana", "Ann")),
            "another bot's payload": (403, init_data(tg, users[0], sign_payload("1:x", group.id))),
        }
        for what, (expected, init) in refused.items():
            for path in ("api/view", "api/events"):
                async with http.get(base + path, headers={"X-Telegram-Init-Data": init}) as r:
                    assert r.status == expected, (what, path, r.status)
            async with http.post(
                base + "api/action", headers={"X-Telegram-Init-Data": init}, json={}
            ) as r:
                assert r.status == expected, (what, "api/action", r.status)


async def test_a_move_from_the_page_is_a_button_press_and_every_page_is_told(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    app, table, users, group, payload = await _open(tg, apps, redis_factory)
    base = base_url(app)
    doc = await table.doc()
    state = await table.state()
    seat = state.to_act[0]
    ids = [p["user_id"] for p in doc["players"]]
    player = next(u for u in users if u.id == ids[seat])
    other = next(u for u in users if u.id == ids[(seat + 1) % 4])
    eva = tg.user("Eva", "eva")
    group.add(eva)
    async with aiohttp.ClientSession() as http:
        page = PageClient(http, base, init_data(tg, player, payload))
        _, view = await page.view()
        labels = {b["label"]: b["action"] for row in view["actions"] for b in row}
        message = table.table_message(doc)
        assert set(labels) <= set(message.button_texts()), "the table message's words"
        label, action = next(iter(labels.items()))

        # Not his turn: the page is refused in the words of the alert a button press gets.
        status, refused = await PageClient(http, base, init_data(tg, other, payload)).act(
            {"action": action, "turn": doc["turn"], "tid": doc["tid"]}
        )
        assert status == 409
        query = other.press(message, label)
        alert = await tg.wait_answer(query)
        assert refused["error"] == alert["text"]
        # A stale turn token: refused as a stale button is.
        status, refused = await page.act(
            {"action": action, "turn": doc["turn"] - 1, "tid": doc["tid"]}
        )
        assert status == 409
        assert refused["error"] == error_text(LANG, IllegalAction("stale"), plain=True)
        assert (await table.doc())["turn"] == doc["turn"], "a refusal changes nothing"

        watching = [init_data(tg, eva, payload), init_data(tg, other, payload)]
        async with (
            EventStream(http, base, watching[0]) as public,
            EventStream(http, base, watching[1]) as partner,
        ):
            for stream in (public, partner):
                await stream.until(tg, lambda v: v["turn"] == doc["turn"], "at once")
            status, moved = await page.act(
                {"action": action, "turn": doc["turn"], "tid": doc["tid"]}
            )
            assert status == 200 and moved["turn"] > doc["turn"]
            for stream in (public, partner):
                pushed = await stream.until(tg, lambda v: v["turn"] > doc["turn"], "after it")
                assert pushed["version"] == moved["version"]
            assert all(v["cards"] == [] for v in public.views)
        # A page that reconnects catches up from the stored table: its first push is current.
        async with EventStream(http, base, watching[1]) as again:
            first = await again.until(tg, lambda v: True, "on reconnecting")
            assert first["version"] >= moved["version"] and first["turn"] == moved["turn"]
        # A seña to his partner goes as its button in his private hand goes: during the mus it
        # is refused, by the page and by the button in the same words.
        _, view = await page.view()
        offered = view["senas"][0]
        status, refused = await page.act(
            {"sena": offered["name"], "hand": view["hand"], "tid": view["tid"]}
        )
        hand = table.hand_message(player)
        query = player.press(hand, offered["label"])
        alert = await tg.wait_answer(query)
        assert status == 409 and refused["error"] == alert["text"]
        await tg.settle()
        await table.assert_messages_current()
        said = t(LANG, f"action.{action.split()[0]}")
        assert said.split()[0].lower() in table.table_message(await table.doc()).text.lower()


async def test_without_a_page_url_there_is_no_button(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    from bot.app import MINIAPP_KEY

    redis = redis_factory.client()
    app = await apps.start()
    assert MINIAPP_KEY not in app.bot_data
    table, _users, _group = await open_table(tg, redis)
    labels = table.table_message(await table.doc()).button_texts()
    assert t(LANG, "miniapp.open") not in labels and labels


async def test_a_group_upgraded_to_a_supergroup_gets_a_link_to_its_new_chat(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    app, table, users, group, payload = await _open(tg, apps, redis_factory)
    new = tg.migrate(group)

    async def posted_there() -> Any:
        found = await read_doc(table.redis, new.id)
        shown = found[1].get("shown", {}).get("table_msg") if found else None
        return next((m for m in new.bot_messages() if m.message_id == shown), None)

    message = await tg.wait_for(posted_there, timeout=30, what="the table message there")
    now = open_button(message)
    assert read_payload(tg.tokens[0], now) == new.id and now != payload
    async with aiohttp.ClientSession() as http:
        status, view = await PageClient(http, base_url(app), init_data(tg, users[0], now)).view()
        assert status == 200 and view["seat"] is not None and view["cards"]
