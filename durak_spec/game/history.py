"""A game as an immutable record: rules, the deal, the history and where it led (layer 4).

A :class:`Game` is what a game *is* once it has been played: the rule set, the state after
the deal (``initial``), every action in the order it was played (``actions``) and the state
they lead to (``state``). When the game was dealt by :meth:`Game.new`, the record also
keeps the deal itself, ``seed`` and ``deck``, so the same game can be dealt again.

Playing never changes a record: :meth:`Game.play` returns a new one, and an illegal action
raises :class:`~durak_spec.core.errors.IllegalAction` and leaves the record as it was.
:meth:`Game.replay` rebuilds a record from a position and a history, and says which step
of the history is the first illegal one.

The record decides no rule itself: it uses only the engine's public functions
(``new_game``, ``deal``, ``advance``, ``apply``, ``validate_state``).

>>> from durak_spec import profile
>>> game = Game.new(profile("classic-throw-in").rules(players=2), seed=7)
>>> game.actions
()
>>> later = game.play(game.legal_actions()[0])
>>> len(later.actions), len(game.actions)
(1, 0)
>>> Game.replay(game.initial, later.actions).state == later.state
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from durak_spec.core.cards import DECK, Card
from durak_spec.core.errors import BadAction, DurakError, IllegalAction, InputError, InvalidState
from durak_spec.engine import (
    advance,
    apply,
    deal,
    fresh_seed,
    later_game_attacker,
    legal_actions,
    new_game,
    validate_state,
)
from durak_spec.model.actions import Action
from durak_spec.model.events import Step
from durak_spec.model.rules import RuleSet
from durak_spec.model.state import GameState, Outcome

__all__ = ["Game", "Match", "ReplayError"]

class ReplayError(DurakError):
    """An action of a history that cannot be played at its step.

    ``index`` is the action's 0-based position in the history and ``action`` the action
    itself; ``reason`` says why. When the action breaks a rule, ``rule`` is its ID and
    ``code`` is ``"illegal-action"``; when it is not an action of the game at all,
    ``rule`` is ``None`` and ``code`` says what it is (``"not-an-action"``,
    ``"no-such-player"``). ``str(error)`` reads like
    ``"actions[3] (P1 cover 7♣ with 6♣) is illegal: 6♣ does not beat 7♣ ... (BEAT-5)"``.
    """

    def __init__(self, index: int, action: object, rule: str | None, reason: str,
                 code: str = IllegalAction.code) -> None:
        because = f"{reason} ({rule})" if rule is not None else reason
        super().__init__(f"actions[{index}] ({action}) is illegal: {because}", rule=rule,
                         code=code)
        self.index = index
        self.action = action
        self.reason = reason

    def __reduce__(self) -> tuple[type[ReplayError], tuple[int, object, str | None, str, str]]:
        return (type(self), (self.index, self.action, self.rule, self.reason, self.code))


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its rules, the position it started from, its history and where it stands.

    Build a record with :meth:`new` (deal a fresh game) or :meth:`replay` (from any valid
    position and a history), and extend it with :meth:`play`. Two records are equal when
    their rules, initial state, actions, current state and deal (seed, deck) are equal.

    The constructor trusts its arguments except for cheap consistency checks (one rule
    set throughout, :class:`InputError` otherwise; 36 cards in a known deck,
    :class:`InvalidState` otherwise);
    :meth:`replay` is the way to check a history.
    """

    rules: RuleSet
    initial: GameState
    actions: tuple[Action, ...]
    state: GameState
    seed: int | None = None
    """The seed the deck was shuffled with (and ORDER-2's chance), when known."""
    deck: tuple[Card, ...] | None = None
    """All 36 cards in dealing and drawing order (CLAR-10), when known."""

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RuleSet):
            raise TypeError(f"Game needs a RuleSet, not {type(self.rules).__name__}")
        for name in ("initial", "state"):
            value = getattr(self, name)
            if not isinstance(value, GameState):
                raise TypeError(f"Game.{name} must be a GameState, not {type(value).__name__}")
            if value.rules != self.rules:
                raise InputError(f"Game.{name} is played under other rules than the game's",
                                 code="other-rules")
        if not isinstance(self.actions, tuple):
            raise TypeError("Game.actions must be a tuple of actions")
        if self.deck is not None and len(self.deck) != len(DECK):
            raise InvalidState("DEAL-1", f"a deck holds 36 cards, not {len(self.deck)}")

    # -- making records ---------------------------------------------------------------

    @classmethod
    def new(cls, rules: RuleSet, *, seed: int | None = None,
            deck: Iterable[Card] | None = None, previous: Outcome | None = None) -> Game:
        """Deal a new game.

        With ``deck``, the cards leave the deck in that order (CLAR-10) and ``seed``
        settles only ORDER-2's chance. Without ``deck`` the deck is shuffled with
        ``seed``. Without a seed a fresh one is drawn (chance is chance, with or without
        a deck) and recorded, so that every game made here can be dealt again from its
        record. ``previous``, the outcome of the last game of a match, may choose the
        first attacker (ORDER-7, the rule set's ``later_game_lead``); :class:`Match`
        passes it.
        """
        if seed is None:
            seed = fresh_seed()
        order = deal(rules, seed) if deck is None else tuple(deck)
        initial = new_game(rules, seed=seed, deck=order, previous=previous)
        return cls(rules=rules, initial=initial, actions=(), state=initial, seed=seed,
                   deck=order)

    @classmethod
    def replay(cls, initial: GameState, actions: Iterable[Action], *,
               seed: int | None = None, deck: Iterable[Card] | None = None) -> Game:
        """The record of ``actions`` played one after another from ``initial``.

        ``initial`` is checked first (``validate_state``, raising
        :class:`~durak_spec.core.errors.InvalidState`); then every action must be legal at its
        step, or :class:`ReplayError` names the first one that is not, with its index.
        ``seed`` and ``deck`` are recorded as given; they are not checked against
        ``initial``.
        """
        validate_state(initial)
        history = tuple(actions)
        state = initial
        for index, action in enumerate(history):
            try:
                state = apply(state, action)
            except IllegalAction as error:
                raise ReplayError(index, action, error.rule, error.reason) from None
            except BadAction as error:
                raise ReplayError(index, action, None, error.message, error.code) from None
        return cls(rules=initial.rules, initial=initial, actions=history, state=state,
                   seed=seed, deck=None if deck is None else tuple(deck))

    def play(self, action: Action) -> Game:
        """The record with ``action`` played; raises :class:`IllegalAction` if it is illegal."""
        return self.advance(action)[0]

    def advance(self, action: Action) -> tuple[Game, Step]:
        """The record with ``action`` played, and the step with the events of playing it
        (:func:`~durak_spec.engine.advance`); raises :class:`IllegalAction` if it is illegal."""
        step = advance(self.state, action)
        game = Game(rules=self.rules, initial=self.initial, actions=(*self.actions, action),
                    state=step.state, seed=self.seed, deck=self.deck)
        return game, step

    def play_all(self, actions: Iterable[Action]) -> Game:
        """The record with each of ``actions`` played in turn (stops at the first illegal)."""
        game = self
        for action in actions:
            game = game.play(action)
        return game

    # -- reading records --------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        return self.state.outcome

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of every player who may act now."""
        return legal_actions(self.state)

    def states(self) -> Iterator[GameState]:
        """Every state of the game in order: ``initial``, then one after each action."""
        state = self.initial
        yield state
        for action in self.actions:
            state = apply(state, action)
            yield state


@dataclass(frozen=True, slots=True)
class Match:
    """A match: several games in a row under one rule set, each dealt knowing the last
    one's outcome, so that ORDER-7 (``later_game_lead``) can give the first attack of a
    later game by the last durak. Seats keep their places from game to game.

    Like :class:`Game`, a match is a value: :meth:`play` and :meth:`next_game` return a
    new one.

    >>> from durak_spec import RuleSet
    >>> from durak_spec.model.rules import LaterGameLead
    >>> match = Match.new(RuleSet(players=3, later_game_lead=LaterGameLead.RIGHT_OF_DURAK),
    ...                   seed=4)
    >>> while not match.current.is_over:
    ...     match = match.play(match.current.legal_actions()[0])
    >>> durak = match.current.outcome.durak
    >>> match = match.next_game(seed=5)
    >>> len(match.games), match.current.state.defender == durak
    (2, True)
    """

    rules: RuleSet
    games: tuple[Game, ...]
    """Every game so far, the one in play last."""

    def __post_init__(self) -> None:
        if not isinstance(self.games, tuple) or not self.games:
            raise InputError("a match holds at least one game", code="empty-match")
        for index, game in enumerate(self.games):
            if not isinstance(game, Game):
                raise TypeError(f"Match.games[{index}] must be a Game, not "
                                f"{type(game).__name__}")
            if game.rules != self.rules:
                raise InputError(f"game {index + 1} of the match is played under other "
                                 "rules than the match's", code="other-rules")
            if index + 1 < len(self.games) and not game.is_over:
                raise InputError(f"game {index + 1} of the match is not over, but a later "
                                 "game follows it", code="game-not-over")

    @classmethod
    def new(cls, rules: RuleSet, *, seed: int | None = None,
            deck: Iterable[Card] | None = None) -> Match:
        """A match whose first game is dealt as :meth:`Game.new` deals it."""
        return cls(rules, (Game.new(rules, seed=seed, deck=deck),))

    @property
    def current(self) -> Game:
        """The game in play (or the last one, once it is over)."""
        return self.games[-1]

    def play(self, action: Action) -> Match:
        """The match with ``action`` played in the current game (:meth:`Game.play`)."""
        return Match(self.rules, (*self.games[:-1], self.current.play(action)))

    def advance(self, action: Action) -> tuple[Match, Step]:
        """Like :meth:`play`, with the step's events (:meth:`Game.advance`)."""
        game, step = self.current.advance(action)
        return Match(self.rules, (*self.games[:-1], game)), step

    def next_game(self, *, seed: int | None = None,
                  deck: Iterable[Card] | None = None) -> Match:
        """The match with a new game dealt after the current one, which must be over; the
        new game knows the last outcome (ORDER-7)."""
        outcome = self.current.outcome
        if outcome is None:
            raise InputError(f"game {len(self.games)} of the match is not over yet",
                             code="game-not-over")
        game = Game.new(self.rules, seed=seed, deck=deck, previous=outcome)
        return Match(self.rules, (*self.games, game))

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The outcomes of the games that are over, in order."""
        return tuple(game.outcome for game in self.games if game.outcome is not None)

    def durak_counts(self) -> tuple[int, ...]:
        """The running score: for each seat, how many games of the match it lost as the
        durak (draws and races won early name nobody)."""
        counts = [0] * self.rules.players
        for outcome in self.outcomes:
            if outcome.durak is not None:
                counts[outcome.durak] += 1
        return tuple(counts)

    def first_out_counts(self) -> tuple[int, ...]:
        """For each seat, how many games it went out first in (alone or together): the
        wins of source D's race (END-5)."""
        counts = [0] * self.rules.players
        for outcome in self.outcomes:
            for seat in outcome.first_out:
                counts[seat] += 1
        return tuple(counts)

    def check_leads(self) -> None:
        """Raise :class:`~durak_spec.core.errors.InvalidState` (ORDER-7) if a later game
        was not led as the last outcome and ``later_game_lead`` say (for loaded matches)."""
        for index in range(1, len(self.games)):
            previous = self.games[index - 1].outcome
            later = later_game_attacker(self.rules, previous)
            if later is not None and self.games[index].initial.attacker != later[0]:
                raise InvalidState("ORDER-7", f"game {index + 1} is led by "
                                   f"P{self.games[index].initial.attacker}, but {later[1]}")
