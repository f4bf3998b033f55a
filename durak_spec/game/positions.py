"""Positions described the way players describe them, built into a validated game state.

A :class:`Position` is an immutable description that grows fact by fact, the way the
``Given`` steps of a scenario state it: the rules, the players by name, which suit is
trump, what each named player holds, what lies on the table, who attacks, how many
cards are left in the stock. :meth:`Position.build` turns the description into a
:class:`~durak_spec.model.state.GameState` that play can reach, or raises
:class:`PositionError` naming what is impossible about it and the rule it breaks.

Everything a description leaves open is filled in deterministically:

* **Rules**: the classic throw-in game (``classic-throw-in``); the number of players is
  the number of names, or two.
* **Players**: seats in the order named; without names, the players are Anna, Boris,
  Vera, Gleb, Dasha and Egor (as many as the rules need). Anna sits in seat 0 (``P0``).
* **Trump**: the suit of the face-up card if one is named, else the first of hearts,
  spades, diamonds, clubs of which no card is named.
* **Hands**: a player whose cards are not named holds six cards (seven, for the first
  such player, where six would leave an odd number of cards to the discard pile).
* **Stock**: everything not placed elsewhere lies in the stock, except when a player is
  out or six play (then the stock is empty and the rest is discarded), or when a player
  would have begun the bout in play with fewer than six cards (while the stock lasts,
  every bout starts with full hands, so the stock has run out). In the first bout nobody
  has drawn or discarded yet, so the stock holds ``36 - 6 × players`` cards; in a later
  bout somebody has drawn, so an open stock leaves at least one pair to the discard pile.
  The face-up trump, when not named, is the lowest trump not placed elsewhere.
* **Filler cards** (cards nobody named) are chosen to stay out of the way: non-trumps
  before trumps, ranks nobody named before named ranks, cards that beat no attack card
  on the table before those that would, low before high. The defender's hand is filled
  first, then the other seats in order, then the stock, then the discard pile. A
  scenario whose point depends on a whole hand names that hand's cards.
* **Roles**: the first player still in the game attacks; the defender is always the next
  player still in the game (ORDER-3); the attacker opened the bout in play.
* **Who laid the table**: the defender laid the covers; the opener the first attack card
  and, after a transfer, the attacker the second; any other attack card the first player
  allowed to add cards who would otherwise have begun the bout short of six, else the
  attacker. That fills in the hands at the bout's start (``start_hands``, LIMIT-2) and
  the order in which players joined the attack (``joined``, DRAW-2).
* **Bout**: a later bout of the game, unless the description says it is the first
  (LIMIT-3 caps the first bout at five attack cards in some rules) or names its number
  (:meth:`Position.with_bout`); a later bout is numbered as low as the discard pile, the
  cards drawn from the stock and the players out allow.
* **Known cards**: none (VIEW-2): a described position has no history of takes.

:meth:`Position.build` then asks the strict check,
:func:`~durak_spec.engine.reachable.check_reachable`: a description that play cannot
reach (a hand of five between bouts while the stock lasts, an odd discard pile, an added
card of a rank nobody laid) raises :class:`PositionError` with the rule it breaks.

The spoken forms of cards, card lists, tables and names are parsed here as well
(:func:`parse_card_list`, :func:`parse_table`, :func:`parse_names`), so that a mistyped card
fails with a message that names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from durak_spec.core.cards import DECK, Card, CardError, Rank, Suit, format_cards, parse_card
from durak_spec.core.errors import DurakError, InvalidState
from durak_spec.engine import bouts_allow, check_reachable, deck_order, next_in_game, whole_stock
from durak_spec.model.rules import (
    AXES,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RuleSet,
    RuleSetError,
    profile,
)
from durak_spec.model.rules import ThrowIn as ThrowInRule
from durak_spec.model.state import GameState, Pair, sort_cards

__all__ = [
    "DEFAULT_NAMES",
    "DEFAULT_PROFILE",
    "Position",
    "PositionError",
    "parse_card_list",
    "parse_names",
    "parse_one_card",
    "parse_table",
    "speak_seats",
]

DEFAULT_NAMES: tuple[str, ...] = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor")
"""The players' names when a scenario does not name them, seat 0 first."""

DEFAULT_PROFILE = "classic-throw-in"
_MOST_BOUTS_TRIED = 100  # bout numbers tried for a described position (a few suffice)
"""The rules when a scenario does not name any."""

TRUMP_PREFERENCE: tuple[Suit, ...] = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
"""The order in which a trump suit is chosen when a scenario does not say."""

_NAME = re.compile(r"[A-Z][a-z]+")
_LIST_SEPARATOR = re.compile(r"\s*,\s*|\s+and\s+|\s+")
_ITEM_SEPARATOR = re.compile(r"\s*,\s*|\s+and\s+")
_TABLE_ITEM = re.compile(
    r"(?P<attack>\S+)(?:\s+covered\s+by\s+(?P<cover>\S+)|\s+(?P<open>uncovered))?")
_DECK_LINE = re.compile(r"(?P<label>[A-Za-z][A-Za-z-]*)\s*:\s*(?P<cards>.*)")


class PositionError(DurakError):
    """A described position that cannot occur, or a description that cannot be read.

    ``reason`` says what is wrong in plain words; ``rule`` is the rule ID it breaks, when
    there is one (``"DEAL-1"`` for a card placed twice).
    """

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


# -- spoken forms ------------------------------------------------------------------------


def parse_card_list(text: str) -> tuple[Card, ...]:
    """Cards written as players write them: ``"7♣ 9♣ K♦"``, ``"7♣, 9♣ and K♦"``.

    >>> format_cards(parse_card_list("7♣, 9C and K♦"))
    '7♣ 9♣ K♦'
    """
    parts = [p for p in _LIST_SEPARATOR.split(text.strip()) if p]
    if not parts:
        raise PositionError("no cards are named")
    cards: list[Card] = []
    for part in parts:
        try:
            cards.append(parse_card(part))
        except CardError as error:
            raise PositionError(str(error)) from None
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise PositionError(f"{format_cards(twice)} is named twice in {text!r}", "DEAL-1")
    return tuple(cards)


def parse_one_card(text: str) -> Card:
    """One card, with the same clear errors as :func:`parse_card_list`."""
    cards = parse_card_list(text)
    if len(cards) != 1:
        raise PositionError(f"{text!r} names {len(cards)} cards where one is expected")
    return cards[0]


def parse_names(text: str) -> tuple[str, ...]:
    """Names written as a list: ``"Anna, Boris and Vera"``.

    >>> parse_names("Anna, Boris and Vera")
    ('Anna', 'Boris', 'Vera')
    """
    names = tuple(p for p in _ITEM_SEPARATOR.split(text.strip()) if p)
    for name in names:
        if not _NAME.fullmatch(name):
            raise PositionError(f"{name!r} is not a player's name: write a capitalised "
                                "name such as Anna")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PositionError(f"{', '.join(twice)} is named twice in {text!r}")
    return names


def parse_table(text: str) -> tuple[Pair, ...]:
    """A table written as players describe it.

    Items are separated by commas or "and"; each is an attack card, optionally followed by
    ``covered by <card>`` or ``uncovered``:

    >>> [str(p) for p in parse_table("7♣ covered by 9♣ and 8♦ uncovered")]
    ['7♣/9♣', '8♦']
    """
    pairs: list[Pair] = []
    for item in (i for i in _ITEM_SEPARATOR.split(text.strip()) if i):
        match = _TABLE_ITEM.fullmatch(item)
        if match is None:
            raise PositionError(f"{item!r} is not a table entry: write '7♣ covered by 9♣' "
                                "or '8♦ uncovered'")
        attack = parse_one_card(match["attack"])
        cover = parse_one_card(match["cover"]) if match["cover"] else None
        pairs.append(Pair(attack, cover))
    if not pairs:
        raise PositionError("no table cards are named")
    return tuple(pairs)


def _names_listing(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- the description ---------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A position as a scenario describes it; every ``with_*`` method returns a new one.

    Each method checks what it can on its own (a card named twice, an unknown rule axis);
    :meth:`build` checks the whole.
    """

    profile_name: str | None = None
    player_count: int | None = None
    overrides: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    players: tuple[str, ...] = ()
    trump: Suit | None = None
    face_up: Card | None = None
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))
    hand_sizes: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    table: tuple[Pair, ...] = ()
    attacker: str | None = None
    defender: str | None = None
    opener: str | None = None
    taker: str | None = None
    stock_size: int | None = None
    stock_top: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    discard_size: int | None = None
    out: tuple[str, ...] = ()
    first_bout: bool = False
    bout: int | None = None

    # -- rules and players ---------------------------------------------------------------

    def with_profile(self, name: str, players: int | None = None) -> Position:
        """Play by the named rule profile, optionally with a number of players."""
        try:
            profile(name)
        except RuleSetError as error:
            raise PositionError(str(error), "VAR-2") from None
        if players is not None:
            self._check_count(players)
        return replace(self, profile_name=name,
                       player_count=players if players is not None else self.player_count)

    def with_rule(self, axis: str, value: object) -> Position:
        """Change one axis of the rule set (``trump_exchange`` on, ``throw_in`` neighbours)."""
        known = {a.name: a for a in AXES}
        if axis not in known or axis == "players":
            raise PositionError(f"{axis!r} is not a rule switch; switches are "
                                f"{', '.join(a for a in known if a != 'players')}", "VAR-2")
        try:
            converted = known[axis].convert(value)
        except RuleSetError as error:
            raise PositionError(str(error), "VAR-2") from None
        return replace(self, overrides=MappingProxyType({**self.overrides, axis: converted}))

    def with_players(self, names: Iterable[str]) -> Position:
        """The players by name, seated in the order named (the first is seat 0)."""
        names = tuple(names)
        for name in names:
            if not _NAME.fullmatch(name):
                raise PositionError(f"{name!r} is not a player's name")
        if len(set(names)) != len(names):
            raise PositionError(f"a player is named twice in {_names_listing(names)}")
        self._check_count(len(names))
        return replace(self, players=names)

    @staticmethod
    def _check_count(count: int) -> None:
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise PositionError(f"Durak is played by 2 to 6 players, not {count}", "DEAL-3")

    def rule_set(self) -> RuleSet:
        """The rules in force: the profile, for the number of players, with the changes."""
        count = self.player_count or len(self.players) or MIN_PLAYERS
        if self.players and self.player_count and self.player_count != len(self.players):
            raise PositionError(f"the rules are for {self.player_count} players, but "
                                f"{len(self.players)} are named: "
                                f"{_names_listing(self.players)}", "DEAL-3")
        try:
            rules = profile(self.profile_name or DEFAULT_PROFILE).rules(players=count)
            return rules.replace(**self.overrides) if self.overrides else rules
        except RuleSetError as error:
            raise PositionError(str(error), "VAR-2") from None

    def names(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        count = self.rule_set().players
        return self.players if self.players else DEFAULT_NAMES[:count]

    # -- cards ---------------------------------------------------------------------------

    def with_trump(self, suit: Suit) -> Position:
        """Name the trump suit."""
        if self.face_up is not None and self.face_up.suit != suit:
            raise PositionError(f"the face-up card {self.face_up} makes "
                                f"{self.face_up.suit.label} trump, not {suit.label}", "DEAL-5")
        return replace(self, trump=suit)

    def with_face_up(self, card: Card) -> Position:
        """Name the face-up card under the stock; its suit is trump (DEAL-5)."""
        if self.trump is not None and self.trump != card.suit:
            raise PositionError(f"{card} cannot be the face-up trump: "
                                f"{self.trump.label} are trump", "DEAL-5")
        return replace(self, face_up=card)._checked()

    def with_hand(self, name: str, cards: Iterable[Card] = (), size: int | None = None
                  ) -> Position:
        """What ``name`` holds: these cards, and filler cards up to ``size`` if given."""
        cards = tuple(cards)
        if size is not None and size < len(cards):
            raise PositionError(f"{name} cannot hold {size} cards and name {len(cards)} of them")
        hands = {**self.hands, name: cards}
        sizes = dict(self.hand_sizes)
        if size is None:
            sizes.pop(name, None)
        else:
            sizes[name] = size
        return replace(self, hands=MappingProxyType(hands),
                       hand_sizes=MappingProxyType(sizes))._checked()

    def with_table(self, pairs: Iterable[Pair]) -> Position:
        """The attack cards of the bout in play, each with its cover or uncovered."""
        return replace(self, table=tuple(pairs))._checked()

    def with_attack(self, attacker: str, defender: str | None = None) -> Position:
        """Who attacks now, and (as a check) whom."""
        return replace(self, attacker=attacker, defender=defender)

    def with_opener(self, name: str) -> Position:
        """Who opened the bout in play (differs from the attacker after a transfer)."""
        return replace(self, opener=name)

    def with_take_announced(self, name: str) -> Position:
        """``name``, the defender, has announced a take (TAKE-3)."""
        return replace(self, taker=name)

    def with_stock(self, size: int) -> Position:
        """How many cards are left in the stock, the face-up trump included."""
        if size < 0:
            raise PositionError(f"the stock cannot hold {size} cards")
        return replace(self, stock_size=size)

    def with_stock_top(self, cards: Iterable[Card]) -> Position:
        """The next cards to be drawn from the stock, first one first."""
        return replace(self, stock_top=tuple(cards))._checked()

    def with_discard(self, cards: Iterable[Card] = (), size: int | None = None) -> Position:
        """Cards known to be in the discard pile, and/or how many cards it holds."""
        cards = tuple(cards) or self.discard
        if size is not None and size < len(cards):
            raise PositionError(f"the discard pile cannot hold {size} cards when "
                                f"{format_cards(cards)} are in it")
        return replace(self, discard=cards,
                       discard_size=size if size is not None else self.discard_size)._checked()

    def with_out(self, names: Iterable[str]) -> Position:
        """Players who have gone out, in the order they went out."""
        return replace(self, out=(*self.out, *names))

    def with_first_bout(self, first: bool = True) -> Position:
        """Whether the bout in play is the first of the game (LIMIT-3)."""
        return replace(self, first_bout=first, bout=None if first else self.bout)

    def with_bout(self, number: int) -> Position:
        """The bout in play is the game's bout ``number`` (1 is the first bout)."""
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise PositionError(f"bouts are counted from 1, not {number!r}")
        if number == 1:
            return self.with_first_bout()
        return replace(self, first_bout=False, bout=number - 1)

    def named_cards(self) -> dict[Card, str]:
        """Every card the description names, with where it is; a card named twice raises."""
        where: dict[Card, str] = {}

        def place(cards: Iterable[Card], spot: str) -> None:
            for card in cards:
                if card in where:
                    raise PositionError(f"{card} is dealt twice: {where[card]} and {spot}",
                                        "DEAL-1")
                where[card] = spot

        for name, hand in self.hands.items():
            place(hand, f"in {name}'s hand")
        place(self.table_cards(), "on the table")
        place(self.stock_top, "in the stock")
        if self.face_up is not None:
            place((self.face_up,), "face up under the stock")
        place(self.discard, "in the discard pile")
        return where

    def table_cards(self) -> tuple[Card, ...]:
        cards: list[Card] = []
        for pair in self.table:
            cards.append(pair.attack)
            if pair.cover is not None:
                cards.append(pair.cover)
        return tuple(cards)

    def _checked(self) -> Position:
        self.named_cards()
        return self

    def rules_only(self) -> Position:
        """The same rules and players, with nothing else described (for a new deal)."""
        return Position(profile_name=self.profile_name, player_count=self.player_count,
                        overrides=self.overrides, players=self.players)

    def is_described(self) -> bool:
        """Whether any card, role or count has been described (beyond rules and names)."""
        return replace(self.rules_only(), trump=self.trump, face_up=self.face_up) != self

    # -- building --------------------------------------------------------------------------

    def resolved_trump(self) -> Suit:
        """The trump suit: as named, from the face-up card, or the first suit nobody named."""
        if self.trump is not None:
            return self.trump
        if self.face_up is not None:
            return self.face_up.suit
        named = {card.suit for card in self.named_cards()}
        for suit in TRUMP_PREFERENCE:
            if suit not in named:
                return suit
        raise PositionError("say which suit is trump: the cards named cover every suit",
                            "DEAL-5")

    def build(self) -> GameState:
        """The described position as a validated game state, or :class:`PositionError`."""
        rules = self.rule_set()
        names = self.names()
        n = len(names)
        seats = {name: seat for seat, name in enumerate(names)}

        def seat_of(name: str, what: str) -> int:
            if name not in seats:
                raise PositionError(f"{name} {what}, but {name} is not a player: the players "
                                    f"are {_names_listing(names)}")
            return seats[name]

        for name in self.hands:
            seat_of(name, "is given cards")
        named = self.named_cards()
        trump = self.resolved_trump()
        out_seats = [seat_of(name, "is said to be out") for name in self.out]
        if len(set(out_seats)) != len(out_seats):
            raise PositionError("a player is said to be out twice", "END-1")
        for name in self.out:
            if self.hands.get(name) or self.hand_sizes.get(name):
                raise PositionError(f"{name} is out, so {name} holds no cards", "END-1")

        sizes = [0] * n
        for seat, name in enumerate(names):
            if name in self.out:
                continue
            size = self.hand_sizes.get(name)
            if size is None:
                size = len(self.hands[name]) if name in self.hands else HAND_SIZE
            sizes[seat] = size
        table_count = len(self.table_cards())
        discard_fixed = self.discard_size if self.discard_size is not None else len(self.discard)
        attacker, defender = self._roles(names, seat_of, set(out_seats))
        opener = seat_of(self.opener, "opened the bout") if self.opener else attacker
        stock = self._resolve_stock(n, sum(sizes), table_count)
        if stock is None:
            began, _ = self._bout_record(rules, sizes, attacker, defender, opener,
                                         set(out_seats), True)
            if any(began[seat] < HAND_SIZE for seat in range(n) if seat not in out_seats):
                stock = 0  # a hand short of six between bouts: the stock has run out (DRAW-1)
        if stock is None:
            stock = len(DECK) - sum(sizes) - table_count - discard_fixed
            discard = discard_fixed
            if self.discard_size is None:  # the rest goes to the stock, as little as play
                moved = max(0, stock - whole_stock(n) + 1)  # allows to the discard pile:
                moved += (discard + moved) % 2  # somebody has drawn (DRAW-1), in pairs
                moved = min(moved, stock)
                stock, discard = stock - moved, discard + moved  # (DEFEND-1)
        elif self.discard_size is not None:
            discard = self.discard_size
        else:
            discard = len(DECK) - sum(sizes) - table_count - stock
            unnamed = [seat for seat in (*(s for s in range(n) if s not in (attacker, defender)),
                                         attacker, defender)
                       if names[seat] not in self.hands and names[seat] not in self.hand_sizes
                       and seat not in out_seats]
            if discard % 2 and discard > 0 and unnamed:  # keep the discard pile even
                sizes[unnamed[0]] += 1  # (DEFEND-1): a hand nobody named holds one more
                discard -= 1
        total = sum(sizes) + table_count + stock + discard
        breakdown = (f"hands {sum(sizes)}, table {table_count}, stock {stock}, "
                     f"discard pile {max(discard, discard_fixed)}")
        if stock < 0 or discard < len(self.discard) or total > len(DECK):
            needed = sum(sizes) + table_count + max(stock, 0) + max(discard, discard_fixed)
            raise PositionError(f"the position needs {needed} cards ({breakdown}), but the deck "
                                "has 36", "DEAL-1")
        if total < len(DECK):
            raise PositionError(f"the position places only {total} of the 36 cards "
                                f"({breakdown}); say where the other {len(DECK) - total} are, "
                                "for example with 'N cards are in the discard pile'", "DEAL-1")
        if self.first_bout and discard:
            raise PositionError(f"in the first bout nothing has been discarded yet, but the "
                                f"position puts {discard} cards in the discard pile ({breakdown})",
                                "DEFEND-1")

        face_up = self._resolve_face_up(n, stock, trump, named)
        if stock and len(self.stock_top) > stock - 1:
            raise PositionError(f"a stock of {stock} cards has room for "
                                f"{stock - 1} above the face-up trump, but "
                                f"{len(self.stock_top)} are named", "DEAL-6")
        if not stock and self.stock_top:
            raise PositionError("the stock is empty, so no card is next to draw", "DRAW-4")

        used = set(named) | ({face_up} if face_up is not None else set())
        named_ranks = {card.rank for card in named}
        fill = iter(_filler_order((c for c in DECK if c not in used), trump, named_ranks,
                                  (pair.attack for pair in self.table)))
        hands: list[tuple[Card, ...]] = [()] * n
        for seat in sorted(range(n), key=lambda s: s != defender):  # the defender's first
            mine = list(self.hands.get(names[seat], ()))
            mine += [next(fill) for _ in range(sizes[seat] - len(mine))]
            hands[seat] = sort_cards(mine)
        middle = [next(fill) for _ in range(stock - len(self.stock_top) - (1 if face_up else 0))]
        stock_cards = (*self.stock_top, *middle, *((face_up,) if face_up else ()))
        discard_cards = sort_cards([*self.discard, *fill])

        if self.opener and not self.table:
            raise PositionError(f"{self.opener} opened the bout, but no card lies on the table",
                                "ATTACK-6")
        if self.taker is not None:
            if seat_of(self.taker, "has announced a take") != defender:
                raise PositionError(f"{self.taker} cannot take: {names[defender]} defends",
                                    "TAKE-1")
            if not self.table:
                raise PositionError(f"{self.taker} cannot have announced a take: no card lies "
                                    "on the table", "CLAR-4")
        start_hands, joined = self._bout_record(rules, [len(h) for h in hands], attacker,
                                                defender, opener,
                                                set(out_seats), bool(stock_cards))
        excess = tuple(max(0, start_hands[seat] - HAND_SIZE) for seat in range(n)
                       if seat not in out_seats)
        bout = self._resolve_bout(rules, len(discard_cards), len(out_seats),
                                  whole_stock(n) - len(stock_cards), excess)
        state = GameState(
            rules=rules,
            hands=tuple(hands),
            stock=stock_cards,
            trump=trump,
            table=self.table,
            discard=discard_cards,
            attacker=attacker,
            defender=defender,
            opener=opener,
            bout=bout,
            taking=self.taker is not None,
            joined=joined,
            start_hands=tuple(start_hands),
            known=tuple(frozenset[Card]() for _ in range(n)),
            finished=tuple((seat,) for seat in out_seats),
        )
        try:
            return check_reachable(state)
        except InvalidState as error:
            raise PositionError(speak_seats(error.reason, names), error.rule) from None

    def _bout_record(self, rules: RuleSet, sizes: list[int], attacker: int,
                     defender: int, opener: int, out: set[int], stock: bool
                     ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The start hands and the join order of the bout in play: who laid which card.

        The defender laid the covers. The opener laid the first attack card and, after a
        transfer, the attacker the second (a shown trump lays none); every other attack
        card goes to the first player allowed to add cards (ATTACK-4) who would otherwise
        have begun the bout with fewer than six while the stock lasts or in the first bout
        (DRAW-1, DEAL-4), else to the attacker.
        """
        start = list(sizes)
        if not self.table:
            return tuple(start), ()
        n = len(sizes)
        start[defender] += sum(1 for pair in self.table if pair.cover is not None)
        clockwise = [(opener + step) % n for step in range(n)]
        if rules.throw_in is ThrowInRule.ATTACKER:
            allowed = [attacker]
        elif rules.throw_in is ThrowInRule.NEIGHBOURS:
            allowed = [attacker, next_in_game(defender, n, frozenset(out))]
        else:
            allowed = [seat for seat in clockwise if seat not in out]
        allowed = [seat for seat in allowed if seat != defender]
        joined: list[int] = []
        full = stock or self.first_bout
        for index in range(len(self.table)):
            if index == 0:
                seat = opener
            elif index == 1 and attacker != opener:
                seat = attacker
            else:
                short = [s for s in allowed if full and start[s] < HAND_SIZE]
                seat = short[0] if short else attacker
            start[seat] += 1
            if seat not in joined:
                joined.append(seat)
        if attacker not in joined:  # a transfer by showing a trump lays no card
            joined.append(attacker)
        return tuple(start), tuple(joined)

    def _resolve_bout(self, rules: RuleSet, discard: int, groups_out: int,
                      drawn: int, excess: tuple[int, ...]) -> int:
        """How many bouts have ended: 0 in the first bout, else as described, else the
        fewest (and at least one) that let ``groups_out`` groups of players go out (END-1)
        and can have discarded ``discard`` cards, drawn ``drawn`` from the stock and put
        ``excess`` cards over six into the hands
        (:func:`~durak_spec.engine.reachable.bouts_allow`)."""
        if self.first_bout:
            return 0
        if self.bout is not None:
            return self.bout
        bout = max(1, groups_out)
        for fewest in range(bout, bout + _MOST_BOUTS_TRIED):
            if bouts_allow(fewest, rules, discard, drawn, excess):
                return fewest
        return bout  # none will do: the strict check says why

    def _resolve_stock(self, n: int, hands: int, table: int) -> int | None:
        """The stock size if the description fixes it, else ``None`` (the rest goes there)."""
        if n == MAX_PLAYERS:
            if self.stock_size:
                raise PositionError("with six players every card is dealt, so there is no "
                                    "stock", "DEAL-8")
            return 0
        if self.out:
            if self.stock_size:
                raise PositionError(f"{_names_listing(self.out)} cannot be out while the stock "
                                    f"still holds {self.stock_size} cards", "END-2")
            return 0
        if self.first_bout:
            full = len(DECK) - HAND_SIZE * n
            if self.stock_size is not None and self.stock_size != full:
                raise PositionError(f"in the first bout nobody has drawn yet, so the stock holds "
                                    f"{full} cards, not {self.stock_size}", "DEAL-4")
            if hands + table != HAND_SIZE * n:
                raise PositionError(f"in the first bout the {n} players hold or have played "
                                    f"{HAND_SIZE * n} cards, but the position gives them "
                                    f"{hands} in hand and {table} on the table", "DEAL-4")
            return full
        return self.stock_size

    def _resolve_face_up(self, n: int, stock: int, trump: Suit, named: Mapping[Card, str]
                         ) -> Card | None:
        if not stock or n == MAX_PLAYERS:
            if self.face_up is not None:
                raise PositionError(f"{self.face_up} cannot lie face up: the stock is empty",
                                    "DEAL-6")
            return None
        if self.face_up is not None:
            return self.face_up
        free = [Card(rank, trump) for rank in Rank if Card(rank, trump) not in named]
        if not free:
            raise PositionError("every trump is placed elsewhere, so none is left to lie face "
                                "up under the stock", "DEAL-6")
        return free[0]

    def _roles(self, names: tuple[str, ...], seat_of: Callable[[str, str], int],
               out: set[int]) -> tuple[int, int]:
        n = len(names)
        playing = [seat for seat in range(n) if seat not in out]
        if not playing:
            raise PositionError("every player is out; at least one must hold cards", "END-3")
        if self.attacker is not None:
            attacker = seat_of(self.attacker, "attacks")
            if attacker in out:
                raise PositionError(f"{self.attacker} is out and cannot attack", "ORDER-6")
        else:
            attacker = playing[0]
        defender = next_in_game(attacker, n, out)
        if self.defender is not None and seat_of(self.defender, "defends") != defender:
            raise PositionError(f"{self.defender} cannot defend against {names[attacker]}: the "
                                f"defender is the next player still in the game, "
                                f"{names[defender]}", "ORDER-3")
        return attacker, defender

    # -- dealing -----------------------------------------------------------------------------

    def stacked_deck(self, text: str) -> tuple[Card, ...]:
        """A deck order (CLAR-10) from a description of the deal.

        ``text`` has one line per listed hand (``Anna: 6♥ 7♣ 8♣ 9♣ 10♣ J♣``, six cards in
        the order dealt), optionally ``stock: ...`` (the next cards to draw, first one first)
        and ``face-up: 9♦`` (the card turned up, drawn last). Hands not listed get filler
        cards; the rest of the stock is filled up. With six players there is no stock and
        the last card of the last hand is the one turned up (DEAL-8): the last hand must be
        listed.
        """
        if self.is_described():
            raise PositionError("a dealt game starts from the deck: list the hands in the deal "
                                "instead of describing them in Given steps")
        names = self.names()
        n = len(names)
        hands: dict[str, tuple[Card, ...]] = {}
        top: tuple[Card, ...] = ()
        face_up: Card | None = None
        for raw in text.strip().splitlines():
            line = raw.strip()
            if not line:
                continue
            match = _DECK_LINE.fullmatch(line)
            if match is None:
                raise PositionError(f"cannot read the deal line {line!r}: write 'Anna: 6♥ 7♣ ...', "
                                    "'stock: ...' or 'face-up: 9♦'")
            label, cards_text = match["label"], match["cards"]
            if label.lower() == "stock":
                top = parse_card_list(cards_text)
            elif label.lower() == "face-up":
                face_up = parse_one_card(cards_text)
            elif label in names:
                if label in hands:
                    raise PositionError(f"{label}'s hand is listed twice")
                hands[label] = parse_card_list(cards_text)
                if len(hands[label]) != HAND_SIZE:
                    raise PositionError(f"{label} is dealt {len(hands[label])} cards; every "
                                        "player is dealt six", "DEAL-4")
            else:
                raise PositionError(f"{label!r} is not a player of this game (the players are "
                                    f"{_names_listing(names)}), nor 'stock' or 'face-up'")
        where: dict[Card, str] = {}
        listed = [(c, f"in {name}'s hand") for name, hand in hands.items() for c in hand]
        listed += [(c, "in the stock") for c in top]
        listed += [(face_up, "face up")] if face_up is not None else []
        for card, spot in listed:
            if card in where:
                raise PositionError(f"{card} is dealt twice: {where[card]} and {spot}", "DEAL-1")
            where[card] = spot

        if n == MAX_PLAYERS:
            if top or face_up is not None:
                raise PositionError("with six players every card is dealt: there is no stock "
                                    "and no card left to turn up", "DEAL-8")
            last = names[-1]
            if last not in hands:
                raise PositionError(f"with six players the last card dealt, the last of "
                                    f"{last}'s hand, shows trump: list {last}'s hand", "DEAL-8")
            trump = hands[last][-1].suit
            if self.trump is not None and self.trump != trump:
                raise PositionError(f"the last card dealt, {hands[last][-1]}, makes "
                                    f"{trump.label} trump, not {self.trump.label}", "DEAL-8")
        else:
            if face_up is None:
                face_up = self.face_up
            if face_up is not None and self.trump is not None and face_up.suit != self.trump:
                raise PositionError(f"the face-up card {face_up} makes {face_up.suit.label} "
                                    f"trump, not {self.trump.label}", "DEAL-5")
            if face_up is not None and face_up in where and where[face_up] != "face up":
                raise PositionError(f"{face_up} is dealt twice: {where[face_up]} and face up",
                                    "DEAL-1")
            if face_up is None:
                suits = (self.trump,) if self.trump is not None else TRUMP_PREFERENCE
                free = [Card(rank, suit) for suit in suits for rank in Rank
                        if Card(rank, suit) not in where]
                if not free:
                    raise PositionError("every trump is dealt, so none is left to turn up",
                                        "DEAL-5")
                face_up = free[0]
            trump = face_up.suit
            where[face_up] = "face up"
        named_ranks = {card.rank for card in where}
        fill = iter(_filler_order((c for c in DECK if c not in where), trump, named_ranks))
        dealt = [hands[name] if name in hands else [next(fill) for _ in range(HAND_SIZE)]
                 for name in names]
        stock = [*top, *fill] if face_up is not None else []
        return deck_order(dealt, stock, trump_card=face_up)


def _filler_order(cards: Iterable[Card], trump: Suit, named_ranks: set[Rank],
                  attacks: Iterable[Card] = ()) -> list[Card]:
    """Cards nobody named, the least disturbing first (see the module docstring).

    Non-trumps come before trumps, ranks nobody named before named ones, cards that beat
    no attack card on the table before those that would, low before high.
    """
    attacks = tuple(attacks)

    def key(card: Card) -> tuple[bool, bool, bool, Rank, Suit]:
        beats = any(card.suit == a.suit and card.rank > a.rank for a in attacks)
        return (card.suit == trump, card.rank in named_ranks, beats, card.rank, card.suit)

    return sorted(cards, key=key)


def speak_seats(text: str, names: tuple[str, ...]) -> str:
    """Engine text with seats (``P1``) replaced by the players' names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return re.sub(r"\bP(\d)\b", name, text)
