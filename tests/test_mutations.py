"""The specification catches a broken rule: break the one function of a rule in the
reference engine and the scenarios of that rule fail, while the unbroken engine passes
them.

Each mutation swaps the code of one rule function of ``durak_spec.engine`` for a broken
version for the duration of the test (the function object stays the same, so every module
that imported it runs the broken rule; the reference engine, the step library and the
runner all run in this process). There is one mutation per rule module at least: since
each rule is decided in one function, breaking that function must be enough.
"""

from __future__ import annotations

import builtins
import dis
from collections.abc import Callable, Sequence
from types import CodeType, FunctionType
from typing import Any

import pytest

from durak_spec.core.cards import Card, Rank, Suit
from durak_spec.engine import (
    attack,
    beating,
    bout_end,
    dealing,
    draw,
    exchange,
    hands,
    limits,
    taking,
    transfer,
    turns,
)
from durak_spec.engine import seats as seating
from durak_spec.engine.breach import Breach
from durak_spec.model.actions import Action, ExchangeTrump
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState
from durak_spec.spec.runner import run

# The broken rules. Each keeps the signature of the function it replaces; its code runs
# with the globals of the replaced function's module, so it imports what it needs itself.


def _ignore_trumps(card: Card, attack: Card, trump: Suit) -> bool:
    # beating.beats without BEAT-2/3: only a higher card of the same suit beats.
    return card.suit == attack.suit and card.rank > attack.rank


def _no_capacity_check(state: GameState, count: int) -> Breach | None:
    # transfer.capacity_breach without TRANSFER-3: whatever the next player holds.
    return None


def _attack_ranks_only(table: Any) -> frozenset[Rank]:
    # attack.table_ranks without the cover cards' ranks (ATTACK-3, EX-3).
    return frozenset(pair.attack.rank for pair in table)


def _no_hand_limit(state: GameState) -> tuple[int, str]:
    # limits.attack_limit without LIMIT-2: only the six (or five) of the bout.
    from durak_spec.engine.limits import bout_cap

    return bout_cap(state)


def _take_when_covered(state: GameState, action: Action | None = None) -> Breach | None:
    # taking.take_breach without CLAR-4: the defender may take a fully covered table too.
    return None


def _always_clockwise(rules: RuleSet, opener: int, defender: int,
                      joined: Sequence[int] = (), attacker: int | None = None
                      ) -> tuple[int, ...]:
    # draw.draw_order without the join order of DRAW-2 / CLAR-8.
    players = rules.players
    start = draw_start(rules, opener, opener if attacker is None else attacker)  # noqa: F821
    clockwise = [(start + step) % players for step in range(players)]
    return (*(seat for seat in clockwise if seat != defender), defender)


def _always_from_opener(rules: RuleSet, opener: int, attacker: int) -> int:
    # draw.draw_start without CLAR-19: the last transferrer never draws first.
    return opener


def _dones_never_lifted(state: GameState) -> bool:
    # turns.thrown_in_lifts_dones without CLAR-21: a done during a take is always final.
    return False


def _nobody_passed_over(state: GameState) -> frozenset[int]:
    # seats.passed_over without CLAR-23: a player who just went out is never skipped.
    return state.out


def _taker_attacks(state: GameState, taken: bool, out: frozenset[int]) -> tuple[int, int]:
    # bout_end.next_roles without ORDER-5 / TAKE-4: a defender who took attacks next.
    from durak_spec.engine.seats import next_in_game

    players = len(state.hands)
    attacker = state.defender
    if attacker in out:
        attacker = next_in_game(attacker, players, out)
    return attacker, next_in_game(attacker, players, out)


def _nobody_skipped(seat: int, players: int, out: Any = ()) -> int:
    # seats.next_in_game without ORDER-6: players who are out are not passed over.
    return (seat + 1) % players


def _first_seat_leads(hands: Any, trump: Suit, rules: RuleSet,
                      seed: int | None = None) -> tuple[int, str]:
    # dealing.first_attacker without ORDER-1: the first seat always attacks first.
    return 0, "the first seat attacks"


def _done_never_counts(state: GameState, ranks: frozenset[Rank] | None = None
                       ) -> tuple[int, ...]:
    # turns.pending without the done of CLAR-3: a player who said done is still asked.
    from durak_spec.engine.attack import table_ranks, throwers
    from durak_spec.engine.limits import attack_limit

    if not state.table or len(state.table) >= attack_limit(state)[0]:
        return ()
    if ranks is None:
        ranks = table_ranks(state.table)
    return tuple(seat for seat in throwers(state)
                 if any(card.rank in ranks for card in state.hands[seat]))


def _exchange_any_time(state: GameState, action: ExchangeTrump) -> Breach | None:
    # exchange.exchange_breach without CLAR-5: the attacker may always exchange.
    from durak_spec.core.cards import Card, Rank
    from durak_spec.engine.breach import Breach
    from durak_spec.engine.hands import holds_breach

    if not state.rules.trump_exchange or not state.stock:
        return Breach("VAR-1", "these rules have no trump exchange")
    return holds_breach(state, action.player, (Card(Rank.SIX, state.trump),))


def _known_cards_stay(state: GameState, seat: int, cards: tuple[Card, ...]
                      ) -> tuple[tuple[tuple[Card, ...], ...], tuple[frozenset[Card], ...]]:
    # hands.play_cards without VIEW-2: a known card stays "known" after it is played.
    hand = tuple([card for card in state.hands[seat] if card not in cards])
    return (*state.hands[:seat], hand, *state.hands[seat + 1:]), state.known


def _cover_ignored(state: GameState, action: Any) -> Breach | None:
    # beating.cover_place_breach without BEAT-6: a covered card may be covered again.
    from durak_spec.engine.breach import Breach

    return None if any(p.attack == action.attack for p in state.table) else \
        Breach("BEAT-6", "not on the table")


MUTATIONS: list[tuple[str, Callable[..., object], Callable[..., object]]] = [
    ("BEAT-2", beating.beats, _ignore_trumps),
    ("EX-7", beating.beats, _ignore_trumps),
    ("BEAT-6", beating.cover_place_breach, _cover_ignored),
    ("TRANSFER-3", transfer.capacity_breach, _no_capacity_check),
    ("EX-3", attack.table_ranks, _attack_ranks_only),
    ("LIMIT-2", limits.attack_limit, _no_hand_limit),
    ("CLAR-4", taking.take_breach, _take_when_covered),
    ("DRAW-2", draw.draw_order, _always_clockwise),
    ("CLAR-19", draw.draw_start, _always_from_opener),
    ("CLAR-21", turns.thrown_in_lifts_dones, _dones_never_lifted),
    ("CLAR-23", seating.passed_over, _nobody_passed_over),
    ("ORDER-5", bout_end.next_roles, _taker_attacks),
    ("ORDER-6", seating.next_in_game, _nobody_skipped),
    ("ORDER-1", dealing.first_attacker, _first_seat_leads),
    ("CLAR-3", turns.pending, _done_never_counts),
    ("CLAR-5", exchange.exchange_breach, _exchange_any_time),
    ("VIEW-2", hands.play_cards, _known_cards_stay),
]


def _globals_read(code: CodeType) -> set[str]:
    names = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= _globals_read(constant)
    return names


def test_every_rule_module_is_mutated_by_code_that_runs_there() -> None:
    mutated = {target.__module__ for _, target, _ in MUTATIONS}
    rule_modules = {"attack", "beating", "bout_end", "dealing", "draw", "exchange", "hands",
                    "limits", "seats", "taking", "transfer", "turns"}
    assert mutated == {f"durak_spec.engine.{name}" for name in rule_modules}
    # A broken rule that named a global its target's module lacks would only make the
    # scenarios error out, for the wrong reason: every global it reads exists there.
    for _, target, broken in MUTATIONS:
        assert isinstance(target, FunctionType) and isinstance(broken, FunctionType)
        assert target.__code__.co_freevars == broken.__code__.co_freevars == ()
        # The broken code runs with the target's defaults: it must take the same arguments.
        count = target.__code__.co_argcount + target.__code__.co_kwonlyargcount
        assert (broken.__code__.co_argcount, broken.__code__.co_kwonlyargcount) == (
            target.__code__.co_argcount, target.__code__.co_kwonlyargcount), broken.__name__
        assert broken.__code__.co_varnames[:count] == target.__code__.co_varnames[:count], \
            broken.__name__
        missing = sorted(name for name in _globals_read(broken.__code__)
                         if name not in target.__globals__ and not hasattr(builtins, name))
        assert not missing, f"{broken.__name__} reads {missing}, unknown in {target.__module__}"


@pytest.mark.parametrize(("rule", "target", "broken"), MUTATIONS,
                         ids=[f"{rule}-{target.__name__}" for rule, target, _ in MUTATIONS])
def test_a_broken_rule_fails_its_scenarios(rule: str, target: FunctionType,
                                           broken: FunctionType,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(rules=[rule]).ok, f"the reference must pass {rule} before it is broken"
    monkeypatch.setattr(target, "__code__", broken.__code__)
    broken_run = run(rules=[rule])
    failed = broken_run.with_outcome("failed")
    assert failed, f"breaking {target.__name__} made none of the {rule} scenarios fail"
    assert not broken_run.with_outcome("errored"), "a broken rule answers wrongly, not crash"
    assert all(rule in result.rule_ids for result in failed)
