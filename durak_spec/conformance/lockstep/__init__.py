"""Differential play: random games in lockstep between an engine and the reference (layer 7).

:func:`play_lockstep` deals seeded decks and plays every game twice at once: in the
reference implementation (the pure functions of :mod:`durak_spec.engine`) and in the
engine under test (any :class:`~durak_spec.protocol.Engine`: in-process, or a command
through :class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine`). Every move is a seeded
random choice among the *reference's* legal actions (once the stock is empty, mostly
among those that play a card, and towards a draw once few cards are left, so that games
often reach the end the rules decide; in every other game, within a bout while the stock
lasts too, so that hands are emptied before the stock is:
:func:`~durak_spec.conformance.lockstep.planning.choose`), so a game's course depends only on
the seed (and, after a difference of legal actions, on which actions both sides list).
After the deal and after every action it compares:

* the verdict: the engine must accept the (legal) action;
* the public report: hands, table, stock, trump, face-up card, discard, attacker,
  defender, taking, finished, over, durak and, when the engine reports it, ``known``;
* every player's legal actions, as sets (the engine's order and repeats do not matter).

Now and then (a seeded fifth of the steps) it also *probes*: it picks an action the
reference rejects from a pool of near misses (cards a player does not hold, covers that
do not beat, throw-ins of ranks not on the table, transfers the rules forbid, a take or a
done out of turn ...) and asks the engine to play it. The engine must reject it and its
report must not change.

Every game is played whatever diverges (:func:`play_lockstep`). A divergence becomes a
:class:`Divergence`: a replayable :class:`Record` (the rules, the deck in dealing order,
the seed and the steps in action notation, see :meth:`Record.to_json`), the fields that
differ (the engine's value against the reference's), and the rule they touch. A game's
first divergence is shrunk by :func:`shrink` to the shortest prefix that still diverges
when replayed from the deal; one met later in the game, to a record that begins from the
reference's position loaded into the engine (:attr:`Record.start`) with the fewest steps
after it that still diverge the same way, or, for an engine that cannot load, to a
record from the deal whose replay goes on past the differences of legal actions before
its last step (``later_divergence``). Then the game goes on: where only the legal
actions differed, both sides are still in the same position and the next action is
one that both list; otherwise the reference's position is loaded into the engine where
it declares ``load``, and where it cannot or declines (``LoadDeclined``), that game ends
and the next begins. The run's divergences are grouped by cause (:func:`cause_of`: the
rule really concerned and the kind of difference), each with its count and one example.
A configuration is a claimed rule set at a supported player count
(:func:`configurations`).

Rule IDs come from the reference's own decisions, never from a diff of two states. Every
event of the reference's step carries the rule that decided it
(:mod:`durak_spec.model.events`); an engine that tells its events too (capability
``events``) is compared event by event, and the first event that differs is one
difference under the reference's rule there. An engine that does not is compared report
field by field, each field named by the reference's event that wrote it (the hands after
a drawing by the rule of the drawing order, the attacker by the rule that chose the next
one, ``over`` by the end of the game's). An action the engine lists or accepts but the
reference does not is explained by the reference's ``check`` (``TRANSFER-3``,
``BEAT-5``, ...); one the engine misses by the rule that allows it
(:func:`durak_spec.engine.grounds`); a bout settled on one side only by the reference's
settling rule (:func:`durak_spec.engine.settle_rule`); a difference in who may act that
the bout protocol explains is reported once, as turn order. Once the game is over, the
roles and ``taking`` are not compared (the rules decide none). A position given to the
engine (a load) is compared and audited as that position; a load the engine refuses
naming a rule is a difference about that rule. Divergences are grouped by rule, one cause
per rule however it shows, and only each cause's first example is shrunk. An
interrupted run (``KeyboardInterrupt``) returns what it found until then.

An engine that fails (:class:`~durak_spec.protocol.subprocess_engine.EngineFailure`: it crashed,
exited, hung, wrote malformed JSON ...) is a divergence of kind ``"engine failure"``; an
engine that raises or answers with an error response is one of kind ``"engine error"``.
A failure ends its game; an engine that is no longer running is restarted (through its
``restart()`` method, which :class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine`
has) for the next game, and the run stops only if that fails.

Everything is deterministic for a seed: the same seed plays the same games and finds the
same divergences. This package decides no rule: the reference's functions decide, the
engine answers, and the report quotes both. ``durak-spec check --random N`` runs it from
the command line.

The modules, one job each: :mod:`~durak_spec.conformance.lockstep.record` (the record
format), :mod:`~durak_spec.conformance.lockstep.differences` (what differs),
:mod:`~durak_spec.conformance.lockstep.attribution` (which rule it touches),
:mod:`~durak_spec.conformance.lockstep.compare` (reports and legal actions compared),
:mod:`~durak_spec.conformance.lockstep.driver` (one game in both engines),
:mod:`~durak_spec.conformance.lockstep.probes`,
:mod:`~durak_spec.conformance.lockstep.planning`,
:mod:`~durak_spec.conformance.lockstep.games` (one random game),
:mod:`~durak_spec.conformance.lockstep.spread` (the games played here, or ahead by local
processes or a Dask cluster and taken in seed order),
:mod:`~durak_spec.conformance.lockstep.shrinking` (replay and shrink),
:mod:`~durak_spec.conformance.lockstep.configurations`,
:mod:`~durak_spec.conformance.lockstep.results`, :mod:`~durak_spec.conformance.lockstep.run`
(the whole run), :mod:`~durak_spec.conformance.lockstep.report` (the text report) and
:mod:`~durak_spec.conformance.lockstep.text` (how values are written).
"""

from durak_spec.conformance.lockstep.configurations import Configuration, configurations
from durak_spec.conformance.lockstep.differences import (
    DIVERGENCE_KINDS,
    Difference,
    Divergence,
    DivergenceKind,
)
from durak_spec.conformance.lockstep.record import RECORD_FORMAT, Record, RecordError, Step
from durak_spec.conformance.lockstep.report import format_lockstep
from durak_spec.conformance.lockstep.results import (
    CAUSE_KINDS,
    Cause,
    CauseKind,
    ConfigResult,
    GameProgress,
    LockstepResult,
    cause_of,
)
from durak_spec.conformance.lockstep.run import play_lockstep
from durak_spec.conformance.lockstep.shrinking import replay, shrink

__all__ = [
    "CAUSE_KINDS",
    "DIVERGENCE_KINDS",
    "RECORD_FORMAT",
    "Cause",
    "CauseKind",
    "ConfigResult",
    "Configuration",
    "Difference",
    "Divergence",
    "DivergenceKind",
    "GameProgress",
    "LockstepResult",
    "Record",
    "RecordError",
    "Step",
    "cause_of",
    "configurations",
    "format_lockstep",
    "play_lockstep",
    "replay",
    "shrink",
]
