"""Inline mode: a player opens his own playable cards in the group and plays one by choosing it.

The table message's "play a card" button types ``@bot <tid>`` in the group
(``switch_inline_query_current_chat``). An inline query carries no chat id, so the bot finds the
player's table among the tables he sits at (:meth:`~bot.store.Store.user_tables`), the one
with that ``tid`` (any, when typed alone). Results are personal and never cached: only the
asking player's legal moves at this turn (the game's :meth:`~bot.games.base.Game.inline_cards`).
Each result id carries ``<chat>:<tid>:<turn>:<action>``, so a stale choice is refused. Choosing a
result posts its text in the group "via @bot" and sends a ``chosen_inline_result`` update (needs
BotFather's inline feedback), which plays the move like a table button.
"""

from __future__ import annotations

from telegram import (
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode

from bot.games import senas as signs
from bot.games.render import error_text
from bot.handlers import senas as sending
from bot.handlers.common import (
    Context,
    chat_lang,
    publisher_of,
    services,
    start_dm_ok,
)
from bot.handlers.play import play
from bot.services import Services
from bot.table import Table
from bot.tables import read_table
from engine.core import IllegalAction
from engine.senas_play import parse_sena
from locales import t

START_PARAMETER = "inline"
"""``/start`` payload of the button shown above empty inline results (opens the bot's chat)."""
MAX_RESULT_ID = 64


def result_id(table: Table, action: str, token: int | None = None) -> str:
    """``<chat>:<tid>:<turn>:<action>``: what a chosen result plays, and at which turn (for a
    seña: in which hand, ``token``; it may be made at any moment of the hand).

    >>> result_id(Table(chat_id=-100, creator=1, tid="ab12", turn=7), "tiro 12o")
    '-100:ab12:7:tiro 12o'
    """
    rid = f"{table.chat_id}:{table.tid}:{table.turn if token is None else token}:{action}"
    if len(rid.encode()) > MAX_RESULT_ID:
        raise ValueError("inline result id too long")
    return rid


def parse_result_id(rid: str) -> tuple[int, str, int, str] | None:
    """Read back :func:`result_id`; ``None`` when malformed.

    >>> parse_result_id("-100:ab12:7:tiro 12o"), parse_result_id("x")
    ((-100, 'ab12', 7, 'tiro 12o'), None)
    """
    parts = rid.split(":", 3)
    if len(parts) != 4:
        return None
    try:
        return int(parts[0]), parts[1], int(parts[2]), parts[3]
    except ValueError:
        return None


async def _tables_of(svc: Services, user_id: int, tid: str) -> list[Table]:
    """The playing tables the user sits at (only the one with ``tid`` when given)."""
    found = []
    for chat_id in await svc.store.user_tables(user_id):
        table = await read_table(svc, chat_id)
        if table is None or table.status != "playing" or table.seat_of(user_id) is None:
            continue
        if tid and table.tid != tid:
            continue
        found.append(table)
    return found


async def inline_query(update: Update, context: Context) -> None:
    """Answer ``@bot <tid>`` with the asking player's playable cards (personal, not cached)."""
    query, user = update.inline_query, update.effective_user
    if query is None or user is None:
        return
    svc = services(context)
    words = query.query.strip().split(" ")
    wants_senas = len(words) > 1 and words[1] == signs.INLINE_WORD
    tables = await _tables_of(svc, user.id, words[0][:16])
    lang = tables[0].lang if tables else svc.settings.language
    results: list[InlineQueryResultArticle] = []
    for table in tables:
        seat = table.seat_of(user.id)
        assert seat is not None
        if wants_senas:
            choices, token = signs.inline_choices(table, seat), table.hand
        else:
            choices, token = table.adapter.inline_cards(table, seat), table.turn
        for choice in choices:
            results.append(
                InlineQueryResultArticle(
                    id=result_id(table, choice.action, token),
                    title=choice.title,
                    description=choice.description,
                    input_message_content=InputTextMessageContent(
                        choice.text, parse_mode=ParseMode.HTML
                    ),
                )
            )
        if results:
            break
    button = None
    if not results:
        key = "inline.no_table"
        if tables:
            key = "senas.inline.nothing" if wants_senas else "inline.nothing"
        button = InlineQueryResultsButton(t(lang, key), start_parameter=START_PARAMETER)
    await query.answer(results, cache_time=0, is_personal=True, button=button)


async def chosen_result(update: Update, context: Context) -> None:
    """A player chose one of his inline results: play it (a stale or illegal choice is refused
    in private; the group only sees the move he posted himself)."""
    chosen, user = update.chosen_inline_result, update.effective_user
    if chosen is None or user is None:
        return
    parsed = parse_result_id(chosen.result_id)
    if parsed is None:
        return
    chat_id, tid, turn, action = parsed
    svc = services(context)
    try:
        sena = parse_sena(action)
        if sena is not None:  # ``turn`` is the hand the seña was offered in
            table = await sending.send(
                svc, chat_id, tid, turn, user.id, sena.name or "", update=update
            )
            await start_dm_ok(context.bot, user.id, signs.sent_text(table, sena.name or ""))
            await publisher_of(context).publish(chat_id)
            return
        table, _step, _seat = await play(svc, chat_id, user.id, action, turn, tid, update=update)
    except IllegalAction as exc:
        lang = await chat_lang(svc, chat_id)
        await start_dm_ok(context.bot, user.id, error_text(lang, exc))
        return
    await publisher_of(context).publish(table.chat_id)
