"""Experiments on a Dask cluster (issue 23): a local cluster of two worker processes is
started on this machine, and the tip experiments and the lockstep games played on it
through ``--scheduler`` give the same results as one process for the same seeds.

Dask distributed is in the dev extra, so CI runs this. The games are few and the parts
tiny so that the work really spreads over both workers. Runtime: about 15 s on a quiet
machine (most of it starting the cluster).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from distributed import Client, LocalCluster

from durak_spec.cli import main
from durak_spec.conformance.lockstep import play_lockstep
from durak_spec.core.jobs import ClusterError, Workers
from durak_spec.model.rules import profile
from durak_spec.protocol import ReferenceEngine

TIPS = importlib.import_module("durak_spec.play.tipsim.experiments")
LOCKSTEP = importlib.import_module("durak_spec.conformance.lockstep.spread")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster: two worker processes of one thread each."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        yield cluster.scheduler_address


def _executed(dask_worker: Any) -> int:
    return int(dask_worker.state.executed_count)


def _workers_that_played(address: str) -> int:
    """How many of the cluster's workers have run a task so far."""
    with Client(address) as client:  # type: ignore[no-untyped-call]
        done: dict[str, int] = client.run(_executed)
    return sum(1 for count in done.values() if count)


def test_tips_on_the_cluster_equal_one_process(scheduler: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TIPS, "SMALLEST", 1)  # one deal per part
    tips = ["TIP-1", "TIP-9"]
    on_cluster = TIPS.run_experiments(6, tips=tips, scheduler=scheduler)
    assert on_cluster == TIPS.run_experiments(6, tips=tips, jobs=1)
    assert [r.deals for r in on_cluster.results] == [3, 2]
    assert _workers_that_played(scheduler) == 2


def test_lockstep_on_the_cluster_equals_one_process(scheduler: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LOCKSTEP, "SMALLEST", 1)
    rules = [profile("classic-transfer").rules(players=3),
             profile("source-b").rules(players=2)]
    alone = play_lockstep(ReferenceEngine(), rules, games=2, seed=11)
    on_cluster = play_lockstep(ReferenceEngine(), rules, games=2, seed=11,
                               scheduler=scheduler, engines=ReferenceEngine)
    assert dataclasses.replace(on_cluster, seconds=0.0) == dataclasses.replace(alone,
                                                                               seconds=0.0)
    assert on_cluster.ok and sum(r.games for r in on_cluster.results) == 4



def test_an_interrupted_run_on_the_cluster_keeps_the_games_its_workers_finished(
        scheduler: str) -> None:
    def interrupt(done: int, *_: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C as the run takes its first game

    rules = profile("classic-throw-in").rules(players=2)
    result = play_lockstep(ReferenceEngine(), rules, games=400, seed=2, probe_rate=0.0,
                           scheduler=scheduler, engines=ReferenceEngine, progress=interrupt)
    (played,) = result.results
    # the first part (50 games) is whole when the run takes its first game: the other 49
    # are handed back at the interrupt; the parts not begun read the stop event and end
    assert result.interrupted and 50 <= played.games < 400, played
    assert played.stopped == f"the run was interrupted ({played.games} of 400 games played)"


def test_the_command_line_plays_on_the_scheduler(
        scheduler: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(TIPS, "SMALLEST", 1)
    tables = []
    for where in (["--scheduler", scheduler], ["--jobs", "1"]):
        assert main(["tips", "--games", "4", "--tips", "TIP-2", *where]) == 0
        out = capsys.readouterr().out
        tables.append(out[:out.index("games in")])
    assert tables[0] == tables[1] and "TIP-2 " in tables[0]
    assert main(["check", "--random", "1", "--profile", "classic-throw-in", "--players", "2",
                 "--scheduler", scheduler]) == 0
    assert "1 agreed, 0 diverged" in capsys.readouterr().out


def _needs_a_missing_module(x: int) -> int:
    import durak_spec_not_installed  # type: ignore[import-not-found]  # noqa: F401

    return x


def test_a_worker_without_the_package_is_named_not_a_traceback(scheduler: str) -> None:
    with Workers(scheduler=scheduler) as workers:
        assert workers.slots == 2
        with pytest.raises(ClusterError, match="cannot import durak_spec_not_installed: "
                                               "install the same version"):
            list(workers.map(_needs_a_missing_module, [1, 2]))
