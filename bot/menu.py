"""The "/" command menu: one list, shown per scope (groups, private chats) and per language.

Groups get the lobby and information commands and every game's action commands (from each
game's :attr:`~bot.games.base.Game.menu_commands`); private chats get what is done there (the
private hand, discards, language, help). Names are Spanish in the Spanish menu (the default)
and English in the English one; descriptions come from ``locales/<lang>/LC_MESSAGES/menu.po``.

>>> [name for name, _ in menu("private", "en")][:3]
['cards', 'discard', 'language']
>>> "ordago" in dict(menu("group", "es")) and "allin" in dict(menu("group", "en"))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from bot.games.base import MenuCommand
from bot.games.registry import GAMES
from locales import t

Scope = Literal["group", "private"]
SCOPES: tuple[Scope, ...] = ("group", "private")
"""The menu's scopes: ``BotCommandScopeAllGroupChats`` and ``BotCommandScopeAllPrivateChats``."""
MAX_COMMANDS = 100
"""Telegram's limit of commands in one menu."""

_LOBBY = (
    MenuCommand("nueva", "new", "menu.nueva"),
    MenuCommand("unirme", "join", "menu.unirme"),
    MenuCommand("empezar", "go", "menu.empezar"),
    MenuCommand("salir", "leave", "menu.salir"),
    MenuCommand("maquina", "addbot", "menu.maquina"),
    MenuCommand("vuelvo", "back", "menu.vuelvo"),
)
_GROUP_INFO = (
    MenuCommand("mesa", "table", "menu.mesa"),
    MenuCommand("cartas", "cards", "menu.cartas"),
    MenuCommand("ayuda", "help", "menu.ayuda"),
    MenuCommand("reglas", "rules", "menu.reglas"),
    MenuCommand("idioma", "language", "menu.idioma"),
    MenuCommand("vista", "view", "menu.vista"),
    MenuCommand("estadisticas", "stats", "menu.estadisticas"),
    MenuCommand("ranking", "ranking", "menu.ranking"),
    MenuCommand("historial", "history", "menu.historial"),
    MenuCommand("mano", "hand", "menu.mano"),
    MenuCommand("cancelar", "cancel", "menu.cancelar"),
)
_PRIVATE = (
    MenuCommand("cartas", "cards", "menu.cartas_private"),
    MenuCommand("descarto", "discard", "menu.descarto"),
    MenuCommand("idioma", "language", "menu.idioma_private"),
    MenuCommand("ayuda", "help", "menu.ayuda"),
    MenuCommand("reglas", "rules", "menu.reglas"),
    MenuCommand("olvidame", "forgetme", "menu.olvidame"),
)


def commands(scope: Scope) -> list[MenuCommand]:
    """The menu of a scope, in order (the games' actions after the lobby commands)."""
    if scope == "private":
        return list(_PRIVATE)
    game_commands = [c for game in GAMES.values() for c in game.menu_commands]
    return [*_LOBBY, *game_commands, *_GROUP_INFO]


def menu(scope: Scope, lang: str) -> list[tuple[str, str]]:
    """``(command, description)`` pairs for one scope and language (each name once: the first
    game to list a shared command, such as ``/quiero``, describes it)."""
    return _unique((c.en if lang == "en" else c.es, t(lang, c.key)) for c in commands(scope))


def _unique(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for name, text in pairs:
        seen.setdefault(name, text)
    return list(seen.items())[:MAX_COMMANDS]
