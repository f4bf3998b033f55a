"""How many attack cards a bout may hold: LIMIT-1 .. LIMIT-3 and CLAR-13.

A bout holds at most six attack cards (LIMIT-1: A, B, C, D), five in the very first bout
of a game where that variant is on (LIMIT-3: A; B says there is no such limit), and
never more than the defender can answer (LIMIT-2), which the sources word in two ways,
a switch of the rule set: the uncovered cards may not outnumber the cards the defender
holds now (A, C), or all attack cards of the bout may not outnumber the defender's hand
at the start (B, D). "The start" is read as the moment that player became the defender:
the bout's opening, or the transfer that passed the attack to them
(:func:`durak_spec.engine.transfer.became_defender`). A defender's hand changes within a
bout only by covering, so the covered cards plus the hand now equal the hand at that
start, and the two wordings allow exactly the same cards in every position play can
reach (``tests/test_limit_readings.py`` checks it over random games of every profile).
Against a defender who has no card left nothing more is added (CLAR-13, which both
wordings imply). The limit counts every attack card of the bout, transfers included
(LIMIT-4: B).
"""

from __future__ import annotations

from durak_spec.core.cards import Card
from durak_spec.engine.breach import Breach
from durak_spec.model.rules import FIRST_BOUT_MAX_ATTACK_CARDS, MAX_ATTACK_CARDS
from durak_spec.model.state import GameState

__all__ = ["attack_limit", "bout_cap", "limit_breach", "room_rule"]


def bout_cap(state: GameState) -> tuple[int, str]:
    """The most attack cards of any bout (LIMIT-1), or of the first bout (LIMIT-3), and
    that rule's ID; the defender's hand is not considered here."""
    if state.rules.first_bout_limit_five and state.bout == 0:
        return FIRST_BOUT_MAX_ATTACK_CARDS, "LIMIT-3"
    return MAX_ATTACK_CARDS, "LIMIT-1"


def room_rule(state: GameState) -> str | None:
    """LIMIT-3 where it is the rule that leaves room for one more attack card: five lie
    in a later bout under the five-card first bout, which holds for the first bout only;
    else ``None`` (no limit rule is in question)."""
    if state.rules.first_bout_limit_five and state.bout > 0 and \
            len(state.table) == FIRST_BOUT_MAX_ATTACK_CARDS:
        return "LIMIT-3"
    return None


def attack_limit(state: GameState) -> tuple[int, str]:
    """The most attack cards the bout in play may hold now, and the rule that sets it.

    The bout's cap (:func:`bout_cap`), lowered by the defender's hand under the rule
    set's reading of LIMIT-2: the covered cards plus the cards the defender holds now
    (current-hand), or the defender's hand when they became the defender (start-hand),
    which come to the same number. Against a
    defender with no cards left, the cards on the table (CLAR-13).
    """
    defender, table = state.defender, state.table
    held = len(state.hands[defender])
    if not held and table:
        return len(table), "CLAR-13"
    limit, rule = bout_cap(state)
    if state.rules.limit_reading == "current-hand":
        covered = 0
        for _, cover in table:
            if cover is not None:
                covered += 1
        by_hand = covered + held
    else:
        by_hand = state.start_hands[defender]
    if by_hand < limit:
        return by_hand, "LIMIT-2"
    return limit, rule


def limit_breach(state: GameState, count: int, adding: Card | None = None) -> Breach | None:
    """LIMIT-1, LIMIT-2, LIMIT-3, CLAR-13: whether the bout may hold ``count`` attack
    cards; if not, the limit they break. ``adding`` is the card that would be added to
    the bout; without it, the count is of an opening, or (with cards on the table) of
    the table as it lies."""
    limit, rule = attack_limit(state)
    if count <= limit:
        return None
    if adding is not None:
        what = f"{adding} would be attack card {count}"
    elif state.table:
        what = f"{count} attack cards lie on the table"
    else:
        what = f"{count} cards are too many"
    defender = state.defender
    if rule == "CLAR-13":
        return Breach("CLAR-13", f"{what}: the defender P{defender} has no cards left, so "
                      "nothing more is added")
    if rule == "LIMIT-2":
        if state.rules.limit_reading == "current-hand":
            return Breach("LIMIT-2", f"{what}: the defender P{defender} holds "
                          f"{len(state.hands[defender])} cards, so no more attack cards may "
                          "be uncovered")
        return Breach("LIMIT-2", f"{what}: the defender P{defender} held "
                      f"{state.start_hands[defender]} cards at the start (when they became the "
                      f"defender), so at most {limit} attack cards are allowed")
    if rule == "LIMIT-3":
        return Breach("LIMIT-3", f"{what}: the first bout of the game allows at most five "
                      "attack cards")
    return Breach("LIMIT-1", f"{what}: a bout allows at most six attack cards")
