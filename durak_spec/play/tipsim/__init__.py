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

:func:`run_experiments` runs them all (``progress`` is called after every deal), in this
process, in ``jobs`` local processes or on a Dask cluster (``scheduler``): the deals are
cut into parts of consecutive seeds and merged in seed order, so the evidence is the same
either way; :func:`plot` draws the result as standalone SVG text; :func:`table_html` and
:func:`format_table` give the numbers. From the command line::

    durak-spec tips --games 4000 --svg tips.svg

plays on every core, shows a progress bar on a terminal and prints the table
(``docs/cluster.md``: a million games per tip on a cluster). Everything is deterministic
for the experiments' seeds; only the measured seconds vary.

The modules: :mod:`~durak_spec.play.tipsim.experiments` (the design, the experiments,
their results and running them), :mod:`~durak_spec.play.tipsim.tables` (text and HTML),
:mod:`~durak_spec.play.tipsim.chart` (the SVG chart) and
:mod:`~durak_spec.play.tipsim.text` (rates and points as text).
"""

from __future__ import annotations

from durak_spec.play.tipsim.chart import plot, plot_narrow
from durak_spec.play.tipsim.experiments import (
    EXPERIMENTS,
    MARGIN,
    UNTESTABLE,
    Design,
    Evidence,
    Experiment,
    ExperimentResult,
    HtmlText,
    Verdict,
    experiments,
    run_experiment,
    run_experiments,
    verdict,
)
from durak_spec.play.tipsim.tables import (
    design_html,
    evidence_anchor,
    format_table,
    summary_html,
    table_html,
    untestable_html,
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
    "design_html",
    "evidence_anchor",
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
