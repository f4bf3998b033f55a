"""The heuristic player: follows the sources' tips, each of which can be switched off."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping

from durak_spec.core.cards import Card, Rank
from durak_spec.engine import beats, draw_order
from durak_spec.game.view import PlayerView
from durak_spec.model.actions import (
    Action,
    Cover,
    Done,
    ExchangeTrump,
    Open,
    Take,
    ThrowIn,
    Transfer,
)
from durak_spec.model.rules import HAND_SIZE
from durak_spec.play.bots.interface import BaseBot, BotError
from durak_spec.play.bots.knowledge import Knowledge, Memory, infer, strength
from durak_spec.play.bots.tips import ALL_TIPS, Tip


class HeuristicBot(BaseBot):
    """A player that follows the sources' tips; each tip can be switched off.

    ``tips`` are the tips it follows (default: all of them, :data:`ALL_TIPS`), given as
    :class:`Tip` members or rule IDs (``{"TIP-1", "TIP-2"}``). What each tip does is in
    :data:`TIP_NOTES`. Without any tip the bot still plays sensibly in one respect: it
    covers whenever it can and takes only when it must; which cards it plays is chance.

    The numbers that tune it are keyword arguments: ``big_stock`` (how many cards in the
    stock count as "early", TIP-2), ``throw_limit`` (the highest card score a thrower
    adds while the stock lasts), ``max_hand_after_take`` (the largest hand a take to save a
    trump may leave, TIP-11) and ``pair_weight``.

    The bot keeps a memory of the cards seen on the table (fed by ``observe`` and by every
    ``choose``); ``reset`` clears it. Give each seat its own bot object.
    """

    def __init__(self, tips: Iterable[Tip | str] = ALL_TIPS, *, name: str | None = None,
                 big_stock: int = 12, throw_limit: float = 5.0, max_hand_after_take: int = 8,
                 pair_weight: float = 2.0) -> None:
        self.tips: frozenset[Tip] = frozenset(Tip.parse(t) for t in tips)
        if name is None:
            name = "heuristic" if self.tips == ALL_TIPS else (
                "heuristic[" + ",".join(t.value for t in sorted(self.tips, key=_tip_order))
                + "]")
        self.name = name
        self.big_stock = big_stock
        self.throw_limit = throw_limit
        self.max_hand_after_take = max_hand_after_take
        self.pair_weight = pair_weight
        self._memory = Memory()

    def __repr__(self) -> str:
        tips = ", ".join(t.value for t in sorted(self.tips, key=_tip_order))
        return f"HeuristicBot(tips={{{tips}}}, name={self.name!r})"

    @property
    def memory(self) -> Memory:
        """The cards this bot has seen on the table in the game so far."""
        return self._memory

    def follows(self, tip: Tip | str) -> bool:
        """Whether this bot follows ``tip``."""
        return Tip.parse(tip) in self.tips

    def reset(self) -> None:
        self._memory = Memory()

    def observe(self, action: Action) -> None:
        self._memory.saw(action)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.playable:
            raise BotError(f"P{view.seat} has no legal action to choose from")
        self._memory.update(view)
        if len(view.playable) == 1:
            return view.playable[0]
        turn = _Turn(self, view, rng)
        if not view.table:
            return turn.open()
        if view.seat == view.defender:
            return turn.defend()
        return turn.add()


def _tip_order(tip: Tip) -> int:
    return int(tip.value.split("-")[1])


_UNBEATABLE_BONUS = 30.0
_TRUMP_SAVING = 20.0
_FACE_UP_WEIGHT = 3.0
_PRESSURE_EXTRA = 3.0
_RANK_THREAT_WEIGHT = 1.5
_TRANSFER_OVERHEAD = 1.0
_CHEAP_TABLE = 4  # strength of a ten: cards up to the ten count as cheap to take (TIP-2)
_CHEAP_TABLE_CARDS = 4
_SAVE_TRUMP_FROM = Rank.TEN  # TIP-2 saves trumps from the ten up; low trumps are spent


class _Turn:
    """One decision of a :class:`HeuristicBot`: the view, the scores, the inferences."""

    def __init__(self, bot: HeuristicBot, v: PlayerView, rng: random.Random) -> None:
        self.bot = bot
        self.v = v
        self.rng = rng
        self.tips = bot.tips
        self.trump = v.trump
        self._base: dict[Card, float] = {}
        self._know: Knowledge | None = None
        self.rank_count = Counter(c.rank for c in v.hand)

    # -- shared pieces ------------------------------------------------------------------

    def on(self, tip: Tip) -> bool:
        return tip in self.tips

    def base(self, card: Card) -> float:
        """The card's score before adjustments: its strength (TIP-1) or chance."""
        score = self._base.get(card)
        if score is None:
            if self.on(Tip.LOW_CARDS_FIRST):
                score = float(strength(card, self.trump))
            else:
                score = self.rng.uniform(0.0, 17.0)
            self._base[card] = score
        return score

    @property
    def know(self) -> Knowledge:
        if self._know is None:
            self._know = infer(self.v, self.bot._memory,
                                    remember_all=self.on(Tip.REMEMBER_CARDS),
                                    remember_trumps=self.on(Tip.COUNT_TRUMPS))
        return self._know

    def in_game(self) -> list[int]:
        out = self.v.out
        return [s for s in range(self.v.players) if s not in out]

    def next_seat(self, seat: int) -> int:
        n = self.v.players
        out = self.v.out
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if candidate not in out:
                return candidate
        return seat

    def defender_can_beat(self, card: Card) -> bool:
        return any(beats(c, card, self.trump) for c in self.know.possible(self.v.defender))

    def early(self) -> bool:
        return self.v.stock >= self.bot.big_stock

    # -- opening a bout -----------------------------------------------------------------

    def open(self) -> Action:
        v = self.v
        for action in v.playable:
            if isinstance(action, ExchangeTrump):
                return action  # the six of trumps for the face-up trump: always a gain
        best: Action | None = None
        best_score = math.inf
        for action in v.playable:
            if not isinstance(action, Open):
                continue
            scores = [self.attack_score(c) for c in action.played]
            score = max(scores) - 1.0 * (len(scores) - 1)
            if score < best_score:
                best, best_score = action, score
        return best if best is not None else v.playable[0]

    def attack_score(self, card: Card) -> float:
        score = self.base(card)
        if self.on(Tip.KEEP_PAIRS) and card.suit != self.trump and self.rank_count[card.rank] > 1:
            score -= self.bot.pair_weight
        if self.on(Tip.SAVE_TRUMPS) and card.suit == self.trump and self.early():
            score += _TRUMP_SAVING
        if self.on(Tip.UNBEATABLE_ENDGAME) and self.v.stock == 0 and not self.v.taking and \
                card.suit != self.trump and not self.defender_can_beat(card):
            score -= _UNBEATABLE_BONUS
        return score

    # -- throwing in ------------------------------------------------------------------------

    def add(self) -> Action:
        v = self.v
        throws = [a for a in v.playable if isinstance(a, ThrowIn)]
        done = next((a for a in v.playable if isinstance(a, Done)), None)
        if not throws:
            return done if done is not None else v.playable[0]
        if done is None:  # cannot happen under acting_seat; be safe anyway
            return min(throws, key=lambda a: self.attack_score(a.card))
        if v.seat != v.attacker and not self.on(Tip.THROW_IN_TOGETHER):
            return done
        best = min(throws, key=lambda a: self.attack_score(a.card))
        score = self.attack_score(best.card)
        limit = math.inf if v.stock == 0 else self.bot.throw_limit
        if self.on(Tip.THROW_IN_TOGETHER) and not v.taking and \
                v.hand_sizes[v.defender] <= 2:
            limit += _PRESSURE_EXTRA
        if self.on(Tip.WATCH_STOCK) and 0 < v.stock <= 2 * HAND_SIZE:
            limit += _FACE_UP_WEIGHT * self.face_up_gain()
        return best if score <= limit else done

    def face_up_gain(self) -> float:
        """+1 if throwing one more card brings the face-up trump to this seat, -1 if it
        takes it away, 0 if it changes nothing for this seat."""
        if self.v.face_up is None:
            return 0.0
        with_throw = self.last_drawer(extra=1)
        without = self.last_drawer(extra=0)
        if with_throw == without:
            return 0.0
        if with_throw == self.v.seat:
            return 1.0
        return -1.0 if without == self.v.seat else 0.0

    def last_drawer(self, extra: int) -> int | None:
        """Who draws the last stock card if this seat adds ``extra`` more cards now and the
        defender covers them (or, on a take, keeps a full hand)."""
        v = self.v
        sizes = list(v.hand_sizes)
        sizes[v.seat] -= extra
        uncovered = sum(1 for p in v.table if p.cover is None)
        if v.taking:
            sizes[v.defender] += len(v.table) + sum(1 for p in v.table if p.cover) + extra
        else:
            sizes[v.defender] -= uncovered + extra
        order = self.draw_order(joining=extra > 0)
        left = v.stock
        for seat in order:
            need = max(0, HAND_SIZE - sizes[seat])
            if need >= left:
                return seat if left > 0 else None
            left -= need
        return None

    def draw_order(self, joining: bool = False) -> tuple[int, ...]:
        """Who draws in which order after the bout (DRAW-2), by the engine's rule; with
        ``joining``, this seat adds a card first and so joins the attack (CLAR-8)."""
        v = self.v
        joined = (*v.joined, v.seat) if joining and v.seat not in v.joined else v.joined
        return draw_order(v.rules, v.opener, v.defender, joined, v.attacker)

    # -- defending ------------------------------------------------------------------------

    def defend(self) -> Action:
        v = self.v
        options: dict[Card, list[Card]] = {}
        transfers: list[Transfer] = []
        take: Take | None = None
        for action in v.playable:
            if isinstance(action, Cover):
                options.setdefault(action.attack, []).append(action.card)
            elif isinstance(action, Transfer):
                transfers.append(action)
            elif isinstance(action, Take):
                take = action
        uncovered = [p.attack for p in v.table if p.cover is None]
        plan = self.cover_plan(uncovered, options)
        transfer = self.best_transfer(transfers)
        if plan is None:
            if transfer is not None and self.transfer_allowed(transfer, must=True):
                return transfer
            return take if take is not None else v.playable[0]
        cost = sum(score for _, _, score in plan)
        if transfer is not None and self.transfer_cost(transfer) < cost and \
                self.transfer_allowed(transfer, must=False):
            return transfer
        if take is not None and self.on(Tip.SAVE_TRUMPS) and self.take_to_save_trump(plan):
            return take
        attack, card, _ = plan[0]
        return _cover_action(v, attack, card)

    def cover_score(self, card: Card, table_ranks: set[Rank]) -> float:
        score = self.base(card)
        if self.on(Tip.KEEP_PAIRS) and card.suit != self.trump and \
                self.rank_count[card.rank] > 1 and card.rank not in table_ranks:
            score += self.bot.pair_weight
        if self.on(Tip.WATCH_TABLE_RANKS) and card.rank not in table_ranks:
            score += _RANK_THREAT_WEIGHT * self.rank_threat(card.rank)
        return score

    def rank_threat(self, rank: Rank) -> float:
        """How many cards of ``rank`` the throwers may hold (0 … 3, capped)."""
        v = self.v
        know = self.know
        possible: set[Card] = set()
        for seat in self.in_game():
            if seat != v.defender:
                possible.update(c for c in know.possible(seat) if c.rank == rank)
        return float(min(3, len(possible)))

    def cover_plan(self, uncovered: list[Card], options: Mapping[Card, list[Card]]
                   ) -> list[tuple[Card, Card, float]] | None:
        """The cheapest way to cover every uncovered card (attack, cover, score), hardest
        attack first; ``None`` if they cannot all be covered."""
        if any(a not in options for a in uncovered):
            return None
        table_ranks = {p.attack.rank for p in self.v.table} | {
            p.cover.rank for p in self.v.table if p.cover is not None}
        order = sorted(uncovered, key=lambda a: (len(options[a]), -strength(a, self.trump)))
        ranked = {a: sorted(((self.cover_score(c, table_ranks), c) for c in options[a]),
                            key=lambda sc: (sc[0], sc[1])) for a in order}
        best: list[tuple[Card, Card, float]] | None = None
        best_cost = math.inf
        chosen: list[tuple[Card, Card, float]] = []
        used: set[Card] = set()
        budget = [2000]  # search steps: hands are small, this is never reached in practice

        def search(i: int, cost: float) -> None:
            nonlocal best, best_cost
            if cost >= best_cost or budget[0] <= 0:
                return
            budget[0] -= 1
            if i == len(order):
                best, best_cost = list(chosen), cost
                return
            attack = order[i]
            for score, card in ranked[attack]:
                if card in used:
                    continue
                used.add(card)
                chosen.append((attack, card, score))
                search(i + 1, cost + score)
                chosen.pop()
                used.discard(card)

        search(0, 0.0)
        return best

    def take_to_save_trump(self, plan: list[tuple[Card, Card, float]]) -> bool:
        """TIP-2: take a cheap table early rather than spend a trump on it."""
        v = self.v
        trumps = [card for _, card, _ in plan if card.suit == self.trump]
        if not self.early() or not trumps or max(trumps).rank < _SAVE_TRUMP_FROM:
            return False
        table = [c for p in v.table for c in (p.attack, p.cover) if c is not None]
        if len(table) > _CHEAP_TABLE_CARDS or any(
                c.suit == self.trump or strength(c, self.trump) > _CHEAP_TABLE for c in table):
            return False
        if self.on(Tip.MIND_HAND_SIZE) and \
                len(v.hand) + len(table) > self.bot.max_hand_after_take:
            return False  # TIP-11: the hand would grow too large to empty later
        if self.on(Tip.COUNT_TRUMPS):
            mine = sum(1 for c in v.hand if c.suit == self.trump)
            theirs: set[Card] = set()
            for seat in self.in_game():
                if seat != v.seat:
                    theirs.update(c for c in self.know.possible(seat) if c.suit == self.trump)
            if mine >= max(1, len(theirs)):
                return False  # trump-rich: spending one is cheap
        return True

    def best_transfer(self, transfers: list[Transfer]) -> Transfer | None:
        if not transfers:
            return None
        return min(transfers, key=self.transfer_cost)

    def transfer_cost(self, transfer: Transfer) -> float:
        if transfer.show:
            return _TRANSFER_OVERHEAD  # the trump stays in hand
        return self.base(transfer.card) + _TRANSFER_OVERHEAD

    def transfer_allowed(self, transfer: Transfer, *, must: bool) -> bool:
        if not self.on(Tip.CHECK_TRANSFER_TARGET):
            return True
        v = self.v
        target = self.next_seat(v.seat)
        attack_cards = len(v.table) + (0 if transfer.show else 1)
        if v.stock == 0 and v.hand_sizes[target] <= attack_cards + 2:
            if len(self.in_game()) <= 2:
                return False  # they could beat it all and go out: the game would be lost
            return must
        return True


def _cover_action(v: PlayerView, attack: Card, card: Card) -> Action:
    for action in v.playable:
        if isinstance(action, Cover) and action.attack == attack and action.card == card:
            return action
    return v.playable[0]  # pragma: no cover - the plan uses only playable covers
