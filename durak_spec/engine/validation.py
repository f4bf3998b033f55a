"""Whether a position is well formed and each of its parts allowed: ``validate_state``.

This is the structural check of a position (saved games use it). It asks the same rule
functions as ``check`` and ``legal_actions`` do, each about the position as a whole and
one part at a time, not about the history that led to it, in this order: the cards
(DEAL-1, DEAL-3, DEAL-5, DEAL-8), who is out (END-1, END-2), what is known (VIEW-2), the
result (END-6), the roles (ORDER-3, ORDER-6), the table (LIMIT-*, BEAT-*), and the record
of the bout in play (ATTACK-1, ATTACK-6, CLAR-4, CLAR-3, ATTACK-5, TRANSFER-7).

What it does not ask is whether a game can get there: a hand of two between bouts while
the stock lasts, an odd discard pile or a table whose ranks never met pass it. The strict
check, :func:`~durak_spec.engine.reachable.check_reachable`, asks that on top (the
invariants of play); the wire ``load``, ``ReferenceEngine.load`` and the step library's
``Given`` positions use it.

A value that is not a position at all (not a ``GameState``, a seat that does not exist,
a bout number that is not a count, hands out of canonical order, ...) asks no rule of
the game: it raises :class:`~durak_spec.core.errors.InputError` with a code of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from durak_spec.core.cards import Card, Suit
from durak_spec.core.errors import InputError
from durak_spec.engine.attack import opening_breach
from durak_spec.engine.beating import cover_breach
from durak_spec.engine.bout_end import out_breach, result_breach
from durak_spec.engine.breach import Breach
from durak_spec.engine.dealing import deck_breach, players_breach, stock_breach
from durak_spec.engine.hands import known_breach
from durak_spec.engine.limits import limit_breach
from durak_spec.engine.seats import roles_breach
from durak_spec.engine.taking import take_breach
from durak_spec.engine.transfer import show_breach
from durak_spec.engine.turns import protocol_breach
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, sort_cards

__all__ = ["validate_state"]


def validate_state(state: GameState) -> GameState:
    """Check that ``state`` is a well-formed position; raise :class:`InvalidState` if not.

    All 36 cards exactly once, and hands, table and roles that the rules allow (whether
    play can reach it is :func:`~durak_spec.engine.reachable.check_reachable`'s
    question). Returns the state unchanged when it is valid. A value that is not a
    well-formed position raises :class:`InputError` instead (codes ``not-a-state``,
    ``not-a-rule-set``, ``not-a-suit``, ``not-a-count``, ``no-such-player``,
    ``bad-finishing-order``, ``not-one-per-seat``, ``not-canonical``).
    """
    _check_form(state)
    breach = deck_breach(_every_card(state), in_play=True)
    if breach is not None:
        raise breach.invalid()
    for seat, hand in enumerate(state.hands):
        if hand != sort_cards(hand):
            raise InputError(f"P{seat}'s hand is not in canonical order", code="not-canonical")
    if state.discard != sort_cards(state.discard):
        raise InputError("the discard pile is not in canonical order", code="not-canonical")
    breach = next((b for b in _breaches(state) if b is not None), None)
    if breach is not None:
        raise breach.invalid()
    return state


def _check_form(state: GameState) -> None:
    """Raise :class:`InputError` if ``state`` is not a well-formed position."""
    if not isinstance(state, GameState):
        raise InputError(f"not a game state: {type(state).__name__}", code="not-a-state")
    if not isinstance(state.rules, RuleSet):
        raise InputError("the state has no rule set", code="not-a-rule-set")
    breach = players_breach(state)
    if breach is not None:
        raise breach.invalid()
    n = state.rules.players
    if not isinstance(state.trump, Suit):
        raise InputError(f"trump must be a suit, not {state.trump!r}", code="not-a-suit")
    if isinstance(state.bout, bool) or not isinstance(state.bout, int) or state.bout < 0:
        raise InputError(f"bout number {state.bout!r} is not a count", code="not-a-count")
    if len(state.known) != n or len(state.start_hands) != n:
        raise InputError("known cards and start hands need one entry per seat",
                         code="not-one-per-seat")
    seats = range(n)
    for role, seat in (("attacker", state.attacker), ("defender", state.defender),
                       ("opener", state.opener)):
        if isinstance(seat, bool) or seat not in seats:
            raise InputError(f"the {role} P{seat} is not a seat of {n} players",
                             code="no-such-player")
    for seat in (*state.passed, *state.joined):
        if isinstance(seat, bool) or seat not in seats:
            raise InputError(f"P{seat} is not a seat of {n} players", code="no-such-player")
    out = [seat for group in state.finished for seat in group]
    if len(out) != len(set(out)) or any(seat not in seats for seat in out) or \
            any(not group for group in state.finished):
        raise InputError(f"finishing order {state.finished!r} is not a list of groups of "
                         "distinct seats", code="bad-finishing-order")


def _breaches(state: GameState) -> Iterator[Breach | None]:
    """The rule functions asked about the cards, roles and bout of ``state``, in order
    (the first breach counts)."""
    yield stock_breach(state)
    yield out_breach(state)
    yield known_breach(state)
    yield result_breach(state)
    if state.is_over:
        return
    yield roles_breach(state)
    if state.table:
        yield limit_breach(state, len(state.table))
    for pair in state.table:
        if pair.cover is not None:
            yield cover_breach(pair.cover, pair.attack, state.trump)
    yield opening_breach(state)
    yield take_breach(state)
    yield show_breach(state)
    yield protocol_breach(state)


def _every_card(state: GameState) -> list[Card]:
    cards = [card for hand in state.hands for card in hand]
    cards.extend(state.stock)
    cards.extend(state.table_cards())
    cards.extend(state.discard)
    return cards
