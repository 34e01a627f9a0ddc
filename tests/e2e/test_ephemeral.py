"""Ephemeral messages (Bot API 10.2) in the fake Bot API, driven through bot/ephemeral.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fake_telegram import EPHEMERAL_WINDOW, Chat, FakeTelegram, User
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot import ephemeral

pytestmark = pytest.mark.e2e

KEYS = InlineKeyboardMarkup([[InlineKeyboardButton("🂠 Mis cartas", callback_data="h:1")]])


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    """A bare Bot that nobody polls for: the test presses and reads the server itself."""
    async with Bot(tg.tokens[0], base_url=tg.base_url) as bare:
        yield bare


async def _table(tg: FakeTelegram, bot: Bot) -> tuple[Chat, User, User]:
    ana, bea = tg.user("Ana"), tg.user("Bea")
    group = tg.group("Mesa", members=[ana, bea])
    await bot.send_message(group.id, "la mesa", reply_markup=KEYS)
    return group, ana, bea


async def test_seen_by_its_receiver_alone_with_buttons_edits_and_deletion(
    tg: FakeTelegram, bot: Bot
) -> None:
    group, ana, bea = await _table(tg, bot)
    assert await ephemeral.supported(bot, group.id)
    press = ana.press(group.last_bot_message(), "🂠 Mis cartas")
    shown = await ephemeral.send(
        bot, group.id, ana.id, "<b>tu mano</b>", markup=KEYS, query_id=press
    )
    (mine,) = group.ephemeral_for(ana)
    assert (mine.text, mine.raw, mine.button_texts()) == (
        "tu mano",
        "<b>tu mano</b>",
        ["🂠 Mis cartas"],
    )
    assert group.ephemeral_for(bea) == [] and [m.text for m in group.bot_messages()] == ["la mesa"]
    with pytest.raises(AssertionError, match="cannot see"):
        bea.press(mine, "🂠 Mis cartas")
    again = ana.press(mine, "🂠 Mis cartas")  # a press on the ephemeral message itself
    assert tg.callbacks[again]["message"]["ephemeral_message_id"] == shown.message_id
    await ephemeral.edit(bot, shown, "otra mano", markup=None)
    await ephemeral.edit(bot, shown, "otra mano")  # the same text: no change, no error
    assert mine.text == "otra mano" and mine.buttons() == []
    await ephemeral.delete(bot, shown)
    assert group.ephemeral_for(ana) == [] and tg.count("editEphemeralMessageText") == 2


async def test_refused_outside_the_rules(tg: FakeTelegram, bot: Bot) -> None:
    tg.expect_bad_requests = True
    group, ana, bea = await _table(tg, bot)
    stranger = tg.user("Cris")
    press = ana.press(group.last_bot_message(), "🂠 Mis cartas")
    with pytest.raises(ephemeral.Refused):  # not a member of the group
        await ephemeral.send(bot, group.id, stranger.id, "x", query_id=press)
    with pytest.raises(ephemeral.Refused):  # someone else's press
        await ephemeral.send(bot, group.id, bea.id, "x", query_id=press)
    with pytest.raises(ephemeral.Refused):  # no press, and the bot is no administrator
        await ephemeral.send(bot, group.id, ana.id, "x")
    with pytest.raises(ephemeral.Refused):  # a private chat
        await ephemeral.send(bot, ana.id, ana.id, "x", query_id=press)
    shown = await ephemeral.send(bot, group.id, ana.id, "x", query_id=press)
    tg.advance(EPHEMERAL_WINDOW + 1)
    with pytest.raises(ephemeral.Refused):  # the press is too old to send ...
        await ephemeral.send(bot, group.id, ana.id, "y", query_id=press)
    with pytest.raises(ephemeral.Refused):  # ... or to edit
        await ephemeral.edit(bot, shown, "y")
    group.bot_admin = True  # an administrator writes at any time
    await ephemeral.edit(bot, shown, "y")
    later = await ephemeral.send(bot, group.id, bea.id, "z")
    assert [m.text for m in group.ephemeral_for(ana)] == ["y"]
    assert [m.message_id for m in group.ephemeral_for(bea)] == [later.message_id]
    assert [m.text for m in group.bot_messages()] == ["la mesa"]


async def test_an_older_server_is_detected_and_nothing_stays_public(
    tg: FakeTelegram, bot: Bot
) -> None:
    tg.expect_bad_requests = True
    tg.ephemeral_supported = False
    group, ana, _ = await _table(tg, bot)
    assert not await ephemeral.supported(bot, group.id)
    press = ana.press(group.last_bot_message(), "🂠 Mis cartas")
    with pytest.raises(ephemeral.Refused):
        await ephemeral.send(bot, group.id, ana.id, "tu mano", query_id=press)
    # the server ignored the parameter and posted it to all: it is taken back at once
    assert [m.text for m in group.bot_messages()] == ["la mesa"]
    assert group.ephemeral_for(ana) == []
