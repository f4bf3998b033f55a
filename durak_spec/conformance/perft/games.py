"""Positions from the middle and the end of games: the kinds stored (each a predicate on
a position), and the first seeded random game that reaches one."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

from durak_spec.core.cards import Card
from durak_spec.engine import apply, legal_actions, new_game, next_in_game
from durak_spec.model.actions import Action
from durak_spec.model.rules import DoneInTake, RuleSet, TransferTarget, profile
from durak_spec.model.state import GameState

REACH_GAMES = 2000
"""Generation looks for a position from within a game in at most this many games."""
RUN_TIME_REACH_GAMES = 200
"""The same at run time, under an engine's own rules (where a stored position's rules are
not claimed): a position those rules make rare or impossible is skipped, not searched."""


_CLASSIC = profile("classic-throw-in")
_TRANSFER = profile("classic-transfer")


def _big_hand(state: GameState) -> bool:
    return max(map(len, state.hands)) >= 12 and bool(state.table)


def _six_attack_cards(state: GameState) -> bool:
    return len(state.table) == 6


def _five_after_the_first_bout(state: GameState) -> bool:
    # Five attack cards in a later bout, and a sixth may come (LIMIT-3 no longer holds).
    return (len(state.table) == 5 and state.bout > 0
            and any(a.kind == "throw" for a in legal_actions(state)))


def _five_in_the_first_bout(state: GameState) -> bool:
    # Five attack cards in the first bout, an attacker holding a card of a rank on the
    # table and the defender able to answer six: only LIMIT-3 stops the sixth card.
    if len(state.table) != 5 or state.bout != 0 or not state.rules.first_bout_limit_five:
        return False
    ranks = {card.rank for pair in state.table for card in pair if card is not None}
    return state.start_hands[state.defender] >= 6 and any(
        card.rank in ranks for seat in range(state.players) if seat != state.defender
        for card in state.hands[seat])


def _five_later_nothing_discarded(state: GameState) -> bool:
    # Five attack cards in a later bout while the discard pile is still empty (every bout
    # so far was taken), and a sixth may come: the first bout is over, whatever the
    # discard pile says (LIMIT-3).
    return not state.discard and _five_after_the_first_bout(state)


def _last_card_with_stock(state: GameState) -> bool:
    # A player may play their last card while the stock lasts, and the bout can end soon
    # after: they stay in the game and draw (END-2).
    if not state.stock or not state.table:
        return False
    return any(len(state.hands[a.player]) == 1 and a.kind in ("throw", "cover")
               for a in legal_actions(state)) and len(state.table) >= 2


def _out_seat_next(state: GameState) -> bool:
    # A player is out and sits right after the defender, and the bout can end at once:
    # the next roles must skip that seat (ORDER-6).
    out, players = state.out, state.players
    return (bool(out) and len(state.in_game()) >= 3 and bool(state.table)
            and all(p.cover for p in state.table)
            and any((state.defender + k) % players in out for k in (1, 2)))


def _empty_stock(state: GameState) -> bool:
    return not state.stock and len(state.in_game()) >= 3 and bool(state.table)


def _player_out(state: GameState) -> bool:
    return bool(state.finished) and len(state.in_game()) >= 3


def _short_next_hand(state: GameState) -> bool:
    # An attack the defender could transfer by rank, to a next player too short for it.
    if not state.rules.transfer or not state.table or any(p.cover for p in state.table):
        return False
    ranks = {p.attack.rank for p in state.table}
    if len(ranks) != 1 or not any(c.rank in ranks for c in state.hands[state.defender]):
        return False
    after = [s for s in state.in_game() if s != state.defender]
    nxt = min(after, key=lambda s: (s - state.defender) % state.players)
    return len(state.hands[nxt]) <= len(state.table) and len(state.in_game()) >= 3


def _endgame(state: GameState) -> bool:
    # The last bouts: nothing to draw, few cards left, the finish within reach.
    return (not state.stock and sum(map(len, state.hands)) <= 9 and not state.table
            and len(state.in_game()) >= 2)


def _last_two_out(state: GameState) -> bool:
    # Two players left, each within one card of going out: a draw can happen (END-4).
    rest = state.in_game()
    return (not state.stock and len(rest) == 2 and all(len(state.hands[s]) <= 2 for s in rest)
            and not state.table)


def _take_with_dones(state: GameState) -> bool:
    # A take with several attackers: one has said done though they hold a card of a rank
    # on the table, and another may still add one (CLAR-20, CLAR-21).
    if not state.taking or not state.passed or state.players < 3:
        return False
    ranks = {card.rank for card in state.table_cards()}
    return (any(card.rank in ranks for seat in state.passed for card in state.hands[seat])
            and any(a.kind == "throw" and a.player not in state.passed
                    for a in legal_actions(state)))


def _just_out_next(state: GameState) -> bool:
    # The stock is empty, the player after the defender has just played out their hand,
    # and the defender may transfer (past them: CLAR-23).
    if state.stock or not state.table or any(p.cover for p in state.table):
        return False
    after = next_in_game(state.defender, state.players, state.out)
    return not state.hands[after] and any(a.kind == "transfer" for a in legal_actions(state))


# Positions from the middle and the end of games: (id, rules, predicate, note). Each is the
# first position of a seeded random game of the reference (the first game from seed 0 on
# that reaches one) where the predicate holds; the file stores the deal and the moves.
GAME_POSITIONS: tuple[tuple[str, RuleSet, Callable[[GameState], bool], str], ...] = (
    ("big-hand-2p", _CLASSIC.rules(2), _big_hand,
     "a hand of twelve cards or more, after takes, with a bout under way"),
    ("six-attack-cards-3p", _CLASSIC.rules(3), _six_attack_cards,
     "six attack cards on the table: no seventh may come (LIMIT-1)"),
    ("six-attack-cards-transfer-4p", _TRANSFER.rules(4), _six_attack_cards,
     "six attack cards with transfers: none may be added by a transfer (TRANSFER-4)"),
    ("five-attack-cards-later-3p", _CLASSIC.rules(3), _five_after_the_first_bout,
     "five attack cards after the first bout: a sixth may come (LIMIT-1, not LIMIT-3)"),
    ("out-seat-next-4p", _CLASSIC.rules(4), _out_seat_next,
     "the seat after the defender is out and the bout can end: the roles skip it (ORDER-6)"),
    ("out-seat-next-5p", _TRANSFER.rules(5), _out_seat_next,
     "the same in the transfer game, with five players"),
    ("empty-stock-4p", _CLASSIC.rules(4), _empty_stock,
     "the stock is empty and three or more still play: players go out (END-1)"),
    ("player-out-4p", _CLASSIC.rules(4), _player_out,
     "a player is out: roles skip them (ORDER-6)"),
    ("player-out-transfer-5p", _TRANSFER.rules(5), _player_out,
     "a player is out in the transfer game: transfers skip them too"),
    ("short-next-hand-3p", _TRANSFER.rules(3), _short_next_hand,
     "a transfer by rank that the next hand is too short for (TRANSFER-3)"),
    ("short-next-hand-4p", _TRANSFER.rules(4), _short_next_hand,
     "a transfer by rank that the next hand is too short for (TRANSFER-3)"),
    ("endgame-3p", _CLASSIC.rules(3), _endgame,
     "nothing to draw and at most nine cards left: counted to the end of the game"),
    ("endgame-transfer-3p", _TRANSFER.rules(3), _endgame,
     "the end of a transfer game: going out, the durak or a draw within reach"),
    ("last-two-2p", _CLASSIC.rules(2), _last_two_out,
     "two players with at most two cards each: a draw (END-4) or a durak (END-3)"),
    ("last-two-4p", _CLASSIC.rules(4), _last_two_out,
     "two players left of four, at most two cards each"),
    ("five-attack-cards-first-3p", _CLASSIC.rules(3), _five_in_the_first_bout,
     "five attack cards in the first bout: LIMIT-3 stops a sixth"),
    ("five-attack-cards-no-discard-3p", _CLASSIC.rules(3), _five_later_nothing_discarded,
     "five attack cards in a later bout, the discard pile still empty: a sixth may come"),
    ("last-card-with-stock-3p", _CLASSIC.rules(3), _last_card_with_stock,
     "a player may play their last card while the stock lasts (END-2)"),
    ("take-asked-again-3p", _CLASSIC.rules(3).replace(done_in_take=DoneInTake.ASKED_AGAIN),
     _take_with_dones, "a take where one attacker has said done and another may still add: "
     "each card thrown in asks every attacker again (CLAR-21)"),
    ("just-out-passed-over-4p",
     _TRANSFER.rules(4).replace(transfer_target=TransferTarget.NEXT_WITH_CARDS),
     _just_out_next, "the stock is empty and the next player has just played out their "
     "hand: a transfer passes over them (CLAR-23)"),
)


NEEDS: Mapping[Callable[[GameState], bool], tuple[Callable[[RuleSet], bool], str]] = \
    MappingProxyType({
        _short_next_hand: (lambda rules: rules.transfer,
                           "it needs the transfer game (TRANSFER-1)"),
        _just_out_next: (lambda rules: rules.transfer,
                         "it needs the transfer game (TRANSFER-1)"),
        _take_with_dones: (lambda rules: rules.players >= 3,
                           "it needs an attacker besides the one who said done"),
    })
"""The kinds of position some rule sets never reach, with what they need: not searched
for at run time under rules without it."""


def reach(rules: RuleSet, wanted: Callable[[GameState], bool], *, games: int = REACH_GAMES
           ) -> tuple[tuple[Card, ...], tuple[Action, ...]]:
    """The deal and the moves of the first seeded random game (of at most ``games``) that
    reaches ``wanted``."""
    from durak_spec.engine import deal

    for game in range(games):
        rng = random.Random(f"durak-spec perft/{game}")
        deck = deal(rules, game)
        state = new_game(rules, deck=deck, seed=0)
        moves: list[Action] = []
        while not state.is_over:
            if moves and wanted(state):
                return deck, tuple(moves)
            actions = legal_actions(state)
            # Takes are chosen more often than by chance: hands grow and games last.
            takes = [a for a in actions if a.kind == "take"]
            action = takes[0] if takes and rng.random() < 0.3 else rng.choice(actions)
            moves.append(action)
            state = apply(state, action)
    raise ValueError(f"no game of {rules} reached the position wanted")
