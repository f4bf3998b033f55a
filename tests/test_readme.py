"""The README's Python examples run as written (so the front page never goes stale)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples() -> None:
    assert BLOCKS, "README.md lost its Python examples"


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "trump" in out  # the block prints the position it dealt
    assert re.search(r"\b[A-Z]+-\d+\b", out), "the block shows the rule an illegal move breaks"
