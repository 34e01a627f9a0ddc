"""What the records commands say (pure: aggregates in, HTML text out; names escaped).

>>> stats = {"7:games": 3, "7:won": 2, "7:hands": 20, "7:hands_won": 11, "7:juegos": 4}
>>> counters_of(stats, 7)["won"]
2
>>> best_partner({"7,9:games": 3, "7,9:won": 2, "5,7:games": 1, "5,7:won": 0}, 7)
(9, 3, 2)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from bot.games.base import Game
from bot.games.registry import game_title
from bot.records.model import ANONYMOUS_ID, GameRecord, RecordedPlayer
from bot.records.rating import Rating, shown
from locales import escape, t


def counters_of(stats: Mapping[str, int], user_id: int) -> dict[str, int]:
    """One player's counters out of a group's stats hash."""
    head = f"{user_id}:"
    return {k[len(head) :]: v for k, v in stats.items() if k.startswith(head)}


def best_partner(pairs: Mapping[str, int], user_id: int) -> tuple[int, int, int] | None:
    """``(partner, games, won)`` of the pair the player formed most often (then won most)."""
    best: tuple[int, int, int] | None = None
    for key, games in pairs.items():
        who, _, what = key.rpartition(":")
        ids = [int(x) for x in who.split(",")]
        if what != "games" or user_id not in ids:
            continue
        other = ids[0] if ids[1] == user_id else ids[1]
        won = pairs.get(f"{who}:won", 0)
        if best is None or (games, won) > (best[1], best[2]):
            best = (other, games, won)
    return best


def name_of(lang: str, names: Mapping[int, str], user_id: int) -> str:
    """A player's name, escaped ("anónimo" once forgotten)."""
    name = names.get(user_id, "") if user_id != ANONYMOUS_ID else ""
    return escape(name) if name else t(lang, "records.anonymous")


def recorded_name(lang: str, player: RecordedPlayer) -> str:
    return escape(player.name) if player.name else t(lang, "records.anonymous")


def ranked(
    ratings: Mapping[int, Rating], stats: Mapping[str, int], names: Mapping[int, str]
) -> list[tuple[int, int, int, int]]:
    """``(user, rating shown, games, won)`` best first (players still named only)."""
    rows = [
        (uid, shown(r), stats.get(f"{uid}:games", 0), stats.get(f"{uid}:won", 0))
        for uid, r in ratings.items()
        if uid in names
    ]
    return sorted(rows, key=lambda row: (-row[1], -row[2], row[0]))


def game_lines(
    lang: str,
    game: Game,
    mine: Mapping[str, int],
    place: tuple[int, int, int] | None,
    partner: str | None,
) -> list[str]:
    """A player's block for one game: games, hands, the game's own counters, rating, partner."""
    texts = game.texts
    lines = [
        t(lang, "records.stats.game", game=game.title(lang)),
        " · ".join(
            [
                texts.say(lang, texts.games, n=mine.get("games", 0), won=mine.get("won", 0)),
                texts.say(lang, texts.hands, n=mine.get("hands", 0), won=mine.get("hands_won", 0)),
            ]
        ),
    ]  # fmt: skip
    for i, group in enumerate(game.record_counters):
        items = [
            texts.say(lang, texts.counters[name], n=mine[name]) for name in group if mine.get(name)
        ]
        if not items:
            continue
        joined = " · ".join(items)
        wrapper = texts.groups.get(i)
        lines.append(texts.say(lang, wrapper, list=joined) if wrapper else joined)
    if place is not None:
        lines.append(t(lang, "records.rating", rating=place[0], pos=place[1], of=place[2]))
    if partner is not None:
        lines.append(partner)
    return lines


def pair_text(lang: str, a: str, b: str, won: int, games: int, key: str) -> str:
    return t(lang, key, pair=t(lang, "records.and", a=a, b=b), won=won, lost=games - won)


def ago(lang: str, then: float, now: float | None = None) -> str:
    """``hace 5 min`` / ``hace 3 h`` / ``hace 2 d``.

    >>> ago("es", 0, 300), ago("en", 0, 7200), ago("es", 0, 3 * 86400)
    ('hace 5 min', '2 h ago', 'hace 3 d')
    """
    seconds = max(0.0, (time.time() if now is None else now) - then)
    if seconds < 3600:
        return t(lang, "records.ago.minutes", n=max(1, int(seconds // 60)))
    if seconds < 86400:
        return t(lang, "records.ago.hours", n=int(seconds // 3600))
    return t(lang, "records.ago.days", n=int(seconds // 86400))


def history_text(lang: str, games: Sequence[GameRecord], now: float | None = None) -> str:
    """The last games of a group, newest first, each with who won."""
    if not games:
        return t(lang, "records.none")
    rows = [t(lang, "records.history.title")]
    for record in games:
        winners = [recorded_name(lang, p) for p in record.winners()]
        others = [recorded_name(lang, p) for p in record.players if record.places[p.seat] != 0]
        rows.append(
            t(
                lang,
                "records.history.row",
                id=record.id,
                game=game_title(record.game, lang),
                ago=ago(lang, record.ended, now),
                hands=record.hands,
                winners=_join(lang, winners),
                others=_join(lang, others),
            )
        )
    rows.append(t(lang, "records.history.more", id=games[0].id))
    return "\n\n".join(rows)


def _join(lang: str, names: Sequence[str]) -> str:
    if len(names) == 2:
        return t(lang, "records.and", a=names[0], b=names[1])
    return ", ".join(names) or "—"
