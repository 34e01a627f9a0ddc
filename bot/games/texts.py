"""The texts of a game that the shared flow shows, declared by the game itself.

The shared flow (lobby, ``/ayuda``, ``/reglas``, ``/estadisticas``, señas, the terminal) never
builds a locale key from a game's name: each game declares a :class:`Texts` with its own keys,
and the shared flow asks it for them. A game whose texts are not in ``locales/`` (the tests'
tiny game) overrides :meth:`Texts.say`.

>>> texts = Texts("game.mus", "rules.mus", "help.mus", "mus.bad_option", "records.line.games.mus",
...               "records.line.hands.mus", team="mus.team")
>>> texts.say("en", texts.team, n=2), texts.say("es", texts.title)
('Pair 2', 'Mus')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from locales import t


@dataclass(frozen=True)
class Texts:
    """The locale keys of one game's texts in the shared messages."""

    title: str
    """Its name as the group reads it ("Mus a piedras")."""
    rules: str
    """``/reglas``: its rules."""
    help: str
    """``/ayuda`` at one of its tables: its moves (first, before the shared commands)."""
    bad_option: str
    """The refusal of an option word of ``/nueva`` it does not know (``{word}``)."""
    games: str
    """``/estadisticas``: its games played and won (``{n}``, ``{won}``)."""
    hands: str
    """``/estadisticas``: its hands played and won (``{n}``, ``{won}``)."""
    team: str = ""
    """A team's name (``{n}``: 1 or 2), in a game with teams."""
    senas: Mapping[str, str] = field(default_factory=dict)
    """Each seña's name as its engine writes it → the key of its name in the table's language."""
    counters: Mapping[str, str] = field(default_factory=dict)
    """Each of its own record counters (``Game.record_counters``) → its label (``{n}``)."""
    groups: Mapping[int, str] = field(default_factory=dict)
    """A line of ``record_counters`` (its index) → a wrapper of that line's labels
    (``{list}``); a line without one shows the labels alone."""

    def say(self, lang: str, key: str, **params: Any) -> str:
        """The text of one of these keys in ``lang``."""
        return t(lang, key, **params)

    def sena(self, lang: str, name: str) -> str:
        """A seña's name in ``lang`` (one the game does not declare: as the engine wrote it)."""
        key = self.senas.get(name)
        return self.say(lang, key) if key is not None else name
