"""Small builders shared by the engine's unit tests.

Two ways to get a game to test:

* :func:`position` builds a mid-game :class:`GameState` from the cards a test cares about
  (hands, table, stock) and puts every other card somewhere deterministic, then checks
  the result with ``validate_state``::

      state = position(rules, trump="♥", hands={0: "7♣ 9♦", 1: "9♣ 10♠"},
                       table="7♣/9♣ 9♦", stock=4)

* :func:`stacked_deck` lists the 36 cards in dealing and drawing order (CLAR-10) for
  ``new_game(rules, deck=...)``.

And a few checks used everywhere: :func:`assert_illegal` (the action is rejected with
the given rule ID by ``check`` and ``apply``, is not listed by ``legal_actions``, and the
state is left unchanged), :func:`actions_of` (the legal actions as a set, optionally of one
seat) and :func:`play` (apply a series of actions written in the notation).

For tests of files a command may not write, :func:`unprivileged` starts a command line under
which permissions hold even when the tests run as root.

For tests of engines in a process of their own, :data:`SLOW_START` is the time their start-up
is given (``SubprocessEngine(..., start_timeout=SLOW_START)`` keeps that allowance for the
first answer of every process while the requests of a game get a short time limit).

For the checker's tests, :class:`BrokenReference` is a broken copy of the reference engine:
one engine function's code replaced by another's while it answers.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import random
import shutil
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from durak_spec import (
    DECK,
    Action,
    Card,
    GameState,
    IllegalAction,
    Pair,
    RuleSet,
    Suit,
    apply,
    check,
    deck_order,
    is_legal,
    legal_actions,
    parse_action,
    parse_card,
    parse_cards,
    validate_state,
)
from durak_spec.game.history import Game
from durak_spec.model.actions import Done
from durak_spec.model.rules import MAX_PLAYERS
from durak_spec.model.state import sort_cards
from durak_spec.protocol import Capabilities, ReferenceEngine, Report, Verdict

__all__ = [
    "SLOW_START",
    "actions_of",
    "assert_illegal",
    "cards",
    "parse_table",
    "play",
    "position",
    "random_game",
    "stacked_deck",
]

HandsSpec = Mapping[int, str] | Sequence[str]

SLOW_START = 20.0
"""Seconds an engine process is given to start and answer hello: generous, since starting
Python on a busy machine can take a while."""


def cards(text: str) -> tuple[Card, ...]:
    """The cards of ``text`` in canonical hand order, to compare with a hand or the discard."""
    return sort_cards(parse_cards(text))


def parse_table(text: str) -> tuple[Pair, ...]:
    """A table written as pairs: ``"7♣/9♣ 8♦"`` is 7♣ covered by 9♣, and 8♦ uncovered."""
    pairs: list[Pair] = []
    for chunk in text.split():
        attack, _, cover = chunk.partition("/")
        pairs.append(Pair(parse_card(attack), parse_card(cover) if cover else None))
    return tuple(pairs)


def _hands(spec: HandsSpec, players: int) -> list[tuple[Card, ...]]:
    if isinstance(spec, Mapping):
        unknown = [seat for seat in spec if not 0 <= seat < players]
        if unknown:
            raise ValueError(f"seat {unknown[0]} is not a seat of {players} players")
        return [sort_cards(parse_cards(spec.get(seat, ""))) for seat in range(players)]
    if len(spec) != players:
        raise ValueError(f"{len(spec)} hands given for {players} players")
    return [sort_cards(parse_cards(text)) for text in spec]


def position(
    rules: RuleSet,
    *,
    trump: str | Suit = "♥",
    hands: HandsSpec,
    table: str = "",
    stock: int | str = 0,
    face_up: str | None = None,
    attacker: int = 0,
    defender: int | None = None,
    opener: int | None = None,
    bout: int = 1,
    taking: bool = False,
    passed: Iterable[int] = (),
    joined: Sequence[int] | None = None,
    start_hands: Mapping[int, int] | None = None,
    shown: str = "",
    known: Mapping[int, str] | None = None,
    finished: Sequence[Sequence[int]] = (),
) -> GameState:
    """A validated position; every card not named goes to the stock or the discard pile.

    ``hands`` maps seats to cards (seats not named hold nothing) or lists one text per
    seat. ``table`` is written as in :func:`parse_table`.

    ``stock`` is either the stock's exact cards in drawing order (a text; its last card is
    the face-up trump) or a number of cards. For a number, the face-up card is
    ``face_up`` if given, else the lowest trump not named elsewhere; the cards above it are
    the first unnamed cards in deck order (clubs 6..A, diamonds, hearts, spades). Every
    remaining card is discarded.

    Roles: ``defender`` defaults to the next player after ``attacker`` who is not in
    ``finished``; ``opener`` to ``attacker``; ``joined`` to just the opener while cards lie
    on the table. ``bout`` is 1 (not the first bout, so LIMIT-3 is not in play) unless
    given. ``start_hands`` defaults to each seat's hand now, plus, for the defender, the
    covers on the table; pass a mapping to override single seats.
    """
    players = rules.players
    trump_suit = trump if isinstance(trump, Suit) else Suit.parse(trump)
    hand_list = _hands(hands, players)
    pairs = parse_table(table)
    named: list[Card] = [c for hand in hand_list for c in hand]
    for pair in pairs:
        named.append(pair.attack)
        if pair.cover is not None:
            named.append(pair.cover)
    if isinstance(stock, str):
        if face_up is not None:
            raise ValueError("give the face-up card as the last card of the stock text")
        stock_cards = parse_cards(stock)
        named.extend(stock_cards)
    rest = [c for c in DECK if c not in set(named)]
    if isinstance(stock, int):
        if stock == 0:
            stock_cards = ()
        else:
            if face_up is not None:
                top = parse_card(face_up)
                if top not in rest:
                    raise ValueError(f"face-up card {top} is named elsewhere")
            else:
                trumps = [c for c in rest if c.suit == trump_suit]
                if not trumps:
                    raise ValueError("no unnamed trump is left to lie face up under the stock")
                top = trumps[0]
            others = [c for c in rest if c != top]
            if stock - 1 > len(others):
                raise ValueError(f"only {len(others) + 1} unnamed cards for a stock of {stock}")
            stock_cards = (*others[: stock - 1], top)
    discard = sort_cards([c for c in rest if c not in set(stock_cards)])
    finished_groups = tuple(tuple(group) for group in finished)
    out = {p for group in finished_groups for p in group}
    if defender is None:
        defender = next(
            (attacker + step) % players
            for step in range(1, players + 1)
            if (attacker + step) % players not in out
        )
    if opener is None:
        opener = attacker
    if joined is None:
        joined = (opener,) if pairs else ()
    sizes = [len(hand) for hand in hand_list]
    sizes[defender] += sum(1 for pair in pairs if pair.cover is not None)
    for seat, size in (start_hands or {}).items():
        sizes[seat] = size
    known_sets = [frozenset(parse_cards((known or {}).get(seat, ""))) for seat in range(players)]
    state = GameState(
        rules=rules,
        hands=tuple(hand_list),
        stock=tuple(stock_cards),
        trump=trump_suit,
        table=pairs,
        discard=discard,
        attacker=attacker,
        defender=defender,
        opener=opener,
        bout=bout,
        taking=taking,
        passed=frozenset(passed),
        joined=tuple(joined),
        start_hands=tuple(sizes),
        shown=frozenset(parse_cards(shown)),
        known=tuple(known_sets),
        finished=finished_groups,
    )
    return validate_state(state)


def stacked_deck(hands: Sequence[str], stock: str = "", face_up: str | None = None
                 ) -> tuple[Card, ...]:
    """A deck order for ``new_game(rules, deck=...)`` (CLAR-10), by the engine's deal layout.

    ``hands`` gives six cards for every seat, in the order they are dealt (with six players
    the last card of the last hand is the one that shows trump, DEAL-8). Then come the
    ``stock`` cards, drawn first; then every card not named, in deck order; the last card
    is ``face_up`` if given (the face-up trump, DEAL-6), else whatever card comes last.
    """
    dealt = [parse_cards(text) for text in hands]
    top = parse_cards(stock)
    last = parse_card(face_up) if face_up is not None else None
    named = {c for hand in dealt for c in hand} | set(top) | {last}
    middle = [c for c in DECK if c not in named]
    if len(dealt) == MAX_PLAYERS:
        return deck_order(dealt, (*top, *middle))
    if last is None:
        return deck_order(dealt, (*top, *middle[:-1]), trump_card=middle[-1])
    return deck_order(dealt, (*top, *middle), trump_card=last)



def random_game(rules: RuleSet, seed: int, stop: int = 3000) -> Game:
    """A game dealt with ``seed`` and played by random legal actions (``stop`` actions at
    most; every game of the engine ends well before 3,000)."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while len(game.actions) < stop:
        actions = game.legal_actions()
        if not actions:
            break
        game = game.play(rng.choice(actions))
    return game

def actions_of(state: GameState, player: int | None = None) -> set[Action]:
    """The legal actions now, as a set (only those of ``player`` if given)."""
    return {a for a in legal_actions(state) if player is None or a.player == player}


def assert_illegal(state: GameState, action: Action | str, rule: str) -> IllegalAction:
    """Assert that ``action`` is rejected naming ``rule``, and that nothing changes.

    ``check`` and ``apply`` both raise :class:`IllegalAction` with ``.rule == rule`` and
    a non-empty reason, ``is_legal`` is false, ``legal_actions`` does not list the action,
    and the state still equals a deep copy taken before the attempt.
    """
    if isinstance(action, str):
        action = parse_action(action)
    before = copy.deepcopy(state)
    listed_before = legal_actions(state)
    with pytest.raises(IllegalAction) as checked:
        check(state, action)
    with pytest.raises(IllegalAction) as applied:
        apply(state, action)
    assert checked.value.rule == rule, checked.value
    assert applied.value.rule == rule, applied.value
    assert checked.value.reason
    assert not is_legal(state, action)
    assert action not in listed_before
    assert state == before
    assert legal_actions(state) == listed_before
    return checked.value


def play(state: GameState, *moves: str | Action) -> GameState:
    """Apply each move (an action or its notation, ``"P1 cover 7♣ with 9♣"``) in turn."""
    for move in moves:
        action = parse_action(move) if isinstance(move, str) else move
        state = apply(state, action)
    return state


class BrokenReference(ReferenceEngine):
    """The reference engine with ``target``'s code replaced by ``broken``'s while it
    answers: a broken copy of the reference, for tests of what the checker catches.

    The function is changed in place (its ``__code__``), so every caller inside the engine
    runs the broken rule; it is restored after each answer, so the checker's own reference
    stays whole. Subclass it together with an engine that claims other capabilities
    (``class Broken(BrokenReference, OpenerFirst)``) to break that engine instead."""

    def __init__(self, target: Any, broken: Any) -> None:
        super().__init__()
        self.target, self.broken = target, broken

    @contextmanager
    def _broken(self) -> Iterator[None]:
        code = self.target.__code__
        self.target.__code__ = self.broken.__code__
        try:
            yield
        finally:
            self.target.__code__ = code

    def start(self, rules: RuleSet, deck: Sequence[Card], seed: int = 0) -> Report:
        with self._broken():
            return super().start(rules, deck, seed)

    def load(self, state: GameState) -> Report:
        with self._broken():
            return super().load(state)

    def legal_actions(self) -> tuple[Action, ...]:
        with self._broken():
            return super().legal_actions()

    def apply(self, action: Action) -> Verdict:
        with self._broken():
            return super().apply(action)

    def report(self) -> Report:
        with self._broken():
            return super().report()


class DoneBeforeOpening(ReferenceEngine):
    """Lists (and would accept) a done by the attacker before the bout is opened, as
    dogballs does: one extra action at every bout's start (ATTACK-1, a difference of legal
    actions alone). It cannot load."""

    def capabilities(self) -> Capabilities:
        return dataclasses.replace(super().capabilities(), name="done first", load=False)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = super().legal_actions()
        state = self.state
        if legal and not state.table and not state.is_over:
            return (*legal, Done(state.attacker))
        return legal



def unprivileged() -> list[str]:
    """The start of a command line under which file permissions bind: root writes a
    read-only file anyway, so as root the command runs through ``setpriv`` with no
    capabilities (still root, the owner of the test's files, but without the power to
    override their permissions); otherwise as it is."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv (util-linux): permissions do not bind")
    return ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"]
