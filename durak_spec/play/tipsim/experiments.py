"""The tip experiments: their design, definitions and verdicts, their results, and
running them (spread over processes or a cluster if asked)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from durak_spec.core.jobs import Workers, parts
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.markup import Markup
from durak_spec.model.rules import RuleSet, profile
from durak_spec.play.bots import ALL_TIPS, Bot, HeuristicBot, Tip, tournament, wilson_interval
from durak_spec.play.tipsim.text import points_text

Z95: Final = 1.96
"""The normal quantile of a two-sided 95 % interval."""

MARGIN: Final = 0.02
"""The smallest gain worth a tip: two fewer lost games in a hundred. An interval whose top
is below this rules out a gain that large, and the tip is *not supported*."""


HtmlText = Markup
"""HTML text: the package's one display class."""


class Design(StrEnum):
    """Which two players an experiment compares."""

    LEAVE_ONE_OUT = "leave-one-out"
    """The follower follows every tip; the other, every tip but the one under test."""
    ALONE = "alone"
    """The follower follows only the tip under test; the other follows none."""


class Verdict(StrEnum):
    """What the evidence of one experiment says about its tip."""

    SUPPORTED = "supported"
    NOT_SUPPORTED = "not supported"
    INCONCLUSIVE = "inconclusive"


VERDICT_COLOUR: Final = MappingProxyType({
    Verdict.SUPPORTED: "#2e7d32",
    Verdict.NOT_SUPPORTED: "#c62828",
    Verdict.INCONCLUSIVE: "#616161",
})
"""The colour of each verdict in the chart and the table (the verdict is always written too)."""


def verdict(low: float, high: float, margin: float = MARGIN) -> Verdict:
    """The verdict on a tip from the interval ``[low, high]`` of its difference.

    The difference is the other player's durak rate minus the follower's: positive
    means the tip helps. Supported if ``low > 0``; not supported if ``high < margin``
    (a gain of ``margin`` or more is ruled out); inconclusive otherwise.
    """
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise ValueError(f"[{low}, {high}] is not an interval")
    if margin < 0:
        raise ValueError(f"the margin must not be negative, not {margin}")
    if low > 0:
        return Verdict.SUPPORTED
    if high < margin:
        return Verdict.NOT_SUPPORTED
    return Verdict.INCONCLUSIVE

_GAME_WORDS: Final = MappingProxyType(
    {"classic-throw-in": "throw-in game", "classic-transfer": "transfer game"})


@dataclass(frozen=True, slots=True)
class Experiment:
    """The test of one tip: which game, which players, which seed, and why."""

    tip: Tip
    profile: str
    """The rule profile of the games (:func:`~durak_spec.model.rules.profile`)."""
    players: int
    followers: int
    """How many seats follow the tip; the other seats do not."""
    seed: int
    """The first deal's seed; deal ``j`` is dealt with ``seed + j``."""
    why: str
    """What is compared and why in this game (the book shows it)."""
    design: Design = Design.LEAVE_ONE_OUT

    def __post_init__(self) -> None:
        if not 1 <= self.followers < self.players:
            raise ValueError(f"{self.tip.value}: {self.followers} followers in a game of "
                             f"{self.players}; both kinds of player must take part")

    @property
    def id(self) -> str:
        """The tip's rule ID (``"TIP-4"``)."""
        return self.tip.value

    @property
    def title(self) -> str:
        """The tip's title in the rule index."""
        return load_rule_index()[self.tip.value].title

    @property
    def others(self) -> int:
        """How many seats do not follow the tip."""
        return self.players - self.followers

    @property
    def rules(self) -> RuleSet:
        return profile(self.profile).rules(players=self.players)

    @property
    def game(self) -> str:
        """The game in words: ``"2 players, throw-in game"``."""
        return f"{self.players} players, {_GAME_WORDS.get(self.profile, self.profile)}"

    @property
    def follower_tips(self) -> frozenset[Tip]:
        return ALL_TIPS if self.design is Design.LEAVE_ONE_OUT else frozenset({self.tip})

    @property
    def other_tips(self) -> frozenset[Tip]:
        return ALL_TIPS - {self.tip} if self.design is Design.LEAVE_ONE_OUT else frozenset()

    def lineup(self) -> list[Bot]:
        """New bots for the seats: the followers first, then the others."""
        follower = f"follows {self.id}"
        other = f"without {self.id}"
        return [*(HeuristicBot(self.follower_tips, name=follower) for _ in range(self.followers)),
                *(HeuristicBot(self.other_tips, name=other) for _ in range(self.others))]


def _seed(tip: Tip) -> int:
    return int(tip.value.split("-")[1]) * 1_000_000


def _two(tip: Tip, why: str, game: str = "classic-throw-in") -> Experiment:
    return Experiment(tip=tip, profile=game, players=2, followers=1, seed=_seed(tip), why=why)


EXPERIMENTS: Final[tuple[Experiment, ...]] = (
    _two(Tip.LOW_CARDS_FIRST,
         "Playing cards by strength, lowest first, against choosing among the playable cards "
         "at random. Two players are enough: the tip is about which card to play."),
    _two(Tip.SAVE_TRUMPS,
         "Taking a cheap table early instead of covering with a high trump, and not leading "
         "trumps while the stock is large, against always covering when possible."),
    _two(Tip.COUNT_TRUMPS,
         "The bot's only use of the trump count: when it holds at least as many trumps as its "
         "opponent can still have, it covers with a trump instead of taking to save it."),
    _two(Tip.KEEP_PAIRS,
         "Opening with a rank held twice and not breaking pairs when covering, against "
         "ignoring pairs. Played in the transfer game, where a pair serves both halves of the "
         "tip: throwing in, and passing an attack on.", game="classic-transfer"),
    _two(Tip.WATCH_STOCK,
         "Adding one card more or one fewer near the end of the stock so that the face-up "
         "trump is drawn by this player, against not looking at the stock."),
    _two(Tip.UNBEATABLE_ENDGAME,
         "With the stock empty, attacking first with cards the defender cannot beat, against "
         "attacking with the lowest cards."),
    _two(Tip.REMEMBER_CARDS,
         "Remembering every card seen on the table, against forgetting it once the bout is "
         "over; the memory feeds the endgame (TIP-6) and the reading of ranks (TIP-10)."),
    _two(Tip.CHECK_TRANSFER_TARGET,
         "Before a transfer with the stock empty, looking at whether the next player could "
         "beat everything and go out, against transferring whenever it is cheaper than "
         "covering. Two players, as in source B, where the attack goes straight back.",
         game="classic-transfer"),
    Experiment(
        tip=Tip.THROW_IN_TOGETHER, profile="classic-throw-in", players=3, followers=2,
        seed=_seed(Tip.THROW_IN_TOGETHER),
        why="Two players who join every attack and throw in, pressing harder when the "
            "defender is nearly out of cards, against a third who throws in only as the "
            "attacker. Needs three players: someone must join the attacker."),
    _two(Tip.WATCH_TABLE_RANKS,
         "As defender, covering with ranks already on the table and avoiding ranks the "
         "attacker is likely to hold, against ignoring which ranks a cover brings in."),
    _two(Tip.MIND_HAND_SIZE,
         "Giving up a take meant to save a trump when it would leave more than eight cards "
         "in hand, against taking a cheap table whatever the hand already holds."),
)
"""One experiment per tip, in the order of the tips, in the leave-one-out design."""


def experiments(design: Design | str = Design.LEAVE_ONE_OUT,
                tips: Iterable[Tip | str] | None = None) -> tuple[Experiment, ...]:
    """The experiments of ``tips`` (default: all) in ``design``."""
    chosen = Design(design)
    wanted = None if tips is None else {Tip.parse(t) for t in tips}
    return tuple(replace(e, design=chosen) for e in EXPERIMENTS
                 if wanted is None or e.tip in wanted)


UNTESTABLE: Final = MappingProxyType({
    "TIP-3": "Counting the trumps is, for a program, part of remembering the cards: a bot "
             "that remembers what was played (TIP-7) knows every trump that is gone, and "
             "that there are nine is a fact of the deck. The tip's other half, where the "
             "face-up trump will end up, is what TIP-5 acts on. Only the one decision the "
             "bot bases on the count is measured here.",
    "TIP-8": "The first reason to look at the next hand is a rule, not a choice: a transfer "
             "to a player with too few cards is not allowed (TRANSFER-3). The engine offers "
             "only legal moves, so no simulated player can make that mistake. Only the "
             "strategic half (should I transfer even when I may?) is measured.",
    "TIP-10": "Which ranks may be thrown in is a rule (ATTACK-3), enforced for every simulated "
              "player. Only the strategic half, a defender choosing covers by the ranks they "
              "bring to the table, is measured.",
    "all": "Whether a person can carry a tip out: the bots remember perfectly or not at all, "
           "count without error and never misread the table. The experiments measure what "
           "a tip is worth when followed exactly, by this heuristic player, against players "
           "like it; a stronger or weaker opponent, or another way of following the same "
           "advice, can change the answer.",
})
"""What no simulation here can test, by tip ID (``"all"``: every tip)."""


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExperimentResult:
    """The outcome of one experiment: duraks counted per kind of player, per deal."""

    experiment: Experiment
    games: int
    follower_durak: int
    """Games in which a follower of the tip was the durak."""
    other_durak: int
    """Games in which a player without the tip was the durak."""
    draws: int
    unfinished: int
    deal_differences: tuple[float, ...] = field(repr=False)
    """For each deal: the other's durak rate minus the follower's (per player), in it."""
    seconds: float = field(default=0.0, compare=False)

    @property
    def deals(self) -> int:
        return len(self.deal_differences)

    @property
    def follower_rate(self) -> float:
        """How often a follower was the durak (per player and game)."""
        return self.follower_durak / (self.games * self.experiment.followers) if self.games \
            else 0.0

    @property
    def other_rate(self) -> float:
        """How often a player without the tip was the durak (per player and game)."""
        return self.other_durak / (self.games * self.experiment.others) if self.games else 0.0

    @property
    def follower_interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of :attr:`follower_rate`."""
        return wilson_interval(self.follower_durak, self.games * self.experiment.followers)

    @property
    def other_interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of :attr:`other_rate` (with several such players, counted
        as independent trials: conservative, since at most one of them loses a game)."""
        return wilson_interval(self.other_durak, self.games * self.experiment.others)

    @property
    def difference(self) -> float:
        """The other's durak rate minus the follower's: positive when the tip helps."""
        d = self.deal_differences
        return sum(d) / len(d) if d else 0.0

    @property
    def difference_interval(self) -> tuple[float, float]:
        """The 95 % interval of :attr:`difference`, from the spread over deals (paired).

        The normal interval of the mean of the deals' differences, but never narrower than
        ``±3 / deals`` (the rule of three), so that a tip which changed no game in a few
        deals is not taken for a tip proved useless; with fewer than two deals, ``(-1, 1)``.
        """
        d = self.deal_differences
        if len(d) < 2:
            return (-1.0, 1.0)
        mean = self.difference
        spread = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        # Never narrower than the rule of three: if the tip changed no deal of n, a change
        # in up to 3 of n deals (each worth up to a whole game) is still not ruled out.
        half = max(Z95 * spread / math.sqrt(len(d)), 3 / len(d))
        return (max(-1.0, mean - half), min(1.0, mean + half))

    @property
    def verdict(self) -> Verdict:
        return verdict(*self.difference_interval)

    def explain(self) -> str:
        """The verdict in a sentence."""
        low, high = self.difference_interval
        if self.verdict is Verdict.SUPPORTED:
            return (f"The follower was the durak less often, by {points_text(self.difference)} "
                    f"points; the whole interval of the difference is above zero.")
        if self.verdict is Verdict.NOT_SUPPORTED:
            if high < 0:
                return ("The follower was the durak more often: as this bot plays it, the tip "
                        "costs games.")
            return (f"Any gain is smaller than {points_text(MARGIN, sign=False)} points: the "
                    f"interval rules out a gain worth the tip.")
        return (f"The interval ({points_text(low)} to {points_text(high)} points) holds both no "
                f"effect and a gain of {points_text(MARGIN, sign=False)} points or more: more "
                f"games would tell.")


@dataclass(frozen=True, slots=True)
class Evidence:
    """The results of a run of experiments."""

    results: tuple[ExperimentResult, ...]
    games: int
    """Games per experiment (a multiple of each game's player count)."""
    seconds: float = field(default=0.0, compare=False)

    @property
    def total_games(self) -> int:
        return sum(r.games for r in self.results)

    def by_verdict(self, which: Verdict) -> tuple[ExperimentResult, ...]:
        return tuple(r for r in self.results if r.verdict is which)

    def __getitem__(self, tip: Tip | str) -> ExperimentResult:
        wanted = Tip.parse(tip)
        for result in self.results:
            if result.experiment.tip is wanted:
                return result
        raise KeyError(f"{wanted.value} was not part of this run")

Progress = Callable[[Experiment, int, int], None]
"""``progress(experiment, games_done, games_total)``, called after every deal (after every
part of deals when the games are spread over workers)."""

SMALLEST: Final = 25
"""The fewest deals sent to a worker at once (about half a second of play): fewer are
played in this process, since starting a worker costs more."""
LARGEST: Final = 500
"""The most deals sent to a worker at once, so that progress shows and the work spreads."""


_Deal = tuple[int, int, int, int, float]
"""One deal played in every seating: the follower's and the other's duraks, the draws, the
unfinished games, and the deal's difference (the other's durak rate minus the follower's)."""


@dataclass(frozen=True, slots=True)
class _Tally:
    """Consecutive deals of an experiment: the counts, and each deal's difference in the
    order of their seeds (all the run keeps of a deal)."""

    follower_durak: int
    other_durak: int
    draws: int
    unfinished: int
    differences: tuple[float, ...]
    seconds: float

    @classmethod
    def of(cls, deals: Sequence[_Deal], seconds: float) -> _Tally:
        f, o, d, u = (sum(deal[k] for deal in deals) for k in range(4))
        return cls(int(f), int(o), int(d), int(u), tuple(deal[4] for deal in deals), seconds)


def _rounded(n_games: int, players: int) -> int:
    return -(-n_games // players) * players


def _check_games(n_games: int) -> None:
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(f"the number of games must be a whole number of at least 1, "
                         f"not {n_games!r}")


def _deals(experiment: Experiment, deals: range) -> Iterator[_Deal]:
    """Play ``deals`` (deal ``j`` is dealt with ``experiment.seed + j``), each once with
    every rotation of the players around the table. A deal depends only on its seed."""
    n = experiment.players
    rules = experiment.rules
    bots = experiment.lineup()
    followers = experiment.followers
    for deal in deals:
        played = tournament(rules, bots, n, seed=experiment.seed + deal, rotate=True)
        f = sum(played.durak[:followers])
        o = sum(played.durak[followers:])
        yield (f, o, played.draws, played.unfinished,
               o / (n * experiment.others) - f / (n * followers))


def _play_part(part: tuple[Experiment, range]) -> _Tally:
    """A worker's job: the deals of one part."""
    start = time.perf_counter()
    deals = tuple(_deals(*part))
    return _Tally.of(deals, time.perf_counter() - start)


def _result(experiment: Experiment, tallies: Sequence[_Tally]) -> ExperimentResult:
    """The result of an experiment from the tallies of its parts, in the order of their
    seeds."""
    differences = tuple(d for t in tallies for d in t.differences)
    return ExperimentResult(
        experiment=experiment, games=len(differences) * experiment.players,
        follower_durak=sum(t.follower_durak for t in tallies),
        other_durak=sum(t.other_durak for t in tallies), draws=sum(t.draws for t in tallies),
        unfinished=sum(t.unfinished for t in tallies), deal_differences=differences,
        seconds=sum(t.seconds for t in tallies))


def run_experiment(experiment: Experiment, n_games: int, *,
                   progress: Progress | None = None) -> ExperimentResult:
    """Play ``n_games`` games (rounded up to whole deals) of ``experiment``; deterministic."""
    _check_games(n_games)
    n = experiment.players
    games = _rounded(n_games, n)
    start = time.perf_counter()
    deals: list[_Deal] = []
    for deal in _deals(experiment, range(games // n)):
        deals.append(deal)
        if progress is not None:
            progress(experiment, len(deals) * n, games)
    return _result(experiment, [_Tally.of(deals, time.perf_counter() - start)])


def run_experiments(n_games: int, *, progress: Progress | None = None,
                    design: Design | str = Design.LEAVE_ONE_OUT,
                    tips: Iterable[Tip | str] | None = None,
                    jobs: int = 1, scheduler: str | None = None) -> Evidence:
    """Run the experiment of every tip (or of ``tips``) with ``n_games`` games each.

    With ``jobs`` above 1 the deals are spread over that many local processes, with a
    ``scheduler`` address over the workers of that Dask cluster
    (:class:`~durak_spec.core.jobs.Workers`): cut into parts of consecutive seeds, played
    where there is room, merged in the order of their seeds, so the evidence is the same
    whatever the number of workers. Fewer than twice :data:`SMALLEST` deals in all are
    played in this process. ``progress`` is then called after every part.
    """
    _check_games(n_games)
    chosen = experiments(design, tips)
    start = time.perf_counter()
    with Workers(jobs, scheduler) as workers:
        total = sum(_rounded(n_games, e.players) // e.players for e in chosen)
        if workers.local or total < 2 * SMALLEST:
            results = tuple(run_experiment(e, n_games, progress=progress) for e in chosen)
        else:
            results = _spread(chosen, n_games, workers, progress)
    return Evidence(results=results, games=n_games, seconds=time.perf_counter() - start)


def _spread(chosen: Sequence[Experiment], n_games: int, workers: Workers,
            progress: Progress | None) -> tuple[ExperimentResult, ...]:
    """:func:`run_experiments` on ``workers``: every experiment's deals in parts."""
    items = [(e, deals) for e in chosen
             for deals in parts(_rounded(n_games, e.players) // e.players, workers.slots,
                                SMALLEST, LARGEST)]
    tallies: dict[Experiment, list[_Tally]] = {e: [] for e in chosen}
    done = dict.fromkeys(chosen, 0)
    for (experiment, _), tally in zip(items, workers.map(_play_part, items), strict=True):
        tallies[experiment].append(tally)
        done[experiment] += len(tally.differences) * experiment.players
        if progress is not None:
            progress(experiment, done[experiment], _rounded(n_games, experiment.players))
    return tuple(_result(e, tallies[e]) for e in chosen)
