"""Cards and their notation (DEAL-1, DEAL-2): every spelling of all 36 cards, and bad text."""

from __future__ import annotations

from typing import Any

import pytest

from durak_spec import DECK, Card, CardError, Rank, Suit, format_cards, parse_card, parse_cards

SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
OUTLINE = {Suit.CLUBS: "♧", Suit.DIAMONDS: "♢", Suit.HEARTS: "♡", Suit.SPADES: "♤"}
LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
RANKS = {Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
         Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"}


def spellings(card: Card) -> list[str]:
    """Every accepted way to write ``card``."""
    ranks = [RANKS[card.rank]]
    if card.rank == Rank.TEN:
        ranks.append("T")
    out: list[str] = []
    for rank in ranks:
        for r in {rank, rank.lower()}:
            out += [r + SYMBOLS[card.suit], r + OUTLINE[card.suit],
                    r + LETTERS[card.suit], r + LETTERS[card.suit].lower(),
                    f"  {r}{LETTERS[card.suit]} "]
    return out


def test_the_deck_has_36_distinct_cards_of_nine_ranks_and_four_suits() -> None:
    assert len(DECK) == 36
    assert len(set(DECK)) == 36
    assert {c.rank for c in DECK} == set(Rank)
    assert [int(r) for r in Rank] == [6, 7, 8, 9, 10, 11, 12, 13, 14]
    assert sum(1 for c in DECK if c.suit == Suit.HEARTS) == 9  # DEAL-7


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_spelling_parses_and_prints_back(card: Card) -> None:
    expected = RANKS[card.rank] + SYMBOLS[card.suit]
    assert str(card) == expected
    for text in spellings(card):
        assert parse_card(text) == card, text
        assert Card.parse(text) == card, text
    assert parse_card(str(card)) == card
    assert parse_card(card.ascii) == card
    assert card.ascii == RANKS[card.rank] + LETTERS[card.suit]
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(("text", "expected"), [
    ("7♣", Card(Rank.SEVEN, Suit.CLUBS)),
    ("7C", Card(Rank.SEVEN, Suit.CLUBS)),
    ("7c", Card(Rank.SEVEN, Suit.CLUBS)),
    ("10H", Card(Rank.TEN, Suit.HEARTS)),
    ("TH", Card(Rank.TEN, Suit.HEARTS)),
    ("th", Card(Rank.TEN, Suit.HEARTS)),
    ("QS", Card(Rank.QUEEN, Suit.SPADES)),
    ("qs", Card(Rank.QUEEN, Suit.SPADES)),
    ("AD", Card(Rank.ACE, Suit.DIAMONDS)),
    ("A♢", Card(Rank.ACE, Suit.DIAMONDS)),
    ("6♤", Card(Rank.SIX, Suit.SPADES)),
    ("K♡", Card(Rank.KING, Suit.HEARTS)),
    ("J♧", Card(Rank.JACK, Suit.CLUBS)),
])
def test_the_spellings_of_the_brief(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


@pytest.mark.parametrize(("text", "fragments"), [
    ("5H", ["'5'", "not a rank", "2 to 5"]),
    ("1H", ["'1'", "not a rank"]),
    ("11H", ["'11'", "not a rank"]),
    ("7", ["'7'", "no suit"]),
    ("10", ["'10'", "no suit"]),
    ("7X", ["'X'", "not a suit"]),
    ("QZ", ["'Z'", "not a suit"]),
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("X7", ["'X7'", "not a card"]),
])
def test_bad_card_text_is_rejected_naming_what_is_wrong(text: str, fragments: list[str]) -> None:
    with pytest.raises(CardError) as excinfo:
        parse_card(text)
    message = str(excinfo.value)
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("value", [7, None, 7.0, ("7", "C"), b"7C"])
def test_a_card_must_be_text(value: Any) -> None:
    with pytest.raises(CardError) as excinfo:
        parse_card(value)
    assert "text" in str(excinfo.value)
    assert repr(value) in str(excinfo.value)


def test_card_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a rank"):
        parse_card("5H")


def test_several_cards_round_trip_through_format_cards() -> None:
    hand = parse_cards("7C, 10h;QS  A♦ T♠")
    assert format_cards(hand) == "7♣ 10♥ Q♠ A♦ 10♠"
    assert parse_cards(format_cards(hand)) == hand
    assert parse_cards("") == ()
    assert parse_cards(["7C", "9♣"]) == (parse_card("7♣"), parse_card("9♣"))
    assert parse_cards(format_cards(DECK)) == DECK


def test_a_bad_card_among_several_is_named() -> None:
    with pytest.raises(CardError, match="'5'"):
        parse_cards("7C 5H 9C")


def test_cards_sort_by_rank_then_suit() -> None:
    assert parse_card("6♠") < parse_card("7♣")
    assert parse_card("10♣") < parse_card("J♣") < parse_card("Q♣") < parse_card("K♣") \
        < parse_card("A♣")
    assert parse_card("7♣") < parse_card("7♦") < parse_card("7♥") < parse_card("7♠")
    ordered = sorted(DECK)
    assert ordered[0] == parse_card("6♣")
    assert ordered[-1] == parse_card("A♠")
    assert [c.rank for c in ordered] == sorted(c.rank for c in DECK)


def test_cards_compare_and_hash_by_value() -> None:
    a = parse_card("10H")
    b = parse_card("T♥")
    c = Card(Rank.TEN, Suit.HEARTS)
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert a != parse_card("10♦")
    assert a != parse_card("9♥")
    assert {parse_card(str(x)) for x in DECK} == set(DECK)


def test_ranks_and_suits_parse_on_their_own() -> None:
    assert Rank.parse("t") is Rank.TEN
    assert Rank.parse("10") is Rank.TEN
    assert Suit.parse("clubs") is Suit.CLUBS
    assert Suit.parse("♡") is Suit.HEARTS
    with pytest.raises(CardError, match="not a suit"):
        Suit.parse("X")
    with pytest.raises(CardError, match="not a rank"):
        Rank.parse("2")
