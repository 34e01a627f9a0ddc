"""Opening, joining, leaving, starting and cancelling a table (``/nueva`` ... ``/cancelar``)."""

from __future__ import annotations

import secrets
from typing import Any

from telegram import Bot, Chat, Update
from telegram.constants import ChatMemberStatus

from bot import keyboards, present
from bot.flow import moves, seating
from bot.games import render, timing
from bot.games.base import OptionError
from bot.games.registry import DEFAULT_GAME, GAMES, find_game
from bot.games.render import error_text
from bot.handlers import computers, mine
from bot.handlers.common import (
    Context,
    alert,
    answer,
    can_write_to,
    change_table,
    chat_lang,
    display_name,
    first_delivery,
    is_member,
    new_tid,
    now,
    publisher_of,
    reply,
    services,
)
from bot.miniapp.auth import startapp_link
from bot.services import Services
from bot.table import Step, Table
from bot.tables import current_table, load_doc, peek, read_table
from engine.core import IllegalAction
from locales import language_of, t

JOIN_PREFIX = "join_"
FILLABLE = frozenset({"not_enough_players", "uneven_teams"})
"""Start refusals that computer players can mend (``/empezar`` offers them)."""


def _is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)


async def nueva(update: Update, context: Context) -> None:
    """``/nueva <juego> [opciones]``: open a table (one per group) and post the lobby; alone it
    offers the games as buttons; an option word alone means mus (``/nueva 30``)."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await chat_lang(svc, chat.id)
    if not _is_group(chat):
        await reply(update, t(lang, "error.group_only"))
        return
    try:
        level, words = computers.take_level(list(context.args or []))
    except computers.LevelError as exc:
        await reply(update, t(lang, "bots.bad_level", word=render.esc(exc.word[:30])))
        return
    try:
        seconds, words = timing.split_time(words)
    except OptionError:
        await reply(update, t(lang, "phone.bad_time"), svc=svc)
        return
    if not words and level is None and seconds is None:
        current = await read_table(svc, chat.id)
        if current is not None and current.active:
            await _refuse(svc, update, lang, IllegalAction("table_exists"))
        else:
            await reply(update, t(lang, "msg.choose_game"), keyboards.games_keyboard(lang))
        return
    game = find_game(words[0]) if words else None
    if game is not None:
        words.pop(0)
    else:
        try:
            GAMES[DEFAULT_GAME].parse_options(words)
        except OptionError:
            names = ", ".join(GAMES)
            word = render.esc(words[0][:30])
            await reply(update, t(lang, "error.unknown_game", word=word, games=names), svc=svc)
            return
        game = GAMES[DEFAULT_GAME]
    try:
        options = game.parse_options(words)
    except OptionError as exc:
        refusal = game.texts.say(lang, game.texts.bad_option, word=render.esc(exc.word))
        await reply(update, refusal, svc=svc)
        return
    await open_table(
        update, context, chat, user.id, game.name, options, lang, level=level, turn_time=seconds
    )


async def open_table(
    update: Update,
    context: Context,
    chat: Chat,
    user_id: int,
    game: str,
    options: dict[str, Any],
    lang: str,
    *,
    level: str | None = None,
    turn_time: float | None = None,
) -> None:
    """Create the table document (refused while another is active) and post its lobby, with
    its creator seated if the bot can write to him in private (he may leave before the start)."""
    svc = services(context)
    name = display_name(update)
    known = load_doc(await svc.store.cached(chat.id))  # maybe stale: the write checks again
    if known is not None and known.active:
        await _refuse(svc, update, lang, IllegalAction("table_exists"))
        return
    # He can be seated when he can see his hand: in private, or in the group (mine.py).
    dm = await can_write_to(context.bot, user_id)
    seat_creator = dm or await mine.usable(svc, context.bot, chat.id)
    fresh = Table(
        chat_id=chat.id,
        creator=user_id,
        tid=new_tid(),
        join_key=secrets.token_hex(8),
        title=(chat.title or "")[:64],
        game=game,
        options=options,
        lang=lang,
        compact_cards=(await svc.store.get_prefs(f"chat:{chat.id}")).get("cards") == "compact",
        level=level or "normal",
        turn_time=turn_time or 0.0,
        turn_seconds=round(turn_time or svc.settings.turn_timeout),
        nudge_after=svc.settings.nudge_after,
        bot_name=context.bot.username or "",
        app_link=_app_link(svc, context.bot.username, chat.id),
    )

    def create(current: Table | None) -> tuple[Table | None, Table]:
        if current is not None and current.active:
            raise IllegalAction("table_exists")
        table = fresh.model_copy(deep=True)
        if seat_creator:
            table.join(user_id, name)
            if dm:
                present.joined(table, user_id)
        return table, table

    users = (user_id,) if seat_creator else ()
    try:
        table = await change_table(svc, chat.id, create, update=update, users=users, publish=True)
    except IllegalAction as exc:
        await _refuse(svc, update, lang, exc)
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)


def _app_link(svc: Services, bot_name: str | None, chat_id: int) -> str:
    """The table's Mini App link when the bot serves the page (``TAPETE_WEBAPP_URL``)."""
    if not svc.settings.webapp_url or not bot_name:
        return ""
    return startapp_link(svc.settings.telegram_bot_token, bot_name, chat_id)


async def game_button(update: Update, context: Context) -> None:
    """A game chosen from the buttons of ``/nueva`` alone (default options)."""
    query = update.callback_query
    chat, user = update.effective_chat, update.effective_user
    if query is None or query.data is None or chat is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    svc = services(context)
    lang = await chat_lang(svc, chat.id)
    if cb is None or not cb.args or not _is_group(chat):
        await alert(update, error_text(lang, IllegalAction("stale"), plain=True))
        return
    game = GAMES[cb.args[0]]
    await open_table(update, context, chat, user.id, game.name, game.parse_options([]), lang)


def deep_link(bot: Bot, table: Table) -> str:
    """``t.me/<bot>?start=join_<chat>_<key>``: the key is the table's own secret."""
    return f"https://t.me/{bot.username}?start={JOIN_PREFIX}{table.chat_id}_{table.join_key}"


def parse_join(arg: str) -> tuple[int, str] | None:
    """``join_-100123_ab12`` → ``(-100123, "ab12")``; ``None`` when malformed.

    >>> parse_join("join_-100123_ab12"), parse_join("join_-100123"), parse_join("join_x_y")
    ((-100123, 'ab12'), None, None)
    """
    chat, sep, key = arg.removeprefix(JOIN_PREFIX).partition("_")
    try:
        return (int(chat), key) if sep and key else None
    except ValueError:
        return None


async def _join(
    update: Update, context: Context, chat_id: int, *, by_button: bool, team: int | None = None
) -> None:
    """Seat the user if he can see his hand (the bot can write to him in private, or show it
    to him in the group: :mod:`bot.handlers.mine`), else hand him the deep link."""
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    name = display_name(update)

    def dry_run(table: Table | None) -> Table:  # on a copy: the real join is the CAS below
        if table is None or not table.active:
            raise IllegalAction("no_table")
        table.join(user.id, name)
        return table

    try:
        table = await peek(svc, chat_id, dry_run)
        lang = table.lang
        if by_button and not await is_member(context.bot, chat_id, user.id):
            # As a deep link: someone who can see the lobby (a public group) but is not in it.
            raise IllegalAction("security.join_not_member")
        dm = await can_write_to(context.bot, user.id, svc)
        if not dm and not await mine.usable(svc, context.bot, chat_id):
            link = deep_link(context.bot, table)
            if by_button and update.callback_query is not None:
                await answer(update, t(lang, "msg.join_link_alert"), url=link)
            else:
                text = t(lang, "msg.join_link", name=render.esc(name), link=link)
                await reply(update, text, keyboards.link_keyboard(lang, link))
            return
        table = await seat_user(svc, chat_id, user.id, name, update=update, team=team, dm=dm)
    except IllegalAction as exc:
        if not await first_delivery(svc, update, chat_id):
            return  # a re-delivered join that already seated the user
        lang = await chat_lang(svc, chat_id)
        if by_button:
            await alert(update, error_text(lang, exc, plain=True))
        else:
            await reply(update, error_text(lang, exc), svc=svc)
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)


async def seat_user(
    svc: Services,
    chat_id: int,
    user_id: int,
    name: str,
    *,
    update: Update | None = None,
    team: int | None = None,
    key: str | None = None,
    dm: bool = True,
) -> Table:
    """Seat a user (with ``key``: only at the table that link was made for); ``dm``: he is
    told so in private (he opened that chat)."""

    def fn(table: Table | None) -> tuple[Table | None, Table]:
        if table is None or not table.active or (key is not None and table.join_key != key):
            raise IllegalAction("no_table")
        table.join(user_id, name)
        if team is not None and table.adapter.features.teams:
            table.choose_team(user_id, team, joining=True)
        if dm:
            present.joined(table, user_id)
        return table, table

    # The user's table list is updated in the same write (no extra round trip).
    return await change_table(svc, chat_id, fn, update=update, users=(user_id,), publish=True)


async def unirme(update: Update, context: Context) -> None:
    """``/unirme``: take a seat."""
    chat = update.effective_chat
    if chat is None:
        return
    if not _is_group(chat):
        lang = await chat_lang(services(context), chat.id)
        await reply(update, t(lang, "error.group_only"))
        return
    await _join(update, context, chat.id, by_button=False)


async def start_private(update: Update, context: Context) -> None:
    """``/start`` in private: completes a join from a deep link, else says hello.

    The link must carry the table's own key (a guessed or old link seats nobody), and the user
    must be a member of the group now: an outsider never gets a table's private hand.
    """
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    arg = (context.args or [""])[0]
    own = language_of(user.language_code) if user.language_code else svc.settings.language
    if not arg.startswith(JOIN_PREFIX):
        await reply(update, t(own, "msg.started_private"))
        return
    parsed = parse_join(arg)
    current = None if parsed is None else await read_table(svc, parsed[0])
    if parsed is None or current is None or not current.join_key:
        await reply(update, t(own, "security.join_bad_link"))
        return
    chat_id, key = parsed
    if not secrets.compare_digest(key, current.join_key):
        await reply(update, t(own, "security.join_bad_link"))
        return
    if not await is_member(context.bot, chat_id, user.id):
        await reply(update, t(own, "security.join_not_member"))
        return
    try:
        table = await seat_user(svc, chat_id, user.id, display_name(update), update=update, key=key)
    except IllegalAction as exc:
        await reply(update, error_text(current.lang, exc))
        return
    await publisher_of(context).publish(table.chat_id)


async def _leave(update: Update, context: Context, chat_id: int) -> None:
    svc = services(context)
    user = update.effective_user
    if user is None:
        return

    at, name = now(svc), display_name(update)

    def fn(table: Table | None) -> tuple[Table | None, Table]:
        if table is None or not table.active:
            raise IllegalAction("no_table")
        if table.status == "playing":  # mid-game: the seat waits for someone ("Sentarme")
            seating.free_seat(table, user.id, at, svc.settings.pause)
            present.seat_left(table, name)
        else:
            table.leave(user.id)
        return table, table

    try:
        table = await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(svc, update, await chat_lang(svc, chat_id), exc)
        return
    await svc.store.remove_user_table(user.id, chat_id)
    await answer(update)
    await publisher_of(context).publish(table.chat_id)


async def salir(update: Update, context: Context) -> None:
    """``/salir``: leave a seat (mid-game the seat waits for someone to take it)."""
    if update.effective_chat is not None:
        await _leave(update, context, update.effective_chat.id)


async def _go(update: Update, context: Context, chat_id: int) -> None:
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    seed = secrets.randbits(31)
    at = now(svc)

    def fn(table: Table | None) -> tuple[Table | None, tuple[Table, Step]]:
        if table is None or not table.active:
            raise IllegalAction("no_table")
        if table.seat_of(user.id) is None and table.creator != user.id:
            raise IllegalAction("not_seated")
        step = moves.start(table, seed, at, svc.settings.turn_timeout, svc.settings.pause)
        present.post(table, step)
        return table, (table, step)

    try:
        table, _step = await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        lang = await chat_lang(svc, chat_id)
        if exc.reason in FILLABLE and update.callback_query is None:
            current = await read_table(svc, chat_id)
            if current is not None and current.status == "lobby":
                if await first_delivery(svc, update, chat_id):
                    await reply(update, error_text(lang, exc), keyboards.fill_keyboard(current))
                return
        await _refuse(svc, update, lang, exc)
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)


async def empezar(update: Update, context: Context) -> None:
    """``/empezar``: deal the first hand when every seat is taken."""
    if update.effective_chat is not None:
        await _go(update, context, update.effective_chat.id)


async def _cancel(update: Update, context: Context, chat_id: int) -> None:
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    lang = await chat_lang(svc, chat_id)
    table = await read_table(svc, chat_id)
    if table is None or not table.active:
        await _refuse(svc, update, lang, IllegalAction("no_table"))
        return
    if user.id != table.creator and not await _is_admin(context.bot, chat_id, user.id):
        await _refuse(svc, update, lang, IllegalAction("not_creator"))
        return
    tid = table.tid

    who = display_name(update)

    def fn(current: Table | None) -> tuple[Table | None, Table]:
        if current is None or current.tid != tid or not current.active:
            raise IllegalAction("no_table")
        current.cancel()
        present.cancelled(current, who)
        return current, current

    try:
        table = await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(svc, update, lang, exc)
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)


async def _is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except Exception:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def cancelar(update: Update, context: Context) -> None:
    """``/cancelar``: the creator or a group admin ends the table."""
    if update.effective_chat is not None:
        await _cancel(update, context, update.effective_chat.id)


async def _refuse(svc: Services, update: Update, lang: str, exc: IllegalAction) -> None:
    """Answer a refusal, unless the update is a re-delivery (it was handled already)."""
    if not await first_delivery(svc, update):
        return
    if update.callback_query is not None:
        await alert(update, error_text(lang, exc, plain=True))
    else:
        await reply(update, error_text(lang, exc), svc=svc)


async def lobby_button(update: Update, context: Context) -> None:
    """Lobby buttons: Unirme / Salir / Empezar / Cancelar."""
    query = update.callback_query
    if query is None or query.data is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None:
        await answer(update)
        return
    svc = services(context)
    try:
        await peek(svc, cb.chat_id, lambda table: current_table(table, cb.tid))
    except IllegalAction as exc:
        lang = await chat_lang(svc, cb.chat_id)
        await alert(update, error_text(lang, exc, plain=True))
        return
    if cb.kind == "j":
        await _join(update, context, cb.chat_id, by_button=True)
    elif cb.kind == "l":
        await _leave(update, context, cb.chat_id)
    elif cb.kind == "g":
        await _go(update, context, cb.chat_id)
    elif cb.kind == "x":
        await _cancel(update, context, cb.chat_id)
    elif cb.kind == "e" and cb.token is not None:
        await _choose_team(update, context, cb.chat_id, cb.token)


async def _choose_team(update: Update, context: Context, chat_id: int, team: int) -> None:
    """A lobby team button: sit in that team (taking a seat first if the user has none)."""
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    table = await read_table(svc, chat_id)
    if table is not None and table.seat_of(user.id) is None:
        await _join(update, context, chat_id, by_button=True, team=team)
        return

    def fn(current: Table | None) -> tuple[Table | None, Table]:
        if current is None or not current.active:
            raise IllegalAction("no_table")
        current.choose_team(user.id, team)
        return current, current

    try:
        table = await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(svc, update, await chat_lang(svc, chat_id), exc)
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)
