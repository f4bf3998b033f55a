"""``Then`` steps on what the players know and see: the cards known to everyone (TIP-7,
VIEW-2), each player's view and the cards they may play (chapter 12)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from pytest_bdd import then

from durak_spec.core.cards import Card, Suit
from durak_spec.game.positions import parse_card_list, parse_one_card, parse_table
from durak_spec.protocol import Report

# ==========================================================================================
# Chapter 13, tips (features/13_tips.feature): the cards every player knows (TIP-7, VIEW-2)
# ==========================================================================================
from durak_spec.spec.context import GameContext
from durak_spec.spec.steps.vocabulary import CARDS, NAME, cards_text, compare, rx, table_text


def _known_cards(game: GameContext, name: str) -> tuple[Card, ...]:
    """The cards of ``name``'s hand that every player knows, as the engine reports them."""
    report = game.report()
    seat = game.seat(name)
    if len(report.known) != len(report.hands):
        pytest.skip("the engine does not report which cards every player knows (VIEW-2)")
    return report.known[seat]


@then(rx(rf"everyone knows that (?P<name>{NAME}) holds (?P<exactly>exactly )?(?P<cards>{CARDS})"))
def then_known_to_everyone(game: GameContext, name: str, exactly: str | None, cards: str
                           ) -> None:
    """Cards in the player's hand that every player knows: picked up from the table or
    drawn face up (VIEW-2); with "exactly", these and no others.

    Example: Then everyone knows that Boris holds exactly 7♣ 8♦ and 9♣
    Example: Then everyone knows that Anna holds 9♥
    """
    wanted = game.read(parse_card_list, cards)
    compare(game, f"everyone knows that {name} holds", _known_cards(game, name), wanted,
             "exactly" if exactly else "each")


@then(rx(rf"none of (?P<name>{NAME})'s cards is known to everyone"))
def then_known_to_nobody(game: GameContext, name: str) -> None:
    """No card in the player's hand is known to the other players (VIEW-2).

    Example: Then none of Anna's cards is known to everyone
    """
    compare(game, f"everyone knows that {name} holds", _known_cards(game, name), (),
             "exactly")




# ==========================================================================================
# Chapter 12, what the players see (features/12_views.feature): views, playable cards
# ==========================================================================================

_VIEW_ROWS = "stock, face-up, trump, table, discard pile, or a player's name"


def _count_text(count: int) -> str:
    """A pile's size as a view shows it: ``empty``, ``1 card``, ``10 cards``."""
    return "empty" if count == 0 else f"{count} card{'' if count == 1 else 's'}"


def _hand_text(count: int, known: Iterable[Card] = ()) -> str:
    """Another player's hand as a view shows it: ``6 cards, 7♣ 9♣ known``."""
    if count == 0:
        return "no cards"
    shown = list(known)
    return _count_text(count) + (f", {cards_text(shown)} known" if shown else "")


def _read_count(text: str) -> int | None:
    """``empty``, ``no cards`` or ``N cards`` as a number; ``None`` if the text is neither."""
    if text.lower() in ("empty", "no cards"):
        return 0
    words = text.split()
    if len(words) == 2 and words[0].isdigit() and words[1] in ("card", "cards"):
        return int(words[0])
    return None


def _reported_known(report: Report, seat: int) -> tuple[Card, ...]:
    return report.known[seat] if len(report.known) == len(report.hands) else ()


def _view_row(game: GameContext, report: Report, viewer: int, key: str, text: str
              ) -> tuple[str, str]:
    """One row of ``viewer``'s view: what the scenario expects and what the engine reports,
    both in the view's own wording, so that they compare as text."""
    lowered = key.lower()
    if lowered in ("stock", "discard pile"):
        count = _read_count(text)
        if count is None:
            game.fail(f"the {key} row says {text!r}: write 'empty' or a number of cards")
        return _count_text(count), _count_text(report.stock if lowered == "stock"
                                               else report.discard)
    if lowered == "face-up":
        wanted = "none" if text.lower() == "none" else str(game.read(parse_one_card, text))
        return wanted, "none" if report.face_up is None else str(report.face_up)
    if lowered == "trump":
        suits = {suit.label: suit for suit in Suit}
        if text.lower() not in suits:
            game.fail(f"the trump row says {text!r}: write clubs, diamonds, hearts or spades")
        return suits[text.lower()].label, report.trump.label
    if lowered == "table":
        wanted = "empty" if text.lower() == "empty" else table_text(
            (pair.attack, pair.cover) for pair in game.read(parse_table, text))
        return wanted, table_text(report.table) if report.table else "empty"
    if key not in game.names:
        game.fail(f"{key!r} is not a row of a view: a row is {_VIEW_ROWS}")
    seat = game.names.index(key)
    own = seat == viewer
    size, _, known = text.partition(",")
    count = _read_count(size.strip())
    known = known.strip()
    if text.lower() == "out":
        wanted = "out"
    elif count is not None and not known:
        wanted = _hand_text(count)
    elif count is not None and not own and known.endswith(" known"):
        wanted = _hand_text(count, game.read(parse_card_list, known.removesuffix(" known")))
    elif count is None and own:
        wanted = cards_text(game.read(parse_card_list, text))
    else:
        game.fail(f"{key}'s row of {game.names[viewer]}'s view says {text!r}: write "
                  + ("the cards in hand ('7♣ 9♣'), their number, or 'out'" if own else
                     "a number of cards with the cards everyone knows ('6 cards' or "
                     "'6 cards, 9♦ known'), or 'out'"))
    hand = report.hands[seat]
    if any(seat in group for group in report.finished):
        actual = "out"
    elif own:
        actual = _hand_text(len(hand)) if count is not None else cards_text(hand)
    else:
        actual = _hand_text(len(hand), _known_cards(game, key))
    return wanted, actual


def _whole_view(game: GameContext, report: Report, viewer: int) -> list[tuple[str, str]]:
    """Every row of what ``viewer`` sees, as the engine reports it (for failure messages)."""
    rows = [("stock", _count_text(report.stock)),
            ("face-up", "none" if report.face_up is None else str(report.face_up)),
            ("trump", report.trump.label),
            ("table", table_text(report.table) if report.table else "empty"),
            ("discard pile", _count_text(report.discard))]
    for seat, name in enumerate(game.names):
        hand = report.hands[seat]
        rows.append((name, "out" if any(seat in group for group in report.finished) else
                     (cards_text(hand) if hand else "no cards") if seat == viewer else
                     _hand_text(len(hand), _reported_known(report, seat))))
    return rows


@then(rx(rf"(?P<name>{NAME}) sees"))
def then_sees(game: GameContext, name: str, datatable: list[list[str]]) -> None:
    """What one player sees (VIEW-1, VIEW-2), one fact per row of a data table.

    Rows: ``stock`` (``10 cards`` or ``empty``), ``face-up`` (a card or ``none``),
    ``trump`` (``diamonds``), ``table`` (``7♣ covered by 9♣ and 8♦ uncovered`` or
    ``empty``), ``discard pile``, and a row per player: the player's own cards (or their
    number), another player's number of cards with the cards everyone knows
    (``6 cards, 9♦ known``), or ``out``. Rows not listed are not checked.

    Example: Then Vera sees
    """
    viewer = game.seat(name)
    report = game.report()
    wrong = []
    for row in datatable:
        if len(row) != 2 or not row[0].strip():
            game.fail(f"a row of {name}'s view has two cells, the fact and what "
                      f"{name} sees: | stock | 10 cards |, not {row}")
        wanted, actual = _view_row(game, report, viewer, row[0].strip(), row[1].strip())
        if wanted != actual:
            wrong.append(f"{row[0].strip()}: {actual}, not {wanted}")
    if wrong:
        seen = "\n".join(f"    | {key} | {value} |" for key, value in
                         _whole_view(game, report, viewer))
        game.fail(f"{name} sees {'; '.join(wrong)}\n  {name} sees:\n{seen}")


def _playable(game: GameContext, name: str) -> set[Card]:
    """The cards that take part in the player's legal moves now (VIEW-3)."""
    seat = game.seat(name)
    return {card for action in game.legal() if action.player == seat for card in action.cards}


@then(rx(rf"the cards (?P<name>{NAME}) may play are (?P<cards>{CARDS})"))
def then_playable(game: GameContext, name: str, cards: str) -> None:
    """Exactly these of the player's cards make a legal move now (VIEW-3).

    Example: Then the cards Boris may play are 8♥ and 10♠
    """
    wanted = game.read(parse_card_list, cards)
    compare(game, f"the cards {name} may play are", _playable(game, name), wanted, "exactly")


@then(rx(rf"(?P<name>{NAME}) may play no card"))
def then_plays_no_card(game: GameContext, name: str) -> None:
    """None of the player's cards makes a legal move now (VIEW-3).

    Example: Then Boris may play no card
    """
    compare(game, f"the cards {name} may play are", _playable(game, name), (), "exactly")
