"""Engine benchmarks: run every ``bench/engine_<game>.py`` present and print its figures.

Usage: ``python bench/engine.py [game ...]``. Each module exposes ``run() -> list[Figure]`` where a
figure is ``(label, value, unit)``; this script only formats them.
"""

from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def main(argv: list[str]) -> None:
    games = argv or ["mus", "piedras", "envite"]
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    for game in games:
        path = HERE / f"engine_{game}.py"
        if not path.exists():
            continue
        spec = importlib.util.spec_from_file_location(f"engine_{game}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"\n[{game}]")
        for label, value, unit in module.run():
            print(f"  {label:<48} {value:>14,.0f} {unit}")


if __name__ == "__main__":
    main(sys.argv[1:])
