"""Seeded games spread over local processes (durak_spec.core.jobs, issue 23): the parts of
consecutive seeds, the workers, and the same results in two processes as in one, for the
tip experiments and the lockstep games, from the library and from the command line.

The games are few and the parts made tiny (a few deals or games each) so that the
spreading is really exercised on a small run. Runtime: about 30 s on a quiet machine, most
of it starting processes and engine commands.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import sys
from pathlib import Path

import pytest

from durak_spec import Action
from durak_spec.cli import main
from durak_spec.cli.args import CommandError
from durak_spec.conformance.lockstep import LockstepResult, play_lockstep
from durak_spec.core.jobs import ClusterError, Workers, default_jobs, parts
from durak_spec.model.rules import profile
from durak_spec.protocol import Accepted, ReferenceEngine, Verdict

TIPS = importlib.import_module("durak_spec.play.tipsim.experiments")


def _square(x: int) -> int:
    return x * x


def test_parts_cut_the_seeds_in_order_about_four_per_worker() -> None:
    cut = parts(100, 5, 1, 1000)
    assert [len(r) for r in cut] == [5] * 20
    assert [i for r in cut for i in r] == list(range(100))
    assert [len(r) for r in parts(100, 2, 30, 1000)] == [30, 30, 30, 10]  # the smallest
    assert [len(r) for r in parts(100, 1, 1, 10)] == [10] * 10  # the largest
    assert parts(0, 3, 1, 5) == []
    with pytest.raises(ValueError, match="cannot cut"):
        parts(10, 0, 1, 5)


def test_workers_give_the_results_in_order_whether_local_or_in_processes() -> None:
    items = list(range(7))
    with Workers(1) as one:
        assert one.local and one.slots == 1
        assert list(one.map(_square, items)) == [x * x for x in items]
    with Workers(2) as two:
        assert not two.local and two.slots == 2
        assert list(two.map(_square, items)) == [x * x for x in items]
    assert default_jobs() >= 1
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="jobs must be a whole number"):
            Workers(bad)  # type: ignore[arg-type]


def test_a_scheduler_without_dask_names_the_extra_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails, as without the extra
    with pytest.raises(ClusterError, match=re.escape("pip install 'durak-spec[cluster]'")), \
            Workers(scheduler="tcp://127.0.0.1:1"):
        pass
    assert main(["tips", "--games", "2", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("durak-spec tips: error: --scheduler needs Dask distributed")
    assert "durak-spec[cluster]" in err and err.count("\n") == 1


def test_jobs_and_scheduler_are_refused_together() -> None:
    from durak_spec.cli.args import jobs_of

    class Args:
        jobs = 2
        scheduler = "tcp://h:1"

    with pytest.raises(CommandError, match="leave out one of them"):
        jobs_of(Args())  # type: ignore[arg-type]
    Args.jobs = None  # type: ignore[assignment]
    assert jobs_of(Args()) == (1, "tcp://h:1")  # type: ignore[arg-type]
    Args.scheduler = None  # type: ignore[assignment]
    assert jobs_of(Args()) == (default_jobs(), None)  # type: ignore[arg-type]


def test_tip_evidence_in_two_processes_equals_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TIPS, "SMALLEST", 1)  # one deal per part: the deals really spread
    tips = ["TIP-5", "TIP-9"]  # two players and three
    calls: list[tuple[str, int, int]] = []
    spread = TIPS.run_experiments(
        6, tips=tips, jobs=2, progress=lambda e, done, total: calls.append((e.id, done, total)))
    alone = TIPS.run_experiments(6, tips=tips, jobs=1)
    assert spread == alone
    assert [r.deals for r in spread.results] == [3, 2]
    assert spread["TIP-9"].deal_differences == alone["TIP-9"].deal_differences
    assert calls[-1] == ("TIP-9", 6, 6) and ("TIP-5", 6, 6) in calls


def test_tips_on_the_command_line_print_the_same_table_with_two_jobs(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(TIPS, "SMALLEST", 1)
    tables = []
    for jobs in ("1", "2"):
        assert main(["tips", "--games", "6", "--tips", "TIP-1,TIP-4", "--jobs", jobs]) == 0
        out = capsys.readouterr().out
        tables.append(out[:out.index("games in")])  # all but the seconds
    assert tables[0] == tables[1]
    assert "TIP-1 " in tables[0] and "TIP-4 " in tables[0]


# -- lockstep games -------------------------------------------------------------------------

LOCKSTEP = importlib.import_module("durak_spec.conformance.lockstep.spread")
RULES = [profile("classic-transfer").rules(players=3), profile("classic-throw-in").rules(players=2)]
WRONG = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'examples' / 'engine_wrong.py'}"


def _same(a: LockstepResult, b: LockstepResult) -> bool:
    """Equal but for the seconds taken."""
    return dataclasses.replace(a, seconds=0.0) == dataclasses.replace(b, seconds=0.0)


def test_lockstep_in_two_processes_equals_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LOCKSTEP, "SMALLEST", 1)
    alone = play_lockstep(ReferenceEngine(), RULES, games=3, seed=3)
    calls: list[int] = []
    spread = play_lockstep(ReferenceEngine(), RULES, games=3, seed=3, jobs=2,
                           engines=ReferenceEngine, progress=lambda done, *_: calls.append(done))
    assert _same(alone, spread) and alone.ok
    assert calls == list(range(1, 7))  # every game, in order
    with pytest.raises(ValueError, match="need engines="):
        play_lockstep(ReferenceEngine(), RULES, games=3, seed=3, jobs=2)


class LaxEngine(ReferenceEngine):
    """Says yes to every action, but plays only the legal ones (a class of this module:
    the workers import it by name)."""

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        return Accepted() if not verdict.ok else verdict


def test_lockstep_divergences_found_by_workers_are_grouped_and_shrunk_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LOCKSTEP, "SMALLEST", 2)
    rules = [profile("classic-throw-in").rules(players=2)]
    alone = play_lockstep(LaxEngine(), rules, games=4, seed=3)
    spread = play_lockstep(LaxEngine(), rules, games=4, seed=3, jobs=2, engines=LaxEngine)
    assert _same(alone, spread) and not spread.ok
    assert sum(c.count for c in spread.causes) >= 4  # a probe accepted in every game
    assert all(c.example.shrunk for c in spread.causes)


def test_check_random_prints_the_same_report_with_two_jobs(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(LOCKSTEP, "SMALLEST", 2)  # two parts of two games
    reports = []
    for jobs in ("1", "2"):
        status = main(["check", "--random", "2", "--engine", WRONG, "--seed", "7",
                       "--profile", "classic-transfer", "--players", "2", "3", "--jobs", jobs])
        assert status == 1
        out = capsys.readouterr().out
        reports.append(re.sub(r"[\d.]+ (s|games/s)\b", "", out))  # all but the times
    assert reports[0] == reports[1]
    assert "TRANSFER-3" in reports[0]


def test_a_small_run_is_played_here_without_starting_workers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_workers(*_: object) -> None:
        raise AssertionError("workers were started for a small run")

    monkeypatch.setattr(TIPS, "_spread", no_workers)
    monkeypatch.setattr(Workers, "map", no_workers)
    assert TIPS.run_experiments(2 * TIPS.SMALLEST - 2, tips=["TIP-1"], jobs=2).total_games \
        == 2 * TIPS.SMALLEST - 2
    assert play_lockstep(ReferenceEngine(), RULES[1:], games=2 * LOCKSTEP.SMALLEST - 1,
                         seed=1, jobs=2, engines=ReferenceEngine, probe_rate=0.0).ok


@pytest.mark.parametrize(("argv", "message"), [
    (["--jobs", "2"], "--jobs and --scheduler spread the --random games"),
    (["--perft", "--scheduler", "tcp://h:1"], "--jobs and --scheduler spread the --random"),
    (["--progress"], "--progress shows the bar of --random and --perft"),
    (["--random", "1", "--jobs", "0"], "is not a positive whole number"),
    (["--random", "1", "--jobs", "2", "--scheduler", "tcp://h:1"], "leave out one of them"),
])
def test_check_refuses_jobs_options_that_would_be_ignored(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_check_random_on_a_scheduler_without_dask_names_the_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(["check", "--random", "1", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("durak-spec check: error: --scheduler needs Dask distributed")
    assert err.count("\n") == 1


def test_an_interrupt_stops_the_workers_at_once() -> None:
    # Ctrl-C sent to the checker alone (not its process group): the parts the workers are
    # playing are not waited for, the processes are stopped, and the run reports at once.
    import multiprocessing
    import time

    workers = Workers(2)
    with workers:
        results = workers.map(time.sleep, [30.0, 30.0])
        started = time.monotonic()
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as error:
            workers.__exit__(type(error), error, None)
        del results
    assert time.monotonic() - started < 10
    for _ in range(50):  # no worker left playing on, orphaned
        if not multiprocessing.active_children():
            break
        time.sleep(0.1)
    assert not multiprocessing.active_children()
