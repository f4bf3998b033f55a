"""Positions by hand: :class:`durak_spec.game.positions.Position` fills in the bookkeeping
of a described position and refuses what play cannot reach (issue 13)."""

from __future__ import annotations

import pytest

from durak_spec.core.cards import Suit
from durak_spec.core.errors import InputError
from durak_spec.engine import apply, check_reachable, legal_actions, new_game
from durak_spec.game.positions import Position, PositionError, parse_card_list, parse_table
from durak_spec.model.rules import PROFILES
from durak_spec.model.state import GameState


def two() -> Position:
    return Position().with_players(["Anna", "Boris"]).with_trump(Suit.HEARTS)


def three() -> Position:
    return Position().with_players(["Anna", "Boris", "Vera"]).with_trump(Suit.HEARTS)


def refused(position: Position, rule: str, words: str) -> None:
    with pytest.raises(PositionError) as caught:
        position.build()
    assert caught.value.rule == rule, caught.value
    assert words in caught.value.reason, caught.value


def test_a_hand_short_of_six_while_the_stock_lasts_is_refused() -> None:
    refused(two().with_hand("Anna", parse_card_list("7♣ 9♦")).with_stock(10), "DRAW-1",
            "Anna holds 2 cards while the stock still has 10")


def test_a_short_hand_with_the_stock_left_open_means_the_stock_ran_out() -> None:
    state = two().with_hand("Anna", parse_card_list("7♣ 9♦")).build()
    assert state.stock == () and len(state.hands[1]) == 6
    assert len(state.discard) % 2 == 0


def test_an_odd_discard_pile_is_refused() -> None:
    refused(two().with_hand("Anna", parse_card_list("7♣")).with_hand("Boris", parse_card_list(
        "9♣ K♦")).with_stock(0), "DEFEND-1", "the discard pile holds 33 cards")


def test_an_unnamed_hand_takes_one_card_more_to_keep_the_discard_even() -> None:
    state = three().with_hand("Anna", parse_card_list("7♣")).with_hand(
        "Boris", parse_card_list("9♣ K♦")).with_stock(0).build()
    assert [len(hand) for hand in state.hands] == [1, 2, 7]


def test_an_open_stock_in_a_later_bout_leaves_a_pair_to_the_discard_pile() -> None:
    state = two().build()
    assert (len(state.stock), len(state.discard), state.bout) == (22, 2, 1)
    first = two().with_first_bout().build()
    assert (len(first.stock), len(first.discard), first.bout) == (24, 0, 0)


def test_a_later_bout_keeps_an_empty_discard_pile_only_where_a_take_explains_it() -> None:
    # Boris took the first bout's card: he holds seven, the stock has lost the card Anna
    # drew, and nothing has been discarded (LIMIT-3 no longer applies in this bout).
    taken = two().with_discard(size=0).with_hand("Boris", size=7).build()
    assert (len(taken.stock), len(taken.discard), taken.bout) == (23, 0, 1)
    assert taken.start_hands == (6, 7)
    check_reachable(taken)
    # With every hand at six nobody took, so a later bout has discarded a pair at least.
    refused(two().with_discard(size=0).with_bout(2), "DRAW-1", "somebody has drawn")
    refused(two().with_discard(size=0).with_hand("Boris", size=7).with_stock(24), "DEAL-1",
            "the position needs")


def test_the_bout_number_is_as_low_as_the_discard_pile_allows_or_as_named() -> None:
    assert two().with_stock(2).build().bout == 2  # 22 discarded: 10 + 12 in two bouts
    assert two().with_stock(2).with_bout(7).build().bout == 6
    assert two().with_bout(1).build().bout == 0
    refused(two().with_stock(2).with_bout(2), "DEFEND-1",
            "at most 10 cards can have been discarded")
    with pytest.raises(PositionError, match="counted from 1"):
        two().with_bout(0)


def test_who_laid_the_table_fills_in_the_start_hands_and_the_join_order() -> None:
    state = (three().with_table(parse_table("7♣ covered by 9♣, 7♦ uncovered and 7♠ uncovered"))
             .with_hand("Anna", parse_card_list("K♠"), 5).with_hand("Vera", size=4)
             .with_stock(5).build())
    check_reachable(state)
    # Anna holds 5 and opened; Vera, who may add cards and holds 4, laid the other two;
    # Boris covered one.
    assert state.start_hands == (6, 7, 6) and state.joined == (0, 2)


def test_an_added_card_of_a_rank_nobody_laid_is_refused() -> None:
    refused(two().with_table(parse_table("7♣ covered by 9♣ and 8♦ uncovered")), "ATTACK-3",
            "8♦ matches the rank of no card laid before it")


def test_a_raw_state_without_its_bookkeeping_is_an_input_error_not_an_index_error() -> None:
    dealt = new_game(PROFILES["classic-throw-in"].rules(), seed=1)
    raw = GameState(rules=dealt.rules, hands=dealt.hands, stock=dealt.stock, trump=dealt.trump,
                    attacker=dealt.attacker, defender=dealt.defender, opener=dealt.attacker)
    with pytest.raises(InputError) as caught:
        apply(raw, legal_actions(dealt)[0])
    assert caught.value.code == "not-one-per-seat" and "Position" in str(caught.value)
