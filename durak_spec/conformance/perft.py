"""Perft-style counts: how many action sequences a deal allows, depth by depth (layer 7).

As chess programmers count the move sequences of a position to find move-generator bugs
(``perft``), this module counts, for a stacked deal, the sequences of 1, 2, ..., N
actions. ``legal_actions`` lists the actions of every player who may act at once (after
an opening the defender and every player allowed to throw in), so a sequence is a chain
of single actions, each taken from the full list; a sequence stops when the game ends
(a finished game has no legal actions, so it adds nothing at greater depths). The count at
depth ``d`` is the number of sequences of exactly ``d`` actions.

The counts of a set of positions are stored with the package, in
``durak_spec/data/perft/*.json``::

    {"format": "durak-spec/perft", "version": 1, "positions": [
      {"id": "transfer-3p", "note": "...", "rules": {every axis}, "deck": [36 cards],
       "seed": 0, "counts": [6, 21, ...]}]}

``deck`` is the deal in dealing and drawing order (CLAR-10) and ``seed`` settles ORDER-2's
chance, exactly as the protocol's ``start`` takes them; ``note`` is optional.

* :func:`perft` counts with the reference implementation (fast: pure functions);
* :func:`perft_engine` counts with any :class:`~durak_spec.protocol.Engine`, through
  ``start``, ``legal_actions`` and ``apply`` only: engines have no undo, so it walks the
  tree depth first and, to step back, starts the game again and replays the path (the
  counts at the last depth come from the lengths of the legal-action lists, so the
  leaves are never visited);
* :func:`check_positions` compares an engine's counts (the reference's by default) with
  the stored ones, and :func:`locate` finds, for a count that differs, the first position
  whose legal actions differ;
* :func:`claimed_position` turns a stored position into one an engine can be counted on
  where it does not claim the stored rules: the same deal, or a position of the same kind
  reached in a game, under the rule set it claims that is nearest (its own bout protocol
  included), with counts the reference computes at run time. The stored counts stay the
  fixtures, checked against the reference in CI.

``durak-spec perft [--engine CMD]`` checks the stored counts, ``--list`` lists them and
``--generate`` rewrites the files from the position definitions in this module;
``durak-spec check --perft`` is the same check beside the checker's other modes.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.resources
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, TextIO

from durak_spec.conformance.dependencies import nearest_claimed
from durak_spec.core.cards import DECK, Card, CardError, format_cards, parse_card, parse_cards
from durak_spec.core.cliargs import CommandError, Subparsers, positive_count
from durak_spec.core.errors import DurakError, InputError, NotationError
from durak_spec.core.jsonio import (
    JsonError,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    fail,
    members,
    read_file,
    read_json,
    show,
)
from durak_spec.core.jsonio import Path as Path_
from durak_spec.core.outfiles import OutputFile, check_output_folder
from durak_spec.engine import apply, deck_order, is_legal, legal_actions, new_game
from durak_spec.engine.turns import turn_rule
from durak_spec.model.actions import Action, parse_action
from durak_spec.model.rules import (
    AXES,
    PROFILES,
    Axis,
    RuleSet,
    RuleSetError,
    ThrowIn,
    TurnOrder,
    profile,
)
from durak_spec.model.state import GameState
from durak_spec.protocol import Accepted, Capabilities, Engine, LoadDeclined, Report, Verdict
from durak_spec.protocol.audit import audit
from durak_spec.protocol.subprocess_engine import EngineFailure

__all__ = [
    "PERFT_FORMAT",
    "Located",
    "PerftCheck",
    "PerftError",
    "PerftFileError",
    "PerftPosition",
    "add_parser",
    "check_positions",
    "claimed_position",
    "data_dir",
    "format_check",
    "generate",
    "load_positions",
    "locate",
    "perft",
    "perft_engine",
    "position_files",
    "run",
    "stacked_deck",
]

PERFT_FORMAT = "durak-spec/perft"
PERFT_VERSION = 1
DEFAULT_BUDGET = 6000
"""Generation stops deepening a position once this many positions would be visited."""
MAX_DEPTH = 12
REACH_GAMES = 2000
"""Generation looks for a position from within a game in at most this many games."""
RUN_TIME_REACH_GAMES = 200
"""The same at run time, under an engine's own rules (where a stored position's rules are
not claimed): a position those rules make rare or impossible is skipped, not searched."""


class PerftFileError(InputError):
    """A perft data file that cannot be read; the message names the file and the field."""

    code = "perft-file"


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


@dataclass(frozen=True, slots=True)
class PerftPosition:
    """A stacked deal and its counts at depth 1, 2, ..., ``len(counts)``."""

    id: str
    rules: RuleSet
    deck: tuple[Card, ...]
    seed: int
    counts: tuple[int, ...]
    note: str = ""
    moves: tuple[Action, ...] = ()
    """The actions played from the deal to the counted position: none for a deal, a whole
    bout or more for a position from the middle or the end of a game."""

    @property
    def depth(self) -> int:
        return len(self.counts)

    def start(self) -> GameState:
        """The counted position: the deal, then :attr:`moves`."""
        state = new_game(self.rules, deck=self.deck, seed=self.seed)
        for action in self.moves:
            state = apply(state, action)
        return state

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"id": self.id}
        if self.note:
            data["note"] = self.note
        data.update({"rules": self.rules.to_dict(), "deck": [str(c) for c in self.deck],
                     "seed": self.seed})
        if self.moves:
            data["moves"] = [str(a) for a in self.moves]
        data["counts"] = list(self.counts)
        return data


# -- counting ------------------------------------------------------------------------------------


def perft(state: GameState, depth: int) -> tuple[int, ...]:
    """The number of action sequences of length 1..``depth`` from ``state`` (reference)."""
    _check_depth(depth)
    counts = [0] * depth

    def visit(node: GameState, level: int) -> None:
        actions = legal_actions(node)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                visit(apply(node, action), level + 1)

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
                rule = self._turn_rule(action, legal)
                why = f" ({rule}: the engine asks another seat)" if rule else ""
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

    def _turn_rule(self, action: Action, listed: Sequence[Action]) -> str | None:
        """The bout protocol's rule where the engine lets another seat act instead of the
        one that played ``action`` (a difference of turn order), else ``None``."""
        seats = {a.player for a in listed}
        if not seats or action.player in seats:
            return None
        state = new_game(self.rules, deck=self.deck, seed=self.seed)
        for done in self.path:
            state = apply(state, done)
        return turn_rule(state) or "CLAR-3"

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
    """The first position (in the reference's order) whose legal actions differ."""

    path: tuple[Action, ...]
    engine_only: tuple[Action, ...]
    reference_only: tuple[Action, ...]

    def __str__(self) -> str:
        where = ", ".join(str(a) for a in self.path) or "the position counted"
        parts = []
        if self.engine_only:
            parts.append("the engine also lists " + ", ".join(str(a) for a in
                                                              self.engine_only))
        if self.reference_only:
            parts.append("the engine misses " + ", ".join(str(a) for a in
                                                          self.reference_only))
        return f"after {where}: {'; '.join(parts)}"


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
        if set(mine) != set(theirs):
            return Located(tuple(path), tuple(sorted(set(mine) - set(theirs),
                                                     key=Action.sort_key)),
                           tuple(a for a in theirs if a not in set(mine)))
        if level + 1 < depth:
            for action in theirs:
                found = visit(apply(state, action), [*path, action], level + 1)
                if found is not None:
                    return found
        return None

    return visit(position.start(), [], 0)


# -- the stored positions -------------------------------------------------------------------------


def data_dir() -> Path:
    """The directory of the perft data files shipped with the package."""
    return Path(str(importlib.resources.files("durak_spec") / "data" / "perft"))


def position_files(directory: Path | None = None) -> list[Path]:
    return sorted((directory or data_dir()).glob("*.json"))


MAX_FILE_BYTES = 1 << 20
"""The largest perft file read."""

_POSITION_FIELDS = ("id", "rules", "deck", "seed", "counts")


def _read_position(value: object, path: Path_) -> PerftPosition:
    data = expect_object(value, path, _POSITION_FIELDS, ("note", "moves"))
    ident = expect_str(data["id"], (path, "id"), empty=False)
    note = expect_str(data.get("note", ""), (path, "note"))
    rules_data = data["rules"]
    if not isinstance(rules_data, dict):
        fail((path, "rules"), f"must be a JSON object of axes, not {show(rules_data)}")
    try:
        rules = RuleSet.from_dict(rules_data)
    except RuleSetError as error:
        fail((path, "rules"), str(error))
    deck_data = expect_list(data["deck"], (path, "deck"))
    deck = []
    for item, where in members(deck_data, (path, "deck")):
        try:
            deck.append(parse_card(expect_str(item, where)))
        except CardError as error:
            fail(where, str(error))
    if sorted(deck) != sorted(DECK):
        fail((path, "deck"), "must hold each of the 36 cards once (DEAL-1)")
    seed = expect_int(data["seed"], (path, "seed"), -(2**63), 2**63)
    counts = [expect_int(n, where, 0, 2**63)
              for n, where in members(expect_list(data["counts"], (path, "counts")),
                                      (path, "counts"))]
    if not counts:
        fail((path, "counts"), "must list the count of at least depth 1")
    moves = []
    for item, where in members(expect_list(data.get("moves", []), (path, "moves")),
                               (path, "moves")):
        try:
            moves.append(parse_action(expect_str(item, where)))
        except NotationError as error:
            fail(where, str(error))
    return PerftPosition(ident, rules, tuple(deck), seed, tuple(counts), note, tuple(moves))


def load_positions(paths: Iterable[Path | str] | None = None) -> list[PerftPosition]:
    """The positions of the given files (default: every file shipped with the package).

    Raises :class:`PerftFileError` naming the file and the place in it.
    """
    files = [Path(p) for p in paths] if paths is not None else position_files()
    positions: list[PerftPosition] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            data = read_json(read_file(path, what="the perft file", max_bytes=MAX_FILE_BYTES),
                             what="a perft file", max_bytes=MAX_FILE_BYTES)
            document = expect_object(data, None, ("format", "version", "positions"))
            if document["format"] != PERFT_FORMAT:
                fail("format", f"must be {PERFT_FORMAT!r}: this is not a perft file")
            if document["version"] != PERFT_VERSION:
                fail("version", f"{show(document['version'])} is not {PERFT_VERSION}")
            items = expect_list(document["positions"], "positions")
            for item, where in members(items, "positions"):
                position = _read_position(item, where)
                if position.id in seen:
                    fail((where, "id"), f"{position.id!r} is used twice (also in "
                         f"{seen[position.id]})")
                seen[position.id] = path.name
                positions.append(position)
        except JsonError as error:
            raise PerftFileError(f"{path}: {error}", code=error.code) from None
    return positions


# -- checking -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PerftCheck:
    """One position's stored counts against an engine's."""

    position: PerftPosition
    expected: tuple[int, ...]
    counts: tuple[int, ...]
    seconds: float
    error: str = ""
    located: Located | None = None
    skipped: str = ""
    """Why the position was not counted (rules the engine does not claim)."""
    cut: str = ""
    """Why the engine was counted to fewer depths than stored (the time budget)."""
    impossible: bool = False
    """The error is an impossible report (a rule failure, not an engine failure)."""
    unreached: bool = False
    """The error is a move on the way to the position that the engine rejected though the
    rules it claims allow it (a rule failure, not an engine failure)."""
    claimed: str = ""
    """Where the engine does not claim the stored position's rules: the axes of the rule
    set it was counted under instead (:func:`claimed_position`), whose expected counts
    the reference computed at run time."""

    @property
    def ok(self) -> bool:
        """No failure: the counts match (as deep as the budget allowed), or skipped."""
        if self.skipped:
            return True
        if self.error:
            return False
        if self.cut:
            return self.counts == self.expected[:len(self.counts)]
        return self.counts == self.expected

    @property
    def rule_failure(self) -> bool:
        """The engine broke a rule (an impossible report, or a move of the way there
        rejected), as opposed to failing as a program."""
        return self.impossible or self.unreached

    @property
    def first_mismatch(self) -> int | None:
        """The first depth (1-based) whose count differs, if any."""
        for depth, (mine, theirs) in enumerate(zip(self.counts, self.expected, strict=False),
                                               start=1):
            if mine != theirs:
                return depth
        return None

    def to_json(self) -> dict[str, object]:
        return {"id": self.position.id, "ok": self.ok, "expected": list(self.expected),
                "counts": list(self.counts), "first_mismatch": self.first_mismatch,
                "seconds": round(self.seconds, 4), "error": self.error or None,
                "located": None if self.located is None else str(self.located),
                "skipped": self.skipped or None, "cut": self.cut or None,
                "impossible": self.impossible, "unreached": self.unreached,
                "claimed": self.claimed or None,
                "rules": self.position.rules.to_dict(),
                "moves": [str(a) for a in self.position.moves]}


def check_positions(engine: Engine | None = None,
                    positions: Sequence[PerftPosition] | None = None, *,
                    max_depth: int | None = None, locate_mismatch: bool = True,
                    progress: Callable[[int, int, PerftCheck], None] | None = None,
                    budget: float | None = None) -> list[PerftCheck]:
    """Count every position with ``engine`` (default: the reference, in-process) and
    compare with the stored counts (up to ``max_depth``), depth by depth: an engine is
    counted to depth 1, compared, then to depth 2, and so on, and the first depth whose
    count differs ends that position (deeper counts are not worth their time). For such a
    position, ``locate_mismatch`` also finds the first path whose legal actions differ.
    ``budget`` is the most seconds spent on one position: no deeper count is started once
    it is spent (the result says so in :attr:`PerftCheck.cut`).

    A position whose rules the engine does not claim is counted under the rule set it
    claims that is nearest to them (:func:`claimed_position`: same deal, or a position of
    the same kind reached in a game under those rules), against counts the reference
    computes at run time; the result names the axes in :attr:`PerftCheck.claimed`. What
    the claim excludes (a player count, or no such rule set) is skipped with the reason,
    as is a position that, under the engine's rules, repeats one counted before.
    ``progress`` hears (positions done, positions in all, the result) after each one."""
    positions = load_positions() if positions is None else positions
    results: list[PerftCheck] = []
    capabilities = engine.capabilities() if engine is not None else None
    counted: dict[tuple[object, ...], str] = {}
    for index, stored in enumerate(positions):
        position: PerftPosition | str = stored
        if capabilities is not None:
            position = claimed_position(stored, capabilities, max_depth=max_depth)
        claimed = _claimed_text(stored, position)
        if not isinstance(position, str):
            key = (position.rules, position.deck, position.seed, position.moves)
            if key in counted:
                position = f"under the engine's rules ({claimed}) the same position as " \
                           f"{counted[key]}, counted already"
            else:
                counted[key] = stored.id
        if isinstance(position, str):
            depth = stored.depth if max_depth is None else min(max_depth, stored.depth)
            results.append(PerftCheck(stored, stored.counts[:depth], (), 0.0,
                                      skipped=position))
            if progress is not None:
                progress(index + 1, len(positions), results[-1])
            continue
        depth = position.depth if max_depth is None else min(max_depth, position.depth)
        expected = position.counts[:depth]
        started = time.perf_counter()
        error = cut = ""
        impossible = unreached = False
        counts: tuple[int, ...] = ()
        try:
            if engine is None:
                counts = perft(position.start(), depth)
            else:
                for level in range(1, depth + 1):
                    spent = time.perf_counter() - started
                    if budget is not None and level > 1 and spent > budget:
                        cut = (f"counted to depth {level - 1} of {depth}: the time budget "
                               f"of {budget:g} s was spent")
                        break
                    counts = perft_engine(engine, position.rules, position.deck,
                                          position.seed, level, position.moves)
                    if counts[-1] != expected[level - 1]:
                        break
        except PerftUnreachable as unreachable:
            error, unreached = str(unreachable), True
        except PerftImpossible as failure:
            error, impossible = str(failure), True
        except (PerftError, EngineFailure) as failure:
            error = str(failure)
            restart = getattr(engine, "restart", None)
            if isinstance(failure, EngineFailure) and callable(restart):
                restart()
        except (KeyboardInterrupt, SystemExit, MemoryError):
            raise
        except Exception as failure:  # an engine's exception is reported, not raised
            error = f"{type(failure).__name__}: {failure}"
        seconds = time.perf_counter() - started
        located = None
        mismatch = next((d for d, (a, b) in enumerate(zip(counts, expected, strict=False),
                                                      start=1) if a != b), None)
        if engine is not None and locate_mismatch and not error and mismatch is not None:
            try:
                located = locate(engine, position, mismatch)
            except (KeyboardInterrupt, SystemExit, MemoryError):
                raise
            except Exception as failure:  # the counts already tell the failure
                error = f"while locating the difference: {failure}"
        result = PerftCheck(position, expected, counts, seconds, error, located, cut=cut,
                            impossible=impossible, unreached=unreached, claimed=claimed)
        results.append(result)
        if progress is not None:
            progress(index + 1, len(positions), result)
    return results


def claimed_position(position: PerftPosition, capabilities: Capabilities, *,
                     budget: int = DEFAULT_BUDGET, max_depth: int | None = None
                     ) -> PerftPosition | str:
    """``position`` as an engine with these capabilities can be counted on: unchanged if
    it claims the position's rules; else under the nearest rule set it claims for as many
    players (:func:`~durak_spec.conformance.dependencies.nearest_claimed`, the choice
    lockstep makes too), with counts the reference computes now (to the depth whose tree
    visits at most ``budget`` positions, as the stored counts were, and no deeper than
    ``max_depth``). A deal is the same
    deal under those rules. A position from within a game is, for the stored kinds
    (:data:`_GAME_POSITIONS`), the first position of that kind in a seeded random game
    under those rules (so a turn-based engine gets a big hand, six attack cards, an
    empty stock ... under its own bout protocol); for other positions, the stored moves
    played under those rules. The reason to skip it otherwise: what the claim excludes,
    or that no game under those rules reaches it."""
    rules = nearest_claimed(capabilities, position.rules)
    if isinstance(rules, str):
        return rules
    if rules == position.rules:
        return position
    changed = _changes(position.rules, rules)
    deck, moves = position.deck, position.moves
    if moves:
        kind = next((d for d in _GAME_POSITIONS if d[0] == position.id), None)
        if kind is not None:
            needs = _NEEDS.get(kind[2])
            if needs is not None and not needs[0](rules):
                return (f"under the engine's rules ({changed}) no game reaches such a position: "
                        f"{needs[1]}")
            try:
                deck, moves = _reach(rules, kind[2], games=RUN_TIME_REACH_GAMES)
            except ValueError:
                return (f"under the engine's rules ({changed}) none of {RUN_TIME_REACH_GAMES} "
                        f"random games reaches such a position ({position.note})")
        else:
            state = new_game(rules, deck=deck, seed=position.seed)
            for number, action in enumerate(moves, start=1):
                if not is_legal(state, action):
                    return (f"under the engine's rules ({changed}) move {number} of the "
                            f"{len(moves)} that reach the position, {action}, is not legal")
                state = apply(state, action)
    adapted = PerftPosition(position.id, rules, deck, position.seed, (), position.note,
                            moves)
    return replace(adapted, counts=_deepest(adapted.start(), budget,
                                            MAX_DEPTH if max_depth is None else max_depth))


def _changes(stored: RuleSet, rules: RuleSet) -> str:
    """The axes where ``rules`` differ from ``stored``: ``turn_order=opener-first, ...``."""
    return ", ".join(f"{axis.name}={Axis.format(getattr(rules, axis.name))}" for axis in AXES
                     if getattr(rules, axis.name) != getattr(stored, axis.name))


def _claimed_text(stored: PerftPosition, position: PerftPosition | str) -> str:
    if isinstance(position, str) or position.rules == stored.rules:
        return ""
    return _changes(stored.rules, position.rules)


def _label(position: PerftPosition) -> str:
    rules = position.rules
    name = next((p.name for p in PROFILES.values()
                 if p.rules(players=rules.players).replace(turn_order=rules.turn_order)
                 == rules), "custom rules")
    order = f", turn_order={rules.turn_order.value}" \
        if name != "custom rules" and rules.turn_order is not TurnOrder.FREE else ""
    return f"{name}, {rules.players} players{order}"


def format_check(results: Sequence[PerftCheck]) -> str:
    """One line per position, the details of a mismatch, and a closing count line."""
    lines = []
    for result in results:
        position = result.position
        head = f"{position.id} ({_label(position)}), depth {len(result.expected)}"
        if result.claimed:
            head += f", under the engine's rules ({result.claimed}; counts from the reference)"
        if result.skipped:
            lines.append(f"skip  {head}: {result.skipped}")
            continue
        if position.moves:
            head += f", {len(position.moves)} actions into the game"
        if result.ok:
            lines.append(f"ok    {head}: {' '.join(map(str, result.counts))} "
                         f"({result.seconds:.2f} s)" + (f"; {result.cut}" if result.cut else ""))
            continue
        lines.append(f"FAIL  {head}")
        if result.error:
            lines.append(f"      {'rule' if result.rule_failure else 'error'}: {result.error}")
        if result.counts and result.first_mismatch is not None:
            depth = result.first_mismatch
            lines.append(f"      engine:   {' '.join(map(str, result.counts))}")
            lines.append(f"      expected: {' '.join(map(str, result.expected[:depth]))}"
                         + (f" (then {' '.join(map(str, result.expected[depth:]))})"
                            if depth < len(result.expected) else ""))
            lines.append(f"      first difference at depth {depth} (deeper counts skipped)")
        if result.located is not None:
            lines.append(f"      {result.located}")
    failed = sum(not r.ok for r in results)
    skipped = sum(bool(r.skipped) for r in results)
    seconds = sum(r.seconds for r in results)
    lines.append(f"{len(results)} positions: {len(results) - failed - skipped} ok, "
                 f"{failed} failed, {skipped} skipped ({seconds:.2f} s)")
    return "\n".join(lines)


# -- generating the data files -------------------------------------------------------------------


def stacked_deck(players: int, hands: Sequence[str] = (), face_up: str | None = None,
                 seed: int = 0) -> tuple[Card, ...]:
    """A deck order (CLAR-10) that deals ``hands`` (six cards each, for the first seats)
    and shows trump with ``face_up``; the other cards follow in a seeded shuffle. With six
    players every card is dealt and ``face_up`` must be in the sixth hand: it is dealt last."""
    dealt = [list(parse_cards(hand)) for hand in hands]
    if len(dealt) > players or any(len(hand) != 6 for hand in dealt):
        raise ValueError(f"give at most {players} hands of six cards each")
    last = parse_card(face_up) if face_up is not None else None
    used = [c for hand in dealt for c in hand]
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice")
    rest = [c for c in DECK if c not in used and c != last]
    random.Random(seed).shuffle(rest)
    for _ in range(players - len(dealt)):
        dealt.append([rest.pop() for _ in range(6)])
    if players == 6:
        return deck_order(dealt, trump_card=last)
    return deck_order(dealt, rest[:-1] if last is None else rest,
                      trump_card=rest[-1] if last is None else last)


_CLASSIC = profile("classic-throw-in")
_TRANSFER = profile("classic-transfer")

# The positions of the data files: (file, id, rules, hands, face-up card, note). Seats
# without a hand get cards from a seeded shuffle; the seed of every position is 0.
_DEFINITIONS: tuple[tuple[str, str, RuleSet, tuple[str, ...], str | None, str], ...] = (
    ("throw-in", "throw-in-2p", _CLASSIC.rules(2),
     ("6♥ 7♣ 7♦ 9♠ 9♦ K♣", "8♣ 8♦ 7♠ 10♠ J♥ A♣"), "Q♥",
     "P0 leads with the lowest trump; sevens and nines to throw in"),
    ("throw-in", "throw-in-3p", _CLASSIC.rules(3),
     ("8♠ 9♠ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 8♦ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "P1 leads (7♥); both others may throw in"),
    ("throw-in", "throw-in-4p", _CLASSIC.rules(4),
     ("6♣ 7♣ 7♠ 10♦ Q♣ K♦", "6♦ 8♣ 9♣ J♠ Q♠ A♣", "6♠ 7♦ 8♦ 9♥ 10♣ J♦",
      "6♥ 8♠ 9♦ 10♠ K♣ A♠"), "K♥",
     "P3 leads against P0; sixes are spread over three hands"),
    ("throw-in", "throw-in-6p", _CLASSIC.rules(6),
     ("6♣ 6♦ 9♠ J♣ Q♦ A♣", "7♣ 7♦ 8♠ 10♣ K♦ A♠", "6♠ 7♠ 9♣ 10♦ Q♣ K♠",
      "8♣ 8♦ 9♦ 10♠ J♦ Q♠", "7♥ 9♥ J♠ K♣ A♦ 6♥", "8♥ 10♥ J♥ Q♥ K♥ A♥"), "A♥",
     "six players, no stock: the ace of trumps dealt last shows trump (DEAL-8)"),
    ("transfer", "transfer-2p", _TRANSFER.rules(2),
     ("6♥ 7♣ 7♦ 9♠ 10♦ K♣", "7♠ 7♥ 8♣ 9♦ J♠ A♣"), "Q♥",
     "sevens can be transferred back and forth between the two players"),
    ("transfer", "transfer-3p", _TRANSFER.rules(3),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "P1 leads; sixes and eights can go round the table"),
    ("transfer", "transfer-4p", _TRANSFER.rules(4),
     ("7♣ 8♣ 9♣ Q♣ K♦ 10♦", "7♦ 8♦ 9♦ J♠ Q♠ A♣", "7♥ 8♥ 9♥ 6♠ 10♣ J♦",
      "6♥ 7♠ 8♠ 10♠ K♣ A♠"), "K♥",
     "every player holds a seven, an eight and (but P3) a nine: long transfer chains"),
    ("transfer", "transfer-6p", _TRANSFER.rules(6),
     ("6♣ 6♦ 9♠ J♣ Q♦ A♣", "7♣ 7♦ 8♠ 10♣ K♦ A♠", "6♠ 7♠ 9♣ 10♦ Q♣ K♠",
      "8♣ 8♦ 9♦ 10♠ J♦ Q♠", "7♥ 9♥ J♠ K♣ A♦ 6♥", "8♥ 10♥ J♥ Q♥ K♥ A♥"), "A♥",
     "six players with transfers; TRANSFER-3 limits who can be passed to"),
    ("variants", "source-b-multi-open-2p", profile("source-b").rules(2),
     ("6♥ 8♣ 8♦ 8♠ 10♣ 10♦", "7♣ 9♣ 9♦ J♠ Q♣ A♦"), "J♥",
     "source B: open with one card or several of a rank (ATTACK-2), start-hand limit"),
    ("variants", "trump-exchange-2p", _CLASSIC.rules(2).replace(trump_exchange=True),
     ("6♥ 7♣ 8♦ 9♠ J♣ K♦", "7♦ 8♣ 10♠ J♠ Q♣ A♣"), "A♥",
     "the six of trumps may be swapped for the face-up ace (VAR-1) before opening"),
    ("variants", "source-d-transfer-3p", profile("source-d-transfer").rules(3),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "source D: start-hand limit, drawing in the order of joining the attack"),
    ("variants", "show-trump-3p", _TRANSFER.rules(3).replace(transfer_by_showing_trump=True),
     ("8♠ 8♦ 10♣ J♣ Q♦ A♦", "6♠ 7♥ 8♣ 9♠ J♦ K♠", "6♣ 6♦ 8♥ 9♣ 10♦ Q♣"), "A♥",
     "transfer by showing a trump of the rank (TRANSFER-7): P2 may show 8♥"),
    ("variants", "neighbours-4p", _CLASSIC.rules(4).replace(throw_in=ThrowIn.NEIGHBOURS),
     ("6♣ 7♣ 7♠ 10♦ Q♣ K♦", "6♦ 8♣ 9♣ J♠ Q♠ A♣", "6♠ 7♦ 8♦ 9♥ 10♣ J♦",
      "6♥ 8♠ 9♦ 10♠ K♣ A♠"), "K♥",
     "only the attacker and the defender's left-hand neighbour throw in (ATTACK-4)"),
)


def _big_hand(state: GameState) -> bool:
    return max(map(len, state.hands)) >= 12 and bool(state.table)


def _six_attack_cards(state: GameState) -> bool:
    return len(state.table) == 6


def _five_after_the_first_bout(state: GameState) -> bool:
    # Five attack cards in a later bout, and a sixth may come (LIMIT-3 no longer holds).
    return (len(state.table) == 5 and state.bout > 0
            and any(a.kind == "throw" for a in legal_actions(state)))


def _out_seat_next(state: GameState) -> bool:
    # A player is out and sits right after the defender, and the bout can end at once:
    # the next roles must skip that seat (ORDER-6).
    out, players = state.out, state.players
    return (bool(out) and len(state.in_game()) >= 3 and bool(state.table)
            and all(p.cover for p in state.table)
            and any((state.defender + k) % players in out for k in (1, 2)))


def _empty_stock(state: GameState) -> bool:
    return not state.stock and len(state.in_game()) >= 3 and bool(state.table)


def _player_out(state: GameState) -> bool:
    return bool(state.finished) and len(state.in_game()) >= 3


def _short_next_hand(state: GameState) -> bool:
    # An attack the defender could transfer by rank, to a next player too short for it.
    if not state.rules.transfer or not state.table or any(p.cover for p in state.table):
        return False
    ranks = {p.attack.rank for p in state.table}
    if len(ranks) != 1 or not any(c.rank in ranks for c in state.hands[state.defender]):
        return False
    after = [s for s in state.in_game() if s != state.defender]
    nxt = min(after, key=lambda s: (s - state.defender) % state.players)
    return len(state.hands[nxt]) <= len(state.table) and len(state.in_game()) >= 3


def _endgame(state: GameState) -> bool:
    # The last bouts: nothing to draw, few cards left, the finish within reach.
    return (not state.stock and sum(map(len, state.hands)) <= 9 and not state.table
            and len(state.in_game()) >= 2)


def _last_two_out(state: GameState) -> bool:
    # Two players left, each within one card of going out: a draw can happen (END-4).
    rest = state.in_game()
    return (not state.stock and len(rest) == 2 and all(len(state.hands[s]) <= 2 for s in rest)
            and not state.table)


# Positions from the middle and the end of games: (id, rules, predicate, note). Each is the
# first position of a seeded random game of the reference (the first game from seed 0 on
# that reaches one) where the predicate holds; the file stores the deal and the moves.
_GAME_POSITIONS: tuple[tuple[str, RuleSet, Callable[[GameState], bool], str], ...] = (
    ("big-hand-2p", _CLASSIC.rules(2), _big_hand,
     "a hand of twelve cards or more, after takes, with a bout under way"),
    ("six-attack-cards-3p", _CLASSIC.rules(3), _six_attack_cards,
     "six attack cards on the table: no seventh may come (LIMIT-1)"),
    ("six-attack-cards-transfer-4p", _TRANSFER.rules(4), _six_attack_cards,
     "six attack cards with transfers: none may be added by a transfer (TRANSFER-4)"),
    ("five-attack-cards-later-3p", _CLASSIC.rules(3), _five_after_the_first_bout,
     "five attack cards after the first bout: a sixth may come (LIMIT-1, not LIMIT-3)"),
    ("out-seat-next-4p", _CLASSIC.rules(4), _out_seat_next,
     "the seat after the defender is out and the bout can end: the roles skip it (ORDER-6)"),
    ("out-seat-next-5p", _TRANSFER.rules(5), _out_seat_next,
     "the same in the transfer game, with five players"),
    ("empty-stock-4p", _CLASSIC.rules(4), _empty_stock,
     "the stock is empty and three or more still play: players go out (END-1)"),
    ("player-out-4p", _CLASSIC.rules(4), _player_out,
     "a player is out: roles skip them (ORDER-6)"),
    ("player-out-transfer-5p", _TRANSFER.rules(5), _player_out,
     "a player is out in the transfer game: transfers skip them too"),
    ("short-next-hand-3p", _TRANSFER.rules(3), _short_next_hand,
     "a transfer by rank that the next hand is too short for (TRANSFER-3)"),
    ("short-next-hand-4p", _TRANSFER.rules(4), _short_next_hand,
     "a transfer by rank that the next hand is too short for (TRANSFER-3)"),
    ("endgame-3p", _CLASSIC.rules(3), _endgame,
     "nothing to draw and at most nine cards left: counted to the end of the game"),
    ("endgame-transfer-3p", _TRANSFER.rules(3), _endgame,
     "the end of a transfer game: going out, the durak or a draw within reach"),
    ("last-two-2p", _CLASSIC.rules(2), _last_two_out,
     "two players with at most two cards each: a draw (END-4) or a durak (END-3)"),
    ("last-two-4p", _CLASSIC.rules(4), _last_two_out,
     "two players left of four, at most two cards each"),
)


_NEEDS: Mapping[Callable[[GameState], bool], tuple[Callable[[RuleSet], bool], str]] = \
    MappingProxyType({
        _short_next_hand: (lambda rules: rules.transfer,
                           "it needs the transfer game (TRANSFER-1)"),
    })
"""The kinds of position some rule sets never reach, with what they need: not searched
for at run time under rules without it."""


def _reach(rules: RuleSet, wanted: Callable[[GameState], bool], *, games: int = REACH_GAMES
           ) -> tuple[tuple[Card, ...], tuple[Action, ...]]:
    """The deal and the moves of the first seeded random game (of at most ``games``) that
    reaches ``wanted``."""
    from durak_spec.engine import deal

    for game in range(games):
        rng = random.Random(f"durak-spec perft/{game}")
        deck = deal(rules, game)
        state = new_game(rules, deck=deck, seed=0)
        moves: list[Action] = []
        while not state.is_over:
            if moves and wanted(state):
                return deck, tuple(moves)
            actions = legal_actions(state)
            # Takes are chosen more often than by chance: hands grow and games last.
            takes = [a for a in actions if a.kind == "take"]
            action = takes[0] if takes and rng.random() < 0.3 else rng.choice(actions)
            moves.append(action)
            state = apply(state, action)
    raise ValueError(f"no game of {rules} reached the position wanted")


def _deepest(state: GameState, budget: int, deepest: int = MAX_DEPTH) -> tuple[int, ...]:
    """The counts to the greatest depth (at most ``deepest``) whose tree visits at most
    ``budget`` positions (and one depth of 0 where every game has ended: deeper ones say
    nothing more)."""
    best = perft(state, 1)
    for depth in range(2, deepest + 1):
        if sum(best) > budget or best[-1] == 0:  # the next depth visits sum(best) positions
            break
        best = perft(state, depth)
    return best


def _file_names() -> list[str]:
    """The names of the data files :func:`generate` writes, in order."""
    names = dict.fromkeys(definition[0] for definition in _DEFINITIONS)
    if _GAME_POSITIONS:
        names["whole-game"] = None
    return list(names)


def generate(directory: Path | None = None, *, budget: int = DEFAULT_BUDGET) -> list[Path]:
    """Write the data files from :data:`_DEFINITIONS`, counted by the reference; the paths.

    The folder and every file are checked and opened before the counting starts: a
    :class:`~durak_spec.core.cliargs.CommandError` names what cannot be written (a file
    in place of the folder, a FIFO or a device in place of a file), and a file that
    cannot be written at the end (a full disk) is a
    :class:`~durak_spec.core.cliargs.StreamError`."""
    directory = check_output_folder(directory or data_dir(), "--dir")
    with contextlib.ExitStack() as stack:
        outputs = {name: stack.enter_context(OutputFile(directory / f"{name}.json", "--dir"))
                   for name in _file_names()}
        files: dict[str, list[PerftPosition]] = {name: [] for name in outputs}
        for name, ident, rules, hands, face_up, note in _DEFINITIONS:
            deck = stacked_deck(rules.players, hands, face_up)
            state = new_game(rules, deck=deck, seed=0)
            counts = _deepest(state, budget)
            files[name].append(PerftPosition(ident, rules, deck, 0, counts, note))
        for ident, rules, wanted, note in _GAME_POSITIONS:
            deck, moves = _reach(rules, wanted)
            position = PerftPosition(ident, rules, deck, 0, (), note, moves)
            files["whole-game"].append(
                replace(position, counts=_deepest(position.start(), budget)))
        for name, positions in files.items():
            outputs[name].write(_dump(positions))
    return [output.path for output in outputs.values()]


def _dump(positions: Sequence[PerftPosition]) -> str:
    """A perft file: one position per block, its lists on single lines."""
    def line(key: str, value: Any) -> str:
        return f"   {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"

    blocks = []
    for position in positions:
        fields = [line(key, value) for key, value in position.to_json().items()]
        blocks.append("  {\n" + ",\n".join(fields) + "\n  }")
    return (f'{{"format": "{PERFT_FORMAT}", "version": {PERFT_VERSION}, "positions": [\n'
            + ",\n".join(blocks) + "\n]}\n")


# -- the command line ----------------------------------------------------------------------------


def add_parser(subparsers: Subparsers) -> None:
    """Register ``durak-spec perft``."""
    parser = subparsers.add_parser(
        "perft", help="check, list or regenerate the perft counts of stacked deals",
        description="Perft-style counts of action sequences for stacked deals: check the "
                    "stored counts against the reference or an engine (the default), list "
                    "the stored positions, or regenerate the files from the reference. "
                    "Positions are deals and positions from the middle and end of games "
                    "(a deal and the moves that reach them); an engine is counted depth by "
                    "depth and stops at the first depth that differs, naming the first path "
                    "whose legal actions differ, and every report is audited. "
                    "Exit status: 0 if every count matches, 1 if not, 2 for bad input (a "
                    "--generate file or folder that cannot be written is refused before the "
                    "counting), 74 if a file cannot be written at the end.")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="compare the counts of an engine with the stored ones (default)")
    mode.add_argument("--generate", action="store_true",
                      help="rewrite the data files from the reference implementation")
    mode.add_argument("--list", action="store_true", help="list the stored positions")
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="perft files to check or list (default: the package's)")
    parser.add_argument("--engine", metavar="CMD", default=None,
                        help="the command of an engine speaking the protocol (default: the "
                             "reference implementation, in-process)")
    parser.add_argument("--timeout", metavar="S", type=_seconds, default=None,
                        help="time limit of each request to --engine, in seconds (default 5)")
    parser.add_argument("--max-depth", metavar="D", type=positive_count, default=None,
                        help="count no deeper than this (for slow engines)")
    parser.add_argument("--time-budget", metavar="S", type=_seconds, default=None,
                        dest="time_budget",
                        help="with --engine: the most seconds spent on one position; no "
                             "deeper count starts once they are spent (reported, not failed)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="with --generate: write here instead of the package directory")
    parser.add_argument("--budget", metavar="N", type=positive_count, default=None,
                        help=f"with --generate: the most positions visited per deal "
                             f"(default {DEFAULT_BUDGET})")
    parser.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def run(args: argparse.Namespace) -> int:
    """The handler of ``durak-spec perft``."""
    generating = {"--dir": args.dir, "--budget": args.budget}
    checking = {"--engine": args.engine, "--timeout": args.timeout,
                "--max-depth": args.max_depth, "--time-budget": args.time_budget}
    mode = "--generate" if args.generate else "--list" if args.list else "--check"
    wrong = {"--generate": {**checking, "FILE": args.files or None},
             "--list": {**generating, **checking}, "--check": generating}[mode]
    ignored = [name for name, value in wrong.items() if value is not None]
    if ignored:
        raise CommandError(f"{', '.join(ignored)} {'has' if len(ignored) == 1 else 'have'} no "
                           f"effect with {mode}; leave {'it' if len(ignored) == 1 else 'them'} "
                           "out")
    if args.generate:
        for path in generate(args.dir, budget=args.budget or DEFAULT_BUDGET):
            print(f"wrote {path}")
        return 0
    if args.timeout is not None and args.engine is None:
        raise CommandError("--timeout limits the requests to an --engine command; the "
                           "reference counts in-process")
    positions = load_positions(args.files or None)
    if args.list:
        for position in positions:
            print(f"{position.id}: {_label(position)}, depth {position.depth}: "
                  f"{' '.join(map(str, position.counts))}")
            print(f"  {format_cards(position.deck)}" + (f"\n  {position.note}"
                                                        if position.note else ""))
        return 0
    engine: Engine | None = None
    if args.engine is not None:
        from durak_spec.protocol.subprocess_engine import SubprocessEngine

        try:
            engine = SubprocessEngine(args.engine, timeout=args.timeout or 5.0)
        except EngineFailure as error:
            raise CommandError(f"--engine: {error}") from None
    progress = _progress(sys.stderr)
    try:
        results = check_positions(engine, positions, max_depth=args.max_depth,
                                  progress=progress, budget=args.time_budget)
    except EngineFailure as error:
        print(f"durak-spec perft: the engine failed: {error}", file=sys.stderr)
        return 1
    finally:
        if engine is not None:
            engine.close()
    print(format_check(results))
    return 0 if all(r.ok for r in results) else 1


def _progress(stream: TextIO) -> Callable[[int, int, PerftCheck], None]:
    tty = bool(getattr(stream, "isatty", lambda: False)())

    def note(done: int, total: int, result: PerftCheck) -> None:
        if tty:
            stream.write(f"\r\033[Kposition {done}/{total} ({result.position.id})"
                         + ("\n" if done == total else ""))
            stream.flush()

    return note
