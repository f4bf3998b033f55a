"""durak-spec's engine protocol in front of the PyPI package ``durakgame`` 1.0.4 (MIT).

``durakgame`` (Artem Ibragimov, https://github.com/Artem-Goldenberg/Durak) is a two-player
Durak simulator: ``Game.generateOptions()`` lists the moves of the player to move and
``Game.process(move)`` plays one. This adapter only translates; every rule comes from the
package, unchanged:

* the deck: our deck order (six cards to seat 0, six to seat 1, then the stock in drawing
  order, its last card face up) is rewritten into the order ``Game`` deals from (one card
  to each player in turn, then the trump card, which it puts under the stock);
* the legal actions: the package's options for the player to move, in our notation
  (``OpeningMove`` is ``open``, ``AttackingMove`` ``throw``, ``DefensiveMove`` ``cover``
  of the last attack card, ``ForfeitingMove`` ``take``, ``EndingMove`` ``done``);
* after a take, the package lets the attacker add a *set* of cards at once
  (``FinishingMove``); our protocol adds one card at a time, so the adapter collects the
  ``throw`` actions and plays the set on ``done``. A card may be thrown while some option
  holds the cards collected so far and it;
* a move that is the player's only option (``EndingMove`` alone, or the collected set
  when nothing can be added) is played at once, as the specification ends a bout when
  nobody can add a card;
* the report: seat 0 is ``player1``; ``finished`` and ``durak`` are read from
  ``Game.isFinished`` and ``Game.result`` (a draw when both hands are empty).

Run it: ``durak-spec check --engine "python examples/adapters/durakgame/adapter.py"``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

try:
    import durakgame as dg  # type: ignore[import-untyped]
    from durakgame.game import Game  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - told to the checker in every answer
    dg = None

SUITS = {"♣": "Cross", "♦": "Diamond", "♥": "Heart", "♠": "Spade"}
SYMBOL = {name: symbol for symbol, name in SUITS.items()}
RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
VALUES = ["Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"]
ASCII = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# What durakgame plays, axis by axis (the values its code fixes; see README.md).
AXES = {
    "transfer": ["off"], "transfer_by_showing_trump": ["off"], "multi_card_opening": ["off"],
    "throw_in": ["attacker", "neighbours", "all"],  # two players: only the attacker throws
    "first_bout_limit_five": ["on"], "limit_reading": ["current-hand"],
    "draw_order": ["attacker-first"], "no_trump_lead": ["first-seat"],
    "trump_exchange": ["off"], "goal": ["last-holder-loses"], "turn_order": ["opener-first"],
}


def card_from_text(text: str) -> Any:
    suit = ASCII.get(text[-1].upper(), text[-1])
    rank = text[:-1].upper()
    rank = "10" if rank == "T" else rank
    if suit not in SUITS or rank not in RANKS:
        raise ValueError(f"not a card: {text!r}")
    return dg.Card(dg.CardValue[VALUES[RANKS.index(rank)]], dg.Suit[SUITS[suit]])


def card_text(card: Any) -> str:
    return RANKS[VALUES.index(card.value.name)] + SYMBOL[card.suit.name]


class Seat(dg.Player if dg is not None else object):  # type: ignore[misc]
    """A player whose moves come from the protocol, not from a strategy."""

    def nextMove(self, state: Any, options: list[Any]) -> int:
        raise RuntimeError("the adapter plays the moves itself")


class Adapter:
    def __init__(self) -> None:
        self.game: Any = None
        self.pending: list[Any] = []  # cards thrown in during a take, not yet played

    # -- positions -------------------------------------------------------------------
    def start(self, rules: dict[str, Any], deck: list[str]) -> dict[str, Any]:
        why = refusal(rules)
        if why is not None:
            return {"ok": False, "error": f"durakgame {why}"}
        cards = [card_from_text(text) for text in deck]
        if len(cards) != 36 or len(set(cards)) != 36:
            return {"ok": False, "rule": "DEAL-1",
                    "error": "a deck order holds each of the 36 cards once"}
        hands, stock = (cards[0:6], cards[6:12]), cards[12:]
        dealt = [card for pair in zip(*hands, strict=True) for card in pair]
        self.game = Game([*dealt, stock[-1], *stock[:-1]], Seat(), Seat())
        self.pending = []
        return {"report": self.report()}

    def load(self, state: dict[str, Any]) -> dict[str, Any]:
        """Set a Game's fields to a saved position (the package has no loader of its own).

        The package keeps the attack cards and the covers as two lists and always answers
        the last attack card: a position with a cover after an uncovered card cannot be
        written that way, and is declined.
        """
        why = refusal(state["rules"])
        if why is not None:
            return {"ok": False, "error": f"durakgame {why}", "declined": True}
        table = state["table"]
        covers = [cover for _, cover in table]
        covered = sum(cover is not None for cover in covers)
        if any(cover is None for cover in covers[:covered]) or \
                (not state["taking"] and len(table) - covered > 1):
            return {"ok": False, "declined": True,
                    "error": "durakgame answers only the last attack card: "
                             "this table cannot be written in its model"}
        stock = [card_from_text(text) for text in state["stock"]]
        hands = [[card_from_text(text) for text in hand] for hand in state["hands"]]
        filler = dg.standardDeck()  # Game deals from a deck; every field is replaced below
        g = Game(filler, Seat(), Seat())
        g.player1.hand[:], g.player2.hand[:] = hands
        g.deck = stock
        trump_suit = dg.Suit[SUITS[ASCII.get(state["trump"], state["trump"])]]
        g.trump = stock[-1] if stock else dg.Card(dg.CardValue.Six, trump_suit)
        g.table.attack[:] = [card_from_text(attack) for attack, _ in table]
        g.table.defense[:] = [card_from_text(cover) for cover in covers[:covered]]
        g.table.isForfeited = bool(state["taking"])
        g.discardPile = {card_from_text(text) for text in state["discard"]}
        g.turn = dg.Switch.First if state["attacker"] == 0 else dg.Switch.Second
        defending = table and not state["taking"] and covered < len(table)
        g.move = g.turn.toggled() if defending else g.turn
        self.game = g
        self.pending = []
        self.forced()
        return {"report": self.report()}

    def seat(self, player: Any) -> int:
        return 0 if player is self.game.player1 else 1

    def report(self) -> dict[str, Any]:
        g = self.game
        attacker = 0 if g.turn == dg.Switch.First else 1
        over = g.isFinished
        finished: list[list[int]] = []
        durak = None
        if over:
            empty = [seat for seat, p in enumerate((g.player1, g.player2)) if not p.hand]
            finished = [empty]
            durak = None if len(empty) == 2 else 1 - empty[0]
        table = [[card_text(a), card_text(g.table.defense[i]) if i < len(g.table.defense)
                  else None] for i, a in enumerate(g.table.attack)]
        # Cards thrown in during a take lie on the table until the set is played on "done".
        table += [[card_text(card), None] for card in self.pending]
        hands = [[card_text(c) for c in p.hand if c not in self.pending]
                 for p in (g.player1, g.player2)]
        return {
            "hands": hands,
            "table": table, "stock": len(g.deck), "trump": SYMBOL[g.trump.suit.name],
            "face_up": card_text(g.deck[-1]) if g.deck else None,
            "discard": len(g.discardPile), "attacker": attacker, "defender": 1 - attacker,
            "taking": g.table.isForfeited, "finished": finished, "over": over,
            "durak": durak,
        }

    # -- moves -----------------------------------------------------------------------
    def options(self) -> list[Any]:
        return [] if self.game.isFinished else self.game.generateOptions()

    def legal(self) -> list[dict[str, Any]]:
        g = self.game
        options = self.options()
        if not options:
            return []
        seat = self.seat(g.currentPlayer)
        actions: list[dict[str, Any]] = []
        if isinstance(options[0], dg.FinishingMove):
            for card in g.currentPlayer.hand:
                if card not in self.pending and self.finishing([*self.pending, card]):
                    actions.append({"player": seat, "type": "throw", "card": card_text(card)})
            return [*actions, {"player": seat, "type": "done"}]
        for move in options:
            if isinstance(move, dg.OpeningMove):
                actions.append({"player": seat, "type": "open", "cards": [card_text(move.card)]})
            elif isinstance(move, dg.AttackingMove):
                actions.append({"player": seat, "type": "throw", "card": card_text(move.card)})
            elif isinstance(move, dg.DefensiveMove):
                actions.append({"player": seat, "type": "cover",
                                "attack": card_text(g.table.attack[-1]),
                                "card": card_text(move.card)})
            elif isinstance(move, dg.ForfeitingMove):
                actions.append({"player": seat, "type": "take"})
            elif isinstance(move, dg.EndingMove):
                actions.append({"player": seat, "type": "done"})
        return actions

    def finishing(self, cards: list[Any]) -> Any:
        """The package's FinishingMove of exactly these cards, if it offers one."""
        for move in self.options():
            if isinstance(move, dg.FinishingMove) and sorted(move.cards) == sorted(cards):
                return move
        return None

    def apply(self, action: dict[str, Any]) -> dict[str, Any]:
        action = normal(action)
        if action not in self.legal():
            return {"accepted": False, "reason": "not among durakgame's options now",
                    "rule": None}
        g = self.game
        kind = action["type"]
        options = self.options()
        if isinstance(options[0], dg.FinishingMove):
            if kind == "throw":
                self.pending.append(card_from_text(action["card"]))
            else:
                g.process(self.finishing(self.pending))
                self.pending = []
        else:
            g.process(next(move for move in options if self.matches(move, action)))
        self.forced()
        return {"accepted": True}

    @staticmethod
    def matches(move: Any, action: dict[str, Any]) -> bool:
        kind = action["type"]
        if isinstance(move, dg.OpeningMove):
            return bool(kind == "open" and [card_text(move.card)] == action["cards"])
        if isinstance(move, dg.AttackingMove):
            return bool(kind == "throw" and card_text(move.card) == action["card"])
        if isinstance(move, dg.DefensiveMove):
            return bool(kind == "cover" and card_text(move.card) == action["card"])
        if isinstance(move, dg.ForfeitingMove):
            return bool(kind == "take")
        return isinstance(move, dg.EndingMove) and kind == "done"

    def forced(self) -> None:
        """Play a move that is the player's only option: the bout ends by itself."""
        while True:
            options = self.options()
            if len(options) == 1 and isinstance(options[0], dg.EndingMove):
                self.game.process(options[0])
            elif options and isinstance(options[0], dg.FinishingMove) and \
                    [a["type"] for a in self.legal()] == ["done"]:
                self.game.process(self.finishing(self.pending))
                self.pending = []
            else:
                return


def normal(action: dict[str, Any]) -> dict[str, Any]:
    """The action with its cards written as this adapter writes them (7♣, not 7C)."""
    action = dict(action)
    for key in ("card", "attack"):
        if key in action:
            action[key] = card_text(card_from_text(action[key]))
    if "cards" in action:
        action["cards"] = [card_text(card_from_text(text)) for text in action["cards"]]
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
    if dg is None:
        return {"ok": False, "error": "durakgame is not installed: pip install durakgame==1.0.4"}
    if cmd == "hello":
        return {"protocol": 1, "name": "durakgame (adapter)", "version": "1.0.4",
                "profiles": [], "players": [2], "axes": AXES,
                "capabilities": {"load": True, "turn_order": ["opener-first"]}}
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
    adapter = Adapter()
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
