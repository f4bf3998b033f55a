"""Attacking: ATTACK-1 .. ATTACK-4 and ATTACK-6.

A bout opens with the attacker playing one card from hand (ATTACK-1: A, C, D), or, where
the rules allow it, several cards of one rank (ATTACK-2: B). Every card added later must
have a rank already on the table, among attack and cover cards alike (ATTACK-3: A, B, C,
D). Besides the attacker, other players may throw in, never the defender: who may is a
switch of the rule set (ATTACK-4: A, D and a tip of C let everyone; in a two-player game
only the attacker can). A bout is the opening and everything added to it, until it is
beaten off or taken (ATTACK-6: A).

When and in which order the attackers add their cards, and how they say they are done,
is the bout protocol of :mod:`durak_spec.engine.turns`.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from durak_spec.core.cards import Card, Rank, format_cards
from durak_spec.engine.breach import Breach
from durak_spec.engine.draw import join
from durak_spec.engine.hands import play_cards
from durak_spec.engine.limits import attack_limit, room_rule
from durak_spec.engine.seats import next_in_game
from durak_spec.engine.tables import OPENS, OTHERS, THROWS, UNCOVERED
from durak_spec.model.actions import Action, ExchangeTrump, Open, ThrowIn
from durak_spec.model.events import Event
from durak_spec.model.rules import RuleSet
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.state import GameState, Pair, replace

__all__ = [
    "attack_rule",
    "open_bout",
    "opening_breach",
    "openings",
    "opens_with_several",
    "rank_breach",
    "several_breach",
    "table_ranks",
    "throw_in",
    "throw_ins",
    "thrower_breach",
    "throwers",
]


# -- opening a bout --------------------------------------------------------------------


def attack_rule(state: GameState, action: Open | ThrowIn) -> str:
    """The rule that allows a legal opening or throw-in: ATTACK-1 (one card opens),
    ATTACK-2 (several of a rank open), ATTACK-3 (the attacker adds a rank on the table),
    ATTACK-4 (another player throws in); LIMIT-3 for a sixth card in a later bout under
    the five-card first bout (:func:`~durak_spec.engine.limits.room_rule`)."""
    if isinstance(action, Open):
        return "ATTACK-2" if len(action.played) > 1 else "ATTACK-1"
    return room_rule(state) or ("ATTACK-3" if action.player == state.attacker else "ATTACK-4")


def opening_breach(state: GameState, action: Action | None = None) -> Breach | None:
    """ATTACK-1, ATTACK-6: a bout opens with the attacker laying cards from hand, and
    nothing else happens in it before.

    With ``action``: whether it fits the bout's opening. Without: whether the position
    records its bout as one: between bouts nothing of a bout is recorded and the attacker
    opens next; in a bout the opener was the first to join it.
    """
    if action is None:
        if state.table:
            if state.opener not in state.joined[:1]:
                return Breach("ATTACK-1", "the opener must be the first to join the attack")
            return None
        if state.taking or state.passed or state.shown or state.joined:
            return Breach("ATTACK-6", "no bout is open, yet a take, a done, a join or a "
                          "shown trump is recorded")
        if state.opener != state.attacker:
            return Breach("ATTACK-1", "between bouts the next opener is the attacker")
        return None
    if isinstance(action, Open):
        if state.table:
            return Breach("ATTACK-1", "this bout is already open; add cards by throwing in")
        if action.player != state.attacker:
            return Breach("ATTACK-1", f"P{state.attacker} attacks now, not P{action.player}")
        if not action.played:
            return Breach("ATTACK-1", "a bout opens with at least one card")
        return None
    if not state.table and not isinstance(action, ExchangeTrump):
        return Breach("ATTACK-1", f"no bout is open: P{state.attacker} must open it with a "
                      "card first")
    return None


def opens_with_several(rules: RuleSet) -> bool:
    """ATTACK-2: whether a bout may open with several cards of one rank (a switch)."""
    return rules.multi_card_opening


def several_breach(state: GameState, cards: tuple[Card, ...]) -> Breach | None:
    """ATTACK-2: an opening of several cards needs rules that allow it, and one rank."""
    if len(cards) < 2:
        return None
    if not opens_with_several(state.rules):
        return Breach("ATTACK-2", f"these rules open a bout with a single card, not "
                      f"{len(cards)}")
    if len({card.rank for card in cards}) > 1:
        return Breach("ATTACK-2", f"an opening of several cards must be of one rank, not "
                      f"{format_cards(cards)}")
    return None


def openings(state: GameState) -> list[Action]:
    """Every opening of the attacker: any one card of their hand (ATTACK-1) and, where
    the rules allow, every group of several cards of one rank within the limit
    (ATTACK-2, LIMIT-*); in the canonical order of actions."""
    seat = state.attacker
    hand = state.hands[seat]
    opens = OPENS[seat]
    found: list[Action] = []
    for card in hand:  # plain loops: a comprehension is a call of its own
        found.append(opens[card])
    if opens_with_several(state.rules):
        limit, _ = attack_limit(state)
        by_rank: dict[Rank, list[Card]] = {}
        for card in hand:
            by_rank.setdefault(card.rank, []).append(card)
        for group in by_rank.values():
            for size in range(2, min(len(group), limit) + 1):
                found.extend(Open(seat, combo) for combo in combinations(group, size))
        found.sort(key=Action.sort_key)
    return found


def open_bout(state: GameState, action: Open, events: list[Event]) -> GameState:
    """The state after the attacker opens the bout: the cards lie on the table, the
    opener is the first to join the attack (CLAR-8), and every hand's size now is the
    size at the bout's start (LIMIT-2)."""
    seat = action.player
    hands, known = play_cards(state, seat, action.played)
    table: list[Pair] = []
    for card in action.played:  # a plain loop: a comprehension is a call of its own
        table.append(UNCOVERED[card])
    return replace(state, hands=hands, known=known, table=tuple(table),
                          opener=seat, joined=(seat,),
                          start_hands=tuple(map(len, state.hands)))


# -- throwing in -------------------------------------------------------------------------


def table_ranks(table: Iterable[Pair]) -> set[Rank]:
    """ATTACK-3: the ranks that may be added, those on the table, attack and cover cards
    alike (a new set on every call)."""
    ranks: set[Rank] = set()
    for attack, cover in table:
        ranks.add(attack.rank)
        if cover is not None:
            ranks.add(cover.rank)
    return ranks


def rank_breach(state: GameState, card: Card) -> Breach | None:
    """ATTACK-3: a card added to the bout has a rank already on the table."""
    rank = card.rank
    for attack, cover in state.table:  # a plain loop, no set: this runs for every throw-in
        if attack.rank == rank or (cover is not None and cover.rank == rank):
            return None
    ranks = table_ranks(state.table)
    shown = " ".join(str(rank) for rank in sorted(ranks))
    return Breach("ATTACK-3", f"{card} cannot be thrown in: only ranks on the table "
                  f"({shown}) may be added")


def throwers(state: GameState) -> tuple[int, ...]:
    """ATTACK-4: the seats allowed to add attack cards to the bout in play, in seat order:
    by the rule set, the attacker only, the attacker and the defender's left-hand
    neighbour, or everyone still in the game; never the defender.

    Whether they hold a fitting card is not considered here.
    """
    who = state.rules.throw_in
    defender = state.defender
    if who == "all" and not state.finished:  # the usual case, looked up: nobody is out
        return OTHERS[len(state.hands)][defender]
    out = state.out if state.finished else ()
    if who == "attacker":
        seats: Iterable[int] = (state.attacker,)
    elif who == "neighbours":
        seats = sorted({state.attacker, next_in_game(defender, len(state.hands), out)})
    else:
        seats = range(len(state.hands))
    allowed: list[int] = []
    for seat in seats:  # a plain loop: this runs two or three times per step
        if seat != defender and seat not in out:
            allowed.append(seat)
    return tuple(allowed)


def thrower_breach(state: GameState, seat: int) -> Breach | None:
    """ATTACK-4: ``seat`` is one of the players allowed to add cards to this bout."""
    if seat == state.defender:
        return Breach("ATTACK-4", "the defender never throws in")
    if seat not in throwers(state):
        who_may = state.rules.throw_in
        who = ("only the attacker" if who_may is ThrowInRule.ATTACKER else
               "only the attacker and the defender's left-hand neighbour")
        return Breach("ATTACK-4", f"P{seat} may not throw in: {who} may add cards "
                      f"(throw_in={who_may.value})")
    return None


def throw_ins(state: GameState, seat: int, ranks: set[Rank] | None = None
              ) -> list[Action]:
    """The cards ``seat`` may add, by ATTACK-3: those of their hand with a rank on the
    table (``ranks``, if the caller has them: :func:`table_ranks`). Whether the seat may
    add now is the bout protocol's question."""
    if ranks is None:
        ranks = table_ranks(state.table)
    throws = THROWS[seat]
    found: list[Action] = []
    for card in state.hands[seat]:
        if card.rank in ranks:
            found.append(throws[card])
    return found


def throw_in(state: GameState, action: ThrowIn, events: list[Event]) -> GameState:
    """The state after ``action.player`` adds ``action.card`` to the attack."""
    seat = action.player
    hands, known = play_cards(state, seat, (action.card,))
    return replace(state, hands=hands, known=known, table=(*state.table, UNCOVERED[action.card]),
                          joined=join(state.joined, seat))
