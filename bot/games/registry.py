"""The games the bot can host: the one registry a new game is added to (one line a game).

>>> find_game("MUS").name, find_game("poker")
('mus', None)
"""

from __future__ import annotations

from bot.games.base import Game
from bot.games.envite.adapter import ENVITE
from bot.games.mus.adapter import MUS
from bot.games.piedras.adapter import PIEDRAS

GAMES: dict[str, Game] = {game.name: game for game in (MUS, ENVITE, PIEDRAS)}
DEFAULT_GAME = MUS.name


def get_game(name: str) -> Game:
    """The game of a table by its name (``KeyError`` if the bot does not host it)."""
    return GAMES[name]


def find_game(word: str) -> Game | None:
    """The game a word after ``/nueva`` names (its name or an alias), else ``None``."""
    word = word.lower()
    for game in GAMES.values():
        if word == game.name or word in game.aliases:
            return game
    return None


def game_title(name: str, lang: str) -> str:
    """The name of a game as the group reads it, by its registry name (a record of a game no
    longer hosted keeps its name)."""
    game = GAMES.get(name)
    return game.title(lang) if game is not None else name


def command_names() -> list[str]:
    """Every game's action command names, for the handler wiring (each once)."""
    names: dict[str, None] = {}
    for game in GAMES.values():
        names.update(dict.fromkeys(game.commands))
    return list(names)
