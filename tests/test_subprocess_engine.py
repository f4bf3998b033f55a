"""The subprocess engine and the JSON-lines server.

The reference engine served by ``python -m durak_spec.serve`` plays random games in
lockstep with the in-process reference: identical legal actions, verdicts and reports.
Deliberately broken engines (small scripts) crash, exit, write malformed JSON or a 10 MB
line, answer with the wrong id or a missing field, or hang: each is reported with the
right kind and the offending line, without a hang, and no process is left behind.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import SLOW_START

from durak_spec import (
    DECK,
    Cover,
    InvalidState,
    RuleSet,
    Take,
    ThrowIn,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.engine import deal
from durak_spec.model.actions import Action
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    Engine,
    ReferenceEngine,
    Rejected,
    Report,
)
from durak_spec.protocol.serve import Server, serve
from durak_spec.protocol.subprocess_engine import (
    FAILURE_KINDS,
    EngineError,
    EngineFailure,
    FailureKind,
    SubprocessEngine,
)
from durak_spec.protocol.wire import LoadRequest, encode_request, quote

PYTHON = sys.executable
SERVE = [PYTHON, "-m", "durak_spec.serve"]


def _zombie(pid: int) -> bool:
    """A process that has died and only waits to be reaped (Linux /proc; else False)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")


def assert_gone(pid: int, within: float = 5.0) -> None:
    """``pid`` no longer runs: ``os.kill(pid, 0)`` fails (or it is a dead zombie)."""
    deadline = time.monotonic() + within
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        if _zombie(pid):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"process {pid} is still running")
        time.sleep(0.02)


RULES = profile("classic-transfer").rules(players=3)
DECK_ORDER = deal(RULES, 11)


# -- the reference through the subprocess, in lockstep ------------------------------------------


@pytest.fixture(scope="module")
def served() -> Iterator[SubprocessEngine]:
    with SubprocessEngine(SERVE, timeout=SLOW_START) as engine:
        yield engine


GAMES: list[tuple[RuleSet, int]] = [
    (profile("classic-throw-in").rules(players=2), 1),
    (profile("classic-throw-in").rules(players=4), 2),
    (profile("classic-transfer").rules(players=3), 3),
    (profile("classic-transfer").rules(players=6), 4),
    (profile("source-b").rules(players=2), 5),
    (profile("source-b-transfer").rules(players=2).replace(transfer_by_showing_trump=True), 6),
    (profile("source-d-transfer").rules(players=5), 7),
    (profile("source-a").rules(players=3).replace(trump_exchange=True,
                                                  throw_in=ThrowInRule.NEIGHBOURS), 8),
]


def _illegal(actions: Sequence[Action], report: Report, rng: random.Random) -> Action:
    """An action that is not among ``actions`` (so both engines must reject it)."""
    seats = len(report.hands)
    candidates: list[Action] = [Take(s) for s in range(seats)]
    for seat, hand in enumerate(report.hands):
        others = [c for c in DECK if c not in hand]
        candidates.append(ThrowIn(seat, rng.choice(others)))
        if report.table:
            candidates.append(Cover(seat, report.table[0][0], rng.choice(others)))
    return rng.choice([a for a in candidates if a not in actions])


@pytest.mark.parametrize(("rules", "seed"), GAMES)
def test_the_served_reference_plays_in_lockstep_with_the_reference(
        served: SubprocessEngine, rules: RuleSet, seed: int) -> None:
    reference = ReferenceEngine()
    rng = random.Random(seed)
    deck = deal(rules, seed)
    assert served.start(rules, deck, seed) == reference.start(rules, deck, seed)
    steps = 0
    while True:
        actions = reference.legal_actions()
        assert served.legal_actions() == actions
        if not actions:
            break
        if steps % 7 == 3:  # an illegal action: both reject it, with the same rule
            wrong = _illegal(actions, reference.report(), rng)
            verdict = reference.apply(wrong)
            assert isinstance(verdict, Rejected)
            assert served.apply(wrong) == verdict
        if steps % 25 == 20:  # a position loaded mid-game plays on identically
            assert served.load(reference.state) == reference.report()
        action = rng.choice(actions)
        assert served.apply(action) == reference.apply(action) == Accepted()
        assert served.report() == reference.report()
        steps += 1
    report = served.report()
    assert report.over and report == reference.report()
    assert steps > 10


def test_the_served_reference_says_who_it_is(served: SubprocessEngine) -> None:
    assert isinstance(served, Engine)
    # The server adds one capability of the wire: one round trip per action (step).
    assert served.capabilities() == replace(ReferenceEngine().capabilities(), step=True)
    assert served.running and served.pid is not None


def test_one_round_trip_per_action_with_the_step_capability(served: SubprocessEngine) -> None:
    """An engine that declares step answers apply with the report and legal actions after
    it: one request per action; a rejection is followed by fresh questions."""
    served.capabilities()
    rules = profile("classic-throw-in").rules(players=3)
    reference = ReferenceEngine()
    deck = deal(rules, 4)
    served.start(rules, deck, 4)
    reference.start(rules, deck, 4)
    served.legal_actions()
    before = served.stats.requests
    for _ in range(20):
        action = reference.legal_actions()[0]
        assert served.apply(action).ok and reference.apply(action).ok
        assert served.report() == reference.report()
        assert set(served.legal_actions()) == set(reference.legal_actions())
    assert served.stats.requests - before == 20
    illegal = Take(reference.state.attacker)
    assert not served.apply(illegal).ok
    served.report()
    served.legal_actions()
    assert served.stats.requests - before == 23


def test_refusals_keep_the_engine_running(served: SubprocessEngine) -> None:
    reference = ReferenceEngine()
    short = DECK_ORDER[:-1]
    with pytest.raises(InvalidState) as ours:
        reference.start(RULES, short)
    with pytest.raises(InvalidState) as theirs:
        served.start(RULES, short)
    assert (theirs.value.rule, theirs.value.reason) == (ours.value.rule, ours.value.reason)
    assert theirs.value.rule == "DEAL-1"

    state = new_game(RULES, deck=DECK_ORDER)
    twice = state._replace(hands=(state.hands[0] + (state.hands[1][0],), *state.hands[1:]))
    with pytest.raises(InvalidState) as ours:
        reference.load(twice)
    with pytest.raises(InvalidState) as theirs:
        served.load(twice)
    assert (theirs.value.rule, theirs.value.reason) == (ours.value.rule, ours.value.reason)
    assert served.running
    assert served.start(RULES, DECK_ORDER) == Report.of(state)


def test_asking_before_a_game_is_an_error_not_a_failure() -> None:
    with SubprocessEngine(SERVE, timeout=SLOW_START) as engine:
        with pytest.raises(EngineError) as caught:
            engine.legal_actions()
        assert caught.value.cmd == "legal" and "no game" in caught.value.error
        assert engine.running
        engine.start(RULES, DECK_ORDER)
        assert engine.legal_actions() == legal_actions(new_game(RULES, deck=DECK_ORDER))


def test_overhead_per_request_is_measured(served: SubprocessEngine) -> None:
    served.start(RULES, DECK_ORDER)
    before = served.stats
    started = time.perf_counter()
    for _ in range(200):
        served.report()
    elapsed = time.perf_counter() - started
    after = served.stats
    assert after.requests - before.requests == 200
    assert 0 < after.seconds - before.seconds <= elapsed
    mean_us = (after.seconds - before.seconds) / 200 * 1e6
    # A loose bound: it catches a poll interval or a sleep creeping into every request.
    assert mean_us < 5000, f"{mean_us:.0f} µs per request"
    assert after.mean_us > 0


# -- closing and restarting ---------------------------------------------------------------------


def test_close_ends_the_process_and_restart_brings_it_back() -> None:
    engine = SubprocessEngine(SERVE, timeout=SLOW_START)
    process = engine.process
    assert process is not None
    engine.start(RULES, DECK_ORDER)
    engine.close()
    assert process.poll() == 0  # it answered quit and exited by itself
    assert_gone(process.pid)
    assert not engine.running and engine.pid is None
    engine.close()  # twice is fine
    with pytest.raises(EngineFailure) as caught:
        engine.report()
    assert caught.value.kind == "exited" and "restart()" in str(caught.value)
    engine.restart()
    try:
        assert engine.pid != process.pid
        assert engine.start(RULES, DECK_ORDER).stock == 36 - 18
    finally:
        engine.close()


def test_a_forgotten_engine_is_killed_when_collected() -> None:
    engine = SubprocessEngine([PYTHON, "-c", "import time; time.sleep(60)"])
    pid = engine.pid
    assert pid is not None
    del engine
    gc.collect()
    assert_gone(pid)


def test_engines_left_open_are_killed_at_interpreter_exit(tmp_path: Path) -> None:
    script = tmp_path / "leave_open.py"
    script.write_text(textwrap.dedent("""
        import sys
        from durak_spec.protocol.subprocess_engine import SubprocessEngine
        engine = SubprocessEngine([sys.executable, "-c", "import time; time.sleep(60)"])
        print(engine.pid, flush=True)
        keep = [engine]  # never closed
    """))
    done = subprocess.run([PYTHON, str(script)], capture_output=True, text=True,
                          timeout=SLOW_START)
    assert done.returncode == 0, done.stderr
    assert_gone(int(done.stdout))


def test_an_engine_that_ignores_quit_is_killed_by_close(tmp_path: Path) -> None:
    engine = SubprocessEngine(_script(tmp_path, "deaf", BASE.format(
        setup="", before="", after="", end="time.sleep(60)")), timeout=SLOW_START)
    engine.capabilities()
    process = engine.process
    assert process is not None
    started = time.monotonic()
    engine.close()
    assert time.monotonic() - started < 4.0
    assert process.poll() is not None
    assert_gone(process.pid)


def test_a_command_that_cannot_start_fails_as_crashed(tmp_path: Path) -> None:
    with pytest.raises(EngineFailure) as caught:
        SubprocessEngine(str(tmp_path / "no-such-engine"))
    assert caught.value.kind == "crashed"
    assert "cannot start" in caught.value.detail


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="name a program"):
        SubprocessEngine("")
    with pytest.raises(ValueError, match="timeout"):
        SubprocessEngine(SERVE, timeout=0)
    with pytest.raises(ValueError, match="start_timeout"):
        SubprocessEngine(SERVE, start_timeout=-1.0)
    with pytest.raises(ValueError, match="max_line"):
        SubprocessEngine(SERVE, max_line=0)


# -- deliberately broken engines ----------------------------------------------------------------

# A served reference engine with hooks: ``before`` runs before answering request number
# ``n`` (1-based; ``line`` is the request, ``reply`` the answer to send), ``after`` after it.
BASE = """\
import json, os, signal, subprocess, sys, time
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
{setup}
server = Server(ReferenceEngine())
n = 0
for line in sys.stdin:
    n += 1
    reply = server.handle(line)
    request = json.loads(line)
{before}
    sys.stdout.write(reply + "\\n")
    sys.stdout.flush()
{after}
{end}
"""


def _script(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return [PYTHON, str(path)]


def _broken(tmp_path: Path, name: str, before: str = "", *, setup: str = "",
            after: str = "") -> list[str]:
    indent = "    "
    return _script(tmp_path, name, BASE.format(
        setup=setup, before=textwrap.indent(textwrap.dedent(before), indent),
        after=textwrap.indent(textwrap.dedent(after), indent), end=""))


def _play(engine: SubprocessEngine, requests: int = 40) -> None:
    """hello (request 1), start (2), then legal, apply, report, ... as a checker would
    (``requests`` actions; one request each where the engine declares ``step``)."""
    engine.capabilities()
    engine.start(RULES, DECK_ORDER)
    rng = random.Random(3)
    for _ in range(requests):
        actions = engine.legal_actions()
        if not actions:
            return
        engine.apply(rng.choice(actions))
        engine.report()


def _failure(engine: SubprocessEngine, *, timeout: float | None = None,
             within: float = 3.0) -> EngineFailure:
    """Play until the engine fails; check that it failed fast and left nothing behind."""
    process = engine.process
    assert process is not None
    if timeout is not None:
        # start-up gets all the time it needs (a failure right there, _play meets again) ...
        with contextlib.suppress(EngineFailure):
            engine.capabilities()
        engine.timeout = timeout  # ... and the requests of the game get ``timeout``
    started = time.monotonic()
    with pytest.raises(EngineFailure) as caught:
        _play(engine)
    elapsed = time.monotonic() - started
    assert elapsed < within, f"the failure took {elapsed:.1f} s to notice"
    assert process.poll() is not None
    assert_gone(process.pid)
    assert not engine.running and engine.pid is None
    failure = caught.value
    assert failure.kind in FAILURE_KINDS
    return failure


MISBEHAVIOURS: list[tuple[str, str, FailureKind, str | None, str]] = [
    # name, code run before answering, kind, the quoted line (a part of it), detail
    ("exits", "if n == 4: sys.exit(0)", "exited", None, "exit status 0"),
    ("dies", "if n == 4: sys.exit(7)", "crashed", None, "exit status 7"),
    ("killed", "if n == 5: os.kill(os.getpid(), signal.SIGKILL)", "crashed", None,
     "killed by SIGKILL"),
    ("malformed", "if n == 4: reply = reply[:25]", "malformed", '{"id":4,"ok":true,"accept',
     "not a JSON object"),
    ("not-an-object", "if n == 3: reply = '[1, 2, 3]'", "malformed", "[1, 2, 3]",
     "not a JSON object"),
    ("wrong-id", "if n == 4: reply = reply.replace('\"id\":4', '\"id\":5', 1)", "protocol",
     '{"id":5,"ok":true', "has id 5"),
    ("missing-field", "if n == 3: reply = json.dumps({'id': request['id'], 'ok': True})",
     "protocol", '{"id": 3, "ok": true}', "actions: is missing"),
    ("extra-field",
     "if n == 5: reply = reply[:-1] + ',\"mood\":\"great\"}'", "protocol", '"mood":"great"',
     "mood: is not a field"),
    ("bad-action", "if n == 3: reply = reply.replace('\"open\"', '\"opne\"')", "protocol",
     '"type":"opne"', "actions[0].type: must be one of open"),
    ("protocol-2", "if n == 1: reply = reply.replace('\"protocol\":1', '\"protocol\":2')",
     "protocol", None, "speaks protocol version 2"),
    ("chatty", "if n == 2: print('loading tables...')", "malformed", "loading tables...",
     "is not JSON"),
    # issue 12, item 3: nesting deep enough to overflow a recursive reader is malformed
    ("deep", "if n == 3: reply = '{\"id\":3,\"ok\":true,\"actions\":' + '[' * 987 + "
     "']' * 987 + '}'", "malformed", '{"id":3,"ok":true,"actions":[[[', "levels deep"),
    ("duplicate-key", "if n == 3: reply = reply[:-1] + ',\"ok\":true}'", "malformed",
     '"ok":true}', "appears twice"),
    ("surrogate", "if n == 3: reply = reply.replace('\"open\"', '\"\\\\ud800\"', 1)",
     "malformed", "ud800", "actions[0].type: the string holds a lone surrogate"),
    ("dies-leaving-a-child", "if n == 4: subprocess.Popen(['sleep', '60']); sys.exit(5)",
     "crashed", None, "exit status 5"),
    ("closes-output", "if n == 4: sys.stdout.close(); os.close(1); time.sleep(60)", "exited",
     None, "did not exit"),
]


@pytest.mark.parametrize(("name", "before", "kind", "quoted", "detail"), MISBEHAVIOURS,
                         ids=[m[0] for m in MISBEHAVIOURS])
def test_broken_engines_are_reported_and_killed(tmp_path: Path, name: str, before: str,
                                                kind: FailureKind, quoted: str | None,
                                                detail: str) -> None:
    engine = SubprocessEngine(_broken(tmp_path, name, before), timeout=SLOW_START)
    try:
        failure = _failure(engine)
        assert failure.kind == kind, str(failure)
        assert detail in failure.detail, str(failure)
        if quoted is None:
            assert failure.line is None
        else:
            assert failure.line is not None and quoted in failure.line, str(failure)
            assert f"it wrote: {quote(failure.line)}" in str(failure)  # cut to 200 characters
    finally:
        engine.close()


def test_after_a_failure_restart_gives_a_fresh_engine(tmp_path: Path) -> None:
    with SubprocessEngine(_broken(tmp_path, "once", "if n == 4: sys.exit(0)"),
                          timeout=SLOW_START) as engine:
        first = _failure(engine)
        with pytest.raises(EngineFailure) as caught:
            engine.legal_actions()
        assert caught.value.kind == "exited" and "call restart()" in caught.value.detail
        assert "stopped after it exited" in caught.value.detail
        engine.restart()
        assert engine.capabilities().name == "durak-spec reference"
        assert engine.start(RULES, DECK_ORDER).stock == 36 - 18
        assert engine.running
        with pytest.raises(EngineFailure) as again:  # request 4 again: it fails the same way
            engine.legal_actions()
            engine.apply(engine.legal_actions()[0])
        assert again.value.kind == first.kind == "exited"


def test_an_engine_that_crashes_at_start(tmp_path: Path) -> None:
    command = _script(tmp_path, "crash", "import sys\n"
                      "sys.stderr.write('engine: cannot find its tables\\n')\nsys.exit(3)\n")
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        failure = _failure(engine)
        assert failure.kind == "crashed"
        assert "exit status 3" in failure.detail and "hello" in failure.detail
        assert "cannot find its tables" in failure.stderr
        assert "its stderr ends: engine: cannot find its tables" in str(failure)
        assert "cannot find its tables" in engine.stderr


def test_an_engine_with_a_traceback_shows_its_last_line(tmp_path: Path) -> None:
    command = _broken(tmp_path, "raises", "if n == 3: raise KeyError('lost the stock')")
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        failure = _failure(engine)
    assert failure.kind == "crashed" and "exit status 1" in failure.detail
    assert "KeyError: 'lost the stock'" in str(failure)


def test_a_10_mb_line_is_cut_off(tmp_path: Path) -> None:
    command = _broken(tmp_path, "huge", """\
        if n == 4:
            sys.stdout.write('{"id": 4, "junk": "' + 'x' * 10_000_000 + '"}\\n')
            sys.stdout.flush()
            continue
    """)
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        failure = _failure(engine, within=5.0)
    assert failure.kind == "oversized"
    assert "1000000 bytes" in failure.detail
    assert failure.line is not None and failure.line.startswith('{"id": 4, "junk": "xxx')
    text = str(failure)
    assert "more characters)" in text and len(text) < 1000


def test_a_long_line_under_the_limit_is_accepted_and_the_limit_is_configurable(
        tmp_path: Path) -> None:
    padded = """\
        if n == 3:
            reply = reply[:-1] + ',"pad":"' + 'y' * 3000 + '"}'
    """
    with SubprocessEngine(_broken(tmp_path, "padded", padded), timeout=SLOW_START,
                          max_line=2000) as engine:
        failure = _failure(engine)
    assert failure.kind == "oversized" and "2000" in failure.detail


def test_a_hanging_engine_times_out(tmp_path: Path) -> None:
    command = _broken(tmp_path, "hangs", "if n == 4: time.sleep(60)")
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        started = time.monotonic()
        failure = _failure(engine, timeout=0.5, within=SLOW_START)
    assert failure.kind == "timeout" and "within 0.5 s" in failure.detail
    assert failure.line is None
    assert time.monotonic() - started < SLOW_START


def test_the_first_answer_of_every_process_gets_the_start_timeout(tmp_path: Path) -> None:
    # An engine that takes a second to start, then answers at once: half a second per
    # answer is plenty, but not for the first answer of a process, its start-up included.
    command = _broken(tmp_path, "slow-start", setup="time.sleep(1.0)")
    with SubprocessEngine(command, timeout=0.5, start_timeout=SLOW_START) as engine:
        assert engine.capabilities().name
        engine.start(RULES, DECK_ORDER)
        assert engine.legal_actions()
        engine.restart()  # a new process: its first answer has the allowance again
        assert engine.capabilities().name
    with SubprocessEngine(command, timeout=0.5) as engine, \
            pytest.raises(EngineFailure) as caught:  # without it: the time limit
        engine.capabilities()
    assert caught.value.kind == "timeout" and "within 0.5 s" in caught.value.detail


def test_a_timeout_fires_on_time(tmp_path: Path) -> None:
    command = _broken(tmp_path, "hangs-late", "if n == 3: time.sleep(60)")
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        engine.capabilities()
        engine.start(RULES, DECK_ORDER)
        engine.timeout = 0.5
        started = time.monotonic()
        with pytest.raises(EngineFailure) as caught:
            engine.legal_actions()
        elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert 0.45 <= elapsed < 2.0


def test_a_half_written_answer_then_a_hang_quotes_the_half(tmp_path: Path) -> None:
    command = _broken(tmp_path, "half", """\
        if n == 4:
            sys.stdout.write(reply[:12])
            sys.stdout.flush()
            time.sleep(60)
    """)
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        failure = _failure(engine, timeout=0.5)
    assert failure.kind == "timeout"
    assert failure.line == '{"id":4,"ok"'


def test_a_hanging_engine_and_its_children_are_all_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    command = _broken(tmp_path, "stubborn", f"""\
        if n == 4:
            child = subprocess.Popen(["sleep", "60"])
            open({str(pid_file)!r}, "w").write(str(child.pid))
            time.sleep(60)
    """, setup="signal.signal(signal.SIGTERM, signal.SIG_IGN)")
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        failure = _failure(engine, timeout=1.0)
    assert failure.kind == "timeout"
    assert_gone(int(pid_file.read_text()))


_ESCAPING_ENGINE = """\
import os, subprocess, sys, time
pids = sys.argv[1]
# a child that leaves the engine's process group (setsid) and stays
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                         start_new_session=True)
# a daemon's double fork: the grandchild leaves the group and its parent exits at once
middle = os.fork()
if middle == 0:
    os.setsid()
    grandchild = os.fork()
    if grandchild == 0:
        time.sleep(120)
        os._exit(0)
    with open(pids, "a") as out:
        out.write(f"{grandchild}\\n")
    os._exit(0)
os.waitpid(middle, 0)
with open(pids, "a") as out:
    out.write(f"{child.pid}\\n")
from durak_spec.cli.serve import main
sys.exit(main([]))
"""


def _escaping_engine(tmp_path: Path) -> tuple[list[str], Path]:
    script = tmp_path / "escaping.py"
    script.write_text(_ESCAPING_ENGINE, encoding="utf-8")
    pids = tmp_path / "pids"
    return [PYTHON, str(script), str(pids)], pids


def _pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text(encoding="utf-8").split()]


def test_children_that_left_the_process_group_are_killed_by_close(tmp_path: Path) -> None:
    command, pids = _escaping_engine(tmp_path)
    engine = SubprocessEngine(command, timeout=SLOW_START)
    engine.start(RULES, DECK_ORDER)
    escaped = _pids(pids)
    assert len(escaped) == 2
    assert engine.pid is not None
    for pid in escaped:  # they run in sessions of their own, out of the engine's group
        assert os.getsid(pid) != os.getsid(engine.pid)
        assert os.getpgid(pid) != engine.pid
    engine.close()
    for pid in escaped:
        assert_gone(pid)


def test_no_engine_process_outlives_the_checker(tmp_path: Path) -> None:
    command, pids = _escaping_engine(tmp_path)
    done = subprocess.run([PYTHON, "-m", "durak_spec", "check", "--engine",
                           " ".join(command), "--rule", "BEAT-1", "--timeout", "20"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    escaped = _pids(pids)
    assert len(escaped) >= 2  # two for each start of the engine (kept between scenarios)
    for pid in escaped:
        assert_gone(pid)


def test_a_flood_on_stderr_neither_blocks_nor_grows_without_bound(tmp_path: Path) -> None:
    command = _broken(tmp_path, "noisy", """\
        sys.stderr.write(f"request {n}: " + "." * 30_000 + "\\n")
        sys.stderr.flush()
    """)
    with SubprocessEngine(command, timeout=SLOW_START) as engine:
        _play(engine, requests=30)  # about 30 requests (one per action), 900 kB on stderr
        assert engine.running
        tail = engine.stderr
    assert len(tail) <= 1 << 16
    assert "request 1:" not in tail  # the oldest output made room
    last = max(int(word.rstrip(":")) for word in tail.split() if word.rstrip(":").isdigit())
    assert last >= 20 and tail.rstrip().endswith(".")


# -- the server in-process ----------------------------------------------------------------------


class _Exploding(ReferenceEngine):
    """An in-process engine with a bug in one method."""

    closed = False

    def report(self) -> Report:
        raise ZeroDivisionError("division by zero in report")

    def close(self) -> None:
        _Exploding.closed = True
        super().close()


def _lines(*messages: object) -> io.StringIO:
    return io.StringIO("".join((m if isinstance(m, str) else json.dumps(m)) + "\n"
                               for m in messages))


def test_serve_answers_every_request_and_stops_at_quit() -> None:
    rules = RULES.to_dict()
    deck = [str(c) for c in DECK_ORDER]
    out = io.StringIO()
    serve(_Exploding(), _lines(
        {"id": 1, "cmd": "hello"}, "", "   ",
        {"id": 2, "cmd": "start", "rules": rules, "deck": deck, "seed": 0},
        {"id": 3, "cmd": "state"},
        "not json",
        {"id": 4, "cmd": "apply", "action": {"player": 9, "type": "take"}},
        {"id": 5, "cmd": "apply", "action": {"player": 0, "type": "take"}},
        {"id": 6, "cmd": "quit"},
        {"id": 7, "cmd": "hello"},
    ), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3, None, 4, 5, 6]
    assert answers[0]["ok"] and answers[1]["ok"] and "report" in answers[1]
    assert answers[2] == {"id": 3, "ok": False,
                          "error": "ZeroDivisionError: division by zero in report"}
    assert not answers[3]["ok"] and "is not JSON" in answers[3]["error"]
    assert not answers[4]["ok"] and answers[4]["error"].startswith("action.player:")
    assert answers[5]["ok"] and answers[5]["accepted"] is False and answers[5]["rule"]
    assert answers[6] == {"id": 6, "ok": True}
    assert _Exploding.closed


def test_serve_stops_at_the_end_of_its_input() -> None:
    out = io.StringIO()
    serve(ReferenceEngine(), _lines({"id": 1, "cmd": "legal"}), out)
    assert json.loads(out.getvalue())["ok"] is False


class _NoLoad(ReferenceEngine):
    def capabilities(self) -> Capabilities:
        return Capabilities(name="no-load", profiles=("classic-transfer",), load=False)


def test_a_server_refuses_load_without_the_capability() -> None:
    state = new_game(RULES, deck=DECK_ORDER)
    answer = json.loads(Server(_NoLoad()).handle(encode_request(LoadRequest(1, state))) or "")
    assert answer["ok"] is False and "load capability" in answer["error"]


def test_serve_runs_any_engine_class_by_name(tmp_path: Path) -> None:
    (tmp_path / "my_engine.py").write_text(textwrap.dedent("""
        from durak_spec.protocol import Capabilities, ReferenceEngine

        class TwoOnly(ReferenceEngine):
            def capabilities(self):
                return Capabilities(name="two-only", profiles=("source-b",), players=(2,))
    """))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    with SubprocessEngine([*SERVE, "my_engine:TwoOnly"], timeout=SLOW_START, env=env) as engine:
        caps = engine.capabilities()
        assert (caps.name, caps.profiles, caps.players, caps.load) == \
            ("two-only", ("source-b",), (2,), False)
        with pytest.raises(EngineError, match="load capability"):
            engine.load(new_game(RULES, deck=DECK_ORDER))


def test_serve_refuses_an_unknown_engine_name() -> None:
    done = subprocess.run([*SERVE, "no_such_module:Engine"], capture_output=True, text=True,
                          timeout=SLOW_START, input="")
    assert done.returncode != 0 and "cannot import no_such_module" in done.stderr


def test_an_interrupted_request_stops_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # the answer still under way would be taken for the next request's: out of step
    with SubprocessEngine(SERVE, timeout=SLOW_START) as engine:
        engine.capabilities()
        pid = engine.pid
        assert pid is not None

        def interrupted(*args: object) -> bytes:
            raise KeyboardInterrupt

        monkeypatch.setattr(engine, "_await_line", interrupted)
        with pytest.raises(KeyboardInterrupt):
            engine.start(RULES, deal(RULES, 1))
        monkeypatch.undo()
        assert_gone(pid)
        with pytest.raises(EngineFailure, match="stopped when start was interrupted") as failed:
            engine.legal_actions()
        assert failed.value.kind == "exited"
