"""A deal that turns up another card than the deck order's last (durakmq never turns up an
ace: the first other card after the hands shows trump) is one difference, DEAL-5, in
lockstep and in the scenarios' explanation of a deal: not a difference without a rule, and
not ORDER-1 where the other trump makes another player hold the lowest trump (issue 24)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from helpers import BrokenReference

from durak_spec import profile
from durak_spec.conformance.lockstep import play_lockstep
from durak_spec.core.cards import DECK, Card, Rank, Suit
from durak_spec.engine import Layout, dealing, first_attacker, new_game
from durak_spec.model.rules import HAND_SIZE
from durak_spec.protocol import Report
from durak_spec.protocol.explain import explain_start


def _no_ace_turned_up(deck: Any, players: int) -> Any:
    # dealing.lay_out as durakmq deals: an ace is never turned up; the first card after the
    # hands that is not an ace is, and it goes under the stock (the ace stays in it). It
    # runs with dealing's globals (HAND_SIZE, Layout, Rank: imported here for the reader).
    hands = tuple(tuple(deck[HAND_SIZE * seat:HAND_SIZE * (seat + 1)])
                  for seat in range(players))
    rest = [deck[-1], *deck[HAND_SIZE * players:-1]]
    shown = next((card for card in rest if card.rank != Rank.ACE), rest[0])
    rest.remove(shown)
    return Layout(hands, (*rest, shown), shown)


def test_lockstep_names_every_deal_with_another_card_turned_up_deal_5() -> None:
    engine = BrokenReference(dealing.lay_out, _no_ace_turned_up)
    result = play_lockstep(engine, [profile("classic-throw-in").rules(2)], games=60, seed=0)
    causes = [(c.rule, c.count) for c in result.causes]
    # seed 0 turns up an ace in three of the 60 games
    assert len(causes) == 1 and causes[0][0] == "DEAL-5" and causes[0][1] >= 2, causes


def test_a_deal_whose_trump_and_opener_differ_is_charged_to_the_trump() -> None:
    rules = profile("classic-throw-in").rules(2)
    hands = ((Card(Rank.SIX, Suit.HEARTS), *[Card(r, Suit.CLUBS) for r in list(Rank)[:5]]),
             (Card(Rank.SEVEN, Suit.SPADES), *[Card(r, Suit.DIAMONDS) for r in list(Rank)[:5]]))
    ace = Card(Rank.ACE, Suit.SPADES)  # turned up: spades are trump
    stock = [c for c in DECK if c not in hands[0] + hands[1] and c != ace] + [ace]
    deck = dealing.deck_order(hands, stock)
    state = new_game(rules, deck=deck)
    assert state.attacker == 1  # the seven of spades is the lowest trump
    ours = Report.of(state)
    # The engine turned up a heart instead: Anna's six of hearts is then the lowest trump.
    engine = replace(ours, trump=Suit.HEARTS, face_up=Card(Rank.ACE, Suit.HEARTS),
                     attacker=0, defender=1)
    assert first_attacker(state.hands, Suit.HEARTS, rules)[0] == 0
    found = explain_start(state, engine)
    assert found is not None and found.rule == "DEAL-5", found
