"""The fake Bot API itself, driven by a bare python-telegram-bot Application (no Tapete code)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fake_telegram import FakeTelegram, html_to_text
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, Forbidden
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

pytestmark = pytest.mark.e2e


async def _hola(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat and update.message
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Uno", callback_data="b:1")]])
    await update.message.reply_text(
        f"<b>hola</b> {' '.join(context.args or [])}", parse_mode="HTML", reply_markup=keyboard
    )


async def _dm(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user and update.message
    try:
        await context.bot.send_message(update.effective_user.id, "privado")
    except Forbidden as err:
        await update.message.reply_text(f"forbidden: {err.message}")


async def _press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query and query.message
    await query.answer("solo tú", show_alert=True)
    await query.edit_message_text("pulsado", reply_markup=None)


@pytest.fixture
async def bare_app(tg: FakeTelegram) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    app = Application.builder().token(tg.tokens[0]).base_url(tg.base_url).build()
    app.add_handler(CommandHandler("hola", _hola))
    app.add_handler(CommandHandler("dm", _dm))
    app.add_handler(CallbackQueryHandler(_press))
    async with app:
        await app.start()
        assert app.updater
        await app.updater.start_polling(poll_interval=0, timeout=1)
        yield app
        await app.updater.stop()
        await app.stop()


async def test_commands_buttons_and_edits_round_trip(tg: FakeTelegram, bare_app: Any) -> None:
    ana = tg.user("Ana", "ana")
    group = tg.group("Mesa", members=[ana])
    ana.send(group, f"/hola@{tg.bot_username} mundo")
    msg = await tg.wait_for(lambda: group.bot_messages() and group.last_bot_message())
    assert msg.text == "hola mundo"
    assert msg.raw == "<b>hola</b> mundo"
    assert msg.button_texts() == ["Uno"]
    query = ana.press(msg, "Uno")
    answer = await tg.wait_answer(query)
    assert answer == {**answer, "text": "solo tú", "show_alert": True, "user_id": ana.id}
    await tg.wait_for(lambda: msg.text == "pulsado")
    assert msg.buttons() == []
    assert [v.method for v in msg.history] == ["sendMessage", "editMessageText"]
    assert tg.count("getMe") == 1 and tg.count("deleteWebhook") == 1


async def test_private_message_needs_a_started_chat(tg: FakeTelegram, bare_app: Any) -> None:
    ana = tg.user("Ana")
    group = tg.group("Mesa", members=[ana])
    ana.send(group, "/dm")
    await tg.settle()
    assert group.last_bot_message().text == (
        "forbidden: Forbidden: bot can't initiate conversation with a user"
    )
    ana.start_private("join_x")
    ana.send(group, "/dm")
    await tg.wait_for(lambda: ana.private.bot_messages())
    assert ana.private.last_bot_message().text == "privado"


async def test_errors_like_the_real_api(tg: FakeTelegram, bare_app: Any) -> None:
    tg.expect_bad_requests = True
    bot = bare_app.bot
    group = tg.group("Mesa")
    msg = await bot.send_message(group.id, "a")
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_text("a", chat_id=group.id, message_id=msg.message_id)
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(group.id, "1 < 2 & 3", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        await bot.send_message(
            group.id,
            "x",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("x", callback_data="x" * 65)]]
            ),
        )
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(group.id, 999)
    tg.fail["setmycommands"] = (400, "Bad Request: refused")
    with pytest.raises(BadRequest, match=r"(?i)refused"):
        await bot.set_my_commands([("a", "b")])
    assert html_to_text("<i>x</i> &lt;3") == "x <3"


async def test_chat_members(tg: FakeTelegram, bare_app: Any) -> None:
    ana, bea, cris = tg.user("Ana"), tg.user("Bea"), tg.user("Cris")
    group = tg.group("Mesa", members=[ana, bea], creator=ana, admins=[bea])
    bot = bare_app.bot
    assert (await bot.get_chat_member(group.id, ana.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bea.id)).status == "administrator"
    assert (await bot.get_chat_member(group.id, cris.id)).status == "left"
    admins = await bot.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [ana.id, bea.id]
