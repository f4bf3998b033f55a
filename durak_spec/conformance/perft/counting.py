"""Counting action sequences: with the reference (:func:`perft`) and with any engine
through the protocol (:func:`perft_engine`), and finding the first position whose legal
actions differ (:func:`locate`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from durak_spec.conformance.perft.positions import PerftPosition
from durak_spec.core.cards import Card
from durak_spec.core.errors import DurakError
from durak_spec.engine import apply, grounds, legal_actions, new_game, play_listed, turn_rule
from durak_spec.model.actions import Action
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState
from durak_spec.protocol import Accepted, Engine, LoadDeclined, Report, Verdict
from durak_spec.protocol.audit import audit
from durak_spec.protocol.explain import (
    Difference,
    explain_legal,
    explain_start,
    explain_step,
    same_report,
)

DEFAULT_BUDGET = 6000
"""Generation stops deepening a position once this many positions would be visited."""
MAX_DEPTH = 12


class PerftError(DurakError):
    """An engine that cannot be counted: it rejected an action it listed itself."""

    code = "perft-engine"


class PerftUnreachable(PerftError):
    """An engine that rejects one of the moves that reach a position from the deal (where
    it cannot load it). The moves are a game under the rules the engine claims, its own
    bout protocol included (:func:`claimed_position`), so this is a rule failure: the
    engine forbids a move those rules allow."""

    code = "perft-unreachable"


class PerftImpossible(PerftError):
    """An engine whose report after an action no game can reach (a rule failure, named by
    :mod:`durak_spec.protocol.audit`)."""

    code = "perft-impossible"


def perft(state: GameState, depth: int) -> tuple[int, ...]:
    """The number of action sequences of length 1..``depth`` from ``state`` (reference)."""
    _check_depth(depth)
    counts = [0] * depth

    def visit(node: GameState, level: int) -> None:
        actions = legal_actions(node)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:  # listed: played without asking the rules again
                visit(play_listed(node, action), level + 1)

    visit(state, 0)
    return tuple(counts)


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be a positive whole number, not {depth!r}")


class _Walker:
    """Moves an engine to any path from the deal: forward by ``apply``, back by a restart."""

    def __init__(self, engine: Engine, rules: RuleSet, deck: Sequence[Card], seed: int,
                 moves: Sequence[Action] = ()) -> None:
        self.engine = engine
        self.rules = rules
        self.deck = tuple(deck)
        self.seed = seed
        self.moves = tuple(moves)
        self.path: list[Action] = []
        self.started = False
        self.restarts = 0
        self.reported: Report | None = None
        self.origin: GameState | None = None
        """The position after :attr:`moves`, loaded directly where the engine can load
        (replaying a long game at every step back would cost the most time)."""
        if self.moves and engine.capabilities().load:
            state = new_game(rules, deck=self.deck, seed=seed)
            for action in self.moves:
                state = apply(state, action)
            self.origin = state

    def go(self, target: Sequence[Action]) -> None:
        """Bring the engine to ``target`` (after :attr:`moves`), auditing every report."""
        target = [*self.moves, *target]
        here = len(self.path)
        if not self.started or here > len(target) or list(target[:here]) != self.path:
            self.path = []
            if self.origin is not None:
                try:
                    self.reported = self.engine.load(self.origin)
                    self.path = list(self.moves)
                except LoadDeclined:  # the standard decline: reach it from the deal
                    self.origin = None
                except DurakError as refused:
                    if getattr(refused, "rule", None) is None:
                        raise
                    # The engine refuses the position by a rule: it disagrees about it.
                    # Reached from the deal, the first move it plays otherwise names
                    # the rule from the reference's side.
                    self.origin = None
            if self.origin is None:
                self.reported = self.engine.start(self.rules, self.deck, self.seed)
            self._audit(self.path, None, None)
            self.started = True
            self.restarts += 1
        for action in target[len(self.path):]:
            verdict = self.engine.apply(action)
            if not isinstance(verdict, Accepted) and len(self.path) < len(self.moves):
                legal = self.engine.legal_actions()
                listed = ", ".join(str(a) for a in legal) or "nothing"
                rule, how = self._rejected_rule(action, legal, getattr(verdict, "rule", None))
                why = f" ({rule}: {how})" if rule else ""
                raise PerftUnreachable(
                    f"not reached: the engine rejected move {len(self.path) + 1} of the "
                    f"{len(self.moves)} that reach the position from the deal, {action} "
                    f"({getattr(verdict, 'reason', verdict)}), which the rules it claims "
                    f"allow there{why}; it lists: {listed}", rule=rule)
            if not isinstance(verdict, Accepted):
                line = ", ".join(str(a) for a in target)
                raise PerftError(f"the engine rejected {action}, which it listed as legal, "
                                 f"after: {line or 'the deal'} ({verdict})")
            self.path.append(action)
            self._audit(self.path, action, verdict)

    def _rejected_rule(self, action: Action, listed: Sequence[Action],
                       named: str | None) -> tuple[str | None, str]:
        """The rule of a move on the way that the engine rejected, and how it shows: where
        the engine named a rule other than the bout protocol's (a limit, say), the move is
        what differs, named by the reference's grounds for it; where it lets another seat
        act instead, the bout protocol's rule (a difference of turn order); else none."""
        state = new_game(self.rules, deck=self.deck, seed=self.seed)
        for done in self.path:
            state = apply(state, done)
        protocol = turn_rule(state) or "CLAR-3"
        if named and named not in (protocol, "CLAR-3"):
            return grounds(state, action), f"the engine refuses it naming {named}"
        seats = {a.player for a in listed}
        if not seats or action.player in seats:
            return None, ""
        return protocol, "the engine asks another seat"

    def _audit(self, path: Sequence[Action], action: Action | None,
               verdict: Verdict | None) -> None:
        before = self.reported
        report = self.engine.report() if action is not None else before
        if report is None:
            return
        problems = audit(report, self.rules.players, before if action else None, verdict,
                         action, self.rules.goal)
        self.reported = report
        if problems:
            counted = list(path[len(self.moves):]) if len(path) >= len(self.moves) else []
            where = ", ".join(str(a) for a in counted) or \
                ("the position counted" if self.moves else "the deal")
            if action is not None and self.moves and len(path) <= len(self.moves):
                where = (f"move {len(path)} of the {len(self.moves)} that reach the "
                         f"position from the deal, {action}")
            raise PerftImpossible(f"impossible report after {where}: "
                                  + "; ".join(str(p) for p in problems),
                                  rule=next((p.rule for p in problems if p.rule), None))

    def legal(self, target: Sequence[Action]) -> tuple[Action, ...]:
        self.go(target)
        return tuple(self.engine.legal_actions())


def perft_engine(engine: Engine, rules: RuleSet, deck: Sequence[Card], seed: int,
                 depth: int, moves: Sequence[Action] = ()) -> tuple[int, ...]:
    """The counts of :func:`perft`, as ``engine`` plays them (``start``/``apply`` only).

    The tree is walked depth first in the engine's own order of legal actions; stepping
    back starts the game again and replays the path. Repeated actions in the engine's
    list count as often as listed (as perft counts what a move generator produces).
    ``moves`` are played from the deal first: the counts are those of the position they
    reach. Every report on the way is audited (:mod:`durak_spec.protocol.audit`).
    Raises :class:`PerftImpossible` for a report no game can reach, :class:`PerftError` if
    the engine rejects an action it listed, and lets engine failures through.
    """
    _check_depth(depth)
    counts = [0] * depth
    walker = _Walker(engine, rules, deck, seed, moves)

    def visit(path: list[Action], level: int) -> None:
        actions = walker.legal(path)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                visit([*path, action], level + 1)

    visit([], 0)
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Located:
    """The first position (in the reference's order) whose legal actions differ, and the
    rule of that difference: the reference's decision on the first action the engine
    lists and the rules forbid, or the rule that allows the actions it misses
    (:func:`~durak_spec.protocol.explain.explain_legal`)."""

    path: tuple[Action, ...]
    engine_only: tuple[Action, ...]
    reference_only: tuple[Action, ...]
    differences: tuple[Difference, ...] = ()

    @property
    def rule(self) -> str | None:
        """The rule of the first difference (``None`` if the reference names none)."""
        return self.differences[0].rule if self.differences else None

    def __str__(self) -> str:
        where = ", ".join(str(a) for a in self.path) or "the position counted"
        parts = []
        if not self.engine_only and not self.reference_only and self.differences:
            parts.append("its position differs from the rules'")
        if self.engine_only:
            parts.append("the engine also lists " + ", ".join(str(a) for a in
                                                              self.engine_only))
        if self.reference_only:
            parts.append("the engine misses " + ", ".join(str(a) for a in
                                                          self.reference_only))
        named = "; ".join(str(d) for d in self.differences)
        return f"after {where}: {'; '.join(parts)}" + (f"\n      rule: {named}" if named
                                                        else "")


def locate(engine: Engine, position: PerftPosition, depth: int | None = None
           ) -> Located | None:
    """The first position within ``depth - 1`` actions of the deal (depth first, in the
    reference's order) where the engine's legal actions differ from the reference's;
    ``None`` if there is none."""
    depth = position.depth if depth is None else depth
    _check_depth(depth)
    walker = _Walker(engine, position.rules, position.deck, position.seed, position.moves)

    def visit(state: GameState, path: list[Action], level: int) -> Located | None:
        mine = walker.legal(path)
        theirs = legal_actions(state)
        moved = _moved_otherwise(position, state, path, walker.reported)
        if moved is not None:
            return Located(tuple(path), (), (), (moved,))
        if set(mine) != set(theirs):
            return Located(tuple(path), tuple(sorted(set(mine) - set(theirs),
                                                     key=Action.sort_key)),
                           tuple(a for a in theirs if a not in set(mine)),
                           tuple(explain_legal(state, mine)))
        if level + 1 < depth:
            for action in theirs:
                found = visit(apply(state, action), [*path, action], level + 1)
                if found is not None:
                    return found
        return None

    return visit(position.start(), [], 0)


def _moved_otherwise(position: PerftPosition, state: GameState, path: Sequence[Action],
                     reported: Report | None) -> Difference | None:
    """Where the engine's report at ``path`` differs from the reference's ``state``: the
    difference of the last move, by the rule the reference's step decided it with."""
    if reported is None or same_report(Report.of(state), reported):
        return None
    moves = [*position.moves, *path]
    if not moves:
        return explain_start(state, reported, position.seed)
    before = new_game(position.rules, deck=position.deck, seed=position.seed)
    for action in moves[:-1]:
        before = apply(before, action)
    return explain_step(before, moves[-1], reported)


def deepest(state: GameState, budget: int, deepest: int = MAX_DEPTH) -> tuple[int, ...]:
    """The counts to the greatest depth (at most ``deepest``) whose tree visits at most
    ``budget`` positions (and one depth of 0 where every game has ended: deeper ones say
    nothing more)."""
    best = perft(state, 1)
    for depth in range(2, deepest + 1):
        if sum(best) > budget or best[-1] == 0:  # the next depth visits sum(best) positions
            break
        best = perft(state, depth)
    return best
