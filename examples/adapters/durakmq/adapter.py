"""durak-spec's engine protocol in front of durakmq's ``durak.py`` (tirinox/durakmq, MIT).

durakmq (Maksim Koltsov, 2020) is a two-player Durak for phones and desktops (Kivy) played
over the local network. Its rules live in ``durak.py``: the class ``Durak`` deals, and
its methods ``attack``, ``defend`` and ``finish_turn`` play a move or refuse it
(``can_add_to_field``, ``can_beat``). Who may press the one button ("Бито" for the
attacker, "Взять карты!" for the defender) is decided in ``net_game.py``
(``NetworkDurakGame.finish_turn``) and ``main.py`` (``toggle_buttons``): the attacker ends
a bout only when every attack card is covered, the defender takes only while one is not.

This adapter loads ``durak.py`` from a checkout of the repository, unchanged, and only
translates:

* the deck: ``Durak(rng, deck)`` shuffles the deck it is given with ``rng``; the adapter
  passes a random source whose shuffle keeps the order. It deals six cards to seat 0,
  then six to seat 1 (as our deck order does), and turns up the first card of the rest
  that is not an ace, putting it under the stock: so the adapter puts our face-up card
  first, and the engine's own choice is kept when that card is an ace;
* the legal actions: each card of the hand of the seat that may act, asked of the
  engine's own predicates (``can_add_to_field`` for the attacker, ``can_beat`` for the
  defender against each uncovered card), plus "done" and "take" under the conditions of
  ``net_game.py``; both seats may act at once (the bout protocol ``free``);
* "done" is played by itself when it is the only action anybody has: durakmq's button
  "Бито" must be pressed even when the attacker holds nothing to add, where the
  specification closes the bout (CLAR-3);
* the report: durakmq keeps no discard pile (a beaten bout is just cleared), so the
  discard count is what is in no hand, on no table and not in the stock; the game is over
  once ``winner`` is set, and the other seat is the durak.

Run it: ``durak-spec check --engine "python examples/adapters/durakmq/adapter.py PATH"``,
PATH being the checkout (or set ``DURAKMQ``). See README.md.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

ASCII = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
AXES = {
    "transfer": ["off"], "transfer_by_showing_trump": ["off"], "multi_card_opening": ["off"],
    "throw_in": ["attacker", "neighbours", "all"],  # two players: only the attacker throws
    # durakmq has no cap on attack cards at all: the adapter claims both values so that
    # the checker compares it under every profile (the missing caps show as differences).
    "first_bout_limit_five": ["on", "off"], "limit_reading": ["current-hand"],
    "draw_order": ["attacker-first"], "no_trump_lead": ["first-seat"],
    "trump_exchange": ["off"], "goal": ["last-holder-loses"], "turn_order": ["free"],
}


def load_durak(checkout: str | None) -> Any:
    """The module ``durak.py`` of a durakmq checkout, or None if there is none."""
    if not checkout or not (Path(checkout) / "durak.py").is_file():
        return None
    spec = importlib.util.spec_from_file_location("durakmq_durak", Path(checkout) / "durak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class KeepOrder(random.Random):
    """A random source whose shuffle leaves the deck as it is (the deck is our order)."""

    def shuffle(self, x: Any, *args: Any) -> None:
        return None


def card(text: str) -> tuple[str, str]:
    suit = ASCII.get(text[-1].upper(), text[-1])
    rank = text[:-1].upper()
    return ("10" if rank == "T" else rank, suit)


def text(c: tuple[str, str]) -> str:
    return c[0] + c[1]


class Adapter:
    def __init__(self, durak: Any) -> None:
        self.durak = durak
        self.game: Any = None

    def start(self, rules: dict[str, Any], deck: list[str]) -> dict[str, Any]:
        why = refusal(rules)
        if why is not None:
            return {"ok": False, "error": f"durakmq {why}"}
        cards = [card(t) for t in deck]
        if len(cards) != 36 or len(set(cards)) != 36 or not set(cards) <= set(self.durak.DECK):
            return {"ok": False, "rule": "DEAL-1",
                    "error": "a deck order holds each of the 36 cards once"}
        stock = cards[12:]
        self.game = self.durak.Durak(rng=KeepOrder(), deck=[*cards[:12], stock[-1], *stock[:-1]])
        return {"report": self.report()}

    def load(self, state: dict[str, Any]) -> dict[str, Any]:
        why = refusal(state["rules"])
        if why is not None:
            return {"ok": False, "error": f"durakmq {why}", "declined": True}
        if state["taking"]:
            return {"ok": False, "declined": True,
                    "error": "durakmq takes at once: it has no position where a take is announced"}
        if state["finished"]:
            return {"ok": False, "declined": True,
                    "error": "durakmq has no position after a player has gone out"}
        g = self.durak.Durak(rng=KeepOrder(), deck=list(self.durak.DECK))
        for player, hand in zip(g.players, state["hands"], strict=True):
            player.cards = [card(t) for t in hand]
        g.deck = [card(t) for t in state["stock"]]
        trump = ASCII.get(state["trump"], state["trump"])
        g.trump = g.deck[-1] if g.deck else ("6", trump)
        g.field = {card(a): None if c is None else card(c) for a, c in state["table"]}
        g.attacker_index = state["attacker"]
        g.winner = None
        self.game = g
        self.forced()
        return {"report": self.report()}

    def report(self) -> dict[str, Any]:
        g = self.game
        hands = [[text(c) for c in p.cards] for p in g.players]
        table = [[text(a), None if d is None else text(d)] for a, d in g.field.items()]
        on_table = sum(1 + (d is not None) for d in g.field.values())
        over = g.winner is not None
        return {
            "hands": hands, "table": table, "stock": len(g.deck), "trump": g.trump_suit,
            "face_up": text(g.deck[-1]) if g.deck else None,
            "discard": 36 - sum(len(h) for h in hands) - on_table - len(g.deck),
            "attacker": g.attacker_index, "defender": (g.attacker_index + 1) % 2,
            "taking": False, "finished": [[g.winner]] if over else [], "over": over,
            "durak": 1 - g.winner if over else None,
        }

    def legal(self) -> list[dict[str, Any]]:
        g = self.game
        if g.winner is not None:
            return []
        attacker, defender = g.attacker_index, (g.attacker_index + 1) % 2
        actions: list[dict[str, Any]] = []
        for c in g.attacking_player.cards:
            if g.can_add_to_field(c):
                actions.append({"player": attacker, "type": "open", "cards": [text(c)]}
                               if not g.field else
                               {"player": attacker, "type": "throw", "card": text(c)})
        if g.field and not g.any_unbeaten_cards:  # net_game.py: "Бито"
            actions.append({"player": attacker, "type": "done"})
        for attack in g.unbeaten_cards:
            for c in g.defending_player.cards:
                if g.can_beat(attack, c):
                    actions.append({"player": defender, "type": "cover",
                                    "attack": text(attack), "card": text(c)})
        if g.field and g.any_unbeaten_cards:  # net_game.py: "Взять карты!"
            actions.append({"player": defender, "type": "take"})
        return actions

    def apply(self, action: dict[str, Any]) -> dict[str, Any]:
        action = normal(action)
        if action not in self.legal():
            return {"accepted": False, "reason": "durakmq does not allow it now", "rule": None}
        g = self.game
        kind = action["type"]
        if kind == "open":
            done = g.attack(card(action["cards"][0]))
        elif kind == "throw":
            done = g.attack(card(action["card"]))
        elif kind == "cover":
            done = g.defend(card(action["attack"]), card(action["card"]))
        else:  # done or take: the one button, finish_turn
            g.finish_turn()
            done = True
        if not done:
            return {"accepted": False, "reason": "durakmq refused the move", "rule": None}
        self.forced()
        return {"accepted": True}

    def forced(self) -> None:
        """Press "Бито" when it is the only thing anybody may do: the bout is over."""
        if [a["type"] for a in self.legal()] == ["done"]:
            self.game.finish_turn()


def normal(action: dict[str, Any]) -> dict[str, Any]:
    """The action with its cards written as this adapter writes them (7♣, not 7C)."""
    action = dict(action)
    for key in ("card", "attack"):
        if key in action:
            action[key] = text(card(action[key]))
    if "cards" in action:
        action["cards"] = [text(card(t)) for t in action["cards"]]
    return action


def refusal(rules: dict[str, Any]) -> str | None:
    if rules.get("players") != 2:
        return f"plays 2 players, not {rules.get('players')}"
    for axis, values in AXES.items():
        value = rules.get(axis)
        if isinstance(value, bool):
            value = "on" if value else "off"
        if value is not None and value not in values:
            return f"does not play {axis}={value}"
    return None


def handle(adapter: Adapter, request: dict[str, Any]) -> dict[str, Any] | None:
    cmd = request.get("cmd")
    if cmd == "quit":
        return None
    if adapter.durak is None:
        return {"ok": False, "error": "no durakmq checkout: give its folder as the argument "
                                      "or in DURAKMQ (see examples/adapters/durakmq/README.md)"}
    if cmd == "hello":
        return {"protocol": 1, "name": "durakmq (adapter)", "version": "d693b8a",
                "profiles": [], "players": [2], "axes": AXES,
                "capabilities": {"load": True}}
    if cmd == "start":
        return adapter.start(request["rules"], request["deck"])
    if cmd == "load":
        return adapter.load(request["state"])
    if adapter.game is None:
        return {"ok": False, "error": "no game yet: send start first"}
    if cmd == "legal":
        return {"actions": adapter.legal()}
    if cmd == "state":
        return {"report": adapter.report()}
    if cmd == "apply":
        return adapter.apply(request["action"])
    return {"ok": False, "error": f"unknown command {cmd!r}"}


def main() -> None:
    checkout = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("DURAKMQ")
    adapter = Adapter(load_durak(checkout))
    for line in sys.stdin:
        if not line.strip():
            continue
        request: dict[str, Any] = {}
        try:
            request = json.loads(line)
            answer = handle(adapter, request)
        except Exception as error:  # one bad request must not end the conversation
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        if answer is None:
            print(json.dumps({"id": request.get("id"), "ok": True}), flush=True)
            return
        print(json.dumps({"id": request.get("id"), "ok": True, **answer}, ensure_ascii=False),
              flush=True)


if __name__ == "__main__":
    main()
