"""``Given`` steps: the rules, the players and the position they describe."""

from __future__ import annotations

from pytest_bdd import given

from durak_spec.core.cards import Suit
from durak_spec.game.positions import parse_card_list, parse_names, parse_one_card, parse_table
from durak_spec.model.rules import AXES

# ==========================================================================================
# Given: the rules and the players
# ==========================================================================================
from durak_spec.spec.context import GameContext
from durak_spec.spec.steps.vocabulary import CARD, CARDS, NAME, NAMES, SUIT, rx


@given(rx(r"the classic (?P<kind>throw-in|transfer) game"))
def given_classic_game(game: GameContext, kind: str) -> None:
    """The classic throw-in (podkidnoy) or transfer (perevodnoy) game.

    Example: Given the classic throw-in game
    Example: Given the classic transfer game
    """
    game.describe(lambda p: p.with_profile(f"classic-{kind}"))


@given(rx(r'the rules of "(?P<name>[^"]+)"(?: with (?P<count>[0-9]+) players)?'))
def given_profile(game: GameContext, name: str, count: str | None) -> None:
    """A named rule profile (see ``durak_spec.model.rules.PROFILES``), maybe with a player count.

    Example: Given the rules of "source-b"
    Example: Given the rules of "source-a" with 4 players
    """
    game.describe(lambda p: p.with_profile(name, int(count) if count else None))


@given(rx(r'the switch "(?P<axis>\w+)" is (?P<state>on|off)'))
def given_switch(game: GameContext, axis: str, state: str) -> None:
    """Turn an on/off axis of the rule set on or off.

    Example: Given the switch "trump_exchange" is on
    """
    kinds = {a.name: a for a in AXES}
    if axis in kinds and (kinds[axis].enum is not None or kinds[axis].kind is not bool):
        game.fail(f'"{axis}" is not an on/off switch: write the setting "{axis}" is '
                  f'"<value>" with one of {kinds[axis].choices()}')
    game.describe(lambda p: p.with_rule(axis, state == "on"))


@given(rx(r'the setting "(?P<axis>\w+)" is "(?P<value>[^"]+)"'))
def given_setting(game: GameContext, axis: str, value: str) -> None:
    """Set an axis of the rule set that has named values.

    Example: Given the setting "throw_in" is "neighbours"
    Example: Given the setting "no_trump_lead" is "first-seat"
    """
    game.describe(lambda p: p.with_rule(axis, value))


@given(rx(rf"the players (?P<names>{NAMES})"))
def given_players(game: GameContext, names: str) -> None:
    """The players by name; they sit clockwise in this order (the first is seat P0).

    Example: Given the players Anna, Boris and Vera
    """
    players = game.read(parse_names, names)
    game.describe(lambda p: p.with_players(players))


# ==========================================================================================
# Given: the position
# ==========================================================================================


@given(rx(rf"(?P<suit>{SUIT}) are trump"))
def given_trump(game: GameContext, suit: str) -> None:
    """The trump suit.

    Example: Given hearts are trump
    """
    game.describe(lambda p: p.with_trump(Suit.parse(suit)))


@given(rx(rf"the face-up trump is (?P<card>{CARD})"))
def given_face_up(game: GameContext, card: str) -> None:
    """The card lying face up under the stock; its suit is trump.

    Example: Given the face-up trump is 6♥
    """
    face_up = game.read(parse_one_card, card)
    game.describe(lambda p: p.with_face_up(face_up))


@given(rx(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS})"))
def given_hand(game: GameContext, name: str, cards: str) -> None:
    """Exactly these cards are in the player's hand.

    Example: Given Anna holds 7♣ 9♣ K♦
    """
    hand = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_hand(name, hand))


@given(rx(rf"(?P<name>{NAME}) holds (?P<count>[0-9]+) cards?"))
def given_hand_size(game: GameContext, name: str, count: str) -> None:
    """The player holds this many cards, none of them named in the scenario.

    Example: Given Boris holds 6 cards
    """
    game.describe(lambda p: p.with_hand(name, (), int(count)))


@given(rx(rf"(?P<name>{NAME}) holds (?P<cards>{CARDS}) and (?P<count>[0-9]+) other cards?"))
def given_hand_and_more(game: GameContext, name: str, cards: str, count: str) -> None:
    """These cards and some more that the scenario does not name.

    Example: Given Boris holds 9♣ and 5 other cards
    """
    hand = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_hand(name, hand, len(hand) + int(count)))


@given(rx(rf"(?P<name>{NAME}) holds no cards"))
def given_empty_hand(game: GameContext, name: str) -> None:
    """The player's hand is empty (while the stock lasts they are still in the game).

    Example: Given Anna holds no cards
    """
    game.describe(lambda p: p.with_hand(name, (), 0))


@given(rx(rf"(?P<attacker>{NAME}) attacks (?P<defender>{NAME})"))
def given_attack(game: GameContext, attacker: str, defender: str) -> None:
    """Who attacks whom now; the defender must be the next player still in the game.

    Example: Given Anna attacks Boris
    """
    game.describe(lambda p: p.with_attack(attacker, defender))


@given(rx(rf"(?P<name>{NAME}) opened the bout"))
def given_opener(game: GameContext, name: str) -> None:
    """Who opened the bout in play, when the attack has since been transferred.

    Example: Given Anna opened the bout
    """
    game.describe(lambda p: p.with_opener(name))


@given(rx(rf"(?P<name>{NAME}) has announced a take"))
def given_take_announced(game: GameContext, name: str) -> None:
    """The defender has said they will take the cards (attackers may still add some).

    Example: Given Boris has announced a take
    """
    game.describe(lambda p: p.with_take_announced(name))


@given(rx(rf"the table shows (?P<pairs>{CARD}.*)"))
def given_table(game: GameContext, pairs: str) -> None:
    """The attack cards of the bout in play, each covered by a card or uncovered.

    Example: Given the table shows 7♣ covered by 9♣ and 8♦ uncovered
    """
    table = game.read(parse_table, pairs)
    game.describe(lambda p: p.with_table(table))


@given(rx(r"(?P<count>[0-9]+) cards? (?:are|is) left in the stock"))
def given_stock_size(game: GameContext, count: str) -> None:
    """How many cards are left in the stock, the face-up trump included.

    Example: Given 10 cards are left in the stock
    Example: Given 1 card is left in the stock
    """
    game.describe(lambda p: p.with_stock(int(count)))


@given("the stock is empty")
def given_stock_empty(game: GameContext) -> None:
    """Nothing is left to draw.

    Example: Given the stock is empty
    """
    game.describe(lambda p: p.with_stock(0))


@given(rx(rf"the next cards? to draw (?:is|are) (?P<cards>{CARDS})"))
def given_stock_top(game: GameContext, cards: str) -> None:
    """The cards on top of the stock, the first to be drawn first.

    Example: Given the next cards to draw are 8♠ and 9♠
    Example: Given the next card to draw is 8♠
    """
    top = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_stock_top(top))


@given(rx(r"(?P<count>[0-9]+) cards? (?:are|is) in the discard pile"))
def given_discard_size(game: GameContext, count: str) -> None:
    """How many cards have been discarded (the rest of the deck goes to the stock).

    Example: Given 12 cards are in the discard pile
    """
    game.describe(lambda p: p.with_discard(size=int(count)))


@given("the discard pile is empty")
def given_discard_empty(game: GameContext) -> None:
    """Nothing has been discarded yet: in a later bout, every bout so far was taken.

    Example: Given the discard pile is empty
    """
    game.describe(lambda p: p.with_discard(size=0))


@given(rx(rf"(?P<cards>{CARDS}) (?:are|is) in the discard pile"))
def given_discard_cards(game: GameContext, cards: str) -> None:
    """Cards known to have been discarded.

    Example: Given A♠ and A♥ are in the discard pile
    """
    pile = game.read(parse_card_list, cards)
    game.describe(lambda p: p.with_discard(pile))


@given("it is the first bout")
def given_first_bout(game: GameContext) -> None:
    """The bout in play is the game's first: nobody has drawn or discarded yet (LIMIT-3).

    Without this step a position is a later bout of the game.

    Example: Given it is the first bout
    """
    game.describe(lambda p: p.with_first_bout())


@given(rx(r"it is bout (?P<number>[0-9]+)"))
def given_bout(game: GameContext, number: str) -> None:
    """The bout in play is the game's bout ``number`` (1 is the first bout); without it, a
    later bout is numbered as low as the discard pile, the cards drawn, the hands over six
    and the players out allow.

    Example: Given it is bout 4
    """
    game.describe(lambda p: p.with_bout(int(number)))


@given(rx(rf"(?P<names>{NAMES}) (?:is|are) out"))
def given_out(game: GameContext, names: str) -> None:
    """Players who have got rid of their cards, one after the other in the order named.

    Example: Given Vera is out
    Example: Given Vera and Gleb are out
    """
    players = game.read(parse_names, names)
    game.describe(lambda p: p.with_out(players))
