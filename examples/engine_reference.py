"""A minimal external Durak engine: the reference implementation behind the JSON-lines protocol.

Read this first if you want to plug your own engine into ``durak-spec check``. Your engine
can be written in any language: the checker starts it as a command, writes one request
per line to its standard input, and reads one response per line from its standard output.
This script plays the games with durak-spec's reference implementation, so every answer is
right; replace the few calls marked ``# <- your engine`` by your own engine's calls.

Try it::

    durak-spec check --engine "python examples/engine_reference.py"
    durak-spec check --engine "python examples/engine_reference.py" --random 5

or by hand (type a request, get a response)::

    $ python examples/engine_reference.py
    {"id": 1, "cmd": "hello"}
    {"id": 1, "ok": true, "protocol": 1, "name": "engine_reference.py", ...}

The rules of the protocol in short (the JSON Schema of every message is
``durak_spec/data/protocol.schema.json``):

* Every request is one JSON object on one line, with an ``id`` (a whole number) and a
  ``cmd``. Every response is one JSON object on one line, with the same ``id`` and
  ``"ok": true``, or ``"ok": false`` and an ``"error"`` text if the engine cannot serve
  the request at all. Write nothing else on standard output (use standard error for logs).
* Cards are text: rank then suit, ``"7♣"``, ``"10♥"``, ``"A♠"`` (``"7C"``, ``"10H"`` too).
* Seats are numbered 0, 1, ... clockwise.
* An illegal action is not an error: ``apply`` answers ``"accepted": false`` with a
  reason (and, if you know it, the rule ID from the specification's rule index).
"""

from __future__ import annotations

import json
import sys
from typing import Any

# The reference implementation: the rules (new_game, legal_actions, check, advance) and the
# notation (parse_card, action_from_json, Action.to_json). Your engine replaces these.
from durak_spec import PROFILES, RuleSet, advance, check, legal_actions, new_game, parse_card
from durak_spec.core.errors import DurakError, IllegalAction
from durak_spec.game.persist import state_from_json
from durak_spec.model.actions import action_from_json
from durak_spec.model.state import GameState

# The one game this engine is playing (None until "start" or "load").
game: GameState | None = None


def report(state: GameState) -> dict[str, Any]:
    """The public position, as the "start", "load" and "state" responses carry it."""
    outcome = state.outcome  # None while the game goes on
    return {
        # Each seat's cards (any order inside a hand).
        "hands": [[str(card) for card in hand] for hand in state.hands],
        # The attack cards in the order they were played, each with its cover or null:
        # [["7♣", "9♣"], ["7♦", null]]
        "table": [[str(pair.attack), None if pair.cover is None else str(pair.cover)]
                  for pair in state.table],
        "stock": len(state.stock),          # cards left to draw, the face-up trump included
        "trump": state.trump.symbol,        # "♠" (or "S")
        "face_up": None if state.face_up is None else str(state.face_up),
        "discard": len(state.discard),      # cards out of play
        "attacker": state.attacker,         # the seats attacking and defending now
        "defender": state.defender,
        "taking": state.taking,             # the defender has announced a take
        "finished": [list(group) for group in state.finished],  # who went out, in order
        "over": outcome is not None,
        "durak": None if outcome is None else outcome.durak,    # null: not over, or a draw
        # Optional: per seat, the cards of that hand every player knows (taken cards, the
        # face-up trump drawn last). Leave "known" out if your engine does not track it.
        "known": [[str(card) for card in sorted(cards)] for cards in state.known],
    }


def handle(request: dict[str, Any]) -> dict[str, Any]:
    """The response to one request (without the id, which the caller adds)."""
    global game
    cmd = request.get("cmd")

    if cmd == "hello":
        # Request:  {"id": 1, "cmd": "hello"}
        # The handshake: who you are and what you play. "profiles" names the
        # specification's rule profiles you play completely (durak-spec profiles lists
        # them); "axes" (optional) the values of each rule axis you play in any
        # combination; "players" the player counts; "capabilities.load" whether you can
        # start from a saved position (the "load" command below); "capabilities.events"
        # (optional) whether your accepted answers to "apply" say what happened in the
        # step, each event with the rule that decided it. Scenarios under rules you do not
        # claim are skipped, not failed.
        return {"protocol": 1, "name": "engine_reference.py", "version": "1",
                "profiles": list(PROFILES), "players": [2, 3, 4, 5, 6],
                "axes": {"transfer": ["on", "off"],
                         "transfer_by_showing_trump": ["on", "off"],
                         "multi_card_opening": ["on", "off"],
                         "throw_in": ["attacker", "neighbours", "all"],
                         "first_bout_limit_five": ["on", "off"],
                         "limit_reading": ["current-hand", "start-hand"],
                         "draw_order": ["attacker-first", "join-order"],
                         "goal": ["last-holder-loses", "first-out-wins"],
                         "no_trump_lead": ["chance", "first-seat"],
                         "trump_exchange": ["on", "off"]},
                "capabilities": {"load": True, "events": True}}

    if cmd == "start":
        # Request:  {"id": 2, "cmd": "start",
        #            "rules": {"players": 2, "transfer": false, ..., every axis},
        #            "deck": ["9♣", "6♥", ... all 36 cards], "seed": 7}
        # The deck lists the cards in the order they leave it: six to each seat in turn,
        # then the stock in drawing order; its last card is the face-up trump. "seed"
        # settles chance where the rules need it (who attacks first if nobody holds a trump).
        # Response: {"id": 2, "ok": true, "report": {...}}
        rules = RuleSet.from_dict(request["rules"])
        deck = [parse_card(card) for card in request["deck"]]
        game = new_game(rules, deck=deck, seed=request["seed"])      # <- your engine
        return {"report": report(game)}

    if cmd == "load":
        # Request:  {"id": 3, "cmd": "load", "state": {"format": "durak-spec/state", ...}}
        # Optional (declare capabilities.load): begin from a full position: hands, stock
        # in drawing order, table, discard, roles, and the bout's bookkeeping.
        game = state_from_json(request["state"])                      # <- your engine
        return {"report": report(game)}

    if game is None:
        raise DurakError("no game yet: send start first")

    if cmd == "legal":
        # Request:  {"id": 4, "cmd": "legal"}
        # Every legal action of every player who may act now (after an opening, the
        # defender and the players who may throw in can all act), in any order:
        # Response: {"id": 4, "ok": true, "actions": [
        #     {"player": 0, "type": "open", "cards": ["7♣"]},
        #     {"player": 2, "type": "throw", "card": "9♦"},
        #     {"player": 1, "type": "cover", "attack": "7♣", "card": "9♣"},
        #     {"player": 1, "type": "transfer", "card": "7♦"},   ("show" to show a trump)
        #     {"player": 1, "type": "take"},
        #     {"player": 0, "type": "done"},
        #     {"player": 0, "type": "exchange"}]}
        # An empty list means the game is over.
        return {"actions": [action.to_json() for action in legal_actions(game)]}

    if cmd == "apply":
        # Request:  {"id": 5, "cmd": "apply", "action": {"player": 1, "type": "take"}}
        # Response: {"id": 5, "ok": true, "accepted": true}
        #      or:  {"id": 5, "ok": true, "accepted": false,
        #            "reason": "only the defender P1 can take", "rule": "TAKE-1"}
        # A rejected action changes nothing. "rule" may be null.
        # With capabilities.events, an accepted answer also says what happened, in order,
        # each event naming the rule that decided it, for example after a take:
        #     "events": [{"type": "action", "action": {...}, "rule": "TAKE-1"},
        #                {"type": "bout-ended", "bout": 3, "result": "taken", "taker": 1,
        #                 "cards": ["7♣", "7♦"], "rule": "ATTACK-5"},
        #                {"type": "draw", "player": 0, "cards": ["K♠"], "rule": "DRAW-2"},
        #                {"type": "next-bout", "bout": 4, "attacker": 0, "defender": 1,
        #                 "rule": "ORDER-5"}]
        action = action_from_json(request["action"])
        try:
            check(game, action)                                        # <- your engine
        except IllegalAction as error:
            return {"accepted": False, "reason": error.reason, "rule": error.rule}
        step = advance(game, action)                                   # <- your engine
        game = step.state
        return {"accepted": True, "events": step.to_json()}

    if cmd == "state":
        # Request:  {"id": 6, "cmd": "state"}
        # Response: {"id": 6, "ok": true, "report": {...}}
        return {"report": report(game)}

    raise DurakError(f"unknown command {cmd!r}")


def main() -> int:
    # Read and write UTF-8 whatever the locale says: cards carry suit symbols.
    with open(sys.stdin.fileno(), encoding="utf-8", errors="replace", closefd=False) as stdin, \
            open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False) as stdout:
        for line in stdin:
            if not line.strip():
                continue                                    # blank lines are ignored
            response, last = respond(line)
            # One line per response, flushed at once: the checker is waiting for it.
            stdout.write(json.dumps(response, ensure_ascii=False) + "\n")
            stdout.flush()
            if last:
                break
    return 0  # "quit", or the end of the input: exit quietly


def respond(line: str) -> tuple[dict[str, Any], bool]:
    """The response to one request line, and whether it was the last ("quit")."""
    try:
        request = json.loads(line)
        ident = request["id"]
    except (ValueError, TypeError, KeyError):
        # Not a request we can read: answer with a null id.
        return {"id": None, "ok": False, "error": f"not a request: {line.strip()[:200]}"}, False
    if request.get("cmd") == "quit":
        # Request: {"id": 7, "cmd": "quit"}; response {"id": 7, "ok": true}; then exit.
        return {"id": ident, "ok": True}, True
    try:
        return {"id": ident, "ok": True, **handle(request)}, False
    except (DurakError, KeyError, TypeError, ValueError) as error:
        # The engine cannot serve this request (not an illegal action: those are answered
        # by "apply"). "rule" names the broken rule where there is one.
        response = {"id": ident, "ok": False, "error": str(error)}
        rule = getattr(error, "rule", None)
        if rule is not None:
            response["rule"] = rule
        return response, False


if __name__ == "__main__":
    raise SystemExit(main())
