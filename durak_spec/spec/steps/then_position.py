"""``Then`` steps on the position: hands, table, stock, discard pile, trump and roles."""

from __future__ import annotations

from pytest_bdd import then

from durak_spec.core.cards import Suit
from durak_spec.game.positions import parse_card_list, parse_one_card, parse_table

# ==========================================================================================
# Then: the position
# ==========================================================================================
from durak_spec.spec.context import GameContext
from durak_spec.spec.steps.vocabulary import (
    CARD,
    CARDS,
    NAME,
    SUIT,
    cards_text,
    compare,
    rx,
    table_text,
)


@then(rx(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS})"))
def then_hand(game: GameContext, name: str, cards: str) -> None:
    """The player holds exactly these cards.

    Example: Then Boris holds 7♣ 9♣ K♦
    """
    wanted = game.read(parse_card_list, cards)
    compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "exactly")


@then(rx(rf"(?P<name>{NAME}) holds (?P<count>[0-9]+) cards?"))
def then_hand_size(game: GameContext, name: str, count: str) -> None:
    """The player holds this many cards.

    Example: Then Boris holds 8 cards
    """
    hand = game.report().hands[game.seat(name)]
    if len(hand) != int(count):
        game.fail(f"{name} holds {len(hand)} cards: {cards_text(hand)}")


@then(rx(rf"(?P<name>{NAME}) holds no cards"))
def then_hand_empty(game: GameContext, name: str) -> None:
    """The player's hand is empty.

    Example: Then Anna holds no cards
    """
    hand = game.report().hands[game.seat(name)]
    if hand:
        game.fail(f"{name} holds {cards_text(hand)}")


@then(rx(rf"(?P<name>{NAME}) has (?P<cards>{CARDS}) in hand"))
def then_hand_has(game: GameContext, name: str, cards: str) -> None:
    """These cards are among the player's cards.

    Example: Then Anna has 8♠ in hand
    """
    wanted = game.read(parse_card_list, cards)
    compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "each")


@then(rx(rf"(?P<name>{NAME}) does not hold (?P<cards>{CARDS})"))
def then_hand_lacks(game: GameContext, name: str, cards: str) -> None:
    """None of these cards is in the player's hand.

    Example: Then Boris does not hold 9♥
    """
    wanted = game.read(parse_card_list, cards)
    compare(game, f"{name} holds", game.report().hands[game.seat(name)], wanted, "none")


@then(rx(r"each player holds (?P<count>[0-9]+) cards"))
def then_each_hand_size(game: GameContext, count: str) -> None:
    """Every player still in the game holds this many cards.

    Example: Then each player holds 6 cards
    """
    report = game.report()
    out = {seat for group in report.finished for seat in group}
    wrong = [f"{game.name(seat)} holds {len(hand)}" for seat, hand in enumerate(report.hands)
             if seat not in out and len(hand) != int(count)]
    if wrong:
        game.fail("; ".join(wrong))


@then(rx(r"the players hold (?P<count>[0-9]+) trumps between them"))
def then_trump_count(game: GameContext, count: str) -> None:
    """How many trumps are in all hands together.

    Example: Then the players hold 9 trumps between them
    """
    report = game.report()
    trumps = [c for hand in report.hands for c in hand if c.suit == report.trump]
    if len(trumps) != int(count):
        game.fail(f"the players hold {len(trumps)} trumps: {cards_text(trumps)}")


@then(rx(rf"the table shows (?P<pairs>{CARD}.*)"))
def then_table(game: GameContext, pairs: str) -> None:
    """The table holds exactly these attack cards with these covers (in any order).

    Example: Then the table shows 7♣ covered by 9♣ and 8♦ uncovered
    """
    wanted = {(p.attack, p.cover) for p in game.read(parse_table, pairs)}
    have = set(game.report().table)
    if have != wanted:
        game.fail(f"the table shows {table_text(have)}, not {table_text(wanted)}")


@then("the table is empty")
def then_table_empty(game: GameContext) -> None:
    """No card lies on the table.

    Example: Then the table is empty
    """
    table = game.report().table
    if table:
        game.fail(f"the table shows {table_text(table)}")


@then(rx(r"the stock holds (?P<count>[0-9]+) cards?"))
def then_stock_size(game: GameContext, count: str) -> None:
    """How many cards are left to draw, the face-up trump included.

    Example: Then the stock holds 24 cards
    """
    stock = game.report().stock
    if stock != int(count):
        game.fail(f"the stock holds {stock} cards")


@then("the stock is empty")
def then_stock_empty(game: GameContext) -> None:
    """Nothing is left to draw.

    Example: Then the stock is empty
    """
    stock = game.report().stock
    if stock:
        game.fail(f"the stock still holds {stock} cards")


@then(rx(r"the discard pile holds (?P<count>[0-9]+) cards?"))
def then_discard_size(game: GameContext, count: str) -> None:
    """How many cards are out of play.

    Example: Then the discard pile holds 4 cards
    """
    discard = game.report().discard
    if discard != int(count):
        game.fail(f"the discard pile holds {discard} cards")


@then(rx(rf"(?P<suit>{SUIT}) are trump"))
def then_trump(game: GameContext, suit: str) -> None:
    """The trump suit.

    Example: Then diamonds are trump
    """
    trump = game.report().trump
    if trump != Suit.parse(suit):
        game.fail(f"{trump.label} are trump")


@then(rx(rf"the face-up trump is (?P<card>{CARD})"))
def then_face_up(game: GameContext, card: str) -> None:
    """The card lying face up under the stock.

    Example: Then the face-up trump is 9♦
    """
    wanted = game.read(parse_one_card, card)
    face_up = game.report().face_up
    if face_up != wanted:
        game.fail(f"the face-up trump is {face_up or 'missing'}")


@then("there is no face-up trump")
def then_no_face_up(game: GameContext) -> None:
    """No card lies face up under a stock.

    Example: Then there is no face-up trump
    """
    face_up = game.report().face_up
    if face_up is not None:
        game.fail(f"{face_up} lies face up")


@then(rx(rf"(?P<attacker>{NAME}) attacks (?P<defender>{NAME})(?P<later> next)?"))
def then_roles(game: GameContext, attacker: str, defender: str, later: str | None) -> None:
    """Who attacks whom now; with "next", the bout is over and the next one is theirs.

    Example: Then Vera attacks Anna
    Example: Then Boris attacks Vera next
    """
    report = game.report()
    if later and report.table:
        game.fail(f"the bout is still going on: the table shows {table_text(report.table)}")
    if (report.attacker, report.defender) != (game.seat(attacker), game.seat(defender)):
        game.fail(f"{game.name(report.attacker)} attacks {game.name(report.defender)}")
