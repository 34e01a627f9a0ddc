"""What each message shows: the lobby, the table message and each seat's private hand, as
text and buttons rendered from the stored table (the publisher posts and edits them)."""

from __future__ import annotations

import hashlib
import json

from telegram import InlineKeyboardMarkup

from bot import keyboards
from bot.games import render
from bot.table import Table

Render = tuple[str, InlineKeyboardMarkup | None]


def digest(render_: Render) -> str:
    text, markup = render_
    data = json.dumps([text, None if markup is None else markup.to_dict()], sort_keys=True)
    return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


def lobby_view(table: Table) -> Render:
    """The lobby message (its buttons only while the lobby is open)."""
    markup = keyboards.lobby_keyboard(table) if table.status == "lobby" else None
    return render.lobby_text(table), markup


def table_view(table: Table) -> Render:
    """The table message (its buttons only while the game is played; "Otra partida" and the
    game's result when it is over)."""
    markup = keyboards.table_keyboard(table) if table.status == "playing" else None
    text = table.adapter.table_text(table)
    if table.status == "over":
        markup = keyboards.over_keyboard(table)
        text = render.with_result(text, table.shown.final or "")
    return text, markup


def hand_markup(table: Table, seat: int) -> InlineKeyboardMarkup | None:
    """The private hand's buttons: the discard toggles in a discard, else the game's own."""
    if table.status != "playing":
        return None
    game = table.adapter
    state = table.engine_state()
    if game.in_discard(state):
        if seat not in game.to_act(state):
            return None
        cards = game.seat_cards(table, seat)
        return keyboards.discard_keyboard(table, cards, table.discards.get(str(seat), []))
    rows = keyboards.game_rows(table, game.hand_buttons(table, seat)) + keyboards.sena_rows(
        table, seat
    )
    return InlineKeyboardMarkup(rows) if rows else None


def hand_view(table: Table, seat: int) -> Render:
    return table.adapter.hand_text(table, seat), hand_markup(table, seat)
