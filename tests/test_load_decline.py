"""``load`` may decline (issue 14): an engine that cannot represent a position answers with
the standard ``"declined": true`` error (in Python: raises ``LoadDeclined``), and the
scenario is skipped with its reason instead of erroring.
"""

from __future__ import annotations

import io
import shlex
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from durak_spec.conformance.checker import check_engine
from durak_spec.conformance.kept_engine import KeptEngine
from durak_spec.model.state import GameState
from durak_spec.protocol import Capabilities, LoadDeclined, ReferenceEngine, Report
from durak_spec.protocol.subprocess_engine import SubprocessEngine
from durak_spec.protocol.wire import ErrorReply, ProtocolError, decode_reply, encode_reply
from durak_spec.spec.runner import run

WHY = "this engine seats two players only"


class TwoSeats(ReferenceEngine):
    """Loads two-player positions only; declines the others."""

    def capabilities(self) -> Capabilities:
        return replace(super().capabilities(), name="two seats")

    def load(self, state: GameState) -> Report:
        if state.players != 2:
            raise LoadDeclined(WHY)
        return super().load(state)


def test_a_declined_load_is_a_skip_with_the_reason() -> None:
    result = run(TwoSeats, rules=["TAKE-3"])
    skipped = result.with_outcome("skipped")
    assert skipped and result.ok
    assert {s.skip_reason for s in skipped} == {
        f"two seats declined to load the position: {WHY}"}
    assert all(len(s.players) > 2 for s in skipped)
    assert result.with_outcome("passed")


def test_the_declined_answer_goes_over_the_wire() -> None:
    line = encode_reply(ErrorReply(4, WHY, declined=True))
    assert '"declined":true' in line.replace(" ", "")
    assert decode_reply(line, "load") == ErrorReply(4, WHY, None, True)
    with pytest.raises(ProtocolError, match="only a load may be declined"):
        decode_reply(line, "start")


def test_a_subprocess_that_declines_is_skipped_not_errored(tmp_path: Path) -> None:
    script = tmp_path / "two_seats.py"
    script.write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_load_decline import TwoSeats
        from durak_spec.protocol.serve import serve
        serve(TwoSeats(), sys.stdin, sys.stdout)
        """), encoding="utf-8")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    out = io.StringIO()
    kept = KeptEngine(SubprocessEngine(command))
    try:
        code = check_engine(kept.fresh, rules=["TAKE-3"], out=out, err=io.StringIO())
    finally:
        kept.shutdown()
    text = out.getvalue()
    assert code == 0, text
    assert f"skipped: two seats declined to load the position: {WHY}" in text
    assert " 0 errored" in text
