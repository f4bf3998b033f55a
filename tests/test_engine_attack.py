"""Opening a bout and throwing in (ATTACK-1 .. ATTACK-6, EX-3, EX-9, CLAR-1, CLAR-3)."""

from __future__ import annotations

from itertools import combinations

import pytest
from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    Action,
    Cover,
    Done,
    Open,
    Pair,
    RuleSet,
    Take,
    parse_card,
    throwers,
)
from durak_spec import ThrowIn as ThrowInAction
from durak_spec.model.rules import ThrowIn as Who

C = parse_card
TWO = RuleSet(players=2)


def opens(seat: int, text: str) -> Open:
    return Open(seat, tuple(C(c) for c in text.split()))


# -- opening (ATTACK-1, ATTACK-2) -------------------------------------------------------------


def test_between_bouts_only_the_attacker_acts_and_opens_with_any_one_card() -> None:
    state = position(TWO, hands={0: "9♣ 7♦ 7♠ K♥", 1: "6♣ 8♣ 10♦"}, stock=10)
    assert actions_of(state) == {opens(0, c) for c in ("9♣", "7♦", "7♠", "K♥")}


def test_player_one_opens_with_the_nine_of_clubs() -> None:  # EX-9, ATTACK-1
    state = position(TWO, hands={0: "9♣ 7♦ K♥", 1: "6♣ 10♣ 8♦"}, stock=10)
    after = play(state, "P0 open 9♣")
    assert after.table == (Pair(C("9♣")),)
    assert after.hands[0] == cards("7♦ K♥")
    assert (after.attacker, after.defender, after.opener, after.joined) == (0, 1, 0, (0,))
    assert after.start_hands == (3, 3)
    assert actions_of(after, 1) == {Cover(1, C("9♣"), C("10♣")), Take(1)}


def test_only_the_attacker_opens() -> None:  # ATTACK-1
    state = position(TWO, hands={0: "9♣ 7♦", 1: "6♣ 8♣"}, stock=10)
    error = assert_illegal(state, "P1 open 6♣", "ATTACK-1")
    assert "P0" in error.reason


def test_the_opening_card_comes_from_the_attackers_hand() -> None:  # CLAR-1
    state = position(TWO, hands={0: "9♣ 7♦", 1: "6♣ 8♣"}, stock=10)
    assert_illegal(state, "P0 open 6♣", "CLAR-1")
    assert_illegal(state, "P0 open A♠", "CLAR-1")


@pytest.mark.parametrize("move", ["P0 throw 9♣", "P1 cover 9♣ with 10♣", "P1 take", "P0 done",
                                  "P1 transfer 9♦"])
def test_nothing_but_an_opening_starts_a_bout(move: str) -> None:  # ATTACK-1
    state = position(TWO, hands={0: "9♣ 7♦", 1: "10♣ 9♦"}, stock=10)
    assert_illegal(state, move, "ATTACK-1")


def test_an_open_bout_is_not_opened_again() -> None:  # ATTACK-1
    state = position(TWO, hands={0: "9♦ 7♦", 1: "6♣ 8♣"}, table="9♣", stock=10)
    assert_illegal(state, "P0 open 9♦", "ATTACK-1")


def test_an_opening_needs_a_card() -> None:  # ATTACK-1
    state = position(TWO, hands={0: "9♦ 7♦", 1: "6♣ 8♣"}, stock=10)
    assert_illegal(state, Open(0, ()), "ATTACK-1")


def test_one_card_openings_without_the_multi_card_variant() -> None:  # ATTACK-2 off
    state = position(TWO, hands={0: "7♣ 7♦ 9♠", 1: "6♣ 8♣ 10♦"}, stock=10)
    error = assert_illegal(state, "P0 open 7♣ 7♦", "ATTACK-2")
    assert "single card" in error.reason


def test_multi_card_openings_of_one_rank() -> None:  # ATTACK-2 on (B)
    rules = TWO.replace(multi_card_opening=True)
    state = position(rules, hands={0: "7♣ 7♦ 7♠ 9♥", 1: "6♣ 8♣ 10♦ J♦"}, stock=10)
    sevens = cards("7♣ 7♦ 7♠")
    expected = {Open(0, (c,)) for c in state.hands[0]}
    expected |= {Open(0, combo) for size in (2, 3) for combo in combinations(sevens, size)}
    assert actions_of(state) == expected
    after = play(state, "P0 open 7♦ 7♠")
    assert after.table == (Pair(C("7♦")), Pair(C("7♠")))
    assert after.hands[0] == cards("7♣ 9♥")


def test_a_multi_card_opening_is_of_one_rank_and_names_no_card_twice() -> None:  # ATTACK-2
    rules = TWO.replace(multi_card_opening=True)
    state = position(rules, hands={0: "7♣ 7♦ 9♥", 1: "6♣ 8♣ 10♦ J♦"}, stock=10)
    error = assert_illegal(state, "P0 open 7♣ 9♥", "ATTACK-2")
    assert "one rank" in error.reason
    assert_illegal(state, "P0 open 7♣ 7♣", "CLAR-1")
    assert_illegal(state, "P0 open 7♣ 7♠", "CLAR-1")


# -- throwing in: ranks (ATTACK-3, EX-3) ------------------------------------------------------


def test_after_seven_beaten_by_nine_only_sevens_and_nines_may_be_added() -> None:  # EX-3
    state = position(TWO, hands={0: "7♦ 9♠ 8♣ K♥ 6♦", 1: "10♦ J♠ Q♠"}, table="7♣/9♣",
                     stock=10)
    assert actions_of(state) == {ThrowInAction(0, C("7♦")), ThrowInAction(0, C("9♠")), Done(0)}
    for card in ("8♣", "K♥", "6♦"):
        error = assert_illegal(state, f"P0 throw {card}", "ATTACK-3")
        assert "7" in error.reason and "9" in error.reason
    after = play(state, "P0 throw 9♠")
    assert after.table == (Pair(C("7♣"), C("9♣")), Pair(C("9♠")))


def test_a_thrown_in_card_comes_from_the_throwers_hand() -> None:  # CLAR-1
    state = position(TWO, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠"}, table="7♣/9♣", stock=10)
    assert_illegal(state, "P0 throw 7♠", "CLAR-1")


def test_attack_cards_may_be_added_before_the_defender_answers() -> None:  # ATTACK-3
    state = position(TWO, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠"}, table="7♣", stock=10)
    assert ThrowInAction(0, C("7♦")) in actions_of(state)
    after = play(state, "P0 throw 7♦")
    assert after.table == (Pair(C("7♣")), Pair(C("7♦")))
    assert after.uncovered == cards("7♣ 7♦")


# -- who may throw in (ATTACK-4) ----------------------------------------------------------------

FOUR_HANDS = {0: "7♦ 8♣", 1: "10♣ J♠ Q♠ A♠", 2: "7♠ 6♣", 3: "7♥ 6♦"}


@pytest.mark.parametrize(("who", "seats"), [
    (Who.ATTACKER, (0,)),
    (Who.NEIGHBOURS, (0, 2)),
    (Who.ALL, (0, 2, 3)),
])
def test_who_may_throw_in_with_four_players(who: Who, seats: tuple[int, ...]) -> None:
    rules = RuleSet(players=4, throw_in=who)
    state = position(rules, hands=FOUR_HANDS, table="7♣", stock=10)
    assert throwers(state) == seats
    sevens = {0: "7♦", 2: "7♠", 3: "7♥"}
    expected: set[Action] = {ThrowInAction(s, C(sevens[s])) for s in seats}
    expected |= {Cover(1, C("7♣"), C("10♣")), Take(1)}
    assert actions_of(state) == expected
    for seat in {0, 2, 3} - set(seats):
        error = assert_illegal(state, f"P{seat} throw {sevens[seat]}", "ATTACK-4")
        assert who.value in error.reason
    for seat in seats:
        after = play(state, f"P{seat} throw {sevens[seat]}")
        assert after.table[-1] == Pair(C(sevens[seat]))
        assert after.joined == ((0,) if seat == 0 else (0, seat))


@pytest.mark.parametrize("who", list(Who))
def test_the_defender_never_throws_in(who: Who) -> None:
    rules = RuleSet(players=4, throw_in=who)
    state = position(rules, hands={**FOUR_HANDS, 1: "7♠ J♠", 2: "10♦ 6♣"}, table="7♣",
                     stock=10)
    assert 1 not in throwers(state)
    error = assert_illegal(state, "P1 throw 7♠", "ATTACK-4")
    assert "defender" in error.reason


@pytest.mark.parametrize("who", list(Who))
def test_with_two_players_only_the_attacker_throws_in(who: Who) -> None:
    state = position(RuleSet(players=2, throw_in=who), hands={0: "7♦", 1: "8♣ 7♠"},
                     table="7♣", stock=10)
    assert throwers(state) == (0,)


def test_neighbours_skip_a_player_who_is_out() -> None:  # ATTACK-4, ORDER-6
    rules = RuleSet(players=4, throw_in=Who.NEIGHBOURS)
    state = position(rules, hands={0: "7♦ 8♣", 1: "10♦ J♠", 3: "7♥ 6♦"}, table="7♣",
                     finished=[(2,)])
    assert throwers(state) == (0, 3)
    assert ThrowInAction(3, C("7♥")) in actions_of(state)


def test_players_who_are_out_do_not_throw_in() -> None:  # ATTACK-4, END-1
    rules = RuleSet(players=4, throw_in=Who.ALL)
    state = position(rules, hands={0: "7♦ 8♣", 1: "10♦ J♠", 3: "7♥ 6♦"}, table="7♣",
                     finished=[(2,)])
    assert throwers(state) == (0, 3)
    error = assert_illegal(state, "P2 done", "END-1")
    assert "out" in error.reason


# -- the done protocol (ATTACK-5, CLAR-3) ------------------------------------------------------


THREE = RuleSet(players=3, throw_in=Who.ALL)


def test_done_waits_until_every_attack_card_is_covered() -> None:  # CLAR-3
    state = position(THREE, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "7♠"}, table="7♣", stock=10)
    error = assert_illegal(state, "P0 done", "CLAR-3")
    assert "covered" in error.reason
    assert not any(isinstance(a, Done) for a in actions_of(state))


def test_the_defender_does_not_say_done() -> None:  # ATTACK-5
    state = position(THREE, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "7♠"}, table="7♣/9♣",
                     stock=10)
    assert_illegal(state, "P1 done", "ATTACK-5")


def test_a_player_who_may_not_throw_in_has_nothing_to_be_done_with() -> None:  # ATTACK-4
    rules = RuleSet(players=3, throw_in=Who.ATTACKER)
    state = position(rules, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "7♠"}, table="7♣/9♣",
                     stock=10)
    assert_illegal(state, "P2 done", "ATTACK-4")


def test_a_player_with_nothing_to_add_is_not_asked() -> None:  # CLAR-3
    state = position(THREE, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "K♠"}, table="7♣/9♣",
                     stock=10)
    assert actions_of(state) == {ThrowInAction(0, C("7♦")), Done(0)}
    error = assert_illegal(state, "P2 done", "CLAR-3")
    assert "not asked" in error.reason


def test_every_attacker_who_could_add_must_say_done() -> None:  # CLAR-3, ATTACK-5
    state = position(THREE, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "9♠ K♠"}, table="7♣/9♣",
                     stock=0)
    assert actions_of(state) == {ThrowInAction(0, C("7♦")), Done(0),
                                 ThrowInAction(2, C("9♠")), Done(2)}
    after = play(state, "P0 done")
    assert after.table == state.table
    assert after.passed == frozenset({0})
    assert actions_of(after) == {ThrowInAction(2, C("9♠")), Done(2)}
    assert_illegal(after, "P0 done", "CLAR-3")
    error = assert_illegal(after, "P0 throw 7♦", "CLAR-3")
    assert "done" in error.reason
    ended = play(after, "P2 done")
    assert ended.table == ()
    assert set(ended.discard) == set(state.discard) | set(cards("7♣ 9♣"))


def test_a_done_stands_until_the_defender_moves_again() -> None:  # CLAR-3
    state = position(THREE, hands={0: "7♦ 8♣", 1: "10♦ J♠ Q♠", 2: "9♠ K♠"}, table="7♣/9♣",
                     stock=10)
    state = play(state, "P0 done", "P2 throw 9♠")
    assert state.passed == frozenset({0})
    assert actions_of(state) == {Cover(1, C("9♠"), C("J♠")), Cover(1, C("9♠"), C("Q♠")),
                                 Take(1)}
    covered = play(state, "P1 cover 9♠ with J♠")
    assert covered.passed == frozenset()
    assert actions_of(covered) == {ThrowInAction(0, C("7♦")), Done(0)}


def test_a_successful_defence_discards_the_table() -> None:  # ATTACK-5, ATTACK-6, DEFEND-1
    state = position(TWO, hands={0: "7♦ 8♣ Q♦", 1: "10♦ J♠ Q♠ A♠"}, table="7♣/9♣",
                     stock=10)
    before_discard = set(state.discard)
    after = play(state, "P0 done")
    assert after.table == ()
    assert set(after.discard) == before_discard | set(cards("7♣ 9♣"))
    assert after.bout == state.bout + 1
    assert (after.attacker, after.defender) == (1, 0)  # ORDER-4


def test_the_bout_ends_by_itself_when_nobody_can_add() -> None:  # CLAR-3
    state = position(THREE, hands={0: "8♣ Q♦", 1: "10♣ J♠ Q♠", 2: "K♠"}, table="7♣",
                     stock=10)
    after = play(state, "P1 cover 7♣ with 10♣")
    assert after.table == ()
    assert set(after.discard) == set(state.discard) | set(cards("7♣ 10♣"))


def test_all_may_act_at_once_first_come_first_served() -> None:  # CLAR-3
    state = position(THREE, hands={0: "7♦", 1: "10♣ J♠ Q♠", 2: "7♠"}, table="7♣", stock=10)
    assert {a.player for a in actions_of(state)} == {0, 1, 2}
    after = play(state, "P2 throw 7♠", "P0 throw 7♦")
    assert after.attack_cards == (C("7♣"), C("7♠"), C("7♦"))
    assert after.joined == (0, 2)
