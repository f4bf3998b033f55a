#!/usr/bin/env python3
"""Set up positions by hand, and see the ones no game can reach refused with their rule.

Teaches: durak_spec.game.positions.Position (describe a position the way the Given steps
of a scenario do: players, trump, hands, table, stock, bout) and what ``build()`` fills
in; the strict check ``check_reachable`` behind it, which refuses a position that play
cannot reach, naming the rule: DRAW-1 (hands refilled to six while the stock lasts),
DEFEND-1 (the discard pile holds beaten-off pairs), ATTACK-3 (added cards match a rank on
the table), LIMIT-2 (the hands at the bout's start), DEAL-4 (the first bout) and CLAR-2
(a finished game records no bout in play).

Run:  python examples/08_positions_by_hand.py
"""

from __future__ import annotations

import argparse

from durak_spec import InvalidState, Suit, legal_actions, new_game
from durak_spec.engine import apply, check_reachable
from durak_spec.game.positions import Position, PositionError, parse_card_list, parse_table


def source_a_sevens() -> Position:
    """Source A's throw-in example: 7♣ covered by 9♣, and who may add what (EX-3)."""
    return (Position()
            .with_profile("source-a", players=3)
            .with_trump(Suit.HEARTS)
            .with_attack("Anna", "Boris")
            .with_table(parse_table("7♣ covered by 9♣"))
            .with_hand("Anna", parse_card_list("7♦ 9♠ K♣"), size=5)
            .with_hand("Vera", parse_card_list("9♦ 7♠"), size=6)
            .with_stock(10))


IMPOSSIBLE: tuple[tuple[str, Position], ...] = (
    ("Anna holds two cards between bouts, ten cards in the stock",
     Position().with_trump(Suit.HEARTS).with_hand("Anna", parse_card_list("7♣ 9♦"))
     .with_stock(10)),
    ("an odd discard pile: 1 + 2 cards in hand, nothing else in play",
     Position().with_trump(Suit.HEARTS).with_stock(0)
     .with_hand("Anna", parse_card_list("7♣")).with_hand("Boris", parse_card_list("9♣ K♦"))),
    ("an eight added to a bout of a seven and a nine",
     Position().with_trump(Suit.HEARTS)
     .with_table(parse_table("7♣ covered by 9♣ and 8♦ uncovered"))),
    ("six unrelated cards in the first bout",
     Position().with_trump(Suit.HEARTS).with_rule("first_bout_limit_five", False)
     .with_first_bout().with_hand("Anna", (), size=0)
     .with_table(parse_table("6♣, 7♦, 8♣, 9♦, 10♣ and J♦"))),
    ("a bout 2 after 24 cards were discarded",
     Position().with_trump(Suit.HEARTS).with_stock(0).with_bout(2)),
)


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description="Positions by hand, and the impossible ones refused."
                            ).parse_args(argv)
    print("== Source A's sevens and nines, set up by hand (EX-3)")
    state = source_a_sevens().build()
    print(state.describe())
    print(f"filled in: bout {state.bout + 1}, hands at the bout's start {state.start_hands}"
          f" (LIMIT-2), joined the attack {state.joined} (DRAW-2), discard {len(state.discard)}")
    print("legal now:", ", ".join(map(str, legal_actions(state))))

    print("\n== Descriptions no game can reach")
    for what, position in IMPOSSIBLE:
        try:
            position.build()
        except PositionError as error:
            print(f"{what}:\n  refused, {error.rule}: {error.reason}")
        else:
            print(f"{what}: built (unexpected)")
            return 1

    print("\n== The strict check on a raw state (check_reachable, as the wire load uses)")
    dealt = new_game(source_a_sevens().rule_set(), seed=4)
    after = apply(dealt, legal_actions(dealt)[0])  # the first bout is open
    check_reachable(after)
    print(f"after {legal_actions(dealt)[0]}: reachable")
    for what, broken in (("start hands (0, 0, 0)", after._replace(start_hands=(0, 0, 0))),
                         ("the same bout numbered 2, the stock still whole",
                          after._replace(bout=1))):
        try:
            check_reachable(broken)
        except InvalidState as error:
            print(f"{what}: refused, {error.rule}: {error.reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
