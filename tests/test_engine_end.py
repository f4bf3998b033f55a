"""The end of the game and the next roles (END-1 .. END-6, EX-8, ORDER-4 .. ORDER-6,
CLAR-2, CLAR-9, CLAR-12, CLAR-13, CLAR-15)."""

from __future__ import annotations

import pytest
from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    InvalidState,
    LimitReading,
    Outcome,
    RuleSet,
    Take,
    ThrowIn,
    legal_actions,
    parse_card,
)

C = parse_card
TWO = RuleSet(players=2)
THREE = RuleSet(players=3)
FOUR = RuleSet(players=4)


def test_with_the_stock_empty_a_player_without_cards_is_out() -> None:  # END-1, ORDER-4
    state = position(THREE, hands={0: "7♣", 1: "9♣ K♦", 2: "A♠ 6♦"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.finished == ((0,),)
    assert after.out == frozenset({0})
    assert after.outcome is None
    assert (after.attacker, after.defender) == (1, 2)
    assert_illegal(after, "P0 open 7♣", "END-1")


def test_running_out_while_the_stock_lasts_ends_nothing() -> None:  # END-2, CLAR-12
    state = position(THREE, hands={0: "7♣", 1: "9♣ K♦ 10♦", 2: "7♦ 6♦"}, stock="6♠ 7♠ A♥")
    mid = play(state, "P0 open 7♣")
    assert mid.hands[0] == ()
    assert mid.outcome is None and mid.out == frozenset()
    assert actions_of(mid, 0) == set()  # CLAR-12: nothing to add, but still in the game
    after = play(mid, "P2 throw 7♦", "P1 cover 7♣ with 9♣", "P1 cover 7♦ with 10♦")
    assert after.finished == ()
    assert after.hands[0] == cards("6♠ 7♠ A♥")
    assert (after.attacker, after.defender) == (1, 2)


def test_the_last_player_holding_cards_is_the_durak() -> None:  # END-3, EX-8, END-5
    state = position(TWO, hands={0: "7♣", 1: "9♣ K♦"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.outcome == Outcome(((0,),), 1)
    assert after.outcome is not None
    assert after.outcome.first_out == (0,)
    assert not after.outcome.is_draw
    assert after.is_over
    assert legal_actions(after) == ()


def test_no_one_acts_once_the_game_is_over() -> None:  # CLAR-2
    state = position(TWO, hands={0: "7♣", 1: "9♣ K♦"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    for move in ("P1 open K♦", "P0 done", "P1 take"):
        assert_illegal(after, move, "CLAR-2")


def test_two_players_out_at_once_is_a_draw() -> None:  # END-4, CLAR-9
    state = position(TWO, hands={0: "7♣", 1: "9♣"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.outcome == Outcome(((0, 1),), None)
    assert after.outcome is not None and after.outcome.is_draw
    assert legal_actions(after) == ()


def test_the_last_two_of_three_out_at_once_is_a_draw() -> None:  # END-4, CLAR-9
    state = position(THREE, hands={0: "7♣", 1: "9♣"}, finished=[(2,)])
    assert (state.attacker, state.defender) == (0, 1)
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.outcome == Outcome(((2,), (0, 1)), None)
    assert after.outcome is not None and after.outcome.first_out == (2,)


def test_two_out_at_once_with_a_third_still_holding_is_no_draw() -> None:  # END-3, CLAR-9
    state = position(THREE, hands={0: "7♣", 1: "9♣", 2: "A♠"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.outcome == Outcome(((0, 1),), 2)


def test_the_finishing_order_over_a_game() -> None:  # END-5
    state = position(THREE, hands={0: "7♣", 1: "9♣ 6♦", 2: "8♦ A♠"})
    state = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert state.finished == ((0,),)
    assert (state.attacker, state.defender) == (1, 2)
    state = play(state, "P1 open 6♦", "P2 cover 6♦ with 8♦")
    assert state.outcome == Outcome(((0,), (1,)), 2)
    assert str(state.outcome) == "P2 is the durak (out in order: P0, P1)"


def test_the_result_waits_for_the_end_of_the_bout() -> None:  # END-6
    state = position(TWO, hands={0: "7♣ 7♦", 1: "9♣ 10♦ K♠"})
    mid = play(state, "P0 open 7♣", "P0 throw 7♦")
    assert mid.hands[0] == ()
    assert mid.outcome is None
    assert mid.out == frozenset()
    assert Take(1) in actions_of(mid)
    taken = play(mid, "P1 take")
    assert taken.outcome == Outcome(((0,),), 1)


@pytest.mark.parametrize("reading", list(LimitReading))
def test_defending_with_the_last_card_succeeds(reading: LimitReading) -> None:  # CLAR-13
    rules = RuleSet(players=3, limit_reading=reading)
    state = position(rules, hands={0: "7♣ 7♦", 1: "9♣", 2: "K♠ 7♠"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.table == ()
    assert after.finished == ((1,),)
    assert (after.attacker, after.defender) == (2, 0)  # CLAR-15


@pytest.mark.parametrize("reading", list(LimitReading))
def test_nothing_is_added_against_an_empty_hand_after_a_transfer_back(
        reading: LimitReading) -> None:
    # CLAR-13: "no cards can be added against an empty hand". P0 opened 8♠ from a hand of
    # three, P1 passed it back with 8♦, and P0 beat both with the last two cards. Under
    # the start-hand reading of LIMIT-2 the engine still lets P1 throw in 8♣ (P0 held 3 at
    # the bout's start), so P0 must take instead of going out.
    rules = RuleSet(players=2, transfer=True, limit_reading=reading)
    state = position(rules, hands={0: "8♠ 9♠ 9♦", 1: "8♦ 8♣ K♣"})
    state = play(state, "P0 open 8♠", "P1 transfer 8♦", "P0 cover 8♠ with 9♠")
    after = play(state, "P0 cover 8♦ with 9♦")
    assert ThrowIn(1, C("8♣")) not in actions_of(after)
    assert after.table == ()
    assert after.outcome == Outcome(((0,),), 1)


def test_the_defender_attacks_next_after_a_successful_defence() -> None:  # ORDER-4
    state = position(FOUR, hands={0: "7♣ A♠", 1: "9♣ A♦", 2: "K♠ 6♦", 3: "Q♠"}, stock=8)
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert (after.attacker, after.defender, after.opener) == (1, 2, 1)


def test_out_players_are_skipped_for_the_next_defender() -> None:  # ORDER-6
    state = position(FOUR, hands={0: "7♣ A♠", 1: "9♣ A♦", 3: "Q♠"}, finished=[(2,)])
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert (after.attacker, after.defender) == (1, 3)


def test_out_players_are_skipped_after_a_take() -> None:  # ORDER-5, ORDER-6
    state = position(FOUR, hands={0: "7♣ A♠", 1: "6♣ A♦", 3: "Q♠"}, finished=[(2,)])
    after = play(state, "P0 open 7♣", "P1 take")
    assert (after.attacker, after.defender) == (3, 0)


def test_a_defender_who_goes_out_hands_the_attack_on() -> None:  # CLAR-15, ORDER-6
    state = position(FOUR, hands={0: "7♣ A♠", 1: "9♣", 2: "K♠ 6♦", 3: "Q♠"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.finished == ((1,),)
    assert (after.attacker, after.defender) == (2, 3)


def test_a_defender_who_goes_out_next_to_an_out_player() -> None:  # CLAR-15, ORDER-6
    state = position(FOUR, hands={0: "7♣ A♠", 1: "9♣", 3: "Q♠"}, finished=[(2,)])
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.finished == ((2,), (1,))
    assert (after.attacker, after.defender) == (3, 0)


def test_an_attacker_who_goes_out_is_skipped_as_next_defender() -> None:  # ORDER-6
    state = position(THREE, hands={0: "K♠", 1: "9♣ A♦", 2: "7♣"}, attacker=2)
    assert state.defender == 0
    after = play(state, "P2 open 7♣", "P0 take")
    assert after.finished == ((2,),)
    assert (after.attacker, after.defender) == (1, 0)


@pytest.mark.parametrize(("kwargs", "rule"), [
    ({"hands": {0: "7♣", 1: "9♣"}, "finished": [(2,)], "stock": 4}, "END-2"),
    ({"hands": {0: "7♣", 1: "9♣", 2: "K♠"}, "finished": [(2,)]}, "END-1"),
    ({"hands": {0: "7♣", 1: "9♣"}}, "END-1"),
    ({"hands": {0: "7♣", 1: "9♣"}, "finished": [(2,)], "attacker": 2, "defender": 0},
     "ORDER-6"),
])
def test_positions_that_break_the_end_rules_are_invalid(kwargs: dict[str, object],
                                                        rule: str) -> None:
    with pytest.raises(InvalidState) as excinfo:
        position(THREE, **kwargs)  # type: ignore[arg-type]
    assert excinfo.value.rule == rule
