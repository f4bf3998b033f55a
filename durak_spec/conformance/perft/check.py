"""Checking an engine's counts against the stored ones, under the rules it claims, and
the report of the check."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from durak_spec.conformance.perft.counting import (
    DEFAULT_BUDGET,
    MAX_DEPTH,
    Located,
    PerftError,
    PerftImpossible,
    PerftUnreachable,
    deepest,
    locate,
    perft,
    perft_engine,
)
from durak_spec.conformance.perft.games import GAME_POSITIONS, NEEDS, RUN_TIME_REACH_GAMES, reach
from durak_spec.conformance.perft.positions import PerftPosition, label, load_positions
from durak_spec.engine import apply, is_legal, new_game
from durak_spec.model.rules import AXES, Axis, RuleSet
from durak_spec.protocol import Capabilities, Engine
from durak_spec.protocol.claims import nearest_claimed
from durak_spec.protocol.subprocess_engine import EngineFailure


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
    error_rule: str = ""
    """The rule ID an impossible report or an unreached position names."""
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
    def rule(self) -> str | None:
        """The rule the engine breaks, where known: the reference's decision on the first
        differing move (:attr:`Located.rule`), or the rule of an impossible report or of
        a move on the way that the engine rejected."""
        if self.located is not None and self.located.rule is not None:
            return self.located.rule
        return self.error_rule or None

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
                "rule": self.rule,
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
        error = cut = error_rule = ""
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
            error_rule = getattr(unreachable, "rule", None) or ""
        except PerftImpossible as failure:
            error, impossible = str(failure), True
            error_rule = getattr(failure, "rule", None) or ""
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
                            impossible=impossible, unreached=unreached, claimed=claimed,
                            error_rule=error_rule if isinstance(error_rule, str) else "")
        results.append(result)
        if progress is not None:
            progress(index + 1, len(positions), result)
    return results


def claimed_position(position: PerftPosition, capabilities: Capabilities, *,
                     budget: int = DEFAULT_BUDGET, max_depth: int | None = None
                     ) -> PerftPosition | str:
    """``position`` as an engine with these capabilities can be counted on: unchanged if
    it claims the position's rules; else under the nearest rule set it claims for as many
    players (:func:`~durak_spec.protocol.claims.nearest_claimed`, the choice
    lockstep makes too), with counts the reference computes now (to the depth whose tree
    visits at most ``budget`` positions, as the stored counts were, and no deeper than
    ``max_depth``). A deal is the same
    deal under those rules. A position from within a game is, for the stored kinds
    (:data:`GAME_POSITIONS`), the first position of that kind in a seeded random game
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
        kind = next((d for d in GAME_POSITIONS if d[0] == position.id), None)
        if kind is not None:
            needs = NEEDS.get(kind[2])
            if needs is not None and not needs[0](rules):
                return (f"under the engine's rules ({changed}) no game reaches such a position: "
                        f"{needs[1]}")
            try:
                deck, moves = reach(rules, kind[2], games=RUN_TIME_REACH_GAMES)
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
    return replace(adapted, counts=deepest(adapted.start(), budget,
                                            MAX_DEPTH if max_depth is None else max_depth))


def _changes(stored: RuleSet, rules: RuleSet) -> str:
    """The axes where ``rules`` differ from ``stored``: ``turn_order=opener-first, ...``."""
    return ", ".join(f"{axis.name}={Axis.format(getattr(rules, axis.name))}" for axis in AXES
                     if getattr(rules, axis.name) != getattr(stored, axis.name))


def _claimed_text(stored: PerftPosition, position: PerftPosition | str) -> str:
    if isinstance(position, str) or position.rules == stored.rules:
        return ""
    return _changes(stored.rules, position.rules)



def format_check(results: Sequence[PerftCheck]) -> str:
    """One line per position, the details of a mismatch, and a closing count line."""
    lines = []
    for result in results:
        position = result.position
        head = f"{position.id} ({label(position)}), depth {len(result.expected)}"
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
        lines.append(f"FAIL  {head}" + (f": the engine breaks {result.rule}" if result.rule
                                        else ""))
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
