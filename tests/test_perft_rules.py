"""Perft names the rule of the first differing move (issue 24): the reference's decision
on the action the engine lists and the rules forbid, on the actions it misses, or on the
step whose report differs; and the stored positions from within games catch a broken
five-card first bout (LIMIT-3) and a player out while the stock lasts (END-2).

The engines are broken copies of the reference (``tests/helpers.BrokenReference``), one
rule function's code swapped while the engine answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers import BrokenReference
from test_perft_whole_game import MUTATIONS

from durak_spec.conformance.perft import (
    PerftPosition,
    check_positions,
    format_check,
    load_positions,
)
from durak_spec.engine import bout_end, limits
from durak_spec.model.state import GameState

DEPTH = 4


@pytest.fixture(scope="module")
def whole_game() -> list[PerftPosition]:
    return [p for p in load_positions() if p.moves]


def _no_first_bout_five(state: GameState) -> tuple[int, str]:
    # limits.bout_cap without LIMIT-3: six attack cards in the first bout too.
    return 6, "LIMIT-1"


def _five_while_nothing_discarded(state: GameState) -> tuple[int, str]:
    # limits.bout_cap reading LIMIT-3's first bout as "nothing discarded yet", as some
    # engines do: five attack cards in every bout until the first is beaten off.
    if state.rules.first_bout_limit_five and not state.discard:
        return 5, "LIMIT-3"
    return 6, "LIMIT-1"


def _out_before_drawing(state: Any, events: Any) -> Any:
    # bout_end.end_bout without END-2: a player whose hand is empty when the bout ends is
    # out at once, before anyone draws, although the stock still holds cards.
    taken = state.taking
    hands = list(state.hands)
    known = list(state.known)
    discard = state.discard
    table = state.table_cards()
    defender = state.defender
    if taken:
        hands[defender] = tuple(sorted(hands[defender] + table))
        known[defender] = known[defender].union(table)
    else:
        discard = add_cards(discard, table)  # noqa: F821
    if events is not None:
        events.append(BoutEnded(state.bout + 1, defender if taken else None, table,  # noqa: F821
                                settle_rule(state)))  # noqa: F821
    finished = state.finished
    out = state.out if finished else _NOBODY  # noqa: F821
    gone = tuple([seat for seat in range(len(hands)) if seat not in out and not hands[seat]])
    if gone:
        finished = (*finished, gone)
        out = out | frozenset(gone)
        if events is not None:
            events.append(WentOut(gone, "END-1"))  # noqa: F821
    stock = state.stock
    if stock:
        order = [s for s in draw_order(state.rules, state.opener, defender,  # noqa: F821
                                       state.joined, state.attacker) if s not in out]
        rule = draw_rule(state.rules, state.opener, state.attacker)  # noqa: F821
        stock = draw(state.rules, order, hands, stock, known, events, rule)  # noqa: F821
    if game_ends(state.rules.goal, out, len(hands)):  # noqa: F821
        rest = tuple(seat for seat in range(len(hands)) if seat not in out)
        attacker = next_defender = rest[0] if rest else state.attacker
        if events is not None:
            events.append(GameOver(Outcome.of(finished, rest),  # noqa: F821
                                   outcome_rule(state.rules.goal, 0, out, len(hands))))  # noqa: F821
    else:
        attacker, next_defender = next_roles(state, taken, out)  # noqa: F821
        if events is not None:
            events.append(NextBout(state.bout + 2, attacker, next_defender,  # noqa: F821
                                   roles_rule(state, taken, out)))  # noqa: F821
    return GameState(
        rules=state.rules, hands=tuple(hands), stock=stock, trump=state.trump, table=(),
        discard=discard, attacker=attacker, defender=next_defender, opener=attacker,
        bout=state.bout + 1, taking=False, passed=_NOBODY, joined=(),  # noqa: F821
        start_hands=tuple(map(len, hands)), shown=_NONE_SHOWN, known=tuple(known),  # noqa: F821
        finished=finished, thrower=None)


NAMED: list[tuple[str, Any, Callable[..., object], str]] = [
    *[(name, target, broken, rule) for (name, target, broken), rule in zip(
        MUTATIONS, ("LIMIT-1", "LIMIT-3", "TRANSFER-3", "ORDER-6"), strict=True)],
    ("no five-card first bout", limits.bout_cap, _no_first_bout_five, "LIMIT-3"),
    ("five cards while nothing is discarded", limits.bout_cap, _five_while_nothing_discarded,
     "LIMIT-3"),
    ("out while the stock lasts", bout_end.end_bout, _out_before_drawing, "END-2"),
]


@pytest.mark.parametrize(("name", "target", "broken", "rule"), NAMED,
                         ids=[n[0] for n in NAMED])
def test_perft_names_the_rule_a_broken_copy_breaks(
        name: str, target: Any, broken: Callable[..., object], rule: str,
        whole_game: list[PerftPosition]) -> None:
    results = check_positions(BrokenReference(target, broken), whole_game, max_depth=DEPTH)
    failures = [r for r in results if not r.ok]
    assert failures, f"{name}: every count matched"
    text = format_check(failures)
    assert rule in {f.rule for f in failures}, text
    assert f": the engine breaks {rule}" in text
    located = [f for f in failures if f.located is not None]
    for failure in located:  # the rule comes with what the engine did there
        assert "\n      rule: the engine " in str(failure.located)
        assert failure.to_json()["rule"] == failure.rule


def test_a_move_refused_by_a_limit_is_that_limits_not_turn_order(
        whole_game: list[PerftPosition]) -> None:
    # Five attack cards in every bout (LIMIT-3 broken): on the way to a stored position the
    # engine refuses a sixth card in a later bout, naming its limit, and lists only the
    # defender's take. Another seat acts, but not by the bout protocol: the difference is
    # the refused move, named by the reference's grounds for it (LIMIT-3), not CLAR-3.
    from broken_reference import BREAKS

    results = check_positions(BrokenReference(*BREAKS["LIMIT-3"]), whole_game,
                              max_depth=DEPTH)
    failures = [r for r in results if not r.ok]
    assert failures and {f.rule for f in failures} == {"LIMIT-3"}, format_check(failures)
