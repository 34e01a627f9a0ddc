"""Inline keyboards and their callback data.

Game buttons are built only from the engine's ``legal_actions``. Callback data is short text
(at most 64 bytes, Telegram's limit) carrying the chat id, the table id and the table's turn token
(or discard round), so a stale or repeated press is recognised and refused politely:

=====================================  ==========================================
``a:<chat>:<tid>:<turn>:<action>``      a game action on the table message
``h:<chat>:<tid>``                      "Mis cartas": a private alert with my cards
``j|l|g|x:<chat>:<tid>``                lobby: join, leave, start (go), cancel
``b:<chat>:<tid>``                      lobby: add a computer player
``f:<chat>:<tid>``                      fill the free seats with computer players and start
``v:<chat>:<tid>``                      "Vuelvo": take my seat back from the computer
``e:<chat>:<tid>:<team>``               lobby: sit in team 0 or 1
``n:<game>``                            ``/nueva`` alone: open a table of this game
``t:<chat>:<tid>:<round>:<card>:<0|1>``  private discard: (un)select one card
``c:<chat>:<tid>:<round>``              private discard: confirm
``s:<chat>:<tid>:<hand>:<name>``         private hand: send a seña (:mod:`bot.games.senas`)
``p:<chat>:<tid>:<round>:<position>``   table message: (un)select my card at a position
``k:<chat>:<tid>:<seat>``               table message: "Sentarme" in a seat left free
``o:<chat>:<tid>``                      the finished table: "Otra partida"
=====================================  ==========================================

>>> parse_callback("a:-100123:k3:7:envido 5")
Callback(kind='a', chat_id=-100123, tid='k3', token=7, args=('envido 5',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.games import senas
from bot.games.base import Buttons
from bot.games.registry import GAMES
from bot.games.render import card_name
from bot.table import Table
from locales import t

MAX_CALLBACK_BYTES = 64


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
    if len(parts) == 2 and parts[0] == "n" and parts[1] in GAMES:
        return Callback("n", 0, "", args=(parts[1],))
    if len(parts) < 3 or parts[0] not in "ahjlgxtcesbfvpko" or len(parts[0]) != 1:
        return None
    try:
        chat_id = int(parts[1])
        kind, tid = parts[0], parts[2]
        if kind in ("h", "j", "l", "g", "x", "b", "f", "v", "o"):
            return Callback(kind, chat_id, tid)
        token = int(parts[3])
        return Callback(kind, chat_id, tid, token, tuple(parts[4:]))
    except (ValueError, IndexError):
        return None


def lobby_keyboard(table: Table) -> InlineKeyboardMarkup:
    """Join / leave, a button per team where the game has teams, start / cancel."""
    lang, chat, tid = table.lang, table.chat_id, table.tid
    rows = [
        [
            InlineKeyboardButton(t(lang, "button.join"), callback_data=pack("j", chat, tid)),
            InlineKeyboardButton(t(lang, "button.leave"), callback_data=pack("l", chat, tid)),
        ]
    ]
    if table.adapter.features.teams:
        rows.append(
            [
                InlineKeyboardButton(
                    table.adapter.texts.say(lang, table.adapter.texts.team, n=team + 1),
                    callback_data=pack("e", chat, tid, team),
                )
                for team in (0, 1)
            ]
        )
    rows.append([InlineKeyboardButton(t(lang, "bots.add"), callback_data=pack("b", chat, tid))])
    rows.append(
        [
            InlineKeyboardButton(t(lang, "button.start"), callback_data=pack("g", chat, tid)),
            InlineKeyboardButton(t(lang, "button.cancel"), callback_data=pack("x", chat, tid)),
        ]
    )
    return InlineKeyboardMarkup(rows)


def games_keyboard(lang: str) -> InlineKeyboardMarkup:
    """``/nueva`` alone: one button per game the bot hosts."""
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(game.title(lang), callback_data=pack("n", name))]
            for name, game in GAMES.items()
        ]
    )


def game_rows(table: Table, buttons: Buttons) -> list[list[InlineKeyboardButton]]:
    """A game's buttons as Telegram buttons; actions carry the table's turn."""
    chat, tid = table.chat_id, table.tid
    rows = []
    for row in buttons:
        keys = []
        for b in row:
            if b.inline is not None:
                keys.append(
                    InlineKeyboardButton(b.label, switch_inline_query_current_chat=b.inline)
                )
            else:
                data = pack("a", chat, tid, table.turn, b.action or "")
                keys.append(InlineKeyboardButton(b.label, callback_data=data))
        rows.append(keys)
    return rows


def sena_callback(table: Table, name: str) -> str:
    """``s:<chat>:<tid>:<hand>:<name>`` (the hand, not the turn: a seña may be made at any
    moment of the hand, so moves do not make its button stale)."""
    return pack("s", table.chat_id, table.tid, table.hand, name)


def sena_rows(table: Table, seat: int) -> list[list[InlineKeyboardButton]]:
    """The seat's señas as buttons for his private hand message ("🤫 dos reyes")."""
    buttons = [
        InlineKeyboardButton(
            t(table.lang, "senas.button", sena=senas.label(table, a.name or "")),
            callback_data=sena_callback(table, a.name or ""),
        )
        for a in senas.offered(table, seat)
    ]
    per_row = senas.BUTTONS_PER_ROW
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def senas_row(table: Table) -> list[InlineKeyboardButton]:
    """The table message's "🤫 Señas" button (opens one's señas inline), while in their window."""
    if table.status != "playing" or not senas.enabled(table):
        return []
    state = table.engine_state()
    if not any(table.adapter.legal_senas(state, s) for s in range(len(table.players))):
        return []
    return [
        InlineKeyboardButton(
            t(table.lang, "senas.table_button"),
            switch_inline_query_current_chat=f"{table.tid} {senas.INLINE_WORD}",
        )
    ]


def table_keyboard(table: Table) -> InlineKeyboardMarkup:
    """The game's buttons for the table message, then "Mis cartas" (and "Abrir la mesa")."""
    rows = game_rows(table, table.adapter.table_buttons(table))
    if signs := senas_row(table):
        rows.append(signs)
    rows += discard_rows(table)
    mine = pack("h", table.chat_id, table.tid)
    rows.append([InlineKeyboardButton(t(table.lang, "button.cards"), callback_data=mine)])
    if table.app_link:  # a URL button: web_app buttons open only in private chats
        rows.append([InlineKeyboardButton(t(table.lang, "miniapp.open"), url=table.app_link)])
    if table.away_seats():
        back = pack("v", table.chat_id, table.tid)
        rows.append([InlineKeyboardButton(t(table.lang, "bots.back"), callback_data=back)])
    for seat in table.free_seats():
        name = table.players[seat].name
        sit = pack("k", table.chat_id, table.tid, seat)
        label = t(table.lang, "phone.button.sit", name=name)
        rows.append([InlineKeyboardButton(label, callback_data=sit)])
    return InlineKeyboardMarkup(rows)


def discard_rows(table: Table) -> list[list[InlineKeyboardButton]]:
    """A discard from the group: one button per position in the presser's own sorted hand
    (his cards are told to him alone, in an alert), "Descartar", and the private chat."""
    game = table.adapter
    if not game.features.discard_limit or table.paused_by or table.state is None:
        return []
    state = table.engine_state()
    if not game.features.in_discard(state):
        return []
    people = [s for s in game.to_act(state) if not table.players[s].computer]
    if not people:
        return []
    size = max(len(game.seat_cards(table, seat)) for seat in people)
    if not size:
        return []
    lang, chat, tid, rnd = table.lang, table.chat_id, table.tid, table.discard_round
    positions = [
        InlineKeyboardButton(
            t(lang, "phone.position", n=i + 1), callback_data=pack("p", chat, tid, rnd, i)
        )
        for i in range(size)
    ]
    last = [
        InlineKeyboardButton(
            t(lang, "phone.button.discard"), callback_data=pack("c", chat, tid, rnd)
        )
    ]
    if table.bot_name:
        url = f"https://t.me/{table.bot_name}"
        last.append(InlineKeyboardButton(t(lang, "phone.button.private"), url=url))
    return [positions, last]


def over_keyboard(table: Table) -> InlineKeyboardMarkup:
    """The finished table's last message: "Otra partida" with the same players and options."""
    again = pack("o", table.chat_id, table.tid)
    label = t(table.lang, "phone.button.again")
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=again)]])


def fill_keyboard(table: Table) -> InlineKeyboardMarkup:
    """Offered when a start lacks players: computer players in the free seats, then start."""
    data = pack("f", table.chat_id, table.tid)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t(table.lang, "bots.fill"), callback_data=data)]]
    )


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
