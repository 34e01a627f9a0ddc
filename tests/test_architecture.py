"""DESIGN.md layout: arrows point down (bot -> engine, bot -> locales); the engine is pure."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {
    "bot", "locales", "telegram", "redis", "fakeredis", "asyncio", "socket", "time",
    "datetime", "os", "requests", "httpx", "threading", "subprocess",
}  # fmt: skip


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_never_imports_io_or_the_bot() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        bad = _imports(path) & FORBIDDEN_IN_ENGINE
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engine_uses_no_global_random() -> None:
    """Randomness is an input: only ``random.Random`` instances owned by a state are allowed."""
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                raise AssertionError(f"{path.relative_to(ROOT)} uses random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                names = {a.name for a in node.names}
                assert names <= {"Random"}, f"{path.relative_to(ROOT)} imports {names}"


def test_locales_do_not_import_the_bot() -> None:
    for path in (ROOT / "locales").rglob("*.py"):
        assert "bot" not in _imports(path), path
