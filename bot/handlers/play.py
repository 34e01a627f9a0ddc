"""Game actions: commands (``/envido 5``), table buttons, private discards, /mesa, /cartas."""

from __future__ import annotations

from collections.abc import Callable

from telegram import Bot, Update

from bot import keyboards, present
from bot.flow import discard, moves
from bot.games import render
from bot.games.render import cards_text, error_text
from bot.handlers import mine
from bot.handlers.common import (
    Context,
    alert,
    answer,
    can_write_to,
    change_table,
    chat_lang,
    first_look,
    now,
    publisher_of,
    reply,
    services,
    start_dm_ok,
)
from bot.services import Services
from bot.table import Step, Table
from bot.tables import read_table
from engine.core import IllegalAction
from locales import t


def command_name(update: Update) -> str:
    """``/Envido@TapeteBot 5`` → ``envido``."""
    message = update.effective_message
    text = (message.text or "") if message is not None else ""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    return first.lstrip("/").split("@", 1)[0].lower()


def command_action(table: Table, command: str, words: list[str]) -> str:
    """The action text of a game command at this table: the words the game gives the command
    (``/noquiero`` → ``no quiero``), then everything typed after it."""
    prefix = table.adapter.commands.get(command, command)
    return " ".join([prefix, *words]).strip()


def typed_date(update: Update) -> float | None:
    """When a typed command was sent (``None`` for anything else)."""
    message = update.effective_message
    return message.date.timestamp() if message is not None and message.date else None


class PrivateRefusal(IllegalAction):
    """A refusal that tells something about the player's own hand: answered to him only."""


async def play(
    svc: Services,
    chat_id: int,
    user_id: int,
    action: str | Callable[[Table], str],
    turn: int | None = None,
    tid: str | None = None,
    *,
    update: Update | None = None,
    typed_at: float | None = None,
) -> tuple[Table, Step, int]:
    """Apply one player's action to the table with CAS; ``IllegalAction`` changes nothing.

    ``turn``/``tid`` (from a button) must match the table, so stale or repeated presses fail.
    ``typed_at`` (a typed command's date) must not be older than the table's last move: a late
    copy of ``/paso`` is not applied to the next lance.
    """
    at = now(svc)
    sent_by = None
    if typed_at is not None and update is not None:
        sent_by = svc.telegram_clock.sent_by(update.update_id, typed_at)

    def fn(table: Table | None) -> tuple[Table | None, tuple[Table, Step, int]]:
        if table is None or not table.active:
            raise IllegalAction("stale" if tid is not None else "no_table")
        if tid is not None and (table.tid != tid or table.turn != turn):
            raise IllegalAction("stale")
        seat = table.seat_of(user_id)
        if seat is None:
            raise IllegalAction("not_seated")
        if table.status != "playing":
            raise IllegalAction("not_started")
        if sent_by is not None and sent_by < table.moved_at:
            raise IllegalAction("typed_too_late")
        text = action if isinstance(action, str) else action(table)
        try:
            table, step = moves.act(
                table, seat, text, at, svc.settings.turn_timeout, svc.settings.pause
            )
            present.post(table, step)
        except IllegalAction as exc:
            if exc.reason in table.adapter.features.private_refusals:
                raise PrivateRefusal(exc.reason, **exc.params) from None
            raise
        return table, (table, step, seat)

    return await change_table(svc, chat_id, fn, update=update, publish=True)


async def action_command(update: Update, context: Context) -> None:
    """A game's action command (``/envido 5``, ``/tiro 12o``...) in the words of the game at
    the table; a refusal about the player's own hand goes to him in private."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    command, words = command_name(update), list(context.args or [])
    try:
        table, step, _seat = await play(
            svc,
            chat.id,
            user.id,
            lambda table: command_action(table, command, words),
            update=update,
            typed_at=typed_date(update),
        )
    except PrivateRefusal as exc:
        await refuse_privately(update, context, svc, chat.id, exc)
        return
    except IllegalAction as exc:
        await reply(update, error_text(await chat_lang(svc, chat.id), exc), svc=svc)
        return
    await publisher_of(context).publish(table.chat_id)
    await mine.after_move(context.bot, svc, table, step, user.id)


async def table_button(update: Update, context: Context) -> None:
    """A game action pressed on the table message (``a:...``) or "Mis cartas" (``h:...``)."""
    query = update.callback_query
    user = update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None:
        await answer(update)
        return
    svc = services(context)
    if cb.kind == "h":
        await my_cards_alert(update, context.bot, svc, cb.chat_id, cb.tid)
        return
    if not cb.args:
        await answer(update)
        return
    turn = cb.token
    try:
        try:
            table, step, seat = await play(
                svc, cb.chat_id, user.id, cb.args[0], turn, cb.tid, update=update
            )
        except IllegalAction as exc:
            turn = await _still_offered(svc, update, cb, user.id) if exc.reason == "stale" else None
            if turn is None:
                raise
            # The refusal recorded the update as handled (de-duplication): the second try
            # writes without it (a copy delivered again is stopped by that record).
            table, step, seat = await play(svc, cb.chat_id, user.id, cb.args[0], turn, cb.tid)
    except IllegalAction as exc:  # an alert is private: every refusal may go there
        await mine.refuse(update, context.bot, svc, cb.chat_id, exc)
        if exc.reason == "stale":
            await publisher_of(context).publish(cb.chat_id)  # whatever the presser saw is repaired
        return
    await answer(update)
    await publisher_of(context).publish(table.chat_id)
    await _own_hands(update, context, svc, table, seat, step)


async def _still_offered(
    svc: Services, update: Update, cb: keyboards.Callback, user_id: int
) -> int | None:
    """A card pressed on the player's ephemeral hand after the table moved on: its buttons
    could not be brought up to date (Telegram lets the bot edit it only just after his own
    presses). When his hand offers the same button now, the press means what it says: the
    table's turn now, else ``None``."""
    if mine.pressed_ephemeral(update) is None:
        return None
    table = await read_table(svc, cb.chat_id)
    if table is None or table.tid != cb.tid or table.status != "playing":
        return None
    seat = table.seat_of(user_id)
    if seat is None:
        return None
    offered = {b.action for row in table.adapter.hand_buttons(table, seat) for b in row}
    return table.turn if cb.args[0] in offered else None


async def _own_hands(
    update: Update, context: Context, svc: Services, table: Table, seat: int, step: Step
) -> None:
    """After a press in the group: the presser's ephemeral hand shows his hand as it is now
    (if he has one at this table), and the others' that the move changed."""
    if mine.pressed_in(update, table.chat_id):
        await mine.show_hand(update, context.bot, svc, table, seat, open_=False)
    if update.effective_user is not None:
        await mine.after_move(context.bot, svc, table, step, update.effective_user.id)


async def refuse_privately(
    update: Update, context: Context, svc: Services, chat_id: int, exc: IllegalAction
) -> None:
    """Tell a player in private why his move was refused (it concerns his own cards): on his
    ephemeral hand in the group if Telegram still lets the bot edit it, else in the private
    chat; the group only learns that the move was not taken, without the reason."""
    user = update.effective_user
    lang = await chat_lang(svc, chat_id)
    table = await read_table(svc, chat_id)
    seat = None if table is None or user is None else table.seat_of(user.id)
    note = error_text(lang, exc)
    if (
        table is not None
        and seat is not None
        and await mine.refresh(context.bot, svc, table, seat, note)
    ):
        return  # on his ephemeral hand, which Telegram still lets the bot edit
    if user is not None and await start_dm_ok(context.bot, user.id, note):
        return
    await reply(update, t(lang, "error.refused_private"))


async def my_cards_alert(update: Update, bot: Bot, svc: Services, chat_id: int, tid: str) -> None:
    """ "Mis cartas": the presser's hand as an ephemeral message in the group (with its
    buttons, :mod:`bot.handlers.mine`), else his cards in a private alert (once per press, in
    any process)."""
    user = update.effective_user
    first, table = await first_look(svc, update, chat_id)
    if not first:
        return
    if table is None or table.tid != tid or table.state is None or user is None:
        await alert(
            update, error_text(await chat_lang(svc, chat_id), IllegalAction("stale"), plain=True)
        )
        return
    seat = table.seat_of(user.id)
    if seat is None:
        await alert(update, error_text(table.lang, IllegalAction("not_seated"), plain=True))
        return
    if await mine.show_hand(update, bot, svc, table, seat, fresh=True):
        await answer(update)
        return
    text = table.adapter.cards_alert(table, seat)
    if _discarding(table, seat):  # what he throws so far, or how to choose from the group
        chosen = table.discards.get(str(seat), [])
        shown = [c for c in table.adapter.seat_cards(table, seat) if c in chosen]
        text = f"{text}\n{_selection_text(table, shown)}"
    await alert(update, text)


def _discarding(table: Table, seat: int) -> bool:
    """The seat still chooses its discard (from the table message or in private)."""
    if table.status != "playing" or not table.adapter.features.discard_limit:
        return False
    state = table.engine_state()
    return table.adapter.features.in_discard(state) and seat in table.adapter.to_act(state)


async def discard_button(update: Update, context: Context) -> None:
    """Discard buttons: toggle a card (``t:...``, private), toggle the card at a position of
    my own hand (``p:...``, the table message: answered with my selection in an alert only I
    see) or confirm (``c:...``, both)."""
    query = update.callback_query
    user = update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None or cb.token is None:
        await answer(update)
        return
    svc = services(context)
    at = now(svc)
    round_ = cb.token

    def toggle(table: Table | None) -> tuple[Table | None, tuple[Table, int, str | None]]:
        if table is None or table.tid != cb.tid or not table.active:
            raise IllegalAction("stale")
        seat = table.seat_of(user.id)
        if seat is None or table.players[seat].free:
            raise IllegalAction("not_seated")
        if cb.kind == "t":
            card, on = (*cb.args, "", "")[:2]
            discard.toggle(table, seat, card, on == "1", round_)
        elif cb.kind == "p":
            pick = _card_at(table, seat, cb.args)
            picked = pick not in table.discards.get(str(seat), [])
            chosen = discard.toggle(table, seat, pick, picked, round_)
            shown = [c for c in table.adapter.seat_cards(table, seat) if c in chosen]
            return table, (table, seat, _selection_text(table, shown))
        else:
            settings = svc.settings
            step = discard.confirm(table, seat, round_, at, settings.turn_timeout, settings.pause)
            present.post(table, step)
        return table, (table, seat, None)

    try:
        table, seat, shown = await change_table(
            svc, cb.chat_id, toggle, update=update, publish=True
        )
    except IllegalAction as exc:
        await mine.refuse(update, context.bot, svc, cb.chat_id, exc)
        return
    # A toggle pressed on the table message opens the presser's ephemeral hand (his selection
    # is told there); on the ephemeral hand, or a confirm, it is brought up to date.
    await publisher_of(context).publish(cb.chat_id)
    opened = mine.pressed_in(update, cb.chat_id) and await mine.show_hand(
        update, context.bot, svc, table, seat, open_=cb.kind == "p"
    )
    await (answer(update) if shown is None or opened else alert(update, shown))
    ended = cb.kind == "c" and not table.adapter.features.in_discard(table.engine_state())
    if ended and update.effective_user is not None:
        await mine.refresh_others(context.bot, svc, table, update.effective_user.id)


def _card_at(table: Table, seat: int, args: tuple[str, ...]) -> str:
    """The card at a position of the seat's own hand (in the order "Mis cartas" shows)."""
    cards = table.adapter.seat_cards(table, seat)
    try:
        return cards[int(args[0])]
    except (IndexError, ValueError):
        raise IllegalAction("stale") from None


def _selection_text(table: Table, chosen: list[str]) -> str:
    """ "Tiras: rey de oros, cuatro de copas" (the presser's alert)."""
    if not chosen:
        return t(table.lang, "phone.throw_none")
    return t(table.lang, "phone.throw", cards=cards_text(table.lang, chosen))


async def mesa(update: Update, context: Context) -> None:
    """``/mesa``: post the table message again (the old copy loses its buttons)."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.status != "playing":
            raise IllegalAction("no_table")
        present.repost(table)
        return table, None

    try:
        await change_table(svc, chat.id, fn, update=update, publish=True)
    except IllegalAction as exc:
        await reply(update, error_text(await chat_lang(svc, chat.id), exc), svc=svc)
        return
    await publisher_of(context).publish(chat.id)


async def cartas(update: Update, context: Context) -> None:
    """``/cartas``: send me my hand again in private, as a new message (from the group or the
    private chat). In private it sends the hand of every table where he plays: each hand message
    names its group, so two tables at once are never confused."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    private = chat.type == chat.PRIVATE
    if private:
        tables = await playing_tables(svc, user.id)
        chat_ids = [table.chat_id for table in tables]
    else:
        chat_ids = [chat.id]
    lang = svc.settings.language if private else await chat_lang(svc, chat.id)
    reason = "not_seated" if chat_ids else "no_table"
    sent: list[int] = []
    for chat_id in chat_ids:

        def fn(table: Table | None) -> tuple[Table | None, str]:
            if table is None or table.status != "playing":
                raise IllegalAction("no_table")
            seat = table.seat_of(user.id)
            if seat is None:
                raise IllegalAction("not_seated")
            table.resend_hand(seat)  # a fresh message at the bottom of the chat
            return table, table.lang

        try:
            # Only the first write carries the update id (it is de-duplicated once).
            first = update if not sent else None
            lang = await change_table(svc, chat_id, fn, update=first, publish=True)
        except IllegalAction as exc:
            reason = exc.reason if chat_id == chat.id else reason
            continue
        if not sent and not await can_write_to(context.bot, user.id, svc):
            await publisher_of(context).publish(chat_id)  # the write took the publishing lock
            await reply(update, t(lang, "msg.cards_dm_failed"))
            return
        sent.append(chat_id)
        await publisher_of(context).publish(chat_id)
    if not sent:
        await reply(update, error_text(lang, IllegalAction(reason)), svc=svc)
    elif not private:
        await reply(update, t(lang, "msg.cards_sent"))


async def playing_tables(svc: Services, user_id: int) -> list[Table]:
    """The tables being played where the user has a seat (read only)."""
    found = []
    for chat_id in await svc.store.user_tables(user_id):
        table = await read_table(svc, chat_id)
        if table is not None and table.status == "playing" and table.seat_of(user_id) is not None:
            found.append(table)
    return found


async def descarto(update: Update, context: Context) -> None:
    """``/descarto 12o 3c`` (``/discard``) in private: the typed twin of the discard buttons.

    In a group it is refused: the cards one throws are private. A player at several tables
    discards at the one waiting for his discard; when several are, he is asked to use the
    buttons of the one he means (their hand messages name each group): never a silent guess.
    """
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    if chat.type != chat.PRIVATE:
        lang = await chat_lang(svc, chat.id)
        await reply(update, t(lang, "error.discard_in_private"), svc=svc)
        return
    text = " ".join(["descarto", *(context.args or [])])
    tables = await playing_tables(svc, user.id)
    lang = tables[0].lang if tables else svc.settings.language
    waiting = [
        table
        for table in tables
        if table.adapter.features.in_discard(table.engine_state())
        and table.seat_of(user.id) in table.to_act()
    ]
    if len(waiting) > 1:
        titles = ", ".join(f"«{render.esc(table.title)}»" for table in waiting)
        await reply(update, t(waiting[0].lang, "security.which_table", titles=titles))
        return
    discarding = [x for x in tables if x.adapter.features.in_discard(x.engine_state())]
    if not waiting and len(discarding) == 1:
        waiting = discarding  # the engine says why not (he has discarded already...)
    if not waiting:
        await reply(update, error_text(lang, IllegalAction("wrong_phase")))
        return
    table = waiting[0]
    try:
        table, _step, _seat = await play(svc, table.chat_id, user.id, text, update=update)
    except IllegalAction as exc:
        await reply(update, error_text(table.lang, exc))
        return
    await publisher_of(context).publish(table.chat_id)
    if len(tables) > 1:
        await reply(update, t(table.lang, "security.discarded_at", title=render.esc(table.title)))
