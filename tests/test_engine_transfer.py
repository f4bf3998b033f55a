"""The transfer game (TRANSFER-1 .. TRANSFER-8, EX-4, CLAR-6, CLAR-14)."""

from __future__ import annotations

from helpers import actions_of, assert_illegal, cards, play, position

from durak_spec import (
    Cover,
    Pair,
    RuleSet,
    Take,
    ThrowIn,
    Transfer,
    parse_card,
    throwers,
    validate_state,
)
from durak_spec.model.rules import ThrowIn as Who

C = parse_card
THREE = RuleSet(players=3, transfer=True)
TWO = RuleSet(players=2, transfer=True)
SHOW2 = TWO.replace(transfer_by_showing_trump=True)


def test_the_defender_passes_the_attack_on_with_a_card_of_its_rank() -> None:  # TRANSFER-1
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ 9♠ K♣", 2: "9♦ 10♠ J♠ Q♠ 6♥ 7♥"},
                     table="8♠", stock=8)
    assert actions_of(state, 1) == {Cover(1, C("8♠"), C("9♠")), Cover(1, C("8♠"), C("8♥")),
                                    Transfer(1, C("8♥")), Take(1)}
    after = play(state, "P1 transfer 8♥")
    assert after.table == (Pair(C("8♠")), Pair(C("8♥")))
    assert (after.attacker, after.defender, after.opener) == (1, 2, 0)
    assert after.joined == (0, 1)
    assert after.hands[1] == cards("9♠ K♣")


def test_both_eights_go_to_the_next_player_who_must_beat_both() -> None:  # EX-4
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ K♣", 2: "9♠ 9♦ 10♥ J♠ Q♠ 6♣"},
                     table="8♠", stock=8)
    after = play(state, "P1 transfer 8♥")
    assert actions_of(after, 2) == {
        Cover(2, C("8♠"), C("9♠")), Cover(2, C("8♠"), C("J♠")), Cover(2, C("8♠"), C("Q♠")),
        Cover(2, C("8♠"), C("10♥")), Cover(2, C("8♥"), C("10♥")), Take(2)}
    beaten = play(after, "P2 cover 8♠ with 9♠", "P2 cover 8♥ with 10♥")
    assert beaten.table == ()
    assert set(beaten.discard) >= set(cards("8♠ 8♥ 9♠ 10♥"))


def test_only_the_defender_transfers() -> None:  # TRANSFER-1
    rules = THREE.replace(throw_in=Who.ALL)
    state = position(rules, hands={0: "8♦ A♦", 1: "9♠ K♣", 2: "8♣ 10♠ J♠"}, table="8♠",
                     stock=8)
    for seat, card in ((0, "8♦"), (2, "8♣")):
        error = assert_illegal(state, f"P{seat} transfer {card}", "TRANSFER-1")
        assert "defender" in error.reason


def test_a_transfer_card_comes_from_the_defenders_hand() -> None:  # CLAR-1
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ K♣", 2: "9♦ 10♠ J♠"}, table="8♠",
                     stock=8)
    assert_illegal(state, "P1 transfer 8♦", "CLAR-1")


def test_the_transfer_card_matches_the_rank_of_every_attack_card() -> None:  # TRANSFER-2
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ 9♠ K♣", 2: "9♦ 10♠ J♠ Q♠"},
                     table="8♠ 8♣", stock=8)
    assert Transfer(1, C("8♥")) in actions_of(state)
    error = assert_illegal(state, "P1 transfer 9♠", "TRANSFER-2")
    assert "8♠ 8♣" in error.reason
    after = play(state, "P1 transfer 8♥")
    assert after.attack_cards == (C("8♠"), C("8♣"), C("8♥"))


def test_the_new_defender_must_hold_enough_cards() -> None:  # TRANSFER-3
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ 9♠ K♣", 2: "9♦"}, table="8♠",
                     stock=8)
    assert not any(isinstance(a, Transfer) for a in actions_of(state))
    error = assert_illegal(state, "P1 transfer 8♥", "TRANSFER-3")
    assert "P2" in error.reason


def test_the_new_defender_may_hold_exactly_enough_cards() -> None:  # TRANSFER-3
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ 9♠ K♣", 2: "9♦ 10♦"}, table="8♠",
                     stock=8)
    assert Transfer(1, C("8♥")) in actions_of(state)
    assert play(state, "P1 transfer 8♥").defender == 2


def test_a_transfer_may_make_four_attack_cards() -> None:  # TRANSFER-4, LIMIT-4
    # Every attack card of a transfer has one rank, so a transfer makes at most four attack
    # cards and can never pass six: TRANSFER-4 has no reachable negative case.
    state = position(THREE, hands={0: "K♦ A♦ 6♣", 1: "8♥ K♣ 7♣", 2: "9♦ 10♠ J♠ Q♠"},
                     table="8♠ 8♣ 8♦", stock=8)
    assert Transfer(1, C("8♥")) in actions_of(state)
    after = play(state, "P1 transfer 8♥")
    assert len(after.table) == 4
    assert after.defender == 2


def test_no_transfer_once_a_card_is_beaten() -> None:  # TRANSFER-5
    state = position(THREE, hands={0: "K♦ A♦", 1: "8♥ K♣", 2: "9♦ 10♠ J♠ Q♠"},
                     table="8♠/9♠ 8♣", stock=8)
    assert actions_of(state, 1) == {Cover(1, C("8♣"), C("K♣")), Cover(1, C("8♣"), C("8♥")),
                                    Take(1)}
    error = assert_illegal(state, "P1 transfer 8♥", "TRANSFER-5")
    assert "beaten" in error.reason


def test_the_new_defender_may_transfer_again_even_back_to_the_opener() -> None:
    # TRANSFER-6, CLAR-14: with three players the attack can travel round to the opener.
    state = position(THREE, hands={0: "K♦ A♦ 9♠ 10♠", 1: "8♥ K♣", 2: "8♦ 10♦ J♠"},
                     table="8♠", stock=8)
    once = play(state, "P1 transfer 8♥")
    assert actions_of(once, 2) == {Transfer(2, C("8♦")), Take(2)} | {
        Cover(2, C("8♠"), C("J♠"))}
    twice = play(once, "P2 transfer 8♦")
    assert (twice.attacker, twice.defender, twice.opener) == (2, 0, 0)
    assert twice.attack_cards == (C("8♠"), C("8♥"), C("8♦"))
    assert twice.joined == (0, 1, 2)
    assert actions_of(twice, 0) == {Cover(0, C("8♠"), C("9♠")), Cover(0, C("8♠"), C("10♠")),
                                    Cover(0, C("8♦"), C("K♦")), Cover(0, C("8♦"), C("A♦")),
                                    Take(0)}


def test_with_two_players_the_attack_goes_straight_back() -> None:  # TRANSFER-6, CLAR-14
    state = position(TWO, hands={0: "8♠ 8♦ 9♠ 10♠ K♦", 1: "8♥ K♣ A♣ Q♣"}, stock=8)
    state = play(state, "P0 open 8♠")
    back = play(state, "P1 transfer 8♥")
    assert (back.attacker, back.defender, back.opener) == (1, 0, 0)
    assert actions_of(back, 0) == {Cover(0, C("8♠"), C("9♠")), Cover(0, C("8♠"), C("10♠")),
                                   Transfer(0, C("8♦")), Take(0)}
    again = play(back, "P0 transfer 8♦")
    assert (again.attacker, again.defender) == (0, 1)
    assert again.attack_cards == (C("8♠"), C("8♥"), C("8♦"))
    assert actions_of(again, 1) == {Take(1)}


def test_throwers_after_a_transfer() -> None:  # TRANSFER-1, ATTACK-4
    hands = {0: "8♦ A♦", 1: "8♥ 8♣ K♣", 2: "9♦ 10♠ J♠ Q♠"}
    for who, expected in ((Who.ALL, (0, 1)), (Who.ATTACKER, (1,))):
        state = position(THREE.replace(throw_in=who), hands=hands, table="8♠", stock=8)
        after = play(state, "P1 transfer 8♥")
        assert throwers(after) == expected
        adds = {a for a in actions_of(after) if isinstance(a, ThrowIn)}
        assert adds == {ThrowIn(s, c) for s in expected
                        for c in after.hands[s] if c.rank == C("8♠").rank}


def test_a_transfer_skips_a_player_who_is_out() -> None:  # TRANSFER-1, ORDER-6
    rules = RuleSet(players=4, transfer=True)
    state = position(rules, hands={0: "K♦ A♦", 1: "8♥ K♣", 3: "9♦ 10♠"}, table="8♠",
                     finished=[(2,)])
    after = play(state, "P1 transfer 8♥")
    assert (after.attacker, after.defender) == (1, 3)


def test_showing_a_trump_does_not_transfer_by_default() -> None:  # TRANSFER-7
    state = position(TWO, hands={0: "K♦ A♦", 1: "8♥ K♣"}, table="8♠", stock=8)
    assert Transfer(1, C("8♥"), show=True) not in actions_of(state)
    error = assert_illegal(state, Transfer(1, C("8♥"), show=True), "TRANSFER-7")
    assert "showing" in error.reason


def test_showing_a_trump_transfers_where_the_switch_is_on() -> None:  # TRANSFER-7, CLAR-6
    state = position(SHOW2, hands={0: "8♦ 9♠ K♦", 1: "8♥ K♣"}, table="8♠", stock=8)
    assert actions_of(state, 1) == {Cover(1, C("8♠"), C("8♥")), Transfer(1, C("8♥")),
                                    Transfer(1, C("8♥"), show=True), Take(1)}
    shown = play(state, "P1 show 8♥")
    assert shown.table == (Pair(C("8♠")),)
    assert shown.hands[1] == cards("8♥ K♣")
    assert C("8♥") in shown.known[1]
    assert shown.shown == frozenset({C("8♥")})
    assert (shown.attacker, shown.defender) == (1, 0)


def test_a_trump_is_shown_once_per_bout() -> None:  # CLAR-6
    state = position(SHOW2, hands={0: "8♦ 9♠ K♦ A♦", 1: "8♥ K♣ A♣"}, table="8♠", stock=8)
    state = play(state, "P1 show 8♥", "P0 transfer 8♦")
    assert state.defender == 1
    assert Transfer(1, C("8♥")) in actions_of(state)
    error = assert_illegal(state, "P1 show 8♥", "CLAR-6")
    assert "already" in error.reason


def test_only_a_trump_can_be_shown() -> None:  # TRANSFER-7
    state = position(SHOW2, hands={0: "K♦ A♦", 1: "8♣ K♣"}, table="8♠", stock=8)
    assert_illegal(state, Transfer(1, C("8♣"), show=True), "TRANSFER-7")


def test_showing_needs_the_new_defender_to_hold_the_attack() -> None:  # TRANSFER-3, CLAR-6
    state = position(SHOW2, hands={0: "K♦", 1: "8♥ K♣"}, table="8♠ 8♦", stock=8)
    assert Transfer(1, C("8♥"), show=True) not in actions_of(state)
    assert_illegal(state, "P1 show 8♥", "TRANSFER-3")
    fits = position(SHOW2, hands={0: "K♦ A♦", 1: "8♥ K♣"}, table="8♠ 8♦", stock=8)
    assert Transfer(1, C("8♥"), show=True) in actions_of(fits)
    assert Transfer(1, C("8♥")) not in actions_of(fits)


def test_the_throw_in_game_has_no_transfer() -> None:  # TRANSFER-8
    rules = RuleSet(players=3)
    state = position(rules, hands={0: "K♦ A♦", 1: "8♥ 9♠ K♣", 2: "9♦ 10♠ J♠ Q♠"},
                     table="8♠", stock=8)
    assert not any(isinstance(a, Transfer) for a in actions_of(state))
    error = assert_illegal(state, "P1 transfer 8♥", "TRANSFER-8")
    assert "no transfer" in error.reason


def test_a_shown_trump_may_later_be_thrown_in_and_the_position_stays_valid() -> None:
    # CLAR-6: a shown trump stays in the hand, so its holder may later throw it in as an
    # attacker. The engine keeps it in ``state.shown`` once it lies on the table, and
    # ``validate_state`` then rejects the engine's own position (TRANSFER-7).
    rules = RuleSet(players=3, transfer=True, transfer_by_showing_trump=True)
    state = position(rules, trump="♦", hands={0: "Q♣ 7♠", 1: "Q♦ 8♠ 9♠", 2: "K♣ 10♠ J♠"},
                     stock=4)
    state = play(state, "P0 open Q♣", "P1 show Q♦", "P2 cover Q♣ with K♣")
    assert ThrowIn(1, C("Q♦")) in actions_of(state)
    after = play(state, "P1 throw Q♦")
    assert after.table == (Pair(C("Q♣"), C("K♣")), Pair(C("Q♦")))
    assert validate_state(after) is after
