"""The engine: the rules of Durak as pure functions of a state (layer 4).

This module is the only place where rules are decided. ``legal_actions`` lists what
every player may do now; ``check`` explains with a rule ID why an action is not among
them; ``apply`` plays a legal action and returns the next state, ending bouts, drawing
and finding the next attacker by itself.

The bout protocol (ATTACK-4, ATTACK-5, CLAR-3), decided by this specification:

* Between bouts only the attacker acts: they open the bout (or exchange the trump six
  first, where VAR-1 allows).
* After the opening, the defender and every player allowed to throw in act in any
  order, first come first served, as at a real table; ``legal_actions`` lists the
  actions of all of them.
* An attacker says ``done`` only once every attack card is covered or the defender
  has announced a take. A ``done`` stands until the defender moves again (a cover, a
  transfer or a take); a player who said done cannot add cards until then.
* A player who has no card they may add is never asked: they need not say done.
* The bout ends as soon as every attack card is covered (or a take is announced) and
  every attacker who could still add a card has said done.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from durak_spec.core.cards import DECK, Card, Rank, Suit, format_cards
from durak_spec.core.errors import IllegalAction, InvalidState
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
from durak_spec.model.rules import (
    FIRST_BOUT_MAX_ATTACK_CARDS,
    HAND_SIZE,
    MAX_ATTACK_CARDS,
    DrawOrder,
    LimitReading,
    NoTrumpLead,
    RuleSet,
)
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.state import GameState, Pair, card_key, sort_cards

__all__ = [
    "apply",
    "attack_limit",
    "beats",
    "check",
    "deal",
    "first_attacker",
    "is_legal",
    "legal_actions",
    "new_game",
    "throwers",
    "validate_state",
]


# -- beating ----------------------------------------------------------------------------


def beats(card: Card, attack: Card, trump: Suit) -> bool:
    """Whether ``card`` beats ``attack`` when ``trump`` is trump (BEAT-1 .. BEAT-5).

    A higher card of the same suit beats (BEAT-1); a trump beats any non-trump
    (BEAT-2); a trump falls only to a higher trump (BEAT-3), so the trump ace to
    nothing (BEAT-4); nothing else beats (BEAT-5).
    """
    if card.suit == attack.suit:
        return card.rank > attack.rank
    return card.suit == trump


def _why_not_beats(card: Card, attack: Card, trump: Suit) -> IllegalAction:
    if attack.suit == trump:
        if attack.rank == Rank.ACE:
            return IllegalAction("BEAT-4", f"{card} does not beat {attack}: the ace of trumps "
                                 "cannot be beaten")
        return IllegalAction("BEAT-3", f"{card} does not beat {attack}: a trump is beaten only "
                             "by a higher trump")
    if card.suit == attack.suit:
        return IllegalAction("BEAT-5", f"{card} does not beat {attack}: a card of the same suit "
                             "must be higher")
    return IllegalAction("BEAT-5", f"{card} does not beat {attack}: a card of another suit "
                         f"beats only if it is a trump ({trump.symbol})")


# -- who plays ----------------------------------------------------------------------------


def _next_in(state: GameState, seat: int, out: frozenset[int] | None = None) -> int:
    """The next seat to the left of ``seat`` that is still in the game (ORDER-3, ORDER-6)."""
    if out is None:
        out = state.out
    n = len(state.hands)
    if not out:  # everyone is still in (the usual case)
        return (seat + 1) % n
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if candidate not in out:
            return candidate
    return seat


def throwers(state: GameState) -> tuple[int, ...]:
    """The seats allowed to add attack cards to the bout in play (ATTACK-4), in seat order.

    Never the defender; whether they hold a fitting card is not considered here.
    """
    rule = state.rules.throw_in
    defender = state.defender
    if rule is _ALL and not state.finished:  # the common case first, from a table
        return _ALL_BUT[len(state.hands)][defender]
    if rule is ThrowInRule.ATTACKER:
        seats = {state.attacker}
    elif rule is ThrowInRule.NEIGHBOURS:
        seats = {state.attacker, _next_in(state, defender)}
    else:
        out = state.out
        seats = {p for p in range(len(state.hands)) if p not in out}
    seats.discard(defender)
    return tuple(sorted(seats))


_ALL = ThrowInRule.ALL
_ALL_BUT = {n: [tuple(p for p in range(n) if p != d) for d in range(n)] for n in range(2, 7)}


# -- limits -------------------------------------------------------------------------------


def attack_limit(state: GameState) -> tuple[int, str]:
    """The most attack cards the bout in play may hold now, and the rule that sets it.

    Six at most (LIMIT-1), five in the first bout where LIMIT-3 is on, and never more
    than the defender's hand allows under the rule set's reading of LIMIT-2: the
    uncovered cards may not exceed the cards the defender holds now (current-hand), or
    all attack cards may not exceed the defender's hand at the bout's start
    (start-hand).
    """
    rules = state.rules
    limit, rule = MAX_ATTACK_CARDS, "LIMIT-1"
    if rules.first_bout_limit_five and state.bout == 0:
        limit, rule = FIRST_BOUT_MAX_ATTACK_CARDS, "LIMIT-3"
    if rules.limit_reading is LimitReading.CURRENT_HAND:
        covered = 0
        for pair in state.table:
            if pair.cover is not None:
                covered += 1
        by_hand = covered + len(state.hands[state.defender])
    else:
        by_hand = state.start_hands[state.defender]
    if by_hand < limit:
        limit, rule = by_hand, "LIMIT-2"
    if not state.hands[state.defender] and state.table:
        # CLAR-13: nothing is added against a defender who has no cards left (this matters
        # only for the start-hand reading, after a transfer came back to this player).
        return len(state.table), "CLAR-13"
    return limit, rule


def _limit_reason(state: GameState, rule: str, limit: int) -> str:
    if rule == "CLAR-13":
        return f"the defender P{state.defender} has no cards left, so nothing more is added"
    if rule == "LIMIT-2":
        if state.rules.limit_reading is LimitReading.CURRENT_HAND:
            return (f"the defender P{state.defender} holds {len(state.hands[state.defender])} "
                    "cards, so no more attack cards may be uncovered")
        return (f"the defender P{state.defender} held {state.start_hands[state.defender]} cards "
                f"at the start of the bout, so at most {limit} attack cards are allowed")
    if rule == "LIMIT-3":
        return "the first bout of the game allows at most five attack cards"
    return "a bout allows at most six attack cards"


# -- the deal -----------------------------------------------------------------------------


def first_attacker(hands: Sequence[Sequence[Card]], trump: Suit, rules: RuleSet,
                   seed: int | None = None) -> tuple[int, str]:
    """Who attacks first, and why: the lowest trump (ORDER-1), else ORDER-2's choice."""
    best: tuple[Rank, int] | None = None
    for seat, hand in enumerate(hands):
        for card in hand:
            if card.suit == trump and (best is None or card.rank < best[0]):
                best = (card.rank, seat)
    if best is not None:
        rank, seat = best
        return seat, f"P{seat} holds the lowest trump, {Card(rank, trump)} (ORDER-1)"
    if rules.no_trump_lead is NoTrumpLead.FIRST_SEAT:
        return 0, "nobody holds a trump, so the first seat attacks (ORDER-2)"
    seat = random.Random(seed).randrange(len(hands))
    return seat, f"nobody holds a trump, so chance picked P{seat} (ORDER-2)"


_FULL_DECK: Counter[Card] = Counter(DECK)


def deal(rules: RuleSet, seed: int | None = None) -> tuple[Card, ...]:
    """A shuffled deck order for ``new_game`` (a fixed seed gives a fixed order)."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def new_game(rules: RuleSet, *, seed: int | None = None,
             deck: Iterable[Card] | None = None) -> GameState:
    """The state after the deal.

    ``deck`` lists all 36 cards in the order they leave the deck (CLAR-10): six to each
    seat in turn, then the stock in drawing order, whose last card is the face-up trump
    (DEAL-5, DEAL-6). With six players every card is dealt; the last card dealt, which
    stays in the sixth seat's hand, shows trump (DEAL-8). Without ``deck`` the deck is
    shuffled with ``seed``, which also settles ORDER-2's chance (seed 0 when a deck is given
    without one, so a stacked deal is always reproducible).
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"new_game needs a RuleSet, not {type(rules).__name__}")
    order = tuple(deck) if deck is not None else deal(rules, seed)
    counts = Counter(order) if deck is not None else _FULL_DECK
    if deck is not None and (len(order) != len(DECK) or counts.keys() != _FULL_DECK.keys()):
        twice = [c for c, k in counts.items() if k > 1]
        missing = [c for c in DECK if c not in counts]
        detail = "; ".join(part for part in (
            f"twice: {format_cards(twice)}" if twice else "",
            f"missing: {format_cards(missing)}" if missing else "") if part)
        raise InvalidState("DEAL-1", f"a deck order must hold each of the 36 cards once, "
                           f"it holds {len(order)} cards" + (f" ({detail})" if detail else ""))
    n = rules.players
    hands = tuple(sort_cards(order[HAND_SIZE * s:HAND_SIZE * (s + 1)]) for s in range(n))
    stock = order[HAND_SIZE * n:]
    trump = order[-1].suit
    known = [frozenset[Card]() for _ in range(n)]
    if n == 6:
        known[5] = frozenset({order[-1]})
    attacker, _ = first_attacker(hands, trump, rules, 0 if seed is None else seed)
    state = GameState(
        rules=rules, hands=hands, stock=stock, trump=trump, attacker=attacker,
        defender=(attacker + 1) % n, opener=attacker, start_hands=tuple(len(h) for h in hands),
        known=tuple(known),
    )
    return state


# -- legal actions --------------------------------------------------------------------------


def _table_ranks(table: tuple[Pair, ...]) -> set[Rank]:
    """The ranks on the table, attack and cover cards alike (ATTACK-3)."""
    ranks = set()
    for pair in table:
        ranks.add(pair.attack.rank)
        if pair.cover is not None:
            ranks.add(pair.cover.rank)
    return ranks


def _pending(state: GameState) -> tuple[int, ...]:
    """Attackers who could still add a card and have not said done (CLAR-3)."""
    ranks = _table_ranks(state.table)
    passed = state.passed
    hands = state.hands
    pending = []
    for seat in throwers(state):
        if seat not in passed:
            for c in hands[seat]:
                if c.rank in ranks:
                    pending.append(seat)
                    break
    if not pending or len(state.table) >= attack_limit(state)[0]:
        return ()
    return tuple(pending)


def _new_defender_for_transfer(state: GameState) -> int:
    return _next_in(state, state.defender)


def _transfer_room(state: GameState) -> tuple[int, str]:
    """Most attack cards a transfer may leave on the table (TRANSFER-4, LIMIT-3/4)."""
    if state.rules.first_bout_limit_five and state.bout == 0:
        return FIRST_BOUT_MAX_ATTACK_CARDS, "LIMIT-3"
    return MAX_ATTACK_CARDS, "TRANSFER-4"


# Every single-card action object exists once: legal_actions hands out these shared,
# immutable instances instead of building new ones for every position.
_SEATS = range(6)
_OPEN1 = [{c: Open(s, (c,)) for c in DECK} for s in _SEATS]
_THROW = [{c: ThrowIn(s, c) for c in DECK} for s in _SEATS]
_COVER = [{a: {c: Cover(s, a, c) for c in DECK} for a in DECK} for s in _SEATS]
_TRANSFER = [{c: Transfer(s, c) for c in DECK} for s in _SEATS]
_SHOW = [{c: Transfer(s, c, show=True) for c in DECK} for s in _SEATS]
_TAKE = [Take(s) for s in _SEATS]
_DONE = [Done(s) for s in _SEATS]
_EXCHANGE = [ExchangeTrump(s) for s in _SEATS]


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of every player who may act now, in a stable order.

    Actions are grouped by seat (ascending), then by kind (open, throw, cover, transfer,
    show, take, done, exchange), then by cards in canonical order. The game is over when
    this is empty.
    """
    global _last, _handoff
    if _handoff[0] is state:  # _settle has just worked this out for the state apply returned
        result = _handoff[1]
        _handoff = _NO_HANDOFF  # once only: asking again computes afresh
        _last = (state, result)
        return result
    if state.finished and state.is_over:
        return ()
    hands = state.hands
    rules = state.rules
    table = state.table
    actions: list[Action]
    if not table:
        seat = state.attacker
        hand = hands[seat]
        opens = _OPEN1[seat]
        actions = [opens[c] for c in hand]
        if rules.multi_card_opening:
            limit, _ = attack_limit(state)
            by_rank: dict[Rank, list[Card]] = {}
            for c in hand:
                by_rank.setdefault(c.rank, []).append(c)
            for group in by_rank.values():
                for size in range(2, min(len(group), limit) + 1):
                    actions.extend(Open(seat, combo) for combo in combinations(group, size))
            actions.sort(key=Action.sort_key)
        if rules.trump_exchange and _can_exchange(state, seat):
            actions.append(_EXCHANGE[seat])
        result = tuple(actions)
        _last = (state, result)
        return result

    defender = state.defender
    uncovered: list[Card] = []
    ranks: set[Rank] = set()
    for attack, cover in table:
        ranks.add(attack.rank)
        if cover is None:
            uncovered.append(attack)
        else:
            ranks.add(cover.rank)
    mine: list[Action] = []
    if not state.taking:
        hand = hands[defender]
        trump = state.trump
        uncovered.sort()
        covers_by_attack = _COVER[defender]
        # Local names for the inner loop; beats is looked up on each call (tests patch it).
        beats_ = beats
        add = mine.append
        for attack in uncovered:
            covers = covers_by_attack[attack]
            for c in hand:
                if beats_(c, attack, trump):
                    add(covers[c])
        if rules.transfer and len(uncovered) == len(table):
            mine.extend(_transfers(state))
        if uncovered:
            mine.append(_TAKE[defender])
    adds_by_seat: dict[int, list[Action]] = {}
    quiet = state.taking or not uncovered
    passed = state.passed
    for seat in throwers(state):
        if seat in passed:
            continue
        throws = _THROW[seat]
        adds: list[Action] = [throws[c] for c in hands[seat] if c.rank in ranks]
        if adds:
            if quiet:
                adds.append(_DONE[seat])
            adds_by_seat[seat] = adds
    if adds_by_seat and len(table) >= attack_limit(state)[0]:
        adds_by_seat = {}  # LIMIT-*: no room for another attack card
    if not adds_by_seat:
        result = tuple(mine)
    else:
        actions = []
        for seat in range(len(hands)):
            if seat == defender:
                actions.extend(mine)
            elif seat in adds_by_seat:
                actions.extend(adds_by_seat[seat])
        result = tuple(actions)
    _last = (state, result)
    return result


_last: tuple[GameState | None, tuple[Action, ...]] = (None, ())
"""The last position ``legal_actions`` answered for, and its answer: ``apply`` on the same
state object need not check again an action that is among them."""

_NO_HANDOFF: tuple[GameState | None, tuple[Action, ...]] = (None, ())
_handoff = _NO_HANDOFF
"""The legal actions ``_settle`` found for the state ``apply`` is about to return, kept for
the next ``legal_actions`` call on that same state object, which takes them once."""


def _transfers(state: GameState) -> list[Action]:
    rank = state.table[0].attack.rank
    if any(p.attack.rank != rank for p in state.table):
        return []
    target = _new_defender_for_transfer(state)
    count = len(state.table)
    room, _ = _transfer_room(state)
    out: list[Action] = []
    hand = state.hands[state.defender]
    if count + 1 <= room and len(state.hands[target]) >= count + 1:
        transfers = _TRANSFER[state.defender]
        out.extend(transfers[c] for c in hand if c.rank == rank)
    if state.rules.transfer_by_showing_trump and count <= room and \
            len(state.hands[target]) >= count:
        shows = _SHOW[state.defender]
        out.extend(shows[c] for c in hand
                   if c.rank == rank and c.suit == state.trump and c not in state.shown)
    return out


def _can_exchange(state: GameState, seat: int) -> bool:
    face_up = state.face_up
    if not state.rules.trump_exchange or face_up is None or len(state.stock) < 2:
        return False
    return Card(Rank.SIX, state.trump) in state.hands[seat]


# -- checking one action ----------------------------------------------------------------


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal now."""
    try:
        check(state, action)
    except IllegalAction:
        return False
    return True


def _holds(state: GameState, seat: int, card: Card) -> None:
    if card not in state.hands[seat]:
        raise IllegalAction("CLAR-1", f"P{seat} does not hold {card}")


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalAction` naming the rule that ``action`` breaks; else return."""
    if not isinstance(action, Action):
        raise IllegalAction("CLAR-3", f"{action!r} is not an action")
    if state.finished and state.is_over:
        raise IllegalAction("CLAR-2", "the game is over; no one may act")
    seat = action.player
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.hands):
        raise IllegalAction("CLAR-3", f"there is no player P{seat} in a game of "
                            f"{len(state.hands)}")
    if seat in state.out:
        raise IllegalAction("END-1", f"P{seat} is out of the game and takes no part")
    if isinstance(action, Open):
        _check_open(state, action)
    elif isinstance(action, ExchangeTrump):
        _check_exchange(state, action)
    elif not state.table:
        raise IllegalAction("ATTACK-1", f"no bout is open: P{state.attacker} must open it "
                            "with a card first")
    elif isinstance(action, ThrowIn):
        _check_throw_in(state, action)
    elif isinstance(action, Cover):
        _check_cover(state, action)
    elif isinstance(action, Transfer):
        _check_transfer(state, action)
    elif isinstance(action, Take):
        _check_take(state, action)
    elif isinstance(action, Done):
        _check_done(state, action)
    else:  # pragma: no cover - every Action subclass is handled above
        raise IllegalAction("CLAR-3", f"{action} is not an action of this game")


def _check_open(state: GameState, action: Open) -> None:
    seat = action.player
    if state.table:
        raise IllegalAction("ATTACK-1", "this bout is already open; add cards by throwing in")
    if seat != state.attacker:
        raise IllegalAction("ATTACK-1", f"P{state.attacker} attacks now, not P{seat}")
    cards = action.played
    if not cards:
        raise IllegalAction("ATTACK-1", "a bout opens with at least one card")
    if len(set(cards)) != len(cards):
        raise IllegalAction("CLAR-1", f"{format_cards(cards)} names a card twice")
    for card in cards:
        _holds(state, seat, card)
    if len(cards) > 1:
        if not state.rules.multi_card_opening:
            raise IllegalAction("ATTACK-2", "these rules open a bout with a single card, "
                                f"not {len(cards)}")
        if len({c.rank for c in cards}) > 1:
            raise IllegalAction("ATTACK-2", f"an opening of several cards must be of one rank, "
                                f"not {format_cards(cards)}")
    limit, rule = attack_limit(state)
    if len(cards) > limit:
        raise IllegalAction(rule, f"{len(cards)} cards are too many: "
                            + _limit_reason(state, rule, limit))


def _check_exchange(state: GameState, action: ExchangeTrump) -> None:
    if not state.rules.trump_exchange:
        raise IllegalAction("VAR-1", "these rules have no trump exchange")
    six = Card(Rank.SIX, state.trump)
    if state.table or action.player != state.attacker:
        raise IllegalAction("CLAR-5", "only the attacker may exchange the trump, before "
                            "opening a bout")
    if state.face_up is None or len(state.stock) < 2:
        raise IllegalAction("CLAR-5", "the face-up trump can be exchanged only while at least "
                            "two cards remain in the stock")
    _holds(state, action.player, six)


def _check_throw_in(state: GameState, action: ThrowIn) -> None:
    seat = action.player
    if seat == state.defender:
        raise IllegalAction("ATTACK-4", "the defender never throws in")
    if seat not in throwers(state):
        who_may = state.rules.throw_in
        who = ("only the attacker" if who_may is ThrowInRule.ATTACKER else
               "only the attacker and the defender's left-hand neighbour")
        raise IllegalAction("ATTACK-4", f"P{seat} may not throw in: {who} may add cards "
                            f"(throw_in={who_may.value})")
    if seat in state.passed:
        raise IllegalAction("CLAR-3", f"P{seat} said done; they may add cards again only "
                            "after the defender's next move")
    _holds(state, seat, action.card)
    ranks = _table_ranks(state.table)
    if action.card.rank not in ranks:
        shown = " ".join(str(r) for r in sorted(ranks))
        raise IllegalAction("ATTACK-3", f"{action.card} cannot be thrown in: only ranks on the "
                            f"table ({shown}) may be added")
    limit, rule = attack_limit(state)
    if len(state.table) + 1 > limit:
        raise IllegalAction(rule, f"{action.card} would be attack card {len(state.table) + 1}: "
                            + _limit_reason(state, rule, limit))


def _check_cover(state: GameState, action: Cover) -> None:
    if action.player != state.defender:
        raise IllegalAction("BEAT-6", f"only the defender P{state.defender} covers attack cards")
    if state.taking:
        raise IllegalAction("CLAR-4", "the defender has announced a take and cannot cover now")
    pair = next((p for p in state.table if p.attack == action.attack), None)
    if pair is None:
        raise IllegalAction("BEAT-6", f"{action.attack} is not an attack card on the table")
    if pair.cover is not None:
        raise IllegalAction("BEAT-6", f"{action.attack} is already covered by {pair.cover}; "
                            "each attack card is covered once")
    _holds(state, action.player, action.card)
    if not beats(action.card, action.attack, state.trump):
        raise _why_not_beats(action.card, action.attack, state.trump)


def _check_transfer(state: GameState, action: Transfer) -> None:
    rules = state.rules
    if not rules.transfer:
        raise IllegalAction("TRANSFER-8", "the throw-in game has no transfer")
    if action.player != state.defender:
        raise IllegalAction("TRANSFER-1", f"only the defender P{state.defender} can transfer")
    if state.taking:
        raise IllegalAction("CLAR-4", "the defender has announced a take and cannot transfer")
    if any(p.cover is not None for p in state.table):
        raise IllegalAction("TRANSFER-5", "a card has been beaten in this bout, so the attack "
                            "can no longer be transferred")
    card = action.card
    if action.show:
        if not rules.transfer_by_showing_trump:
            raise IllegalAction("TRANSFER-7", "showing a trump does not transfer the attack in "
                                "these rules; play the card")
        if card.suit != state.trump:
            raise IllegalAction("TRANSFER-7", f"{card} is not a trump; only a trump can be shown")
        if card in state.shown:
            raise IllegalAction("CLAR-6", f"{card} has already been shown in this bout")
    _holds(state, action.player, card)
    ranks = {p.attack.rank for p in state.table}
    if ranks != {card.rank}:
        raise IllegalAction("TRANSFER-2", f"{card} does not match the rank of every attack "
                            f"card ({format_cards(state.attack_cards)})")
    count = len(state.table) + (0 if action.show else 1)
    room, rule = _transfer_room(state)
    if count > room:
        raise IllegalAction(rule, f"the transfer would put {count} attack cards on the table; "
                            f"at most {room} are allowed")
    target = _new_defender_for_transfer(state)
    if len(state.hands[target]) < count:
        held = len(state.hands[target])
        raise IllegalAction("TRANSFER-3", f"P{target} holds {held} card{'' if held == 1 else 's'}, "
                            f"too few to face {count} attack cards")


def _check_take(state: GameState, action: Take) -> None:
    if action.player != state.defender:
        raise IllegalAction("TAKE-1", f"only the defender P{state.defender} can take")
    if state.taking:
        raise IllegalAction("CLAR-4", "the defender has already announced a take")
    if not state.uncovered:
        raise IllegalAction("CLAR-4", "every attack card is covered: there is nothing to take")


def _check_done(state: GameState, action: Done) -> None:
    seat = action.player
    if seat == state.defender:
        raise IllegalAction("ATTACK-5", "the defender does not say done: they cover, "
                            "transfer or take")
    if seat not in throwers(state):
        raise IllegalAction("ATTACK-4", f"P{seat} is not attacking and has nothing to be "
                            "done with")
    if not state.taking and state.uncovered:
        raise IllegalAction("CLAR-3", "done is said once every attack card is covered; the "
                            "defender is still to move")
    if seat in state.passed:
        raise IllegalAction("CLAR-3", f"P{seat} has already said done")
    if seat not in _pending(state):
        raise IllegalAction("CLAR-3", f"P{seat} has no card to add and is not asked")


# -- applying an action ----------------------------------------------------------------------


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    gone = set(cards)
    return tuple([c for c in hand if c not in gone])


def _hands_without(hands: tuple[tuple[Card, ...], ...], seat: int, card: Card
                   ) -> tuple[tuple[Card, ...], ...]:
    """The hands after ``seat`` plays ``card``."""
    hand = hands[seat]
    i = hand.index(card)
    return (*hands[:seat], hand[:i] + hand[i + 1:], *hands[seat + 1:])


def _forget(known: tuple[frozenset[Card], ...], seat: int, cards: Iterable[Card]
            ) -> tuple[frozenset[Card], ...]:
    mine = known[seat]
    if not mine:
        return known
    left = mine.difference(cards)
    if len(left) == len(mine):
        return known
    return (*known[:seat], left, *known[seat + 1:])


def _with_hand(hands: tuple[tuple[Card, ...], ...], seat: int, hand: tuple[Card, ...]
               ) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1:])


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`IllegalAction` (state untouched) if illegal.

    When the action ends the bout, the table is cleared (DEFEND-1) or taken (TAKE-2),
    players draw (DRAW-*), players out of cards leave (END-1), and the next attacker and
    defender are found (ORDER-4/5/6).
    """
    last_state, last_actions = _last
    if last_state is state:
        for legal in last_actions:  # identity first: the shared action objects
            if legal is action:
                return _play(state, action)
        if action in last_actions:  # an equal action built elsewhere (e.g. decoded JSON)
            return _play(state, action)
    check(state, action)
    return _play(state, action)


_NOBODY: frozenset[int] = frozenset()
_NO_CARDS: frozenset[Card] = frozenset()
_new = tuple.__new__
# The hot path builds states positionally (about four times faster than _replace); the
# field order is GameState._fields, which tests/test_engine_fields.py pins.


def _play(state: GameState, action: Action) -> GameState:
    (rules, hands, stock, trump, table, discard, attacker, defender, opener, bout, taking,
     passed, joined, start_hands, shown, known, finished) = state
    seat = action.player
    if isinstance(action, Cover):
        card = action.card
        attack = action.attack
        i = 0
        while table[i].attack != attack:  # the pair it covers (check() made sure it is there)
            i += 1
        state = _new(GameState, (
            rules, _hands_without(hands, seat, card), stock, trump,
            (*table[:i], _new(Pair, (action.attack, card)), *table[i + 1:]), discard, attacker,
            defender, opener, bout, taking, _NOBODY, joined, start_hands, shown,
            _forget(known, seat, (card,)) if card in known[seat] else known, finished))
    elif isinstance(action, Open):
        cards = action.played
        if len(cards) == 1:
            new_hands = _hands_without(hands, seat, cards[0])
            table = (_new(Pair, (cards[0], None)),)
        else:
            new_hands = _with_hand(hands, seat, _remove(hands[seat], cards))
            table = tuple([_new(Pair, (c, None)) for c in cards])
        state = _new(GameState, (
            rules, new_hands, stock, trump, table, discard,
            attacker, defender, seat, bout, taking, passed, (seat,),
            tuple([len(h) for h in hands]), shown,
            _forget(known, seat, cards) if known[seat] else known, finished))
        return state  # an opening never ends a bout
    elif isinstance(action, ThrowIn):
        card = action.card
        state = _new(GameState, (
            rules, _hands_without(hands, seat, card), stock, trump,
            (*table, _new(Pair, (card, None))), discard, attacker, defender, opener, bout,
            taking, passed, joined if seat in joined else (*joined, seat), start_hands, shown,
            _forget(known, seat, (card,)) if card in known[seat] else known, finished))
    elif isinstance(action, Take):
        state = _new(GameState, (
            rules, hands, stock, trump, table, discard, attacker, defender, opener, bout, True,
            _NOBODY, joined, start_hands, shown, known, finished))
    elif isinstance(action, Done):
        state = _new(GameState, (
            rules, hands, stock, trump, table, discard, attacker, defender, opener, bout,
            taking, passed | {seat}, joined, start_hands, shown, known, finished))
    elif isinstance(action, Transfer):
        card = action.card
        target = _new_defender_for_transfer(state)
        if action.show:
            shown = shown | {card}
            if card not in known[seat]:
                known = (*known[:seat], known[seat] | {card}, *known[seat + 1:])
        else:
            hands = _hands_without(hands, seat, card)
            known = _forget(known, seat, (card,)) if card in known[seat] else known
            table = (*table, Pair(card))
        state = _new(GameState, (
            rules, hands, stock, trump, table, discard, seat, target, opener, bout, taking,
            _NOBODY, joined if seat in joined else (*joined, seat), start_hands, shown, known,
            finished))
    elif isinstance(action, ExchangeTrump):
        six = Card(Rank.SIX, trump)
        face_up = stock[-1]
        hand = sort_cards([c for c in hands[seat] if c != six] + [face_up])
        known = (*known[:seat], known[seat] - {six} | {face_up}, *known[seat + 1:])
        return state._replace(hands=_with_hand(hands, seat, hand), stock=(*stock[:-1], six),
                              known=known)
    return _settle(state)


def _settle(state: GameState) -> GameState:
    """End the bout if nobody has anything left to do in it (ATTACK-5, CLAR-3)."""
    if not state.taking:
        for pair in state.table:
            if pair.cover is None:
                return state
    # Every attack card is covered or taken, so the defender has nothing to do and the
    # actions left are exactly the throw-ins and dones of the attackers _pending() names.
    # Asking legal_actions instead lets the caller's next legal_actions call reuse them.
    global _handoff
    actions = legal_actions(state)
    if actions:
        _handoff = (state, actions)
        return state
    return _end_bout(state, taken=state.taking)


def _draw_order(state: GameState) -> list[int]:
    """The order in which players refill their hands after the bout (DRAW-2, CLAR-7/8)."""
    defender = state.defender
    clockwise = _CLOCKWISE[len(state.hands)][state.opener]
    if state.rules.draw_order is DrawOrder.JOIN_ORDER:
        first = [p for p in state.joined if p != defender]
        rest = [p for p in clockwise if p not in first and p != defender]
        return [*first, *rest, defender]
    order = [p for p in clockwise if p != defender]
    order.append(defender)
    return order


_CLOCKWISE = {n: [[(start + k) % n for k in range(n)] for start in range(n)] for n in range(2, 7)}


def _end_bout(state: GameState, taken: bool) -> GameState:
    """Clear or take the table, draw, let players out, and find the next roles."""
    (rules, hands_t, stock, trump, table, discard, attacker, defender, opener, bout, _,
     _, _, _, _, known_t, finished) = state
    hands = list(hands_t)
    known = list(known_t)
    table_cards = [c for pair in table for c in pair if c is not None]
    if taken:
        hands[defender] = tuple(sorted([*hands[defender], *table_cards]))
        known[defender] = known[defender].union(table_cards)  # VIEW-2
    else:
        discard = tuple(sorted([*discard, *table_cards]))  # DEFEND-1
    if stock:
        face_up = stock[-1] if rules.players < 6 else None
        for seat in _draw_order(state):  # DRAW-1, DRAW-2, DRAW-3
            need = HAND_SIZE - len(hands[seat])
            if need <= 0:
                continue
            drawn, stock = stock[:need], stock[need:]
            hands[seat] = tuple(sorted(hands[seat] + drawn))
            if not stock:  # DRAW-4, DRAW-5: the face-up trump went to this player
                if face_up is not None:
                    known[seat] = known[seat] | {face_up}
                break
    out = state.out if finished else _NOBODY
    if not stock:  # END-1: out of cards with the stock empty means out of the game
        gone = tuple([p for p in range(len(hands)) if p not in out and not hands[p]])
        if gone:
            finished = (*finished, gone)
            out = out | frozenset(gone)
    # With nobody out (the usual case) at least two players are in and the game goes on.
    rest = [p for p in range(len(hands)) if p not in out] if out else None
    if rest is not None and len(rest) <= 1:  # END-3, END-4: the game is over
        attacker = defender = opener = rest[0] if rest else attacker
    else:
        # ORDER-4: the defender attacks next; ORDER-5: a taker loses their turn to attack;
        # ORDER-6 / CLAR-15: a defender who went out passes it on to the next player in.
        attacker = _next_in(state, defender, out) if taken or defender in out else defender
        opener = attacker
        defender = _next_in(state, attacker, out)
    return _new(GameState, (
        rules, tuple(hands), stock, trump, (), discard, attacker, defender, opener, bout + 1,
        False, _NOBODY, (), tuple([len(h) for h in hands]), _NO_CARDS, tuple(known),
        finished))


# -- validation of hand-made states -----------------------------------------------------------


def validate_state(state: GameState) -> GameState:
    """Check that ``state`` could occur in a game; raise :class:`InvalidState` if not.

    This is the gate for positions made by hand (feature steps, saved games, external
    engines): all 36 cards exactly once, and hands, table and roles that the rules allow.
    Returns the state unchanged when it is valid.
    """
    if not isinstance(state, GameState):
        raise InvalidState("VAR-2", f"not a game state: {type(state).__name__}")
    if not isinstance(state.rules, RuleSet):
        raise InvalidState("VAR-2", "the state has no rule set")
    n = state.rules.players
    if len(state.hands) != n:
        raise InvalidState("DEAL-3", f"the rule set is for {n} players, "
                           f"but the state has {len(state.hands)} hands")
    if not isinstance(state.trump, Suit):
        raise InvalidState("DEAL-5", f"trump must be a suit, not {state.trump!r}")
    places: Counter[Card] = Counter()
    for hand in state.hands:
        places.update(hand)
    places.update(state.stock)
    places.update(state.table_cards())
    places.update(state.discard)
    for card in places:
        if not isinstance(card, Card) or card not in DECK:
            raise InvalidState("DEAL-1", f"{card!r} is not a card of the 36-card deck")
    twice = sorted((c for c, k in places.items() if k > 1), key=card_key)
    if twice:
        raise InvalidState("DEAL-1", f"{format_cards(twice)} "
                           f"{'is' if len(twice) == 1 else 'are'} in two places at once")
    total = sum(places.values())
    if total != len(DECK):
        missing = [c for c in DECK if c not in places]
        raise InvalidState("DEAL-1", f"the game holds {total} cards, not 36"
                           + (f"; missing: {format_cards(missing)}" if missing else ""))
    for seat, hand in enumerate(state.hands):
        if hand != sort_cards(hand):
            raise InvalidState("DEAL-4", f"P{seat}'s hand is not in canonical order")
    if state.discard != sort_cards(state.discard):
        raise InvalidState("DEFEND-1", "the discard pile is not in canonical order")
    if state.stock and n < 6 and state.stock[-1].suit != state.trump:
        raise InvalidState("DEAL-5", f"the face-up card {state.stock[-1]} under the stock is "
                           f"not a trump ({state.trump.symbol})")
    if n == 6 and state.stock:
        raise InvalidState("DEAL-8", "with six players all 36 cards are dealt: there is no "
                           "stock")
    if isinstance(state.bout, bool) or not isinstance(state.bout, int) or state.bout < 0:
        raise InvalidState("LIMIT-3", f"bout number {state.bout!r} is not a count")
    seats = range(n)
    out_list = [p for group in state.finished for p in group]
    if len(out_list) != len(set(out_list)) or any(p not in seats for p in out_list) or \
            any(not group for group in state.finished):
        raise InvalidState("END-1", f"finishing order {state.finished!r} is not a list of "
                           "groups of distinct seats")
    if out_list and state.stock:
        raise InvalidState("END-2", "a player is out while the stock still has cards")
    for p in out_list:
        if state.hands[p]:
            raise InvalidState("END-1", f"P{p} is out but holds {format_cards(state.hands[p])}")
    if len(state.known) != n or len(state.start_hands) != n:
        raise InvalidState("VIEW-2", "known cards and start hands need one entry per seat")
    for seat, known in enumerate(state.known):
        extra = known - set(state.hands[seat])
        if extra:
            raise InvalidState("VIEW-2", f"P{seat} is said to hold {format_cards(sorted(extra))} "
                               "publicly, but does not")
    if state.is_over:
        if state.table:
            raise InvalidState("END-6", "the game is over but cards lie on the table")
        return state
    for role, seat in (("attacker", state.attacker), ("defender", state.defender),
                       ("opener", state.opener)):
        if seat not in seats:
            raise InvalidState("ORDER-3", f"the {role} P{seat} is not a seat of {n} players")
        if seat in out_list:
            raise InvalidState("ORDER-6", f"the {role} P{seat} is already out")
    if state.attacker == state.defender:
        raise InvalidState("ORDER-3", f"P{state.attacker} cannot attack themselves")
    rest = state.in_game()
    expected = rest[(rest.index(state.attacker) + 1) % len(rest)]
    if state.defender != expected:
        raise InvalidState("ORDER-3", f"the defender must be the next player in the game after "
                           f"the attacker P{state.attacker}, that is P{expected}, "
                           f"not P{state.defender}")
    if len(state.table) > MAX_ATTACK_CARDS:
        raise InvalidState("LIMIT-1", f"{len(state.table)} attack cards lie on the table; "
                           "at most 6 are allowed")
    for pair in state.table:
        if pair.cover is not None and not beats(pair.cover, pair.attack, state.trump):
            raise InvalidState("BEAT-1", f"{pair.cover} does not beat {pair.attack}")
    if not state.table:
        if state.taking or state.passed or state.shown or state.joined:
            raise InvalidState("ATTACK-6", "no bout is open, yet a take, a done, a join or a "
                               "shown trump is recorded")
        if state.opener != state.attacker:
            raise InvalidState("ATTACK-1", "between bouts the next opener is the attacker")
        for seat in rest:
            if not state.hands[seat]:
                raise InvalidState("END-1", f"P{seat} holds no cards between bouts but is "
                                   "not out")
    else:
        if state.taking and not state.uncovered:
            raise InvalidState("CLAR-4", "a take is announced but every attack card is covered")
        if any(p not in seats or p == state.defender for p in state.passed):
            raise InvalidState("CLAR-3", "only attackers can have said done")
        if state.opener not in state.joined[:1]:
            raise InvalidState("ATTACK-1", "the opener must be the first to join the attack")
    on_table = set(state.table_cards())
    for card in state.shown:
        if card.suit != state.trump or not (
                card in on_table or any(card in hand for hand in state.hands)):
            raise InvalidState("TRANSFER-7", f"{card} is recorded as shown, but it is not a "
                               "trump in a player's hand or on the table")
    if state.table and (state.taking or not state.uncovered) and not _pending(state):
        raise InvalidState("ATTACK-5", "this bout is already over: every attack card is "
                           + ("taken" if state.taking else "covered")
                           + " and no attacker can add a card")
    return state
