"""An interrupted run spread over workers keeps what the workers finished (issue 24,
deliverable 4: an interrupted run prints what it found so far, and every count is true).

On Ctrl-C a part in a local worker returns the items it finished (``Stop.listening``), the
run takes them all (``Sweep.interrupted``), and ``durak-spec check --random N --jobs 2``
reports every game a worker finished, not only the parts that were whole: shown here with
a real SIGINT sent to the checker's process group, as a terminal sends it.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from durak_spec import Action
from durak_spec.conformance.lockstep.configurations import configurations
from durak_spec.conformance.lockstep.games import DEFAULT_MAX_ACTIONS, DEFAULT_PROBE_RATE
from durak_spec.conformance.lockstep.spread import Games, play_one
from durak_spec.core.jobs import Stop, Workers
from durak_spec.model.rules import profile
from durak_spec.protocol import Accepted, ReferenceEngine, Verdict


def _count_until_stopped(job: tuple[Stop, str]) -> int:
    """Note the start in the folder ``job[1]``, then count in steps of 10 ms until told
    to stop (``job[0]``); the count reached."""
    stop, folder = job
    done = 0
    with stop.listening() as listening:
        assert listening  # in a worker process, not the run's own
        try:  # an interrupt may come as soon as the start is noted
            (Path(folder) / str(os.getpid())).touch()
            while done < 3000:
                time.sleep(0.01)
                done += 1
        except KeyboardInterrupt:
            pass
    return done


def test_an_interrupted_sweep_hands_back_what_each_part_finished(tmp_path: Path) -> None:
    # Processes an earlier test in this worker left to end on their own are not this
    # run's: only the processes started here must be gone at its end.
    earlier = set(multiprocessing.active_children())
    workers = Workers(2)
    with workers:
        stop = workers.stop()
        sweep = workers.sweep(_count_until_stopped, [(stop, str(tmp_path))] * 4)
        deadline = time.monotonic() + 30
        while len(list(tmp_path.iterdir())) < 2:  # both workers in a part
            assert time.monotonic() < deadline
            time.sleep(0.01)
        counts = sweep.interrupted(stop, grace=30.0)  # a loaded machine answers late
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as error:
            workers.__exit__(type(error), error, None)
    # the two parts in play returned their counts; the others were cancelled, or stopped
    # at once (a part already queued for a worker)
    assert counts[0] is not None and counts[1] is not None, counts
    assert all(c is None or c < 3000 for c in counts), counts
    left = set(multiprocessing.active_children()) - earlier
    assert not left, f"still running after the sweep: {left} (before it: {earlier})"
    # in the process that sent the parts, an interrupt is the run's own: not listened to
    with Stop(os.getpid()).listening() as listening:
        assert not listening


class LaxEngine(ReferenceEngine):
    """Says yes to every action, but plays only the legal ones: each game diverges (a
    class of this module: the workers import it by name)."""

    def apply(self, action: Action) -> Verdict:
        verdict = super().apply(action)
        return Accepted() if not verdict.ok else verdict


def test_the_games_workers_finished_before_an_interrupt_are_those_of_one_process() -> None:
    engine = LaxEngine()
    chosen, _ = configurations(engine.capabilities(),
                               rules=profile("classic-throw-in").rules(players=2))
    options = {"max_actions": DEFAULT_MAX_ACTIONS, "probe_rate": DEFAULT_PROBE_RATE,
               "resync": True}
    play = Games(engine, chosen, 60, 5, jobs=2, engines=LaxEngine, **options)  # 25, 25, 10
    try:
        taken = play(chosen[0], 0)  # the first part is whole
        rest = play.interrupted()
    finally:
        play.close(interrupted=True)
    assert taken == (play_one(engine, chosen[0], 5, 0, **options), True)
    keys = [key for key, _ in rest]
    assert keys == sorted(keys) and keys[:24] == [(0, i) for i in range(1, 25)], keys
    for (_, index), game in rest:  # the same game as one process plays for that seed
        assert game == (play_one(engine, chosen[0], 5, index, **options), True), index
    assert any(game[0][1] for _, game in rest)  # divergences among them
    assert not multiprocessing.active_children()


COUNTING = '''
import os

from durak_spec.protocol import ReferenceEngine


class Counting(ReferenceEngine):
    """The reference, noting each game it starts (its process id) in $GAMES_LOG."""

    def start(self, rules, deck, seed=0):
        with open(os.environ["GAMES_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\\n")
        return super().start(rules, deck, seed)
'''


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent's reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _in_group(group: int) -> list[int]:
    """The live processes of process group ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                    reason="finds the processes left in /proc (Linux)")
def test_ctrl_c_reports_the_games_the_workers_finished(tmp_path: Path) -> None:
    (tmp_path / "counting.py").write_text(COUNTING, encoding="utf-8")
    log = tmp_path / "games.log"
    log.touch()
    env = {**os.environ, "GAMES_LOG": str(log),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    engine = shlex.join([sys.executable, "-m", "durak_spec", "serve", "counting:Counting"])
    report = tmp_path / "report.json"
    # 400 games in parts of 50: no part is whole when the interrupt comes
    command = [sys.executable, "-m", "durak_spec", "check", "--engine", engine, "--random",
               "400", "--profile", "classic-throw-in", "--players", "2", "--jobs", "2",
               "--seed", "1", "--json", str(report)]
    checker = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(log.read_text(encoding="utf-8").split()) < 8:  # both workers playing
            assert checker.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        started = len(log.read_text(encoding="utf-8").split())
        os.killpg(checker.pid, signal.SIGINT)  # Ctrl-C at a terminal: the whole group
        out, err = checker.communicate(timeout=30)  # no hang
    finally:
        if checker.poll() is None:
            os.killpg(checker.pid, signal.SIGKILL)
            checker.wait()
    assert checker.returncode == 130, (out, err)
    assert "Traceback" not in err, err
    games = log.read_text(encoding="utf-8").split()
    payload = json.loads(report.read_text(encoding="utf-8"))
    (result,) = payload["configurations"]
    assert payload["interrupted"] and result["stopped"] == (
        f"the run was interrupted ({result['games']} of 400 games played)")
    # no part of 50 was whole, so the whole parts alone would report no game; every game
    # finished before the interrupt is there (one in play per worker is dropped)
    assert len(games) < 50 and result["games"] > 0
    assert started - 2 <= result["games"] <= len(games), (started, result, len(games))
    assert f"{result['games']} games" in out and "INTERRUPTED" in out
    deadline = time.monotonic() + 5  # the workers and their engines are gone
    while _in_group(checker.pid) or any(_alive(int(pid)) for pid in set(games)):
        assert time.monotonic() < deadline, (_in_group(checker.pid), set(games))
        time.sleep(0.05)


def test_an_interrupted_run_in_one_process_names_the_configurations_not_played() -> None:
    from durak_spec.conformance.lockstep import format_lockstep, play_lockstep

    def stop(done: int, *_: object) -> None:
        if done == 3:
            raise KeyboardInterrupt

    rules = [profile("classic-throw-in").rules(players=n) for n in (2, 3, 4)]
    result = play_lockstep(ReferenceEngine(), rules, games=10, seed=3, progress=stop)
    assert [(r.games, r.unplayed) for r in result.results] == [(3, False), (0, True),
                                                                (0, True)]
    assert result.results[0].stopped == "the run was interrupted (3 of 10 games played)"
    assert "1 stopped early, 2 not played, 0 skipped (configurations; 3 games" in \
        result.summary()
    text = format_lockstep(result)
    assert "  2 configurations not played: the run was interrupted (0 of 10 games played)" \
        in text.splitlines()
    assert "4 players" not in text and "4 players" in format_lockstep(result, verbose=True)


def test_a_game_whose_example_was_being_shrunk_at_the_interrupt_is_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from durak_spec.conformance.lockstep import play_lockstep

    run = importlib.import_module("durak_spec.conformance.lockstep.run")

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C while the first divergence is shrunk

    monkeypatch.setattr(run, "first_divergence", interrupted)
    monkeypatch.setattr(run, "later_divergence", interrupted)
    result = play_lockstep(LaxEngine(), profile("classic-throw-in").rules(players=2),
                           games=5, seed=5)
    (played,) = result.results
    assert result.interrupted and played.games == 1 and played.found >= 1
    assert sum(c.count for c in result.causes) == played.found
    example = result.causes[0].example
    assert not example.shrunk and example.note == "not shrunk: the run was interrupted " \
        "before it was"
