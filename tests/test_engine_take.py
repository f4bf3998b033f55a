"""Taking the cards (TAKE-1 .. TAKE-4, CLAR-4, ORDER-5)."""

from __future__ import annotations

import pytest
from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    Cover,
    Done,
    InvalidState,
    RuleSet,
    Take,
    ThrowIn,
    legal_actions,
    parse_card,
)
from durak_spec.model.rules import ThrowIn as Who

C = parse_card
TWO = RuleSet(players=2)
THREE = RuleSet(players=3, throw_in=Who.ALL)


def test_the_defender_may_take_though_able_to_beat() -> None:  # TAKE-1
    state = position(TWO, hands={0: "6♦ 8♠", 1: "9♣ 10♠"}, table="7♣")
    assert actions_of(state, 1) == {Cover(1, C("7♣"), C("9♣")), Take(1)}
    after = play(state, "P1 take")  # P0 has no seven to add: the bout ends at once
    assert after.table == ()
    assert after.hands[1] == cards("9♣ 10♠ 7♣")


def test_the_defender_who_cannot_beat_may_only_take() -> None:  # TAKE-1
    state = position(TWO, hands={0: "6♦ 8♠", 1: "6♣ 10♠"}, table="7♣", stock=10)
    assert actions_of(state, 1) == {Take(1)}


def test_only_the_defender_takes() -> None:  # TAKE-1
    state = position(THREE, hands={0: "6♦ 8♠", 1: "6♣ 10♠", 2: "K♦"}, table="7♣", stock=10)
    for seat in (0, 2):
        error = assert_illegal(state, f"P{seat} take", "TAKE-1")
        assert "defender" in error.reason


def test_taking_moves_every_table_card_into_the_defenders_hand() -> None:  # TAKE-2, VIEW-2
    state = position(TWO, hands={0: "6♦ 8♠", 1: "6♣ 10♠ A♠ K♠ Q♠ J♠"},
                     table="7♣/9♣ 7♦/10♦ 9♠", stock=10)
    after = play(state, "P1 take")
    assert after.table == ()
    assert after.hands[1] == cards("6♣ 10♠ A♠ K♠ Q♠ J♠ 7♣ 9♣ 7♦ 10♦ 9♠")
    assert after.known[1] == frozenset(cards("7♣ 9♣ 7♦ 10♦ 9♠"))
    assert after.discard == state.discard
    assert not after.taking
    assert after.bout == state.bout + 1


def test_after_a_take_the_attackers_may_still_add_cards() -> None:  # TAKE-3
    state = position(THREE, hands={0: "7♦ 9♠ K♦", 1: "6♣ 10♠ 10♣ 6♥", 2: "9♥ 8♠"},
                     table="7♣/9♣ 7♠", stock=10)
    taking = play(state, "P1 take")
    assert taking.taking
    assert taking.table == state.table
    assert actions_of(taking) == {ThrowIn(0, C("7♦")), ThrowIn(0, C("9♠")), Done(0),
                                  ThrowIn(2, C("9♥")), Done(2)}
    added = play(taking, "P2 throw 9♥", "P0 throw 7♦")
    assert added.attack_cards == (C("7♣"), C("7♠"), C("9♥"), C("7♦"))
    assert actions_of(added) == {ThrowIn(0, C("9♠")), Done(0)}  # P2 has nothing to add
    done = play(added, "P0 done")
    assert done.table == ()
    assert done.hands[1] == cards("6♣ 10♠ 10♣ 6♥ 7♣ 9♣ 7♠ 9♥ 7♦")


def test_after_a_take_the_defender_does_nothing_more() -> None:  # CLAR-4
    rules = RuleSet(players=2, transfer=True)
    state = position(rules, hands={0: "7♦ 9♠", 1: "10♣ 7♥ 6♥"}, table="7♣", stock=10)
    taking = play(state, "P1 take")
    assert actions_of(taking, 1) == set()
    assert_illegal(taking, "P1 cover 7♣ with 10♣", "CLAR-4")
    assert_illegal(taking, "P1 transfer 7♥", "CLAR-4")
    error = assert_illegal(taking, "P1 take", "CLAR-4")
    assert "already" in error.reason


def test_nothing_to_take_once_everything_is_covered() -> None:  # CLAR-4
    state = position(TWO, hands={0: "7♦ 9♠", 1: "10♣ 6♥"}, table="7♣/8♣", stock=10)
    assert Take(1) not in actions_of(state)
    error = assert_illegal(state, "P1 take", "CLAR-4")
    assert "covered" in error.reason


def test_cards_added_after_a_take_stay_within_the_limit() -> None:  # TAKE-3, LIMIT-2
    state = position(TWO, hands={0: "7♦ 7♠ 7♥", 1: "6♣ 10♠"}, table="7♣")
    taking = play(state, "P1 take")
    assert actions_of(taking) == {ThrowIn(0, C("7♦")), ThrowIn(0, C("7♠")),
                                  ThrowIn(0, C("7♥")), Done(0)}
    ended = play(taking, "P0 throw 7♦")  # two cards against a hand of two: no room left
    assert ended.table == ()
    assert ended.hands[1] == cards("6♣ 10♠ 7♣ 7♦")
    assert ended.hands[0] == cards("7♠ 7♥")


@pytest.mark.parametrize(("table", "taking"), [("7♣ 7♦", True), ("7♣/9♣", False)])
def test_a_valid_position_with_no_legal_action_is_over(table: str, taking: bool) -> None:
    # legal_actions' docstring: "The game is over when this is empty." A hand-made position
    # in which the bout should already have ended (a take with no room left to add, or
    # every card covered and no attacker with a card to add) passes validate_state, yet
    # nobody can act in it and the game is not over.
    try:
        state = position(TWO, hands={0: "8♠ K♦", 1: "6♣ 10♠"}, table=table, taking=taking)
    except InvalidState:
        return  # rejecting such a position would be fine too
    assert legal_actions(state) != () or state.is_over


def test_the_taker_loses_the_attack_with_two_players() -> None:  # TAKE-4, ORDER-5
    state = position(TWO, hands={0: "6♦ 8♠", 1: "6♣ 10♠"}, table="7♣", stock=10)
    after = play(state, "P1 take")
    assert (after.attacker, after.defender, after.opener) == (0, 1, 0)


def test_the_taker_loses_the_attack_with_three_players() -> None:  # TAKE-4, ORDER-5
    state = position(THREE, hands={0: "6♦ 8♠", 1: "6♣ 10♠", 2: "K♦ Q♠"}, table="7♣",
                     stock=10)
    after = play(state, "P1 take")
    assert (after.attacker, after.defender) == (2, 0)


def test_the_taker_loses_the_attack_with_four_players() -> None:  # TAKE-4, ORDER-5
    rules = RuleSet(players=4)
    state = position(rules, hands={0: "6♦ 8♠", 1: "6♣ 10♠", 2: "K♦ Q♠", 3: "A♦"},
                     attacker=3, table="7♣", stock=10)
    assert state.defender == 0
    after = play(state, "P0 take")
    assert (after.attacker, after.defender) == (1, 2)
