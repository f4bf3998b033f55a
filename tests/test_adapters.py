"""Real third-party engines behind their adapters (examples/adapters/), checked through the
command line as a user types it: each completes its handshake and a check, and the causes
the report shows are the differences listed on the website's page "Check your engine"
(book/implementers.md, section "Checked against real engines"), so the page cannot go stale
silently.

durakgame comes from PyPI, pinned in the dev extra; the test skips when it is not installed.
durakmq is not on PyPI and its code is not in this repository: its test runs when the
environment variable DURAKMQ names a checkout (see examples/adapters/durakmq/README.md) and
skips otherwise.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADAPTERS = ROOT / "examples" / "adapters"
PAGE = ROOT / "book" / "implementers.md"
RULE_OR_NONE = re.compile(r"\b[A-Z]+-\d+\b|no rule")


def durak_spec() -> str:
    """The installed ``durak-spec`` command, as a user runs it."""
    found = shutil.which("durak-spec", path=str(Path(sys.executable).parent)) \
        or shutil.which("durak-spec")
    assert found is not None, "the durak-spec command is not installed"
    return found


def engines() -> list[Any]:
    have_durakgame = importlib.util.find_spec("durakgame") is not None
    durakmq = os.environ.get("DURAKMQ", "")
    have_durakmq = bool(durakmq) and (Path(durakmq) / "durak.py").is_file()
    return [
        pytest.param("durakgame 1.0.4 (PyPI)",
                     f'"{sys.executable}" {ADAPTERS / "durakgame" / "adapter.py"}',
                     marks=pytest.mark.skipif(not have_durakgame, reason="durakgame is not "
                                              "installed (pip install durakgame==1.0.4)"),
                     id="durakgame"),
        pytest.param("durakmq (GitHub)",
                     f'"{sys.executable}" {ADAPTERS / "durakmq" / "adapter.py"} "{durakmq}"',
                     marks=pytest.mark.skipif(not have_durakmq, reason="DURAKMQ does not name "
                                              "a checkout of tirinox/durakmq"),
                     id="durakmq"),
    ]


def listed(heading: str) -> dict[str, Counter[str]]:
    """The causes the page lists for one engine, per mode: ``{"examples": Counter, ...}``.

    Each cell reads ``N: RULE, RULE`` (or ``0``); the count must match the rules named."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Checked against real engines", 1)[1]
    block = section.split(f"### {heading}", 1)[1].split("\n#", 1)[0]
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    found: dict[str, Counter[str]] = {"examples": Counter(), "lockstep": Counter()}
    for row in rows[1:]:
        cells = dict(zip(header, (c.strip() for c in row.strip("|").split("|")), strict=True))
        for mode in found:
            count, _, names = cells[mode].partition(":")
            labels = RULE_OR_NONE.findall(names)
            assert int(count) == len(labels), f"{heading}: {cells[mode]!r} counts wrong"
            found[mode].update(labels)
    assert rows[1:], f"{heading}: the page lists no difference"
    return found


def check(command: str, *options: str) -> dict[str, Any]:
    """``durak-spec check --engine COMMAND ...`` with its JSON report on standard output."""
    done = subprocess.run([durak_spec(), "check", "--engine", command, "--json", "-",
                           *options], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, cwd=ROOT)
    assert done.returncode == 1, done.stderr[-3000:]  # 1: the engine broke a rule
    assert "Traceback" not in done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def labels(report: dict[str, Any]) -> Counter[str]:
    return Counter(cause["rule"] or "no rule" for cause in report["causes"])


@pytest.mark.parametrize(("heading", "command"), engines())
def test_the_examples_report_the_listed_causes(heading: str, command: str) -> None:
    report = check(command)
    assert report["counts"]["passed"] > 100  # the handshake and the plain games work
    assert report["counts"]["errored"] == 0
    assert labels(report) == listed(heading)["examples"]


@pytest.mark.parametrize(("heading", "command"), engines())
def test_a_short_lockstep_run_reports_only_listed_causes(heading: str, command: str) -> None:
    report = check(command, "--random", "3", "--seed", "0")
    found = labels(report)
    assert found, "three games per configuration find no difference"
    assert set(found) <= set(listed(heading)["lockstep"])


@pytest.mark.skipif(importlib.util.find_spec("durakgame") is None,
                    reason="durakgame is not installed (pip install durakgame==1.0.4)")
def test_the_replayed_game_names_durakgames_five_card_reading() -> None:
    """A game of the reference whose second bout follows a take: durakgame still caps it at
    five cards (no discard yet), which random games rarely reach; the page says the replay
    names LIMIT-3."""
    record = ADAPTERS / "durakgame" / "five-until-first-discard.json"
    command = f'"{sys.executable}" {ADAPTERS / "durakgame" / "adapter.py"}'
    report = check(command, "--replay", str(record))
    assert report["divergence"]["rule"] == "LIMIT-3"
    assert str(record.relative_to(ROOT)) in PAGE.read_text(encoding="utf-8")
