#!/usr/bin/env python3
"""Throw in: which cards the ranks on the table let each attacker add (7♣ covered by 9♣).

Teaches: ATTACK-3 (an added card must match a rank on the table, attack or cover card),
ATTACK-4 (in the classic game every player but the defender may throw in), source A's
worked example EX-3, and how legal_actions lists what each attacker may add.

Run:  python examples/03_throw_in_sevens_and_nines.py
"""

from __future__ import annotations

import argparse

from durak_spec import GameState, IllegalAction, Suit, ThrowIn, apply, legal_actions, parse_card
from durak_spec.game.positions import Position, parse_card_list, parse_table

NAMES = ("Anna", "Boris", "Vera")  # seats P0, P1, P2; Anna attacks Boris


def who_may_do_what(state: GameState) -> None:
    """Print every seat's legal actions (legal_actions lists all players at once)."""
    for seat, name in enumerate(NAMES):
        mine = [a.move for a in legal_actions(state) if a.player == seat]
        role = ("defender" if seat == state.defender else
                "attacker" if seat == state.attacker else "may throw in")
        label = f"P{seat} {name} ({role}):"
        print(f"  {label:<27} {', '.join(mine) or 'nothing to do now'}")


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description="Throw in sevens and nines (EX-3).").parse_args(argv)
    # EX-3: diamonds are trump; 7♣ lies on the table, beaten by 9♣.
    state = (Position().with_players(NAMES).with_trump(Suit.DIAMONDS)
             .with_attack("Anna", "Boris").with_table(parse_table("7♣ covered by 9♣"))
             .with_hand("Anna", parse_card_list("7♥ 8♣ 9♠ K♠"))
             .with_hand("Vera", parse_card_list("7♠ 9♦ 10♥ J♣")).build())
    print("== EX-3: diamonds are trump; the table shows", "  ".join(map(str, state.table)))
    for seat, name in enumerate(NAMES):
        print(f"  P{seat} {name} holds {' '.join(map(str, state.hands[seat]))}")
    print("Ranks on the table: 7 and 9. Who may do what now:")
    who_may_do_what(state)

    # Throwing in a card of another rank is refused, naming the rule (ATTACK-3).
    for seat, card in ((0, "8♣"), (2, "10♥")):
        try:
            apply(state, ThrowIn(seat, parse_card(card)))
        except IllegalAction as error:
            print(f"P{seat} throw {card}: rejected by {error.rule}: {error.reason}")

    # Vera adds 9♦ (a trump, but what counts is its rank): now Boris must answer it.
    state = apply(state, ThrowIn(2, parse_card("9♦")))
    print("P2 throw 9♦: accepted; the table shows", "  ".join(map(str, state.table)))
    # "done" has gone: attackers say done only once every attack card is covered (CLAR-3),
    # and Boris, who holds no trump to beat 9♦, may only take.
    print("Who may do what now:")
    who_may_do_what(state)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
