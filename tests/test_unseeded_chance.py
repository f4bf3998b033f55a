"""Chance without a seed is chance (issue 13): an unseeded deal and ORDER-2 use fresh
randomness, and the record keeps the seed drawn, so the game can be dealt again."""

from __future__ import annotations

import random

from helpers import stacked_deck

from durak_spec import Game, RuleSet, new_game
from durak_spec.engine import deal
from durak_spec.engine.dealing import fresh_seed
from durak_spec.model.rules import NoTrumpLead

# Two hands without a heart, hearts turned up: nobody holds a trump, so ORDER-2 decides.
NO_TRUMP = stacked_deck(["6♣ 7♣ 8♣ 9♣ 10♣ J♣", "6♦ 7♦ 8♦ 9♦ 10♦ J♦"], face_up="A♥")
CHANCE = RuleSet(players=2, no_trump_lead=NoTrumpLead.CHANCE)


def test_a_stacked_deck_without_a_seed_lets_chance_pick_either_seat() -> None:  # ORDER-2
    first = [new_game(CHANCE, deck=NO_TRUMP).attacker for _ in range(40)]
    # Each seat is picked with probability 1/2: all 40 alike has probability 2**-39.
    assert set(first) == {0, 1}


def test_unseeded_shuffles_differ() -> None:
    deals = {deal(CHANCE) for _ in range(20)}
    assert len(deals) == 20
    assert len({new_game(CHANCE).hands for _ in range(20)}) == 20


def test_a_recorded_seed_deals_the_same_stacked_game_again() -> None:  # ORDER-2, CLAR-11
    games = [Game.new(CHANCE, deck=NO_TRUMP) for _ in range(40)]
    assert {game.initial.attacker for game in games} == {0, 1}
    for game in games:
        assert isinstance(game.seed, int)
        again = Game.new(CHANCE, deck=NO_TRUMP, seed=game.seed)
        assert again == game
        assert new_game(CHANCE, deck=NO_TRUMP, seed=game.seed) == game.initial


def test_a_recorded_seed_replays_a_whole_unseeded_game() -> None:
    chooser = random.Random(3)
    rules = RuleSet(players=3)
    game = Game.new(rules)
    while not game.is_over:
        game = game.play(chooser.choice(game.legal_actions()))
    assert game.seed is not None
    again = Game.new(rules, seed=game.seed).play_all(game.actions)
    assert again == game
    assert again.outcome == game.outcome


def test_fresh_seeds_are_whole_numbers_that_differ() -> None:
    seeds = {fresh_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
