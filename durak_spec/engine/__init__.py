"""The engine: the rules of Durak as pure functions of a state (layer 3).

This package is the only place where rules are decided. ``legal_actions`` lists what
every player may do now; ``check`` explains with a rule ID why an action is not among
them; ``advance`` plays a legal action and returns the next state with the events of the
step (``apply`` returns only the state), ending bouts, drawing and finding the next
attacker by itself; ``validate_state`` says whether a position could occur.

Each module is one chapter of the rules, named by what it decides; its docstring names
the rule IDs and the sources that state them:

=================  ==========================================================================
``seats``          who sits next: ORDER-3, ORDER-6
``dealing``        the deck and the deal, the deck order, who attacks first: DEAL-*, CLAR-10,
                   ORDER-1, ORDER-2
``beating``        which card beats which, and covering: BEAT-1 .. BEAT-6
``attack``         opening a bout and throwing in: ATTACK-1 .. ATTACK-4, ATTACK-6
``limits``         how many attack cards a bout holds: LIMIT-1 .. LIMIT-3, CLAR-13
``transfer``       the transfer game: TRANSFER-1 .. TRANSFER-8, CLAR-6
``taking``         taking the table: TAKE-1, CLAR-4
``exchange``       the trump exchange: VAR-1, CLAR-5
``hands``          own cards and known cards: CLAR-1, VIEW-2
``turns``          the bout protocol, who may act now: CLAR-3, ATTACK-5, TAKE-3
``draw``           drawing after a bout: DRAW-1 .. DRAW-5, CLAR-7, CLAR-8
``bout_end``       the end of a bout and of the game: DEFEND-1, TAKE-2, END-*, ORDER-4 .. 6,
                   CLAR-2
``validation``     ``validate_state``, the structural check of a position
``reachable``      ``check_reachable``, the strict check: the invariants of play
``referee``        the rules composed into ``legal_actions``, ``check``, ``advance`` (and
                   ``play_listed``, ``apply`` without the check, for listed actions)
``breach``         the value a broken rule returns: its ID and the reason
``tables``         the single-card actions of every seat, built once (values, not rules)
``invariants``     what holds in every reachable position, for tests and stress runs
=================  ==========================================================================

What happened in a step is told by ``advance`` as events, each carrying the ID of the
rule that decided it, set where it is decided: the rule that allows the action
(``grounds``), what settled a bout (``turns.settle_rule``), the drawing order
(``draw.draw_rule``), who attacks next (``bout_end.roles_rule``), the end of the game
(``bout_end.outcome_rule``). A checker takes the rule of a difference from these.

One rule, one function: a rule is decided by one function named after it, whose
docstring carries its ID. It returns a :class:`~durak_spec.engine.breach.Breach` (the
rule's ID and a reason) when the rule is broken, and ``None`` when it holds; ``check``
raises the breach as ``IllegalAction``, ``validate_state`` as ``InvalidState``, and the
listing asks the same functions. Where a rule constrains positions as well as actions,
its function checks a position when it is given no action. A few rules are asked per
card while listing (``beats``, the ranks on the table, the attack limit) or are a switch
of the rule set (``transfer_game``, ``exchange_game``, ``opens_with_several``): there the
function that decides returns a plain value, and the rule's breach function builds on it.

The bout protocol (who may act now, saying done, when a bout is settled) lives in
``turns`` alone, so that a second protocol can become a switch of the rule set there
without touching the rule modules.
"""

from __future__ import annotations

from durak_spec.engine.attack import table_ranks, throwers
from durak_spec.engine.beating import beating_rule, beats, cover_breach
from durak_spec.engine.bout_end import game_ends, outcome_rule, roles_rule
from durak_spec.engine.breach import Breach
from durak_spec.engine.dealing import (
    Layout,
    deal,
    deal_rule,
    deck_order,
    first_attacker,
    fresh_seed,
    later_game_attacker,
    lay_out,
    lead_rule,
    new_game,
)
from durak_spec.engine.draw import draw_order
from durak_spec.engine.limits import attack_limit
from durak_spec.engine.reachable import bouts_allow, check_reachable, whole_stock
from durak_spec.engine.referee import (
    advance,
    apply,
    broken_rule,
    check,
    grounds,
    is_legal,
    legal_actions,
    play_listed,
)
from durak_spec.engine.seats import next_in_game
from durak_spec.engine.tables import (
    COVERED,
    COVERS,
    DONES,
    EXCHANGES,
    OPENS,
    SHOWS,
    TAKES,
    THROWS,
    TRANSFERS,
    UNCOVERED,
)
from durak_spec.engine.turns import (
    acting_seats,
    could_add,
    defender_to_move,
    settle_rule,
    thrown_in_lifts_dones,
    to_act,
    turn_rule,
)
from durak_spec.engine.validation import validate_state

__all__ = [
    "COVERED",
    "COVERS",
    "DONES",
    "EXCHANGES",
    "OPENS",
    "SHOWS",
    "TAKES",
    "THROWS",
    "TRANSFERS",
    "UNCOVERED",
    "Breach",
    "Layout",
    "acting_seats",
    "advance",
    "apply",
    "attack_limit",
    "beating_rule",
    "beats",
    "bouts_allow",
    "broken_rule",
    "check",
    "check_reachable",
    "could_add",
    "cover_breach",
    "deal",
    "deal_rule",
    "deck_order",
    "defender_to_move",
    "draw_order",
    "first_attacker",
    "fresh_seed",
    "game_ends",
    "grounds",
    "is_legal",
    "later_game_attacker",
    "lay_out",
    "lead_rule",
    "legal_actions",
    "new_game",
    "next_in_game",
    "outcome_rule",
    "play_listed",
    "roles_rule",
    "settle_rule",
    "table_ranks",
    "throwers",
    "thrown_in_lifts_dones",
    "to_act",
    "turn_rule",
    "validate_state",
    "whole_stock",
]
