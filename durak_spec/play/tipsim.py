"""The sources' tips put to the test: seeded experiments, their verdicts and a chart (layer 7).

For every tip of the sources (TIP-1 … TIP-11) an :class:`Experiment` names two players
and a game: the **follower**, a :class:`~durak_spec.play.bots.HeuristicBot` that follows every
tip, and the **other**, the very same bot with that one tip switched off (the
*leave-one-out* design, :attr:`Design.LEAVE_ONE_OUT`). They play many seeded games and
we count how often each is the durak.

Why leave-one-out
-----------------

A tip is advice to a player who already plays sensibly, and the tips lean on one another:
saving trumps (TIP-2) means something only to a player who otherwise plays cards by
strength (TIP-1); attacking with what the defender cannot beat (TIP-6) needs the memory of
played cards (TIP-7) to know what that is; counting trumps (TIP-3) only refines the
decision of TIP-2. So the other player differs from the follower in exactly one switch,
and any difference in their durak rates is that switch's doing. The reverse design, a
player with no tips against the same player with only the tip under test
(:attr:`Design.ALONE`), is available too (``durak-spec tips --design alone``);
it asks a different question (is the tip worth learning first?).

Fairness: same deals, every seat
--------------------------------

Each *deal* (seed) is played once for every rotation of the players around the table, so
every player sits in every seat of the same deal: luck of the cards and of the seat
cancels. That also makes the deals the unit of the statistics: for each deal, the
difference between the other's and the follower's durak rate; the mean of those is the
measured difference, and their spread gives its confidence interval (a paired test,
much tighter than comparing two independent rates, because a deal in which the tip never
changed a decision is played the same way in both seatings and contributes zero).

The games
---------

A tip is tested in the game it speaks about: the two-player throw-in game for most
tips; the two-player transfer game for keeping pairs (TIP-4, whose second half is about
transfers) and for checking the next hand before a transfer (TIP-8, a tip of source B,
which is a two-player game); three players for attacking together (TIP-9), which needs
someone to join the attacker: there two players follow the tip and one does not.

Verdicts
--------

:func:`verdict` decides from the 95 % interval of the difference (other minus follower,
in durak rate): **supported** if the whole interval is above zero (the follower is the
durak less often); **not supported** if the interval rules out a gain of :data:`MARGIN`
or more (the tip does not help by a margin worth learning, or harms); **inconclusive**
otherwise. The verdict is about the tip *as this bot plays it* against opponents like
itself.

Running
-------

:func:`run_experiments` runs them all (``progress`` is called after every deal);
:func:`plot` draws the result as standalone SVG text; :func:`table_html` and
:func:`format_table` give the numbers. From the command line::

    durak-spec tips --games 4000 --svg tips.svg

shows progress on stderr and prints the table. Everything is deterministic for the
experiments' seeds; only the measured seconds vary.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from enum import StrEnum
from multiprocessing import get_context
from pathlib import Path
from types import MappingProxyType
from typing import Final, TextIO
from xml.sax.saxutils import escape, quoteattr

from durak_spec.core.cliargs import CommandError, Subparsers, positive_count
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.game.markup import Markup
from durak_spec.game.svg import SvgText, svg_document, svg_line, svg_number, svg_text
from durak_spec.model.rules import RuleSet, profile
from durak_spec.play.bots import (
    ALL_TIPS,
    TIP_NOTES,
    Bot,
    HeuristicBot,
    Tip,
    tournament,
    wilson_interval,
)

__all__ = [
    "EXPERIMENTS",
    "MARGIN",
    "UNTESTABLE",
    "Design",
    "Evidence",
    "Experiment",
    "ExperimentResult",
    "HtmlText",
    "Verdict",
    "add_parser",
    "design_html",
    "experiments",
    "format_table",
    "plot",
    "plot_narrow",
    "run_experiment",
    "run_experiments",
    "summary_html",
    "table_html",
    "untestable_html",
    "verdict",
]

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


_VERDICT_COLOUR: Final = MappingProxyType({
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


# -- the experiments --------------------------------------------------------------------------


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
            return (f"The follower was the durak less often, by {_points(self.difference)} "
                    f"points; the whole interval of the difference is above zero.")
        if self.verdict is Verdict.NOT_SUPPORTED:
            if high < 0:
                return ("The follower was the durak more often: as this bot plays it, the tip "
                        "costs games.")
            return (f"Any gain is smaller than {_points(MARGIN, sign=False)} points: the "
                    f"interval rules out a gain worth the tip.")
        return (f"The interval ({_points(low)} to {_points(high)} points) holds both no "
                f"effect and a gain of {_points(MARGIN, sign=False)} points or more: more "
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


# -- running ------------------------------------------------------------------------------------


Progress = Callable[[Experiment, int, int], None]
"""``progress(experiment, games_done, games_total)``, called after every deal."""


def _rounded(n_games: int, players: int) -> int:
    return -(-n_games // players) * players


def run_experiment(experiment: Experiment, n_games: int, *,
                   progress: Progress | None = None) -> ExperimentResult:
    """Play ``n_games`` games (rounded up to whole deals) of ``experiment``; deterministic."""
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(f"the number of games must be a whole number of at least 1, "
                         f"not {n_games!r}")
    n = experiment.players
    games = _rounded(n_games, n)
    rules = experiment.rules
    bots = experiment.lineup()
    followers = experiment.followers
    start = time.perf_counter()
    follower_durak = other_durak = draws = unfinished = 0
    differences: list[float] = []
    for deal in range(games // n):
        # One deal, played once with each rotation of the players around the table.
        played = tournament(rules, bots, n, seed=experiment.seed + deal, rotate=True)
        f = sum(played.durak[:followers])
        o = sum(played.durak[followers:])
        follower_durak += f
        other_durak += o
        draws += played.draws
        unfinished += played.unfinished
        differences.append(o / (n * experiment.others) - f / (n * followers))
        if progress is not None:
            progress(experiment, (deal + 1) * n, games)
    return ExperimentResult(experiment=experiment, games=games, follower_durak=follower_durak,
                            other_durak=other_durak, draws=draws, unfinished=unfinished,
                            deal_differences=tuple(differences),
                            seconds=time.perf_counter() - start)


def _run_quietly(experiment: Experiment, n_games: int) -> ExperimentResult:
    return run_experiment(experiment, n_games)


def run_experiments(n_games: int, *, progress: Progress | None = None,
                    design: Design | str = Design.LEAVE_ONE_OUT,
                    tips: Iterable[Tip | str] | None = None,
                    workers: int = 1) -> Evidence:
    """Run the experiment of every tip (or of ``tips``) with ``n_games`` games each.

    With ``workers`` above 1 the experiments run in that many processes, and ``progress``
    is called once per finished experiment; the results are the same either way.
    """
    chosen = experiments(design, tips)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    start = time.perf_counter()
    if workers == 1 or len(chosen) == 1:
        results = tuple(run_experiment(e, n_games, progress=progress) for e in chosen)
    else:
        run_experiment(chosen[0], 1)  # check the arguments here, not in a worker
        with ProcessPoolExecutor(max_workers=min(workers, len(chosen)),
                                 mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_run_quietly, e, n_games) for e in chosen]
            done: list[ExperimentResult] = []
            for future in futures:
                result = future.result()
                done.append(result)
                if progress is not None:
                    progress(result.experiment, result.games, result.games)
        results = tuple(done)
    return Evidence(results=results, games=n_games, seconds=time.perf_counter() - start)


# -- numbers as text and HTML ---------------------------------------------------------------------


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f} %"


def _points(value: float, *, sign: bool = True) -> str:
    text = f"{100 * value:+.1f}" if sign else f"{100 * value:.1f}"
    return text.replace("-", "−")


def _interval(bounds: tuple[float, float]) -> str:
    return f"{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f} %"


def _points_interval(bounds: tuple[float, float]) -> str:
    return f"{_points(bounds[0])} to {_points(bounds[1])}"


def format_table(evidence: Evidence) -> str:
    """The results as a plain-text table (the command line prints it)."""
    head = ("tip", "game", "games", "follower durak (95% CI)", "other durak (95% CI)",
            "difference, points (95% CI)", "verdict")
    rows = [head]
    for r in evidence.results:
        e = r.experiment
        rows.append((
            e.id, e.game, str(r.games),
            f"{_percent(r.follower_rate)} ({_interval(r.follower_interval)})",
            f"{_percent(r.other_rate)} ({_interval(r.other_interval)})",
            f"{_points(r.difference)} ({_points_interval(r.difference_interval)})",
            r.verdict.value))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(f"{evidence.total_games} games in {evidence.seconds:.1f} s")
    return "\n".join(lines)


def _link(tip_id: str, tip_page: str) -> str:
    return f'<a href={quoteattr(f"{tip_page}#{tip_id}")}>{escape(tip_id)}</a>'




def table_html(evidence: Evidence, *, tip_page: str = "tips.html") -> HtmlText:
    """The numbers beside the chart, one row per experiment; tip IDs link to ``tip_page``.

    Each rate and the difference show their 95 % interval under them, in small print."""
    head = ("Tip and game", "Durak rate, follower", "Durak rate, other",
            "Difference, points", "Verdict")
    out = ['<table class="table tipsim-table">', "<thead><tr>",
           *(f'<th scope="col">{escape(h)}</th>' for h in head), "</tr></thead><tbody>"]

    def cell(value: str, interval: str) -> str:
        return (f'<td style="white-space:nowrap">{value}<br/>'
                f"<small>{escape(interval)}</small></td>")

    for r in evidence.results:
        e = r.experiment
        cells = (
            f'<th scope="row">{_link(e.id, tip_page)} {escape(e.title)}<br/>'
            f'<small style="font-weight:normal">{escape(e.game)}, {r.games} games</small></th>',
            cell(_percent(r.follower_rate), _interval(r.follower_interval)),
            cell(_percent(r.other_rate), _interval(r.other_interval)),
            cell(_points(r.difference), _points_interval(r.difference_interval)),
            f'<td class="tipsim-verdict"><strong style="color:{_VERDICT_COLOUR[r.verdict]}">'
            f"{escape(r.verdict.value)}</strong></td>",
        )
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    out.append("<p><small>Under each number: its 95 % confidence interval (Wilson for the "
               "rates; paired over deals for the difference).</small></p>")
    return HtmlText("<div>" + "".join(out) + "</div>")


def summary_html(evidence: Evidence, *, tip_page: str = "tips.html") -> HtmlText:
    """Which tips the evidence supports, which not, which it leaves open: a list."""
    parts = ["<ul>"]
    for which in Verdict:
        found = evidence.by_verdict(which)
        if found:
            items = "; ".join(f"{_link(r.experiment.id, tip_page)} {escape(r.experiment.title)}"
                              for r in found)
        else:
            items = "none"
        parts.append(f"<li><strong>{escape(which.value.capitalize())}:</strong> {items}.</li>")
    parts.append("</ul>")
    return HtmlText("".join(parts))


def design_html(evidence: Evidence, *, tip_page: str = "tips.html") -> HtmlText:
    """Per experiment: what is compared and why, how the bot follows the tip, and the
    verdict explained."""
    parts = ['<dl class="tipsim-design">']
    for r in evidence.results:
        e = r.experiment
        parts.append(f"<dt>{_link(e.id, tip_page)} {escape(e.title)} "
                     f"<small>({escape(e.game)}, seed {e.seed})</small></dt>")
        parts.append(
            f"<dd><p><strong>Compared:</strong> {escape(e.why)}</p>"
            f"<p><strong>How the bot follows it:</strong> "
            f"{escape(TIP_NOTES[e.tip].replace('`', ''))}</p>"
            f"<p><strong>Result:</strong> {escape(r.verdict.value)}. {escape(r.explain())}</p>"
            f"</dd>")
    parts.append("</dl>")
    return HtmlText("".join(parts))


def untestable_html(*, tip_page: str = "tips.html") -> HtmlText:
    """What no simulation here can test (:data:`UNTESTABLE`)."""
    index = load_rule_index()
    parts = ["<ul>"]
    for key, text in UNTESTABLE.items():
        label = ("<strong>Every tip</strong>" if key == "all"
                 else f"<strong>{_link(key, tip_page)} {escape(index[key].title)}</strong>")
        parts.append(f"<li>{label}: {escape(text)}</li>")
    parts.append("</ul>")
    return HtmlText("".join(parts))


# -- the chart ----------------------------------------------------------------------------------

_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_FOLLOWER = "#1565c0"
_OTHER = "#ef6c00"
_INK = "#1b1b1b"
_MUTED = "#5f6b66"
_GRID = "#d9dedb"
_BAND = "#eef1ef"

_W = 760  # about the width of the book's text column, so the text keeps its size
_LABEL_X = 12
_LABEL_CHARS = 27
_RATE_X = 210
_RATE_W = 236
_DIFF_X = 500
_DIFF_W = 140
_VERDICT_X = _DIFF_X + _DIFF_W + 16
_TOP = 100
_ROW = 58
_BAR_H = 13
_RANGES = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


_n = svg_number
_line = svg_line


def _t(x: float, y: float, content: str, *, size: float = 12, fill: str = _INK,
       weight: str | None = None, anchor: str | None = None, halo: bool = False) -> str:
    return svg_text(x, y, content, size=size, fill=fill, weight=weight,
                    anchor=anchor or "start", halo=halo)


def _diff_range(results: Sequence[ExperimentResult]) -> float:
    """The half-width of the difference axis: wide enough for most intervals; the few
    that do not fit are drawn to the edge with an arrow (their numbers are written)."""
    ends = sorted(max(abs(b) for b in r.difference_interval) for r in results)
    if not ends:
        return _RANGES[1]
    covered = ends[max(0, math.ceil(0.75 * len(ends)) - 1)]
    covered = max(covered, MARGIN * 1.5)
    return next((r for r in _RANGES if r >= covered), 1.0)


def _whisker(x1: float, x2: float, y: float, colour: str, cap: float = 4) -> list[str]:
    return [_line(x1, y, x2, y, colour, 1.6), _line(x1, y - cap, x1, y + cap, colour, 1.6),
            _line(x2, y - cap, x2, y + cap, colour, 1.6)]


def _describe(evidence: Evidence) -> str:
    sentences = [
        f"Durak rate of a player who follows each tip and of the same player without it, "
        f"{evidence.games} games per tip, with 95 % confidence intervals, and the difference."]
    for r in evidence.results:
        e = r.experiment
        sentences.append(
            f"{e.id} {e.title} ({e.game}): follower {_percent(r.follower_rate)} "
            f"({_interval(r.follower_interval)}), other {_percent(r.other_rate)} "
            f"({_interval(r.other_interval)}); difference {_points(r.difference)} points "
            f"({_points_interval(r.difference_interval)}): {r.verdict.value}.")
    return " ".join(sentences)


def plot(evidence: Evidence) -> SvgText:
    """The evidence as a chart (standalone SVG text, drawn here, no plotting library).

    Left: per tip, the durak rate of the follower (blue) and of the other player (orange)
    as horizontal bars with 95 % interval whiskers, and a dashed mark at the even share
    (one in as many games as there are players). Right: the difference (other minus
    follower, in points) with its 95 % interval, coloured and labelled by verdict, on
    a scale that fits most intervals; an interval beyond it ends in an arrow. Accessible:
    ``role="img"``, ``<title>``, ``<desc>`` and ``aria-label`` say every number in words.
    """
    results = evidence.results
    height = _TOP + _ROW * len(results) + 56
    span = _diff_range(results)
    bottom = _TOP + _ROW * len(results)

    def rate_x(rate: float) -> float:
        return _RATE_X + _RATE_W * min(1.0, max(0.0, rate))

    def diff_x(value: float) -> float:
        return _DIFF_X + _DIFF_W * (min(span, max(-span, value)) + span) / (2 * span)

    title = "The sources' tips put to the test: durak rate with and without each tip"
    description = _describe(evidence)
    body: list[str] = [f'<rect width="{_W}" height="{height}" fill="#ffffff"/>']
    body.append(_t(_LABEL_X, 24, "Durak rate with and without each tip", size=17,
                   weight="bold"))
    body.append(_t(_LABEL_X, 43, f"{evidence.games} seeded games per tip, every deal played "
                   "from every seat; whiskers: 95 % confidence intervals", size=12,
                   fill=_MUTED))
    # Legend.
    legend_y = 68
    body.append(f'<rect x="{_LABEL_X}" y="{legend_y - 10}" width="14" height="11" '
                f'fill="{_FOLLOWER}"/>')
    body.append(_t(_LABEL_X + 20, legend_y, "follows the tip", size=12))
    body.append(f'<rect x="{_LABEL_X + 130}" y="{legend_y - 10}" width="14" height="11" '
                f'fill="{_OTHER}"/>')
    body.append(_t(_LABEL_X + 150, legend_y, "the same player without it", size=12))
    body.append(_line(_LABEL_X + 330, legend_y - 11, _LABEL_X + 330, legend_y + 2, _MUTED, 1.4,
                      "3 2"))
    body.append(_t(_LABEL_X + 337, legend_y, "even share (1 ÷ players)", size=12))
    # Panel headings.
    body.append(_t(_RATE_X, _TOP - 10, "durak rate (share of games lost)", size=12,
                   weight="bold"))
    body.append(_t(_DIFF_X, _TOP - 10, "difference, points", size=12, weight="bold"))
    body.append(_t(_VERDICT_X, _TOP - 10, "verdict", size=12, weight="bold"))
    # Grids and the margin band.
    body.append(f'<rect x="{_n(diff_x(-MARGIN))}" y="{_TOP}" '
                f'width="{_n(diff_x(MARGIN) - diff_x(-MARGIN))}" height="{bottom - _TOP}" '
                f'fill="{_BAND}"/>')
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = rate_x(tick)
        body.append(_line(x, _TOP, x, bottom, _GRID))
        body.append(_t(x, bottom + 16, f"{round(100 * tick)} %", size=11, fill=_MUTED,
                       anchor="middle"))
    for tick in (-span, -span / 2, 0.0, span / 2, span):
        x = diff_x(tick)
        body.append(_line(x, _TOP, x, bottom, _MUTED if tick == 0 else _GRID,
                          1.2 if tick == 0 else 1))
        label = f"{100 * tick:+g}".replace("-", "−") if tick else "0"
        body.append(_t(x, bottom + 16, label, size=11, fill=_MUTED, anchor="middle"))
    body.append(_t(_RATE_X + _RATE_W / 2, bottom + 34, "lower is better for that player",
                   size=11, fill=_MUTED, anchor="middle"))
    body.append(_t(_DIFF_X + _DIFF_W / 2, bottom + 34, "other − follower; right of 0: the tip "
                   "helps", size=11, fill=_MUTED, anchor="middle"))
    band = _points(MARGIN, sign=False)
    body.append(_t(_DIFF_X + _DIFF_W / 2, bottom + 48, f"shaded: within ±{band} points",
                   size=11, fill=_MUTED, anchor="middle"))
    # One row per experiment.
    for i, r in enumerate(results):
        e = r.experiment
        top = _TOP + _ROW * i
        if i:
            body.append(_line(_LABEL_X, top, _W - 10, top, _GRID))
        body.append(f"<g class=\"tip-row\" data-tip={quoteattr(e.id)}>"
                    f"<title>{escape(e.id)}: {escape(r.verdict.value)}</title>")
        title_lines = _wrap(f"{e.id} {e.title}", _LABEL_CHARS)
        first = title_lines[0][len(e.id):]
        body.append(f'<text x="{_LABEL_X}" y="{top + 18}" font-size="12" fill="{_INK}">'
                    f'<tspan font-weight="bold">{escape(e.id)}</tspan>{escape(first)}</text>')
        for k, part in enumerate(title_lines[1:], start=1):
            body.append(_t(_LABEL_X, top + 18 + 15 * k, part, size=12))
        body.append(_t(_LABEL_X, top + 20 + 15 * len(title_lines), e.game, size=11,
                       fill=_MUTED))
        even = rate_x(1 / e.players)
        body.append(_line(even, top + 5, even, top + _ROW - 5, _MUTED, 1.4, "3 2"))
        for row, (rate, bounds, colour) in enumerate((
                (r.follower_rate, r.follower_interval, _FOLLOWER),
                (r.other_rate, r.other_interval, _OTHER))):
            bar_y = top + 10 + row * (_BAR_H + 8)
            body.append(f'<rect x="{_RATE_X}" y="{bar_y}" '
                        f'width="{_n(rate_x(rate) - _RATE_X)}" '
                        f'height="{_BAR_H}" fill="{colour}" fill-opacity="0.85"/>')
            body.extend(_whisker(rate_x(bounds[0]), rate_x(bounds[1]), bar_y + _BAR_H / 2,
                                 _INK))
            body.append(_t(rate_x(max(bounds[1], rate)) + 6, bar_y + _BAR_H - 2, _percent(rate),
                           size=10.5, fill=_MUTED, halo=True))
        colour = _VERDICT_COLOUR[r.verdict]
        low, high = r.difference_interval
        y = top + _ROW / 2
        body.extend(_whisker(diff_x(low), diff_x(high), y, colour, cap=5))
        for end, direction in ((low, -1), (high, 1)):
            if direction * end > span:  # beyond the scale: an arrow at the edge
                back = diff_x(end)
                tip_x = back + direction * 8
                body.append(f'<path d="M{_n(tip_x)} {_n(y)} L{_n(back)} {_n(y - 6)} '
                            f'L{_n(back)} {_n(y + 6)} Z" fill="{colour}"/>')
        if abs(r.difference) <= span:
            body.append(f'<circle cx="{_n(diff_x(r.difference))}" cy="{_n(y)}" r="5" '
                        f'fill="{colour}"/>')
        else:
            side = 1 if r.difference > 0 else -1
            body.append(_t(diff_x(side * span) - side * 6, y - 8, "off the scale", size=10,
                           fill=colour, anchor="end" if side > 0 else "start", halo=True))
        body.append(_t(_VERDICT_X, y - 2, r.verdict.value, size=11.5, weight="bold",
                       fill=colour))
        body.append(_t(_VERDICT_X, y + 13, f"{_points(r.difference)} points", size=11,
                       fill=_MUTED))
        body.append("</g>")
    return svg_document(_W, height, title, description, body, max_width=_W,
                        cls="tipsim-chart")


_NARROW_W = 380  # a phone's width: the same numbers, each tip's title above its bars
_NARROW_RATE_W = 180
_NARROW_DIFF_X = 262
_NARROW_DIFF_W = 104
_NARROW_TOP = 128
_NARROW_ROW = 116


def plot_narrow(evidence: Evidence) -> SvgText:
    """The chart of :func:`plot` laid out for a phone's width (380 units, so its text keeps
    its size on a 390 px screen): each tip's title on a line of its own, its two bars under
    it, and the difference with its verdict beside the bars."""
    results = evidence.results
    span = _diff_range(results)
    bottom = _NARROW_TOP + _NARROW_ROW * len(results)
    height = bottom + 76
    rate_left, diff_left = _LABEL_X, _NARROW_DIFF_X

    def rate_x(rate: float) -> float:
        return rate_left + _NARROW_RATE_W * min(1.0, max(0.0, rate))

    def diff_x(value: float) -> float:
        return diff_left + _NARROW_DIFF_W * (min(span, max(-span, value)) + span) / (2 * span)

    title = "The sources' tips put to the test: durak rate with and without each tip"
    body: list[str] = [f'<rect width="{_NARROW_W}" height="{height}" fill="#ffffff"/>']
    body.append(_t(_LABEL_X, 22, "Durak rate with and without each tip", size=15,
                   weight="bold"))
    body.append(_t(_LABEL_X, 40, f"{evidence.games} seeded games per tip, every deal played "
                   "from every seat;", size=11, fill=_MUTED))
    body.append(_t(_LABEL_X, 54, "whiskers: 95 % confidence intervals", size=11, fill=_MUTED))
    for x, y, colour, words in ((_LABEL_X, 76, _FOLLOWER, "follows the tip"),
                                (_LABEL_X + 120, 76, _OTHER, "the same player without it")):
        body.append(f'<rect x="{x}" y="{y - 10}" width="14" height="11" fill="{colour}"/>')
        body.append(_t(x + 20, y, words, size=12))
    body.append(_line(_LABEL_X + 6, 83, _LABEL_X + 6, 96, _MUTED, 1.4, "3 2"))
    body.append(_t(_LABEL_X + 20, 94, "even share (1 ÷ players)", size=12))
    body.append(_t(rate_left, _NARROW_TOP - 10, "durak rate", size=12, weight="bold"))
    body.append(_t(diff_left, _NARROW_TOP - 10, "difference", size=12, weight="bold"))
    for i, r in enumerate(results):
        e = r.experiment
        top = _NARROW_TOP + _NARROW_ROW * i
        if i:
            body.append(_line(_LABEL_X, top, _NARROW_W - 10, top, _GRID))
        body.append(f"<g class=\"tip-row\" data-tip={quoteattr(e.id)}>"
                    f"<title>{escape(e.id)}: {escape(r.verdict.value)}</title>")
        lines = _wrap(f"{e.id} {e.title}", 50)
        body.append(f'<text x="{_LABEL_X}" y="{top + 16}" font-size="12" fill="{_INK}">'
                    f'<tspan font-weight="bold">{escape(e.id)}</tspan>'
                    f"{escape(lines[0][len(e.id):])}</text>")
        for k, part in enumerate(lines[1:], start=1):
            body.append(_t(_LABEL_X, top + 16 + 15 * k, part, size=12))
        body.append(_t(_LABEL_X, top + 16 + 15 * len(lines), e.game, size=11, fill=_MUTED))
        bars = top + 58
        # The scales, drawn in this row's band only (the titles above stay clear).
        body.append(f'<rect x="{svg_number(diff_x(-MARGIN))}" y="{bars - 4}" '
                    f'width="{svg_number(diff_x(MARGIN) - diff_x(-MARGIN))}" height="42" '
                    f'fill="{_BAND}"/>')
        for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
            body.append(_line(rate_x(tick), bars - 4, rate_x(tick), bars + 38, _GRID))
        body.append(_line(diff_x(0.0), bars - 4, diff_x(0.0), bars + 38, _MUTED, 1.2))
        even = rate_x(1 / e.players)
        body.append(_line(even, bars - 4, even, bars + 38, _MUTED, 1.4, "3 2"))
        for row, (rate, bounds, colour) in enumerate((
                (r.follower_rate, r.follower_interval, _FOLLOWER),
                (r.other_rate, r.other_interval, _OTHER))):
            bar_y = bars + row * (_BAR_H + 8)
            body.append(f'<rect x="{rate_left}" y="{bar_y}" '
                        f'width="{svg_number(rate_x(rate) - rate_left)}" height="{_BAR_H}" '
                        f'fill="{colour}" fill-opacity="0.85"/>')
            body.extend(_whisker(rate_x(bounds[0]), rate_x(bounds[1]), bar_y + _BAR_H / 2,
                                 _INK))
            body.append(_t(rate_x(max(bounds[1], rate)) + 5, bar_y + _BAR_H - 2,
                           _percent(rate), size=10.5, fill=_MUTED, halo=True))
        colour = _VERDICT_COLOUR[r.verdict]
        low, high = r.difference_interval
        y = bars + 10
        body.extend(_whisker(diff_x(low), diff_x(high), y, colour, cap=5))
        for end, direction in ((low, -1), (high, 1)):
            if direction * end > span:
                back = diff_x(end)
                tip_x = back + direction * 7
                body.append(f'<path d="M{svg_number(tip_x)} {svg_number(y)} '
                            f'L{svg_number(back)} {svg_number(y - 5)} '
                            f'L{svg_number(back)} {svg_number(y + 5)} Z" fill="{colour}"/>')
        if abs(r.difference) <= span:
            body.append(f'<circle cx="{svg_number(diff_x(r.difference))}" cy="{svg_number(y)}" '
                        f'r="5" fill="{colour}"/>')
        scale = " (off the scale)" if abs(r.difference) > span else ""
        centre = diff_left + _NARROW_DIFF_W / 2
        body.append(_t(centre, bars + 30, r.verdict.value, size=11, weight="bold",
                       fill=colour, anchor="middle"))
        body.append(_t(centre, bars + 44, f"{_points(r.difference)} points{scale}",
                       size=10.5, fill=_MUTED, anchor="middle"))
        body.append("</g>")
    for tick in (0.0, 0.5, 1.0):
        body.append(_t(rate_x(tick), bottom + 14, f"{round(100 * tick)} %", size=11,
                       fill=_MUTED, anchor="middle" if tick else "start"))
    for tick in (-span, 0.0, span):
        label = f"{100 * tick:+g}".replace("-", "−") if tick else "0"
        body.append(_t(diff_x(tick), bottom + 14, label, size=11, fill=_MUTED,
                       anchor="middle" if tick == 0 else ("start" if tick < 0 else "end")))
    band = _points(MARGIN, sign=False)
    for k, words in enumerate(("durak rate: lower is better for that player",
                               "difference: other − follower; right of 0: the tip helps",
                               f"shaded: within ±{band} points")):
        body.append(_t(_LABEL_X, bottom + 34 + 15 * k, words, size=11, fill=_MUTED))
    return svg_document(_NARROW_W, height, title, _describe(evidence), body,
                        max_width=_NARROW_W, cls="tipsim-chart tipsim-narrow")


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in at most two lines of about ``width`` characters (the second shortened)."""
    if len(text) <= width:
        return [text]
    cut = text.rfind(" ", 0, width + 1)
    cut = cut if cut > 0 else width
    first, rest = text[:cut].rstrip(), text[cut:].strip()
    if len(rest) > width:
        rest = rest[:width - 1].rstrip() + "…"
    return [first, rest]


# -- the command line ---------------------------------------------------------------------------


class _Reporter:
    """Progress on a stream: a line that updates in place on a terminal, else one line per
    tenth of an experiment."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.seen: list[str] = []
        self.start = time.perf_counter()
        self.tty = stream.isatty()
        self.last: tuple[str, int] = ("", -1)

    def __call__(self, experiment: Experiment, done: int, games: int) -> None:
        if experiment.id not in self.seen:
            self.seen.append(experiment.id)
        tenth = 10 * done // games
        elapsed = time.perf_counter() - self.start
        line = (f"{experiment.id} (experiment {len(self.seen)} of {self.total}): "
                f"{done}/{games} games, {elapsed:.0f} s")
        if self.tty:
            finished = done == games and len(self.seen) == self.total
            self.stream.write("\r" + line.ljust(72) + ("\n" if finished else ""))
        elif (experiment.id, tenth) != self.last:
            self.stream.write(line + "\n")
            self.last = (experiment.id, tenth)
        self.stream.flush()


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec tips``."""
    parser = subparsers.add_parser(
        "tips", help="put the sources' tips to the test with seeded games",
        description="Put the sources' tips to the test: seeded games between a player who "
                    "follows each tip and one who does not. Shows progress on standard "
                    "error and prints the table of results; --svg also draws the chart.")
    parser.add_argument("--games", metavar="N", type=positive_count, default=600,
                        help="games per tip, rounded up to whole deals (default 600)")
    parser.add_argument("--design", choices=[d.value for d in Design],
                        default=Design.LEAVE_ONE_OUT.value,
                        help="leave-one-out: all tips against all but one (default); "
                             "alone: only the tip against no tips")
    parser.add_argument("--tips", metavar="TIP,...", default=None,
                        help="comma-separated tips to test (default: all), e.g. TIP-1,TIP-5")
    parser.add_argument("--workers", metavar="W", type=positive_count, default=1,
                        help="processes to run experiments in (default 1)")
    parser.add_argument("--svg", metavar="FILE", default=None,
                        help="also write the chart to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec tips``."""
    tips = None if args.tips is None else [t.strip() for t in args.tips.split(",") if t.strip()]
    try:
        chosen = experiments(args.design, tips)
    except ValueError as error:
        raise CommandError(f"--tips: {error}") from None
    if args.svg is not None:
        folder = Path(args.svg).parent
        if Path(args.svg).is_dir() or not folder.is_dir():
            raise CommandError(f"--svg: cannot write the chart to {args.svg}: "
                               + ("it is a directory" if Path(args.svg).is_dir()
                                  else f"the folder {folder} does not exist"))
    reporter = None if args.quiet else _Reporter(sys.stderr, len(chosen))
    evidence = run_experiments(args.games, progress=reporter, design=args.design, tips=tips,
                               workers=args.workers)
    print(format_table(evidence))
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as out:
                out.write(plot(evidence))
        except OSError as error:
            raise CommandError(f"--svg: cannot write the chart to {args.svg}: "
                               f"{error.strerror or error}") from None
    return 0
