"""Exchanging the six of trumps for the face-up trump (VAR-1, CLAR-5)."""

from __future__ import annotations

from helpers import actions_of, assert_illegal, cards, play, position, stacked_deck

from durak_spec import ExchangeTrump, Open, RuleSet, new_game, parse_card

C = parse_card
ON = RuleSet(players=3, trump_exchange=True)
OFF = RuleSet(players=3)
HANDS = {0: "6♥ 7♣ K♠", 1: "8♣ 9♦", 2: "10♣ J♦"}


def test_no_exchange_without_the_variant() -> None:  # VAR-1
    state = position(OFF, hands=HANDS, stock="6♠ 7♠ A♥")
    assert actions_of(state) == {Open(0, (c,)) for c in state.hands[0]}
    error = assert_illegal(state, "P0 exchange", "VAR-1")
    assert "no trump exchange" in error.reason


def test_the_attacker_swaps_the_six_for_the_face_up_trump() -> None:  # VAR-1, CLAR-5
    state = position(ON, hands=HANDS, stock="6♠ 7♠ A♥")
    assert actions_of(state) == {Open(0, (c,)) for c in state.hands[0]} | {ExchangeTrump(0)}
    after = play(state, "P0 exchange")
    assert after.hands[0] == cards("A♥ 7♣ K♠")
    assert after.stock == (C("6♠"), C("7♠"), C("6♥"))
    assert after.face_up == C("6♥")
    assert after.known[0] == frozenset({C("A♥")})
    assert (after.attacker, after.defender, after.table) == (0, 1, ())
    assert actions_of(after) == {Open(0, (c,)) for c in after.hands[0]}


def test_the_six_taken_up_in_play_is_forgotten_when_exchanged() -> None:  # CLAR-5, VIEW-2
    state = position(ON, hands=HANDS, stock="6♠ 7♠ A♥", known={0: "6♥ 7♣"})
    after = play(state, "P0 exchange")
    assert after.known[0] == frozenset({C("7♣"), C("A♥")})


def test_only_the_attacker_exchanges() -> None:  # CLAR-5
    state = position(ON, hands={0: "7♣ K♠", 1: "6♥ 9♦", 2: "10♣ J♦"}, stock="6♠ 7♠ A♥")
    assert ExchangeTrump(1) not in actions_of(state)
    error = assert_illegal(state, "P1 exchange", "CLAR-5")
    assert "attacker" in error.reason


def test_no_exchange_during_a_bout() -> None:  # CLAR-5
    state = position(ON, hands={0: "6♥ K♠", 1: "8♣ 9♦", 2: "10♣ J♦"}, table="7♣",
                     stock="6♠ 7♠ A♥")
    assert_illegal(state, "P0 exchange", "CLAR-5")


def test_no_exchange_once_only_the_face_up_card_is_left() -> None:  # CLAR-5
    state = position(ON, hands=HANDS, stock="A♥")
    assert ExchangeTrump(0) not in actions_of(state)
    error = assert_illegal(state, "P0 exchange", "CLAR-5")
    assert "two cards" in error.reason
    two = position(ON, hands=HANDS, stock="7♠ A♥")
    assert ExchangeTrump(0) in actions_of(two)


def test_no_exchange_with_an_empty_stock() -> None:  # CLAR-5
    state = position(ON, hands=HANDS)
    assert_illegal(state, "P0 exchange", "CLAR-5")


def test_the_attacker_must_hold_the_six_of_trumps() -> None:  # CLAR-5, CLAR-1
    state = position(ON, hands={0: "6♣ 7♣ K♠", 1: "8♣ 9♦", 2: "10♣ J♦"}, stock="6♠ 7♠ A♥")
    assert ExchangeTrump(0) not in actions_of(state)
    assert_illegal(state, "P0 exchange", "CLAR-1")


def test_six_players_have_no_face_up_card_to_exchange() -> None:  # CLAR-5, DEAL-8
    deck = stacked_deck(["6♥ 7♣ 8♣ 9♣ 10♣ J♣", "6♦ 7♦ 8♦ 9♦ 10♦ J♦", "6♠ 7♠ 8♠ 9♠ 10♠ J♠",
                         "Q♣ K♣ A♣ Q♦ K♦ A♦", "Q♠ K♠ A♠ 7♥ 8♥ 9♥", "6♣ 10♥ J♥ Q♥ K♥ A♥"])
    state = new_game(RuleSet(players=6, trump_exchange=True), deck=deck)
    assert state.attacker == 0
    assert ExchangeTrump(0) not in actions_of(state)
    assert_illegal(state, "P0 exchange", "CLAR-5")


def test_a_new_game_offers_the_exchange_to_the_first_attacker() -> None:  # VAR-1
    deck = stacked_deck(["6♥ 7♣ 8♣ 9♣ 10♣ J♣", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"], face_up="A♥")
    state = new_game(RuleSet(players=2, trump_exchange=True), deck=deck)
    assert state.attacker == 0
    assert ExchangeTrump(0) in actions_of(state)
    after = play(state, "P0 exchange")
    assert C("A♥") in after.hands[0]
    assert after.stock[-1] == C("6♥")
    assert after.attacker == 0
