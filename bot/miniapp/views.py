"""What a Mini App page may see of a table, as JSON: a seat's view, or the public one.

Every card in it comes from the engine's per-seat view (``Looks.seat_cards`` reads
``view(state, seat)``): the seat's own cards for a seated player, none for anyone else. The
table is told in the words of the group's table message (the text the whole group reads) and
the moves are the table message's buttons, filtered to the seat's legal actions, with the same
labels; so a page never learns more than its viewer could learn in the chat.
"""

from __future__ import annotations

import html
import re
from typing import Any

from bot.games import render, senas
from bot.table import Table
from engine.core import IllegalAction
from locales import t

__all__ = ["PAGE_TEXTS", "card_label", "plain", "refusal", "view_of"]

PAGE_TEXTS = (
    "title", "your_turn", "waiting", "public", "discard_hint", "bets", "senas", "lobby",
    "over", "no_table", "offline", "seat", "vira", "trick",
)  # fmt: skip
"""The page's own words (``miniapp.<key>``), sent with every view in the table's language."""

_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """Telegram's HTML as the text it shows (tags dropped, entities read).

    >>> plain("<b>Mus</b> · Ana &amp; Bea &lt;3")
    'Mus · Ana & Bea <3'
    """
    return html.unescape(_TAG.sub("", text))


def card_label(lang: str, card: str) -> str:
    """A card's accessible name as the chat writes it (``rey de oros``).

    >>> card_label("es", "12o"), card_label("en", "1b")
    ('rey de oros', 'ace of clubs')
    """
    return render.card_name(lang, card)


def refusal(lang: str, error: IllegalAction) -> str:
    """A refused move in the words of the alert a refused button press gets."""
    return render.error_text(lang, error, plain=True)


def view_of(table: Table, seat: int | None, version: int) -> dict[str, Any]:
    """The table as the page of ``seat`` shows it (``None``: a member who is not seated)."""
    lang = table.lang
    game = table.adapter
    playing = table.status == "playing" and table.state is not None
    to_act = set(table.to_act()) if playing else set()
    view: dict[str, Any] = {
        "version": version,
        "tid": table.tid,
        "game": table.game,
        "lang": lang,
        "status": table.status,
        "turn": table.turn,
        "hand": table.hand,
        "title": table.title,
        "seat": seat,
        "players": [
            {"name": p.shown, "to_act": i in to_act, "computer": p.computer}
            for i, p in enumerate(table.players)
        ],
        "text": plain(game.table_text(table)) if table.state is not None else "",
        "cards": [],
        "table_cards": [],
        "actions": [],
        "discard": None,
        "senas": [],
        "texts": {key: t(lang, f"miniapp.{key}") for key in PAGE_TEXTS},
    }
    if table.state is not None:
        view["table_cards"] = _table_cards(table)
    if seat is None or table.state is None:
        return view
    cards = game.seat_cards(table, seat)
    view["cards"] = [{"card": c, "label": card_label(lang, c), "action": None} for c in cards]
    if not playing or table.paused_by:
        return view
    state = table.engine_state()
    if game.features.in_discard(state):
        if seat in to_act:
            view["discard"] = {
                "limit": game.features.discard_limit,
                "label": t(lang, "phone.button.discard"),
                "chosen": table.discards.get(str(seat), []),
            }
        return view
    legal = {str(a) for a in game.legal_actions(state, seat)} if seat in to_act else set()
    rows = []
    for row in game.table_buttons(table):
        kept = [
            {"label": b.label, "action": b.action, "amount": _is_amount(b.label)}
            for b in row
            if b.action is not None and b.action in legal
        ]
        if kept:
            rows.append(kept)
    by_card = {c["card"]: c for c in view["cards"]}
    for row in game.hand_buttons(table, seat):
        others = []
        for b in row:
            if b.action is None:
                continue
            action = game.parse_action(b.action)
            if len(action.cards) == 1 and str(action.cards[0]) in by_card:
                by_card[str(action.cards[0])]["action"] = b.action  # tap the card to play it
            else:
                others.append({"label": b.label, "action": b.action, "amount": False})
        if others:
            rows.append(others)
    view["actions"] = rows
    view["senas"] = [
        {
            "name": a.name or "",
            "label": t(lang, "senas.button", sena=senas.label(table, a.name or "")),
        }
        for a in senas.offered(table, seat)
    ]
    return view


def _table_cards(table: Table) -> list[dict[str, Any]]:
    """The cards face up on the table, from the engine's public view (the envite's vira and
    the baza being played), each with its name and who put it there."""
    lang, names = table.lang, table.names()
    public = table.adapter.view(table.engine_state(), None)
    shown: list[dict[str, Any]] = []
    vira = public.get("vira")
    if isinstance(vira, str):
        shown.append({"card": vira, "label": card_label(lang, vira), "by": t(lang, "miniapp.vira")})
    for played in public.get("trick") or []:
        if isinstance(played, list | tuple) and len(played) == 2 and isinstance(played[1], str):
            by = names[played[0]] if isinstance(played[0], int) and played[0] < len(names) else ""
            shown.append({"card": played[1], "label": card_label(lang, played[1]), "by": by})
    return shown


def _is_amount(label: str) -> bool:
    # The bet keypad: the buttons that name an amount ("5 más", "Envido 5", "7"), as the table
    # message puts them on a row of their own.
    return any(ch.isdigit() for ch in label)
