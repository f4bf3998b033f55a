"""Stress test of the reference engine: many random games, every invariant after every action.

For every profile and every number of players from 2 to 6 it plays ``--games`` complete
games, each move a seeded random choice among ``legal_actions``. After the deal and
after every action it checks:

* the 36 cards: each card in exactly one place (hands, stock, table, discard), and
  ``validate_state`` accepts the state;
* the attack limits: at most six attack cards (LIMIT-1), five in the first bout where
  LIMIT-3 is on, and the rule set's reading of LIMIT-2 (uncovered cards <= the
  defender's hand, or attack cards <= the defender's hand at the bout's start);
* ``legal_actions``: no action twice, in seat/kind/card order, the same on a second
  call, and empty exactly when the game is over;

and at the end of each game:

* the game ended within ``--max-actions`` actions, with an outcome: a finishing order of
  distinct seats whose players hold no cards, and either a durak, the one seat not in
  it, holding every card not discarded (END-3), or a draw in which the last players
  went out together (END-4);
* replaying the actions from the deal gives the same final state.

``--thorough`` also applies every listed action in every state (about twice as slow).

Game ``i`` of a profile and player count gets its own seed, derived from ``--seed``, the
profile, the player count and ``i``; the seed deals the cards and drives the choices, so
a run is reproducible and ``--reproduce PROFILE:PLAYERS:SEED`` plays one game again,
printing every action. Progress is one line on stderr; the summary table goes to stdout.
On the first broken invariant the run stops, prints the profile, the seed and the
actions so far, and exits with status 1.

    python benchmarks/stress.py [--games 100] [--seed 0] [--jobs 2] [--profiles a,b]
                                [--players 2,3] [--thorough] [--reproduce P:N:SEED]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from durak_spec import (
    PROFILES,
    Action,
    DurakError,
    GameState,
    RuleSet,
    Take,
    Transfer,
    apply,
    legal_actions,
    new_game,
)
from durak_spec.cli.args import positive_count
from durak_spec.engine.invariants import listing_problems, outcome_problems, position_problems

PLAYERS = (2, 3, 4, 5, 6)
CHUNK = 25  # games per task handed to a worker


class Broken(Exception):
    """An invariant that does not hold."""


# -- the invariants ---------------------------------------------------------------------------


def check_state(state: GameState, thorough: bool) -> None:
    """Raise :class:`Broken` if ``state`` breaks an invariant checked after every action
    (the package's own invariants, :mod:`durak_spec.engine.invariants`)."""
    problems = position_problems(state) + listing_problems(state)
    if problems:
        raise Broken("; ".join(problems))
    if thorough:
        for action in legal_actions(state):
            try:
                apply(state, action)
            except DurakError as error:
                raise Broken(f"the listed action {action} does not apply: {error}") from None


def check_end(initial: GameState, actions: Sequence[Action], end: GameState) -> None:
    """Raise :class:`Broken` if a finished game's outcome or replay is wrong."""
    problems = outcome_problems(end)
    if problems:
        raise Broken("; ".join(problems))
    state = initial
    for action in actions:
        state = apply(state, action)
    if state != end:
        raise Broken("replaying the actions from the deal gives another final state")


# -- playing --------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the games of one profile and player count did."""

    games: int = 0
    actions: int = 0
    longest: int = 0
    bouts: int = 0
    takes: int = 0
    transfers: int = 0
    draws: int = 0
    seconds: float = 0.0
    failure: str | None = None

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.actions += other.actions
        self.longest = max(self.longest, other.longest)
        self.bouts += other.bouts
        self.takes += other.takes
        self.transfers += other.transfers
        self.draws += other.draws
        self.seconds += other.seconds
        self.failure = self.failure or other.failure


@dataclass(frozen=True)
class Task:
    name: str
    players: int
    base_seed: int
    first: int
    count: int
    max_actions: int
    thorough: bool = field(default=False)


def game_seed(base_seed: int, name: str, players: int, index: int) -> int:
    """The seed of game ``index`` of a profile and player count (stable across runs)."""
    return random.Random(f"{base_seed}:{name}:{players}:{index}").getrandbits(32)


def play_one(rules: RuleSet, seed: int, max_actions: int, thorough: bool,
             verbose: bool = False) -> tuple[GameState, list[Action]]:
    """Play one random game, checking every state; :class:`Broken` carries the trail."""
    rnd = random.Random(seed)
    initial = state = new_game(rules, seed=seed)
    actions: list[Action] = []
    try:
        check_state(state, thorough)
        while options := legal_actions(state):
            if len(actions) >= max_actions:
                raise Broken(f"the game has not ended after {max_actions} actions")
            action = options[rnd.randrange(len(options))]
            state = apply(state, action)
            actions.append(action)
            if verbose:
                print(f"{len(actions):4} {action}")
            check_state(state, thorough)
        check_end(initial, actions, state)
    except (Broken, DurakError) as error:
        trail = "; ".join(map(str, actions)) or "(none)"
        raise Broken(f"{error}\n  seed {seed}, {len(actions)} actions: {trail}\n"
                     f"  position:\n    " + state.describe().replace("\n", "\n    ")) from None
    return state, actions


def run_task(task: Task) -> Tally:
    rules = PROFILES[task.name].rules(players=task.players)
    tally = Tally()
    start = time.perf_counter()
    for index in range(task.first, task.first + task.count):
        seed = game_seed(task.base_seed, task.name, task.players, index)
        try:
            end, actions = play_one(rules, seed, task.max_actions, task.thorough)
        except Broken as error:
            tally.failure = (f"{task.name}, {task.players} players, game {index}: {error}\n"
                             f"  reproduce: python benchmarks/stress.py --reproduce "
                             f"{task.name}:{task.players}:{seed}")
            break
        tally.games += 1
        tally.actions += len(actions)
        tally.longest = max(tally.longest, len(actions))
        tally.bouts += end.bout
        tally.takes += sum(1 for a in actions if isinstance(a, Take))
        tally.transfers += sum(1 for a in actions if isinstance(a, Transfer))
        tally.draws += end.outcome is not None and end.outcome.durak is None
    tally.seconds = time.perf_counter() - start
    return tally


def tasks(args: argparse.Namespace) -> Iterator[Task]:
    for name in args.profiles:
        for players in args.players:
            for first in range(0, args.games, CHUNK):
                yield Task(name, players, args.seed, first, min(CHUNK, args.games - first),
                           args.max_actions, args.thorough)


# -- the command line ------------------------------------------------------------------------


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in PROFILES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown profile {unknown[0] if unknown else text!r}; profiles are "
            + ", ".join(PROFILES))
    return names


def _players(text: str) -> list[int]:
    try:
        counts = [int(n) for n in text.split(",") if n.strip()]
    except ValueError:
        counts = []
    if not counts or any(n not in PLAYERS for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: give player counts from 2 to 6, like 2,4")
    return counts



def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play many random games of every profile and player count, checking "
                    "the engine's invariants after every action.")
    parser.add_argument("--games", type=positive_count, default=100,
                        help="games per profile and player count (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the run (default 0)")
    parser.add_argument("--profiles", type=_names, default=list(PROFILES),
                        help="comma-separated profiles (default: all)")
    parser.add_argument("--players", type=_players, default=list(PLAYERS),
                        help="comma-separated player counts (default: 2,3,4,5,6)")
    parser.add_argument("--jobs", type=positive_count, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--max-actions", type=positive_count, default=3000,
                        help="a game longer than this breaks the invariants (default 3000)")
    parser.add_argument("--thorough", action="store_true",
                        help="also apply every legal action in every state")
    parser.add_argument("--reproduce", metavar="PROFILE:PLAYERS:SEED",
                        help="play one game again, printing every action")
    return parser.parse_args(argv)


def reproduce(spec: str, max_actions: int, thorough: bool) -> int:
    try:
        name, players, seed = spec.rsplit(":", 2)
        rules = PROFILES[name].rules(players=int(players))
        seed_value = int(seed)
    except (ValueError, KeyError, DurakError) as error:
        print(f"--reproduce {spec!r}: expected PROFILE:PLAYERS:SEED ({error})", file=sys.stderr)
        return 2
    try:
        end, _ = play_one(rules, seed_value, max_actions, thorough, verbose=True)
    except Broken as error:
        print(f"BROKEN: {error}", file=sys.stderr)
        return 1
    print(end.describe())
    print(end.outcome)
    return 0


def table(results: dict[tuple[str, int], Tally], wall: float) -> str:
    head = ("profile", "players", "games", "actions", "avg", "max", "bouts/game",
            "takes", "transfers", "draws", "games/s")
    rows = [head]
    for (name, players), t in results.items():
        games = max(t.games, 1)
        rows.append((name, str(players), str(t.games), str(t.actions),
                     f"{t.actions / games:.0f}", str(t.longest), f"{t.bouts / games:.1f}",
                     str(t.takes), str(t.transfers), str(t.draws),
                     f"{t.games / t.seconds:.0f}" if t.seconds else "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(r, widths, strict=True))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    total = sum(t.games for t in results.values())
    actions = sum(t.actions for t in results.values())
    lines.append(f"\n{total} games, {actions} actions, every invariant held; "
                 f"{wall:.0f} s wall time")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.reproduce:
        return reproduce(args.reproduce, args.max_actions, args.thorough)
    results = {(n, p): Tally() for n in args.profiles for p in args.players}
    total = len(results) * args.games
    done = 0
    start = last = time.perf_counter()
    todo = list(tasks(args))
    for task, tally in zip(todo, run_all(todo, min(args.jobs, os.cpu_count() or 1)),
                           strict=True):
        results[task.name, task.players].add(tally)
        done += tally.games
        if tally.failure is not None:
            print(f"\nBROKEN INVARIANT: {tally.failure}", file=sys.stderr)
            return 1
        now = time.perf_counter()
        if now - last > 0.5 or done == total:
            last = now
            print(f"\r{done}/{total} games ({task.name}, {task.players} players) "
                  f"{now - start:.0f} s", end="\x1b[K", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(table(results, time.perf_counter() - start))
    return 0


def run_all(todo: list[Task], jobs: int) -> Iterator[Tally]:
    """The tallies of ``todo``, in order, from ``jobs`` worker processes."""
    if jobs == 1:
        yield from map(run_task, todo)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(run_task, todo)


if __name__ == "__main__":
    sys.exit(main())
