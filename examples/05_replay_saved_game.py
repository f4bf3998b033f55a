#!/usr/bin/env python3
"""Play a two-player game, save it to a file, load it back and replay it move by move.

Teaches: durak_spec.Game (a game as rules + deal + history), durak_spec.game.persist.save and
load (a JSON file that is checked on loading), replaying a history with apply, and the
result of a game (END-1, END-3: the one player with cards at the end is the durak). A
saved file that was tampered with is refused with a SavedGameError naming the place and
the rule.

Run:  python examples/05_replay_saved_game.py [--seed N]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from durak_spec import Game, SavedGameError, apply, profile
from durak_spec.game.persist import load, save


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Save, load and replay a two-player game.")
    parser.add_argument("--seed", type=int, default=24, help="deal and moves (default 24)")
    args = parser.parse_args(argv)

    # 1. Play: at every step pick one of the legal actions at random (seeded, so the game
    #    is the same each run). Game.play returns a new record; nothing is changed in place.
    game = Game.new(profile("classic-throw-in").rules(players=2), seed=args.seed)
    rng = random.Random(args.seed)
    while not game.is_over:
        game = game.play(rng.choice(game.legal_actions()))

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        save(game, path)  # 2. Save: rules, seed, deck, start position, history, end position
        print(f"Saved a game of {len(game.actions)} actions to game.json "
              f"({path.stat().st_size} bytes)")
        loaded = load(path)  # 3. Load: every card, position and action is checked again

        # 4. Replay the loaded history move by move from the position after the deal.
        state = loaded.initial
        print(f"Trump {state.trump.symbol}; P{state.attacker} attacks first")
        for number, action in enumerate(loaded.actions, start=1):
            before = state
            state = apply(state, action)
            print(f"{number:4}. {action}")
            if state.bout > before.bout:  # this action ended the bout
                # Beaten off: the table went to the discard pile (DEFEND-1); else taken.
                beaten = len(state.discard) > len(before.discard)
                how = "beaten off by" if beaten else "taken by"
                print(f"      -- bout {state.bout} {how} P{before.defender}; "
                      f"stock {len(state.stock)}, hands {[len(h) for h in state.hands]}")
        print(f"Result: {state.outcome}")

        # 5. Tamper with the file: make the first move play a card from the other hand.
        document = json.loads(path.read_text(encoding="utf-8"))
        first = document["history"][0]
        first["cards"] = [document["initial"]["hands"][1 - first["player"]][0]]
        path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        try:
            load(path)
        except SavedGameError as error:
            print(f"Tampered file refused: {error}")
            print(f"  place: {error.path}, rule: {error.rule}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
