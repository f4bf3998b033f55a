"""The game record (durak_spec.game.history): dealing, playing, replaying, and the outcome.

Runtime: about 2 s (random games of every profile with 2 to 6 players).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from durak_spec import (
    PROFILES,
    Action,
    Done,
    IllegalAction,
    InputError,
    InvalidState,
    Open,
    RuleSet,
    Take,
    apply,
    check,
    legal_actions,
    new_game,
    profile,
)
from durak_spec.engine import deal
from durak_spec.game.history import Game, ReplayError

PLAYERS = range(2, 7)
MAX_ACTIONS = 3000


def random_game(rules: RuleSet, seed: int, stop: int | None = None) -> Game:
    """A game dealt with ``seed`` and played by random legal actions (``stop`` actions at most)."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    limit = MAX_ACTIONS if stop is None else stop
    while len(game.actions) < limit:
        actions = game.legal_actions()
        if not actions:
            break
        game = game.play(rng.choice(actions))
    return game


CASES = [pytest.param(p.rules(players=n), id=f"{name}-{n}p")
         for name, p in PROFILES.items() for n in PLAYERS]


def illegal_at(state_actions: tuple[Action, ...], players: int) -> Action:
    """An action that is not among ``state_actions``: a take or done by some seat, or a bad open."""
    candidates: list[Action] = [*(Take(p) for p in range(players)),
                                *(Done(p) for p in range(players))]
    for action in candidates:
        if action not in state_actions:
            return action
    raise AssertionError("every take and done is legal")  # pragma: no cover


# -- dealing -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_new_records_the_deal_and_deals_like_new_game(name: str) -> None:
    rules = profile(name).rules(players=4)
    game = Game.new(rules, seed=11)
    assert game.rules == rules
    assert game.seed == 11
    assert game.deck == deal(rules, 11)
    assert game.initial == new_game(rules, seed=11)
    assert game.state == game.initial
    assert game.actions == ()
    assert game.outcome is None
    assert not game.is_over


def test_new_with_a_deck_deals_that_deck() -> None:
    rules = profile("classic-transfer").rules(players=3)
    deck = tuple(reversed(deal(rules, 5)))
    game = Game.new(rules, deck=deck, seed=3)
    assert game.deck == deck
    assert game.seed == 3
    assert game.initial == new_game(rules, deck=deck, seed=3)
    # The first six cards of the order go to seat 0 (CLAR-10).
    assert set(game.initial.hands[0]) == set(deck[:6])


def test_new_without_a_seed_records_one_that_deals_the_same_game() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    game = Game.new(rules)
    assert isinstance(game.seed, int)
    assert Game.new(rules, seed=game.seed) == game
    other = Game.new(rules)
    assert other.seed != game.seed  # a fresh seed each time (63 random bits)


def test_new_with_a_bad_deck_names_the_deal_rule() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    deck = deal(rules, 1)
    with pytest.raises(InvalidState) as error:
        Game.new(rules, deck=(*deck[:-1], deck[0]))
    assert error.value.rule == "DEAL-1"


# -- playing -----------------------------------------------------------------------------


def test_play_returns_a_new_record_and_leaves_the_old_one() -> None:
    game = Game.new(profile("classic-throw-in").rules(players=3), seed=2)
    action = game.legal_actions()[0]
    later = game.play(action)
    assert later.actions == (action,)
    assert later.state == apply(game.state, action)
    assert later.initial == game.initial
    assert (later.seed, later.deck, later.rules) == (game.seed, game.deck, game.rules)
    assert game.actions == ()
    assert game.state == game.initial


def test_a_rejected_action_raises_and_changes_nothing() -> None:
    game = random_game(profile("classic-transfer").rules(players=4), seed=8, stop=10)
    before = copy.deepcopy(game)
    bad = illegal_at(game.legal_actions(), 4)
    with pytest.raises(IllegalAction) as error:
        game.play(bad)
    with pytest.raises(IllegalAction) as expected:
        check(game.state, bad)
    assert error.value.rule == expected.value.rule
    assert game == before


def test_play_all_plays_in_order_and_stops_at_the_first_illegal_action() -> None:
    game = random_game(profile("source-a").rules(players=3), seed=4)
    start = Game.replay(game.initial, ())
    assert start.play_all(game.actions) == dataclasses.replace(game, seed=None, deck=None)
    with pytest.raises(IllegalAction):
        start.play_all((*game.actions[:5], illegal_at(legal_actions(
            Game.replay(game.initial, game.actions[:5]).state), 3)))


def test_a_record_is_immutable_and_hashable() -> None:
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.actions = ()  # type: ignore[misc]
    assert hash(game) == hash(Game.new(game.rules, seed=1))
    assert game == Game.new(game.rules, seed=1)
    assert game != Game.new(game.rules, seed=2)


def test_the_constructor_rejects_states_under_other_rules() -> None:
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=1)
    other = profile("classic-transfer").rules(players=2)
    with pytest.raises(InputError, match="other rules") as other_rules:
        Game(rules=other, initial=game.initial, actions=(), state=game.state)
    assert (other_rules.value.code, other_rules.value.rule) == ("other-rules", None)
    with pytest.raises(InvalidState, match="36 cards, not 35") as error:
        Game(rules=game.rules, initial=game.initial, actions=(), state=game.state,
             deck=game.deck[:-1] if game.deck else None)
    assert error.value.rule == "DEAL-1"


# -- replaying -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", CASES)
def test_replay_reaches_the_played_state(rules: RuleSet) -> None:
    for seed in (1, 2):
        game = random_game(rules, seed)
        again = Game.replay(game.initial, game.actions, seed=game.seed, deck=game.deck)
        assert again == game
        assert again.state == game.state
        states = list(game.states())
        assert len(states) == len(game.actions) + 1
        assert states[0] == game.initial
        assert states[-1] == game.state


@pytest.mark.parametrize("rules", CASES)
def test_random_games_end_with_the_states_outcome(rules: RuleSet) -> None:
    game = random_game(rules, seed=rules.players)
    assert game.is_over, f"no end after {len(game.actions)} actions"
    assert game.outcome is not None
    assert game.outcome == game.state.outcome
    assert game.legal_actions() == ()
    out = [p for group in game.outcome.finishing_order for p in group]
    rest = [p for p in range(rules.players) if p not in out]
    # With no durak: a draw, or a race (END-5) won while several still hold cards.
    assert rest == (list(game.outcome.holding) if game.outcome.durak is None
                    else [game.outcome.durak])


def test_replay_names_the_index_and_action_of_the_first_illegal_one() -> None:
    rules = profile("classic-transfer").rules(players=3)
    game = random_game(rules, seed=21)
    assert len(game.actions) > 30
    for index in (0, 7, 30):
        state = Game.replay(game.initial, game.actions[:index]).state
        bad = illegal_at(legal_actions(state), 3)
        with pytest.raises(IllegalAction) as expected:
            check(state, bad)
        # A second illegal action later on must not be the one reported.
        history = [*game.actions[:index], bad, *game.actions[index:], bad]
        with pytest.raises(ReplayError, match=rf"^actions\[{index}\] \({bad}\) is illegal: ") \
                as error:
            Game.replay(game.initial, history)
        assert error.value.index == index
        assert error.value.action == bad
        assert error.value.rule == expected.value.rule
        assert error.value.reason == expected.value.reason
        assert error.value.code == "illegal-action"


def test_replay_rejects_something_that_is_not_an_action() -> None:
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=3)
    with pytest.raises(ReplayError, match=r"actions\[0\]") as error:
        Game.replay(game.initial, ["P0 take"])  # type: ignore[list-item]
    assert (error.value.index, error.value.rule, error.value.code) == (0, None, "not-an-action")
    with pytest.raises(ReplayError, match=r"actions\[0\] \(P5 take\)") as error:
        Game.replay(game.initial, [Take(5)])
    assert (error.value.rule, error.value.code) == (None, "no-such-player")


def test_replay_checks_the_initial_position() -> None:
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=3)
    broken = game.initial._replace(defender=game.initial.attacker)
    with pytest.raises(InvalidState) as error:
        Game.replay(broken, ())
    assert error.value.rule == "ORDER-3"


def test_replay_starts_from_any_valid_position() -> None:
    rules = profile("classic-throw-in").rules(players=2)
    game = random_game(rules, seed=6)
    middle = 12
    later = Game.replay(list(game.states())[middle], game.actions[middle:])
    assert later.state == game.state
    assert later.seed is None and later.deck is None


def test_replay_error_survives_pickling() -> None:
    error = ReplayError(4, Open(1, ()), "ATTACK-1", "a bout opens with at least one card")
    again = pickle.loads(pickle.dumps(error))
    assert (again.index, again.action, again.rule, again.reason, str(again)) == \
        (error.index, error.action, error.rule, error.reason, str(error))
