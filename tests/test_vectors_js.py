"""The vectors' runner in JavaScript (examples/vectors.test.js): node's built-in test
runner plays every vector against the JavaScript example engine over the engine protocol,
with no Python involved, skipping what the engine does not claim and passing the rest.
Under CI a missing node fails instead of skipping."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from durak_spec.conformance.kept_engine import KeptEngine
from durak_spec.conformance.vectors import run_vectors, shipped_vectors
from durak_spec.protocol.subprocess_engine import SubprocessEngine

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "examples" / "vectors.test.js"
ENGINE = ROOT / "examples" / "engine_turns.js"
NODE = shutil.which("node")

if NODE is None:
    if os.environ.get("CI"):
        pytest.fail("node is not installed; .ci/run installs it", pytrace=False)
    pytest.skip("node is not installed", allow_module_level=True)


def _node_test() -> dict[str, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DURAK_")}
    done = subprocess.run([str(NODE), "--test", "--test-reporter=tap", str(RUNNER)],
                          capture_output=True, text=True, timeout=600, env=env,
                          cwd=ROOT, check=False)
    counts = {name: int(n) for name, n in re.findall(r"^# (\w+) (\d+)$", done.stdout, re.M)}
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return counts


def test_the_js_engine_passes_every_vector_it_claims_under_node_test() -> None:
    counts = _node_test()
    total = len(shipped_vectors().vectors)
    assert counts["tests"] == total and counts["fail"] == 0
    # It claims one bout protocol (opener-first) and one rule set for 2 to 4 players:
    # over half the vectors (235 of 413 in 0.3.0) play under its own rules.
    assert counts["pass"] >= 180
    assert counts["pass"] + counts["skipped"] == total


def test_node_and_python_runners_agree_on_what_the_js_engine_plays() -> None:
    kept = KeptEngine(SubprocessEngine([str(NODE), str(ENGINE)], timeout=10))
    try:
        result = run_vectors(shipped_vectors(), kept.fresh)
    finally:
        kept.shutdown()
    assert result.counts.failed == 0 and result.counts.errored == 0
    assert result.counts.passed == _node_test()["pass"]
