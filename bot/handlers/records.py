"""Records commands: ``/estadisticas``, ``/ranking``, ``/historial``, ``/mano``, ``/olvidame``.

They read the group's records (:mod:`bot.records`) and answer in the chat; nothing here writes
a table. A picture (``/ranking foto``, ``/estadisticas foto``) is drawn off the event loop and
sent once per update (a re-delivered update does not send it again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from telegram import Update
from telegram.constants import ParseMode
from telegram.error import TelegramError

from bot.botapi import Deferred, Gone, call_api
from bot.games.base import Game
from bot.games.registry import GAMES, find_game, game_title
from bot.handlers.common import Context, chat_lang, first_delivery, reply, services
from bot.records import chart, texts
from bot.records.flush import records_of
from bot.records.model import RecordedPlayer
from bot.records.replay import hand_text
from bot.services import Services
from bot.table import Table
from bot.tables import read_table
from engine.core import normalize
from locales import escape, t

log = logging.getLogger("bot.records")

PHOTO_WORDS = frozenset({"foto", "imagen", "grafico", "photo", "image", "picture", "chart"})
YES_WORDS = frozenset({"si", "yes"})
HISTORY = 8
"""Games ``/historial`` lists."""
RANKED = 15
"""Players ``/ranking`` lists per game."""


def _split(words: Sequence[str]) -> tuple[bool, Game | None, list[str]]:
    """``(a picture was asked for, the game named, the other words)``."""
    photo, game, rest = False, None, []
    for word in words:
        plain = normalize(word)
        if plain in PHOTO_WORDS:
            photo = True
        elif (found := find_game(plain)) is not None and game is None:
            game = found
        else:
            rest.append(word)
    return photo, game, rest


async def _group(update: Update, svc: Services) -> tuple[int, str] | None:
    """The group's chat id and language, or ``None`` (answered) in a private chat."""
    chat = update.effective_chat
    if chat is None:
        return None
    lang = await chat_lang(svc, chat.id)
    if chat.type == chat.PRIVATE:
        await reply(update, t(lang, "records.group_only"))
        return None
    return chat.id, lang


def _target(update: Update, words: Sequence[str], names: dict[int, str]) -> tuple[int, str] | None:
    """Whose statistics: the replied-to user, a mentioned user, a name typed, else the sender.
    ``(0, typed)`` when a typed name matches nobody."""
    message = update.effective_message
    if message is not None and message.reply_to_message and message.reply_to_message.from_user:
        user = message.reply_to_message.from_user
        if not user.is_bot:
            return user.id, user.full_name
    for entity in (message.entities if message is not None else ()) or ():
        mentioned = entity.user
        if entity.type == "text_mention" and mentioned is not None:
            return mentioned.id, mentioned.full_name
    typed = " ".join(words).strip().lstrip("@")
    if typed:
        wanted = normalize(typed)
        for uid, name in names.items():
            if normalize(name) == wanted:
                return uid, name
        return 0, typed
    sender = update.effective_user
    return None if sender is None else (sender.id, sender.full_name)


async def estadisticas(update: Update, context: Context) -> None:
    """``/estadisticas [nombre|foto] [juego]``: a player's figures in this group, per game."""
    svc = services(context)
    group = await _group(update, svc)
    if group is None:
        return
    chat_id, lang = group
    records = records_of(svc)
    photo, only, rest = _split(context.args or [])
    names = await records.names(chat_id)
    target = _target(update, rest, names)
    if target is None:
        return
    uid, fallback = target
    if uid == 0:
        await reply(update, t(lang, "records.stats.unknown", name=escape(fallback)))
        return
    name = texts.name_of(lang, {uid: names.get(uid, fallback)}, uid)
    games = [only] if only is not None else list(GAMES.values())
    if photo:
        await _player_photo(update, context, svc, chat_id, lang, uid, name, games)
        return
    blocks: list[str] = []
    for game in games:
        stats = await records.stats(chat_id, game.name)
        mine = texts.counters_of(stats, uid)
        if not mine.get("games"):
            continue
        rows = texts.ranked(await records.ratings(chat_id, game.name), stats, names)
        place = next(((r[1], i + 1, len(rows)) for i, r in enumerate(rows) if r[0] == uid), None)
        partner = None
        best = texts.best_partner(await records.pairs(chat_id, game.name), uid)
        if best is not None:
            other = texts.name_of(lang, names, best[0])  # only the partner: the block is hers
            together, won = best[1], best[2]
            partner = t(lang, "records.partner", partner=other, won=won, lost=together - won)
        blocks.append("\n".join(texts.game_lines(lang, game, mine, place, partner)))
    if not blocks:
        await reply(update, t(lang, "records.stats.nothing", name=name))
        return
    await reply(update, "\n\n".join([t(lang, "records.stats.title", name=name), *blocks]))


async def ranking(update: Update, context: Context) -> None:
    """``/ranking [juego] [foto]``: the group's players by rating, per game, and its pairs."""
    svc = services(context)
    group = await _group(update, svc)
    if group is None:
        return
    chat_id, lang = group
    records = records_of(svc)
    photo, only, _ = _split(context.args or [])
    names = await records.names(chat_id)
    blocks: list[str] = []
    pictures: list[tuple[str, list[tuple[str, int]]]] = []
    for game in [only] if only is not None else list(GAMES.values()):
        stats = await records.stats(chat_id, game.name)
        if not stats.get("*:games"):
            continue
        rows = texts.ranked(await records.ratings(chat_id, game.name), stats, names)[:RANKED]
        title = t(
            lang,
            "records.ranking.title",
            game=game.title(lang),
            games=stats.get("*:games", 0),
            hands=stats.get("*:hands", 0),
        )
        lines = [title]
        lines += [
            t(lang, "records.ranking.row", pos=i + 1, name=texts.name_of(lang, names, uid),
              rating=rating, won=won, n=n)
            for i, (uid, rating, n, won) in enumerate(rows)
        ]  # fmt: skip
        pairs = _pairs(lang, await records.pairs(chat_id, game.name), names)
        if pairs:
            lines.append(t(lang, "records.ranking.pairs", list=" · ".join(pairs)))
        blocks.append("\n".join(lines))
        chart_rows = [(names.get(uid, "?"), rating) for uid, rating, _, _ in rows]
        pictures.append((t(lang, "records.photo.ranking", game=game.title(lang)),
                         chart_rows))  # fmt: skip
    if not blocks:
        await reply(update, t(lang, "records.none"))
        return
    if photo:
        title, rows_ = pictures[0]
        await _send_png(update, context, svc, lang, chart.ranking_png, title, rows_)
        return
    await reply(update, "\n\n".join([*blocks, t(lang, "records.ranking.method")]))


def _pairs(lang: str, pairs: dict[str, int], names: dict[int, str], limit: int = 5) -> list[str]:
    """The group's most frequent pairs (both still named) with their record."""
    rows = []
    for key, games in pairs.items():
        who, _, what = key.rpartition(":")
        a, b = (int(x) for x in who.split(","))
        if what == "games" and a in names and b in names:
            rows.append((games, pairs.get(f"{who}:won", 0), a, b))
    rows.sort(key=lambda r: (-r[0], -r[1]))
    return [
        texts.pair_text(lang, texts.name_of(lang, names, a), texts.name_of(lang, names, b),
                        won, games, "records.ranking.pair")
        for games, won, a, b in rows[:limit]
    ]  # fmt: skip


async def historial(update: Update, context: Context) -> None:
    """``/historial``: the group's last games with their results."""
    svc = services(context)
    group = await _group(update, svc)
    if group is None:
        return
    chat_id, lang = group
    games = await records_of(svc).games(chat_id, HISTORY)
    await reply(update, texts.history_text(lang, games))


async def mano(update: Update, context: Context) -> None:
    """``/mano ID [N]``: hand N (else the last) of a stored game, as its result showed it."""
    svc = services(context)
    group = await _group(update, svc)
    if group is None:
        return
    chat_id, lang = group
    args = [a.lstrip("#") for a in context.args or []]
    if not args or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
        await reply(update, t(lang, "records.hand.usage"))
        return
    gid = args[0].lower()[:16]
    records = records_of(svc)
    found = await _players_of(svc, chat_id, gid)
    numbers = await records.hand_numbers(chat_id, gid)
    if found is None or not numbers:
        await reply(update, t(lang, "records.hand.not_found"))
        return
    game, options, players = found
    n = int(args[1]) if len(args) == 2 else numbers[-1]
    doc = await records.hand(chat_id, gid, n)
    if doc is None:
        listed = ", ".join(str(x) for x in numbers)
        await reply(
            update,
            f"{t(lang, 'records.hand.not_found')}\n{t(lang, 'records.hand.hands', list=listed)}",
        )
        return
    try:
        body = hand_text(lang, game, options, players, doc)
    except Exception:
        log.exception("hand %s/%s of %s does not replay", gid, n, chat_id)
        body = None
    head = t(lang, "records.hand.title", n=n, id=gid, game=game_title(game, lang))
    await reply(update, f"{head}\n\n{body or t(lang, 'records.hand.no_result')}")


async def _players_of(
    svc: Services, chat_id: int, gid: str
) -> tuple[str, dict[str, object], list[RecordedPlayer]] | None:
    """The game, options and players of a stored game, or of the game at the table now."""
    record = await records_of(svc).game(chat_id, gid)
    if record is not None:
        return record.game, record.options, record.players
    table: Table | None = await read_table(svc, chat_id)
    if table is None or table.tid != gid or table.status == "lobby":
        return None
    players = [
        RecordedPlayer(id=p.user_id, name=p.name, seat=i) for i, p in enumerate(table.players)
    ]
    return table.game, dict(table.options), players


async def olvidame(update: Update, context: Context) -> None:
    """``/olvidame`` (``/forgetme``): with ``si``/``yes``, delete the sender's records."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    lang = await chat_lang(svc, chat.id)
    if not {normalize(a) for a in context.args or []} & YES_WORDS:
        await reply(update, t(lang, "records.forget.ask"))
        return
    if not await first_delivery(svc, update):
        return
    await records_of(svc).forget(user.id)
    await reply(update, t(lang, "records.forget.done"))


async def _player_photo(
    update: Update,
    context: Context,
    svc: Services,
    chat_id: int,
    lang: str,
    uid: int,
    name: str,
    games: Sequence[Game],
) -> None:
    """A player's rating after each of his stored games (the game he played most)."""
    records = records_of(svc)
    stored = list(reversed(await records.games(chat_id, records.keep)))
    best: tuple[int, str] = (0, "")
    for game in games:
        count = sum(1 for r in stored if r.game == game.name and _seat(r, uid) is not None)
        best = max(best, (count, game.name))
    if best[0] == 0:
        await reply(update, t(lang, "records.photo.none"))
        return
    points: list[tuple[int, int, bool]] = []
    for record in (r for r in stored if r.game == best[1]):
        seat = _seat(record, uid)
        if seat is not None and record.players[seat].rating is not None:
            rating = int(record.players[seat].rating or 0)
            points.append((len(points) + 1, rating, record.places[seat] == 0))
    if not points:
        await reply(update, t(lang, "records.photo.none"))
        return
    plain = name if uid == 0 else (await records.names(chat_id)).get(uid, name)
    title = t(lang, "records.photo.player", name=plain, game=game_title(best[1], lang))
    await _send_png(update, context, svc, lang, chart.timeline_png, title, points)


def _seat(record: object, uid: int) -> int | None:
    for player in getattr(record, "players", []):
        if player.id == uid:
            return int(player.seat)
    return None


async def _send_png(
    update: Update,
    context: Context,
    svc: Services,
    lang: str,
    draw: Callable[[str, Any], bytes],
    title: str,
    data: object,
) -> None:
    """Draw a picture off the event loop and send it once (re-deliveries send nothing)."""
    chat = update.effective_chat
    if chat is None:
        return
    if not await first_delivery(svc, update):
        return
    png = await asyncio.to_thread(draw, title, data)
    try:
        await call_api(
            lambda: context.bot.send_photo(
                chat.id, photo=png, caption=escape(title), parse_mode=ParseMode.HTML
            ),
            uncertain_ok=True,
        )
    except (Gone, Deferred, TelegramError) as exc:
        log.warning("picture for %s not sent: %s", chat.id, type(exc).__name__)
        await reply(update, t(lang, "records.photo.failed"))
