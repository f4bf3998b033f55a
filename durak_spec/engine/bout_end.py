"""The end of a bout and of the game: DEFEND-1, TAKE-2, TAKE-4, ORDER-4 .. ORDER-6,
END-1 .. END-6, CLAR-9, CLAR-15.

A bout that is beaten off goes to the discard pile, out of play for the rest of the game
(DEFEND-1: A, B, C, D); a bout that is taken goes, every attack and cover card, into the
defender's hand (TAKE-2: A, B, C, D), and everyone knows those cards are there (VIEW-2).
Then the players draw (:mod:`durak_spec.engine.draw`).

Once the stock is empty, a player with no cards is out and safe (END-1: A, C); while the
stock lasts, running out ends nothing, since the player draws again (END-2: B). The game
ends when only one player holds cards, the durak (END-3: A, C); if the last players run
out together, nobody does and the game is a draw (END-4: A, B, C; CLAR-9). Source D
plays a race instead (END-5, the rule set's ``goal``): the first player out wins, so the
game ends at the first bout end where anyone goes out; a durak is named only if exactly
one player then still holds cards. The result is judged after the bout and the drawing
(END-6: B).

After a successful defence the defender attacks next, against their own next player
(ORDER-4: A, B, C, D); a defender who took loses the attack, and the player after them
attacks (ORDER-5, TAKE-4: A, B, C, D). Players who are out are skipped, and a defender
who went out on a successful defence passes the attack to the next player still in
(ORDER-6, CLAR-15).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from durak_spec.core.cards import Card, format_cards
from durak_spec.engine.breach import Breach
from durak_spec.engine.draw import draw, draw_order, draw_rule
from durak_spec.engine.seats import next_in_game
from durak_spec.engine.turns import settle_rule
from durak_spec.model.actions import Action
from durak_spec.model.events import BoutEnded, Event, GameOver, NextBout, WentOut
from durak_spec.model.rules import Goal
from durak_spec.model.state import GameState, Outcome, add_cards

__all__ = ["end_bout", "game_ends", "going_out", "next_roles", "out_breach", "outcome_rule",
           "over_breach", "result_breach", "roles_rule"]

_NOBODY: frozenset[int] = frozenset()
_NONE_SHOWN: frozenset[Card] = frozenset()


def over_breach(state: GameState) -> Breach | None:
    """CLAR-2: once the game is over, nobody has an action left."""
    if state.finished and state.is_over:
        return Breach("CLAR-2", "the game is over; no one may act")
    return None


def out_breach(state: GameState, action: Action | None = None) -> Breach | None:
    """END-1, END-2: once the stock is empty, a player without cards is out of the game and
    safe; nobody is out while the stock still has cards.

    With ``action``: whether its player is still in the game and may act. Without:
    whether the position's finishing order fits the hands and the stock.
    """
    if action is not None:
        seat = action.player
        for group in state.finished:  # plain loops: no set of the seats out is built
            if seat in group:
                return Breach("END-1", f"P{action.player} is out of the game and takes no part")
        return None
    out = state.out
    if out and state.stock:
        return Breach("END-2", "a player is out while the stock still has cards")
    for seat in sorted(out):
        if state.hands[seat]:
            return Breach("END-1", f"P{seat} is out but holds {format_cards(state.hands[seat])}")
    if not state.table and not state.is_over:
        for seat in state.in_game():
            if not state.hands[seat]:
                return Breach("END-1", f"P{seat} holds no cards between bouts but is not out")
    return None


def result_breach(state: GameState) -> Breach | None:
    """END-6: the result is judged after the bout is complete, so a game that is over has
    no cards on the table."""
    if state.is_over and state.table:
        return Breach("END-6", "the game is over but cards lie on the table")
    return None


def going_out(hands: Sequence[tuple[Card, ...]], stock: tuple[Card, ...],
              out: Collection[int]) -> tuple[int, ...]:
    """END-1, END-2: the players who go out at this bout end, after the drawing: once the
    stock is empty, those still in the game who hold no cards; nobody while it lasts."""
    if stock:
        return ()
    return tuple([seat for seat in range(len(hands)) if seat not in out and not hands[seat]])


def game_ends(goal: Goal, out: Collection[int], players: int) -> bool:
    """END-3, END-4, END-5: the game ends when one player or none still holds cards; in a
    race (goal first-out-wins, D) it ends as soon as anyone is out, who has won."""
    if out and goal == "first-out-wins":
        return True
    return len(out) >= players - 1


def outcome_rule(goal: Goal, stock: int, out: Collection[int], players: int,
                 in_bout: bool = False) -> str:
    """The rule that decides whether a game with ``stock`` cards left and the seats
    ``out`` out is over, and how: the result is judged only after a bout (END-6, when
    ``in_bout``); nobody is out while the stock lasts (END-2); a race ends at the first
    player out (END-5); the last players out together make a draw (END-4); else the game
    ends with one player left holding cards (END-3)."""
    if in_bout:
        return "END-6"
    if stock:
        return "END-2"
    if goal == "first-out-wins":
        return "END-5"
    if len(out) >= players:
        return "END-4"
    return "END-3"


def roles_rule(state: GameState, taken: bool, out: Collection[int]) -> str:
    """The rule that chooses the next bout's attacker (:func:`next_roles`): the defender
    took (ORDER-5), went out (ORDER-6), or beat the bout off (ORDER-4)."""
    if taken:
        return "ORDER-5"
    return "ORDER-6" if state.defender in out else "ORDER-4"


def next_roles(state: GameState, taken: bool, out: frozenset[int]) -> tuple[int, int]:
    """The attacker and defender of the next bout, with ``out`` the seats out after this
    one: the defender attacks next (ORDER-4), unless they took (ORDER-5, TAKE-4) or went
    out (ORDER-6, CLAR-15); the next player still in defends (ORDER-3)."""
    players = len(state.hands)
    defender = state.defender
    attacker = next_in_game(defender, players, out) if taken or defender in out else defender
    return attacker, next_in_game(attacker, players, out)


def end_bout(state: GameState, events: list[Event] | None) -> GameState:
    """The state after the bout in play ends: the table is discarded (DEFEND-1) or taken
    (TAKE-2), everyone draws, players out of cards leave (END-1), and either the game is
    over (END-3, END-4) or the next bout's roles are found (ORDER-4 .. ORDER-6).
    The events of all this are added to ``events``, in order (``None``: no record is
    kept, as ``apply`` asks)."""
    taken = state.taking
    hands = list(state.hands)
    known = list(state.known)
    discard = state.discard
    table = state.table_cards()
    defender = state.defender
    if taken:  # TAKE-2, VIEW-2
        hands[defender] = tuple(sorted(hands[defender] + table))
        known[defender] = known[defender].union(table)
    else:  # DEFEND-1
        discard = add_cards(discard, table)
    if events is not None:
        events.append(BoutEnded(state.bout + 1, defender if taken else None, table,
                                settle_rule(state)))
    stock = state.stock
    if stock:
        order = draw_order(state.rules, state.opener, defender, state.joined,
                           state.attacker)
        rule = draw_rule(state.rules, state.opener, state.attacker) if events is not None \
            else ""
        stock = draw(state.rules, order, hands, stock, known, events, rule)
    finished = state.finished
    out = state.out if finished else _NOBODY
    gone = going_out(hands, stock, out)
    if gone:
        finished = (*finished, gone)
        out = out | frozenset(gone)
        if events is not None:
            events.append(WentOut(gone, "END-1"))
    if game_ends(state.rules.goal, out, len(hands)):
        rest = tuple(seat for seat in range(len(hands)) if seat not in out)
        attacker = next_defender = rest[0] if rest else state.attacker
        if events is not None:
            events.append(GameOver(Outcome.of(finished, rest),
                                   outcome_rule(state.rules.goal, 0, out, len(hands))))
    else:
        attacker, next_defender = next_roles(state, taken, out)
        if events is not None:
            events.append(NextBout(state.bout + 2, attacker, next_defender,
                                   roles_rule(state, taken, out)))
    # the next bout's position, every field given (nearly all change: cheaper than replace)
    return GameState(
        rules=state.rules, hands=tuple(hands), stock=stock, trump=state.trump, table=(),
        discard=discard, attacker=attacker, defender=next_defender, opener=attacker,
        bout=state.bout + 1, taking=False, passed=_NOBODY, joined=(),
        start_hands=tuple(map(len, hands)), shown=_NONE_SHOWN, known=tuple(known),
        finished=finished, thrower=None)
