"""The strict check of positions, ``check_reachable`` (issue 13: every position a game
can reach).

Every state met in random play, of every profile and switch set with 2 to 6 players,
passes it; each class of impossible position the issue found is refused with the rule it
breaks, although ``validate_state`` (the structural check) accepts it.
"""

from __future__ import annotations

import json
import random

import hypothesis
import pytest
from hypothesis import strategies as st

from durak_spec.core.cards import Card, Rank, Suit
from durak_spec.core.errors import InvalidState
from durak_spec.engine import apply, legal_actions, new_game, validate_state
from durak_spec.engine.reachable import (
    INVARIANTS,
    check_reachable,
    gone_out_breach,
    reachable_breach,
)
from durak_spec.game.persist import state_to_json
from durak_spec.model.rules import PROFILES, NoTrumpLead, RuleSet
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.state import GameState, Pair, sort_cards
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server

SWITCHES = PROFILES["classic-transfer"].rules().replace(
    transfer_by_showing_trump=True, trump_exchange=True, multi_card_opening=True,
    throw_in=ThrowInRule.NEIGHBOURS, no_trump_lead=NoTrumpLead.FIRST_SEAT)
RULE_SETS = [PROFILES[name].rules(players=n) for name in PROFILES for n in range(2, 7)]
RULE_SETS += [SWITCHES.with_players(n) for n in range(2, 7)]


def play_through(rules: RuleSet, seed: int) -> list[GameState]:
    """Every state of one random game from the deal of ``seed``, to its end."""
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    states = [state]
    for _ in range(2000):
        actions = legal_actions(state)
        if not actions:
            break
        state = apply(state, rng.choice(actions))
        states.append(state)
    return states


@hypothesis.settings(max_examples=150, deadline=None, derandomize=True, database=None,
                     suppress_health_check=[hypothesis.HealthCheck.too_slow])
@hypothesis.given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_every_state_of_random_play_is_reachable(rules: RuleSet, seed: int) -> None:
    for state in play_through(rules, seed):
        breach = reachable_breach(validate_state(state))
        assert breach is None, f"{breach}\n{state.describe()}\n{state}"


def test_every_rule_set_plays_a_whole_game_through_the_strict_check() -> None:
    for index, rules in enumerate(RULE_SETS):
        states = play_through(rules, index)
        assert states[-1].is_over, rules
        for state in states:
            check_reachable(state)


def test_every_invariant_names_a_rule_in_its_docstring() -> None:
    for invariant in INVARIANTS:
        doc = invariant.__doc__ or ""
        assert doc.split(":")[0].replace("-", "").isalnum() and "-" in doc.split(":")[0], \
            invariant.__name__


# -- the impossible positions of issue 13 ------------------------------------------------

C = Card


def later_bout(rules: RuleSet | None = None) -> GameState:
    """A reachable position between bouts: after bout 1 of a seeded two-player game."""
    state = new_game(rules or PROFILES["classic-throw-in"].rules(), seed=5)
    rng = random.Random(1)
    while state.bout == 0:
        state = apply(state, rng.choice(legal_actions(state)))
    return check_reachable(state)


def refused(state: GameState, rule: str) -> InvalidState:
    validate_state(state)  # the structural check lets it through ...
    with pytest.raises(InvalidState) as caught:  # ... the strict check does not
        check_reachable(state)
    assert caught.value.rule == rule, caught.value
    return caught.value


def test_an_odd_discard_pile_is_refused() -> None:
    state = later_bout()
    card = state.hands[0][0]
    hands = (state.hands[0][1:], *state.hands[1:])
    odd = state._replace(hands=hands, discard=sort_cards((*state.discard, card)),
                         start_hands=tuple(map(len, hands)))
    refused(odd, "DEFEND-1")


def test_a_discard_before_the_first_bout_ended_is_refused() -> None:
    state = new_game(PROFILES["classic-throw-in"].rules(), seed=3)
    moved = state.stock[:2]
    early = state._replace(stock=state.stock[2:], discard=sort_cards(moved))
    refused(early, "DEAL-4")  # the stock is short; with the stock whole, the discard:
    hand = state.hands[0]
    early = state._replace(hands=(hand[2:], *state.hands[1:]), discard=sort_cards(hand[:2]))
    refused(early, "DEFEND-1")


def test_start_hands_that_do_not_match_the_hands_are_refused() -> None:
    state = later_bout()
    refused(state._replace(start_hands=(999, 0)), "LIMIT-2")
    opened = apply(state, legal_actions(state)[0])
    refused(opened._replace(start_hands=(0, 0)), "LIMIT-2")


def test_a_short_hand_between_bouts_while_the_stock_lasts_is_refused() -> None:
    state = later_bout()
    assert state.stock
    short = state.hands[state.attacker][:1]
    rest = state.hands[state.attacker][1:]
    hands = list(state.hands)
    hands[state.attacker] = short
    broken = state._replace(hands=tuple(hands), discard=sort_cards((*state.discard, *rest))
                            if len(rest) % 2 == 0 else state.discard,
                            start_hands=tuple(map(len, hands)))
    if len(rest) % 2:  # keep the discard even: one card back to the stock's top
        broken = broken._replace(stock=(rest[0], *state.stock),
                                 discard=sort_cards((*state.discard, *rest[1:])))
    error = refused(broken, "DRAW-1")
    assert "holds 1 card" in error.reason


def test_six_unrelated_attack_cards_in_the_first_bout_are_refused() -> None:
    rules = PROFILES["classic-throw-in"].rules().replace(first_bout_limit_five=False)
    attacks = [C(Rank.SIX, Suit.CLUBS), C(Rank.SEVEN, Suit.DIAMONDS), C(Rank.EIGHT, Suit.CLUBS),
               C(Rank.NINE, Suit.DIAMONDS), C(Rank.TEN, Suit.CLUBS), C(Rank.JACK, Suit.DIAMONDS)]
    others = [c for c in (C(r, s) for s in Suit for r in Rank) if c not in attacks]
    defender = sort_cards([c for c in others if c.suit is Suit.SPADES][:6])
    rest = [c for c in others if c not in defender]
    face_up = C(Rank.ACE, Suit.HEARTS)
    stock = (*(c for c in rest if c != face_up), face_up)
    assert len(stock) == 24  # 6 on the table, 6 in P1's hand, 24 in the stock
    state = GameState(rules=rules, hands=((), defender), stock=stock, trump=Suit.HEARTS,
                      table=tuple(Pair(a) for a in attacks), joined=(0,),
                      start_hands=(6, 6), known=(frozenset(), frozenset()))
    refused(state, "ATTACK-3")


def test_a_finished_game_still_taking_with_passes_is_refused() -> None:
    states = play_through(PROFILES["classic-throw-in"].rules(), 11)
    over = states[-1]
    assert over.is_over
    check_reachable(over._replace(bout=10**100))  # a long game is no impossibility
    refused(over._replace(taking=True, passed=frozenset({0})), "CLAR-2")


def test_more_groups_out_than_bouts_ended_is_refused() -> None:
    over = play_through(PROFILES["classic-throw-in"].rules(), 11)[-1]
    early = over._replace(bout=len(over.finished) - 1)
    breach = gone_out_breach(early)
    assert breach is not None and breach.rule == "END-1"
    with pytest.raises(InvalidState):  # (another invariant may speak first)
        check_reachable(early)


def test_the_wire_load_refuses_an_unreachable_position_with_its_rule() -> None:
    state = later_bout()
    odd = state._replace(start_hands=(999, 0))
    server = Server(ReferenceEngine())
    for position, answer in ((state, None), (odd, "LIMIT-2")):
        line = json.dumps({"id": 1, "cmd": "load", "state": state_to_json(position)})
        reply = json.loads(server.handle(line) or "{}")
        assert reply.get("rule") == answer, reply
        assert reply["ok"] is (answer is None), reply


def test_a_done_from_a_player_who_may_not_add_cards_is_refused() -> None:
    rules = PROFILES["classic-throw-in"].rules(players=3).replace(throw_in=ThrowInRule.ATTACKER)
    state = new_game(rules, seed=2)
    opened = apply(state, legal_actions(state)[0])
    bystander = next(seat for seat in range(3) if seat not in (opened.attacker, opened.defender))
    refused(opened._replace(passed=frozenset({bystander})), "CLAR-3")
