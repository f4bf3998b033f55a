"""The deal and the first attacker (DEAL-1 .. DEAL-8, ORDER-1 .. ORDER-3, ORDER-7, CLAR-10,
CLAR-11)."""

from __future__ import annotations

import pytest
from helpers import actions_of, cards, stacked_deck

from durak_spec import (
    DECK,
    Card,
    InputError,
    InvalidState,
    NoTrumpLead,
    Open,
    RuleSet,
    Suit,
    new_game,
    parse_card,
    parse_cards,
    validate_state,
)
from durak_spec.model.state import sort_cards

C = parse_card


def rotated(k: int) -> tuple[Card, ...]:
    return DECK[k:] + DECK[:k]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("shift", [0, 13, 22])
def test_six_cards_a_seat_in_blocks_then_the_stock(players: int, shift: int) -> None:
    # DEAL-4, DEAL-5, DEAL-6, CLAR-10
    order = rotated(shift)
    state = new_game(RuleSet(players=players), deck=order)
    for seat in range(players):
        assert state.hands[seat] == sort_cards(order[6 * seat:6 * seat + 6])
    assert state.stock == order[6 * players:]
    assert len(state.stock) == 36 - 6 * players
    assert state.trump == order[-1].suit
    assert state.face_up == order[-1]
    assert state.table == () and state.discard == ()
    assert state.bout == 0
    assert state.start_hands == (6,) * players
    assert state.known == (frozenset(),) * players
    assert state.finished == () and state.outcome is None
    assert validate_state(state) is state


def test_six_players_deal_every_card_and_the_last_one_shows_trump() -> None:  # DEAL-8
    order = rotated(5)
    last = order[-1]
    state = new_game(RuleSet(players=6), deck=order)
    assert state.stock == ()
    assert state.face_up is None
    assert state.trump == last.suit
    assert last in state.hands[5]
    assert state.known == (frozenset(),) * 5 + (frozenset({last}),)
    assert sum(len(h) for h in state.hands) == 36
    assert validate_state(state) is state


def test_six_players_lowest_trump_leads() -> None:  # DEAL-8, ORDER-1
    deck = stacked_deck(["7♣ 8♣ 9♣ 10♣ J♣ Q♣", "7♦ 8♦ 9♦ 10♦ J♦ Q♦", "7♠ 8♠ 9♠ 10♠ J♠ Q♠",
                         "6♥ K♣ A♣ K♦ A♦ K♠", "7♥ 8♥ 9♥ 10♥ J♥ Q♥", "6♣ 6♦ 6♠ A♠ K♥ A♥"])
    state = new_game(RuleSet(players=6), deck=deck)
    assert state.trump is Suit.HEARTS
    assert state.known[5] == frozenset({C("A♥")})
    assert (state.attacker, state.defender, state.opener) == (3, 4, 3)


@pytest.mark.parametrize(("hands", "attacker"), [
    (["7♠ 6♣ 7♣ 8♣ 9♣ 10♣", "6♠ 6♦ 7♦ 8♦ 9♦ 10♦", "J♣ Q♣ K♣ A♣ J♦ Q♦"], 1),
    (["7♠ 6♣ 7♣ 8♣ 9♣ 10♣", "8♠ 6♦ 7♦ 8♦ 9♦ 10♦", "J♣ Q♣ K♣ A♣ J♦ Q♦"], 0),
    (["J♣ Q♣ K♣ A♣ J♦ Q♦", "6♣ 7♣ 8♣ 9♣ 10♣ 6♦", "K♠ 7♦ 8♦ 9♦ 10♦ K♦"], 2),
])
def test_the_lowest_trump_leads(hands: list[str], attacker: int) -> None:  # ORDER-1, ORDER-3
    state = new_game(RuleSet(players=3), deck=stacked_deck(hands, face_up="A♠"))
    assert state.trump is Suit.SPADES
    assert (state.attacker, state.defender, state.opener) == (attacker, (attacker + 1) % 3,
                                                              attacker)
    assert actions_of(state) == {Open(attacker, (c,)) for c in state.hands[attacker]}


@pytest.mark.parametrize("seed", range(12))
def test_every_new_game_starts_with_the_lowest_trump(seed: int) -> None:  # ORDER-1, ORDER-7
    state = new_game(RuleSet(players=4), seed=seed)
    trumps = [(c.rank, seat) for seat, hand in enumerate(state.hands) for c in hand
              if c.suit == state.trump]
    assert trumps  # with 24 of 36 cards dealt these seeds all deal a trump
    assert state.attacker == min(trumps)[1]
    assert state.defender == (state.attacker + 1) % 4


NO_TRUMP = stacked_deck(["6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"], face_up="A♥")


def test_no_trump_dealt_chance_picks_the_attacker_from_the_seed() -> None:  # ORDER-2, CLAR-11
    rules = RuleSet(players=2, no_trump_lead=NoTrumpLead.CHANCE)
    first = {seed: new_game(rules, deck=NO_TRUMP, seed=seed).attacker for seed in range(24)}
    assert set(first.values()) == {0, 1}
    for seed, seat in first.items():
        again = new_game(rules, deck=NO_TRUMP, seed=seed)
        assert again.attacker == seat
        assert again.defender == 1 - seat


def test_no_trump_dealt_the_first_seat_attacks() -> None:  # ORDER-2 (first-seat)
    rules = RuleSet(players=2, no_trump_lead=NoTrumpLead.FIRST_SEAT)
    assert {new_game(rules, deck=NO_TRUMP, seed=seed).attacker for seed in range(24)} == {0}


def test_a_seed_gives_the_same_game_again() -> None:
    rules = RuleSet(players=3)
    assert new_game(rules, seed=42) == new_game(rules, seed=42)
    games = {new_game(rules, seed=s).hands for s in range(6)}
    assert len(games) == 6
    for seed in range(6):
        state = new_game(rules, seed=seed)
        assert validate_state(state) is state
        assert set(state.stock) | {c for h in state.hands for c in h} == set(DECK)


def test_stacked_deck_reads_in_deal_order() -> None:  # CLAR-10
    deck = stacked_deck(["A♠ 6♣ 7♣ 8♣ 9♣ 10♣", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"], stock="6♥ 7♥",
                        face_up="K♠")
    state = new_game(RuleSet(players=2), deck=deck)
    assert state.hands == (cards("A♠ 6♣ 7♣ 8♣ 9♣ 10♣"), cards("6♦ 7♦ 8♦ 9♦ 10♦ J♦"))
    assert state.stock[:2] == parse_cards("6♥ 7♥")
    assert state.face_up == C("K♠")
    assert state.trump is Suit.SPADES
    assert state.attacker == 0


@pytest.mark.parametrize(("deck", "fragment"), [
    (DECK[:35], "35 cards"),
    ((*DECK, DECK[0]), "twice: 6♣"),
    ((*DECK[:35], DECK[0]), "missing: A♠"),
    ((), "0 cards"),
    (tuple(str(c) for c in DECK), "'6♣' is not a card of the 36-card deck"),
])
def test_a_deck_order_must_hold_each_card_once(deck: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(InvalidState) as excinfo:
        new_game(RuleSet(players=2), deck=deck)  # type: ignore[arg-type]
    assert excinfo.value.rule == "DEAL-1"
    assert fragment in excinfo.value.reason


def test_new_game_needs_a_rule_set() -> None:
    with pytest.raises(InputError, match="RuleSet") as excinfo:
        new_game("classic", seed=1)  # type: ignore[arg-type]
    assert (excinfo.value.code, excinfo.value.rule) == ("not-a-rule-set", None)
