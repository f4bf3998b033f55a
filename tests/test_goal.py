"""The goal of the game (END-5): the last holder loses (A, B, C) or the first out wins (D).

Unit tests for the race's end and its outcome, and a property over random play: a race
ends at the first bout end where anyone goes out, and the same moves under the other goal
are the same game up to that moment.
"""

from __future__ import annotations

import random

import hypothesis
import pytest
from helpers import play, position
from hypothesis import strategies as st

from durak_spec import Game, Outcome, RuleSet, profile
from durak_spec.engine import advance, legal_actions
from durak_spec.model.actions import parse_action
from durak_spec.model.events import GameOver
from durak_spec.model.rules import Goal

RACE3 = RuleSet(players=3, goal=Goal.FIRST_OUT_WINS)


@pytest.mark.parametrize("name", ["source-d", "source-d-transfer"])
def test_source_d_profiles_play_the_race(name: str) -> None:
    assert profile(name).rules().goal is Goal.FIRST_OUT_WINS
    assert profile(name).origin("goal").source == "D"


@pytest.mark.parametrize("name", ["classic-throw-in", "classic-transfer", "source-a",
                                  "source-a-transfer", "source-b", "source-b-transfer",
                                  "source-c"])
def test_the_other_profiles_play_to_the_last_holder(name: str) -> None:
    assert profile(name).rules().goal is Goal.LAST_HOLDER_LOSES


def test_the_race_ends_when_the_first_player_goes_out() -> None:
    state = position(RACE3, hands={0: "7♣", 1: "9♣ 6♦", 2: "8♦ A♠"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.is_over
    assert after.outcome == Outcome(((0,),), None, (1, 2))
    assert after.outcome is not None
    assert after.outcome.first_out == (0,)
    assert not after.outcome.is_draw
    assert str(after.outcome) == "P0 went out first and wins (out in order: P0)"
    assert legal_actions(after) == ()


def test_the_same_bout_under_the_other_goal_goes_on() -> None:
    rules = RACE3.replace(goal=Goal.LAST_HOLDER_LOSES)
    state = position(rules, hands={0: "7♣", 1: "9♣ 6♦", 2: "8♦ A♠"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert not after.is_over and after.outcome is None
    assert after.finished == ((0,),)


def test_a_race_of_two_names_the_one_left_the_durak() -> None:
    rules = RuleSet(players=2, goal=Goal.FIRST_OUT_WINS)
    state = position(rules, hands={0: "10♠", 1: "Q♠ 7♦ 8♣"})
    after = play(state, "P0 open 10♠", "P1 cover 10♠ with Q♠")
    assert after.outcome == Outcome(((0,),), 1)


def test_everyone_out_at_once_is_a_drawn_race() -> None:
    rules = RuleSet(players=2, goal=Goal.FIRST_OUT_WINS)
    state = position(rules, hands={0: "7♣", 1: "9♣"})
    after = play(state, "P0 open 7♣", "P1 cover 7♣ with 9♣")
    assert after.outcome is not None and after.outcome.is_draw
    assert str(after.outcome) == "draw (out in order: P0=P1)"


def test_the_game_over_event_carries_the_race_outcome() -> None:
    rules = RuleSet(players=4, goal=Goal.FIRST_OUT_WINS)
    state = position(rules, hands={0: "7♣", 1: "9♣", 2: "6♦", 3: "8♦ K♠"})
    opened = play(state, "P0 open 7♣")
    step = advance(opened, parse_action("P1 cover 7♣ with 9♣"))
    over = [e for e in step.events if isinstance(e, GameOver)]
    assert [e.outcome for e in over] == [Outcome(((0, 1),), None, (2, 3))]
    assert step.state.outcome == over[0].outcome


@hypothesis.settings(max_examples=12, deadline=None, derandomize=True, database=None)
@hypothesis.given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
                  name=st.sampled_from(["source-d", "source-d-transfer"]))
def test_a_random_race_ends_at_the_first_going_out(seed: int, players: int, name: str) -> None:
    race = profile(name).rules(players)
    chooser = random.Random(seed)
    game = Game.new(race, seed=seed)
    while not game.is_over:
        game = game.play(chooser.choice(game.legal_actions()))
    outcome = game.outcome
    assert outcome is not None
    assert len(outcome.finishing_order) == 1  # the race stops at its first place
    rest = game.state.in_game()
    assert all(game.state.hands[seat] for seat in rest)
    if len(rest) == 1:
        assert outcome == Outcome(outcome.finishing_order, rest[0])
    else:
        assert outcome.durak is None and outcome.holding == rest
    assert outcome.is_draw is (not rest)
    # The same moves under the other goal: the same game (only the roles of a next bout
    # differ), which goes on unless at most one player holds cards.
    other = Game.new(race.replace(goal=Goal.LAST_HOLDER_LOSES), seed=seed)
    other = other.play_all(game.actions)
    mine, theirs = game.state, other.state
    assert (theirs.hands, theirs.stock, theirs.discard, theirs.finished, theirs.known) == (
        mine.hands, mine.stock, mine.discard, mine.finished, mine.known)
    assert other.is_over is (len(rest) <= 1)
