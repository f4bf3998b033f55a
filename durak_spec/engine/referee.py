"""The referee: the rule modules composed into ``legal_actions``, ``check`` and ``advance``.

Nothing is decided here. For each kind of action this module lists which rule functions
are asked, in which order (the first broken rule is the one ``check`` names), and
``advance`` runs the action's effect from its rule module, lets the bout protocol record who
said done, and ends the bout when it is settled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from durak_spec.core.errors import BadAction, InputError
from durak_spec.engine.attack import (
    attack_rule,
    open_bout,
    opening_breach,
    openings,
    rank_breach,
    several_breach,
    table_ranks,
    throw_in,
    throw_ins,
    thrower_breach,
)
from durak_spec.engine.beating import (
    beating_rule,
    cover,
    cover_breach,
    cover_place_breach,
    covers,
)
from durak_spec.engine.bout_end import end_bout, out_breach, over_breach
from durak_spec.engine.breach import Breach
from durak_spec.engine.exchange import exchange, exchange_breach, exchange_game, exchanges
from durak_spec.engine.hands import holds_breach
from durak_spec.engine.limits import limit_breach
from durak_spec.engine.tables import DONES
from durak_spec.engine.taking import take, take_breach, takes
from durak_spec.engine.transfer import (
    attack_cards_after,
    capacity_breach,
    rank_match_breach,
    room_breach,
    show_breach,
    transfer,
    transfer_game,
    transfer_game_breach,
    transfer_rule,
    transfers,
    unbeaten_breach,
)
from durak_spec.engine.turns import (
    bout_settled,
    defender_to_move,
    done,
    pending,
    protocol_breach,
    record,
)
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
)
from durak_spec.model.events import Event, Played, Step
from durak_spec.model.state import GameState

__all__ = ["advance", "apply", "broken_rule", "check", "grounds", "is_legal", "legal_actions",
           "play_listed"]


# -- listing --------------------------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of every player who may act now, in a stable order.

    Actions are grouped by seat (ascending), then by kind (open, throw, cover, transfer,
    show, take, done, exchange), then by cards in canonical order. The game is over when
    this is empty; in a bout, the bout is settled (ATTACK-5,
    :func:`~durak_spec.engine.turns.bout_settled`).
    """
    if state.finished and over_breach(state) is not None:  # CLAR-2
        return ()
    if not state.table:
        opening = openings(state)
        if exchange_game(state.rules):  # VAR-1: else there is no exchange to list
            opening.extend(exchanges(state))
        return tuple(opening)
    defender = state.defender
    answers: list[Action] = []
    to_move = defender_to_move(state)
    if to_move:
        answers = covers(state)
        if transfer_game(state.rules):  # TRANSFER-8: else there is no transfer to list
            answers.extend(transfers(state))
        answers.extend(takes(state))
    ranks = table_ranks(state.table)
    adders = pending(state, ranks)
    if not adders:
        return tuple(answers)
    finishing = not to_move  # quiet(state): the defender is done, attackers may say done
    found: list[Action] = []
    for seat in range(len(state.hands)):
        if seat == defender:
            found.extend(answers)
        elif seat in adders:
            found.extend(throw_ins(state, seat, ranks))
            if finishing:
                found.append(DONES[seat])
    return tuple(found)


# -- checking ---------------------------------------------------------------------------------


def _open(state: GameState, action: Open) -> Breach | None:
    cards = action.played
    return (opening_breach(state, action)
            or protocol_breach(state, action)
            or holds_breach(state, action.player, cards)
            or several_breach(state, cards)
            or limit_breach(state, len(cards)))


def _throw_in(state: GameState, action: ThrowIn) -> Breach | None:
    # A card that may not join this bout at all is refused by the rule that keeps it out
    # (ATTACK-3, LIMIT-*), whoever's turn it is; the bout protocol (CLAR-3, CLAR-17,
    # CLAR-18) names a card that could be added, only not now.
    seat, card = action.player, action.card
    return (opening_breach(state, action)
            or thrower_breach(state, seat)
            or holds_breach(state, seat, (card,))
            or rank_breach(state, card)
            or limit_breach(state, len(state.table) + 1, card)
            or protocol_breach(state, action))


def _cover(state: GameState, action: Cover) -> Breach | None:
    return (opening_breach(state, action)
            or take_breach(state, action)
            or cover_place_breach(state, action)
            or protocol_breach(state, action)
            or holds_breach(state, action.player, (action.card,))
            or cover_breach(action.card, action.attack, state.trump))


def _transfer(state: GameState, action: Transfer) -> Breach | None:
    count = attack_cards_after(state, action)
    return (opening_breach(state, action)
            or transfer_game_breach(state, action.player)
            or take_breach(state, action)
            or protocol_breach(state, action)
            or unbeaten_breach(state)
            or show_breach(state, action)
            or holds_breach(state, action.player, (action.card,))
            or rank_match_breach(state, action)
            or room_breach(state, count)
            or capacity_breach(state, count))


def _take(state: GameState, action: Take) -> Breach | None:
    return (opening_breach(state, action)
            or take_breach(state, action)
            or protocol_breach(state, action))


def _done(state: GameState, action: Done) -> Breach | None:
    return opening_breach(state, action) or protocol_breach(state, action)


def _exchange(state: GameState, action: ExchangeTrump) -> Breach | None:
    return exchange_breach(state, action) or protocol_breach(state, action)


_CHECKS: Mapping[type[Action], Callable[[GameState, Any], Breach | None]] = MappingProxyType({
    Open: _open,
    ThrowIn: _throw_in,
    Cover: _cover,
    Transfer: _transfer,
    Take: _take,
    Done: _done,
    ExchangeTrump: _exchange,
})
"""The rules asked about each kind of action, in the order above. The bout protocol
(``protocol_breach``) is asked about every kind: who may act now is its question."""


def broken_rule(state: GameState, action: Action) -> Breach | None:
    """The first rule ``action`` breaks in ``state``, or ``None`` if it is legal.

    Raises :class:`~durak_spec.core.errors.BadAction` for something that is not an action
    of this game at all (code ``not-an-action``) or names a seat the game does not have
    (``no-such-player``).
    """
    try:
        kind = _CHECKS[type(action)]  # the kinds of action, by exact type: one lookup
    except KeyError:
        if not isinstance(action, Action):
            raise BadAction(f"{action!r} is not an action", code="not-an-action") from None
        raise BadAction(f"{action} is not an action of this game",
                        code="not-an-action") from None
    someone_out = bool(state.finished)  # CLAR-2 and END-1 have nothing to say otherwise
    if someone_out:
        over = over_breach(state)
        if over is not None:
            return over
    seat = action.player
    players = len(state.hands)
    if (type(seat) is not int  # the usual case in one test; a bool is no seat
            and (isinstance(seat, bool) or not isinstance(seat, int))) or not 0 <= seat < players:
        raise BadAction(f"there is no player P{seat} in a game of {players}",
                        code="no-such-player")
    if len(state.known) != players or len(state.start_hands) != players:
        raise InputError("the state has no known cards or start hands for every seat: build "
                         "positions by hand with durak_spec.game.positions.Position",
                         code="not-one-per-seat")
    if someone_out:
        out = out_breach(state, action)
        if out is not None:
            return out
    return kind(state, action)


def check(state: GameState, action: Action) -> None:
    """Raise :class:`~durak_spec.core.errors.IllegalAction` naming the rule that ``action``
    breaks; else return. Something that is not an action of this game raises
    :class:`~durak_spec.core.errors.BadAction` (see :func:`broken_rule`)."""
    found = broken_rule(state, action)
    if found is not None:
        raise found.illegal()


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal now (``False`` for anything that is not an action of
    this game, too)."""
    try:
        return broken_rule(state, action) is None
    except BadAction:
        return False


# -- playing ----------------------------------------------------------------------------------


def advance(state: GameState, action: Action) -> Step:
    """Play ``action``: the next state and the events of the step, in order.

    Raises :class:`~durak_spec.core.errors.IllegalAction` (or ``BadAction``) and leaves
    nothing changed if the action is not legal. When the action settles the bout, the
    table is cleared (DEFEND-1) or taken (TAKE-2), players draw (DRAW-*), players out of
    cards leave (END-1), and the next attacker and defender are found (ORDER-4/5/6); the
    events say so.
    """
    events: list[Event] = []
    after = apply(state, action, events)
    return Step(after, (Played(action, grounds(state, action)), *events))


def grounds(state: GameState, action: Action) -> str:
    """The rule that allows ``action``, legal in ``state`` (the rule of its
    :class:`~durak_spec.model.events.Played` event): what an engine that misses or rejects
    it gets wrong. Asked of each kind's rule module."""
    return _GROUNDS[type(action)](state, action)


_GROUNDS: Mapping[type[Action], Callable[[GameState, Any], str]] = MappingProxyType({
    Open: attack_rule,
    ThrowIn: attack_rule,
    Cover: lambda state, action: beating_rule(action.card, action.attack, state.trump),
    Transfer: lambda state, action: transfer_rule(action, state),
    Take: lambda state, action: "TAKE-1",  # the defender may take instead of beating
    Done: lambda state, action: "ATTACK-5",  # the attack ends when the attackers pass
    ExchangeTrump: lambda state, action: "VAR-1",
})


def apply(state: GameState, action: Action, events: list[Event] | None = None) -> GameState:
    """The state after ``action``: ``advance(state, action).state``. Raises
    :class:`~durak_spec.core.errors.IllegalAction` (state untouched) if illegal.

    The same steps as :func:`advance`; the events of the step beyond the action itself
    are appended to ``events`` if it is given (``advance`` passes its list), and no
    record is made without it."""
    found = broken_rule(state, action)  # the same rules as check asks
    if found is not None:
        raise found.illegal()
    return play_listed(state, action, events)


def play_listed(state: GameState, action: Action,
                events: list[Event] | None = None) -> GameState:
    """The state after ``action``, an action that ``legal_actions(state)`` listed: the
    steps of :func:`apply` without asking the rules again, which the listing has just
    asked. For loops that choose among the listed actions (perft, the computer players'
    simulations), where the check is about a fifth of a step; an action from anywhere
    else goes through :func:`apply`, which checks it (this one would play an illegal
    action as if it were legal)."""
    effect = _EFFECTS[type(action)]
    after = record(state, action, effect(state, action, [] if events is None else events))
    if after.table and bout_settled(after):  # ATTACK-5
        after = end_bout(after, events)  # no last thrower between bouts (CLAR-18)
    return after


_EFFECTS: Mapping[type[Action], Callable[[GameState, Any, list[Event]], GameState]] = \
    MappingProxyType({
        Open: open_bout,
        ThrowIn: throw_in,
        Cover: cover,
        Transfer: transfer,
        Take: take,
        Done: done,
        ExchangeTrump: exchange,
    })
"""What each kind of action does, from its rule module; the events beyond the action
itself (a transfer, an exchange) are added to the list."""
