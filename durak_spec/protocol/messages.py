"""Every wire message declared as a typed msgspec struct (layer 5).

The JSON Schema the package ships (``durak_spec/data/protocol.schema.json``) is generated
from these declarations by :mod:`durak_spec.protocol.schema`: each struct's docstring is
its description, its field types (with their ranges, and patterns stated for the schema
only) its constraints. Each message and each variant of a tagged union (an action by its
``type``, a request by its ``cmd``) is declared once.

:mod:`durak_spec.protocol.wire` decodes a line with these declarations: msgspec reads it in
C into the struct of the message, refusing a key no struct declares and a value of another
JSON type. When msgspec refuses a line (or it is not as compact as the encoder writes), the
wire's strict reader walks the same declarations (``msgspec.inspect``) to name the first
fault. What no type states is told to that walk in ``Meta(extra=...)``: ``wire`` (a check:
``card``, ``text`` with more than white space, ``rule`` ID, protocol ``version``),
``reason`` (the wording of a refusal) and ``rule`` (the rule a value out of range breaks);
a struct's ``wire_object`` names what an object must be. A field a message may leave out
defaults to ``UNSET`` (left out when encoded).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, Any, Final, Literal, TypeAlias

from msgspec import UNSET, Meta, Struct, UnsetType, defstruct

from durak_spec.core.cards import DECK, Rank, Suit
from durak_spec.game.persist import STATE_FORMAT, VERSION
from durak_spec.model.rules import AXES, MAX_PLAYERS, MIN_PLAYERS
from durak_spec.protocol.claims import PROTOCOL_VERSION

MAX_ID = 2**53 - 1
"""The largest id: the largest integer every JSON reader holds exactly."""


def _card_pattern() -> str:
    ranks = "|".join(["[6-9]", Rank.TEN.symbol, "T",
                      *[rank.symbol for rank in Rank if rank > Rank.TEN]])
    suits = "".join([s.symbol for s in Suit] + [s.letter for s in Suit])
    return f"^(?:{ranks})[{suits}]$"


def _about(text: str, **schema: Any) -> Meta:
    """A description (and more JSON Schema) for the schema only: no check at decoding."""
    return Meta(extra_json_schema={"description": text, **schema})


def _wire(check: str | None = None, **extra: str) -> Meta:
    """What the wire's strict reader checks beyond the type, or how it words a refusal."""
    return Meta(extra={"wire": check, **extra} if check else extra)


Id: TypeAlias = Annotated[int, Meta(ge=0, le=MAX_ID), _about(
    "Chosen by the checker; the response repeats it.")]
Seat: TypeAlias = Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]
"""A seat, 0-based and clockwise (P0, P1, ...); the test vectors' schema has it too."""
Count: TypeAlias = Annotated[int, Meta(ge=0, le=len(DECK))]
"""A number of cards (the stock, the discard)."""
Card: TypeAlias = Annotated[str, _about(
    "Rank then suit: 7♣, 10♥, Q♠, A♦; engines may write ASCII suit letters (7C, 10H) and T "
    "for ten. The checker always writes the suit symbols.", pattern=_card_pattern()),
    _wire("card")]
"""A card's spelling: the wire looks it up (the pattern is the schema's)."""
SuitText: TypeAlias = Annotated[str, Meta(extra_json_schema={
    "enum": [s.symbol for s in Suit] + [s.letter for s in Suit]}),
    _wire(reason="must be a suit: one of ♣ ♦ ♥ ♠ (or C D H S)")]
RuleId: TypeAlias = Annotated[str, _about(
    "A rule ID of the specification's rule index, such as BEAT-3.", pattern="^[A-Z]+-[0-9]+$"),
    _wire("rule")]
Text: TypeAlias = Annotated[str, Meta(extra_json_schema={"pattern": "\\S"}), _wire("text")]
"""A string with more than white space."""
TRUE: TypeAlias = Annotated[bool, Meta(extra_json_schema={"const": True})]
FALSE: TypeAlias = Annotated[bool, Meta(extra_json_schema={"const": False})]
Cards: TypeAlias = list[Card]
Pair: TypeAlias = Annotated[tuple[Card, Card | None], _about(
    "An attack card and the card covering it (null while uncovered)."),
    _wire(reason="must be a pair [attack card, cover card or null]")]

__all__ = [
    "ACTION_TYPES",
    "AXIS_VALUES",
    "EVENT_TYPES",
    "MAX_ID",
    "REQUEST_TYPES",
    "RESPONSE_TYPES",
    "Count",
    "Id",
    "OkReplyMsg",
    "ReportMsg",
    "ReportReplyMsg",
    "Seat",
]


class ReportMsg(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What lies where: the facts the specification checks."""

    hands: Annotated[list[Cards], Meta(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS),
                     _about("Each seat's cards (in any order within a hand)."),
                     _wire(reason="must list one hand for each of 2 to 6 players")]
    table: Annotated[list[Pair], _about(
        "The attack cards in the order played, each with its cover.")]
    stock: Annotated[Count, _about("Cards left to draw, the face-up trump included.")]
    trump: SuitText
    face_up: Annotated[Card | None, _about(
        "The face-up trump under the stock, while it is there.")]
    discard: Annotated[Count, _about("Cards out of play.")]
    attacker: Annotated[Seat, _about(
        "The attacker of the bout in play (or of the next). Once the game is over (over "
        "true) the rules decide no roles: any seat may stand here, and a checker does not "
        "compare it.")]
    defender: Annotated[Seat, _about(
        "The defender of the bout in play (or of the next). Once the game is over the rules "
        "decide no roles: any seat may stand here, and a checker does not compare it.")]
    taking: Annotated[bool, _about(
        "The defender has announced a take. Once the game is over: false (no bout is in "
        "play, END-6), though a checker does not compare it.")]
    finished: Annotated[list[list[Seat]], _about(
        "Seats that are out, in groups by the bout end at which they went out.")]
    over: Annotated[bool, _about(
        "The game is over (END-3, END-4, END-5): then table is empty, finished and durak "
        "hold the outcome, and attacker, defender and taking carry nothing the rules "
        "decide.")]
    durak: Annotated[Seat | None, _about(
        "The loser once the game is over; null while it goes on and for a draw.")]
    known: Annotated[list[Cards] | UnsetType, _about(
        "Optional: per seat, the cards in that hand that every player knows (VIEW-2). Leave "
        "it out if the engine does not track it.")] = UNSET


class ReportReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to start, load and state."""

    id: Id
    ok: TRUE
    report: ReportMsg


class OkReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to quit."""

    id: Id
    ok: TRUE


# -- each variant of a message on its own ---------------------------------------------------
# A struct's docstring is its description in the JSON Schema that
# :mod:`durak_spec.protocol.schema` generates (msgspec.json.schema_components);
# tests/test_wire.py fuzzes the decoder against that schema.


class _Action(Struct, tag_field="type", forbid_unknown_fields=True):
    player: Seat
    wire_object = 'an action object like {"player": 0, "type": "take"}'


class OpenMsg(_Action, tag="open"):
    """Open a bout with one card, or several of one rank where the rules allow (P0 open
    7♣)."""

    cards: Annotated[Cards, Meta(min_length=1), _wire(reason="must hold at least one card")]


class ThrowMsg(_Action, tag="throw"):
    """Throw in an attack card (P2 throw 7♦)."""

    card: Card


class CoverMsg(_Action, tag="cover"):
    """Cover the attack card attack with card (P1 cover 7♣ with 9♣)."""

    attack: Card
    card: Card


class TransferMsg(_Action, tag="transfer"):
    """Transfer the attack by playing a card of its rank (P1 transfer 7♥)."""

    card: Card


class ShowMsg(_Action, tag="show"):
    """Transfer by showing a trump of the rank (P1 show 7♦)."""

    card: Card


class TakeMsg(_Action, tag="take"):
    """The defender takes the table."""


class DoneMsg(_Action, tag="done"):
    """An attacker adds nothing more."""


class ExchangeMsg(_Action, tag="exchange"):
    """Swap the six of trumps for the face-up trump."""


ACTION_TYPES: Final = (OpenMsg, ThrowMsg, CoverMsg, TransferMsg, ShowMsg, TakeMsg, DoneMsg,
                       ExchangeMsg)
"""Each type of action object; its fields, ``player`` and ``type`` first, are the wire's."""
Action: TypeAlias = (OpenMsg | ThrowMsg | CoverMsg | TransferMsg | ShowMsg | TakeMsg
                     | DoneMsg | ExchangeMsg)


class _Event(Struct, tag_field="type", forbid_unknown_fields=True):
    wire_object = 'an event object like {"type": "draw", "player": 0, "cards": []}'


_Rule: TypeAlias = RuleId | UnsetType
_Bout: TypeAlias = Annotated[int, Meta(ge=1, le=MAX_ID)]


class PlayedMsg(_Event, tag="action"):
    """The action played; rule: the rule that allows it (ATTACK-1, BEAT-2, ...)."""

    action: Action
    text: str | UnsetType = UNSET
    rule: _Rule = UNSET


class TransferredMsg(_Event, tag="transfer"):
    """The attack passed on; defender: who defends now (TRANSFER-1, TRANSFER-7)."""

    player: Seat
    card: Card
    shown: bool
    defender: Seat
    rule: _Rule = UNSET


class TrumpExchangedMsg(_Event, tag="trump-exchange"):
    """The six of trumps swapped for the face-up trump (VAR-1)."""

    player: Seat
    gave: Card
    took: Card
    rule: _Rule = UNSET


class BoutEndedMsg(_Event, tag="bout-ended"):
    """The bout is over, taken by taker or beaten off (taker null); rule: what settled it
    (ATTACK-5, LIMIT-1 .. LIMIT-3, TAKE-3, CLAR-13)."""

    bout: _Bout
    result: Literal["beaten-off", "taken"]
    taker: Seat | None
    cards: Cards
    rule: _Rule = UNSET


class DrewMsg(_Event, tag="draw"):
    """One player's draw from the stock, in drawing order; rule: the rule of the order
    (DRAW-2, CLAR-7, CLAR-8)."""

    player: Seat
    cards: Cards
    rule: _Rule = UNSET


class WentOutMsg(_Event, tag="out"):
    """Players who went out together at this bout end (END-1)."""

    players: list[Seat]
    rule: _Rule = UNSET


class NextBoutMsg(_Event, tag="next-bout"):
    """The roles of the next bout; rule: what chose the attacker (ORDER-4, ORDER-5,
    ORDER-6)."""

    bout: _Bout
    attacker: Seat
    defender: Seat
    rule: _Rule = UNSET


class GameOverMsg(_Event, tag="game-over"):
    """The end of the game; rule: END-3 (a durak), END-4 (a draw), END-5 (a race)."""

    durak: Seat | None
    finishing_order: list[list[Seat]]
    text: str | UnsetType = UNSET
    rule: _Rule = UNSET


EVENT_TYPES: Final = (PlayedMsg, TransferredMsg, TrumpExchangedMsg, BoutEndedMsg, DrewMsg,
                      WentOutMsg, NextBoutMsg, GameOverMsg)
"""Each type of event of an ``apply`` answer (:meth:`to_json` of
:mod:`durak_spec.model.events`)."""
Event: TypeAlias = (PlayedMsg | TransferredMsg | TrumpExchangedMsg | BoutEndedMsg | DrewMsg
                    | WentOutMsg | NextBoutMsg | GameOverMsg)

AXIS_VALUES: Final = MappingProxyType({
    axis.name: (tuple(str(m.value) for m in axis.enum) if axis.enum is not None
                else ("on", "off"))
    for axis in AXES if axis.name != "players"
})
"""Per axis, the values a capability can name (booleans as ``on``/``off``)."""


def _axis_type(name: str) -> Any:
    axis = next(axis for axis in AXES if axis.name == name)
    about = f"{axis.title} ({', '.join(axis.rules)})"
    if axis.enum is not None:  # the values in the axis's order (a Literal's are sorted)
        return Annotated[str, _about(about, enum=[m.value for m in axis.enum])]
    if axis.kind is int:  # well formed, but no game: refused naming DEAL-3
        return Annotated[int, Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS), _about(about), _wire(
            rule="DEAL-3", reason="Durak is played by 2 to 6 players (DEAL-3)")]
    return Annotated[bool, _about(about)]


RulesMsg: Final = defstruct(
    "RulesMsg", [(axis.name, _axis_type(axis.name)) for axis in AXES],
    forbid_unknown_fields=True, module=__name__,
    namespace={"__doc__": "A complete rule set: every variant axis, by name."})
AxesMsg: Final = defstruct(
    "AxesMsg", [(name, list[Annotated[str, Meta(extra_json_schema={"enum": list(values)})]]
                 | UnsetType, UNSET) for name, values in AXIS_VALUES.items()],
    forbid_unknown_fields=True, omit_defaults=True, module=__name__,
    namespace={"__doc__": "Optional: per rule-set axis, the values the engine plays in any "
                          "combination, beyond its whole profiles (booleans as on/off).",
               "wire_object": "a JSON object of axes"})


def _positions() -> list[tuple[str, Any]]:
    seats = list[Seat]
    return [
        ("hands", Annotated[list[Cards], _about("Each seat's cards in canonical order.")]),
        ("stock", Annotated[Cards, _about(
            "The cards to draw, in drawing order; while fewer than six play, the last is the "
            "face-up trump.")]),
        ("trump", SuitText), ("table", list[Pair]),
        ("discard", Annotated[Cards, _about("Cards out of play, in canonical order.")]),
        ("attacker", Seat), ("defender", Seat),
        ("opener", Annotated[Seat, _about(
            "The seat that opened the bout in play (or opens the next).")]),
        ("bout", Annotated[int, Meta(ge=0), _about("How many bouts have ended.")]),
        ("taking", bool),
        ("passed", Annotated[seats, _about(
            "Attackers who said done since the defender last moved.")]),
        ("joined", Annotated[seats, _about(
            "Seats in the order they joined the bout's attack.")]),
        ("start_hands", Annotated[list[Count], _about(
            "Each seat's hand size when the bout in play started.")]),
        ("shown", Annotated[Cards, _about("Trumps shown this bout to transfer.")]),
        ("known", Annotated[list[Cards], _about(
            "For each seat, the cards in its hand that every player knows.")]),
        ("finished", Annotated[list[Annotated[seats, Meta(min_length=1)]], _about(
            "Seats that are out, in groups by the bout end at which they went out.")]),
        ("thrower", Annotated[Seat | None, _about(
            "Under turn_order last-thrower, the seat that played the bout's last attack card; "
            "null otherwise.")]),
    ]


StateMsg: Final = defstruct(
    "StateMsg", [("format", Literal[STATE_FORMAT]), ("version", Literal[VERSION]),
                 ("rules", RulesMsg), *_positions()],
    forbid_unknown_fields=True, module=__name__,
    namespace={"__doc__": "A full position, for load: a saved-position document of "
                          "durak_spec.game.persist (state_to_json), one key per field of "
                          "the game state."})


class _Request(Struct, tag_field="cmd", forbid_unknown_fields=True):
    id: Id


class HelloRequestMsg(_Request, tag="hello"):
    """The handshake: who is the engine, which profiles and player counts it claims, which
    optional capabilities it has."""


class PreviousMsg(Struct, forbid_unknown_fields=True):
    """The last game's outcome, for a later game of a match (ORDER-7)."""

    durak: Seat | None
    finishing_order: list[list[Seat]]


class StartRequestMsg(_Request, tag="start"):
    """Begin a game. The deck lists all 36 cards in dealing and drawing order: six to each
    seat in turn, then the stock in drawing order, its last card the face-up trump
    (CLAR-10). The seed settles chance where the rules leave the first attacker to chance
    (ORDER-2)."""

    rules: RulesMsg  # type: ignore[valid-type]
    deck: Cards
    seed: Annotated[int, Meta(ge=-MAX_ID, le=MAX_ID)]
    previous: PreviousMsg | UnsetType = UNSET


class LoadRequestMsg(_Request, tag="load"):
    """Begin from a full position (only for engines that declare capabilities.load)."""

    state: StateMsg  # type: ignore[valid-type]


class LegalRequestMsg(_Request, tag="legal"):
    """List every legal action of every player who may act now."""


class ApplyRequestMsg(_Request, tag="apply"):
    """Play an action if it is legal; a rejected action changes nothing."""

    action: Action
    then: Annotated[bool | UnsetType, _about(
        "Optional, only to an engine that declares capabilities.step: answer an accepted "
        "action with the report and the legal actions after it (one round trip per "
        "action).")] = UNSET


class StateRequestMsg(_Request, tag="state"):
    """Report the position."""


class QuitRequestMsg(_Request, tag="quit"):
    """Answer, then exit."""


REQUEST_TYPES: Final = (HelloRequestMsg, StartRequestMsg, LoadRequestMsg, LegalRequestMsg,
                        ApplyRequestMsg, StateRequestMsg, QuitRequestMsg)
"""Each request, by its ``cmd``."""
TypedRequest: TypeAlias = (HelloRequestMsg | StartRequestMsg | LegalRequestMsg
                          | ApplyRequestMsg | StateRequestMsg | QuitRequestMsg)
"""The requests msgspec reads on its own (a ``load``'s position has a reader of its own)."""
AnyRequest: TypeAlias = TypedRequest | LoadRequestMsg


class CapabilitiesMsg(Struct, forbid_unknown_fields=True):
    load: Annotated[bool, _about("Whether the engine answers load.")]
    turn_order: Annotated[
        Annotated[list[Literal["free", "opener-first", "last-thrower"]], Meta(min_length=1)]
        | UnsetType, _about(
            "The bout protocols the engine plays, its own first (CLAR-3, CLAR-17, CLAR-18); "
            "default [\"free\"].")] = UNSET
    step: Annotated[bool | UnsetType, _about(
        "Whether the engine answers an apply with then by the report and legal actions "
        "after it too.")] = UNSET
    events: Annotated[bool | UnsetType, _about(
        "Whether the engine's accepted answers to apply carry the events of the step (each "
        "with its rule), compared event by event.")] = UNSET


class HelloReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to hello."""

    id: Id
    ok: TRUE
    protocol: Annotated[Literal[PROTOCOL_VERSION], _wire("version")]  # type: ignore[valid-type]
    name: Text
    version: str
    profiles: Annotated[list[Text], _about(
        "Names of the specification's profiles whose rules the engine plays.")]
    players: Annotated[list[Annotated[int, Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)]], _about(
        "The player counts the engine plays.")]
    capabilities: CapabilitiesMsg
    axes: AxesMsg | UnsetType = UNSET  # type: ignore[valid-type]


class LegalResponseMsg(Struct, forbid_unknown_fields=True):
    """The answer to legal; an empty list means the game is over."""

    id: Id
    ok: TRUE
    actions: list[Action]


class AcceptedReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to apply when the action was legal and is played."""

    id: Id
    ok: TRUE
    accepted: TRUE
    report: Annotated[ReportMsg | UnsetType, _about(
        "With then: the report after the action.")] = UNSET
    actions: Annotated[list[Action] | UnsetType, _about(
        "With then: the legal actions after the action.")] = UNSET
    events: Annotated[list[Event] | UnsetType, _about(
        "Optional, from an engine that declares capabilities.events: what happened in the "
        "step, in order, the action played first, each with the rule that decided it.")] = UNSET


class RejectedReplyMsg(Struct, forbid_unknown_fields=True):
    """The answer to apply when the action is illegal."""

    id: Id
    ok: TRUE
    accepted: FALSE
    reason: Text
    rule: Annotated[RuleId | None, _about(
        "The rule the action breaks, if the engine knows the specification's IDs.")]


class ErrorReplyMsg(Struct, forbid_unknown_fields=True):
    """The engine cannot serve the request (a malformed request, no game yet, an invalid
    position, rules it does not play). Not for illegal actions: those are rejected."""

    id: Annotated[Id | None, _about("null when the request's id could not be read.")]
    ok: FALSE
    error: str
    rule: RuleId | UnsetType | None = UNSET
    declined: Annotated[bool | UnsetType, _about(
        "Only in answer to load: true when the engine cannot represent this position (the "
        "standard way to decline it). The checker counts what needed the position as "
        "skipped, with error as the reason.")] = UNSET


RESPONSE_TYPES: Final = (HelloReplyMsg, ReportReplyMsg, LegalResponseMsg, AcceptedReplyMsg,
                         RejectedReplyMsg, OkReplyMsg, ErrorReplyMsg)
"""Each successful answer, then the error answer."""
