"""Inline keyboards and their callback data.

Game buttons are built only from the engine's ``legal_actions``. Callback data is short text
(at most 64 bytes, Telegram's limit) carrying the chat id, the table id and the table's turn token
(or discard round), so a stale or repeated press is recognised and refused politely:

=====================================  ==========================================
``a:<chat>:<tid>:<turn>:<action>``      a game action on the table message
``h:<chat>:<tid>``                      "Mis cartas": a private alert with my cards
``j|l|g|x:<chat>:<tid>``                lobby: join, leave, start (go), cancel
``t:<chat>:<tid>:<round>:<card>:<0|1>``  private discard: (un)select one card
``c:<chat>:<tid>:<round>``              private discard: confirm
=====================================  ==========================================

>>> parse_callback("a:-100123:k3:7:envido 5")
Callback(kind='a', chat_id=-100123, tid='k3', token=7, args=('envido 5',))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.render import action_label, card_name
from bot.table import Table
from engine.core import Action
from locales import t

MAX_CALLBACK_BYTES = 64
BUTTONS_PER_ROW = 3


@dataclass(frozen=True, slots=True)
class Callback:
    """Parsed callback data (see the module docstring)."""

    kind: str
    chat_id: int
    tid: str
    token: int | None = None
    args: tuple[str, ...] = ()


def pack(*parts: object) -> str:
    """Join callback parts with ``:``; refuses data longer than Telegram allows."""
    data = ":".join(str(p) for p in parts)
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback data too long ({len(data.encode())} bytes)")
    return data


def parse_callback(data: str) -> Callback | None:
    """Read callback data back; ``None`` if it is not ours or malformed."""
    parts = data.split(":")
    if len(parts) < 3 or parts[0] not in "ahjlgxtc" or len(parts[0]) != 1:
        return None
    try:
        chat_id = int(parts[1])
        kind, tid = parts[0], parts[2]
        if kind in ("h", "j", "l", "g", "x"):
            return Callback(kind, chat_id, tid)
        token = int(parts[3])
        return Callback(kind, chat_id, tid, token, tuple(parts[4:]))
    except (ValueError, IndexError):
        return None


def lobby_keyboard(table: Table) -> InlineKeyboardMarkup:
    lang, chat, tid = table.lang, table.chat_id, table.tid
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(t(lang, "button.join"), callback_data=pack("j", chat, tid)),
                InlineKeyboardButton(t(lang, "button.leave"), callback_data=pack("l", chat, tid)),
            ],
            [
                InlineKeyboardButton(t(lang, "button.start"), callback_data=pack("g", chat, tid)),
                InlineKeyboardButton(t(lang, "button.cancel"), callback_data=pack("x", chat, tid)),
            ],
        ]
    )


def button_actions(table: Table) -> list[Action]:
    """The distinct legal actions of every seat to act, in the engine's order (no card choices:
    discards are chosen in private)."""
    if table.status != "playing":
        return []
    adapter = table.adapter
    state = table.engine_state()
    if adapter.in_discard(state):
        return []
    seen: dict[str, Action] = {}
    for seat in adapter.to_act(state):
        for action in adapter.legal_actions(state, seat):
            if not action.cards:
                seen.setdefault(str(action), action)
    return list(seen.values())


def table_keyboard(table: Table, actions: Iterable[Action] | None = None) -> InlineKeyboardMarkup:
    """Action buttons for the table message, then "Mis cartas"."""
    lang, chat, tid = table.lang, table.chat_id, table.tid
    chosen = button_actions(table) if actions is None else list(actions)
    raising = False
    if chosen and table.state is not None:
        raising = table.adapter.view(table.engine_state(), None).get("bet") is not None
    buttons = [
        InlineKeyboardButton(
            action_label(lang, a, raising=raising),
            callback_data=pack("a", chat, tid, table.turn, str(a)),
        )
        for a in chosen
    ]
    rows = [buttons[i : i + BUTTONS_PER_ROW] for i in range(0, len(buttons), BUTTONS_PER_ROW)]
    rows.append([InlineKeyboardButton(t(lang, "button.cards"), callback_data=pack("h", chat, tid))])
    return InlineKeyboardMarkup(rows)


def discard_keyboard(
    table: Table, cards: Sequence[str], chosen: Sequence[str]
) -> InlineKeyboardMarkup:
    """One toggle button per card (✅ when selected) and the confirm button."""
    lang, chat, tid, rnd = table.lang, table.chat_id, table.tid, table.discard_round
    rows = []
    for card in cards:
        picked = card in chosen
        label = ("✅ " if picked else "▫️ ") + card_name(lang, card)
        data = pack("t", chat, tid, rnd, card, 0 if picked else 1)
        rows.append([InlineKeyboardButton(label, callback_data=data)])
    rows.append(
        [
            InlineKeyboardButton(
                t(lang, "button.discard", n=len(chosen)), callback_data=pack("c", chat, tid, rnd)
            )
        ]
    )
    return InlineKeyboardMarkup(rows)


def link_keyboard(lang: str, url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "button.open_bot"), url=url)]])
