#!/usr/bin/env python3
"""The transfer game: pass the attack on with a card of the same rank.

Teaches: TRANSFER-1 (the defender may pass the attack on to the next player by adding a
card of its rank), TRANSFER-3 (only if that player holds enough cards to face every
attack card), source A's worked example EX-4, and TRANSFER-8 (no transfer in the
throw-in game).

Run:  python examples/04_transfer_the_eights.py [--out picture.svg]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from durak_spec import Cover, IllegalAction, Suit, Transfer, apply, legal_actions, parse_card
from durak_spec.game.positions import Position, parse_card_list, parse_table
from durak_spec.game.svg import position_svg

NAMES = ("Anna", "Boris", "Vera")  # seats P0, P1, P2, clockwise
EIGHT_H, EIGHT_S = parse_card("8♥"), parse_card("8♠")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Transfer the eights (EX-4).")
    parser.add_argument("--out", help="where to write the SVG picture after the transfer")
    args = parser.parse_args(argv)

    # EX-4: the transfer game, clubs trump; Anna attacks Boris with 8♠.
    described = (Position().with_profile("classic-transfer").with_players(NAMES)
                 .with_trump(Suit.CLUBS).with_attack("Anna", "Boris")
                 .with_table(parse_table("8♠ uncovered"))
                 .with_hand("Boris", [EIGHT_H], size=6)
                 .with_hand("Vera", parse_card_list("10♠ Q♥"), size=6))
    state = described.build()
    print("== EX-4: clubs are trump; P0 Anna attacks P1 Boris with 8♠")
    print("P1 may: " + ", ".join(a.move for a in legal_actions(state) if a.player == 1))
    state = apply(state, Transfer(1, EIGHT_H))  # both eights now attack the next player
    print(f"P1 transfer 8♥: the table shows {'  '.join(map(str, state.table))}; "
          f"now P{state.attacker} attacks P{state.defender} (Vera must beat both)")
    out = Path(args.out) if args.out else \
        Path(tempfile.gettempdir()) / "durak-spec-examples" / "04_transfer.svg"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(position_svg(state, names=NAMES, playable_for=2), encoding="utf-8")
    print(f"  (picture: {out})")
    for attack, card in ((EIGHT_S, "10♠"), (EIGHT_H, "Q♥")):
        state = apply(state, Cover(2, attack, parse_card(card)))
        print(f"P2 cover {attack} with {card}: " + ("the bout goes on" if state.table else
              f"beaten off; P{state.attacker} attacks P{state.defender} next (ORDER-4)"))

    # TRANSFER-3: with the stock empty and Vera down to one card, she could not face two
    # eights, so Boris may not pass them on: he may only beat 8♠ (if he can) or take.
    short = described.with_stock(0).with_hand("Vera", parse_card_list("10♠")).build()
    print("\n== The same table, but the stock is empty and Vera holds only 10♠")
    print("P1 may: " + ", ".join(a.move for a in legal_actions(short) if a.player == 1))
    try:
        apply(short, Transfer(1, EIGHT_H))
    except IllegalAction as error:
        print(f"P1 transfer 8♥: rejected by {error.rule}: {error.reason}")

    # TRANSFER-8: the throw-in game has no transfer at all.
    plain = described.with_profile("classic-throw-in").build()
    try:
        apply(plain, Transfer(1, EIGHT_H))
    except IllegalAction as error:
        print(f"In classic-throw-in, P1 transfer 8♥: rejected by {error.rule}: {error.reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
