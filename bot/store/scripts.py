"""The Redis back-end's Lua scripts: ``lua/<name>.lua`` beside this module (package data).

A script's first line may name the libraries it uses (``-- uses: seen shown``: the local
functions of ``lua/seen.lua`` and ``lua/shown.lua``), which are put before it; ``$NAME``
placeholders (the budget's rates in ``lua/bucket.lua``) are filled in from :mod:`bot.store.budget`.

>>> "local function seen(" in lua("first_time") and lua("first_time").startswith("--")
True
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from string import Template

from bot.store.budget import BOT_BURST, BOT_RATE, GROUP_BURST, GROUP_RATE

__all__ = ["lua"]

_USES = "-- uses:"


@cache
def _read(name: str) -> str:
    return (files(__package__ or "bot.store") / "lua" / f"{name}.lua").read_text(encoding="utf-8")


_VALUES = {
    "GROUP_RATE": GROUP_RATE,
    "GROUP_BURST": GROUP_BURST,
    "BOT_RATE": BOT_RATE,
    "BOT_BURST": BOT_BURST,
}


def lua(name: str) -> str:
    """The text of script ``name`` after the libraries it uses, placeholders filled in."""
    text = _read(name)
    first = text.partition("\n")[0]
    uses = first.removeprefix(_USES).split() if first.startswith(_USES) else []
    source = "".join([*(_read(lib) for lib in uses), text])
    return Template(source).substitute(_VALUES) if "$" in source else source
