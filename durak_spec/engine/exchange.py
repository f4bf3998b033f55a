"""The trump exchange: VAR-1 and CLAR-5.

Some play that the holder of the six of trumps may swap it for the face-up trump under
the stock; B says plainly that there is no such exchange, and no source profile has it:
it is a switch of the rule set (VAR-1). Where it is on, the specification decides how:
only the attacker, before opening a bout, and only while at least one hidden card lies
on the face-up trump; the card taken up is then known to everyone (CLAR-5).
"""

from __future__ import annotations

from durak_spec.core.cards import Card, Rank
from durak_spec.engine.breach import Breach
from durak_spec.engine.hands import holds_breach
from durak_spec.engine.tables import EXCHANGES
from durak_spec.model.actions import Action, ExchangeTrump
from durak_spec.model.events import Event, TrumpExchanged
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, replace, sort_cards

__all__ = ["exchange", "exchange_breach", "exchange_game", "exchanges"]


def exchange_game(rules: RuleSet) -> bool:
    """VAR-1: whether the rules have the trump exchange at all (a switch)."""
    return rules.trump_exchange


def exchange_breach(state: GameState, action: ExchangeTrump) -> Breach | None:
    """VAR-1, CLAR-5 (and CLAR-1): the exchange exists under its switch; the attacker
    makes it before opening a bout, while a hidden card lies on the face-up trump, with
    the six of trumps from their own hand."""
    if not exchange_game(state.rules):
        return Breach("VAR-1", "these rules have no trump exchange")
    if state.table or action.player != state.attacker:
        return Breach("CLAR-5", "only the attacker may exchange the trump, before opening a "
                      "bout")
    if state.face_up is None or len(state.stock) < 2:
        return Breach("CLAR-5", "the face-up trump can be exchanged only while at least two "
                      "cards remain in the stock")
    return holds_breach(state, action.player, (Card(Rank.SIX, state.trump),))


def exchanges(state: GameState) -> list[Action]:
    """The attacker's trump exchange, if they may make it now."""
    if not exchange_game(state.rules):
        return []
    action = EXCHANGES[state.attacker]
    return [action] if exchange_breach(state, action) is None else []


def exchange(state: GameState, action: ExchangeTrump, events: list[Event]) -> GameState:
    """The state after the exchange: the six lies under the stock, the face-up trump is in
    the attacker's hand, known to all."""
    seat = action.player
    six = Card(Rank.SIX, state.trump)
    face_up = state.stock[-1]
    hand = sort_cards([card for card in state.hands[seat] if card != six] + [face_up])
    known = state.known
    events.append(TrumpExchanged(seat, six, face_up, "VAR-1"))
    return replace(state,
        hands=(*state.hands[:seat], hand, *state.hands[seat + 1:]),
        stock=(*state.stock[:-1], six),
        known=(*known[:seat], known[seat] - {six} | {face_up}, *known[seat + 1:]))
