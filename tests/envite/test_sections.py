"""Every section of rules/envite.md (E1..E8) is cited by at least one envite test."""

from __future__ import annotations

import re
from pathlib import Path

SECTIONS = [f"E{i}" for i in range(1, 9)]


def test_every_rules_section_is_cited_by_a_test() -> None:
    """E1-E8: the brief requires one test per section at least."""
    here = Path(__file__).resolve().parent
    text = "\n".join(
        p.read_text(encoding="utf-8")
        for p in here.glob("test_*.py")
        if p.name != Path(__file__).name
    )
    cited = set(re.findall(r"\b[Ee](\d)\b|test_e(\d)_", text))
    numbers = {a or b for a, b in cited}
    missing = [s for s in SECTIONS if s[1:] not in numbers]
    assert not missing, f"sections never cited: {missing}"
