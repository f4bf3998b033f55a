"""LIMIT-2: the two wordings of "no more attack cards than the defender can answer" agree.

Sources A and C cap the attack by the cards the defender holds *now*; B and D by the
cards the defender held *at the start*. Write, for the defender of a state, ``H0`` for
their hand at the start (``state.start_hands``), ``H`` for their hand now and
``covered`` for the covered attack cards. As caps on the number of attack cards:

* start-hand reading (B, D): attack cards <= ``H0``;
* current-hand reading (A, C): uncovered cards <= ``H``, that is attack cards <=
  ``covered + H``.

"The start" is the moment that player became the defender: the bout's opening, or the
transfer that passed the attack to them (issue 13). A new defender has covered nothing,
and from then on each cover moves one card from their hand onto the table, so
``covered + H`` stays ``H0``: the readings agree in every reachable state. (Read as the
opening of the bout, they differed by the attack cards the defender had played into the
bout before the attack came back to them.) The tests below check the identity over
random games of every profile, check that the switch changes no legal action, and play
the issue's reproduction and a transfer back.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import hypothesis
import hypothesis.strategies as st
import pytest
from helpers import position

from durak_spec import (
    DECK,
    PROFILES,
    Action,
    Card,
    GameState,
    IllegalAction,
    LimitReading,
    Open,
    RuleSet,
    ThrowIn,
    Transfer,
    apply,
    check,
    legal_actions,
    new_game,
    parse_action,
    parse_cards,
    profile,
    validate_state,
)

SEATS = range(2, 7)
TRANSFER_PROFILES = [name for name, p in PROFILES.items() if p.base.transfer]
MAX_ACTIONS = 3000

every_rule_set = pytest.mark.parametrize(
    "rules",
    [PROFILES[name].rules(players=n) for name in PROFILES for n in SEATS],
    ids=[f"{name}-{n}p" for name in PROFILES for n in SEATS],
)


class Reading:
    """Both readings of LIMIT-2 in one state, with the defender's own attack cards."""

    def __init__(self, state: GameState, played_by: dict[Card, int]) -> None:
        defender = state.defender
        self.attack = len(state.table)
        self.covered = sum(1 for p in state.table if p.cover is not None)
        self.held = len(state.hands[defender])
        self.start = state.start_hands[defender]
        self.own = sum(1 for p in state.table if played_by[p.attack] == defender)

    @property
    def start_cap(self) -> int:
        return self.start

    @property
    def current_cap(self) -> int:
        return self.covered + self.held

    @property
    def agree(self) -> bool:
        return self.start_cap == self.current_cap


def walk(rules: RuleSet, seed: int, rnd: random.Random
         ) -> Iterator[tuple[GameState, Reading, list[Action]]]:
    """Every state of a random game that has a bout in play, with its readings and the
    actions of the bout so far."""
    state = new_game(rules, seed=seed)
    played_by: dict[Card, int] = {}
    actions: list[Action] = []
    for _ in range(MAX_ACTIONS):
        options = legal_actions(state)
        if not options:
            return
        action = options[rnd.randrange(len(options))]
        if isinstance(action, Open | ThrowIn) or (isinstance(action, Transfer)
                                                  and not action.show):
            played_by.update(dict.fromkeys(action.cards, action.player))
        state = apply(state, action)
        actions = [action] if isinstance(action, Open) else [*actions, action]
        if state.table:
            yield state, Reading(state, played_by), actions
        else:
            played_by.clear()
    pytest.fail(f"no end after {MAX_ACTIONS} actions: {rules!r}, seed {seed}")


@every_rule_set
@hypothesis.settings(max_examples=4, deadline=None, derandomize=True, database=None,
                     print_blob=False)
@hypothesis.given(seed=st.integers(0, 2**32 - 1), rnd=st.randoms(use_true_random=False))
def test_the_readings_agree_in_every_reachable_state(
        rules: RuleSet, seed: int, rnd: random.Random) -> None:
    for state, reading, actions in walk(rules, seed, rnd):
        trail = f"seed {seed}, bout {state.bout + 1}: " + "; ".join(map(str, actions))
        assert reading.start_cap == reading.current_cap, trail
        # The rule set's reading holds, and with it the other one.
        assert reading.attack - reading.covered <= reading.held, trail
        assert reading.attack <= reading.start, trail


def _other_reading(state: GameState) -> GameState:
    other = (LimitReading.CURRENT_HAND if state.rules.limit_reading is LimitReading.START_HAND
             else LimitReading.START_HAND)
    return state._replace(rules=state.rules.replace(limit_reading=other))


@pytest.mark.parametrize("name", TRANSFER_PROFILES)
def test_switching_the_reading_changes_no_legal_action(name: str) -> None:
    """The switch is two wordings of one rule: in every state of random transfer games
    (where the readings once parted), both readings list the same actions."""
    compared = 0
    for seed in range(12):
        rules = profile(name).rules(players=2 + seed % 5)
        for state, _, _ in walk(rules, seed, random.Random(seed)):
            assert legal_actions(_other_reading(state)) == legal_actions(state), (
                f"{name}, seed {seed}:\n{state.describe()}")
            compared += 1
    assert compared > 100


# The reproduction: source B's transfer game, hearts trump, four cards in the
# stock. The eights go round three times and come back to P0 with four cards in hand.
ROUND_HANDS = ("8♠ 8♣ 9♥ 10♥ J♥ Q♥", "8♦ 8♥ 6♣ 7♣ 9♣ 10♣")
ROUND_PLAY = ["P0 open 8♠", "P1 transfer 8♦", "P0 transfer 8♣", "P1 transfer 8♥",
              "P0 cover 8♠ with 9♥", "P0 cover 8♦ with 10♥"]


@pytest.mark.parametrize("reading", list(LimitReading))
@pytest.mark.parametrize("name", TRANSFER_PROFILES)
def test_the_eights_that_go_round_are_counted_from_the_last_transfer(
        name: str, reading: LimitReading) -> None:
    rules = profile(name).rules(players=2).replace(limit_reading=reading)
    state = position(rules, hands=list(ROUND_HANDS), stock="6♦ 7♦ K♠ A♥", bout=5)
    for text in ROUND_PLAY[:4]:
        state = apply(state, parse_action(text))
    assert (state.defender, len(state.hands[0]), state.start_hands[0]) == (0, 4, 4)
    for text in ROUND_PLAY[4:]:
        state = apply(state, parse_action(text))
    assert (len(state.hands[0]), len(state.uncovered)) == (2, 2)
    for card in ("9♣", "10♣"):
        with pytest.raises(IllegalAction) as rejected:
            check(state, parse_action(f"P1 throw {card}"))
        assert rejected.value.rule == "LIMIT-2"
    assert not any(isinstance(a, ThrowIn) for a in legal_actions(state))


# A two-player game of source B's transfer game, trump hearts. P0 holds the lowest trump
# and opens; P1 transfers the attack straight back (TRANSFER-6), so P0 defends against
# their own opening card.
DEAL = "6♥ 7♣ K♣ K♦ A♣ A♦  7♦ 7♠ 7♥ K♠ K♥ 8♣"
PLAY = ["P0 open 7♣", "P1 transfer 7♦", "P0 cover 7♣ with K♣", "P0 cover 7♦ with K♦",
        "P1 throw 7♠", "P1 throw K♠", "P1 throw 7♥"]
LAST = "P1 throw K♥"


def _deck() -> list[Card]:
    dealt = list(parse_cards(DEAL))
    rest = [c for c in DECK if c not in dealt and c != Card.parse("A♥")]
    return [*dealt, *rest, Card.parse("A♥")]


def test_example_the_attack_comes_back_and_both_readings_stop_at_the_hand() -> None:
    start_hand = profile("source-b-transfer").rules(players=2)
    assert start_hand.limit_reading is LimitReading.START_HAND
    current_hand = start_hand.replace(limit_reading=LimitReading.CURRENT_HAND)
    for rules in (start_hand, current_hand):
        state = new_game(rules, deck=_deck(), seed=0)
        assert (state.attacker, state.trump.symbol) == (0, "♥")
        for text in PLAY:
            state = apply(state, parse_action(text))
        # P0 opened with six cards and held five when the attack came back: five is the
        # limit, and three uncovered cards already match the three in P0's hand.
        assert (state.defender, len(state.hands[0]), len(state.uncovered)) == (0, 3, 3)
        assert state.start_hands[0] == 5
        validate_state(state)
        with pytest.raises(IllegalAction) as rejected:
            check(state, parse_action(LAST))
        assert rejected.value.rule == "LIMIT-2"
        assert parse_action(LAST) not in legal_actions(state)
