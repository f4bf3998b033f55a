"""Transferring the attack (the transfer game, perevodnoy): TRANSFER-1 .. TRANSFER-8, CLAR-6.

In the transfer game a defender who has beaten nothing yet may, instead of beating, lay
a card of the attack's rank: the attack passes to the next player, who must now beat all
of it (TRANSFER-1: A, B, D). The card must match the rank of every attack card on the
table (TRANSFER-2: B); the new defender must hold at least as many cards as there will be
attack cards to beat (TRANSFER-3: A, B, D); the table may not go past the bout's limit
of attack cards (TRANSFER-4: B); once the defender has beaten any card, transferring is
over (TRANSFER-5: A, B, D). The new defender may beat, take, or transfer again, back to
the first attacker too (TRANSFER-6: B, D; CLAR-14); for the limit on attack cards
(LIMIT-2), the new defender's hand is counted when they become the defender. Showing a
trump of the rank instead of playing it does not transfer (TRANSFER-7: B), except under
a switch that no source profile turns on; a shown trump stays in hand, everyone knows of
it, and it can be shown once per bout (CLAR-6). The throw-in game has no transfer (TRANSFER-8).
"""

from __future__ import annotations

from durak_spec.core.cards import Card, Rank, format_cards
from durak_spec.engine.breach import Breach
from durak_spec.engine.draw import join
from durak_spec.engine.hands import play_cards
from durak_spec.engine.limits import bout_cap
from durak_spec.engine.seats import (
    next_in_game,
    passed_over,
    target_breach,
    transfer_target_rule,
)
from durak_spec.engine.tables import SHOWS, TRANSFERS, UNCOVERED
from durak_spec.model.actions import Action, Transfer
from durak_spec.model.events import Event, Transferred
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, replace

__all__ = [
    "attack_rank",
    "capacity_breach",
    "new_defender",
    "rank_match_breach",
    "room_breach",
    "show_breach",
    "transfer",
    "transfer_game",
    "transfer_game_breach",
    "transfer_rule",
    "transfers",
    "unbeaten_breach",
]


def new_defender(state: GameState) -> int:
    """TRANSFER-1: the player a transfer passes the attack to, the defender's next player
    still in the game (ORDER-3, ORDER-6), past those a transfer passes over (CLAR-22,
    CLAR-23); the defender themselves when nobody is left to pass it to."""
    return next_in_game(state.defender, len(state.hands), passed_over(state))


def transfer_game(rules: RuleSet) -> bool:
    """TRANSFER-8, TRANSFER-1: whether the rules are those of the transfer game, the only
    one with transfers (a switch of the rule set)."""
    return rules.transfer


def transfer_game_breach(state: GameState, seat: int) -> Breach | None:
    """TRANSFER-8, TRANSFER-1: transfers belong to the transfer game, and only the
    defender transfers."""
    if not transfer_game(state.rules):
        return Breach("TRANSFER-8", "the throw-in game has no transfer")
    if seat != state.defender:
        return Breach("TRANSFER-1", f"only the defender P{state.defender} can transfer")
    return None


def unbeaten_breach(state: GameState) -> Breach | None:
    """TRANSFER-5: the attack is transferred only while no attack card is beaten."""
    for pair in state.table:
        if pair.cover is not None:
            return Breach("TRANSFER-5", "a card has been beaten in this bout, so the attack "
                          "can no longer be transferred")
    return None


def show_breach(state: GameState, action: Transfer | None = None) -> Breach | None:
    """TRANSFER-7, CLAR-6: a trump of the rank may be shown instead of played only under
    that switch, and each trump once per bout.

    With ``action``: whether it may be shown. Without: whether every trump recorded as
    shown is a trump in a hand or on the table.
    """
    if action is None:
        on_table = state.table_cards()
        for card in state.shown:
            if card.suit != state.trump or not (
                    card in on_table or any(card in hand for hand in state.hands)):
                return Breach("TRANSFER-7", f"{card} is recorded as shown, but it is not a "
                              "trump in a player's hand or on the table")
        return None
    if not action.show:
        return None
    if not state.rules.transfer_by_showing_trump:
        return Breach("TRANSFER-7", "showing a trump does not transfer the attack in these "
                      "rules; play the card")
    if action.card.suit != state.trump:
        return Breach("TRANSFER-7", f"{action.card} is not a trump; only a trump can be shown")
    if action.card in state.shown:
        return Breach("CLAR-6", f"{action.card} has already been shown in this bout")
    return None


def attack_rank(state: GameState) -> Rank | None:
    """TRANSFER-2: the one rank shared by every attack card, which a transfer card must
    have; ``None`` when the attack cards differ in rank."""
    rank = state.table[0].attack.rank
    for pair in state.table:
        if pair.attack.rank != rank:
            return None
    return rank


def rank_match_breach(state: GameState, action: Transfer) -> Breach | None:
    """TRANSFER-2: the transfer card matches the rank of every attack card."""
    if attack_rank(state) == action.card.rank:
        return None
    return Breach("TRANSFER-2", f"{action.card} does not match the rank of every attack card "
                  f"({format_cards(state.attack_cards)})")


def attack_cards_after(state: GameState, action: Transfer) -> int:
    """How many attack cards the new defender faces after ``action``: one more for a
    played card, as many as now for a shown trump."""
    return len(state.table) + (0 if action.show else 1)


def room_breach(state: GameState, count: int) -> Breach | None:
    """TRANSFER-4: a transfer leaves no more attack cards on the table than the bout may
    hold (LIMIT-1, LIMIT-3)."""
    room, _ = bout_cap(state)
    if count <= room:
        return None
    return Breach("TRANSFER-4", f"the transfer would put {count} attack cards on the table; "
                  f"at most {room} are allowed")


def capacity_breach(state: GameState, count: int) -> Breach | None:
    """TRANSFER-3: the new defender holds at least as many cards as the ``count`` attack
    cards they will face; CLAR-23: there is a new defender, where players out of cards
    are passed over."""
    target = new_defender(state)
    nobody = target_breach(state, target)  # only where players out of cards are passed over
    if nobody is not None:
        return nobody
    held = len(state.hands[target])
    if held >= count:
        return None
    return Breach("TRANSFER-3", f"P{target} holds {held} card{'' if held == 1 else 's'}, "
                  f"too few to face {count} attack cards")


def transfers(state: GameState) -> list[Action]:
    """The defender's transfers now, played and (where allowed) shown, in canonical order:
    cards of the attack's one rank (TRANSFER-2) while nothing is beaten (TRANSFER-5), if
    the table has room (TRANSFER-4) and the new defender holds enough (TRANSFER-3)."""
    if not transfer_game(state.rules) or unbeaten_breach(state) is not None:
        return []
    defender = state.defender
    rank = attack_rank(state)
    if rank is None:
        return []
    hand: list[Card] = []
    for card in state.hands[defender]:  # plain loops: this runs whenever the defender moves
        if card.rank == rank:
            hand.append(card)
    if not hand:
        return []
    found: list[Action] = []
    count = len(state.table) + 1
    if room_breach(state, count) is None and capacity_breach(state, count) is None:
        played = TRANSFERS[defender]
        for card in hand:
            found.append(played[card])
    if state.rules.transfer_by_showing_trump:
        count = len(state.table)
        if room_breach(state, count) is None and capacity_breach(state, count) is None:
            shows = SHOWS[defender]
            found.extend(shows[card] for card in hand if show_breach(state, shows[card]) is None)
    return found


def transfer_rule(action: Transfer, state: GameState | None = None) -> str:
    """The rule that allows a legal transfer: TRANSFER-1 (a card of the attack's rank
    played), TRANSFER-7 (a trump of that rank only shown); with the ``state`` it is made
    in, where it passes over a player who has just played out their hand, CLAR-23 (the
    reading that lets the attack go past them)."""
    if state is not None and passed_over(state) != state.out:
        return transfer_target_rule(state)
    return "TRANSFER-7" if action.show else "TRANSFER-1"


def transfer(state: GameState, action: Transfer, events: list[Event]) -> GameState:
    """The state after the defender transfers: the transfer card joins the attack (a
    shown trump stays in hand, known to all: CLAR-6), the transferer attacks, and the
    next player defends (TRANSFER-1, TRANSFER-6)."""
    seat, card = action.player, action.card
    target = new_defender(state)
    hands, known, table, shown = state.hands, state.known, state.table, state.shown
    if action.show:
        shown = shown | {card}
        known = (*known[:seat], known[seat] | {card}, *known[seat + 1:])
    else:
        hands, known = play_cards(state, seat, (card,))
        table = (*table, UNCOVERED[card])
    events.append(Transferred(seat, card, action.show, target, transfer_rule(action, state)))
    return replace(state, hands=hands, known=known, table=table, shown=shown, attacker=seat,
                         defender=target, joined=join(state.joined, seat),
                         start_hands=became_defender(state.start_hands, target,
                                                     len(hands[target])))


def became_defender(start_hands: tuple[int, ...], seat: int, held: int) -> tuple[int, ...]:
    """LIMIT-2 after a transfer: the new defender's "start" is the moment they became the
    defender, so their hand is counted again then (``held`` cards). B's and D's transfer
    clauses ask the same: the new defender must be able to answer the whole attack
    (TRANSFER-3)."""
    return (*start_hands[:seat], held, *start_hands[seat + 1:])
