"""What each message shows: the lobby, the table message and each seat's private hand, as
text and buttons rendered from the stored table (the publisher posts and edits them); and what
a step of the table flow must post beyond them (:func:`post`: the outbox entries, from the
step's events)."""

from __future__ import annotations

import hashlib
import json

from telegram import InlineKeyboardMarkup

from bot import keyboards
from bot.games import render, senas
from bot.games.seats import LogEntry
from bot.table import Step, Table
from locales import t

Render = tuple[str, InlineKeyboardMarkup | None]


def digest(render_: Render) -> str:
    text, markup = render_
    data = json.dumps([text, None if markup is None else markup.to_dict()], sort_keys=True)
    return hashlib.blake2b(data.encode(), digest_size=8).hexdigest()


def lobby_view(table: Table) -> Render:
    """The lobby message (its buttons only while the lobby is open)."""
    markup = keyboards.lobby_keyboard(table) if table.status == "lobby" else None
    return render.lobby_text(table), markup


def table_view(table: Table, *, final: bool = True) -> Render:
    """The table message (its buttons only while the game is played; "Otra partida" and, unless
    not ``final`` (the message's first post), the game's result when it is over)."""
    markup = keyboards.table_keyboard(table) if table.status == "playing" else None
    text = table.adapter.table_text(table)
    if table.status == "over":
        markup = keyboards.over_keyboard(table)
        if final:
            text = render.with_result(text, table.shown.final or "")
    return text, markup


def hand_markup(table: Table, seat: int) -> InlineKeyboardMarkup | None:
    """The private hand's buttons: the discard toggles in a discard, else the game's own."""
    if table.status != "playing":
        return None
    game = table.adapter
    state = table.engine_state()
    if game.features.in_discard(state):
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


def post(table: Table, step: Step | None) -> None:
    """Queue what a step of the flow shows beyond the messages the publisher keeps (in the same
    write as the step): the private nudges of the people to act (with a link to the table
    message), each seña's private notices, the seats the computer now plays for (and
    the table left without a person playing), and, once a move is played, a finished hand's
    table message in its final form with the hand's result below it, and the game's result in
    the finished game's table message. Both are edits of messages the group already has (an
    edit tried again after a timeout cannot show twice); a result with no message to show it in
    is a new message (a notice)."""
    if step is None:
        return
    shown = table.shown
    if step.nudges:
        link = table_link(table)
        for user_id, left in step.nudges:
            shown.notify(render.nudge_text(table, left, link), to=user_id)
    for said in step.senas:
        for user_id, text in senas.notices(table, said):
            shown.notify(text, to=user_id)
    for seat in step.taken_over:
        shown.notify(render.takeover_notice(table.lang, table.players[seat].name))
    if step.taken_over and not table.humans_present() and table.status == "playing":
        shown.notify(render.alone_notice(table.lang))
    if not step.played:
        return
    over = table.status == "over"
    hand_log = step.closed_hand_log if step.closed_hand_log is not None else table.log
    result = table.adapter.result_text(table, step.events, hand_log)
    result = render.result_notice(table.lang, result, over=over)
    if step.closed_hand_log is not None:
        _close_hand(table, step.closed_hand_log, "" if over else result, step.closed_hand)
    if over:
        shown.final = result or None  # at the foot of its table message (an edit)
    elif result and step.closed_hand_log is None:
        shown.notify(result)


def _close_hand(table: Table, hand_log: list[LogEntry], result: str, hand: int) -> None:
    """The hand ``hand`` ended (its log: ``hand_log``): its table message is to show the
    hand in its final form, without buttons, and its ``result`` below (an edit: tried again
    after a timeout, it cannot show twice). A table message not recorded yet shows it when
    its post comes back, else in a holder posted for it (:class:`~bot.shown.Shown`). The
    next hand's table message and private hands are new."""
    closed = table.adapter.closed_table_text(table, hand_log)
    if table.shown.table_msg is None:
        table.shown.hand_unposted(hand, closed, result)
        table.shown.hand_closed(None)
        return
    table.shown.hand_closed(render.with_result(closed, result))


def table_link(table: Table) -> str | None:
    """A link to the table message (supergroups only: ``t.me/c/<id>/<message>``).

    >>> from bot.shown import Shown
    >>> table_link(Table(chat_id=-1001234, creator=1, shown=Shown(table_msg=7)))
    'https://t.me/c/1234/7'
    >>> table_link(Table(chat_id=-1234, creator=1, shown=Shown(table_msg=7))) is None
    True
    """
    text = str(table.chat_id)
    if table.shown.table_msg is None or not text.startswith("-100"):
        return None
    return f"https://t.me/c/{text[4:]}/{table.shown.table_msg}"


def repost(table: Table) -> None:
    """``/mesa``: post the table message again at the bottom; the old copy loses buttons."""
    if table.shown.table_msg is not None:
        table.shown.close(table.adapter.table_text(table))


def unreachable(table: Table, user_ids: set[int]) -> None:
    """Tell the group, once per table, that these seated players blocked the bot.

    >>> t = Table(chat_id=-1, creator=1); _ = t.join(7, "Ana")
    >>> unreachable(t, {7}); unreachable(t, {7, 8})
    >>> len(t.shown.outbox), t.shown.unreachable
    (1, [7])
    """
    for player in table.players:
        if player.user_id in user_ids and player.user_id not in table.shown.unreachable:
            table.shown.unreachable = [*table.shown.unreachable, player.user_id]
            table.shown.notify(render.blocked_notice(table.lang, player.name))


# ---- the notices of the lobby and of the seats (queued by the handlers' writes) ---------------


def joined(table: Table, user_id: int) -> None:
    """A user just seated is told so in private (he opened that chat)."""
    table.shown.notify(t(table.lang, "msg.join_dm", title=render.esc(table.title)), to=user_id)


def paused(table: Table) -> None:
    """The table was paused (by :attr:`Table.paused_by`)."""
    table.shown.notify(t(table.lang, "phone.paused", name=render.esc(table.paused_by or "")))


def resumed(table: Table, name: str) -> None:
    table.shown.notify(t(table.lang, "phone.resumed", name=render.esc(name)))


def seat_left(table: Table, name: str, reserved: str | None = None) -> None:
    """A person left his seat mid-game (``reserved``: for that ``@username``)."""
    if reserved is None:
        table.shown.notify(t(table.lang, "phone.left", name=render.esc(name)))
        return
    text = t(table.lang, "phone.left_for", name=render.esc(name), user=render.esc(reserved))
    table.shown.notify(text)


def seat_handed(table: Table, seat: int, old: str) -> None:
    """``old`` handed his seat over: the group is told, and the newcomer in private."""
    new = table.players[seat]
    lang = table.lang
    table.shown.notify(t(lang, "phone.sat", new=render.esc(new.name), old=render.esc(old)))
    text = t(lang, "phone.sat_dm", old=render.esc(old), title=render.esc(table.title))
    table.shown.notify(text, to=new.user_id)


def cancelled(table: Table, name: str) -> None:
    table.shown.notify(t(table.lang, "msg.cancelled", name=render.esc(name)))
