"""Drawing after a bout: DRAW-1 .. DRAW-5, CLAR-7, CLAR-8, CLAR-19.

When a bout ends, the players draw from the stock back up to six cards while it lasts
(DRAW-1: A, B, C, D); a player holding six or more draws nothing (DRAW-3). Once the stock
is empty nobody draws, and the face-up trump is the last card taken (DRAW-4: A, B, C, D),
by whoever draws last (DRAW-5: A), so everyone knows that player holds it (VIEW-2).

The order of drawing is a switch of the rule set (DRAW-2): the attacker first, then the
others in turn, the defender last (A, C; with two players B); or in the order the players
joined the attack, the defender last (D). The specification decides what these mean
after a transfer: "the attacker" is whoever opened the bout, the others follow clockwise
from the opener, and the last defender draws last (CLAR-7); in the join order the opener
draws first, then each player by when they first laid a card in the bout (a transfer
counts as joining), then those who never joined, clockwise from the opener (CLAR-8).
Real engines also read "the attacker" as the player who passed the attack on last: the
rule set's ``draw_after_transfer`` switches to that reading (CLAR-19), which the join
order does not read (D's order is settled by who joined when).
"""

from __future__ import annotations

from collections.abc import Sequence

from durak_spec.core.cards import Card
from durak_spec.model.events import Drew, Event
from durak_spec.model.rules import HAND_SIZE, RuleSet

__all__ = ["draw", "draw_order", "draw_rule", "draw_start", "draw_start_rule", "join"]


def draw_start_rule(rules: RuleSet) -> str:
    """The clarification that says where the attacker-first order starts after a
    transfer, under the rule set's ``draw_after_transfer`` (CLAR-7, CLAR-19)."""
    return "CLAR-19" if rules.draw_after_transfer == "last-transferrer" else "CLAR-7"


def draw_start(rules: RuleSet, opener: int, attacker: int) -> int:
    """CLAR-7, CLAR-19: the seat the attacker-first order of drawing (DRAW-2) starts
    from, ``opener`` having opened the bout and ``attacker`` attacking at its end (the
    last transferrer, after a transfer): the opener (CLAR-7), or under
    ``draw_after_transfer`` last-transferrer the attacker (CLAR-19). The join order
    (CLAR-8) always starts from the opener, the first to join.

    >>> from durak_spec.model.rules import RuleSet, TransferDraw
    >>> draw_start(RuleSet(players=4), opener=0, attacker=2)
    0
    >>> draw_start(RuleSet(players=4, draw_after_transfer=TransferDraw.LAST_TRANSFERRER), 0, 2)
    2
    """
    if rules.draw_order == "attacker-first" and draw_start_rule(rules) == "CLAR-19":
        return attacker
    return opener


def draw_order(rules: RuleSet, opener: int, defender: int,
               joined: Sequence[int] = (), attacker: int | None = None) -> tuple[int, ...]:
    """The seats in the order they refill their hands when the bout ends (DRAW-2,
    CLAR-7, CLAR-8, CLAR-19): ``opener`` opened the bout, ``defender`` defends it last,
    ``joined`` lists the seats in the order they joined its attack, and ``attacker``
    attacks at its end (the opener, unless the bout was transferred).

    >>> from durak_spec.model.rules import DrawOrder, RuleSet
    >>> draw_order(RuleSet(players=4), opener=0, defender=1, joined=(0, 3, 2))
    (0, 2, 3, 1)
    >>> draw_order(RuleSet(players=4, draw_order=DrawOrder.JOIN_ORDER), 0, 1, (0, 3, 2))
    (0, 3, 2, 1)
    """
    order: list[int] = []
    if rules.draw_order == "join-order":  # CLAR-8: the seats that joined, in that order
        for seat in joined:
            if seat != defender:
                order.append(seat)
    players = rules.players
    start = draw_start(rules, opener, opener if attacker is None else attacker)
    for step in range(players):  # CLAR-7, CLAR-19: (the others) clockwise from the start
        seat = (start + step) % players
        if seat != defender and seat not in order:
            order.append(seat)
    order.append(defender)  # the defender last
    return tuple(order)


def draw_rule(rules: RuleSet, opener: int, attacker: int) -> str:
    """The rule of the drawing order in force when a bout ends: the join order (CLAR-8);
    after a transfer, the attacker of the bout's end being somebody else, the reading of
    where the order starts (CLAR-7 or CLAR-19, :func:`draw_start_rule`); else the
    attacker first and the defender last (DRAW-2)."""
    if rules.draw_order == "join-order":
        return "CLAR-8"
    return draw_start_rule(rules) if attacker != opener else "DRAW-2"


def join(joined: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The seats in the order they joined the attack, after ``seat`` lays a card in it
    (CLAR-8: only the first card of a seat counts)."""
    return joined if seat in joined else (*joined, seat)


def draw(rules: RuleSet, order: Sequence[int], hands: list[tuple[Card, ...]],
         stock: tuple[Card, ...], known: list[frozenset[Card]], events: list[Event] | None,
         rule: str = "DRAW-2") -> tuple[Card, ...]:
    """Refill ``hands`` from ``stock`` in ``order`` (DRAW-1, DRAW-3, DRAW-4, DRAW-5);
    return what is left of the stock. ``hands`` and ``known`` are updated in place, and
    each player's draw is added to ``events`` (unless that is ``None``), with ``rule``,
    the rule of the order (:func:`draw_rule`)."""
    face_up = stock[-1] if stock and rules.players < 6 else None
    for seat in order:
        if not stock:  # DRAW-4
            break
        need = HAND_SIZE - len(hands[seat])
        if need <= 0:  # DRAW-3
            continue
        drawn, stock = stock[:need], stock[need:]
        hands[seat] = tuple(sorted(hands[seat] + drawn))
        if events is not None:
            events.append(Drew(seat, drawn, rule))
        if not stock and face_up is not None:  # DRAW-5: the face-up trump went to this seat
            known[seat] = known[seat] | {face_up}
    return stock
