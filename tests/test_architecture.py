"""DESIGN.md layout: arrows point down (bot -> engine, bot -> locales); the engine is pure."""

import ast
import re
from pathlib import Path

from bot.shown import FIELDS

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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bot_import_graph() -> dict[str, set[str]]:
    """Which ``bot`` modules each ``bot`` module imports, counting every import statement:
    inside functions and under ``TYPE_CHECKING`` too (they hide a cycle from the interpreter,
    not from the design). ``from bot.x import y`` counts ``bot.x`` and, if it is a module,
    ``bot.x.y``."""
    paths = {_module_name(p): p for p in (ROOT / "bot").rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                while target and target not in paths:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm).

    >>> sorted(sorted(c) for c in import_cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}))
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


#: Import cycles still to break, each named by one of its modules (none left: the list may only
#: shrink). The test fails when a new cycle appears, and when one listed here is gone.
KNOWN_CYCLES: set[str] = set()


def test_bot_modules_have_no_import_cycle_but_the_known_ones() -> None:
    cycles = import_cycles(bot_import_graph())
    named = {name for cycle in cycles for name in cycle & KNOWN_CYCLES}
    new = [sorted(cycle) for cycle in cycles if not cycle & KNOWN_CYCLES]
    assert not new, f"new import cycles: {new}"
    assert named == KNOWN_CYCLES, f"cycles broken: remove {sorted(KNOWN_CYCLES - named)}"
    for cycle in cycles:
        assert len(cycle & KNOWN_CYCLES) == 1, f"two known cycles merged: {sorted(cycle)}"


def test_the_flow_never_reads_or_writes_what_is_shown() -> None:
    """The flow changes the game session; the message ids, the outbox and who is unreachable are
    the publisher's record (``bot.shown``), reached by the flow only through the document's
    named requests (``resend_hand``, ``table_posted``). What is posted (a notice, a nudge, a
    finished hand's closing, a game's result) is ``bot.present.post``'s, from the step."""
    names = FIELDS | {
        "shown", "notify", "close_hand", "end_game", "repost_table", "say_unreachable",
        "table_link",
    }  # fmt: skip
    for path in (ROOT / "bot" / "flow").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                assert node.attr not in names, f"{path.relative_to(ROOT)} touches .{node.attr}"


def test_only_the_present_floor_queues_a_notice() -> None:
    """The flow, the handlers and the table document queue no notice themselves (no ``notify``):
    what a write posts beyond the kept messages is ``bot.present``'s (``post`` for a step of the
    flow, one named function for each notice of the lobby and the seats, who is unreachable,
    ``/mesa``'s repost), its texts in one place."""
    bot = ROOT / "bot"
    paths = [*(bot / "flow").rglob("*.py"), *(bot / "handlers").rglob("*.py"), bot / "table.py"]
    for path in paths:
        # The document neither says who is unreachable nor closes a hand (both notify).
        names = {"notify"} | ({"unreachable", "hand_closed"} if path.name == "table.py" else set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                assert node.attr not in names, f"{path.relative_to(ROOT)} queues a notice"


def test_the_store_ships_its_scripts_and_schema() -> None:
    """An installed wheel has what the store reads with importlib.resources: every file beside
    its modules matches a package-data pattern of pyproject.toml."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot.store"]
    store = ROOT / "bot" / "store"
    data = [p for p in store.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert data and any(p.suffix == ".lua" for p in data)
    for path in data:
        assert any(path.relative_to(store).match(pattern) for pattern in patterns), path


def _formatted_keys(source: str) -> list[tuple[int, str, re.Pattern[str]]]:
    """Every string the source builds that looks like a locale key with parts filled in (an
    f-string, or ``+`` of constants and expressions): its line, its shape (``{}`` for each
    part filled in) and a pattern matching the keys it can build, one group a part."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else None for v in node.values]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = []
            for side in (node.left, node.right):
                constant = isinstance(side, ast.Constant) and isinstance(side.value, str)
                parts.append(side.value if constant else None)  # type: ignore[union-attr]
            if all(p is None for p in parts):
                continue
        else:
            continue
        text = [p for p in parts if p is not None]
        if None not in parts or not all(re.fullmatch(r"[a-z0-9_.]*", p) for p in text):
            continue
        if "." not in "".join(text):
            continue
        shape = "".join("{}" if p is None else p for p in parts)
        pattern = "".join(
            r"([a-z0-9_]+(?:\.[a-z0-9_]+)*)" if p is None else re.escape(p) for p in parts
        )
        found.append((node.lineno, shape, re.compile(pattern)))
    return found


def game_named_keys(source: str, keys: set[str], names: set[str]) -> list[str]:
    """Where the source builds one of ``keys`` with a game's name in a part it fills in."""
    bad = []
    for line, shape, pattern in _formatted_keys(source):
        for key in sorted(keys):
            match = pattern.fullmatch(key)
            if match and any(set(g.split(".")) & names for g in match.groups()):
                bad.append(f"line {line}: {shape} builds {key}")
                break
    return bad


def test_shared_bot_code_never_builds_a_locale_key_from_a_game_name() -> None:
    """The shared flow never asks which game it is: a game's own texts (title, rules, help,
    team names, señas, record lines...) are keys it declares (``Game.texts``), so a fourth
    game touches no shared file. Only a game's own folder (``bot/games/<game>/``) may name
    its keys."""
    from bot.games.registry import GAMES
    from locales import LANGUAGES, catalog

    names = {n for game in GAMES.values() for n in (game.name, *game.aliases)}
    keys = {key for lang in LANGUAGES for key in catalog(lang)}
    keys = {key for key in keys if set(key.split(".")) & names}
    # The check finds what the shared code used to do.
    old = 't(lang, f"{game}.bad_option")\nt(lang, "rules." + name)\nf"senas.{g}.{slug(x)}"'
    assert len(game_named_keys(old, keys, names)) == 3
    games = ROOT / "bot" / "games"
    own = {p.parent for p in games.glob("*/__init__.py")}
    assert own, "no game folders found"
    bad = {}
    for path in (ROOT / "bot").rglob("*.py"):
        if any(folder in path.parents for folder in own):
            continue
        found = game_named_keys(path.read_text(encoding="utf-8"), keys, names)
        if found:
            bad[str(path.relative_to(ROOT))] = found
    assert not bad, bad


def game_name_tests(source: str, names: set[str]) -> list[str]:
    """Where ``source`` asks which game it is: a comparison with a game's name (``game ==
    "mus"``, ``name in ("envite", "piedras")``) or a ``case "mus":``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
        elif isinstance(node, ast.match_case):
            sides = [node.pattern.value] if isinstance(node.pattern, ast.MatchValue) else []
        else:
            continue
        for side in sides:
            items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
            if any(isinstance(i, ast.Constant) and i.value in names for i in items):
                found.append(f"{getattr(node, 'lineno', '?')}: {ast.unparse(node)[:80]}")
    return found


def test_shared_bot_code_never_asks_which_game_it_is() -> None:
    """Adding a game touches no shared file but the registry: outside a game's own folder
    (``bot/games/<game>/``) and ``bot/games/registry.py`` no code compares with a game's
    name; what differs between games is declared by the game (its ``Features``, texts and
    looks)."""
    from bot.games.registry import GAMES

    names = {n for game in GAMES.values() for n in (game.name, *game.aliases)}
    old = (
        'if table.game == "mus":\n    pass\n'
        'ok = g in ("envite", "x")\n'
        'match g:\n    case "piedras":\n        pass\n'
    )
    assert len(game_name_tests(old, names)) == 3  # the check finds what it looks for
    games = ROOT / "bot" / "games"
    own = {p.parent for p in games.glob("*/__init__.py")}
    bad = {}
    for path in (ROOT / "bot").rglob("*.py"):
        if any(folder in path.parents for folder in own) or path == games / "registry.py":
            continue
        found = game_name_tests(path.read_text(encoding="utf-8"), names)
        if found:
            bad[str(path.relative_to(ROOT))] = found
    assert not bad, bad


MAX_LINES = 600


def test_no_module_of_the_bot_is_over_600_lines() -> None:
    """Small modules with one job each (issue 22's aim): a module that grows past this splits."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "bot").rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


def test_no_module_of_the_engine_is_over_600_lines() -> None:
    """The engine too: a game's state machine is split by the steps of a transition (the deal,
    the lances or tricks, the bets, scoring), its computer player by what it reckons."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "engine").rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long
