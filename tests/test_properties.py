"""Property tests over many random games (issue 2), for every profile and 2 to 6 players.

Every profile is played, and one more rule set with the switches that no profile turns on
(a shown trump transfers, the trump exchange, neighbours throw in, the first seat leads).
Each test plays random games whose seed and every choice of action are drawn by
hypothesis, so a failure shrinks to a short game; the failing game's actions are printed
in the notation. The invariants of a position are the package's own oracle,
:mod:`durak_spec.engine.invariants` (also used by ``benchmarks/stress.py``), written with
code of its own that never asks the engine's helpers (``attack_limit``, ``throwers``)
what they think:

* all 36 cards are in exactly one place (hands, stock, table, discard) after every
  action, and ``validate_state`` accepts every reached state;
* the attack limits hold: six cards (LIMIT-1), five in the first bout where LIMIT-3 is
  on, and the rule set's reading of LIMIT-2;
* ``legal_actions`` lists no action twice, in its documented order, the same on every
  call, and each listed action applies;
* every other action, from a systematic list of candidates, is rejected with a rule ID
  of the rule index and leaves the state as it was; the accepted candidates are exactly
  ``legal_actions``;
* replaying a game's actions gives equal states, each action reads back from its text
  and JSON forms, and the game survives saving and loading (``durak_spec.game.persist``);
* every game ends, within 3000 actions, with a valid outcome (END-1, END-3, END-4);
* an opening of several cards is legal exactly when it is listed, whatever the order in
  which its cards are given.

Runtime: about 40 s of CPU time (settings below); ``benchmarks/stress.py`` plays
thousands of games per profile and player count with the same invariants.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, permutations
from typing import NamedTuple

import hypothesis
import hypothesis.strategies as st
import pytest

from durak_spec import (
    DECK,
    PROFILES,
    Action,
    BadAction,
    Card,
    Cover,
    Done,
    ExchangeTrump,
    GameState,
    IllegalAction,
    NoTrumpLead,
    Open,
    RuleSet,
    Take,
    ThrowIn,
    Transfer,
    action_from_json,
    apply,
    check,
    is_legal,
    legal_actions,
    new_game,
    parse_action,
    validate_state,
)
from durak_spec.core.ruleindex import load_rule_index
from durak_spec.engine import deal
from durak_spec.engine.invariants import listing_problems, outcome_problems, position_problems
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.model.rules import ThrowIn as ThrowInRule

MAX_ACTIONS = 3000
SEATS = range(2, 7)
RULE_IDS = frozenset(load_rule_index())
ALL_CARDS = frozenset(DECK)

# Many cheap examples for the walks, fewer for the costly candidate sweep; derandomized
# and without an example database, so every run (and CI) plays the same games.
WALK = hypothesis.settings(
    max_examples=6, deadline=None, derandomize=True, database=None, print_blob=False,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
SWEEP = hypothesis.settings(WALK, max_examples=3)

# Every profile, and one rule set with the switches no profile turns on (showing a trump
# to transfer, the trump exchange, neighbours throwing in, the first seat leading).
SWITCHES = PROFILES["classic-transfer"].rules().replace(
    transfer_by_showing_trump=True, trump_exchange=True, multi_card_opening=True,
    throw_in=ThrowInRule.NEIGHBOURS, no_trump_lead=NoTrumpLead.FIRST_SEAT)
RULE_SETS = {f"{name}-{n}p": PROFILES[name].rules(players=n) for name in PROFILES for n in SEATS}
RULE_SETS.update({f"switches-{n}p": SWITCHES.with_players(n) for n in SEATS})
every_rule_set = pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.randoms(use_true_random=False)


# -- playing a random game ------------------------------------------------------------------


class Played(NamedTuple):
    """A played game: ``states[i + 1]`` is ``states[i]`` after ``actions[i]``."""

    seed: int
    states: Sequence[GameState]
    actions: Sequence[Action]

    def trail(self) -> str:
        """The game so far, to reproduce a failure by hand."""
        rules = self.states[0].rules
        moves = "; ".join(str(a) for a in self.actions)
        return f"new_game({rules!r}, seed={self.seed}) then: {moves}"


Visit = Callable[[Played], None]


def play(rules: RuleSet, seed: int, rnd: random.Random, visit: Visit | None = None) -> Played:
    """A random game to its end; ``visit`` sees the game after the deal and every action."""
    state = new_game(rules, seed=seed)
    states = [state]
    actions: list[Action] = []
    game = Played(seed, states, actions)  # grows as the game goes on
    while True:
        if visit is not None:
            visit(game)
        options = legal_actions(state)
        if not options:
            return Played(seed, tuple(states), tuple(actions))
        assert len(actions) < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions: {game.trail()}"
        action = options[rnd.randrange(len(options))]
        state = apply(state, action)
        states.append(state)
        actions.append(action)


# -- cards ----------------------------------------------------------------------------------


def card_count(state: GameState) -> int:
    return (sum(map(len, state.hands)) + len(state.stock) + len(state.table_cards())
            + len(state.discard))


# -- candidates -----------------------------------------------------------------------------

SAME_RANK_GROUPS: tuple[tuple[Card, ...], ...] = tuple(
    combo
    for rank in sorted({c.rank for c in DECK})
    for size in (2, 3, 4)
    for combo in combinations(sorted(c for c in DECK if c.rank == rank), size)
)


def candidates(state: GameState) -> Iterator[Action]:
    """Every kind of action with every card, for every seat and one seat too many.

    Openings are single cards and every same-rank group in card order (the order
    ``legal_actions`` writes them); covers pair every card on the table, and one card that
    is not, with every card of the deck.
    """
    on_table = state.table_cards()
    targets = [*on_table, next(c for c in DECK if c not in on_table)]
    for seat in range(state.players + 1):
        yield from (Open(seat, (c,)) for c in DECK)
        yield from (Open(seat, group) for group in SAME_RANK_GROUPS)
        yield from (ThrowIn(seat, c) for c in DECK)
        yield from (Cover(seat, attack, c) for attack in targets for c in DECK)
        yield from (Transfer(seat, c, show=show) for c in DECK for show in (False, True))
        yield Take(seat)
        yield Done(seat)
        yield ExchangeTrump(seat)


# -- properties -----------------------------------------------------------------------------


@every_rule_set
@WALK
@hypothesis.given(seed=seeds, rnd=choices)
def test_cards_are_conserved_every_state_is_valid_and_the_limits_hold(
        rules: RuleSet, seed: int, rnd: random.Random) -> None:
    def visit(game: Played) -> None:
        state = game.states[-1]
        assert validate_state(state) is state, game.trail()
        problems = position_problems(state)
        assert not problems, f"{'; '.join(problems)} after: {game.trail()}"

    play(rules, seed, rnd, visit)


@every_rule_set
@WALK
@hypothesis.given(seed=seeds, rnd=choices)
def test_legal_actions_are_distinct_stable_and_apply(
        rules: RuleSet, seed: int, rnd: random.Random) -> None:
    def visit(game: Played) -> None:
        state = game.states[-1]
        problems = listing_problems(state)
        assert not problems, f"{'; '.join(problems)} after: {game.trail()}"
        for action in legal_actions(state):
            after = apply(state, action)  # must not raise
            assert card_count(after) == len(DECK), f"{action} lost a card: {game.trail()}"

    play(rules, seed, rnd, visit)


@every_rule_set
@SWEEP
@hypothesis.given(seed=seeds, rnd=choices, data=st.data())
def test_check_accepts_exactly_the_legal_actions(
        rules: RuleSet, seed: int, rnd: random.Random, data: st.DataObject) -> None:
    game = play(rules, seed, rnd)
    last = len(game.states) - 1
    picked = data.draw(st.sets(st.integers(0, last), min_size=1, max_size=3), label="states")
    for index in sorted(picked):
        state = game.states[index]
        before = copy.deepcopy(state)
        listed = legal_actions(state)
        assert legal_actions(before) == listed, "an equal state lists other actions"
        legal = set(listed)
        accepted: set[Action] = set()
        tried = 0
        for action in candidates(state):
            tried += 1
            try:
                check(state, action)
            except IllegalAction as error:
                assert error.rule in RULE_IDS, f"{action}: unknown rule {error.rule!r}"
                assert error.reason.strip(), f"{action}: rejected without a reason"
                assert not is_legal(state, action)
                try:
                    apply(state, action)
                except IllegalAction as again:
                    assert again.rule == error.rule, f"apply and check differ on {action}"
                else:
                    raise AssertionError(f"apply played {action}, which check rejects")
            except BadAction as error:  # the seat one too many: no rule is asked
                assert action.player == state.players, f"{action}: {error}"
                assert (error.rule, error.code) == (None, "no-such-player")
                assert not is_legal(state, action)
                with pytest.raises(BadAction):
                    apply(state, action)
            else:
                accepted.add(action)
            assert state == before, f"{action} changed the state"
        trail = Played(seed, game.states[:index + 1], game.actions[:index]).trail()
        assert accepted == legal, (
            f"accepted but not listed: {sorted(map(str, accepted - legal))}; "
            f"listed but rejected: {sorted(map(str, legal - accepted))}; after: {trail}")
        assert tried > len(legal)


@every_rule_set
@WALK
@hypothesis.given(seed=seeds, rnd=choices)
def test_replaying_the_actions_gives_the_same_states(
        rules: RuleSet, seed: int, rnd: random.Random) -> None:
    game = play(rules, seed, rnd)
    assert new_game(rules, seed=seed) == game.states[0]
    state = game.states[0]
    for step, action in enumerate(game.actions):
        assert parse_action(str(action)) == action, f"{action} does not read back"
        assert action_from_json(action.to_json()) == action, f"{action} JSON does not read back"
        state = apply(state, action)
        assert state == game.states[step + 1], f"the replay differs at step {step}"
    # Through a saved game and back (loading replays the history and checks it), and
    # some positions on their own.
    record = Game(rules=rules, initial=game.states[0], actions=tuple(game.actions),
                  state=game.states[-1], seed=seed, deck=deal(rules, seed))
    assert persist.loads(persist.dumps(record)) == record
    for state in (game.states[0], game.states[len(game.states) // 2], game.states[-1]):
        saved = json.loads(json.dumps(persist.state_to_json(state), ensure_ascii=False))
        assert persist.state_from_json(saved) == state


@every_rule_set
@WALK
@hypothesis.given(seed=seeds, rnd=choices)
def test_every_game_ends_with_a_valid_outcome(
        rules: RuleSet, seed: int, rnd: random.Random) -> None:
    game = play(rules, seed, rnd)
    end = game.states[-1]
    assert end.outcome is not None, f"no moves left but no outcome: {game.trail()}"
    assert all(s.outcome is None for s in game.states[:-1])
    problems = outcome_problems(end)
    assert not problems, f"{'; '.join(problems)}: {game.trail()}"


@pytest.mark.parametrize("name", [n for n, p in PROFILES.items() if p.base.multi_card_opening])
def test_an_opening_is_legal_exactly_when_it_is_listed_whatever_its_card_order(
        name: str) -> None:
    checked = 0
    for seed in range(20):
        state = new_game(PROFILES[name].rules(players=2), seed=seed)
        listed = legal_actions(state)
        for action in listed:
            if isinstance(action, Open) and len(action.played) > 1:
                for order in permutations(action.played):
                    other = Open(action.player, order)
                    checked += 1
                    assert is_legal(state, other) == (other in listed), (
                        f"is_legal({other}) is {is_legal(state, other)}, but it is "
                        f"{'' if other in listed else 'not '}listed; seed {seed}")
    assert checked, "no opening with several cards in 20 deals"
