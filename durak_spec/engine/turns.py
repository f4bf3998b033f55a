"""The bout protocol: who may act now, saying done, and when a bout is settled
(CLAR-3, ATTACK-5, TAKE-3).

The sources say that the attack ends when the attackers pass ("done", "beaten") and that
the bout is a successful defence once every attack card is covered and no one adds more
(ATTACK-5: A, B), that attackers may still add cards after a take is announced (TAKE-3:
A, B), and that several players may throw in (ATTACK-4); none says in which order
several players act. The specification decides (CLAR-3), as at a real table:

* between bouts only the attacker acts: they open the bout (or exchange the trump six
  first, where VAR-1 allows);
* after the opening, the defender and every player allowed to throw in act in any order,
  first come first served;
* an attacker says done only once every attack card is covered or the defender has
  announced a take; a done stands until the defender moves again (a cover, a transfer
  or a take), and until then that player adds nothing;
* a player who has no card they may add is never asked: they need not say done;
* the bout is settled as soon as every attack card is covered (or a take is announced)
  and every attacker who could still add a card has said done.

The rule set's switch ``turn_order`` chooses the protocol; the two turn-based values are
the specification's clarifications too, written from how computer implementations order a
bout (one seat at a time):

* ``opener-first`` (CLAR-17): while an attack card is uncovered and no take is announced,
  the defender alone acts, and answers every card before anyone adds another. Once
  nothing is left to cover (or a take is announced), exactly one attacker is to act: the
  first, going clockwise from the attacker (and past the defender), who could add a card
  and has not said done. They add one card or say done; after a card the defender answers
  again, and the asking starts again from the attacker.
* ``last-thrower`` (CLAR-18): the same, except that the asking starts from the seat that
  played the last attack card and goes on clockwise round the table, past the defender.

Under both, a done stands until the defender moves again; the bout is settled when nobody
who could add a card is left to ask.

During a take the defender makes no more moves, so under every protocol a done said then
stands for the rest of the bout (CLAR-20), unless the rule set's ``done_in_take`` is
asked-again: then every card thrown in during the take lifts every done, and each
attacker is asked again (CLAR-21).

This module is the one place where the protocol lives: the rule modules say what may be
played (which cards cover, which ranks may be added, who may throw in at all, the
limits); the protocol says who may play it now. The protocol is a switch of the rule set
read here, and nowhere else.
"""

from __future__ import annotations

from durak_spec.core.cards import Rank
from durak_spec.engine.attack import table_ranks, thrower_breach, throwers
from durak_spec.engine.breach import Breach
from durak_spec.engine.limits import attack_limit, room_rule
from durak_spec.model.actions import Action, Cover, Done, Open, Take, ThrowIn, Transfer
from durak_spec.model.events import Event
from durak_spec.model.state import GameState, replace

__all__ = [
    "acting_seats",
    "bout_settled",
    "could_add",
    "defender_to_move",
    "done",
    "done_in_take_breach",
    "done_in_take_rule",
    "passed_after",
    "pending",
    "protocol_breach",
    "quiet",
    "record",
    "settle_rule",
    "thrown_in_lifts_dones",
    "to_act",
    "turn_breach",
    "turn_rule",
]

_NOBODY: frozenset[int] = frozenset()


def defender_to_move(state: GameState) -> bool:
    """Whether the defender has a move now: some attack card is uncovered and no take is
    announced (CLAR-3, CLAR-4)."""
    if state.taking:
        return False
    for pair in state.table:  # noqa: SIM110 - a plain loop: this runs for every position
        if pair.cover is None:
            return True
    return False


def quiet(state: GameState) -> bool:
    """Whether the defender has nothing left to do in the bout in play: every attack card
    is covered, or a take is announced; only then do attackers say done (CLAR-3)."""
    return bool(state.table) and not defender_to_move(state)


def could_add(state: GameState, ranks: set[Rank] | None = None) -> tuple[int, ...]:
    """The attackers who could still add a card and have not said done (CLAR-3): seats
    allowed to throw in (ATTACK-4) holding a card of a rank on the table (ATTACK-3,
    ``ranks`` if the caller has them: :func:`table_ranks`), while the bout has room for
    another attack card (LIMIT-*); in seat order."""
    table = state.table
    if not table:
        return ()
    if ranks is None:
        ranks = table_ranks(table)
    passed, hands = state.passed, state.hands
    found: list[int] = []
    for seat in throwers(state):
        if seat not in passed:
            for card in hands[seat]:
                if card.rank in ranks:
                    found.append(seat)
                    break
    if not found or len(table) >= attack_limit(state)[0]:
        return ()
    return tuple(found)


def turn_rule(state: GameState) -> str | None:
    """The rule ID of a turn-based protocol in force (CLAR-17, CLAR-18), or ``None``
    under the free protocol of CLAR-3."""
    order = state.rules.turn_order
    if order == "free":
        return None
    return "CLAR-17" if order == "opener-first" else "CLAR-18"


def to_act(state: GameState) -> int | None:
    """Under a turn-based protocol (CLAR-17, CLAR-18), the one attacker asked now, or
    ``None`` if no attacker is (the defender is to move, or nobody could add a card).

    The asking goes clockwise past the defender, starting from the attacker under
    ``opener-first``, from the seat that played the last attack card under
    ``last-thrower``; the first seat found that could add a card is asked."""
    if defender_to_move(state):
        return None
    found = could_add(state)
    if not found:
        return None
    n = len(state.hands)
    start = state.attacker
    if state.rules.turn_order == "last-thrower" and state.thrower is not None:
        start = state.thrower
    return min(found, key=lambda seat: (seat - start) % n)


def pending(state: GameState, ranks: set[Rank] | None = None) -> tuple[int, ...]:
    """The attackers who may add a card or say done now. Under the free protocol
    (CLAR-3) every attacker who could still add a card (:func:`could_add`; ``ranks`` as
    there); under a turn-based one only the seat :func:`to_act`, once nothing is left to
    cover."""
    if state.rules.turn_order == "free":
        return could_add(state, ranks)
    seat = to_act(state)
    return () if seat is None else (seat,)


def bout_settled(state: GameState) -> bool:
    """ATTACK-5: whether the bout in play is over: nothing is left for the defender to do
    and no attacker may still add a card.

    ``advance`` asks it after every step in a bout. It agrees with the listing: a bout in
    play is settled exactly when ``legal_actions`` lists nothing (the defender to move
    always may take; an attacker still pending always has a card to add);
    ``tests/test_engine_steps.py`` checks that the two agree."""
    return bool(state.table) and not defender_to_move(state) and not pending(state)


def settle_rule(state: GameState) -> str:
    """The rule that decides whether the bout in play is settled now, or goes on: the
    attack limit where the table has reached it (LIMIT-1, LIMIT-2, LIMIT-3, CLAR-13);
    LIMIT-3 too where five attack cards lie in a later bout under the five-card first
    bout that goes on (that limit holds for the first bout only); TAKE-3 during a take
    that goes on (the attackers may still add cards); else ATTACK-5 (the bout ends once
    every attack card is covered and every attacker who could add has said done).

    ``advance`` names it in the bout's end (:class:`~durak_spec.model.events.BoutEnded`);
    a checker names it where an engine settles a bout that goes on."""
    table = state.table
    if table and not defender_to_move(state):
        limit, rule = attack_limit(state)
        if len(table) >= limit:
            return rule
        if not could_add(state):  # settled: nobody could add more
            return "ATTACK-5"
        room = room_rule(state)
        if room is not None:
            return room
        if state.taking:
            return "TAKE-3"
    return "ATTACK-5"


def acting_seats(state: GameState) -> tuple[int, ...]:
    """The seats that have a legal action now, in seat order: between bouts the attacker;
    in a bout the defender while they have a move, and every attacker still pending."""
    if state.is_over:
        return ()
    if not state.table:
        return (state.attacker,)
    seats = set(pending(state))
    if defender_to_move(state):
        seats.add(state.defender)
    return tuple(sorted(seats))


def protocol_breach(state: GameState, action: Action | None = None) -> Breach | None:
    """CLAR-3, ATTACK-5: attackers say done once the defender has nothing left to do and
    only while they could add a card; a done stands until the defender's next move; the
    defender never says done.

    With ``action``: whether the protocol lets it be made now (the referee asks about
    every action; this protocol has something to say about throw-ins and dones, the
    kinds of action whose timing it decides). Without: whether the position's record of
    who said done fits the protocol, and its bout is not already over.
    """
    if action is None:
        if any(seat == state.defender for seat in state.passed):
            return Breach("CLAR-3", "only attackers can have said done")
        if state.thrower is not None:
            recorded = last_thrower_breach(state)
            if recorded is not None:
                return recorded
        if state.table and bout_settled(state):
            return Breach("ATTACK-5", "this bout is already over: every attack card is "
                          + ("taken" if state.taking else "covered")
                          + " and no attacker can add a card")
        return None
    # What CLAR-3 says of every protocol (a done stands; done only once the defender has
    # nothing left to do, and only by a player who could add a card) is named before the
    # turn of a turn-based one (CLAR-17, CLAR-18), which only says who acts now.
    seat = action.player
    if isinstance(action, ThrowIn):
        if seat in state.passed:
            if state.taking:  # the defender makes no more moves: CLAR-20 or CLAR-21 decides
                return done_in_take_breach(state, seat)
            return Breach("CLAR-3", f"P{seat} said done; they may add cards again only "
                          "after the defender's next move")
        return None if seat == state.defender else turn_breach(state, seat)
    if not isinstance(action, Done):
        return None
    if seat == state.defender:
        return Breach("ATTACK-5", "the defender does not say done: they cover, transfer or "
                      "take")
    breach = thrower_breach(state, seat)
    if breach is not None:
        return breach
    if not quiet(state):
        return Breach("CLAR-3", "done is said once every attack card is covered; the "
                      "defender is still to move")
    if seat in state.passed:
        return Breach("CLAR-3", f"P{seat} has already said done")
    if seat not in could_add(state):
        return Breach("CLAR-3", f"P{seat} has no card to add and is not asked")
    return turn_breach(state, seat)


def _out_of_turn(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not add a card or say done now under a turn-based protocol, or
    ``None`` when it may (or another rule, ATTACK-4 or CLAR-3, says why not)."""
    if defender_to_move(state):
        return (f"the defender P{state.defender} answers first: nobody adds a card while "
                "one is uncovered")
    if seat not in throwers(state) or seat in state.passed:
        return None
    asked = to_act(state)
    if asked is not None and asked != seat:
        return (f"it is P{asked}'s turn to add a card or say done, not P{seat}'s "
                f"(turn_order={state.rules.turn_order.value})")
    return None


def opener_first_breach(state: GameState, seat: int) -> Breach | None:
    """CLAR-17 (turn_order opener-first): the defender answers every attack card before
    anyone adds another; then one attacker at a time is asked, the first who could add a
    card going clockwise from the attacker."""
    why = _out_of_turn(state, seat)
    return None if why is None else Breach("CLAR-17", why)


def last_thrower_breach(state: GameState, seat: int | None = None) -> Breach | None:
    """CLAR-18 (turn_order last-thrower): as CLAR-17, but the asking starts from the seat
    that played the last attack card.

    Without ``seat``: whether the position's record of the last thrower fits: one is
    recorded only in a bout under this protocol, and it is an attacker who joined it."""
    if seat is None:
        thrower = state.thrower
        if thrower is not None and (
                state.rules.turn_order != "last-thrower" or not state.table
                or thrower not in state.joined or thrower == state.defender):
            return Breach("CLAR-18", "a last thrower is recorded only in a bout under "
                          "turn_order=last-thrower, and is an attacker who joined it")
        return None
    why = _out_of_turn(state, seat)
    return None if why is None else Breach("CLAR-18", why)


def turn_breach(state: GameState, seat: int) -> Breach | None:
    """The turn-based protocol's breach (CLAR-17, CLAR-18) for an attacker's throw-in or
    done, or ``None`` under the free protocol (CLAR-3)."""
    order = state.rules.turn_order
    if order == "free":
        return None
    if order == "opener-first":
        return opener_first_breach(state, seat)
    return last_thrower_breach(state, seat)


def done_in_take_rule(state: GameState) -> str:
    """The clarification that says whether a done said during a take is final, under
    the rule set's ``done_in_take`` (CLAR-20, CLAR-21)."""
    return "CLAR-21" if state.rules.done_in_take == "asked-again" else "CLAR-20"


def done_in_take_breach(state: GameState, seat: int) -> Breach | None:
    """CLAR-20, CLAR-21: during a take, an attacker who has said done adds no card: for
    the rest of the bout (``done_in_take`` final, CLAR-20), or until another attacker
    adds one (asked-again, CLAR-21)."""
    if not state.taking or seat not in state.passed:
        return None
    if done_in_take_rule(state) == "CLAR-21":
        return Breach("CLAR-21", f"P{seat} said done during the take; they may add cards "
                      "again only after another card is thrown in")
    return Breach("CLAR-20", f"P{seat} said done during the take; that done stands for the "
                  "rest of the bout")


def thrown_in_lifts_dones(state: GameState) -> bool:
    """CLAR-20, CLAR-21: whether a card thrown in now lifts every done said so far. Only
    during a take, where the defender makes no move that would lift them (CLAR-3,
    CLAR-4): under ``done_in_take`` final a done then stands for the rest of the bout
    (CLAR-20); under asked-again each card thrown in lifts them all, and every attacker
    is asked again (CLAR-21). Outside a take the card is the defender's to answer, and
    their answer lifts the dones (CLAR-3)."""
    return state.taking and done_in_take_rule(state) == "CLAR-21"


def passed_after(state: GameState, action: Action) -> frozenset[int]:
    """CLAR-3: who has said done once ``action`` is made: a done adds its player; the
    defender's move (a cover, a transfer, a take) wipes the slate; a card thrown in
    changes nothing, except during a take under ``done_in_take`` asked-again, where it
    wipes the slate too (CLAR-20, CLAR-21)."""
    if isinstance(action, Done):
        return state.passed | {action.player}
    if isinstance(action, (Cover, Transfer, Take)):
        return _NOBODY
    if isinstance(action, ThrowIn) and thrown_in_lifts_dones(state):
        return _NOBODY
    return state.passed


def done(state: GameState, action: Done, events: list[Event]) -> GameState:
    """The state after an attacker says done."""
    return replace(state, passed=passed_after(state, action))

def record(state: GameState, action: Action, after: GameState) -> GameState:
    """What the protocol records once ``action`` is made (``after`` is the state its rule
    module made): who has said done (:func:`passed_after`), and under ``last-thrower``
    who played the last attack card (CLAR-18)."""
    if state.passed or isinstance(action, Done):  # else nobody has said done, nor does now
        passed = passed_after(state, action)
        if after.passed != passed:
            after = replace(after, passed=passed)
    if state.rules.turn_order == "last-thrower" and isinstance(action, (Open, ThrowIn, Transfer)):
        after = replace(after, thrower=action.player)
    return after
