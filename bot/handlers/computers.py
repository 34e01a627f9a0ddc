"""Computer players at a table: ``/maquina`` (and the lobby button), filling the free seats at
the start, the level word of ``/nueva``, and "Vuelvo" (``/vuelvo``) for a person the computer
played for. Their moves are made by the turn timer (:func:`bot.flow.moves.fire_timer`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from telegram import Update

from bot import keyboards, present
from bot.flow import moves, seating
from bot.games import render
from bot.games.render import error_text
from bot.handlers.common import (
    Context,
    alert,
    answer,
    change_table,
    chat_lang,
    first_delivery,
    now,
    publisher_of,
    reply,
    services,
)
from bot.table import LEVELS, Table
from bot.tables import current_table, peek
from engine.core import IllegalAction, normalize
from locales import t

LEVEL_KEYS = ("nivel", "level")
LEVEL_WORDS = {"facil": "facil", "easy": "facil", "normal": "normal"}


class LevelError(ValueError):
    """A ``nivel=`` word with an unknown level (``word`` is shown to the user)."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


def take_level(words: Sequence[str]) -> tuple[str | None, list[str]]:
    """Take the level word out of ``/nueva``'s words (the rest are the game's options).

    >>> take_level(["envite", "nivel=fácil", "chicos=1"])
    ('facil', ['envite', 'chicos=1'])
    >>> take_level(["mus"])
    (None, ['mus'])
    """
    level: str | None = None
    rest: list[str] = []
    for word in words:
        key, sep, value = word.partition("=")
        if sep and normalize(key) in LEVEL_KEYS:
            found = LEVEL_WORDS.get(normalize(value))
            if found is None or found not in LEVELS:
                raise LevelError(word)
            level = found
        else:
            rest.append(word)
    return level, rest


def parse_team(words: Sequence[str]) -> int | None:
    """``/maquina 2`` → team index 1; no word → ``None`` (the team with fewer players).

    >>> parse_team(["2"]), parse_team([])
    (1, None)
    """
    if not words:
        return None
    if words[0] in ("1", "2"):
        return int(words[0]) - 1
    raise ValueError(words[0])


def _may_seat(table: Table, user_id: int) -> None:
    if table.seat_of(user_id) is None and table.creator != user_id:
        raise IllegalAction("not_seated")


async def maquina(update: Update, context: Context) -> None:
    """``/maquina [equipo]`` (``/addbot``): a computer player takes a free seat."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    try:
        team = parse_team(list(context.args or []))
    except ValueError as exc:
        lang = await chat_lang(svc, chat.id)
        await reply(update, t(lang, "bots.bad_team", word=render.esc(str(exc)[:30])))
        return
    await _add(update, context, chat.id, user.id, team)


async def _add(
    update: Update, context: Context, chat_id: int, user_id: int, team: int | None
) -> None:
    svc = services(context)

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or not table.active:
            raise IllegalAction("no_table")
        _may_seat(table, user_id)
        table.add_computer(team)
        return table, None

    try:
        await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(update, context, chat_id, exc)
        return
    await answer(update)
    await publisher_of(context).publish(chat_id)


async def fill_and_start(update: Update, context: Context, chat_id: int) -> None:
    """The "complete with computers" button: computer players in the free seats, then start."""
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    seed, at, settings = secrets.randbits(31), now(svc), svc.settings

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.status != "lobby":
            raise IllegalAction("stale")
        _may_seat(table, user.id)
        table.fill_with_computers()
        present.post(table, moves.start(table, seed, at, settings.turn_timeout, settings.pause))
        return table, None

    try:
        await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(update, context, chat_id, exc)
        return
    await answer(update)
    await publisher_of(context).publish(chat_id)


async def vuelvo(update: Update, context: Context) -> None:
    """``/vuelvo`` (``/back``) in the group: take my seat back from the computer."""
    if update.effective_chat is not None:
        await _back(update, context, update.effective_chat.id)


async def _back(update: Update, context: Context, chat_id: int) -> None:
    svc = services(context)
    user = update.effective_user
    if user is None:
        return
    at, settings = now(svc), svc.settings

    def fn(table: Table | None) -> tuple[Table | None, Table]:
        if table is None or table.status != "playing":
            raise IllegalAction("no_table")
        seating.come_back(table, user.id, at, settings.turn_timeout, settings.pause)
        return table, table

    try:
        table = await change_table(svc, chat_id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await _refuse(update, context, chat_id, exc)
        return
    if update.callback_query is not None:
        await answer(update, t(table.lang, "bots.welcome"))
    else:
        seat = table.seat_of(user.id)
        name = table.players[seat].name if seat is not None else ""
        await reply(update, t(table.lang, "bots.returned", name=render.esc(name)))
    await publisher_of(context).publish(chat_id)


async def button(update: Update, context: Context) -> None:
    """Buttons: add a computer (``b``), fill and start (``f``), "Vuelvo" (``v``)."""
    query = update.callback_query
    user = update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None:
        await answer(update)
        return
    svc = services(context)
    try:
        await peek(svc, cb.chat_id, lambda table: current_table(table, cb.tid))
    except IllegalAction as exc:
        await alert(update, error_text(await chat_lang(svc, cb.chat_id), exc))
        return
    if cb.kind == "b":
        await _add(update, context, cb.chat_id, user.id, None)
    elif cb.kind == "f":
        await fill_and_start(update, context, cb.chat_id)
    elif cb.kind == "v":
        await _back(update, context, cb.chat_id)


async def _refuse(update: Update, context: Context, chat_id: int, exc: IllegalAction) -> None:
    svc = services(context)
    if not await first_delivery(svc, update, chat_id):
        return
    text = error_text(await chat_lang(svc, chat_id), exc)
    if update.callback_query is not None:
        await alert(update, text)
    else:
        await reply(update, text)
