"""``/mano``: a stored hand replayed by the engine and shown as its result message was.

Only public events reach the text (the engine puts hidden cards in private events only, and
reveals cards publicly only at a showdown), so nothing is shown that the hand's end did not
show to the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.registry import get_game
from bot.games.seats import LogEntry, Player
from bot.records.book import replay
from bot.records.model import HandLog, RecordedPlayer
from bot.table import Table
from locales import t


def hand_text(
    lang: str,
    game_name: str,
    options: dict[str, object],
    players: Sequence[RecordedPlayer],
    hand_doc: str,
) -> str | None:
    """The result of the stored hand as the group saw it (``None``: nothing to show)."""
    game = get_game(game_name)
    log = HandLog.model_validate_json(hand_doc)
    end, events = replay(game, log)
    public = [e for e in events if e.public]
    table = Table(
        chat_id=0,
        creator=0,
        game=game_name,
        options=dict(options),
        lang=lang,
        status="over",
        players=[
            Player(user_id=p.id, name=p.name or t(lang, "records.anonymous"), team=p.team)
            for p in players
        ],
        state=game.to_json(end),
    )
    hand_log = [LogEntry(kind=e.kind, data=dict(e.data)) for e in public]
    return game.result_text(table, public, hand_log)
