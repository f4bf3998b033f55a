"""Drawing after a bout (DRAW-1 .. DRAW-5, CLAR-7, CLAR-8, VIEW-2) in both draw orders."""

from __future__ import annotations

import pytest
from helpers import cards, play, position

from durak_spec import Card, DrawOrder, GameState, RuleSet, parse_card
from durak_spec.model.rules import ThrowIn as Who

C = parse_card
FIRST = DrawOrder.ATTACKER_FIRST
JOIN = DrawOrder.JOIN_ORDER

# Four players, trump hearts. P0 opens 7♣ against P1; P3 throws in 7♦, then P2 7♠; P1
# beats all three and nobody can add. Afterwards P0 needs 1 card, P1 3, P2 1, P3 2.
FOUR_HANDS = {
    0: "7♣ A♠ K♠ Q♠ J♠ 10♠",
    1: "9♣ 9♦ 9♠ A♦ K♦ Q♦",
    2: "7♠ 6♣ 8♣ 10♣ J♣ Q♣",
    3: "7♦ 6♦ 8♦ 10♦ J♦",
}
FOUR_BOUT = ("P0 open 7♣", "P3 throw 7♦", "P2 throw 7♠", "P1 cover 7♣ with 9♣",
             "P1 cover 7♦ with 9♦", "P1 cover 7♠ with 9♠")


def four_player_bout(order: DrawOrder, stock: str) -> tuple[GameState, GameState]:
    rules = RuleSet(players=4, throw_in=Who.ALL, draw_order=order)
    start = position(rules, hands=FOUR_HANDS, stock=stock)
    return start, play(start, *FOUR_BOUT)


def drawn(before: GameState, after: GameState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` holds after but not before (what it drew), in hand order."""
    return tuple(c for c in after.hands[seat] if c not in before.hands[seat])


@pytest.mark.parametrize(("order", "expected"), [
    (FIRST, {0: "6♥", 2: "7♥", 3: "8♥ 9♥", 1: "10♥ J♥ Q♥"}),
    (JOIN, {0: "6♥", 3: "7♥ 8♥", 2: "9♥", 1: "10♥ J♥ Q♥"}),
])
def test_four_players_draw_back_up_to_six_in_order(order: DrawOrder,
                                                   expected: dict[int, str]) -> None:
    # DRAW-1, DRAW-2, DRAW-3: P3 joined before P2, which only the join order honours.
    start, after = four_player_bout(order, "6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    assert after.table == ()
    for seat, text in expected.items():
        assert drawn(start, after, seat) == cards(text), seat
    assert after.stock == cards("K♥ A♥")
    assert [len(h) for h in after.hands] == [6, 6, 6, 6]
    assert after.face_up == C("A♥")
    assert after.known == (frozenset(),) * 4


@pytest.mark.parametrize(("order", "last"), [(FIRST, 3), (JOIN, 2)])
def test_the_face_up_trump_is_drawn_last_and_becomes_known(order: DrawOrder,
                                                           last: int) -> None:
    # DRAW-4, DRAW-5, VIEW-2: four cards for seven wanted; the defender gets none.
    start, after = four_player_bout(order, "6♥ 7♥ 8♥ A♥")
    assert after.stock == ()
    assert after.face_up is None
    assert C("A♥") in after.hands[last]
    assert after.known[last] == frozenset({C("A♥")})
    assert all(not after.known[s] for s in range(4) if s != last)
    assert drawn(start, after, 1) == ()
    assert drawn(start, after, 0) == cards("6♥")


@pytest.mark.parametrize("order", [FIRST, JOIN])
def test_nobody_draws_from_an_empty_stock(order: DrawOrder) -> None:  # DRAW-4
    start, after = four_player_bout(order, "")
    assert [len(h) for h in after.hands] == [5, 3, 5, 4]
    assert all(drawn(start, after, s) == () for s in range(4))


def test_a_player_with_six_or_more_draws_nothing() -> None:  # DRAW-3
    rules = RuleSet(players=3)
    start = position(rules, hands={0: "7♣ A♠ K♠ Q♠ J♠ 10♠ 6♠ 8♠", 1: "9♣ A♦", 2: "6♣ 8♣"},
                     stock="6♥ 7♥ 8♥ 9♥ A♥")
    after = play(start, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.table == ()
    assert len(after.hands[0]) == 7
    assert drawn(start, after, 2) == cards("6♥ 7♥ 8♥ 9♥")
    assert drawn(start, after, 1) == cards("A♥")


@pytest.mark.parametrize("order", [FIRST, JOIN])
def test_three_players_attacker_then_the_other_then_the_defender(order: DrawOrder) -> None:
    # DRAW-2: with three players and no transfer both orders agree.
    rules = RuleSet(players=3, draw_order=order)
    start = position(rules, hands={0: "7♣ A♠ K♠", 1: "9♣ A♦ K♦", 2: "7♦ 6♣"},
                     stock="6♠ 7♠ 8♠ 9♠ 10♥ J♥ Q♥ K♥ 6♥ 7♥ A♥")
    after = play(start, "P0 open 7♣", "P2 throw 7♦", "P1 take")
    assert drawn(start, after, 0) == cards("6♠ 7♠ 8♠ 9♠")
    assert drawn(start, after, 2) == cards("10♥ J♥ Q♥ K♥ 6♥")
    assert drawn(start, after, 1) == cards("7♦ 7♣ 7♥")  # the two taken, one drawn
    assert after.stock == cards("A♥")


@pytest.mark.parametrize(("order", "expected", "last"), [
    (FIRST, {1: "6♥", 2: "7♥ 9♥"}, 2),
    (JOIN, {2: "6♥ 7♥", 1: "9♥"}, 1),
])
def test_after_transfers_round_the_table(order: DrawOrder, expected: dict[int, str],
                                         last: int) -> None:
    # CLAR-7: attacker-first counts from the opener, P0, who is now the defender: P1, P2,
    # then P0. CLAR-8: join order follows who played first: P2 threw in before P1
    # transferred, so P2, P1, then P0.
    rules = RuleSet(players=3, transfer=True, throw_in=Who.ALL, draw_order=order)
    start = position(rules, hands={0: "8♠ 9♠ 10♠ J♠ Q♠ K♠", 1: "8♦ A♣ K♣ Q♣ J♣ 10♣",
                                   2: "8♣ 8♥ A♦ K♦ Q♦ J♦"}, stock="6♥ 7♥ 9♥")
    state = play(start, "P0 open 8♠", "P2 throw 8♣", "P1 transfer 8♦", "P2 transfer 8♥")
    assert (state.attacker, state.defender, state.opener, state.joined) == (2, 0, 0, (0, 2, 1))
    after = play(state, "P0 take")
    assert len(after.hands[0]) == 9
    for seat, text in expected.items():
        assert drawn(start, after, seat) == cards(text), seat
    assert after.known[last] == frozenset({C("9♥")})
    assert (after.attacker, after.defender) == (1, 2)  # ORDER-5


@pytest.mark.parametrize("order", [FIRST, JOIN])
def test_two_players_attacker_then_defender(order: DrawOrder) -> None:  # DRAW-2 (B)
    rules = RuleSet(players=2, draw_order=order)
    start = position(rules, hands={0: "7♣ A♠", 1: "9♣ A♦"}, stock="6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ A♥")
    after = play(start, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert drawn(start, after, 0) == cards("6♥ 7♥ 8♥ 9♥ 10♥")
    assert drawn(start, after, 1) == cards("J♥ Q♥ A♥")
    assert after.known == (frozenset(), frozenset({C("A♥")}))
    assert (after.attacker, after.defender) == (1, 0)
