"""The rule set: every variant axis of Durak as one frozen value, and the named profiles.

A :class:`RuleSet` is keyword-only and immutable. Each field is one *axis* on which the
sources (or common practice) differ; :data:`AXES` describes every axis with the rule IDs
it implements. A :class:`Profile` is a named rule set together with the *origin* of each
axis: the source document that states it, or the specification's clarification where
the source is silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any

from durak_spec.core.errors import DurakError

__all__ = [
    "AXES",
    "PROFILES",
    "Axis",
    "DoneInTake",
    "DrawOrder",
    "Goal",
    "LaterGameLead",
    "LimitReading",
    "NoTrumpLead",
    "Origin",
    "Profile",
    "RuleSet",
    "RuleSetError",
    "ThrowIn",
    "TransferDraw",
    "TransferTarget",
    "TurnOrder",
    "profile",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZE = 6  # DEAL-4, DRAW-1
MAX_ATTACK_CARDS = 6  # LIMIT-1
FIRST_BOUT_MAX_ATTACK_CARDS = 5  # LIMIT-3


class RuleSetError(DurakError):
    """A rule set or profile that cannot be played, with the axis that is wrong.

    ``rule`` names the rule the rule set breaks, where there is one (``"DEAL-3"``); an
    unknown axis, value or profile names none (code ``"rule-set"``).
    """

    code = "rule-set"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message, rule=rule)

    def __reduce__(self) -> tuple[type[RuleSetError], tuple[str, str | None]]:
        return (type(self), (self.message, self.rule))


class ThrowIn(StrEnum):
    """Who may add attack cards after the opening (ATTACK-4)."""

    ATTACKER = "attacker"
    """Only the player attacking the defender (always so with two players)."""
    NEIGHBOURS = "neighbours"
    """The attacker and the defender's left-hand neighbour (common practice)."""
    ALL = "all"
    """Every player still in the game except the defender (A, D; a tip of C)."""


class LimitReading(StrEnum):
    """How the sources word the cap the defender's hand puts on the attack (LIMIT-2).

    Two wordings of one rule: with "the start" read as the moment a player became the
    defender (the opening, or the transfer that passed the attack on), both allow exactly
    the same cards in every position play can reach. The axis stays so that each profile
    keeps its source's wording (and its messages), not because the games differ.
    """

    CURRENT_HAND = "current-hand"
    """Uncovered attack cards never exceed the cards the defender holds now.

    The profiles of A and C; neither source says when the hand is counted, and the
    measure (uncovered cards against the hand now) is the specification's.
    """
    START_HAND = "start-hand"
    """Attack cards of the bout never exceed the defender's hand when they became the
    defender: at the bout's start, or at the transfer that made them defend (B, D)."""


class DrawOrder(StrEnum):
    """In which order players refill their hands after a bout (DRAW-2)."""

    ATTACKER_FIRST = "attacker-first"
    """The attacker, then the others clockwise, the defender last (A, B, C)."""
    JOIN_ORDER = "join-order"
    """In the order the players joined the attack, the defender last (D)."""


class Goal(StrEnum):
    """What the game is played for (END-5)."""

    LAST_HOLDER_LOSES = "last-holder-loses"
    """Play goes on until at most one player holds cards; that player is the durak and
    loses (END-3: A, B, C)."""
    FIRST_OUT_WINS = "first-out-wins"
    """A race: the first player to go out wins (D). The game ends at the bout end where
    the first player (or players, together) go out; D names no loser, so a durak is
    recorded only where one player alone still holds cards (a clarification)."""


class LaterGameLead(StrEnum):
    """Who attacks first in the second and later games of a match (ORDER-7)."""

    LOWEST_TRUMP = "lowest-trump"
    """The lowest trump leads again, whatever the last game's result (B)."""
    LEFT_OF_DURAK = "left-of-durak"
    """The player after the last game's durak attacks, so the durak is attacked last of
    all (the durak deals: published practice, e.g. pagat's podkidnoy)."""
    RIGHT_OF_DURAK = "right-of-durak"
    """The player before the last game's durak attacks, so the durak defends the first
    bout (published practice: "under the fool")."""


class NoTrumpLead(StrEnum):
    """Who attacks first when nobody was dealt a trump (ORDER-2)."""

    CHANCE = "chance"
    """Chance (the game's seed) picks the first attacker (B)."""
    FIRST_SEAT = "first-seat"
    """The player in the first seat (the dealer's left) attacks first."""


class TurnOrder(StrEnum):
    """Who may act when within a bout: the bout protocol (CLAR-3, CLAR-17, CLAR-18).

    The sources name no order; each value is the specification's clarification, and
    :mod:`durak_spec.engine.turns` alone decides by it.
    """

    FREE = "free"
    """The defender and every player who may add act in any order (CLAR-3, CLAR-16)."""
    OPENER_FIRST = "opener-first"
    """One seat at a time: the defender answers each card; then the attackers are asked
    in a fixed order from the attacker (CLAR-17)."""
    LAST_THROWER = "last-thrower"
    """One seat at a time: the defender answers each card; then the seat that played the
    last attack card is asked first, and the turn goes on clockwise (CLAR-18)."""


class TransferDraw(StrEnum):
    """Where the attacker-first order of drawing starts once a bout has been transferred
    (DRAW-2): A and C say "the attacker draws first" and have no transfer in mind; B's
    "current attacker" is the same seat either way with two players. Real engines read it
    both ways, so each reading is a clarification (CLAR-7, CLAR-19). The join order of D
    is not affected: a transferrer joins the attack when they transfer (CLAR-8)."""

    OPENER = "opener"
    """The player who opened the bout draws first, then the others clockwise from them,
    the last defender last (CLAR-7)."""
    LAST_TRANSFERRER = "last-transferrer"
    """The player who passed the attack on last (the attacker of the bout's end) draws
    first, then the others clockwise from them, the last defender last (CLAR-19)."""


class DoneInTake(StrEnum):
    """Whether an attacker who said done after a take is announced may add cards again
    when another attacker throws one in (TAKE-3): the sources let attackers add cards to
    a take and say no more (CLAR-20, CLAR-21)."""

    FINAL = "final"
    """A done said during a take stands for the rest of the bout: only the defender's
    move lifts a done, and a taker makes none (CLAR-20)."""
    ASKED_AGAIN = "asked-again"
    """Every card thrown in during a take lifts every done, so each attacker is asked
    again whether to add one more (CLAR-21)."""


class TransferTarget(StrEnum):
    """Whom a transfer passes the attack to when the next player has just played out
    their last card, the stock being empty (TRANSFER-1): the sources say "the next
    player" and do not say whether one who has just emptied their hand still counts
    (CLAR-22, CLAR-23). While the stock has cards, such a player is still in the game
    (END-2: B) under either value."""

    NEXT_IN_GAME = "next-in-game"
    """The next player in the game, even with an empty hand: that player is out only
    when the bout ends (END-1), and holds too few cards to be transferred to (TRANSFER-3,
    CLAR-22)."""
    NEXT_WITH_CARDS = "next-with-cards"
    """The next player still holding cards: once the stock is empty, a player who has
    played out their hand is passed over as if already out (CLAR-23)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleSet:
    """One complete set of rules. Every field is a variant axis; see :data:`AXES`.

    Build one from a profile (``profile("classic-transfer").rules(players=4)``) or
    directly with keywords; every field has the classic throw-in game's value.
    """

    players: int = 2
    transfer: bool = False
    transfer_by_showing_trump: bool = False
    multi_card_opening: bool = False
    throw_in: ThrowIn = ThrowIn.ALL
    first_bout_limit_five: bool = True
    limit_reading: LimitReading = LimitReading.CURRENT_HAND
    draw_order: DrawOrder = DrawOrder.ATTACKER_FIRST
    goal: Goal = Goal.LAST_HOLDER_LOSES
    later_game_lead: LaterGameLead = LaterGameLead.LOWEST_TRUMP
    no_trump_lead: NoTrumpLead = NoTrumpLead.CHANCE
    trump_exchange: bool = False
    turn_order: TurnOrder = TurnOrder.FREE
    draw_after_transfer: TransferDraw = TransferDraw.OPENER
    done_in_take: DoneInTake = DoneInTake.FINAL
    transfer_target: TransferTarget = TransferTarget.NEXT_IN_GAME

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RuleSetError(f"players must be a whole number from 2 to 6, not {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RuleSetError(
                f"Durak is played by 2 to 6 players (DEAL-3); {self.players} "
                f"player{'' if self.players == 1 else 's'} {'is' if self.players == 1 else 'are'}"
                " not a game",
                rule="DEAL-3",
            )
        for name in ("transfer", "transfer_by_showing_trump", "multi_card_opening",
                     "first_bout_limit_five", "trump_exchange"):
            if not isinstance(getattr(self, name), bool):
                raise RuleSetError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for axis in AXES:
            if axis.enum is not None and not isinstance(getattr(self, axis.name), axis.enum):
                raise RuleSetError(
                    f"{axis.name} must be one of {axis.choices()}, not {getattr(self, axis.name)!r}"
                )
        if self.transfer_by_showing_trump and not self.transfer:
            raise RuleSetError(
                "transfer_by_showing_trump needs the transfer game (transfer=true): "
                "showing a trump is a way to transfer (TRANSFER-7)",
                rule="TRANSFER-7",
            )

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some axes changed (validated like a new rule set)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise RuleSetError(f"unknown rule-set axis {unknown[0]!r}; axes are {axis_names()}")
        return replace(self, **changes)

    def with_players(self, players: int) -> RuleSet:
        return self.replace(players=players)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready values, keyed by axis name."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """The inverse of :meth:`to_dict`; missing axes take their default, unknown ones fail."""
        if not isinstance(data, Mapping):
            raise RuleSetError(
                f"a rule set must be a JSON object of axes, not {type(data).__name__}"
            )
        by_name = {axis.name: axis for axis in AXES}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            axis = by_name.get(key)
            if axis is None:
                raise RuleSetError(f"unknown rule-set axis {key!r}; axes are {axis_names()}")
            kwargs[key] = axis.convert(value)
        return cls(**kwargs)

    def describe(self) -> str:
        """One line per axis: ``name = value``."""
        return "\n".join(f"{axis.name} = {axis.format(getattr(self, axis.name))}" for axis in AXES)


@dataclass(frozen=True, slots=True)
class Axis:
    """One variant axis of :class:`RuleSet`: its name, meaning and rule IDs."""

    name: str
    rules: tuple[str, ...]
    title: str
    enum: type[Enum] | None = None
    kind: type = bool
    wording: bool = False
    """The values are the sources' wordings of one rule and allow the same actions in
    every reachable position (LIMIT-2): a setting, but no disagreement of play."""
    readings: bool = False
    """The values are readings on which computer games differ and no source decides:
    each is a clarification, named by :attr:`rules` in the order of the values; every
    profile plays the first, and an engine declares which it plays (issue 24)."""

    def reading_rules(self) -> tuple[tuple[str, str], ...]:
        """For an axis of :attr:`readings`, each value with its clarification."""
        if not self.readings or self.enum is None:
            return ()
        return tuple(zip((str(m.value) for m in self.enum), self.rules, strict=True))

    def choices(self) -> str:
        if self.enum is not None:
            return ", ".join(str(m.value) for m in self.enum)
        if self.kind is int:
            return f"{MIN_PLAYERS}..{MAX_PLAYERS}"
        return "true, false"

    def convert(self, value: object) -> object:
        """A JSON or command-line value for this axis, checked."""
        if self.enum is not None:
            try:
                return self.enum(value)
            except ValueError:
                raise RuleSetError(
                    f"{value!r} is not a value of {self.name}; choose one of {self.choices()}"
                ) from None
        if self.kind is int:
            if isinstance(value, str) and value.strip().isdigit():
                return int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleSetError(f"{self.name} must be a whole number, not {value!r}")
            return value
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
        if not isinstance(value, bool):
            raise RuleSetError(f"{self.name} must be true or false, not {value!r}")
        return value

    @staticmethod
    def format(value: object) -> str:
        if isinstance(value, Enum):
            return str(value.value)
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


AXES: tuple[Axis, ...] = (
    Axis("players", ("DEAL-3",), "Number of players", kind=int),
    Axis("transfer", ("TRANSFER-1", "TRANSFER-8"), "Transfer game (perevodnoy)"),
    Axis("transfer_by_showing_trump", ("TRANSFER-7",), "Transfer by showing a trump of the rank"),
    Axis("multi_card_opening", ("ATTACK-2",), "Open a bout with several cards of one rank"),
    Axis("throw_in", ("ATTACK-4",), "Who may throw in", enum=ThrowIn),
    Axis("first_bout_limit_five", ("LIMIT-3",), "At most five attack cards in the first bout"),
    Axis("limit_reading", ("LIMIT-2",), "How the defender's hand limits the attack (two "
         "wordings, the same cards)", enum=LimitReading, wording=True),
    Axis("draw_order", ("DRAW-2",), "Order of drawing after a bout", enum=DrawOrder),
    Axis("goal", ("END-5",), "What the game is played for", enum=Goal),
    Axis("later_game_lead", ("ORDER-7",), "First attacker of a later game of a match",
         enum=LaterGameLead),
    Axis("no_trump_lead", ("ORDER-2",), "First attacker when nobody holds a trump",
         enum=NoTrumpLead),
    Axis("trump_exchange", ("VAR-1",), "Six of trumps may be swapped for the face-up trump"),
    Axis("turn_order", ("CLAR-3", "CLAR-17", "CLAR-18"), "Who may act when within a bout",
         enum=TurnOrder, readings=True),
    Axis("draw_after_transfer", ("CLAR-7", "CLAR-19"), "Who draws first after a transfer "
         "(attacker-first order)", enum=TransferDraw, readings=True),
    Axis("done_in_take", ("CLAR-20", "CLAR-21"), "Whether a done during a take is final",
         enum=DoneInTake, readings=True),
    Axis("transfer_target", ("CLAR-22", "CLAR-23"), "Whether a transfer passes over a "
         "player who has just gone out", enum=TransferTarget, readings=True),
)


def axis_names() -> str:
    return ", ".join(a.name for a in AXES)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a profile's value for one axis comes from."""

    source: str | None
    """The source's short name (``"A"``..``"D"``), or ``None`` for a clarification."""
    note: str

    @property
    def is_clarification(self) -> bool:
        return self.source is None


@dataclass(frozen=True, slots=True)
class Profile:
    """A named rule set, with the origin of every axis."""

    name: str
    title: str
    description: str
    base: RuleSet
    origins: Mapping[str, Origin] = field(default_factory=dict)

    def rules(self, players: int | None = None) -> RuleSet:
        """The profile's rule set, optionally for another number of players."""
        return self.base if players is None else self.base.with_players(players)

    def origin(self, axis: str) -> Origin:
        if axis not in self.origins:
            raise RuleSetError(f"unknown rule-set axis {axis!r}; axes are {axis_names()}")
        return self.origins[axis]

    def from_source(self) -> tuple[str, ...]:
        """The axes this profile takes from its source document."""
        return tuple(a.name for a in AXES if not self.origins[a.name].is_clarification)

    def clarified(self) -> tuple[str, ...]:
        """The axes where the source is silent and the specification decided."""
        return tuple(a.name for a in AXES if self.origins[a.name].is_clarification)


def _src(source: str, note: str) -> Origin:
    return Origin(source, note)


def _clar(note: str) -> Origin:
    return Origin(None, note)


def _make(name: str, title: str, description: str, origins: dict[str, tuple[object, Origin]]
          ) -> Profile:
    missing = [a.name for a in AXES if a.name not in origins]
    if missing:  # pragma: no cover - a programming error in this module
        raise RuleSetError(f"profile {name} does not set {missing}")
    values: dict[str, Any] = {axis: value for axis, (value, _) in origins.items()}
    rules = RuleSet(**values)
    return Profile(name, title, description, rules,
                   MappingProxyType({axis: origin for axis, (_, origin) in origins.items()}))


_CLASSIC = "common practice of the classic game"
_TURNS = _clar("no source orders the players within a bout: free, first come first served")
_DRAW_START = _clar("no source says who is the attacker that draws first once a bout was "
                    "transferred; the opener (CLAR-7)")
_DONE_IN_TAKE = _clar("no source says whether a done during a take is final; it is, since "
                      "only the defender's move lifts a done (CLAR-20)")
_TARGET = _clar("no source says whether a player who has just gone out is passed over by a "
                "transfer; they are out only when the bout ends (CLAR-22)")
_REAL_WORLD: Mapping[str, tuple[object, Origin]] = MappingProxyType({
    "draw_after_transfer": (TransferDraw.OPENER, _DRAW_START),
    "done_in_take": (DoneInTake.FINAL, _DONE_IN_TAKE),
    "transfer_target": (TransferTarget.NEXT_IN_GAME, _TARGET),
})
"""The three axes on which real engines differ and no source decides (issue 24): every
profile plays the specification's first reading of each."""


def _classic(transfer: bool) -> dict[str, tuple[object, Origin]]:
    return {
        "players": (2, _clar("any number from 2 to 6; two by default")),
        "transfer": (transfer, _clar(_CLASSIC)),
        "transfer_by_showing_trump": (False, _clar("off: a transfer needs a played card")),
        "multi_card_opening": (False, _clar(_CLASSIC)),
        "throw_in": (ThrowIn.ALL, _clar(_CLASSIC)),
        "first_bout_limit_five": (True, _clar(_CLASSIC)),
        "limit_reading": (LimitReading.CURRENT_HAND, _clar(_CLASSIC)),
        "draw_order": (DrawOrder.ATTACKER_FIRST, _clar(_CLASSIC)),
        "goal": (Goal.LAST_HOLDER_LOSES, _clar("common practice: the last player holding "
                                               "cards is the durak")),
        "later_game_lead": (LaterGameLead.LOWEST_TRUMP, _clar("practice differs; the lowest "
                                                              "trump leads, as in B")),
        "no_trump_lead": (NoTrumpLead.CHANCE, _clar("chance, as source B says")),
        "trump_exchange": (False, _clar("off, as source B says")),
        "turn_order": (TurnOrder.FREE, _TURNS),
        **_REAL_WORLD,
    }


def _source_a(transfer: bool) -> dict[str, tuple[object, Origin]]:
    return {
        "players": (2, _src("A", "2 to 6 players")),
        "transfer": (transfer, _src("A", "A describes both the throw-in and the transfer game")),
        "transfer_by_showing_trump": (False, _clar("A is silent; a transfer needs a played card")),
        "multi_card_opening": (False, _src("A", "the attacker opens with one card")),
        "throw_in": (ThrowIn.ALL, _src("A", "every player but the defender may throw in")),
        "first_bout_limit_five": (True, _src("A", "five attack cards in a game's first bout")),
        "limit_reading": (LimitReading.CURRENT_HAND, _src("A", "never more than the defender's "
                                                          "cards in hand")),
        "draw_order": (DrawOrder.ATTACKER_FIRST, _src("A", "attacker first, defender last")),
        "goal": (Goal.LAST_HOLDER_LOSES, _src("A", "the one player left with cards loses")),
        "later_game_lead": (LaterGameLead.LOWEST_TRUMP, _clar("A is silent on later "
                                                              "games; the lowest trump "
                                                              "leads, as in B")),
        "no_trump_lead": (NoTrumpLead.CHANCE, _clar("A is silent; chance decides, as in B")),
        "trump_exchange": (False, _clar("A is silent; no exchange, as in B")),
        "turn_order": (TurnOrder.FREE, _TURNS),
        **_REAL_WORLD,
    }


def _source_b(transfer: bool) -> dict[str, tuple[object, Origin]]:
    return {
        "players": (2, _src("B", "a two-player game")),
        "transfer": (transfer, _src("B", "B offers the game with and without transfer")),
        "transfer_by_showing_trump": (False, _src("B", "a shown trump does not transfer")),
        "multi_card_opening": (True, _src("B", "an opening may hold several cards of one rank")),
        "throw_in": (ThrowIn.ATTACKER, _src("B", "two players: only the attacker adds cards")),
        "first_bout_limit_five": (False, _src("B", "B rules out a first-bout limit of five")),
        "limit_reading": (LimitReading.START_HAND, _src("B", "no more than the defender held at "
                                                        "the start")),
        "draw_order": (DrawOrder.ATTACKER_FIRST, _src("B", "the attacker draws, then the "
                                                      "defender")),
        "goal": (Goal.LAST_HOLDER_LOSES, _src("B", "the player left with cards loses")),
        "later_game_lead": (LaterGameLead.LOWEST_TRUMP, _src("B", "the lowest trump leads "
                                                             "every game")),
        "no_trump_lead": (NoTrumpLead.CHANCE, _src("B", "chance picks the first attacker")),
        "trump_exchange": (False, _src("B", "B rules the exchange out")),
        "turn_order": (TurnOrder.FREE, _TURNS),
        **_REAL_WORLD,
        "draw_after_transfer": (TransferDraw.OPENER, _clar(
            "B has the current attacker draw, then the defender: with two players that is "
            "the same seat under either reading; the opener (CLAR-7)")),
    }


def _source_c() -> dict[str, tuple[object, Origin]]:
    return {
        "players": (2, _clar("C plays with two and mentions more; two by default")),
        "transfer": (False, _clar("C describes only the throw-in game")),
        "transfer_by_showing_trump": (False, _clar("C has no transfer game")),
        "multi_card_opening": (False, _src("C", "the attacker opens with one card")),
        "throw_in": (ThrowIn.ALL, _clar("C's rules name only the attacker as adding cards; "
                                        "one of its tips has several attackers work "
                                        "together, so all may throw in, as in A and D")),
        "first_bout_limit_five": (False, _clar("C names no special first-bout limit")),
        "limit_reading": (LimitReading.CURRENT_HAND, _src("C", "at most 6 or the defender's "
                                                          "hand size, the smaller")),
        "draw_order": (DrawOrder.ATTACKER_FIRST, _src("C", "attacker first, then clockwise, "
                                                      "defender last")),
        "goal": (Goal.LAST_HOLDER_LOSES, _src("C", "the one player left with cards loses")),
        "later_game_lead": (LaterGameLead.LOWEST_TRUMP, _clar("C is silent on later "
                                                              "games; the lowest trump "
                                                              "leads, as in B")),
        "no_trump_lead": (NoTrumpLead.CHANCE, _clar("C is silent; chance decides, as in B")),
        "trump_exchange": (False, _clar("C is silent; no exchange, as in B")),
        "turn_order": (TurnOrder.FREE, _TURNS),
        **_REAL_WORLD,
    }


def _source_d(transfer: bool) -> dict[str, tuple[object, Origin]]:
    return {
        "players": (2, _src("D", "2 to 6 players")),
        "transfer": (transfer, _src("D", "D describes the normal and the transfer game")),
        "transfer_by_showing_trump": (False, _clar("D is silent; a transfer needs a played card")),
        "multi_card_opening": (False, _src("D", "the attacker plays one card")),
        "throw_in": (ThrowIn.ALL, _src("D", "players may add attack cards")),
        "first_bout_limit_five": (False, _clar("D names no special first-bout limit")),
        "limit_reading": (LimitReading.START_HAND, _src("D", "no more than the defender had at "
                                                        "the start of the turn")),
        "draw_order": (DrawOrder.JOIN_ORDER, _src("D", "in the order players joined the "
                                                  "attack")),
        "goal": (Goal.FIRST_OUT_WINS, _src("D", "the first player without cards wins; when "
                                       "the game then ends, and that nobody else is ranked, "
                                       "is the specification's reading (END-5)")),
        "later_game_lead": (LaterGameLead.LOWEST_TRUMP, _clar("D is silent on later "
                                                              "games; the lowest trump "
                                                              "leads, as in B")),
        "no_trump_lead": (NoTrumpLead.CHANCE, _clar("D is silent; chance decides, as in B")),
        "trump_exchange": (False, _clar("D is silent; no exchange, as in B")),
        "turn_order": (TurnOrder.FREE, _TURNS),
        **_REAL_WORLD,
        "draw_after_transfer": (TransferDraw.OPENER, _clar(
            "D draws in the order of joining, where a transfer is a join (CLAR-8); the "
            "axis is read only by the attacker-first order")),
    }


PROFILES: Mapping[str, Profile] = MappingProxyType({
    p.name: p
    for p in (
        _make("classic-throw-in", "Classic throw-in game (podkidnoy)",
              "The usual game: everyone but the defender may throw in; five cards in the first "
              "bout.", _classic(transfer=False)),
        _make("classic-transfer", "Classic transfer game (perevodnoy)",
              "The classic game with transfers.", _classic(transfer=True)),
        _make("source-a", "Source A, throw-in game", "The game as source A describes it.",
              _source_a(transfer=False)),
        _make("source-a-transfer", "Source A, transfer game",
              "Source A's transfer game (Durak mit Weitergeben).", _source_a(transfer=True)),
        _make("source-b", "Source B, throw-in game",
              "Source B's two-player game without transfer.", _source_b(transfer=False)),
        _make("source-b-transfer", "Source B, transfer game",
              "Source B's two-player game with transfer.", _source_b(transfer=True)),
        _make("source-c", "Source C", "The game as source C teaches it.", _source_c()),
        _make("source-d", "Source D, normal game", "Source D's normal game.",
              _source_d(transfer=False)),
        _make("source-d-transfer", "Source D, transfer game", "Source D's transfer game.",
              _source_d(transfer=True)),
    )
})


def profile(name: str) -> Profile:
    """The named profile; an unknown name lists the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise RuleSetError(
            f"unknown profile {name!r}; profiles are: {', '.join(PROFILES)}"
        ) from None
