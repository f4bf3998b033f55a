"""The deck and the deal: DEAL-1, DEAL-3 .. DEAL-6, DEAL-8, CLAR-10, and who attacks
first, ORDER-1 and ORDER-2.

Durak is played with 36 cards, six to ace in four suits (DEAL-1: A, B, D), by two to six
players (DEAL-3: A, D; B is a game for two). Each player is dealt six cards (DEAL-4: A, B,
D, and C refills hands to six); the next card is turned face up and sets trump for the
whole game (DEAL-5: A, B, D); it lies under the stock, visible, and is the last card drawn
(DEAL-6: A, B, C, D). With six players all 36 cards are dealt and none is left to turn up:
the specification shows the last card dealt, which stays in the sixth hand and is known to
everyone (DEAL-8, a clarification).

A deal is a *deck order* (CLAR-10): the 36 cards in the order they leave the deck, six to
seat 0, six to seat 1 and so on, then the stock in drawing order, whose last card is the
face-up trump. :func:`lay_out` reads a deck order into hands and stock; :func:`deck_order`
is its inverse, for everyone who stacks a deck (scenarios, perft positions, tests).

The player holding the lowest trump attacks first (ORDER-1: A, B, D); when nobody holds
one, chance decides (ORDER-2: B; CLAR-11), or, as a switch, the first seat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from durak_spec.core.cards import DECK, Card, Rank, Suit, format_cards
from durak_spec.core.errors import InputError
from durak_spec.engine.breach import Breach
from durak_spec.engine.seats import next_in_game
from durak_spec.model.rules import HAND_SIZE, MAX_PLAYERS, LaterGameLead, NoTrumpLead, RuleSet
from durak_spec.model.state import GameState, Outcome, sort_cards

__all__ = [
    "Layout",
    "deal",
    "deal_rule",
    "deck_breach",
    "deck_order",
    "first_attacker",
    "fresh_seed",
    "later_game_attacker",
    "lay_out",
    "lead_rule",
    "new_game",
    "players_breach",
    "stock_breach",
]

_DECK_SET = frozenset(DECK)


class Layout(NamedTuple):
    """Where a deck order puts the cards (CLAR-10)."""

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's six cards, in the order they were dealt."""
    stock: tuple[Card, ...]
    """The stock in drawing order; its last card is the face-up trump (DEAL-6)."""
    trump_card: Card
    """The card that shows trump: the face-up card (DEAL-5), or with six players the last
    card dealt, which stays in the sixth hand (DEAL-8)."""

    @property
    def trump(self) -> Suit:
        return self.trump_card.suit

    def known(self) -> tuple[frozenset[Card], ...]:
        """The cards of each hand that everyone knows after the deal: with six players
        the last card dealt, which showed trump (DEAL-8, VIEW-2)."""
        if self.stock:
            return tuple(frozenset[Card]() for _ in self.hands)
        return (*(frozenset[Card]() for _ in self.hands[:-1]), frozenset({self.trump_card}))


def lay_out(deck: Sequence[Card], players: int) -> Layout:
    """The hands and the stock that the deck order ``deck`` deals to ``players`` (CLAR-10,
    DEAL-4, DEAL-5, DEAL-6, DEAL-8). ``deck`` must hold the 36 cards (:func:`deck_breach`).

    >>> layout = lay_out(DECK, 2)
    >>> format_cards(layout.hands[1]), len(layout.stock), str(layout.trump_card)
    ('Q♣ K♣ A♣ 6♦ 7♦ 8♦', 24, 'A♠')
    """
    hands = tuple(tuple(deck[HAND_SIZE * seat:HAND_SIZE * (seat + 1)]) for seat in range(players))
    stock = tuple(deck[HAND_SIZE * players:])
    return Layout(hands, stock, deck[-1])


def deal_rule(part: str, players: int) -> str | None:
    """The rule that decides one part of a deal laid out from a deck order
    (:func:`lay_out`), named as a report names it: the card that shows trump and so the
    trump suit (``face_up``, ``trump``: DEAL-5, or with six players the last card dealt,
    DEAL-8), how many cards stay in the stock (``stock``: six to each hand, DEAL-4) and
    which cards each hand holds (``hands``: the order read as CLAR-10 says). ``None`` for
    what the deck order does not decide (the first attacker: :func:`lead_rule`)."""
    if part in ("face_up", "trump"):
        return "DEAL-8" if players == MAX_PLAYERS else "DEAL-5"
    return {"stock": "DEAL-4", "hands": "CLAR-10"}.get(part)


def deck_order(hands: Sequence[Sequence[Card]], stock: Sequence[Card] = (), *,
               trump_card: Card | None = None) -> tuple[Card, ...]:
    """The deck order that deals ``hands`` (six cards each, seat 0 first, in the order
    dealt) and leaves ``stock`` to draw: the inverse of :func:`lay_out` (CLAR-10).

    ``trump_card`` is the card that shows trump. With fewer than six players it is the
    face-up card under the stock, drawn last, and must not be in ``stock``; without it,
    the last card of ``stock`` lies face up. With six players there is no stock and the
    card must be in the sixth hand: it is dealt last (DEAL-8). Raises ``ValueError`` for
    hands or a stock that no deck order deals.

    >>> order = deck_order([DECK[:6], DECK[6:12]], DECK[12:35], trump_card=DECK[35])
    >>> order == DECK
    True
    """
    dealt = [list(hand) for hand in hands]
    if any(len(hand) != HAND_SIZE for hand in dealt):
        raise ValueError(f"every seat is dealt {HAND_SIZE} cards (DEAL-4), not "
                         + ", ".join(str(len(hand)) for hand in dealt))
    rest = list(stock)
    if len(dealt) == MAX_PLAYERS:
        if rest:
            raise ValueError("with six players every card is dealt: there is no stock (DEAL-8)")
        if trump_card is not None:
            if trump_card not in dealt[-1]:
                raise ValueError(f"with six players the card that shows trump, {trump_card}, "
                                 "is the last card of the sixth hand (DEAL-8)")
            dealt[-1].remove(trump_card)
            dealt[-1].append(trump_card)
    elif trump_card is not None:
        rest.append(trump_card)
    order = tuple(card for hand in dealt for card in hand) + tuple(rest)
    breach = deck_breach(order)
    if breach is not None:
        raise ValueError(str(breach))
    return order


def deck_breach(cards: Sequence[object], *, in_play: bool = False) -> Breach | None:
    """DEAL-1: the 36 cards, each exactly once: a deck order, or (``in_play``) every card
    of a position, wherever it lies."""
    if len(cards) == len(DECK) and _DECK_SET.issuperset(cards) and len(set(cards)) == len(DECK):
        return None
    for thing in cards:
        if thing not in _DECK_SET:
            return Breach("DEAL-1", f"{thing!r} is not a card of the 36-card deck")
    counts = Counter(cast("Sequence[Card]", cards))  # every one a card, as just checked
    twice = sorted(card for card, times in counts.items() if times > 1)
    missing = [c for c in DECK if c not in counts]
    if in_play:
        if twice:
            return Breach("DEAL-1", f"{format_cards(twice)} "
                          f"{'is' if len(twice) == 1 else 'are'} in two places at once")
        return Breach("DEAL-1", f"the game holds {len(cards)} cards, not 36"
                      + (f"; missing: {format_cards(missing)}" if missing else ""))
    detail = "; ".join(part for part in (
        f"twice: {format_cards(twice)}" if twice else "",
        f"missing: {format_cards(missing)}" if missing else "") if part)
    return Breach("DEAL-1", f"a deck order must hold each of the 36 cards once, it holds "
                  f"{len(cards)} cards" + (f" ({detail})" if detail else ""))


def players_breach(state: GameState) -> Breach | None:
    """DEAL-3: a game of the rule set's number of players has that many hands."""
    n = state.rules.players
    if len(state.hands) != n:
        return Breach("DEAL-3", f"the rule set is for {n} players, "
                      f"but the state has {len(state.hands)} hands")
    return None


def stock_breach(state: GameState) -> Breach | None:
    """DEAL-5, DEAL-8: the face-up card under the stock is a trump; with six players
    there is no stock."""
    if not state.stock:
        return None
    if state.rules.players == MAX_PLAYERS:
        return Breach("DEAL-8", "with six players all 36 cards are dealt: there is no stock")
    if state.stock[-1].suit != state.trump:
        return Breach("DEAL-5", f"the face-up card {state.stock[-1]} under the stock is "
                      f"not a trump ({state.trump.symbol})")
    return None


def first_attacker(hands: Sequence[Sequence[Card]], trump: Suit, rules: RuleSet,
                   seed: int | None = None) -> tuple[int, str]:
    """Who attacks first, and why: the lowest trump (ORDER-1), else ORDER-2's choice."""
    best: tuple[Rank, int] | None = None
    for seat, hand in enumerate(hands):
        for card in hand:
            if card.suit == trump and (best is None or card.rank < best[0]):
                best = (card.rank, seat)
    if best is not None:
        rank, seat = best
        return seat, f"P{seat} holds the lowest trump, {Card(rank, trump)} (ORDER-1)"
    if rules.no_trump_lead is NoTrumpLead.FIRST_SEAT:
        return 0, "nobody holds a trump, so the first seat attacks (ORDER-2)"
    seat = random.Random(seed).randrange(len(hands))
    return seat, f"nobody holds a trump, so chance picked P{seat} (ORDER-2)"


def lead_rule(hands: Sequence[Sequence[Card]], trump: Suit) -> str:
    """The rule that chooses the first attacker of a first game (:func:`first_attacker`):
    the lowest trump where anyone holds a trump (ORDER-1), else ORDER-2's choice."""
    held = any(card.suit == trump for hand in hands for card in hand)
    return "ORDER-1" if held else "ORDER-2"


def later_game_attacker(rules: RuleSet, previous: Outcome | None) -> tuple[int, str] | None:
    """Who attacks first in a later game of a match because of the last game's result
    (ORDER-7), and why; ``None`` when the lowest trump decides as in a first game: under
    ``lowest-trump`` (B), for the first game of a match, and after a game without a durak
    (a draw, or a race won early: the lowest trump, as published practice has it).

    Seats keep their places from game to game; ``previous`` is the last game's outcome.
    """
    if previous is None:
        return None
    if not isinstance(previous, Outcome):
        raise InputError(f"previous must be the Outcome of the last game, not "
                         f"{type(previous).__name__}", code="previous-outcome")
    if previous.durak is None:
        return None
    n = rules.players
    if not 0 <= previous.durak < n:
        raise InputError(f"the previous game's durak must be a seat of this {n}-player game, "
                         f"not {previous.durak!r}", code="previous-outcome")
    durak = previous.durak
    if rules.later_game_lead is LaterGameLead.LEFT_OF_DURAK:
        seat = (durak + 1) % n
        return seat, (f"P{durak} was the durak of the last game, so P{seat}, after them, "
                      "attacks first (ORDER-7)")
    if rules.later_game_lead is LaterGameLead.RIGHT_OF_DURAK:
        seat = (durak - 1) % n
        return seat, (f"P{durak} was the durak of the last game, so P{seat}, before them, "
                      f"attacks first and P{durak} defends (ORDER-7)")
    return None


SEED_BITS = 63
"""A fresh seed is a whole number of this many random bits."""


def fresh_seed() -> int:
    """A seed drawn from the system's randomness, for a game dealt without one.

    Chance without a seed is chance: the deal and ORDER-2 (CLAR-11) must not repeat from
    one unseeded game to the next. Recording the seed drawn here (as
    :meth:`durak_spec.game.history.Game.new` does) lets the game be dealt again.
    """
    return random.SystemRandom().getrandbits(SEED_BITS)


def deal(rules: RuleSet, seed: int | None = None) -> tuple[Card, ...]:
    """A shuffled deck order for ``new_game``: a fixed seed gives a fixed order, no seed
    a fresh shuffle (:func:`fresh_seed`)."""
    deck = list(DECK)
    random.Random(fresh_seed() if seed is None else seed).shuffle(deck)
    return tuple(deck)


def new_game(rules: RuleSet, *, seed: int | None = None,
             deck: Iterable[Card] | None = None,
             previous: Outcome | None = None) -> GameState:
    """The state after the deal.

    ``deck`` lists all 36 cards in the order they leave the deck (CLAR-10, see
    :func:`lay_out`). Without ``deck`` the deck is shuffled with ``seed``; ``seed`` also
    settles ORDER-2's chance, with or without a deck. Without a seed both are chance: a
    fresh seed is drawn (:func:`fresh_seed`) for the shuffle and for ORDER-2, so
    unseeded games differ. The state does not keep that seed: to deal the same game
    again, pass a seed, or use :meth:`durak_spec.game.history.Game.new`, which draws one
    and records it. A deck that is not the 36 cards raises
    :class:`~durak_spec.core.errors.InvalidState` (DEAL-1).

    ``previous`` is the outcome of the match's last game, for a later game: under the
    rule set's ``later_game_lead`` it may choose the first attacker instead of the lowest
    trump (ORDER-7, :func:`later_game_attacker`).
    """
    if not isinstance(rules, RuleSet):
        raise InputError(f"new_game needs a RuleSet, not {type(rules).__name__}",
                         code="not-a-rule-set")
    if seed is None:
        seed = fresh_seed()
    if deck is None:
        order = deal(rules, seed)
    else:
        order = tuple(deck)
        breach = deck_breach(order)
        if breach is not None:
            raise breach.invalid()
    n = rules.players
    layout = lay_out(order, n)
    hands = tuple(sort_cards(hand) for hand in layout.hands)
    later = later_game_attacker(rules, previous)
    attacker = later[0] if later is not None else first_attacker(hands, layout.trump, rules,
                                                                 seed)[0]
    return GameState(
        rules=rules, hands=hands, stock=layout.stock, trump=layout.trump, attacker=attacker,
        defender=next_in_game(attacker, n), opener=attacker,
        start_hands=tuple(len(h) for h in hands), known=layout.known(),
    )
