"""What holds in every position a game can reach, checked independently of the rules
functions: the oracle of the property tests and of ``benchmarks/stress.py``.

The checks are written in their own words, from the inventory, and never ask the engine's
helpers (``attack_limit``, ``throwers``, ``beats``) what they think; they only call the
public API (``legal_actions``, ``validate_state``). Each function returns the problems it
finds, in plain words (an empty tuple when all is well):

* :func:`position_problems`: all 36 cards in exactly one place (hands, stock, table,
  discard); ``validate_state`` accepts the state; the attack limits hold: six attack
  cards (LIMIT-1), five in the first bout where LIMIT-3 is on, and the rule set's
  reading of LIMIT-2;
* :func:`listing_problems`: ``legal_actions`` lists no action twice, in its documented
  order (seat, kind, cards), gives the same answer when asked again, and is empty
  exactly when the game is over;
* :func:`outcome_problems`: a game that is over has a valid outcome: a finishing order of
  distinct seats who hold no cards, nothing left in the stock or on the table, and
  either a durak, the one seat not in it, holding every card not discarded (END-3), or
  a draw in which the last players went out together (END-4).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

from durak_spec.core.cards import DECK, Card
from durak_spec.core.errors import DurakError
from durak_spec.engine.referee import legal_actions
from durak_spec.engine.validation import validate_state
from durak_spec.model.rules import FIRST_BOUT_MAX_ATTACK_CARDS, MAX_ATTACK_CARDS, LimitReading
from durak_spec.model.state import GameState

__all__ = ["listing_problems", "outcome_problems", "position_problems"]

_ALL_CARDS = frozenset(DECK)


def _places(state: GameState) -> dict[Card, list[str]]:
    where: dict[Card, list[str]] = {}
    for seat, hand in enumerate(state.hands):
        for card in hand:
            where.setdefault(card, []).append(f"P{seat}'s hand")
    for card in state.stock:
        where.setdefault(card, []).append("the stock")
    for card in state.table_cards():
        where.setdefault(card, []).append("the table")
    for card in state.discard:
        where.setdefault(card, []).append("the discard pile")
    return where


def position_problems(state: GameState) -> tuple[str, ...]:
    """What is wrong with ``state`` as a position of a game (see the module docstring)."""
    problems: list[str] = []
    where = _places(state)
    problems += [f"{card} is in {' and '.join(places)}" for card, places in where.items()
                 if len(places) > 1]
    problems += [f"{card} is nowhere" for card in DECK if card not in where]
    problems += [f"{card!r} is not a card of the deck" for card in where
                 if card not in _ALL_CARDS]
    try:
        validate_state(state)
    except DurakError as error:
        problems.append(f"validate_state rejects the state: {error}")
    rules = state.rules
    attack = len(state.table)
    uncovered = sum(1 for pair in state.table if pair.cover is None)
    if attack > MAX_ATTACK_CARDS:
        problems.append(f"{attack} attack cards on the table (LIMIT-1)")
    if rules.first_bout_limit_five and state.bout == 0 and attack > FIRST_BOUT_MAX_ATTACK_CARDS:
        problems.append(f"{attack} attack cards in the first bout (LIMIT-3)")
    if attack and rules.limit_reading is LimitReading.CURRENT_HAND:
        held = len(state.hands[state.defender])
        if uncovered > held:
            problems.append(f"{uncovered} uncovered cards against a hand of {held} "
                            "(LIMIT-2, current hand)")
    elif attack and attack > state.start_hands[state.defender]:
        problems.append(f"{attack} attack cards against a hand of "
                        f"{state.start_hands[state.defender]} at the bout's start "
                        "(LIMIT-2, start hand)")
    return tuple(problems)


def listing_problems(state: GameState) -> tuple[str, ...]:
    """What is wrong with ``legal_actions(state)`` (see the module docstring)."""
    problems: list[str] = []
    listed = legal_actions(state)
    if legal_actions(state) != listed:
        problems.append("legal_actions gives another answer when asked again")
    if len(set(listed)) != len(listed):
        problems.append(f"an action is listed twice: {[str(a) for a in listed]}")
    keys = [action.sort_key() for action in listed]
    if any(first > second for first, second in pairwise(keys)):
        problems.append(f"the actions are not in seat/kind/card order: "
                        f"{[str(a) for a in listed]}")
    if (not listed) != state.is_over:
        problems.append("legal_actions is empty although the game is not over" if not listed
                        else "the game is over but actions are listed")
    return tuple(problems)


def outcome_problems(state: GameState) -> tuple[str, ...]:
    """What is wrong with the end of a game that is over (see the module docstring)."""
    outcome = state.outcome
    if outcome is None:
        return ("the game is not over: it has no outcome",)
    problems: list[str] = []
    players = len(state.hands)
    order = [seat for group in outcome.finishing_order for seat in group]
    if len(order) != len(set(order)) or not set(order) <= set(range(players)) or \
            not all(outcome.finishing_order):
        problems.append(f"finishing order {outcome.finishing_order} is not groups of distinct "
                        "seats")
    if state.stock or state.table:
        problems.append("the game ended with cards in the stock or on the table")
    if any(state.hands[seat] for seat in order if 0 <= seat < players):
        problems.append("a player who finished still holds cards")
    if outcome.holding:  # END-5: a race won while several players still hold cards
        if len(outcome.finishing_order) != 1 or outcome.durak is not None:
            problems.append(f"a race ends at its first place, not {outcome.finishing_order}")
        if set(range(players)) - set(order) != set(outcome.holding) or \
                not all(state.hands[seat] for seat in outcome.holding):
            problems.append(f"the players still holding cards are not {outcome.holding}")
    elif outcome.durak is None:  # END-4
        if sorted(order) != list(range(players)) or len(outcome.finishing_order[-1]) < 2:
            problems.append(f"a draw, but not everyone went out together at the end: "
                            f"{outcome.finishing_order}")
        if Counter(state.discard) != Counter(DECK):
            problems.append("a draw, but not every card is in the discard pile")
    else:  # END-3
        if set(range(players)) - set(order) != {outcome.durak}:
            problems.append(f"P{outcome.durak} is the durak but is not the one seat left")
        elif not state.hands[outcome.durak]:
            problems.append("the durak holds no cards")
        if sorted(state.hands[outcome.durak] + state.discard) != sorted(DECK):
            problems.append("the durak does not hold every card that was not discarded")
    return tuple(problems)
