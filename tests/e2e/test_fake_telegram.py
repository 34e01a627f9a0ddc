"""The fake Bot API itself, driven by a bare python-telegram-bot Application (no Tapete code)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fake_telegram import FakeTelegram, html_to_text
from telegram import (
    Bot,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeChatMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

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


# ------------------------------------------------------------------------------ inline mode


async def _inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.inline_query
    assert query
    context.bot_data.setdefault("inline", []).append((query.query, query.chat_type))
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Ver", callback_data="ver")]])
    await query.answer(
        [
            InlineQueryResultArticle(
                "mesa-1",
                f"Mesa {query.query}",
                InputTextMessageContent(f"<b>Me apunto</b> a {query.query}", parse_mode="HTML"),
                description="2 de 4 jugadores",
            ),
            InlineQueryResultArticle(
                "mesa-2",
                "Con botón",
                InputTextMessageContent("Partida nueva"),
                reply_markup=keyboard,
            ),
        ],
        cache_time=0,
        is_personal=True,
        button=InlineQueryResultsButton("Abrir el bot", start_parameter="desde_inline"),
    )


async def _chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chosen = update.chosen_inline_result
    assert chosen
    context.bot_data.setdefault("chosen", []).append(
        (chosen.result_id, chosen.query, chosen.inline_message_id)
    )
    if chosen.inline_message_id:
        await context.bot.edit_message_text(
            "Partida creada",
            inline_message_id=chosen.inline_message_id,
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("Ver", callback_data="ver")]]),
        )


async def _via_bot(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.message
    assert msg and msg.via_bot
    context.bot_data.setdefault("via_bot", []).append((msg.text, msg.via_bot.username))


async def _inline_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query and query.inline_message_id and query.message is None
    await query.answer("visto")


async def _juego(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message
    username = context.bot.username
    keyboard = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("Buscar", switch_inline_query_current_chat="mus")],
            [InlineKeyboardButton("Invitar", switch_inline_query="envite")],
            [InlineKeyboardButton("Abrir", url=f"https://t.me/{username}?start=abrir")],
        ]
    )
    await update.message.reply_text("elige", reply_markup=keyboard)


@pytest.fixture
async def inline_app(tg: FakeTelegram) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    app = Application.builder().token(tg.tokens[0]).base_url(tg.base_url).build()
    app.add_handler(CommandHandler("juego", _juego))
    app.add_handler(InlineQueryHandler(_inline))
    app.add_handler(ChosenInlineResultHandler(_chosen))
    app.add_handler(MessageHandler(filters.VIA_BOT, _via_bot))
    app.add_handler(CallbackQueryHandler(_inline_press))
    async with app:
        await app.start()
        assert app.updater
        await app.updater.start_polling(poll_interval=0, timeout=1)
        yield app
        await app.updater.stop()
        await app.stop()


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    """A bare Bot that nobody polls for: the test reads the queued updates itself."""
    async with Bot(tg.tokens[0], base_url=tg.base_url) as bare:
        yield bare


def _queued(tg: FakeTelegram) -> list[dict[str, Any]]:
    return [u for _, u in tg.queues[tg.tokens[0]]]


async def _raw(tg: FakeTelegram, method: str, **params: Any) -> dict[str, Any]:
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{tg.base_url}{tg.tokens[0]}/{method}", json=params)
    answer: dict[str, Any] = response.json()
    return answer


async def test_inline_query_from_a_button_to_a_posted_result(
    tg: FakeTelegram, inline_app: Any
) -> None:
    me = await inline_app.bot.get_me()
    assert me.supports_inline_queries is True
    ana = tg.user("Ana", "ana")
    group = tg.group("Mesa", members=[ana])
    ana.send(group, "/juego")
    menu = await tg.wait_for(lambda: group.bot_messages() and group.last_bot_message())
    assert menu.button_texts() == ["Buscar", "Invitar", "Abrir"]

    query_id = ana.press(menu, "Buscar")  # types "@TapeteTestBot mus" in the group
    answer = await tg.wait_inline_answer(query_id)
    assert inline_app.bot_data["inline"] == [("mus", "supergroup")]
    assert answer.ids() == ["mesa-1", "mesa-2"]
    assert answer.titles() == ["Mesa mus", "Con botón"]
    assert answer.descriptions() == ["2 de 4 jugadores", None]
    assert (answer.is_personal, answer.cache_time, answer.from_cache) == (True, 0, False)
    assert answer.button == {"text": "Abrir el bot", "start_parameter": "desde_inline"}

    posted = ana.choose_inline_result(query_id, "mesa-1")
    assert (posted.text, posted.raw) == ("Me apunto a mus", "<b>Me apunto</b> a mus")
    assert posted.via_bot and posted.sender is ana and posted.inline_message_id is None
    assert group.user_messages()[-1] is posted
    await tg.wait_for(lambda: len(inline_app.bot_data.get("chosen", [])) == 1)
    assert inline_app.bot_data["chosen"] == [("mesa-1", "mus", None)]
    await tg.wait_for(lambda: inline_app.bot_data.get("via_bot"))
    assert inline_app.bot_data["via_bot"] == [("Me apunto a mus", tg.bot_username)]

    # A result with a keyboard becomes an inline message: the bot edits it by its id and
    # presses on it come with inline_message_id instead of message.
    with_keyboard = ana.choose_inline_result(query_id, "mesa-2")
    assert with_keyboard.inline_message_id
    await tg.wait_for(lambda: with_keyboard.text == "Partida creada")
    assert inline_app.bot_data["chosen"][1] == ("mesa-2", "mus", with_keyboard.inline_message_id)
    assert [v.method for v in with_keyboard.history] == ["inline", "editMessageText"]
    press = ana.press(with_keyboard, "Ver")
    assert (await tg.wait_answer(press))["text"] == "visto"

    # The button above the results opens the private chat with /start <start_parameter>.
    ana.press_results_button(query_id)
    assert ana.started and ana.private.user_messages()[-1].text == "/start desde_inline"
    await tg.settle()


async def test_switch_inline_and_url_buttons(tg: FakeTelegram, inline_app: Any) -> None:
    ana = tg.user("Ana")
    group = tg.group("Mesa", members=[ana], kind="group")
    other = tg.group("Otra", members=[ana])
    ana.send(group, "/juego")
    menu = await tg.wait_for(lambda: group.bot_messages() and group.last_bot_message())
    with pytest.raises(AssertionError, match=r"(?i)into="):
        ana.press(menu, "Invitar")
    query_id = ana.press(menu, "Invitar", into=other)
    await tg.wait_inline_answer(query_id)
    assert tg.inline_queries[query_id].chat is other
    assert inline_app.bot_data["inline"] == [("envite", "supergroup")]
    private_query = ana.inline_query(ana.private, "mus")
    await tg.wait_inline_answer(private_query)
    group_query = ana.press(menu, "Buscar")
    await tg.wait_inline_answer(group_query)
    assert inline_app.bot_data["inline"][1:] == [("mus", "sender"), ("mus", "group")]

    url = ana.press(menu, "Abrir")
    assert url == f"https://t.me/{tg.bot_username}?start=abrir"
    assert ana.opened_urls == [url]
    assert ana.private.user_messages()[-1].text == "/start abrir"
    await tg.settle()


async def test_inline_answers_are_checked_like_telegram(tg: FakeTelegram, bot: Bot) -> None:
    tg.expect_bad_requests = True
    ana = tg.user("Ana")
    group = tg.group("Mesa", members=[ana])
    article = InlineQueryResultArticle("a", "A", InputTextMessageContent("a"))

    query_id = ana.inline_query(group, "x")
    [update] = _queued(tg)
    assert update["inline_query"] == {
        "id": query_id,
        "from": ana.to_json(),
        "query": "x",
        "offset": "",
        "chat_type": "supergroup",
    }
    with pytest.raises(BadRequest, match=r"(?i)RESULT_ID_DUPLICATE"):
        await bot.answer_inline_query(query_id, [article, article])
    with pytest.raises(BadRequest, match=r"(?i)RESULT_ID_INVALID"):
        long_id = InlineQueryResultArticle("é" * 33, "A", InputTextMessageContent("a"))
        await bot.answer_inline_query(query_id, [long_id])
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        bad_html = InlineQueryResultArticle("b", "B", InputTextMessageContent("1 < 2", "HTML"))
        await bot.answer_inline_query(query_id, [bad_html])
    with pytest.raises(BadRequest, match=r"(?i)RESULTS_TOO_MUCH"):
        many = [
            InlineQueryResultArticle(str(i), "A", InputTextMessageContent("a")) for i in range(51)
        ]
        await bot.answer_inline_query(query_id, many)
    with pytest.raises(BadRequest, match=r"(?i)START_PARAM_INVALID"):
        button = InlineQueryResultsButton("Abrir", start_parameter="con espacio")
        await bot.answer_inline_query(query_id, [article], button=button)
    no_title = await _raw(
        tg,
        "answerInlineQuery",
        inline_query_id=query_id,
        results=[{"type": "article", "id": "a", "input_message_content": {"message_text": "a"}}],
    )
    assert no_title["description"] == (
        "Bad Request: can't parse inline query result: Can't find field \"title\""
    )
    assert tg.inline_answer(query_id) is None  # every refused answer left the query open

    assert await bot.answer_inline_query(query_id, [article], cache_time=7, next_offset="10")
    answer = tg.inline_answer(query_id)
    assert answer and (answer.ids(), answer.cache_time, answer.is_personal) == (["a"], 7, False)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(query_id, [article])  # answered twice
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query("12345", [article])  # unknown id
    more = ana.more_results(query_id)
    assert _queued(tg)[-1]["inline_query"]["offset"] == "10"
    tg.inline_query_timeout = 0.05
    await asyncio.sleep(0.1)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(more, [article])  # expired
    with pytest.raises(AssertionError, match=r"(?i)not answered"):
        ana.choose_inline_result(more, "a")


async def test_inline_cache_and_personal_results(tg: FakeTelegram, bot: Bot) -> None:
    ana, bea = tg.user("Ana"), tg.user("Bea")
    group = tg.group("Mesa", members=[ana, bea])
    article = InlineQueryResultArticle("a", "Para todos", InputTextMessageContent("a"))
    first = ana.inline_query(group, "mus")
    await bot.answer_inline_query(first, [article], cache_time=300)
    # Telegram answers Bea's identical query from its cache: the bot is not asked.
    cached = bea.inline_query(group, "mus")
    answer = tg.inline_answer(cached)
    assert answer and answer.from_cache and answer.titles() == ["Para todos"]
    assert len(_queued(tg)) == 1
    tg.expect_bad_requests = True
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(cached, [article])  # the bot never saw this query

    # A personal answer is cached for its user only; cache_time=0 is not cached.
    personal = InlineQueryResultArticle("p", "Solo Ana", InputTextMessageContent("p"))
    mine = ana.inline_query(group, "mis partidas")
    await bot.answer_inline_query(mine, [personal], cache_time=300, is_personal=True)
    again = ana.inline_query(group, "mis partidas")
    assert (tg.inline_answer(again) or answer).titles() == ["Solo Ana"]
    hers = bea.inline_query(group, "mis partidas")
    assert tg.inline_answer(hers) is None  # Bea's query goes to the bot
    await bot.answer_inline_query(hers, [article], cache_time=0)
    twice = bea.inline_query(group, "mis partidas")
    assert tg.inline_answer(twice) is None
    assert [u["inline_query"]["id"] for u in _queued(tg)] == [first, mine, hers, twice]


async def test_chosen_result_updates_and_inline_feedback(tg: FakeTelegram, bot: Bot) -> None:
    ana = tg.user("Ana", "ana")
    group = tg.group("Mesa")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Ver", callback_data="ver")]])
    results = [
        InlineQueryResultArticle("plain", "Texto", InputTextMessageContent("hola")),
        InlineQueryResultArticle(
            "kb", "Botón", InputTextMessageContent("con"), reply_markup=keyboard
        ),
    ]
    query_id = ana.inline_query(group, "q")
    await bot.answer_inline_query(query_id, results, cache_time=0)
    msg = ana.choose_inline_result(query_id, "plain")
    message_update, chosen_update = _queued(tg)[1:]
    assert message_update["message"]["via_bot"]["username"] == tg.bot_username
    assert message_update["message"]["from"]["id"] == ana.id
    assert message_update["message"]["text"] == "hola"
    assert chosen_update["chosen_inline_result"] == {
        "result_id": "plain",
        "from": ana.to_json(),
        "query": "q",
    }
    assert group.status_of(ana) == "member"  # posting made Ana a member
    assert msg.message_id == group.user_messages()[-1].message_id

    ana.choose_inline_result(query_id, "kb")
    inline_id = _queued(tg)[-1]["chosen_inline_result"]["inline_message_id"]
    assert "message" in _queued(tg)[-2]
    assert await bot.edit_message_text("editado", inline_message_id=inline_id) is True
    assert group.user_messages()[-1].text == "editado"

    tg.inline_feedback = False
    before = len(_queued(tg))
    ana.choose_inline_result(query_id, "plain")
    assert [list(u)[1] for u in _queued(tg)[before:]] == ["message"]

    off = FakeTelegram(supports_inline_queries=False).start()
    try:
        lone = off.user("Ana")
        with pytest.raises(AssertionError, match=r"(?i)inline mode is off"):
            lone.inline_query(lone.private, "x")
        assert off.bot_json["supports_inline_queries"] is False
    finally:
        off.stop()


async def test_keyboard_buttons_need_exactly_one_action(tg: FakeTelegram, bot: Bot) -> None:
    tg.expect_bad_requests = True
    group = tg.group("Mesa")
    keyboard = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("a", callback_data="a"),
                InlineKeyboardButton("b", url="https://x.es"),
            ],
            [InlineKeyboardButton("c", switch_inline_query="")],
            [InlineKeyboardButton("d", switch_inline_query_current_chat="")],
        ]
    )
    sent = await bot.send_message(group.id, "ok", reply_markup=keyboard)
    assert sent.reply_markup == keyboard
    for button in (
        {"text": "x", "callback_data": "a", "url": "https://x.es"},
        {"text": "x"},
        {"text": "x", "magic": "y"},
        {"text": "x", "switch_inline_query_current_chat": 3},
    ):
        answer = await _raw(
            tg,
            "sendMessage",
            chat_id=group.id,
            text="t",
            reply_markup={"inline_keyboard": [[button]]},
        )
        assert answer["ok"] is False and "inline keyboard button" in answer["description"], button
    bad_url = await _raw(
        tg,
        "sendMessage",
        chat_id=group.id,
        text="t",
        reply_markup={"inline_keyboard": [[{"text": "x", "url": "ftp://x"}]]},
    )
    assert bad_url["description"] == "Bad Request: BUTTON_URL_INVALID"


# ------------------------------------------------------------------ members and command menus


async def test_chat_member_statuses_follow_the_group(tg: FakeTelegram, bot: Bot) -> None:
    tg.expect_bad_requests = True
    ana, bea, cris, dani = tg.user("Ana"), tg.user("Bea"), tg.user("Cris"), tg.user("Dani")
    group = tg.group("Mesa", creator=ana)

    async def status(user_id: int, chat: Any = group) -> str:
        return (await bot.get_chat_member(chat.id, user_id)).status

    assert [await status(u.id) for u in (ana, bea, cris)] == ["creator", "left", "left"]
    bea.send(group, "hola")  # writing in the group makes Bea a member
    group.add(cris)
    assert [await status(u.id) for u in (bea, cris)] == ["member", "member"]
    group.promote(cris)
    assert await status(cris.id) == "administrator"
    group.remove(bea)
    group.remove(dani, ban=True)
    assert [await status(u.id) for u in (bea, dani)] == ["left", "kicked"]
    assert await status(tg.bot_id) == "member"
    assert await status(ana.id, ana.private) == "member"
    assert [a.user.id for a in await bot.get_chat_administrators(group.id)] == [ana.id, cris.id]
    admin_group = tg.group("Admin", bot_admin=True)
    assert await status(tg.bot_id, admin_group) == "administrator"
    with pytest.raises(BadRequest, match=r"(?i)user not found"):
        await bot.get_chat_member(group.id, 42)
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.get_chat_member(-100999, ana.id)


async def test_command_menus_per_scope_and_language(tg: FakeTelegram, bot: Bot) -> None:
    tg.expect_bad_requests = True
    ana, bea = tg.user("Ana"), tg.user("Bea", language_code="en")
    group = tg.group("Mesa", members=[ana, bea], admins=[ana])
    await bot.set_my_commands([("ayuda", "Ayuda")])
    await bot.set_my_commands([("help", "Help")], language_code="en")
    await bot.set_my_commands([("start", "Empezar")], scope=BotCommandScopeAllPrivateChats())
    await bot.set_my_commands(
        [("nueva", "Nueva partida"), ("reglas", "Reglas")], scope=BotCommandScopeAllGroupChats()
    )
    await bot.set_my_commands([("cerrar", "Cerrar")], scope=BotCommandScopeAllChatAdministrators())
    await bot.set_my_commands(
        [("mesa", "Mesa")], scope=BotCommandScopeChat(group.id), language_code="en"
    )

    got = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
    assert [(c.command, c.description) for c in got] == [
        ("nueva", "Nueva partida"),
        ("reglas", "Reglas"),
    ]
    assert [c.command for c in await bot.get_my_commands()] == ["ayuda"]
    assert [c.command for c in await bot.get_my_commands(language_code="en")] == ["help"]
    assert await bot.get_my_commands(scope=BotCommandScopeAllGroupChats(), language_code="en") == ()
    assert tg.my_commands({"type": "all_private_chats"}) == [
        {"command": "start", "description": "Empezar"}
    ]

    assert tg.menu(ana.private, ana) == ["start"]
    assert tg.menu(group, ana) == ["cerrar"]  # an administrator
    assert tg.menu(group, bea) == ["mesa"]  # the group's English menu
    await bot.delete_my_commands(scope=BotCommandScopeChat(group.id), language_code="en")
    assert tg.menu(group, bea) == ["nueva", "reglas"]
    await bot.delete_my_commands(scope=BotCommandScopeAllPrivateChats())
    assert tg.menu(bea.private, bea) == ["help"]

    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([("Nueva", "x")])
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_DESCRIPTION_INVALID"):
        await bot.set_my_commands([("nueva", "")])
    with pytest.raises(BadRequest, match=r"(?i)LANG_CODE_INVALID"):
        await bot.set_my_commands([("nueva", "x")], language_code="spa")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.set_my_commands([("nueva", "x")], scope=BotCommandScopeChat(-100999))
    with pytest.raises(BadRequest, match=r"(?i)user not found"):
        await bot.get_my_commands(scope=BotCommandScopeChatMember(group.id, 42))
    unknown = await _raw(tg, "getMyCommands", scope={"type": "all_channels"})
    assert unknown["description"] == "Bad Request: can't parse BotCommandScope JSON object"
