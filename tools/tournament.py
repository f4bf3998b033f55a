"""The tree search player against the others: a seeded, seat-rotated tournament.

Run from a clone (this folder is not part of the wheel)::

    python tools/tournament.py [--games N] [--playouts P] [--seed S] [--jobs J]
                               [--setting NAME ...] [--opponent KIND ...]
                               [--policy greedy|random] [--search-from-stock N|all]
                               [--exploration C] [--prior B] [--place W]
                               [--opponents tree|policy|heuristic]
                               [--quiet | --progress]

For each setting (``2p-throw-in``, ``2p-transfer``: the classic profiles for two players;
``4p-throw-in``: the classic throw-in game for four) and each opponent (``heuristic``,
``search``), one :class:`~durak_spec.play.bots.ismcts.IsmctsBot` with a budget of
``--playouts`` iterations per decision (default: :data:`SETTINGS`) plays ``--games`` games
against opponents in every other seat. Every deal is played once with each rotation of the seats
(:func:`~durak_spec.play.bots.rotation`), so that no player profits from a lucky seat or
deal; game ``k`` deals with seed ``S + k // players``.

It prints a Markdown table: per pairing the tree search player's durak rate and the
opponents' durak rate per seat, each with its 95 % Wilson interval, whether the intervals
are apart, and the mean and longest time per decision of each side (decisions with more
than one legal action; the wall time of ``choose``; for the tree search player, the
decisions it searched), with the tree search player's mean processor time per search,
which a busy machine does not inflate as much. With four
players the opponents' interval counts each opponent seat of each game as a trial; since
at most one seat is the durak, their results exclude one another, and the interval is
wider than the exact one.

A game depends only on its seed, so the durak counts are the same for any ``--jobs`` (parts
of consecutive games run in local processes, :class:`~durak_spec.core.jobs.Workers`); the
times are not: they are the machine's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from durak_spec.core.jobs import Workers, default_jobs, parts
from durak_spec.core.progressbar import progress_bar
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import Action
from durak_spec.model.rules import profile
from durak_spec.play.bots import Bot, play_game, rotation, wilson_interval
from durak_spec.play.bots.heuristic import HeuristicBot
from durak_spec.play.bots.ismcts import OPPONENT_MODELS, PLAYOUT_POLICIES, IsmctsBot
from durak_spec.play.bots.search import SearchBot

SETTINGS: dict[str, tuple[str, int, int]] = {
    "2p-throw-in": ("classic-throw-in", 2, 800),
    "2p-transfer": ("classic-transfer", 2, 800),
    "4p-throw-in": ("classic-throw-in", 4, 400),
}
"""The settings by name: (profile, players, playouts per decision). A playout of four
players is about twice as long as one of two, so four get half the playouts: the search
then takes about as long per move."""

OPPONENTS: tuple[str, ...] = ("heuristic", "search")


class Timed:
    """A bot whose decisions are timed: the wall and processor time of every ``choose``
    with more than one legal action (for the tree search player: of every search; its
    other moves are the heuristic's, which take milliseconds)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu_times: list[float] = []

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(view, rng)
        searched = not isinstance(self.bot, IsmctsBot) or self.bot.last_search is not None
        if len(view.playable) > 1 and searched:
            self.times.append(time.perf_counter() - start)
            self.cpu_times.append(time.process_time() - cpu)
        return action

    def observe(self, action: Action) -> None:
        self.bot.observe(action)

    def reset(self) -> None:
        self.bot.reset()


@dataclass(frozen=True, slots=True)
class Part:
    """Games ``first`` to ``last - 1`` of one pairing: what a worker plays."""

    setting: str
    opponent: str
    first: int
    last: int
    seed: int
    playouts: int
    policy: str
    search_from_stock: int | None = 6
    exploration: float = 0.7
    prior: float = 0.0
    place: float = 0.0
    opponents: str = "tree"


@dataclass(slots=True)
class Tally:
    """The results of some games of one pairing."""

    playouts: int = 0
    games: int = 0
    durak: int = 0
    """Games the tree search player lost."""
    opponents_durak: int = 0
    """Games one of the opponents lost."""
    draws: int = 0
    unfinished: int = 0
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    opponent_times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.playouts = other.playouts
        self.games += other.games
        self.durak += other.durak
        self.opponents_durak += other.opponents_durak
        self.draws += other.draws
        self.unfinished += other.unfinished
        self.times.extend(other.times)
        self.cpu_times.extend(other.cpu_times)
        self.opponent_times.extend(other.opponent_times)


def make_opponent(kind: str) -> Bot:
    return HeuristicBot() if kind == "heuristic" else SearchBot()


def play_part(part: Part) -> Tally:
    """Play the games of ``part``; a function of a module, so that a worker can run it."""
    name, players, _ = SETTINGS[part.setting]
    rules = profile(name).rules(players=players)
    me = Timed(IsmctsBot(playouts=part.playouts, policy=part.policy,
                         search_from_stock=part.search_from_stock,
                         exploration=part.exploration, prior=part.prior,
                         place=part.place, opponents=part.opponents))
    others = [Timed(make_opponent(part.opponent)) for _ in range(players - 1)]
    bots: list[Timed] = [me, *others]
    tally = Tally(playouts=part.playouts)
    for k in range(part.first, part.last):
        shift, deal_seed = rotation(k, players, seed=part.seed)
        seated: list[Bot] = [me] * players
        for i, bot in enumerate(bots):
            seated[(i + shift) % players] = bot
        result = play_game(rules, seated, deal_seed)
        tally.games += 1
        if result.outcome is None:
            tally.unfinished += 1
        elif result.outcome.durak is None:
            tally.draws += 1
        elif (result.outcome.durak - shift) % players == 0:
            tally.durak += 1
        else:
            tally.opponents_durak += 1
    tally.times = me.times
    tally.cpu_times = me.cpu_times
    tally.opponent_times = [t for bot in others for t in bot.times]
    return tally


def _rate(successes: int, trials: int) -> tuple[float, float, float]:
    low, high = wilson_interval(successes, trials)
    return (successes / trials if trials else 0.0), low, high


def _times(times: Sequence[float]) -> str:
    if not times:
        return "–"
    return f"{sum(times) / len(times):.2f} s (max {max(times):.2f} s)"


def _mean(times: Sequence[float]) -> str:
    return f"{sum(times) / len(times):.2f} s" if times else "–"


def table(results: dict[tuple[str, str], Tally]) -> str:
    """The Markdown table of the results."""
    lines = ["| Game | Playouts | Opponent | Games | ismcts durak (95% CI) "
             "| opponent durak per seat (95% CI) | Apart | Draws | ismcts time per search "
             "| ismcts processor time per search | opponent time per move |",
             "|---|--:|---|--:|---|---|---|--:|---|---|---|"]
    for (setting, opponent), tally in results.items():
        players, playouts = SETTINGS[setting][1], tally.playouts
        rate, low, high = _rate(tally.durak, tally.games)
        other, olow, ohigh = _rate(tally.opponents_durak, tally.games * (players - 1))
        apart = "yes" if high < olow else ("no (worse)" if low > ohigh else "no")
        lines.append(
            f"| {setting} | {playouts} | {opponent} | {tally.games} "
            f"| {rate:.1%} ({low:.1%}–{high:.1%}) | "
            f"{other:.1%} ({olow:.1%}–{ohigh:.1%}) | {apart} | {tally.draws} | "
            f"{_times(tally.times)} | {_mean(tally.cpu_times)} | "
            f"{_times(tally.opponent_times)} |")
    return "\n".join(lines)


def _stock(text: str) -> int | None:
    if text == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"give a number of cards or 'all', not {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/tournament.py",
        description="A seeded, seat-rotated tournament of the tree search player (ismcts) "
                    "against the heuristic and the search players; prints a Markdown table.")
    parser.add_argument("--games", type=int, default=200, metavar="N",
                        help="games per pairing (default 200)")
    parser.add_argument("--playouts", type=int, default=None, metavar="P",
                        help="iterations of the tree search per decision in every setting "
                             "(default: 800 with two players, 400 with four)")
    parser.add_argument("--policy", choices=sorted(PLAYOUT_POLICIES), default="greedy",
                        help="the playout policy (default greedy)")
    parser.add_argument("--exploration", type=float, default=0.7, metavar="C",
                        help="the UCB1 exploration constant (default 0.7)")
    parser.add_argument("--prior", type=float, default=0.0, metavar="B",
                        help="the progressive bias toward the heuristic's move at the root "
                             "(default 0: none)")
    parser.add_argument("--place", type=float, default=0.0, metavar="W",
                        help="with three or more players, the weight of the finishing place "
                             "in a playout's score (default 0: only 'not the durak' counts)")
    parser.add_argument("--opponents", choices=OPPONENT_MODELS, default="tree",
                        help="how the other seats decide inside the tree: 'tree', by UCB1 "
                             "in nodes of their own; 'policy', by the playout policy; "
                             "'heuristic', by the heuristic player from their view of the "
                             "sampled deal (default tree)")
    parser.add_argument("--search-from-stock", type=_stock, default=6, metavar="N",
                        help="search once the stock holds N cards or fewer, play as the "
                             "heuristic before; 'all': search from the first move "
                             "(default 6)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the first deal's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), metavar="J",
                        help="local processes (default: the cores this process may use)")
    parser.add_argument("--setting", action="append", choices=sorted(SETTINGS),
                        help="a setting to play (repeat for several; default all)")
    parser.add_argument("--opponent", action="append", choices=OPPONENTS,
                        help="an opponent to play (repeat for several; default both)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--quiet", dest="shown", action="store_false", default=None,
                       help="no progress bar (default: a bar when standard error is a "
                            "terminal)")
    shown.add_argument("--progress", dest="shown", action="store_true",
                       help="a progress bar on standard error even when it is not a terminal")
    args = parser.parse_args(argv)
    for flag, value in (("--games", args.games), ("--playouts", args.playouts),
                        ("--jobs", args.jobs)):
        if value is not None and value < 1:
            parser.error(f"{flag} must be 1 or more, not {value}")
    settings = args.setting or list(SETTINGS)
    opponents = args.opponent or list(OPPONENTS)
    tasks = [Part(setting, opponent, chunk.start, chunk.stop, args.seed,
                  args.playouts or SETTINGS[setting][2], args.policy,
                  args.search_from_stock, args.exploration, args.prior,
                  args.place, args.opponents)
             for setting in settings for opponent in opponents
             for chunk in parts(args.games, args.jobs, 2, 20)]
    results: dict[tuple[str, str], Tally] = {(s, o): Tally() for s in settings
                                             for o in opponents}
    start = time.perf_counter()
    with Workers(jobs=args.jobs) as workers, progress_bar(
            len(tasks) and sum(t.last - t.first for t in tasks), unit="game",
            shown=args.shown) as bar:
        for task, tally in zip(tasks, workers.map(play_part, tasks), strict=True):
            results[(task.setting, task.opponent)].add(tally)
            bar.update(tally.games)
    start_at = ("from the first move" if args.search_from_stock is None
                else f"from {args.search_from_stock} cards in the stock")
    print(f"ismcts with {args.policy} playouts, exploration {args.exploration}, "
          f"prior {args.prior}, place {args.place}, opponents {args.opponents}, "
          f"searching {start_at}, "
          f"{args.games} games per pairing from seed {args.seed}, "
          f"{time.perf_counter() - start:.0f} s with {args.jobs} process(es)")
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
