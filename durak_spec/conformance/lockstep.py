"""Differential play: random games in lockstep between an engine and the reference (layer 7).

:func:`play_lockstep` deals seeded decks and plays every game twice at once: in the
reference implementation (the pure functions of :mod:`durak_spec.engine`) and in the
engine under test (any :class:`~durak_spec.protocol.Engine`: in-process, or a command
through :class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine`). Every move is a seeded
random choice among the *reference's* legal actions, so a game's course depends only on
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
its last step (``_later_divergence``). Then the game goes on: where only the legal
actions differed, both sides are still in the same position and the next action is
one that both list; otherwise the reference's position is loaded into the engine where
it declares ``load``, and where it cannot or declines (``LoadDeclined``), that game ends
and the next begins. The run's divergences are grouped by cause (:func:`cause_of`: the
rule really concerned and the kind of difference), each with its count and one example.
A configuration is a claimed rule set at a supported player count
(:func:`configurations`).

Rule IDs come from the reference itself where it can give one: an action the engine
lists or accepts but the reference does not is explained by the reference's ``check``
(``TRANSFER-3``, ``BEAT-5``, ...). Otherwise the kind of the action or the field names the
rule: a legal cover the engine misses touches ``BEAT-1``..``BEAT-3``, hands that differ
after the drawing ``DRAW-*``, roles ``ORDER-*``, and so on; a difference in who may act
that the bout protocol explains is reported once, as turn order.

An engine that fails (:class:`~durak_spec.protocol.subprocess_engine.EngineFailure`: it crashed,
exited, hung, wrote malformed JSON ...) is a divergence of kind ``"engine failure"``; an
engine that raises or answers with an error response is one of kind ``"engine error"``.
A failure ends its game; an engine that is no longer running is restarted (through its
``restart()`` method, which :class:`~durak_spec.protocol.subprocess_engine.SubprocessEngine`
has) for the next game, and the run stops only if that fails.

Everything is deterministic for a seed: the same seed plays the same games and finds the
same divergences. This module decides no rule: the reference's functions decide, the
engine answers, and the report quotes both. ``durak-spec check --random N`` runs it from
the command line.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

from durak_spec.conformance.dependencies import covering_rule_sets
from durak_spec.core.cards import DECK, Card, CardError, format_cards, parse_card
from durak_spec.core.errors import BadAction, DurakError, InputError
from durak_spec.core.jsonio import (
    JsonError,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    fail,
    members,
    path_text,
    read_json,
)
from durak_spec.core.jsonio import (
    show as show_json,
)
from durak_spec.engine import apply, beating_rule, broken_rule, deal, legal_actions, new_game
from durak_spec.engine.limits import attack_limit
from durak_spec.engine.reachable import check_reachable
from durak_spec.engine.turns import could_add, turn_rule
from durak_spec.game.persist import SavedGameError, state_from_json, state_to_json
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
    parse_action,
)
from durak_spec.model.rules import (
    AXES,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PROFILES,
    RuleSet,
    RuleSetError,
    TurnOrder,
)
from durak_spec.model.state import GameState
from durak_spec.protocol import (
    Accepted,
    Capabilities,
    Engine,
    LoadDeclined,
    Rejected,
    Report,
    Verdict,
)
from durak_spec.protocol.audit import audit
from durak_spec.protocol.subprocess_engine import EngineFailure, Expected

__all__ = [
    "DIVERGENCE_KINDS",
    "RECORD_FORMAT",
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
    "configurations",
    "format_lockstep",
    "play_lockstep",
    "replay",
    "shrink",
]

RECORD_FORMAT = "durak-spec/lockstep-record"
RECORD_VERSION = 1
RESULT_FORMAT = "durak-spec/lockstep-report"
DEFAULT_MAX_ACTIONS = 2000
DEFAULT_PROBE_RATE = 0.2
MAX_RESYNCS = 20
"""Divergences after which a game is given up even where the engine can load."""
_LEGAL_SHOWN = 8  # legal-action differences listed per divergence

DivergenceKind = Literal["deal", "verdict", "report", "legal actions", "probe",
                         "engine failure", "engine error", "impossible report"]
DIVERGENCE_KINDS: tuple[DivergenceKind, ...] = ("deal", "verdict", "report", "legal actions",
                                                "probe", "engine failure", "engine error",
                                                "impossible report")
"""What diverged: the report after the deal, the verdict on a legal action, the report
after an action, the legal actions, an illegal action (probe) the engine accepted or that
changed its state, an engine that broke the protocol, an engine that raised or refused, a
report no game can reach (:mod:`durak_spec.protocol.audit`, checked before the reference
is compared)."""


# -- records: replayable games -------------------------------------------------------------------


class RecordError(InputError):
    """A lockstep record (JSON) that cannot be read; the message names the field."""

    code = "lockstep-record"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a record: an action to play, or an illegal action to try (a probe)."""

    action: Action
    probe: bool = False
    """A probe: the reference rejects the action; the engine must reject it and change
    nothing."""

    def to_json(self) -> str | dict[str, str]:
        return {"probe": str(self.action)} if self.probe else str(self.action)

    @classmethod
    def from_json(cls, value: object, where: str) -> Step:
        try:
            if isinstance(value, str):
                return cls(parse_action(value))
            if isinstance(value, dict) and set(value) == {"probe"} and \
                    isinstance(value["probe"], str):
                return cls(parse_action(value["probe"]), probe=True)
        except DurakError as error:
            raise RecordError(f"{where}: {error}") from None
        raise RecordError(f"{where}: a step is an action in notation (\"P0 open 7♣\") or "
                          f"{{\"probe\": \"P1 take\"}}, not {show_json(value)}")

    def __str__(self) -> str:
        return f"probe {self.action}" if self.probe else str(self.action)


@dataclass(frozen=True, slots=True)
class Record:
    """A game both engines can replay: the rules, the deck, the seed and the steps; or,
    with ``start``, a position of that game loaded into the engine and the steps after
    it."""

    rules: RuleSet
    deck: tuple[Card, ...]
    seed: int
    steps: tuple[Step, ...] = ()
    profile: str | None = None
    """The profile the rules come from (for the reader; replay uses ``rules``)."""
    start: GameState | None = None
    """Where the replay begins: ``None`` for the deal (``engine.start`` with the deck and
    the seed), else a position of the game (the reference's, ``engine.load``); the deck
    and the seed then say which game it comes from."""
    past_legal: bool = False
    """Whether the replay goes on past differences of legal actions before the last step,
    as lockstep does (both sides are still in the same position): for a divergence met
    later in a game, replayed from the deal in an engine that cannot load."""

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions played (probes left out)."""
        return tuple(step.action for step in self.steps if not step.probe)

    def prefix(self, length: int) -> Record:
        return replace(self, steps=self.steps[:length])

    def to_json(self) -> dict[str, object]:
        """The record as JSON: actions in the project's notation, cards as ``"7♣"``; a
        ``start`` position as a saved position (:func:`~durak_spec.game.persist.state_to_json`),
        left out for a record that begins at the deal."""
        out: dict[str, object] = {
            "format": RECORD_FORMAT, "version": RECORD_VERSION, "profile": self.profile,
            "rules": self.rules.to_dict(), "deck": [str(c) for c in self.deck],
            "seed": self.seed, "steps": [step.to_json() for step in self.steps]}
        if self.start is not None:
            out["start"] = state_to_json(self.start)
        if self.past_legal:
            out["past_legal"] = True
        return out

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read :meth:`to_json`'s document back, strictly; errors name the field."""
        try:
            return cls._read(data)
        except JsonError as error:
            raise RecordError(str(error), code=error.code) from None

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """A record from its JSON text (read by :func:`~durak_spec.core.jsonio.read_json`)."""
        try:
            return cls._read(read_json(text, what="a lockstep record"))
        except JsonError as error:
            raise RecordError(str(error), code=error.code) from None

    @classmethod
    def _read(cls, data: object) -> Record:
        document = expect_object(data, None, ("format", "version", "rules", "deck", "seed",
                                              "steps"), ("profile", "start", "past_legal"))
        if document["format"] != RECORD_FORMAT:
            fail("format", f"must be {RECORD_FORMAT!r}, not {show_json(document['format'])}: this "
                 "is not a lockstep record")
        if document["version"] != RECORD_VERSION:
            fail("version", f"must be {RECORD_VERSION}, not {show_json(document['version'])}")
        rules_data = document["rules"]
        if not isinstance(rules_data, dict):
            fail("rules", f"must be a JSON object of axes, not {show_json(rules_data)}")
        try:
            rules = RuleSet.from_dict(rules_data)
        except RuleSetError as error:
            fail("rules", str(error))
        deck = []
        for item, where in members(expect_list(document["deck"], "deck"), "deck"):
            try:
                deck.append(parse_card(expect_str(item, where)))
            except CardError as error:
                fail(where, str(error))
        seed = expect_int(document["seed"], "seed", -(2**63), 2**63)
        steps = tuple(Step.from_json(step, path_text(where)) for step, where
                      in members(expect_list(document["steps"], "steps"), "steps"))
        profile = document.get("profile")
        if profile is not None:
            expect_str(profile, "profile", empty=False)
        start = document.get("start")
        past_legal = expect_bool(document.get("past_legal", False), "past_legal")
        return cls(rules, tuple(deck), seed, steps, profile,
                   None if start is None else _start_position(start, rules), past_legal)


def _start_position(data: object, rules: RuleSet) -> GameState:
    """A record's ``start``: a saved position (read strictly, as every saved position is)
    of a game under the record's rules that play can reach."""
    try:
        state = state_from_json(data)
    except SavedGameError as error:  # (the strict check included: a rule says why)
        fail(f"start.{error.path}" if error.path else "start",
             error.reason + (f" ({error.rule})" if error.rule else ""), code=error.code)
    if state.rules != rules:
        differ = [a.name for a in AXES if getattr(state.rules, a.name) !=
                  getattr(rules, a.name)]
        fail("start.rules", f"must be the record's rules; they differ in {', '.join(differ)}")
    try:
        return check_reachable(state)
    except DurakError as error:  # a position well formed, but no game reaches it
        fail("start", error.message, code=error.code)


# -- what differs ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """One thing the engine and the reference disagree on, and the rule it touches."""

    field: str
    """What differs: ``verdict``, a report field (``hands[P1]``, ``attacker``, ...), a
    legal action (``legal action P1 transfer 8♥``) or ``engine``."""
    engine: str
    reference: str
    rule: str | None

    def to_json(self) -> dict[str, object]:
        return {"field": self.field, "engine": self.engine, "reference": self.reference,
                "rule": self.rule}

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.field} — engine: {self.engine}; reference: {self.reference}{rule}"


@dataclass(frozen=True, slots=True)
class _Found:
    """A divergence as one replay met it: at which step (-1: the deal), what and why."""

    kind: DivergenceKind
    differences: tuple[Difference, ...]
    step: int = -1
    failure: EngineFailure | None = None
    loaded: bool = False
    """Met at the load of the reference's position after the step (a resync), not at the
    step itself."""

    @property
    def rule(self) -> str | None:
        return next((d.rule for d in self.differences if d.rule), None)


@dataclass(frozen=True, slots=True)
class Divergence:
    """A divergence: a shrunk replayable record and what differs.

    ``record`` ends with the step after which the engine and the reference disagreed (no
    steps: they disagreed on the deal, or on the position the record begins from).
    ``rule`` is the rule the first difference touches.
    """

    kind: DivergenceKind
    record: Record
    differences: tuple[Difference, ...]
    rule: str | None
    label: str = ""
    """The configuration, e.g. ``classic-transfer, 3 players``."""
    game: int = 0
    """The game of the configuration (0-based) in which it was found."""
    found_after: int = 0
    """Steps played (probes included) when it was found, before shrinking."""
    shrunk: bool = True
    reproducible: bool = True
    """Whether replaying the record from the start shows it again."""
    note: str = ""

    @property
    def length(self) -> int:
        return len(self.record.steps)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "rule": self.rule, "configuration": self.label,
                "game": self.game, "found_after": self.found_after, "shrunk": self.shrunk,
                "reproducible": self.reproducible, "note": self.note,
                "differences": [d.to_json() for d in self.differences],
                "record": self.record.to_json()}

    def describe(self, indent: str = "  ") -> str:
        """Several lines: the configuration, what differs, the replay and the record."""
        head = f"{self.label}, game {self.game + 1}" if self.label else "divergence"
        rule = " ".join(filter(None, (self.rule, _title(self.rule))))
        lines = [f"{head}: {self.kind}" + (f" ({rule})" if rule else "")]
        start = self.record.start
        where = (f"after step {len(self.record.steps)}: {self.record.steps[-1]}"
                 if self.record.steps else "at the deal" if start is None else
                 "at the load of the position")
        lines.append(f"{indent}diverges {where}")
        for difference in self.differences:
            lines.append(f"{indent}  {difference}")
        shrink_note = (f"shrunk from {self.found_after} steps" if self.shrunk and
                       self.found_after != self.length else
                       "already the shortest prefix" if self.shrunk else "not shrunk")
        lines.append(f"{indent}replay: {_count(len(self.record.steps), 'step')} ({shrink_note}"
                     + ("" if self.reproducible else "; NOT reproduced by a replay") + ")"
                     + (f"; {self.note}" if self.note else ""))
        if start is not None:
            lines.append(f"{indent}  load the reference's position of bout {start.bout + 1}: "
                         f"{_position_text(start)}")
        if self.record.past_legal:
            lines.append(f"{indent}  (the replay goes on past the differences of legal "
                         "actions before the last step)")
        for first in range(0, len(self.record.steps), 6):
            lines.append(f"{indent}  " + "; ".join(str(s) for s in
                                                   self.record.steps[first:first + 6]))
        lines.append(f"{indent}record: " + json.dumps(self.record.to_json(),
                                                      ensure_ascii=False))
        return "\n".join(lines)


def _position_text(state: GameState) -> str:
    """A position in one line: the hands, the table, the stock and the roles."""
    hands = "; ".join(f"P{seat} {_cards_text(hand)}" for seat, hand in enumerate(state.hands))
    table = _table_text([(p.attack, p.cover) for p in state.table])
    return (f"{hands}; table {table}; stock {len(state.stock)}, trump {state.trump.symbol}; "
            f"P{state.attacker} attacks P{state.defender}")


def _title(rule: str | None) -> str:
    if rule is None:
        return ""
    try:
        from durak_spec.core.ruleindex import load_rule_index

        index = load_rule_index()
    except (OSError, ValueError):  # pragma: no cover - the index ships with the package
        return ""
    return index[rule].title if rule in index else ""


# -- which rule a difference touches -----------------------------------------------------------


def _action_rule(state: GameState, action: Action) -> str:
    """The rule that makes a legal ``action`` legal: what an engine that misses or rejects
    it gets wrong."""
    if isinstance(action, Open):
        return "ATTACK-2" if len(action.played) > 1 else "ATTACK-1"
    if isinstance(action, ThrowIn):
        return "ATTACK-3" if action.player == state.attacker else "ATTACK-4"
    if isinstance(action, Cover):
        return beating_rule(action.card, action.attack, state.trump)
    if isinstance(action, Transfer):
        return "TRANSFER-7" if action.show else "TRANSFER-1"
    if isinstance(action, Take):
        return "TAKE-1"
    if isinstance(action, Done):
        return "ATTACK-5"
    if isinstance(action, ExchangeTrump):
        return "VAR-1"
    return "CLAR-3"  # pragma: no cover - every action kind is named above


class _Why(NamedTuple):
    """Why the reference refuses an action: the rule it breaks (``None`` when it is not an
    action of this game at all, such as a seat the game does not have) and the reason."""

    rule: str | None
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


def _why_illegal(state: GameState, action: Action) -> _Why | None:
    try:
        found = broken_rule(state, action)
    except BadAction as error:
        return _Why(None, error.message)
    return None if found is None else _Why(found.rule, found.reason)


def _report_rule(name: str, before: GameState | None, action: Action | None,
                 after: GameState, engine: Report) -> str:
    """The rule a report field that differs touches, from what the last action did."""
    players = after.rules.players
    if name == "trump":
        return "DEAL-8" if players == MAX_PLAYERS else "DEAL-5"
    if before is None or action is None:  # the deal
        if name == "hands":
            return "DEAL-4" if any(len(h) != HAND_SIZE for h in engine.hands) else "CLAR-10"
        if name in ("stock", "face_up"):
            return "DEAL-8" if players == MAX_PLAYERS else "DEAL-6"
        if name == "attacker":
            return "ORDER-1" if any(c.suit == after.trump for h in after.hands for c in h) \
                else "ORDER-2"
        return {"defender": "ORDER-3", "known": "VIEW-2"}.get(name, "CLAR-10")
    if isinstance(action, ExchangeTrump):
        return "VIEW-2" if name == "known" else "CLAR-5"
    if name == "known":
        return "TRANSFER-7" if isinstance(action, Transfer) and action.show else "VIEW-2"
    ended = after.bout > before.bout
    taken = before.taking or isinstance(action, Take)
    if name in ("finished", "over", "durak"):
        if not ended:
            return "END-6"
        if name == "finished":
            return "END-1"
        outcome = after.outcome
        return "END-4" if outcome is not None and outcome.durak is None else "END-3"
    if not ended:
        if name == "table":
            return "ATTACK-5" if not engine.table else _action_rule(before, action)
        if name == "hands":
            return "CLAR-1"
        if name in ("attacker", "defender"):
            return "TRANSFER-1" if isinstance(action, Transfer) else "ORDER-3"
        if name == "taking":
            return "TAKE-1" if isinstance(action, Take) else "CLAR-4"
        if name == "discard":
            return "DEFEND-1"
        return "DRAW-1"  # stock, face_up: nothing is drawn before the bout ends
    if name == "table":
        return "ATTACK-5"
    if name == "discard":
        return "TAKE-2" if taken else "DEFEND-1"
    if name == "hands":
        if before.stock:
            same = sorted(c for h in engine.hands for c in h) == \
                sorted(c for h in after.hands for c in h)
            return "DRAW-2" if same else "DRAW-1"
        return "TAKE-2" if taken else "DEFEND-1"
    if name == "stock":
        return "DRAW-1"
    if name == "face_up":
        return "DRAW-5"
    someone_out = len(after.finished) > len(before.finished)
    if name == "attacker":
        return "ORDER-5" if taken else "ORDER-6" if someone_out else "ORDER-4"
    if name == "defender":
        return "ORDER-6" if someone_out else "ORDER-3"
    return "TAKE-2"  # taking


# -- comparing reports -------------------------------------------------------------------------


def _seat(value: int | None) -> str:
    return "none" if value is None else f"P{value}"


def _table_text(table: Sequence[tuple[Card, Card | None]]) -> str:
    return " ".join(str(a) if c is None else f"{a}/{c}" for a, c in table) or "(empty)"


def _finished_text(finished: Sequence[Sequence[int]]) -> str:
    return ", ".join("=".join(f"P{p}" for p in group) for group in finished) or "(nobody)"


def _cards_text(cards: Iterable[Card]) -> str:
    return format_cards(cards) or "(none)"


_FIELDS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("table", _table_text),
    ("stock", str),
    ("trump", str),
    ("face_up", lambda c: "none" if c is None else str(c)),
    ("discard", str),
    ("attacker", _seat),
    ("defender", _seat),
    ("taking", lambda b: "true" if b else "false"),
    ("finished", _finished_text),
    ("over", lambda b: "true" if b else "false"),
    ("durak", _seat),
)


def _norm_groups(value: Sequence[Sequence[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(group) for group in value)


def _compare_reports(engine: Report, reference: Report, before: GameState | None,
                     action: Action | None, after: GameState) -> list[Difference]:
    """The fields of the public report that differ (``known`` only if the engine tells it)."""
    if engine is reference:  # the reference's own report: an answer as expected
        return []
    if not engine.known and reference.known:  # ``known`` is optional in a report
        reference = replace(reference, known=())
    if engine == reference:
        return []
    settled = _bout_end(engine, reference, before, action, after)
    if settled is not None:  # the other fields differ because of it
        return [settled]
    out: list[Difference] = []

    def differ(name: str, label: str, mine: str, theirs: str) -> None:
        out.append(Difference(label, mine, theirs,
                              _report_rule(name, before, action, after, engine)))

    mine_hands = tuple(tuple(sorted(h)) for h in engine.hands)
    if len(mine_hands) != len(reference.hands):
        differ("hands", "hands", f"has {len(mine_hands)} hands",
               f"has {len(reference.hands)} hands")
    else:
        for seat, (mine, theirs) in enumerate(zip(mine_hands, reference.hands, strict=True)):
            if mine != theirs:
                differ("hands", f"hands[P{seat}]", _cards_text(mine), _cards_text(theirs))
    for name, show in _FIELDS:
        mine_value: Any = getattr(engine, name)
        theirs_value: Any = getattr(reference, name)
        if name in ("table", "finished"):
            mine_value, theirs_value = _norm_groups(mine_value), _norm_groups(theirs_value)
        if mine_value != theirs_value:
            differ(name, name, show(mine_value), show(theirs_value))
    if engine.known:
        mine_known = tuple(tuple(sorted(k)) for k in engine.known)
        if len(mine_known) != len(reference.known):
            differ("known", "known", f"has {len(mine_known)} entries",
                   f"has {len(reference.known)} entries")
        else:
            for seat, (mine, theirs) in enumerate(zip(mine_known, reference.known,
                                                      strict=True)):
                if mine != theirs:
                    differ("known", f"known[P{seat}]", _cards_text(mine), _cards_text(theirs))
    return out


def _bout_end(engine: Report, reference: Report, before: GameState | None,
              action: Action | None, after: GameState) -> Difference | None:
    """Where one side settles the bout in play after ``action`` and the other does not:
    that one difference, charged to the rule that settles it or lets it go on (the hands,
    stock and roles that differ follow from it)."""
    if before is None or action is None or not before.table or engine.over or reference.over:
        return None
    if not engine.table and after.table and after.bout == before.bout:
        # the engine settled the bout; the rules let it go on
        if not could_add(after):
            rule = "ATTACK-5"  # nobody may add, but the attackers have not said done
        else:
            limit, rule = attack_limit(after)
            if len(after.table) == 5 and after.rules.first_bout_limit_five and limit > 5:
                rule = "LIMIT-3"  # five attack cards are the limit of the first bout only
        return Difference("bout", f"settled after {action}",
                          f"goes on: {_table_text([(p.attack, p.cover) for p in after.table])}"
                          f" on the table, {len(after.table)} attack cards", rule)
    if engine.table and not reference.table and after.bout > before.bout:
        # the rules settle the bout; the engine goes on with it
        limit, rule = attack_limit(before)
        table = len(engine.table)
        return Difference("bout", f"goes on: {_table_text(engine.table)} on the table",
                          f"settled after {action}",
                          rule if table >= limit else "ATTACK-5")
    return None


def _compare_legal(engine: Sequence[Action], reference: Sequence[Action],
                   state: GameState) -> list[Difference]:
    """Actions one side lists and the other does not (sets: order and repeats ignored)."""
    if engine == reference:  # the same list in the same order
        return []
    mine, theirs = set(engine), set(reference)
    if mine == theirs:
        return []
    out: list[Difference] = []
    seats, asked = {a.player for a in mine}, {a.player for a in theirs}
    if seats != asked and _turn_difference(mine, seats, asked, state):
        # who may act differs: one difference, of turn order
        order = state.rules.turn_order
        out.append(Difference("who may act now", _seats_text(seats), _seats_text(asked)
                              + f" (turn_order={order.value})",
                              turn_rule(state) or "CLAR-3"))
        mine = {a for a in mine if a.player in asked}
        theirs = {a for a in theirs if a.player in seats}
    for action in sorted(mine - theirs, key=_sort_key):
        why = _why_illegal(state, action)
        text = f"illegal: {why.reason}" if why is not None else "not listed"
        out.append(Difference(f"legal action {action}", "lists it", text,
                              why.rule if why is not None else _action_rule(state, action)))
    for action in sorted(theirs - mine, key=_sort_key):
        out.append(Difference(f"legal action {action}", "does not list it", "legal",
                              _action_rule(state, action)))
    if len(out) > _LEGAL_SHOWN:
        more = len(out) - _LEGAL_SHOWN
        out = [*out[:_LEGAL_SHOWN],
               Difference(f"{more} more legal actions", "differ", "(not shown)", None)]
    return out


_TURN_RULES = frozenset({"CLAR-3", "CLAR-16", "CLAR-17", "CLAR-18"})


def _turn_difference(mine: Iterable[Action], seats: set[int], asked: set[int],
                     state: GameState) -> bool:
    """Whether a difference in who may act is one of turn order: the engine lets somebody
    act (an engine that lists nobody misses actions, such as a take), the defender the
    reference asks is asked (every protocol lets a defender with a card to answer act),
    and the reference refuses every action of a seat it does not ask by a rule of the bout
    protocol, not by another rule (an attacker-only throw-in, ATTACK-4, is no turn order)."""
    if not seats or (state.defender in asked and state.defender not in seats):
        return False
    for action in mine:
        if action.player not in asked:
            why = _why_illegal(state, action)
            if why is None or why.rule not in _TURN_RULES:
                return False
    return True


def _seats_text(seats: Iterable[int]) -> str:
    listed = ", ".join(f"P{seat}" for seat in sorted(seats))
    return listed or "nobody"


def _sort_key(action: object) -> tuple[Any, ...]:
    if isinstance(action, Action):
        return (0, *action.sort_key())
    return (1, repr(action))  # pragma: no cover - engines return actions


# -- one game in both engines ----------------------------------------------------------------


class _Broke(Exception):
    """The engine raised, refused a request, or failed; the game cannot go on."""

    def __init__(self, found: _Found) -> None:
        super().__init__(found.kind)
        self.found = found


class _Game:
    """One game played in the engine and in the reference side by side."""

    def __init__(self, engine: Engine, rules: RuleSet, deck: Sequence[Card], seed: int,
                 origin: GameState | None = None) -> None:
        self.engine = engine
        self.rules = rules
        self.deck = tuple(deck)
        self.seed = seed
        self.origin = origin
        """A position to begin from (loaded into the engine), instead of the deal."""
        self.state = new_game(rules, deck=self.deck, seed=seed) if origin is None else origin
        self.legal = legal_actions(self.state)
        self.last: Action | None = None
        self.probing = False
        self.context_rule: str | None = None
        self._shown_state: GameState | None = None
        self._shown_report: Report | None = None
        self.declined = ""
        """The reason the engine gave when it declined to load the position (LoadDeclined)."""
        self.common: tuple[Action, ...] | None = None
        """Where the legal actions differed in the position now: the reference's that the
        engine lists too (the game goes on with one of them), and those it lists alone."""
        self.extra: frozenset[Action] = frozenset()

    @property
    def context(self) -> str:
        if self.last is None:
            return "the deal"
        return f"probing {self.last}" if self.probing else f"after {self.last}"

    def _call(self, what: str, call: Callable[[], Any]) -> Any:
        # A broken engine touches no rule in particular: the rule of the action in play
        # is only named in the text, so that failures group apart from rule divergences.
        try:
            return call()
        except EngineFailure as error:
            raise _Broke(_Found("engine failure", (Difference(
                "engine", f"failed at {what} ({self._where()}): {error}",
                "an answer in protocol", None),), failure=error)) from None
        except (KeyboardInterrupt, SystemExit, MemoryError, LoadDeclined):
            raise
        except Exception as error:  # an engine's exception or error response is reported
            raise _Broke(_Found("engine error", (Difference(
                "engine", f"raised at {what} ({self._where()}): {type(error).__name__}: "
                f"{error}", "an answer", None),))) from None

    def _where(self) -> str:
        return self.context + (f", {self.context_rule}" if self.context_rule else "")

    def _report(self, what: str = "state", call: Callable[[], Any] | None = None) -> Report:
        report = self._call(what, self.engine.report if call is None else call)
        if not isinstance(report, Report):
            raise _Broke(_Found("engine error", (Difference(
                "engine", f"answered {what} with {type(report).__name__}, not a Report",
                "a Report", None),)))
        return report

    def _audit(self, report: Report, before: Report | None = None,
               verdict: Verdict | None = None, action: Action | None = None) -> _Found | None:
        """The engine's report audited on its own (``before``: the position it came from,
        as both agreed on it)."""
        problems = audit(report, self.rules.players, before, verdict, action, self.rules.goal)
        if not problems:
            return None
        return _Found("impossible report", tuple(
            Difference("report", p.text, "a position some game can reach", p.rule)
            for p in problems))

    def _legal(self) -> list[Difference]:
        mine = tuple(self._call("legal", self.engine.legal_actions))
        if mine is self.legal:  # the reference's own list (an answer as expected)
            self.common, self.extra = None, frozenset()
            return []
        odd = next((a for a in mine if not isinstance(a, Action)), None)
        if odd is not None:
            raise _Broke(_Found("engine error", (Difference(
                "engine", f"listed {odd!r} among the legal actions, which is not an Action",
                "actions", None),)))
        differences = _compare_legal(mine, self.legal, self.state)
        listed = frozenset(mine) if differences else frozenset()
        self.common = tuple(a for a in self.legal if a in listed) if differences else None
        self.extra = listed.difference(self.legal) if differences else frozenset()
        return differences

    def begin(self) -> _Found | None:
        """Begin the game in the engine: the deal, or the position it begins from (an
        engine that declines it raises :class:`~durak_spec.protocol.LoadDeclined`)."""
        if self.origin is None:
            return self.start()
        position = self.origin
        report = self._report("load", lambda: self.engine.load(position))
        impossible = self._audit(report)
        if impossible is not None:
            return impossible
        differences = _compare_reports(report, self.shown(position), None, None, position)
        if differences:
            return _Found("report", tuple(differences))
        differences = self._legal()
        return _Found("legal actions", tuple(differences)) if differences else None

    def start(self) -> _Found | None:
        report = self._report("start", lambda: self.engine.start(self.rules, self.deck,
                                                                self.seed))
        impossible = self._audit(report)
        if impossible is not None:
            return impossible
        differences = _compare_reports(report, Report.of(self.state), None, None, self.state)
        if differences:
            return _Found("deal", tuple(differences))
        differences = self._legal()
        return _Found("legal actions", tuple(differences)) if differences else None

    def shown(self, state: GameState) -> Report:
        """The reference's report of ``state``, made once per position played."""
        if self._shown_state is not state or self._shown_report is None:
            self._shown_state, self._shown_report = state, Report.of(state)
        return self._shown_report

    def play(self, action: Action, after: _After | None = None) -> _Found | None:
        """Play ``action`` in both; ``after`` is the reference's position and legal actions
        after it, if already known (:func:`_plan`)."""
        before = self.state
        self.common, self.extra = None, frozenset()
        self.last, self.probing = action, False
        self.context_rule = _action_rule(before, action)
        verdict = self._call("apply", lambda: self.engine.apply(action))
        if after is None:
            state = apply(before, action)
            after = (state, legal_actions(state), Report.of(state))
        if not isinstance(verdict, Accepted):
            shown = (f"rejects it: {verdict.reason}" + (f" ({verdict.rule})" if verdict.rule
                                                         else "")
                     if isinstance(verdict, Rejected) else f"answers {verdict!r}")
            self.state, self.legal, _ = after  # the reference goes on, for a resync
            return _Found("verdict", (Difference(f"verdict on {action}", shown, "legal",
                                                 self.context_rule),))
        before_shown = self.shown(before)
        self.state, self.legal, self._shown_report = after
        self._shown_state = self.state
        report = self._report()
        impossible = self._audit(report, before_shown, verdict, action)
        differences = _compare_reports(report, self._shown_report, before, action,
                                       self.state)
        if impossible is not None:  # what is impossible first, then what differs
            return replace(impossible, differences=impossible.differences + tuple(differences))
        if differences:
            return _Found("report", tuple(differences))
        differences = self._legal()
        return _Found("legal actions", tuple(differences)) if differences else None

    def resync(self) -> _Found | None:
        """Load the reference's position into the engine (after a divergence), and compare
        again: the game goes on from the same position on both sides."""
        self.last, self.probing, self.context_rule = None, False, None
        try:
            report = self._report("load", lambda: self.engine.load(self.state))
        except LoadDeclined as declined:  # the standard decline: this game ends here
            self.declined = str(declined) or "declined"
            return None
        differences = _compare_reports(report, Report.of(self.state), None, None, self.state)
        if differences:
            return _Found("report", tuple(differences))
        differences = self._legal()
        return _Found("legal actions", tuple(differences)) if differences else None

    def probe(self, action: Action) -> _Found | None:
        why = _why_illegal(self.state, action)
        if why is None:  # not illegal here (a record replayed against changed rules)
            return None
        self.last, self.probing = action, True
        self.context_rule = why.rule
        verdict = self._call("apply", lambda: self.engine.apply(action))
        if not isinstance(verdict, Rejected):
            return _Found("probe", (Difference(f"verdict on {action}",
                                               "accepts it" if isinstance(verdict, Accepted)
                                               else f"answers {verdict!r}",
                                               f"illegal: {why.reason}", why.rule),))
        report = self._report()
        differences = _compare_reports(report, self.shown(self.state), None, None, self.state)
        if differences:
            changed = tuple(Difference(d.field, f"{d.engine} after rejecting {action}",
                                       d.reference, why.rule) for d in differences)
            return _Found("probe", changed)
        return None


_PROBE_TRIES = 8


def _near_miss(state: GameState, rng: random.Random) -> Action:
    """A seeded action of a player still in that is often, but not always, illegal now: a
    card played out of turn or of the wrong rank, a cover that does not beat, a card the
    player does not hold, a transfer the rules forbid, a take or a done out of turn."""
    rules = state.rules
    seat = rng.choice(state.in_game())
    hand = state.hands[seat]
    kind = rng.randrange(8)
    if kind == 0:
        return Take(seat)
    if kind == 1:
        return Done(seat)
    if kind == 2 and rules.trump_exchange:
        return ExchangeTrump(seat)
    if kind in (3, 4) and state.table:
        attack = rng.choice(state.table).attack
        card = rng.choice(hand) if hand and kind == 3 else rng.choice(DECK)
        return Cover(seat, attack, card)
    card = rng.choice(hand) if hand and kind != 5 else rng.choice(DECK)
    if kind == 6 and rules.transfer:
        return Transfer(seat, card, show=rules.transfer_by_showing_trump and rng.random() < 0.3)
    if kind == 7 or not state.table:
        return Open(seat, (card,))
    return ThrowIn(seat, card)


def _pick_probe(state: GameState, legal: Sequence[Action], rng: random.Random
                ) -> Action | None:
    """A seeded near miss that the reference rejects (``None`` if every try was legal)."""
    for _ in range(_PROBE_TRIES):
        action = _near_miss(state, rng)
        if action not in legal:
            return action
    return None


_After = tuple[GameState, tuple[Action, ...], Report]
"""The reference after an action: its position, legal actions and report."""


class _Planned(NamedTuple):
    step: Step
    after: _After | None
    """For an action, the reference's position and legal actions after it."""
    asked: bool = True
    """For a probe, whether the engine is asked it (``_Game.probe``: only if illegal)."""
    shown: Report | None = None
    """The reference's report of the position after the step (for a probe: before it)."""


def _plan(game: _Game, rng: random.Random, *, max_actions: int, probe_rate: float
          ) -> tuple[list[_Planned], bool]:
    """The steps of one random game, chosen on the reference alone (the engine's answers
    never change its course); and whether the game is cut at ``max_actions``."""
    state, legal = game.state, game.legal
    shown = game.shown(state)
    plan: list[_Planned] = []
    played = 0
    while legal:
        if played >= max_actions:
            return plan, True
        if probe_rate > 0 and rng.random() < probe_rate:
            probe = _pick_probe(state, legal, rng)
            if probe is not None:
                plan.append(_Planned(Step(probe, probe=True), None,
                                     _why_illegal(state, probe) is not None, shown))
        action = rng.choice(legal)
        played += 1
        state = apply(state, action)
        legal = legal_actions(state)
        shown = Report.of(state)
        plan.append(_Planned(Step(action), (state, legal, shown), shown=shown))
    return plan, False


def _expected(plan: Sequence[_Planned]) -> list[Expected]:
    """The engine's calls that play ``plan`` if the engine agrees all along: a probe is
    rejected, then its report asked; an action is accepted, its report and legal actions
    asked."""
    calls: list[Expected] = []
    for step, after, asked, shown in plan:
        if after is not None:
            legal = after[1]
            calls += (Expected("apply", step.action, report=shown, actions=legal),
                      Expected("report", report=shown), Expected("legal", actions=legal))
        elif asked:
            calls += (Expected("apply", step.action, accepted=False),
                      Expected("report", report=shown))
    return calls


def _play_game(engine: Engine, record: Record, rng: random.Random, *, max_actions: int,
               probe_rate: float, resync: bool = False
               ) -> tuple[Record, list[_Found], bool, str]:
    """Play one random game; return its record so far, the divergences met, whether
    the game was cut at ``max_actions``, and the engine's reason if it declined a load.
    With ``resync``, a divergence is followed by loading the reference's position into
    the engine, and the game goes on (at most :data:`MAX_RESYNCS` times); else, or where
    the engine declines that load (:class:`~durak_spec.protocol.LoadDeclined`), the game
    ends at the divergence. A difference of legal actions alone needs no load: the reports
    agreed, so both sides are in the same position and the game goes on (a cause met
    again in the same game is not counted again). An engine that breaks (fails or raises)
    ends the game.

    The steps are chosen on the reference alone (:func:`_plan`) as long as nothing but a
    load follows a divergence, so that an engine that can write requests ahead
    (``SubprocessEngine.expect``) works while this side checks. After a difference of
    legal actions the course depends on the engine's answers (the game goes on with an
    action both sides list): from there the game is played one step at a time, the same
    seeded draws as ever, once the engine is brought back to where it was (its game
    begun again by the same start or load and its steps since played again, since it has
    been sent the requests of steps that will not be played)."""
    game = _Game(engine, record.rules, record.deck, record.seed)
    steps: list[Step] = []
    founds: list[_Found] = []
    listed: set[tuple[Any, ...]] = set()  # the causes of legal-action differences met
    loaded: list[tuple[GameState, int]] = []  # the last load: the position, the steps before

    def done(cut: bool = False) -> tuple[Record, list[_Found], bool, str]:
        return Record(record.rules, record.deck, record.seed, tuple(steps),
                      record.profile), founds, cut, game.declined

    def met(found: _Found, step: int) -> bool:
        """Record a divergence; whether the game goes on (resynchronised)."""
        if found.kind == "legal actions":  # the same position on both sides: go on
            if _cause_key(found) not in listed:
                listed.add(_cause_key(found))
                founds.append(_Found(found.kind, found.differences, step, found.failure))
            return True
        founds.append(_Found(found.kind, found.differences, step, found.failure))
        if not resync or len(founds) > MAX_RESYNCS:
            return False
        again = game.resync()
        if game.declined:
            return False
        if again is not None:
            founds.append(_Found(again.kind, again.differences, step, again.failure,
                                 loaded=True))
            return False
        loaded[:] = [(game.state, len(steps))]
        return True

    # The game's course is the reference's alone until a difference of legal actions:
    # planned first, so that an engine that can write requests ahead works meanwhile.
    draws = rng.getstate()
    first = (game.state, game.legal)
    plan, cut = _plan(game, rng, max_actions=max_actions, probe_rate=probe_rate)
    expect = getattr(engine, "expect", None)
    try:
        found = game.start()
        if found is not None and not met(found, -1):
            return done()
        played = position = 0
        if game.common is None:
            if expect is not None:
                expect(_expected(plan))
            while position < len(plan):
                step, after, _, _ = plan[position]
                position += 1
                steps.append(step)
                played += not step.probe
                found = game.probe(step.action) if step.probe else game.play(step.action,
                                                                               after)
                if found is not None:
                    if not met(found, len(steps) - 1):
                        return done()
                    if game.common is not None:  # the course now depends on the engine
                        break
                    if expect is not None:  # resynchronised: the rest of the plan
                        expect(_expected(plan[position:]))
            else:
                return done(cut=cut)
            if expect is not None:
                _restore(game, plan[:position], loaded[0] if loaded else None)
        _redraw(rng, draws, first, plan[:position], probe_rate)
        while game.legal:
            if played >= max_actions:
                return done(cut=True)
            if probe_rate > 0 and rng.random() < probe_rate:
                probe = _pick_probe(game.state, game.legal, rng)
                if probe is not None and probe not in game.extra:  # not a known difference
                    steps.append(Step(probe, probe=True))
                    found = game.probe(probe)
                    if found is not None and not met(found, len(steps) - 1):
                        return done()
            # after a difference of legal actions, an action both sides allow (else the
            # game cannot go on)
            choices = game.legal if game.common is None else game.common
            if not choices:
                return done()
            action = rng.choice(choices)
            steps.append(Step(action))
            played += 1
            found = game.play(action)
            if found is not None and not met(found, len(steps) - 1):
                return done()
    except _Broke as broke:
        found = broke.found
        founds.append(_Found(found.kind, found.differences, len(steps) - 1, found.failure))
    return done()


def _redraw(rng: random.Random, draws: Any, first: tuple[GameState, tuple[Action, ...]],
            played: Sequence[_Planned], probe_rate: float) -> None:
    """Set ``rng`` to where one-step-at-a-time play would have it after the ``played``
    steps of a plan: from its state ``draws`` before the plan, the same draws again (the
    positions are the plan's, so no rule is asked again)."""
    rng.setstate(draws)
    state, legal = first
    for _, after, _, _ in played:
        if after is None:  # a probe: drawn with the action that follows it
            continue
        if probe_rate > 0 and rng.random() < probe_rate:
            _pick_probe(state, legal, rng)
        rng.choice(legal)
        state, legal = after[0], after[1]


def _restore(game: _Game, played: Sequence[_Planned], loaded: tuple[GameState, int] | None
             ) -> None:
    """Bring the engine back to its position after the ``played`` steps of a plan, undoing
    the requests it was sent ahead: its game begun again as it was (the start, or the last
    load) and the steps it was asked since asked again, their answers already compared."""
    engine = game.engine
    if loaded is None:
        game._call("start", lambda: engine.start(game.rules, game.deck, game.seed))
        since = played
    else:
        state, before = loaded
        game._call("load", lambda: engine.load(state))
        since = played[before:]
    for step, _, asked, _ in since:
        if asked:
            action = step.action
            game._call("apply", lambda: engine.apply(action))  # noqa: B023 - called at once


def _replay(engine: Engine, record: Record) -> _Found | None:
    """Replay ``record`` from the start (the deal, or its ``start`` position loaded),
    comparing after every step (going on past differences of legal actions before the
    last step where the record says so, ``past_legal``). An engine that declines to load
    the position raises :class:`~durak_spec.protocol.LoadDeclined`."""
    try:
        game = _Game(engine, record.rules, record.deck, record.seed, record.start)
    except DurakError as error:
        raise RecordError(f"the record cannot be replayed: {error}") from None
    index = -1
    last = len(record.steps) - 1

    def goes_on(found: _Found) -> bool:
        return record.past_legal and found.kind == "legal actions" and index < last

    try:
        found = game.begin()
        if found is not None and not goes_on(found):
            return found
        for index, step in enumerate(record.steps):
            if step.probe:
                found = game.probe(step.action)
            else:
                if step.action not in game.legal:
                    why = _why_illegal(game.state, step.action)
                    raise RecordError(f"step {index + 1}, {step.action}, is not legal in the "
                                      f"reference" + (f": {why}" if why else ""))
                found = game.play(step.action)
            if found is not None and not goes_on(found):
                return _Found(found.kind, found.differences, index, found.failure)
    except _Broke as broke:
        found = broke.found
        return _Found(found.kind, found.differences, index, found.failure)
    return None


def _recover(engine: Engine) -> bool:
    """Restart an engine after a failure, if it can be; whether it runs again."""
    restart = getattr(engine, "restart", None)
    if not callable(restart):
        return False
    try:
        restart()
    except EngineFailure:
        return False
    return True


def _same(first: _Found, second: _Found) -> bool:
    return first.kind == second.kind and first.rule == second.rule


def replay(engine: Engine, record: Record) -> Divergence | None:
    """Replay ``record`` from the start in ``engine`` and the reference; the divergence met
    (its record cut after the diverging step), or ``None`` if they agree throughout.

    Raises :class:`RecordError` if the record is not a game of the reference (an action
    that is not legal there).
    """
    found = _replay(engine, record)
    if found is None:
        return None
    if found.failure is not None:
        _recover(engine)
    return Divergence(found.kind, record.prefix(found.step + 1), found.differences,
                      found.rule, found_after=len(record.steps), shrunk=False)


def shrink(engine: Engine, record: Record) -> Divergence | None:
    """The shortest prefix of ``record`` that still diverges, with needless probes left out,
    as a :class:`Divergence`; ``None`` if a replay of ``record`` agrees with the reference.

    Every candidate is replayed from the start (``engine.start``). The shortest diverging
    prefix is what a binary search over prefix lengths converges to; since a replay compares
    after every step, the replay of the whole record already shows the first step that
    diverges, so one replay finds it. The linear pass then leaves out the probes before the
    last step, all at once and else one by one, keeping a removal only when the same
    divergence (kind and rule) remains.
    """
    found = _replay_safely(engine, record)
    if found is None:
        return None
    best, best_found = _shrink(engine, record, found)
    return Divergence(best_found.kind, best, best_found.differences, best_found.rule,
                      found_after=len(record.steps))


def _shrink(engine: Engine, record: Record, found: _Found) -> tuple[Record, _Found]:
    """:func:`shrink`, given the divergence the replay of ``record`` met."""
    best = record.prefix(found.step + 1)
    best_found = found
    probes = [i for i, step in enumerate(best.steps[:-1]) if step.probe]
    if not probes:
        return best, best_found
    candidate = replace(best, steps=tuple(s for i, s in enumerate(best.steps)
                                          if i not in probes))
    again = _replay_safely(engine, candidate)
    if again is not None and _same(again, best_found):
        return candidate.prefix(again.step + 1), again
    for index in reversed(probes):  # later removals leave earlier indices in place
        if index >= len(best.steps) - 1 or not best.steps[index].probe:
            continue
        candidate = replace(best, steps=best.steps[:index] + best.steps[index + 1:])
        again = _replay_safely(engine, candidate)
        if again is not None and _same(again, best_found):
            best, best_found = candidate.prefix(again.step + 1), again
    return best, best_found


def _replay_safely(engine: Engine, record: Record) -> _Found | None:
    """:func:`_replay`, the engine restarted after a failure; a declined load replays
    nothing (``None``)."""
    try:
        found = _replay(engine, record)
    except LoadDeclined:
        return None
    if found is not None and found.failure is not None:
        _recover(engine)
    return found


# -- configurations ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Configuration:
    """One rule set to play: a profile at a player count (and the profiles equal to it)."""

    profile: str
    rules: RuleSet
    aliases: tuple[str, ...] = ()
    covers: tuple[str, ...] = ()
    """For a rule set chosen to play the values an engine claims (``"claimed rules"``,
    :func:`~durak_spec.conformance.dependencies.covering_rule_sets`): the values
    (``axis=value``) that no configuration before it plays."""

    @property
    def label(self) -> str:
        same = f" (= {', '.join(self.aliases)})" if self.aliases else ""
        order = self.rules.turn_order
        turns = f", turn_order={order.value}" if order is not TurnOrder.FREE else ""
        return f"{self.profile}{same}, {self.rules.players} players{turns}"


def configurations(capabilities: Capabilities, *, profiles: Iterable[str] | None = None,
                   players: Iterable[int] | None = None,
                   rules: RuleSet | Iterable[RuleSet] | None = None,
                   ) -> tuple[list[Configuration], list[tuple[str, str]]]:
    """The configurations an engine claims, and those left out with the reason.

    By default every profile of the specification at 2..6 players that
    ``capabilities.supports``, under the engine's own bout protocol (``turn_order``,
    declared in the handshake); ``profiles`` and ``players`` narrow that down, ``rules``
    replaces it by explicit rule sets. Profiles with equal rules at a player count are
    played once (the others are listed as aliases). Where the engine declares the axis
    values it plays (``axes``), a few claimed rule sets are added at each player count
    ("claimed rules") so that every value it claims of every axis, its bout protocols
    among them, is played at least once: a covering set, not the product of the values
    (:func:`~durak_spec.conformance.dependencies.covering_rule_sets`; where it claims no
    profile at a player count, the first is the claimed rule set nearest to the classic
    game). Each such configuration names the values it is the first to play.
    """
    chosen: list[tuple[str, RuleSet]] = []
    covering: dict[RuleSet, tuple[str, ...]] = {}
    if rules is not None:
        for item in [rules] if isinstance(rules, RuleSet) else list(rules):
            name = next((p.name for p in PROFILES.values()
                         if p.rules(players=item.players) == item), "custom rules")
            chosen.append((name, item))
    else:
        names = list(PROFILES) if profiles is None else list(dict.fromkeys(profiles))
        unknown = [n for n in names if n not in PROFILES]
        if unknown:
            raise RuleSetError(f"unknown profile {unknown[0]!r}; profiles are: "
                               f"{', '.join(PROFILES)}")
        counts = list(range(MIN_PLAYERS, MAX_PLAYERS + 1)) if players is None else \
            sorted(set(players))
        for count in counts:
            if not MIN_PLAYERS <= count <= MAX_PLAYERS:
                raise RuleSetError(f"Durak is played by 2 to 6 players (DEAL-3), not {count}",
                                   rule="DEAL-3")
        chosen = [(name, _own_protocol(capabilities, PROFILES[name].rules(players=count)))
                  for name in names for count in counts]
        if profiles is None and capabilities.axes:
            for count in counts:
                here = [r for _, r in chosen if r.players == count
                        and capabilities.supports(r) is None]
                for position, (ruleset, covers) in enumerate(
                        covering_rule_sets(capabilities, count, here)):
                    covering[ruleset] = covers
                    shown = [c for c in covers if not c.startswith("turn_order=")
                             or c == "turn_order=free"]  # the label names a turn order
                    chosen.append(("claimed rules" if (position == 0 and not here) or
                                   not shown else f"claimed rules ({', '.join(shown)})",
                                   ruleset))
    played: dict[RuleSet, Configuration] = {}
    skipped: list[tuple[str, str]] = []
    for name, ruleset in chosen:
        if ruleset in played:
            first = played[ruleset]
            if name != first.profile and name not in first.aliases:
                played[ruleset] = Configuration(first.profile, ruleset, (*first.aliases, name))
            continue
        reason = capabilities.supports(ruleset)
        if reason is not None:
            skipped.append((f"{name}, {ruleset.players} players", reason))
            continue
        played[ruleset] = Configuration(name, ruleset, covers=covering.get(ruleset, ()))
    return list(played.values()), skipped


def _own_protocol(capabilities: Capabilities, rules: RuleSet) -> RuleSet:
    """``rules`` under the engine's own bout protocol, if it does not play theirs."""
    if capabilities.plays_turn_order(rules.turn_order.value):
        return rules
    own = capabilities.axes.get("turn_order", capabilities.turn_orders)[0]
    return rules.replace(turn_order=TurnOrder(own))


# -- the whole run -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameProgress:
    """What the progress callback hears after each game."""

    configuration: str
    game: int
    actions: int
    divergence: Divergence | None


@dataclass(frozen=True, slots=True)
class ConfigResult:
    """The games of one configuration."""

    configuration: Configuration
    games: int
    actions: int
    probes: int
    unfinished: int
    """Games cut at ``max_actions`` before they ended."""
    divergence: Divergence | None = None
    """The configuration's first divergence."""
    stopped: str = ""
    """Why the configuration's games stopped early (an engine that could not restart)."""
    found: int = 0
    """How many divergences its games met (each game goes on after one where the engine
    can load the reference's position, else the next game starts)."""
    declined: int = 0
    """How many of its games ended at a divergence because the engine declined to load
    the reference's position (the next game started)."""

    @property
    def label(self) -> str:
        return self.configuration.label

    @property
    def outcome(self) -> Literal["agreed", "diverged", "failed"]:
        if self.divergence is None:
            return "agreed"
        return "failed" if self.divergence.kind == "engine failure" else "diverged"

    def to_json(self) -> dict[str, object]:
        return {"configuration": self.label, "profile": self.configuration.profile,
                "aliases": list(self.configuration.aliases),
                "covers": list(self.configuration.covers),
                "rules": self.configuration.rules.to_dict(), "games": self.games,
                "actions": self.actions, "probes": self.probes, "unfinished": self.unfinished,
                "outcome": self.outcome, "stopped": self.stopped or None,
                "divergences": self.found, "loads_declined": self.declined,
                "divergence": None if self.divergence is None else self.divergence.to_json()}


CauseKind = Literal["turn order", "action missing", "action extra", "different result",
                    "engine failure", "engine error"]
CAUSE_KINDS: tuple[CauseKind, ...] = ("turn order", "action missing", "action extra",
                                      "different result", "engine failure", "engine error")
"""How a cause shows: another seat may act (turn order, reported once, as the bout
protocol's rule); an action the reference allows that the engine does not list or
rejects; an action the engine lists or accepts that the reference forbids; another
position after the same action (or a rejected action that changed something); an engine
that broke the protocol, or raised or refused a request."""


def cause_of(found: _Found | Divergence) -> tuple[str | None, CauseKind]:
    """The cause of a divergence: the rule really concerned and the kind of difference."""
    kind = found.kind
    if kind == "engine failure" or kind == "engine error":
        return None, kind
    first = found.differences[0] if found.differences else None
    if first is not None and first.field == "who may act now":
        return first.rule, "turn order"
    if kind == "legal actions":
        extra = first is not None and first.engine == "lists it"
        return found.rule, "action extra" if extra else "action missing"
    if kind == "verdict":
        return found.rule, "action missing"
    if kind == "probe" and first is not None and first.engine == "accepts it":
        return found.rule, "action extra"
    return found.rule, "different result"


def _cause_key(found: _Found) -> tuple[Any, ...]:
    """What makes two divergences one cause: the rule and kind, and for a different
    result the report fields that differ (a wrong count of the discard pile is one cause,
    after whatever action it shows). An impossible report is one cause per rule it breaks
    (the audit's), whatever else its position shows."""
    rule, kind = cause_of(found)
    if found.kind == "impossible report":
        return (found.kind, rule)
    if kind == "different result":
        fields = sorted({d.field.split("[")[0] for d in found.differences})
        return (kind, *fields)
    return (rule, kind)


@dataclass(frozen=True, slots=True)
class Cause:
    """Divergences that share a cause (rule and kind), counted, with one example (shrunk
    and replayable: from the deal where it was its game's first divergence, else from a
    position loaded into an engine that can load, or from the deal past the differences
    of legal actions before it)."""

    rule: str | None
    kind: CauseKind
    count: int
    example: Divergence
    configurations: tuple[str, ...]

    @property
    def heading(self) -> str:
        rule = " ".join(filter(None, (self.rule, _title(self.rule)))) or "no rule"
        where = f"{len(self.configurations)} configuration" \
            f"{'s' if len(self.configurations) != 1 else ''}"
        return f"{rule}: {self.kind}, {_count(self.count, 'divergence')} in {where}"

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "kind": self.kind, "count": self.count,
                "configurations": list(self.configurations),
                "example": self.example.to_json()}


@dataclass(frozen=True, slots=True)
class LockstepResult:
    """Everything :func:`play_lockstep` found."""

    engine: str
    seed: int
    games_per_configuration: int
    results: tuple[ConfigResult, ...]
    skipped: tuple[tuple[str, str], ...]
    seconds: float
    causes: tuple[Cause, ...] = ()
    """The divergences grouped by cause, the most frequent first."""

    @property
    def games(self) -> int:
        return sum(r.games for r in self.results)

    @property
    def actions(self) -> int:
        return sum(r.actions for r in self.results)

    @property
    def divergences(self) -> tuple[Divergence, ...]:
        """One example per cause (see :attr:`causes`)."""
        if self.causes:
            return tuple(c.example for c in self.causes)
        return tuple(r.divergence for r in self.results if r.divergence is not None)

    @property
    def ok(self) -> bool:
        """No divergence, no engine failure, and no configuration stopped early."""
        return not self.divergences and not any(r.stopped for r in self.results)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """The closing line: ``N agreed, N diverged, N failed, N skipped`` (configurations)."""
        counts = {"agreed": 0, "diverged": 0, "failed": 0}
        for result in self.results:
            counts[result.outcome] += 1
        return (f"{counts['agreed']} agreed, {counts['diverged']} diverged, "
                f"{counts['failed']} failed, {len(self.skipped)} skipped "
                f"(configurations; {_count(self.games, 'game')}, "
                f"{_count(self.actions, 'action')}, "
                f"{self.seconds:.1f} s)")

    def to_json(self) -> dict[str, object]:
        return {"format": RESULT_FORMAT, "version": 1, "engine": self.engine,
                "seed": self.seed, "games_per_configuration": self.games_per_configuration,
                "seconds": round(self.seconds, 3), "games": self.games,
                "actions": self.actions, "ok": self.ok, "summary": self.summary(),
                "causes": [c.to_json() for c in self.causes],
                "configurations": [r.to_json() for r in self.results],
                "skipped": [{"configuration": label, "reason": reason}
                            for label, reason in self.skipped]}


def _game_rng(seed: int, configuration: Configuration, game: int) -> random.Random:
    # A string seed is hashed with SHA-512: the same on every run and every machine.
    rules = json.dumps(configuration.rules.to_dict(), sort_keys=True)
    return random.Random(f"durak-spec lockstep/{seed}/{rules}/{game}")


def play_lockstep(engine: Engine, rules: RuleSet | Iterable[RuleSet] | None = None, *,
                  games: int, seed: int, max_actions: int = DEFAULT_MAX_ACTIONS,
                  profiles: Iterable[str] | None = None, players: Iterable[int] | None = None,
                  probe_rate: float = DEFAULT_PROBE_RATE, shrink_records: bool = True,
                  max_divergences: int | None = None,
                  progress: Callable[[int, int, GameProgress], None] | None = None,
                  ) -> LockstepResult:
    """Play ``games`` random games per configuration in lockstep with the reference.

    The configurations are the profiles the engine claims at every player count it
    supports (:func:`configurations`; ``rules``, ``profiles`` and ``players`` narrow them).
    Every game is played whatever diverges: after a divergence the reference's position
    is loaded into the engine where it declares ``load`` and the game goes on, else the
    next game starts. Divergences are grouped by cause (:func:`cause_of`: the rule and
    the kind of difference), each counted, with one example, shrunk (``shrink_records``;
    one met after another in its game is replayed from the reference's position loaded
    into the engine where it can load, else from the deal past the differences of legal
    actions before it); ``max_divergences`` stops the whole run
    after that many. ``max_actions`` cuts a game that runs longer (counted as unfinished);
    ``probe_rate`` is the share of steps that also try an illegal action. ``progress`` is
    called after every game with (games done, games planned, :class:`GameProgress`).

    An engine failure during the handshake raises
    :class:`~durak_spec.protocol.subprocess_engine.EngineFailure`.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a count (0, 1, ...), not {games!r}")
    if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 1:
        raise ValueError(f"max_actions must be a positive count, not {max_actions!r}")
    if not 0.0 <= probe_rate <= 1.0:
        raise ValueError(f"probe_rate must lie between 0 and 1, not {probe_rate!r}")
    started = time.perf_counter()
    capabilities = engine.capabilities()
    chosen, skipped = configurations(capabilities, profiles=profiles, players=players,
                                     rules=rules)
    total = games * len(chosen)
    done = 0
    results: list[ConfigResult] = []
    diverged = 0
    alive = True
    resync = capabilities.load
    causes: dict[tuple[Any, ...], list[Any]] = {}  # count, example, labels
    for configuration in chosen:
        if not alive or (max_divergences is not None and diverged >= max_divergences):
            why = "the engine could not be restarted" if not alive else \
                f"the run stopped after {diverged} divergences"
            results.append(ConfigResult(configuration, 0, 0, 0, 0, stopped=why))
            done += games
            continue
        played = actions = probes = unfinished = found_here = declined = 0
        first: Divergence | None = None
        for index in range(games):
            rng = _game_rng(seed, configuration, index)
            deck_seed = rng.randrange(2**31)
            record = Record(configuration.rules, deal(configuration.rules, deck_seed),
                            deck_seed, (), configuration.profile)
            record, founds, cut, refused = _play_game(
                engine, record, rng, max_actions=max_actions, probe_rate=probe_rate,
                resync=resync)
            declined += bool(refused)
            played += 1
            actions += len(record.actions)
            probes += len(record.steps) - len(record.actions)
            unfinished += cut
            latest: Divergence | None = None
            for position, found in enumerate(founds):
                key = _cause_key(found)
                known = causes.get(key)
                if known is None or first is None:
                    if position == 0:
                        latest = _divergence(engine, configuration, index, record, found,
                                             shrink_records and known is None)
                    else:
                        latest = _later_divergence(
                            engine, configuration, index, record, found,
                            founds[position - 1], shrink_records and known is None,
                            capabilities.load)
                    first = first or latest
                if known is None:
                    known = causes[key] = [0, latest, []]
                known[0] += 1
                if configuration.label not in known[2]:
                    known[2].append(configuration.label)
            found_here += len(founds)
            diverged += len(founds)
            if any(f.failure is not None for f in founds) and not getattr(engine, "running",
                                                                          True):
                alive = _recover(engine)
            done += 1
            if progress is not None:
                progress(done, total, GameProgress(configuration.label, index,
                                                   len(record.actions), latest))
            if not alive or (max_divergences is not None and diverged >= max_divergences):
                done += games - index - 1
                break
        results.append(ConfigResult(configuration, played, actions, probes, unfinished,
                                    first, found=found_here, declined=declined))
    name = f"{capabilities.name} {capabilities.version}".strip()
    grouped = sorted((Cause(*cause_of(example), count, example, tuple(labels))
                      for (count, example, labels) in causes.values()),
                     key=lambda c: -c.count)
    return LockstepResult(name, seed, games, tuple(results), tuple(skipped),
                          time.perf_counter() - started, tuple(grouped))


def _divergence(engine: Engine, configuration: Configuration, game: int, record: Record,
                found: _Found, shrink_records: bool) -> Divergence:
    """Shrink what one game found into a :class:`Divergence`."""
    original = record.prefix(found.step + 1)
    failure = found.failure
    if failure is not None:
        _recover(engine)
    if not shrink_records or (failure is not None and failure.kind == "timeout"):
        note = "not shrunk: every replay would wait for the time limit again" \
            if shrink_records else ""
        return Divergence(found.kind, original, found.differences, found.rule,
                          configuration.label, game, len(original.steps), shrunk=False,
                          reproducible=True, note=note)
    again = _replay_safely(engine, original)
    if again is None or not _same(again, found):
        note = "a replay from the start " + ("agrees with the reference" if again is None
                                             else f"diverges differently ({again.kind})")
        return Divergence(found.kind, original, found.differences, found.rule,
                          configuration.label, game, len(original.steps), shrunk=False,
                          reproducible=False, note=note)
    shrunk, last = _shrink(engine, original, again)
    return Divergence(last.kind, shrunk, last.differences, last.rule, configuration.label,
                      game, len(original.steps))


_LATER = ("found later in a game that had diverged before (after loading the reference's "
          "position into the engine, or going on where only the legal actions differed)")


def _later_divergence(engine: Engine, configuration: Configuration, game: int,
                      record: Record, found: _Found, before: _Found, shrink_records: bool,
                      can_load: bool) -> Divergence:
    """A divergence met after another in the same game (``before``, the one just before
    it), shrunk into a record that replays it on its own, with needless probes left out.

    Where the engine can load, the record begins from a position of the game loaded into
    the engine (:attr:`Record.start`) with the fewest steps after it that still diverge
    the same way (kind and rule): see :func:`_from_a_position`. Else (or where no such
    replay diverges the same way), the record begins at the deal and its replay goes on
    past the differences of legal actions before its last step, as lockstep did
    (:attr:`Record.past_legal`; the divergences before were of legal actions alone where
    the engine cannot load, since any other ends its game). Where neither shows it again,
    the record of the whole game is kept, not replayed on its own."""
    whole = record.prefix(found.step + 1)

    def unshrunk(note: str) -> Divergence:
        return Divergence(found.kind, whole, found.differences, found.rule,
                          configuration.label, game, found.step + 1, shrunk=False,
                          reproducible=False, note=note)

    if found.failure is not None:
        _recover(engine)
    if not shrink_records:
        return unshrunk(_LATER)
    if found.failure is not None and found.failure.kind == "timeout":
        return unshrunk(_LATER + "; not shrunk: every replay would wait for the time limit "
                        "again")
    shown, declined = _from_a_position(engine, record, found, before) if can_load else \
        (None, "")
    how = "from the reference's position loaded into the engine"
    if shown is None:
        candidate = replace(whole, past_legal=True)
        again = _replay_safely(engine, candidate)
        if again is not None and _same(again, found):
            shown, how = (candidate, again), ("from the deal, going on past the differences "
                                              "of legal actions before its last step")
    if shown is None:
        why = "the engine cannot load a position" if not can_load else \
            f"the engine declines to load its positions ({declined})" if declined else \
            "no replay from a loaded position of this game diverges the same way"
        return unshrunk(f"{_LATER}; not replayed on its own: {why}, and a replay from the "
                        "deal does not diverge the same way")
    candidate, again = shown
    shrunk, last = _shrink(engine, candidate, again)
    return Divergence(last.kind, shrunk, last.differences, last.rule, configuration.label,
                      game, found.step + 1,
                      note=f"found later in a game that had diverged before; replayed {how}"
                           + ("" if shrunk.steps or shrunk.start is None else
                              ", which diverges at once"))


def _from_a_position(engine: Engine, record: Record, found: _Found, before: _Found
                     ) -> tuple[tuple[Record, _Found] | None, str]:
    """The shortest replay of ``found`` from a position of ``record``'s game loaded into
    the engine (and what it met), or ``None`` with the engine's reason if it declined.

    The positions tried are the reference's, which alone decides the game's course: the
    one right before the divergent step first (a record of that one step; or of none where
    the engine diverged at a load), then positions 1, 2, 4, 8 ... steps further back, to the
    one after the divergence before (where the engine was resynchronised, or went on);
    between the nearest that diverges the same way and the next that does not, a binary
    search finds the latest."""
    floor = before.step + 1  # the position where play went on after the one before
    end = found.step + 1 if found.loaded else found.step
    # the reference's positions before each step from the floor to the divergent one
    state = record.start if record.start is not None else \
        new_game(record.rules, deck=record.deck, seed=record.seed)
    positions: dict[int, GameState] = {}
    for index, step in enumerate(record.steps[:end]):
        if index >= floor:
            positions[index] = state
        if not step.probe:
            state = apply(state, step.action)
    positions[end] = state

    def attempt(at: int) -> tuple[Record, _Found] | None:
        candidate = replace(record, steps=record.steps[at:found.step + 1],
                            start=positions[at])
        again = _replay_safely(engine, candidate)
        return (candidate, again) if again is not None and _same(again, found) else None

    latest, missed = end, None
    shown = attempt(end)
    back = 1
    while shown is None and latest > floor:
        missed, latest = latest, max(floor, end - back)
        back *= 2
        shown = attempt(latest)
    if shown is None:
        return None, _replay_declined(engine, replace(record, steps=(), start=positions[end]))
    while missed is not None and missed - latest > 1:  # the latest start that still shows it
        middle = (latest + missed) // 2
        nearer = attempt(middle)
        if nearer is None:
            missed = middle
        else:
            latest, shown = middle, nearer
    return shown, ""


def _replay_declined(engine: Engine, record: Record) -> str:
    """The engine's reason if it declines to load ``record``'s start position, else
    ``""``."""
    try:
        _replay(engine, record)
    except LoadDeclined as declined:
        return str(declined) or "declined"
    except (RecordError, _Broke):  # pragma: no cover - _replay reports what breaks
        return ""
    return ""


# -- the text report ---------------------------------------------------------------------------


def format_lockstep(result: LockstepResult, *, verbose: bool = False) -> str:
    """The report: one line per configuration that diverged (all with ``verbose``), each
    divergence in full (one per rule; the others of the same rule by name), and the
    closing :meth:`LockstepResult.summary` line."""
    lines = [f"Lockstep: {result.engine} against the reference, "
             f"{result.games_per_configuration} random games per configuration, "
             f"seed {result.seed} ({result.games_per_second:.0f} games/s)", ""]
    for item in result.results:
        if item.divergence is None and not item.stopped and not verbose:
            continue
        if item.divergence is not None:
            d = item.divergence
            status = (f"{_count(item.found, 'divergence')}, the first: "
                      f"{d.kind.upper()} in game {d.game + 1}"
                      + (f" ({d.rule})" if d.rule else "") + f", {d.length} steps")
        elif item.stopped:
            status = f"not played: {item.stopped}"
        else:
            status = "agreed"
        if item.declined:
            status += (f"; the engine declined {_count(item.declined, 'load')} of the "
                       "reference's position after a divergence, so those games ended there "
                       "and the next started")
        lines.append(f"  {item.label}: {_count(item.games, 'game')}, "
                     f"{_count(item.actions, 'action')}: {status}")
    if verbose and result.skipped:
        lines.extend(f"  skipped {label}: {reason}" for label, reason in result.skipped)
    elif result.skipped:
        reasons: dict[str, int] = {}
        for _, reason in result.skipped:
            reasons[reason] = reasons.get(reason, 0) + 1
        lines.extend(f"  {n} configurations skipped: {reason}" for reason, n in reasons.items())
    if result.causes:
        lines.extend(["", f"{_count(len(result.causes), 'distinct cause')} "
                      "(rule and kind of difference), the most frequent first:"])
        lines.extend(f"  {number}. {cause.heading}"
                     for number, cause in enumerate(result.causes, 1))
    for number, cause in enumerate(result.causes, 1):
        lines.extend(["", f"{number}. {cause.heading}; an example:"])
        if cause.rule is not None:
            lines.append(f"  read the rule: durak-spec rules {cause.rule}")
        lines.append(cause.example.describe())
        if len(cause.configurations) > 1:
            lines.append("  also in: " + "; ".join(cause.configurations[1:]))
    if lines[-1]:
        lines.append("")
    lines.append(result.summary())
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
