#!/usr/bin/env python3
"""Beat or not: which card covers which attack card.

Teaches: durak_spec.beats(card, attack, trump) and the beating rules BEAT-1 .. BEAT-5,
with the sources' worked examples EX-1, EX-5 and EX-7; and what the engine says when a
defender covers wrongly: an IllegalAction whose ``.rule`` names the broken rule.

Run:  python examples/02_beat_or_not.py
"""

from __future__ import annotations

import argparse

from durak_spec import (
    DECK,
    Cover,
    IllegalAction,
    Suit,
    apply,
    beats,
    format_cards,
    legal_actions,
    parse_card,
)
from durak_spec.game.positions import Position, parse_card_list, parse_table

HEARTS, DIAMONDS = Suit.HEARTS, Suit.DIAMONDS


def show(card: str, attack: str, trump: Suit, rule: str) -> None:
    """Print whether ``card`` beats ``attack`` (cards in notation, like ``"6♦"``)."""
    verdict = "beats  " if beats(parse_card(card), parse_card(attack), trump) else "NO, not"
    print(f"  {rule:<7} trump {trump.symbol}: {card:>3} {verdict} {attack}")


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description="The beating rules, by example.").parse_args(argv)
    print("== beats(card, attack, trump)")
    show("Q♠", "10♠", HEARTS, "BEAT-1")  # a higher card of the same suit
    show("8♠", "10♠", HEARTS, "BEAT-5")  # ... a lower one never
    show("6♦", "K♠", DIAMONDS, "EX-1")  # any trump beats any non-trump (BEAT-2)
    for ace in ("A♣", "A♦", "A♠"):
        show("6♥", ace, HEARTS, "EX-7")  # trump over a plain card: ranks are not compared
    show("J♥", "9♥", HEARTS, "BEAT-3")  # trump on trump: the higher rank covers
    show("7♥", "9♥", HEARTS, "BEAT-3")
    show("A♠", "9♥", HEARTS, "BEAT-3")  # no ace of another suit will do
    show("A♣", "6♠", HEARTS, "BEAT-5")  # another suit that is not trump never beats
    beaters = [c for c in DECK if beats(c, parse_card("A♥"), HEARTS)]  # try all 36 cards
    print(f"  BEAT-4  trump ♥: cards that beat A♥: {format_cards(beaters) or 'none at all'}")

    # EX-5 (source C): hearts are trump, Anna attacks Boris with 9♣. A Position describes
    # the table as players say it; build() gives a checked GameState (Anna=P0, Boris=P1).
    hand = parse_card_list("6♣ 8♣ 10♣ J♣ Q♣ K♣ A♣ 7♥ Q♥ 9♠ 9♦")
    state = (Position().with_trump(HEARTS).with_attack("Anna", "Boris")
             .with_table(parse_table("9♣ uncovered")).with_hand("Boris", hand).build())
    print(f"\n== EX-5: hearts trump, 9♣ attacks; Boris (P1) holds {format_cards(hand)}")
    covers = [a.card for a in legal_actions(state) if isinstance(a, Cover)]
    others = [str(a) for a in legal_actions(state) if not isinstance(a, Cover)]
    print(f"legal beats: {format_cards(covers)}; other legal moves: {', '.join(others)}")

    # Covering wrongly: apply() refuses and the error names the rule.
    for wrong in ("8♣", "9♦"):
        try:
            apply(state, Cover(1, parse_card("9♣"), parse_card(wrong)))
        except IllegalAction as error:
            print(f"P1 cover 9♣ with {wrong}: rejected by {error.rule}: {error.reason}")
    after = apply(state, Cover(1, parse_card("9♣"), parse_card("K♣")))
    ended = "the bout is over" if after.bout > state.bout else "the bout goes on"
    print(f"P1 cover 9♣ with K♣: accepted; {ended}, discard pile: {format_cards(after.discard)}")

    # A trump on the table: only a higher trump covers it (BEAT-3), the ace never (BEAT-4).
    for attack, card in (("9♥", "7♥"), ("9♥", "A♠"), ("A♥", "K♥")):
        trumped = (Position().with_trump(HEARTS).with_attack("Anna", "Boris")
                   .with_table(parse_table(f"{attack} uncovered"))
                   .with_hand("Boris", parse_card_list(card), size=6).build())
        try:
            apply(trumped, Cover(1, parse_card(attack), parse_card(card)))
        except IllegalAction as error:
            print(f"P1 cover {attack} with {card}: rejected by {error.rule}: {error.reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
