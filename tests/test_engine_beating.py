"""Beating a card (BEAT-1 .. BEAT-6, EX-1, EX-2, EX-5 .. EX-7, CLAR-1)."""

from __future__ import annotations

import pytest
from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    DECK,
    Card,
    Cover,
    GameState,
    IllegalAction,
    InvalidState,
    Pair,
    RuleSet,
    Suit,
    Take,
    beating_rule,
    beats,
    check,
    cover_breach,
    parse_card,
    validate_state,
)
from durak_spec.engine.beating import BEATERS

RULES = RuleSet(players=2)
C = parse_card


def attacked(defender_hand: str, table: str, trump: str = "♥",
             attacker_hand: str = "6♠ 6♦ 8♠") -> GameState:
    """P0 attacks P1 with ``table``; P1 holds ``defender_hand``; 10 cards in the stock."""
    return position(RULES, trump=trump, hands={0: attacker_hand, 1: defender_hand},
                    table=table, stock=10)


def test_beats_agrees_with_the_rules_for_every_pair_of_cards() -> None:
    for trump in Suit:
        for attack in DECK:
            for card in DECK:
                if card == attack:
                    continue
                if card.suit == attack.suit:
                    expected = card.rank > attack.rank  # BEAT-1, BEAT-3, BEAT-5
                else:
                    expected = card.suit == trump  # BEAT-2, BEAT-5
                assert beats(card, attack, trump) is expected, (card, attack, trump)


def test_the_table_of_beaters_is_the_answers_of_beats() -> None:
    # covers lists from BEATERS; the check side asks beats: the two must never differ
    for trump in Suit:
        assert set(BEATERS[trump]) == set(DECK)
        for attack in DECK:
            assert BEATERS[trump][attack] == {card for card in DECK
                                              if beats(card, attack, trump)}


def test_the_rule_named_for_a_pair_is_the_rule_a_failed_cover_breaks() -> None:
    # beating_rule names the rule that decides a pair (for faces that explain a legal
    # cover); cover_breach explains a failed one: they agree on every pair, and a pair
    # beats exactly under BEAT-1, BEAT-2 or a higher trump under BEAT-3.
    for trump in Suit:
        for attack in DECK:
            for card in DECK:
                if card == attack:
                    continue
                rule = beating_rule(card, attack, trump)
                breach = cover_breach(card, attack, trump)
                if beats(card, attack, trump):
                    assert breach is None
                    assert rule in ("BEAT-1", "BEAT-2", "BEAT-3"), (card, attack, trump)
                else:
                    assert breach is not None and breach.rule == rule, (card, attack, trump)
                    assert rule in ("BEAT-3", "BEAT-4", "BEAT-5")


def test_the_ace_of_trumps_is_beaten_by_nothing() -> None:  # BEAT-4
    for trump in Suit:
        ace = Card(max(c.rank for c in DECK), trump)
        assert not any(beats(card, ace, trump) for card in DECK)


def test_a_higher_card_of_the_same_suit_beats(  # BEAT-1, EX-2
) -> None:
    state = attacked("9♣ 6♣ 8♦", "7♣", attacker_hand="9♠ 6♦ 8♠")
    after = play(state, "P1 cover 7♣ with 9♣")
    assert after.table == (Pair(C("7♣"), C("9♣")),)
    assert after.hands[1] == cards("6♣ 8♦")


def test_a_lower_card_of_the_same_suit_does_not_beat() -> None:  # BEAT-5
    error = assert_illegal(attacked("6♣ 8♦", "7♣"), "P1 cover 7♣ with 6♣", "BEAT-5")
    assert "6♣" in error.reason and "7♣" in error.reason


def test_a_card_of_another_plain_suit_does_not_beat() -> None:  # BEAT-5
    assert_illegal(attacked("A♦ 8♦", "7♣"), "P1 cover 7♣ with A♦", "BEAT-5")


def test_any_trump_beats_any_plain_card() -> None:  # BEAT-2, EX-7
    state = attacked("6♥ 8♦", "A♣")
    assert Cover(1, C("A♣"), C("6♥")) in actions_of(state, 1)
    after = play(state, "P1 cover A♣ with 6♥")
    assert after.table == (Pair(C("A♣"), C("6♥")),)


def test_six_of_diamonds_trumps_beats_a_king() -> None:  # EX-1
    state = attacked("6♦ 8♣", "K♠", trump="♦", attacker_hand="6♠ 7♠ 9♠")
    assert actions_of(state, 1) == {Cover(1, C("K♠"), C("6♦")), Take(1)}


def test_a_trump_is_beaten_by_a_higher_trump() -> None:  # BEAT-3
    state = attacked("9♥ 7♥ A♣", "8♥")
    assert actions_of(state, 1) == {Cover(1, C("8♥"), C("9♥")), Take(1)}
    assert play(state, "P1 cover 8♥ with 9♥").table == (Pair(C("8♥"), C("9♥")),)


@pytest.mark.parametrize("card", ["7♥", "A♣", "A♠"])
def test_a_trump_is_not_beaten_by_a_lower_trump_or_a_plain_card(card: str) -> None:  # BEAT-3
    state = attacked("7♥ A♣ A♠", "8♥")
    error = assert_illegal(state, f"P1 cover 8♥ with {card}", "BEAT-3")
    assert "trump" in error.reason


def test_the_ace_of_trumps_cannot_be_beaten() -> None:  # BEAT-4
    state = attacked("K♥ Q♥ A♣", "A♥")
    assert actions_of(state, 1) == {Take(1)}
    assert_illegal(state, "P1 cover A♥ with K♥", "BEAT-4")
    assert_illegal(state, "P1 cover A♥ with A♣", "BEAT-4")


def test_the_legal_beats_of_nine_of_clubs_with_hearts_trump() -> None:  # EX-5
    hand = "10♣ K♣ 8♣ 6♥ Q♥ 9♦"
    state = attacked(hand, "9♣", attacker_hand="K♠ 6♦ 8♠")
    expected = {Cover(1, C("9♣"), C(c)) for c in ("10♣", "K♣", "6♥", "Q♥")}
    assert actions_of(state, 1) == expected | {Take(1)}
    after = play(state, "P1 cover 9♣ with K♣")
    assert after.table == (Pair(C("9♣"), C("K♣")),)


def test_no_higher_club_so_a_trump_beats_the_queen() -> None:  # EX-6
    state = attacked("8♥ 10♣ 9♠", "Q♣")
    assert actions_of(state, 1) == {Cover(1, C("Q♣"), C("8♥")), Take(1)}
    assert_illegal(state, "P1 cover Q♣ with 10♣", "BEAT-5")
    assert play(state, "P1 cover Q♣ with 8♥").hands[1] == cards("10♣ 9♠")


def test_the_defender_chooses_which_attack_card_to_cover() -> None:  # BEAT-6
    state = attacked("10♣ 10♠ J♦", "7♣ 7♠", attacker_hand="6♠ 8♠ 6♦")
    mine = actions_of(state, 1)
    assert mine == {Cover(1, C("7♣"), C("10♣")), Cover(1, C("7♠"), C("10♠")), Take(1)}
    second_first = play(state, "P1 cover 7♠ with 10♠")
    assert second_first.table == (Pair(C("7♣")), Pair(C("7♠"), C("10♠")))
    assert actions_of(second_first, 1) == {Cover(1, C("7♣"), C("10♣")), Take(1)}


def test_each_attack_card_is_covered_once() -> None:  # BEAT-6
    state = attacked("10♣ J♣ J♦", "7♣/9♣ 7♦", attacker_hand="6♠ 8♠ 6♦")
    error = assert_illegal(state, "P1 cover 7♣ with 10♣", "BEAT-6")
    assert "already covered" in error.reason
    assert Cover(1, C("9♣"), C("10♣")) not in actions_of(state)
    assert_illegal(state, "P1 cover 9♣ with 10♣", "BEAT-6")


def test_only_an_attack_card_on_the_table_can_be_covered() -> None:  # BEAT-6
    assert_illegal(attacked("10♣ J♣", "7♣"), "P1 cover 8♣ with 10♣", "BEAT-6")


def test_only_the_defender_covers() -> None:  # BEAT-6
    state = attacked("10♣ J♣", "7♣", attacker_hand="9♣ 6♦ 8♠")
    assert_illegal(state, "P0 cover 7♣ with 9♣", "BEAT-6")


def test_a_cover_must_come_from_the_defenders_hand() -> None:  # CLAR-1
    error = assert_illegal(attacked("10♣ J♣", "7♣"), "P1 cover 7♣ with 9♣", "CLAR-1")
    assert "9♣" in error.reason


@pytest.mark.parametrize(("attack", "cover", "rule"), [
    ("7♣", "6♣", "BEAT-5"),  # a lower card of the suit
    ("7♣", "9♦", "BEAT-5"),  # a plain card of another suit
    ("7♥", "6♥", "BEAT-3"),  # a lower trump on a trump
    ("A♥", "6♣", "BEAT-4"),  # anything on the trump ace
])
def test_a_position_with_a_wrong_cover_is_invalid_by_the_rule_check_names(
        attack: str, cover: str, rule: str) -> None:
    # The same rule function decides a cover that is played and one that lies on the
    # table of a position made by hand: both name the same rule.
    state = attacked(f"{cover} J♠", attack, attacker_hand="6♠ 9♠ 8♠")
    with pytest.raises(IllegalAction) as played:
        check(state, Cover(1, C(attack), C(cover)))
    bad = state._replace(table=(Pair(C(attack), C(cover)),), hands=(state.hands[0], cards("J♠")))
    with pytest.raises(InvalidState) as excinfo:
        validate_state(bad)
    assert excinfo.value.rule == played.value.rule == rule
    assert excinfo.value.reason == played.value.reason
    assert f"{cover} does not beat {attack}" in excinfo.value.reason
