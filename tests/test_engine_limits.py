"""Limits on attack cards (LIMIT-1 .. LIMIT-4), under both readings of LIMIT-2."""

from __future__ import annotations

import pytest
from helpers import actions_of, assert_illegal, play, position

from durak_spec import (
    Cover,
    Done,
    GameState,
    LimitReading,
    Open,
    RuleSet,
    Take,
    ThrowIn,
    attack_limit,
    parse_card,
)

C = parse_card
CURRENT = LimitReading.CURRENT_HAND
START = LimitReading.START_HAND
BOTH = pytest.mark.parametrize("reading", [CURRENT, START])

# Five covered attack cards and a sixth uncovered; the defender holds plenty.
SIX_ON_TABLE = "6♣/8♣ 6♦/8♦ 6♠/8♠ 7♣/9♣ 7♦/9♦ 7♠"


@BOTH
def test_at_most_six_attack_cards(reading: LimitReading) -> None:  # LIMIT-1
    rules = RuleSet(players=2, limit_reading=reading, first_bout_limit_five=False)
    state = position(rules, hands={0: "9♠ 8♥ A♦", 1: "10♠ J♠ Q♠ K♠ A♠ 10♣ J♣"},
                     table=SIX_ON_TABLE, stock=8)
    assert attack_limit(state) == (6, "LIMIT-1")
    error = assert_illegal(state, "P0 throw 9♠", "LIMIT-1")
    assert "six" in error.reason
    assert actions_of(state) == {Cover(1, C("7♠"), c) for c in
                                 (C("10♠"), C("J♠"), C("Q♠"), C("K♠"), C("A♠"))} | {Take(1)}


@BOTH
def test_the_sixth_attack_card_is_allowed(reading: LimitReading) -> None:  # LIMIT-1
    rules = RuleSet(players=2, limit_reading=reading)
    five = SIX_ON_TABLE.rsplit(" ", 1)[0]
    state = position(rules, hands={0: "9♠ 8♥ A♦", 1: "10♠ J♠ Q♠ K♠ A♠ 10♣ J♣"},
                     table=five, stock=8)
    assert actions_of(state) == {ThrowIn(0, C("9♠")), ThrowIn(0, C("8♥")), Done(0)}
    after = play(state, "P0 throw 8♥")
    assert len(after.table) == 6
    assert actions_of(after, 0) == set()


@BOTH
def test_no_more_uncovered_cards_than_the_defender_holds(reading: LimitReading) -> None:
    # LIMIT-2: without a transfer both readings agree.
    rules = RuleSet(players=2, limit_reading=reading)
    state = position(rules, hands={0: "7♠ 7♥ A♦", 1: "9♣ 9♦"}, table="7♣ 7♦", stock=8)
    assert attack_limit(state) == (2, "LIMIT-2")
    error = assert_illegal(state, "P0 throw 7♠", "LIMIT-2")
    assert "P1" in error.reason
    assert actions_of(state) == {Cover(1, C("7♣"), C("9♣")), Cover(1, C("7♦"), C("9♦")),
                                 Take(1)}
    covered = play(state, "P1 cover 7♣ with 9♣")
    assert_illegal(covered, "P0 throw 7♠", "LIMIT-2")
    assert actions_of(covered, 0) == set()


@BOTH
def test_up_to_the_defenders_hand_may_be_added(reading: LimitReading) -> None:  # LIMIT-2
    rules = RuleSet(players=2, limit_reading=reading)
    state = position(rules, hands={0: "7♠ 7♥ A♦", 1: "9♦ 10♦"}, table="7♣/8♣ 7♦",
                     stock=8)
    assert attack_limit(state) == (3, "LIMIT-2")
    after = play(state, "P0 throw 7♠")
    assert len(after.table) == 3
    assert_illegal(after, "P0 throw 7♥", "LIMIT-2")


def test_start_hand_reading_counts_the_hand_at_the_start_of_the_bout() -> None:  # LIMIT-2
    rules = RuleSet(players=2, limit_reading=START)
    state = position(rules, hands={0: "7♠ 7♥ A♦", 1: "9♣ 9♦ 10♦"}, table="7♣",
                     start_hands={1: 2}, stock=8)
    assert attack_limit(state) == (2, "LIMIT-2")
    error = assert_illegal(play(state, "P0 throw 7♠"), "P0 throw 7♥", "LIMIT-2")
    assert "start" in error.reason


@BOTH
def test_multi_card_opening_within_the_defenders_hand(reading: LimitReading) -> None:
    rules = RuleSet(players=2, limit_reading=reading, multi_card_opening=True)
    state = position(rules, hands={0: "7♣ 7♦ 7♠ A♦", 1: "9♣ 9♦"}, stock=8)
    assert Open(0, (C("7♣"), C("7♦"))) in actions_of(state)
    assert not any(isinstance(a, Open) and len(a.played) == 3 for a in actions_of(state))
    assert_illegal(state, "P0 open 7♣ 7♦ 7♠", "LIMIT-2")


def transfer_back(reading: LimitReading) -> GameState:
    """Two players, transfer game: P0 opened 8♣ with six cards, P1 passed it back with 8♦,
    and P0 has covered both. P0 now holds 3 cards; P1 holds four cards of the table's ranks."""
    rules = RuleSet(players=2, transfer=True, limit_reading=reading)
    state = position(rules, hands={0: "8♣ 9♣ 9♦ 6♠ 6♦ 7♠", 1: "8♦ 8♠ 8♥ 9♠ 9♥ A♣"},
                     stock=8)
    return play(state, "P0 open 8♣", "P1 transfer 8♦", "P0 cover 8♣ with 9♣",
                "P0 cover 8♦ with 9♦", "P1 throw 8♠", "P1 throw 8♥", "P1 throw 9♠")


def test_after_a_transfer_back_the_current_hand_caps_the_attack() -> None:  # LIMIT-2
    state = transfer_back(CURRENT)
    assert (state.attacker, state.defender, len(state.hands[0]), len(state.uncovered)) == \
        (1, 0, 3, 3)
    assert attack_limit(state) == (5, "LIMIT-2")
    assert_illegal(state, "P1 throw 9♥", "LIMIT-2")


def test_after_a_transfer_back_the_start_hand_is_counted_at_the_transfer() -> None:  # LIMIT-2
    # Issue 13: "the start" is the moment P0 became the defender again, holding five cards
    # (six less the opening card), so the start-hand reading stops at five attack cards,
    # as the current-hand one does. (Counted at the opening it allowed a sixth card, with
    # 4 uncovered cards against a hand of 3.)
    state = transfer_back(START)
    assert state.start_hands[0] == 5
    assert attack_limit(state) == (5, "LIMIT-2")
    error = assert_illegal(state, "P1 throw 9♥", "LIMIT-2")
    assert "when they became the defender" in error.reason
    assert actions_of(state, 0) == {Take(0)}


@BOTH
def test_first_bout_allows_five_attack_cards(reading: LimitReading) -> None:  # LIMIT-3
    rules = RuleSet(players=2, limit_reading=reading, first_bout_limit_five=True)
    state = position(rules, hands={0: "9♠ 8♥ A♦", 1: "10♠ J♠ Q♠ K♠ A♠ 10♣ J♣"},
                     table="6♣/8♣ 6♦/8♦ 6♠/8♠ 7♣/9♣", stock=8, bout=0)
    assert attack_limit(state) == (5, "LIMIT-3")
    fifth = play(state, "P0 throw 9♠")
    error = assert_illegal(fifth, "P0 throw 8♥", "LIMIT-3")
    assert "first bout" in error.reason
    assert actions_of(fifth, 0) == set()


def test_the_five_card_limit_ends_with_the_first_bout() -> None:  # LIMIT-3
    rules = RuleSet(players=2, first_bout_limit_five=True)
    state = position(rules, hands={0: "9♠ 8♥ A♦", 1: "10♠ J♠ Q♠ K♠ A♠ 10♣ J♣"},
                     table="6♣/8♣ 6♦/8♦ 6♠/8♠ 7♣/9♣ 7♦/9♦", stock=8, bout=1)
    assert attack_limit(state) == (6, "LIMIT-1")
    assert len(play(state, "P0 throw 9♠").table) == 6


def test_without_the_variant_the_first_bout_allows_six() -> None:  # LIMIT-3 off (B)
    rules = RuleSet(players=2, first_bout_limit_five=False)
    state = position(rules, hands={0: "9♠ 8♥ A♦", 1: "10♠ J♠ Q♠ K♠ A♠ 10♣ J♣"},
                     table="6♣/8♣ 6♦/8♦ 6♠/8♠ 7♣/9♣ 7♦/9♦", stock=8, bout=0)
    assert attack_limit(state) == (6, "LIMIT-1")
    assert len(play(state, "P0 throw 9♠").table) == 6


def test_a_small_hand_limits_the_first_bout_below_five() -> None:  # LIMIT-2 before LIMIT-3
    rules = RuleSet(players=2, first_bout_limit_five=True)
    state = position(rules, hands={0: "7♠ 7♥", 1: "9♣ 9♦"}, table="7♣ 7♦", stock=8, bout=0)
    assert attack_limit(state) == (2, "LIMIT-2")


@BOTH
def test_six_attack_cards_at_most_with_transfers_too(reading: LimitReading) -> None:
    # LIMIT-4: the cards passed on by a transfer count towards the six of the bout.
    rules = RuleSet(players=3, transfer=True, limit_reading=reading)
    state = position(rules, hands={0: "8♣ 8♠ 8♥ 9♠ 9♥ 9♦ A♦", 1: "8♦ K♣",
                                   2: "9♣ Q♦ J♠ Q♠ K♠ A♠ 10♣ 10♦"}, stock=6)
    state = play(state, "P0 open 8♣", "P1 transfer 8♦", "P2 cover 8♣ with 9♣",
                 "P2 cover 8♦ with Q♦", "P0 throw 8♠", "P0 throw 8♥", "P0 throw 9♠")
    assert (state.attacker, state.defender) == (1, 2)
    assert len(state.table) == 5
    sixth = play(state, "P0 throw 9♥")
    assert len(sixth.table) == 6
    assert attack_limit(sixth) == (6, "LIMIT-1")
    assert_illegal(sixth, "P0 throw 9♦", "LIMIT-1")
    assert actions_of(sixth, 0) == set()
