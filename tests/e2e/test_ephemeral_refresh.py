"""Ephemeral hands kept current after the others' moves (issue 24): a bot that is an
administrator of the group edits them at any time, one that is not only within the window of
the player's own last press (real Application, fake Bot API, Redis).

Four people who never opened a private chat open their hands ("Mis cartas") in the mus round;
three say mus, the clocks move past the window, and the fourth's mus starts the discard: the
three others' hands get their discard toggles where the bot is an administrator, and nothing is
tried where it is not (their next press brings the toggles, as before).
"""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from conftest import ShiftedClock
from driver import LANG, MusTable
from fake_telegram import EPHEMERAL_WINDOW, FakeTelegram
from group_driver import open_own_hand, own_hand, seated_without_private_chats
from webapp import PageClient, base_url, init_data, open_button, webapp_settings

import engine.mus as mus
from bot.games.render import card_name

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("admin", [True, False], ids=["administrator", "member"])
async def test_the_discard_toggles_reach_hands_whose_window_passed(
    tg: FakeTelegram, apps: Any, redis_factory: Any, admin: bool
) -> None:
    redis = redis_factory.client()
    clock = ShiftedClock()
    await apps.start(clock=clock)
    users, group, _lobby = await seated_without_private_chats(tg, redis)
    group.bot_admin = admin
    table = MusTable(tg, group, users, redis)
    doc = await table.doc()
    state = await table.state()
    for seat in range(4):
        await open_own_hand(tg, table, table.seat_user(doc, seat))
    order = []
    for _ in range(3):
        state = await table.state()
        seat = state.to_act[0]
        order.append(seat)
        mus_ = next(a for a in mus.legal_actions(state, seat) if a.kind == "mus")
        await table.act(seat, mus_, "button")
    await tg.settle()
    clock.advance(EPHEMERAL_WINDOW + 5)  # the three presses are older than the window now
    tg.advance(EPHEMERAL_WINDOW + 5)
    mark = tg.mark()
    state = await table.state()
    last = state.to_act[0]
    mus_ = next(a for a in mus.legal_actions(state, last) if a.kind == "mus")
    await table.act(last, mus_, "button")
    await tg.settle()
    state = await table.state()
    assert state.phase == "discard"
    calls = tg.calls[mark:]
    for seat in order:
        user = table.seat_user(doc, seat)
        first = card_name(LANG, str(mus.view(state, seat).to_dict()["cards"][0]))
        toggles = f"▫️ {first}" in own_hand(group, user).button_texts()
        assert toggles is admin, (user.first_name, own_hand(group, user).button_texts())
    edits = [c for c in calls if c.method == "editEphemeralMessageText"]
    assert all(c.ok for c in edits), "nothing is tried that Telegram refuses"
    looks = [c for c in calls if c.method == "getChatMember"]
    assert len(looks) == 1, "the bot's status is asked once, then trusted for a while"
    if not admin:  # his own next press brings the toggles, as before
        user = table.seat_user(doc, order[0])
        mine = await open_own_hand(tg, table, user)
        first = card_name(LANG, str(mus.view(state, order[0]).to_dict()["cards"][0]))
        assert f"▫️ {first}" in mine.button_texts()


async def test_a_move_from_the_mini_app_reaches_the_hands_in_the_group(
    tg: FakeTelegram, apps: Any, redis_factory: Any
) -> None:
    """The fourth mus comes from the table's Mini App page, not from a button: the others'
    hands in the group get their discard toggles all the same (a page's move is a press)."""
    redis = redis_factory.client()
    clock = ShiftedClock()
    app = await apps.start(clock=clock, **webapp_settings())
    users, group, _lobby = await seated_without_private_chats(tg, redis)
    group.bot_admin = True
    table = MusTable(tg, group, users, redis)
    doc = await table.doc()
    payload = open_button(table.table_message(doc))
    for seat in range(4):
        await open_own_hand(tg, table, table.seat_user(doc, seat))
    order = []
    for _ in range(3):
        state = await table.state()
        order.append(state.to_act[0])
        mus_ = next(a for a in mus.legal_actions(state, state.to_act[0]) if a.kind == "mus")
        await table.act(state.to_act[0], mus_, "button")
    await tg.settle()
    clock.advance(EPHEMERAL_WINDOW + 5)
    tg.advance(EPHEMERAL_WINDOW + 5)
    doc = await table.doc()
    last = (await table.state()).to_act[0]
    async with aiohttp.ClientSession() as http:
        page = PageClient(http, base_url(app), init_data(tg, table.seat_user(doc, last), payload))
        status, moved = await page.act({"action": "mus", "turn": doc["turn"], "tid": doc["tid"]})
    assert status == 200, moved
    await tg.settle()
    state = await table.state()
    assert state.phase == "discard"
    for seat in order:
        user = table.seat_user(doc, seat)
        first = card_name(LANG, str(mus.view(state, seat).to_dict()["cards"][0]))
        assert f"▫️ {first}" in own_hand(group, user).button_texts(), user.first_name
