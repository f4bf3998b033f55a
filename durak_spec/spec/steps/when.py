"""``When`` steps: dealing a game and making moves."""

from __future__ import annotations

from pytest_bdd import when

from durak_spec.core.cards import DECK
from durak_spec.game.positions import parse_card_list, parse_names, parse_one_card
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
from durak_spec.model.state import Outcome

# ==========================================================================================
# When: the deal
# ==========================================================================================
from durak_spec.spec.context import GameContext
from durak_spec.spec.steps.vocabulary import CARD, CARDS, NAME, NAMES, rx


@when(rx(r"the (?P<again>next )?game is dealt from a stacked deck"))
def when_dealt_stacked(game: GameContext, again: str | None, docstring: str) -> None:
    """Deal a game whose hands (and stock) are listed in the step's docstring.

    One line per listed hand (``Anna: 6♥ 7♣ 8♣ 9♣ 10♣ J♣``, six cards), optionally
    ``stock: ...`` (the next cards to draw) and ``face-up: 9♦``; unlisted hands and the
    rest of the stock get filler cards. "The next game" deals a new game with the same
    players and rules after one has been played from a described position.

    Example: When the game is dealt from a stacked deck
    Example: When the next game is dealt from a stacked deck
    """
    previous = None
    if again and game.started:
        report = game.report()
        if report.over:
            previous = Outcome(report.finished, report.durak)
    position = game.position.rules_only() if again else game.position
    deck = game.read(position.stacked_deck, docstring)
    game.deal(deck, previous=previous)


@when("the game is dealt from this deck order")
def when_dealt_in_order(game: GameContext, docstring: str) -> None:
    """Deal from a deck order given card by card in the docstring (CLAR-10).

    Example: When the game is dealt from this deck order
    """
    deck = game.read(parse_card_list, docstring)
    game.deal(deck)


@when(rx(rf"the game is dealt from a deck (?:without (?P<missing>{CARD})|"
          rf"with (?P<twice>{CARD}) twice)"))
def when_dealt_bad_deck(game: GameContext, missing: str | None, twice: str | None) -> None:
    """Try to deal from a deck that lacks a card, or holds one twice (DEAL-1).

    Example: When the game is dealt from a deck without 7♣
    Example: When the game is dealt from a deck with 7♣ twice
    """
    card = game.read(parse_one_card, missing or twice)
    deck = [c for c in DECK if c != card] if missing else [*DECK, card]
    game.deal(deck)


@when(rx(r"a game for (?P<count>[0-9]+) players? is set up"))
def when_players_set_up(game: GameContext, count: str) -> None:
    """Ask the engine for a game of this many players under the scenario's rules (DEAL-3).

    Example: When a game for 7 players is set up
    """
    game.set_up(int(count))


# ==========================================================================================
# When: moves
# ==========================================================================================


@when(rx(rf"(?P<name>{NAME}) opens with (?P<cards>{CARDS})"))
def when_open(game: GameContext, name: str, cards: str) -> None:
    """The attacker opens the bout; several cards make one opening (where ATTACK-2 allows).

    Example: When Anna opens with 7♣
    Example: When Anna opens with 7♣ and 7♦
    """
    played = game.read(parse_card_list, cards)
    game.play(Open(game.seat(name), played))


@when(rx(rf"(?P<name>{NAME}) throws in (?P<cards>{CARDS})"))
def when_throw_in(game: GameContext, name: str, cards: str) -> None:
    """Add attack cards, one after the other.

    Example: When Vera throws in 9♦
    Example: When Anna throws in 7♦ and 9♠
    """
    added = game.read(parse_card_list, cards)
    seat = game.seat(name)
    game.play(*(ThrowIn(seat, card) for card in added))


@when(rx(rf"(?P<name>{NAME}) covers (?P<pairs>{CARD} with {CARD}"
          rf"(?:(?:,| and) {CARD} with {CARD})*)"))
def when_cover(game: GameContext, name: str, pairs: str) -> None:
    """The defender covers attack cards, one after the other.

    Example: When Boris covers 7♣ with 9♣
    Example: When Boris covers 7♣ with 9♣ and 8♦ with 10♦
    """
    seat = game.seat(name)
    moves: list[Action] = []
    for pair in pairs.replace(",", " and ").split(" and "):
        if pair.strip():
            attack, card = pair.strip().split(" with ")
            moves.append(Cover(seat, game.read(parse_one_card, attack),
                               game.read(parse_one_card, card)))
    game.play(*moves)


@when(rx(rf"(?P<name>{NAME}) transfers with (?P<card>{CARD})"))
def when_transfer(game: GameContext, name: str, card: str) -> None:
    """The defender passes the attack on by adding a card of its rank (transfer game).

    Example: When Boris transfers with 8♥
    """
    game.play(Transfer(game.seat(name), game.read(parse_one_card, card)))


@when(rx(rf"(?P<name>{NAME}) shows (?P<card>{CARD}) to transfer"))
def when_show(game: GameContext, name: str, card: str) -> None:
    """The defender passes the attack on by showing a trump of its rank (TRANSFER-7).

    Example: When Boris shows 8♦ to transfer
    """
    game.play(Transfer(game.seat(name), game.read(parse_one_card, card), show=True))


@when(rx(rf"(?P<name>{NAME}) takes"))
def when_take(game: GameContext, name: str) -> None:
    """The defender announces a take; attackers may still add cards before it ends.

    Example: When Boris takes
    """
    game.play(Take(game.seat(name)))


@when(rx(rf"(?P<names>{NAMES}) says? done"))
def when_done(game: GameContext, names: str) -> None:
    """Attackers say they add nothing more, one after the other.

    Example: When Anna says done
    Example: When Anna and Vera say done
    """
    players = game.read(parse_names, names)
    game.play(*(Done(game.seat(name)) for name in players))


@when("every attacker says done")
def when_all_done(game: GameContext) -> None:
    """Everyone who may still say done says it, until nobody is asked any more.

    Example: When every attacker says done
    """
    for _ in range(len(DECK)):
        dones = [a for a in game.legal() if isinstance(a, Done)]
        if not dones:
            return
        game.play(dones[0])
    game.fail("attackers kept being asked to say done")  # pragma: no cover - engine loop


@when(rx(rf"(?P<name>{NAME}) exchanges the trump six"))
def when_exchange(game: GameContext, name: str) -> None:
    """Swap the six of trumps for the face-up trump (VAR-1).

    Example: When Anna exchanges the trump six
    """
    game.play(ExchangeTrump(game.seat(name)))
