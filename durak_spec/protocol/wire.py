"""The wire protocol of external engines (layer 5): JSON lines to and from protocol values.

An external engine is a command that reads requests on its standard input and writes one
response per request on its standard output, each a single line of JSON (UTF-8, ended by
``\\n``). Every request carries an ``id`` (a whole number) and a ``cmd`` (hello, start,
load, legal, apply, state, quit); the response repeats the ``id``. Every message is declared
once in :mod:`durak_spec.protocol.messages`; ``durak_spec/data/protocol.schema.json`` is
generated from those declarations, and the book's page on the protocol (``book/protocol.md``)
shows its table, the optional capabilities (``load``, ``step``, ``events``,
``turn_order``, ``axes``) and a conversation. This module is the strict Python encoder and
decoder of the same messages.

A request the engine cannot serve gets ``{"id": n, "ok": false, "error": "...", "rule":
"DEAL-1" | null}`` (``id`` null when the request had no readable id; a ``load`` may be
declined with ``"declined": true``); rejecting an illegal action is not an error but an
``apply`` answer with ``"accepted": false``. A ``start`` for a player count outside 2 to 6
is refused naming DEAL-3 (:class:`ProtocolError` with that ``rule``). Cards are rank then
suit (``"7♣"``, ``"10♥"``; also ``"7C"``, ``"10H"``, ``"TH"``), a suit alone ``"♣"`` or
``"C"``; actions are the objects of :meth:`durak_spec.model.actions.Action.to_json`; the
``state`` of ``load`` is a saved position of :mod:`durak_spec.game.persist`.

Decoding is strict and linear in the line. msgspec decodes a line into the struct of its
message, and the line is taken when it is as compact as the encoder writes it (see
:func:`_compact`) and its values pass the checks msgspec does not make (a card's spelling, a
rule ID). Any other line is read by :func:`durak_spec.core.jsonio.read_json` (at most
:data:`MAX_LINE` bytes of UTF-8 I-JSON, nested at most :data:`MAX_DEPTH` deep, no key twice
in an object, no lone surrogates) and walked along the same declarations (:func:`_read`):
a missing field, an unknown field, a value of the wrong type or a card not in the notation
raises :class:`ProtocolError`, which names the field (``report.hands[1]``) and quotes the
offending line, truncated to 200 characters. Nothing read is remembered. Encoding never
fails on text: an error reply is cut to :data:`ERROR_LIMIT` characters, and a lone
surrogate quoted from bad input is written as the text ``\\ud800``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, cast

import msgspec
from msgspec import UNSET
from msgspec import inspect as mi

from durak_spec.core.cards import DECK, Card, CardError, Suit, parse_card
from durak_spec.core.errors import DurakError
from durak_spec.core.jsonio import (
    JsonError,
    Path,
    expect_bool,
    expect_int,
    expect_str,
    fail,
    path_text,
    read_json,
    show,
    write_json,
)
from durak_spec.engine import (
    COVERED,
    COVERS,
    DONES,
    EXCHANGES,
    OPENS,
    SHOWS,
    TAKES,
    THROWS,
    TRANSFERS,
    UNCOVERED,
)
from durak_spec.game.persist import SavedGameError, state_from_json, state_to_json
from durak_spec.model.actions import Action, Cover, Open, ThrowIn, Transfer
from durak_spec.model.events import (
    BoutEnded,
    Drew,
    Event,
    GameOver,
    NextBout,
    Played,
    Transferred,
    TrumpExchanged,
    WentOut,
)
from durak_spec.model.rules import RuleSet, RuleSetError
from durak_spec.model.state import GameState, Outcome
from durak_spec.protocol import Accepted, Capabilities, Rejected, Report, Verdict
from durak_spec.protocol import messages as m
from durak_spec.protocol.messages import MAX_ID

__all__ = [
    "COMMANDS",
    "MAX_DEPTH",
    "MAX_LINE",
    "QUOTE_LIMIT",
    "REPLY_TYPES",
    "ApplyRequest",
    "Command",
    "ErrorReply",
    "HelloReply",
    "HelloRequest",
    "LegalReply",
    "LegalRequest",
    "LoadRequest",
    "MalformedMessage",
    "OkReply",
    "ProtocolError",
    "QuitRequest",
    "Reply",
    "ReportReply",
    "Request",
    "StartRequest",
    "StateRequest",
    "VerdictReply",
    "action_from_wire",
    "card_from_wire",
    "decode_reply",
    "decode_request",
    "encode_reply",
    "encode_request",
    "quote",
    "report_from_json",
    "report_to_json",
]

QUOTE_LIMIT = 200
"""How many characters of an offending line an error message quotes."""

MAX_LINE: Final = 1_000_000
"""The longest line, in bytes, that either side reads as a message."""

MAX_DEPTH: Final = 64
"""The deepest nesting of a message read (a load request needs 5)."""

Command = Literal["hello", "start", "load", "legal", "apply", "state", "quit"]
COMMANDS: tuple[Command, ...] = ("hello", "start", "load", "legal", "apply", "state", "quit")


# -- errors -------------------------------------------------------------------------------


def quote(line: str | bytes, limit: int = QUOTE_LIMIT) -> str:
    """``line`` for an error message: cut to ``limit`` characters, saying how much was cut."""
    if isinstance(line, bytes):
        cut = line[:4 * limit + 4]  # enough bytes for ``limit`` characters
        text = cut.decode("utf-8", errors="replace")
        more = len(line) - len(cut)
    else:
        text, more = line, 0
    text = _characters(text.rstrip("\r\n"))
    if len(text) <= limit and not more:
        return text
    rest = len(text) - limit + more
    return f"{text[:limit]}… ({rest} more {'bytes' if more else 'characters'})"


class ProtocolError(DurakError):
    """A message that breaks the wire protocol.

    ``field`` is the path of the offending field (``"report.hands[1][0]"``, ``None`` when
    the whole message is at fault), ``reason`` says what is wrong, ``line`` is the message
    as received (``str(error)`` quotes it cut to :data:`QUOTE_LIMIT` characters), and
    ``message_id`` the request or response id when it could be read. ``rule`` is set when
    the message is well formed but describes something the rules forbid (a ``load`` of a
    position no game can reach): then it names the broken rule.
    """

    code = "protocol"

    def __init__(self, reason: str, *, field: str | None = None, line: str | bytes | None = None,
                 message_id: int | None = None, rule: str | None = None) -> None:
        self.reason = reason
        self.field = field
        self.line = line
        self.message_id = message_id
        where = f"{field}: " if field else ""
        broken = f" ({rule})" if rule else ""
        quoted = f" (in line: {quote(line)})" if line is not None else ""
        super().__init__(f"{where}{reason}{broken}{quoted}", rule=rule)

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.reason, self.field, self.line, self.message_id,
                           self.rule))


class MalformedMessage(ProtocolError):
    """A line that is not a JSON object at all (bad JSON, bad UTF-8, another JSON value)."""

    code = "malformed-message"


def _rebuild(cls: type[ProtocolError], reason: str, field: str | None,
             line: str | bytes | None, message_id: int | None,
             rule: str | None) -> ProtocolError:
    return cls(reason, field=field, line=line, message_id=message_id, rule=rule)


class _AgainstTheRules(JsonError):
    """Internal: a well-formed message that breaks a rule (a ``load``'s position, a
    ``start`` for 7 players); names the rule."""

    def __init__(self, reason: str, *, path: str, rule: str | None) -> None:
        super().__init__(reason, path=path)
        self.rule = rule


# -- messages ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Ask the engine who it is (the handshake)."""

    id: int
    cmd: ClassVar[Command] = "hello"


@dataclass(frozen=True, slots=True)
class StartRequest:
    """Begin a game from a rule set and a deck order (CLAR-10)."""

    id: int
    rules: RuleSet
    deck: tuple[Card, ...]
    seed: int = 0
    previous: Outcome | None = None
    """The last game's outcome, for a later game of a match (ORDER-7); optional on the
    wire as ``"previous": {"durak": seat or null, "finishing_order": [[seats]]}``."""
    players: int | None = None
    """A number of players to ask for instead of ``rules.players``: one no rule set holds
    when a checker asks whether the engine refuses it (DEAL-3). Only encoded: a decoded
    ``start`` for such a count is refused naming DEAL-3."""
    cmd: ClassVar[Command] = "start"


@dataclass(frozen=True, slots=True)
class LoadRequest:
    """Begin from a full position (optional capability ``load``)."""

    id: int
    state: GameState
    cmd: ClassVar[Command] = "load"


@dataclass(frozen=True, slots=True)
class LegalRequest:
    """List every legal action of every player who may act."""

    id: int
    cmd: ClassVar[Command] = "legal"


@dataclass(frozen=True, slots=True)
class ApplyRequest:
    """Play an action if it is legal."""

    id: int
    action: Action
    then: bool = False
    """Ask for the report and the legal actions after an accepted action in the same
    answer (only of an engine that declares ``capabilities.step``)."""
    cmd: ClassVar[Command] = "apply"


@dataclass(frozen=True, slots=True)
class StateRequest:
    """Report the position."""

    id: int
    cmd: ClassVar[Command] = "state"


@dataclass(frozen=True, slots=True)
class QuitRequest:
    """Answer, then exit."""

    id: int
    cmd: ClassVar[Command] = "quit"


Request = (HelloRequest | StartRequest | LoadRequest | LegalRequest | ApplyRequest
           | StateRequest | QuitRequest)


@dataclass(frozen=True, slots=True)
class HelloReply:
    id: int
    capabilities: Capabilities


@dataclass(frozen=True, slots=True)
class ReportReply:
    """The answer to ``start``, ``load`` and ``state``."""

    id: int
    report: Report


@dataclass(frozen=True, slots=True)
class LegalReply:
    id: int
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class VerdictReply:
    id: int
    verdict: Verdict
    report: Report | None = None
    """With ``then`` (capability ``step``): the report after an accepted action."""
    actions: tuple[Action, ...] | None = None
    """With ``then``: the legal actions after an accepted action."""


@dataclass(frozen=True, slots=True)
class OkReply:
    """The answer to ``quit``."""

    id: int


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """The engine could not serve the request; ``rule`` names a rule ID when one applies.

    ``declined`` (``"declined": true`` on the wire, only in answer to ``load``) is the
    standard way to say "I cannot represent this position": the checker skips what needed
    it, with ``error`` as the reason."""

    id: int | None
    error: str
    rule: str | None = None
    declined: bool = False


Reply = HelloReply | ReportReply | LegalReply | VerdictReply | OkReply | ErrorReply

REPLY_TYPES: Final[Mapping[Command, type[Reply]]] = MappingProxyType({
    "hello": HelloReply, "start": ReportReply, "load": ReportReply, "legal": LegalReply,
    "apply": VerdictReply, "state": ReportReply, "quit": OkReply,
})
"""The successful reply to each command."""


# -- cards ----------------------------------------------------------------------------------


_WIRE_CARDS: Final = MappingProxyType({
    spelling.replace("10", ten): card for card in DECK for spelling in (str(card), card.ascii)
    for ten in ("10", "T")})
"""Every spelling of a card the wire accepts: ``7♣`` and ``7C``, ``10♥``, ``10H``, ``TH``."""
_CARD_OF: Final = cast("Callable[[object], Card]", _WIRE_CARDS.copy().__getitem__)
"""The card of a spelling; ``KeyError`` for anything else (another string, ``UNSET``)."""
_WIRE_SUITS: Final = MappingProxyType(
    {**{s.symbol: s for s in Suit}, **{s.letter: s for s in Suit}})
_SUIT_TEXT: Final = MappingProxyType({suit: suit.symbol for suit in Suit})
"""Each suit as the encoder writes it (a suit may also come as its number: a Suit is an
int)."""
_QUOTED: Final = MappingProxyType({card: f'"{card}"' for card in DECK}).copy().__getitem__
"""Each card as the JSON string the encoder writes."""


def card_from_wire(value: object, field: Path = "card") -> Card:
    """A card in wire notation (``"7♣"``, ``"10♥"``, or ASCII ``"7C"``, ``"TH"``)."""
    if isinstance(value, str):
        if value in _WIRE_CARDS:
            return _WIRE_CARDS[value]
        try:
            parsed = parse_card(value)
        except CardError as error:
            fail(field, str(error))
        fail(field, f"{show(value)} is not in wire notation: write \"{parsed}\" "
             f"(or \"{parsed.ascii}\"), rank then suit with nothing between")
    fail(field, f"must be a card like \"7♣\" or \"7C\", not {show(value)}")


def _is_rule(text: object) -> bool:
    """Whether ``text`` is written as a rule ID is (``BEAT-3``)."""
    head, dash, tail = text.partition("-") if isinstance(text, str) else ("", "", "")
    return bool(dash and head.isascii() and head.isalpha() and head.isupper()
                and tail.isascii() and tail.isdigit())


# -- the strict reader: one walk along the declarations ----------------------------------------


def _read(value: Any, kind: mi.Type, path: Path) -> Any:
    """``value`` (as :func:`~durak_spec.core.jsonio.read_json` read it) checked against
    ``kind``, a declaration of :mod:`~durak_spec.protocol.messages` as ``msgspec.inspect``
    tells it; structs are built, a whole number written ``3.0`` is ``3``. The first value
    that does not fit raises :class:`JsonError` with its path, worded from the declaration
    (its ``Meta(extra=...)`` words what no type states)."""
    extra: Mapping[str, str] = {}
    enum = None
    if isinstance(kind, mi.Metadata):
        extra = kind.extra or {}
        enum = (kind.extra_json_schema or {}).get("enum")
        kind = kind.type
    check, reason = extra.get("wire"), extra.get("reason")
    if isinstance(kind, mi.UnionType):
        types = [t for t in kind.types if not isinstance(t, mi.NoneType)]
        if value is None and len(types) < len(kind.types):
            return None
        if len(types) > 1:  # a tagged union of structs
            return _read_struct(value, _variant(value, types, path), path)
        return _read(value, types[0], path)
    if check == "card":
        card_from_wire(value, path)
        return value
    if check == "version":  # any version is read; the checker compares it with its own
        return expect_int(value, path, 1)
    if isinstance(kind, mi.IntType):
        low = -MAX_ID if kind.ge is None else kind.ge
        high = MAX_ID if kind.le is None else kind.le
        if "rule" not in extra:
            return expect_int(value, path, low, high)
        number = expect_int(value, path, -MAX_ID)
        if not low <= number <= high:
            raise _AgainstTheRules(f"must be from {low} to {high}, not {number}: {reason}",
                                   path=path_text(path), rule=extra["rule"])
        return number
    if isinstance(kind, mi.BoolType):
        return expect_bool(value, path)
    if isinstance(kind, mi.StrType):
        if enum is not None and (not isinstance(value, str) or value not in enum):
            fail(path, f"{reason or 'must be one of ' + ', '.join(enum)}, not {show(value)}")
        if check == "rule" and not _is_rule(value):
            fail(path, f"must be a rule ID like \"BEAT-3\" or null, not {show(value)}")
        return expect_str(value, path, empty=check != "text")
    if isinstance(kind, mi.LiteralType):
        if type(value) not in (str, int) or value not in kind.values:
            choices = ", ".join([show(v) for v in kind.values])
            fail(path, f"must be {'one of ' if len(kind.values) > 1 else ''}{choices}, "
                 f"not {show(value)}")
        return value
    if isinstance(kind, mi.ListType | mi.TupleType):
        return _read_array(value, kind, path, reason)
    if isinstance(kind, mi.StructType):
        return _read_struct(value, kind, path)
    if isinstance(kind, mi.NoneType) and value is not None:
        fail(path, f"must be null, not {show(value)}")
    return value


def _read_array(value: Any, kind: mi.ListType | mi.TupleType, path: Path,
                reason: str | None) -> list[Any]:
    if isinstance(kind, mi.TupleType):  # a pair
        if not isinstance(value, list) or len(value) != len(kind.item_types):
            fail(path, f"{reason or 'must be a JSON array'}, not {show(value)}")
        return [_read(item, t, (path, i))
                for i, (item, t) in enumerate(zip(value, kind.item_types, strict=True))]
    item = kind.item_type
    if not isinstance(value, list):
        cards = isinstance(item, mi.Metadata) and (item.extra or {}).get("wire") == "card"
        fail(path, f"must be a JSON array{' of cards' if cards else ''}, not {show(value)}")
    low, high = kind.min_length or 0, kind.max_length
    if not low <= len(value) <= (len(value) if high is None else high):
        wanted = f"from {low} to {high} items" if high is not None else f"at least {low} item"
        fail(path, f"{reason or 'must hold ' + wanted}, not {len(value)}")
    return [_read(member, item, (path, i)) for i, member in enumerate(value)]


def _variant(value: Any, types: list[mi.Type], path: Path) -> mi.StructType:
    """The struct of a tagged union that ``value`` names by its tag (``type``, ``cmd``)."""
    structs = {t.tag: t for t in types if isinstance(t, mi.StructType)}
    first = next(iter(structs.values()))
    if not isinstance(value, dict):
        fail(path, f"must be {_object(first.cls)}, not {show(value)}")
    tag_field = str(first.tag_field)
    tag = value.get(tag_field)
    if not isinstance(tag, str) or tag not in structs:
        fail((path, tag_field), f"must be one of {', '.join(map(str, structs))}, "
             f"not {show(tag)}")
    return structs[tag]


def _object(cls: type) -> str:
    return str(getattr(cls, "wire_object", "a JSON object"))


def _read_struct(value: Any, kind: mi.StructType, path: Path) -> Any:
    """A struct from a JSON object: every required field given, no other key."""
    if kind.cls is m.StateMsg:  # a position is checked against the rules too
        return _state(value, path)
    if not isinstance(value, dict):
        fail(path, f"must be {_object(kind.cls)}, not {show(value)}")
    names = [f.encode_name for f in kind.fields]
    for field in kind.fields:
        if field.required and field.encode_name not in value:
            fail((path, field.encode_name), "is missing")
    if kind.tag_field is not None:  # the tag after the fields its base class declares
        names.insert(len(msgspec.structs.fields(kind.cls.__mro__[1])), kind.tag_field)
    for key in value:
        if key not in names:
            fail((path, key), f"is not a field of this {'message' if path is None else 'object'}"
                 f" (its fields are {', '.join(names)})")
    return kind.cls(**{f.name: _read(value[f.encode_name], f.type, (path, f.encode_name))
                       for f in kind.fields if f.encode_name in value})


def _state(value: object, path: Path) -> GameState:
    """A full position (a ``durak-spec/state`` document of :mod:`durak_spec.game.persist`)."""
    try:
        return state_from_json(value)
    except SavedGameError as error:
        where = path_text((path, error.path)) if error.path else path_text(path)
        raise _AgainstTheRules(error.reason, path=where, rule=error.rule) from None

_TYPES: Final = MappingProxyType({kind: mi.type_info(kind) for kind in (
    m.AnyRequest, m.Action, m.ReportMsg, *m.RESPONSE_TYPES)})


# -- from structs to protocol values --------------------------------------------------------
# Shared by both paths. On the typed path a value msgspec does not check (a card's
# spelling, a rule ID) raises KeyError, and the strict reader then names it.

_ONE_CARD: Final[Mapping[type, tuple[Mapping[Card, Action], ...]]] = MappingProxyType({
    m.ThrowMsg: THROWS, m.TransferMsg: TRANSFERS, m.ShowMsg: SHOWS})
_NO_CARD: Final[Mapping[type, tuple[Action, ...]]] = MappingProxyType({
    m.TakeMsg: TAKES, m.DoneMsg: DONES, m.ExchangeMsg: EXCHANGES})


def _action_of(message: Any) -> Action:
    """The engine's shared action of an action struct."""
    kind, card_of = type(message), _CARD_OF
    player: int = message.player
    if kind in _ONE_CARD:
        return _ONE_CARD[kind][player][card_of(message.card)]
    if kind is m.CoverMsg:
        return COVERS[player][card_of(message.attack)][card_of(message.card)]
    if kind is m.OpenMsg:
        if len(message.cards) == 1:
            return OPENS[player][card_of(message.cards[0])]
        return Open(player, tuple(map(card_of, message.cards)))
    return _NO_CARD[kind][player]


def _report_of(message: m.ReportMsg) -> Report:
    card_of = _CARD_OF
    hands = tuple([tuple(sorted(map(card_of, hand))) for hand in message.hands])
    table = tuple([UNCOVERED[card_of(attack)] if cover is None
                   else COVERED[card_of(attack)][card_of(cover)]
                   for attack, cover in message.table])
    face_up = None if message.face_up is None else card_of(message.face_up)
    known = () if message.known is UNSET else tuple(
        [tuple(sorted(map(card_of, cards))) for cards in message.known])
    return Report(hands, table, message.stock, _WIRE_SUITS[message.trump], face_up,
                  message.discard, message.attacker, message.defender, message.taking,
                  tuple([tuple(group) for group in message.finished]), message.over,
                  message.durak, known)


def _event_of(message: Any, path: Path) -> Event:
    kind, rule, cards = type(message), "" if message.rule is UNSET else message.rule, _CARD_OF
    if message.rule is not UNSET and not _is_rule(rule):
        raise KeyError(rule)
    if kind is m.PlayedMsg:
        return Played(_action_of(message.action), rule)
    if kind is m.TransferredMsg:
        return Transferred(message.player, cards(message.card), message.shown,
                           message.defender, rule)
    if kind is m.TrumpExchangedMsg:
        return TrumpExchanged(message.player, cards(message.gave), cards(message.took), rule)
    if kind is m.BoutEndedMsg:
        if message.result != ("beaten-off" if message.taker is None else "taken"):
            fail((path, "result"), f"must be \"taken\" with a taker, \"beaten-off\" "
                 f"without, not {show(message.result)}")
        return BoutEnded(message.bout, message.taker, tuple(map(cards, message.cards)), rule)
    if kind is m.DrewMsg:
        return Drew(message.player, tuple(map(cards, message.cards)), rule)
    if kind is m.WentOutMsg:
        return WentOut(tuple(message.players), rule)
    if kind is m.NextBoutMsg:
        return NextBout(message.bout, message.attacker, message.defender, rule)
    return GameOver(Outcome(tuple(map(tuple, message.finishing_order)), message.durak), rule)


def _request_of(message: Any) -> Request:
    kind, ident = type(message), message.id
    if kind in _PLAIN_REQUESTS:
        return _PLAIN_REQUESTS[kind](ident)
    if kind is m.ApplyRequestMsg:
        return ApplyRequest(ident, _action_of(message.action), message.then is True)
    if kind is m.StartRequestMsg:
        previous = message.previous
        try:
            rules = RuleSet.from_dict(msgspec.structs.asdict(message.rules))
        except RuleSetError as error:
            fail("rules", str(error))
        return StartRequest(ident, rules,
                            tuple(map(_CARD_OF, message.deck)), message.seed,
                            None if previous is UNSET else Outcome(
                                tuple(map(tuple, previous.finishing_order)), previous.durak))
    return LoadRequest(ident, message.state)


_PLAIN_REQUESTS: Final[Mapping[type, Callable[[int], Request]]] = MappingProxyType({
    m.LegalRequestMsg: LegalRequest, m.StateRequestMsg: StateRequest,
    m.HelloRequestMsg: HelloRequest, m.QuitRequestMsg: QuitRequest})


def _reply_of(message: Any, cmd: Command) -> Reply:
    kind, ident = type(message), message.id
    if kind is m.ErrorReplyMsg:
        if message.declined is True and cmd != "load":
            fail("declined", f"only a load may be declined, not {cmd}")
        return ErrorReply(ident, message.error, None if message.rule is UNSET else message.rule,
                          message.declined is True)
    if message.ok is not True:
        raise KeyError("ok")
    if kind is m.ReportReplyMsg:
        return ReportReply(ident, _report_of(message.report))
    if kind is m.LegalResponseMsg:
        return LegalReply(ident, tuple([_action_of(a) for a in message.actions]))
    if kind is m.RejectedReplyMsg:
        rule, reason = message.rule, message.reason
        if message.accepted is not False or not reason.strip() or (
                rule is not None and not _is_rule(rule)):
            raise KeyError("accepted")
        return VerdictReply(ident, Rejected(reason, rule))
    if kind is m.AcceptedReplyMsg:
        report, actions, events = message.report, message.actions, message.events
        if message.accepted is not True:
            raise KeyError("accepted")
        accepted = _ACCEPTED if events is UNSET else Accepted(
            tuple([_event_of(event, ("events", i)) for i, event in enumerate(events)]))
        if report is UNSET and actions is UNSET:
            return VerdictReply(ident, accepted)
        if report is UNSET or actions is UNSET:  # one round trip: the position after it
            fail("report" if report is UNSET else "actions", "is missing")
        return VerdictReply(ident, accepted, _report_of(report),
                            tuple([_action_of(a) for a in actions]))
    if kind is m.OkReplyMsg:
        return OkReply(ident)
    extra, axes = message.capabilities, message.axes  # a HelloReplyMsg
    return HelloReply(ident, Capabilities(
        name=message.name, version=message.version, protocol=message.protocol,
        profiles=tuple(message.profiles), players=tuple(message.players), load=extra.load,
        axes={} if axes is UNSET else {name: tuple(values) for name, values
                                       in msgspec.structs.asdict(axes).items()
                                       if values is not UNSET},
        turn_orders=("free",) if extra.turn_order is UNSET else tuple(extra.turn_order),
        step=extra.step is True, events=extra.events is True))


_ACCEPTED: Final = Accepted()


def action_from_wire(value: object, field: Path = "action") -> Action:
    """An action from its JSON object (:meth:`Action.to_json`), read strictly: the first
    wrong field is named (:class:`JsonError`)."""
    return _action_of(_read(value, _TYPES[m.Action], field))


def report_from_json(value: object, field: Path = "report") -> Report:
    """A report from its JSON object; the cards of each hand are sorted canonically.

    ``known`` (per seat, the cards of that hand every player knows, VIEW-2) is optional:
    an engine that does not track it leaves it out, and the report has ``known=()``.
    The first wrong field is named.
    """
    return _report_of(_read(value, _TYPES[m.ReportMsg], field))


# -- encoding ---------------------------------------------------------------------------------


def _action_text(action: Action) -> str:
    """The JSON text of an action (``write_json(action.to_json())``, written directly)."""
    player = int(action.player)
    if isinstance(action, Cover):
        return (f'{{"player":{player},"type":"cover","attack":{_QUOTED(action.attack)},'
                f'"card":{_QUOTED(action.card)}}}')
    if isinstance(action, ThrowIn):
        return f'{{"player":{player},"type":"throw","card":{_QUOTED(action.card)}}}'
    if isinstance(action, Transfer):
        kind = "show" if action.show else "transfer"
        return f'{{"player":{player},"type":"{kind}","card":{_QUOTED(action.card)}}}'
    if isinstance(action, Open):
        return f'{{"player":{player},"type":"open","cards":{_hand_text(action.played)}}}'
    return f'{{"player":{player},"type":"{action.kind}"}}'


def _report_text(report: Report) -> str:
    """A report as JSON text: the one encoder of reports (it is on every request's path)."""
    quoted = _QUOTED
    hands = ",".join(map(_hand_text, report.hands))
    known = ",".join(map(_hand_text, report.known))
    table = ",".join([f"[{quoted(a)},{'null' if c is None else quoted(c)}]"
                      for a, c in report.table])
    finished = ",".join(["[" + ",".join([str(int(s)) for s in group]) + "]"
                         for group in report.finished])
    face_up = "null" if report.face_up is None else quoted(report.face_up)
    durak = "null" if report.durak is None else str(int(report.durak))
    taking = "true" if report.taking else "false"
    over = "true" if report.over else "false"
    return (f'{{"hands":[{hands}],"table":[{table}],"stock":{int(report.stock)},'
            f'"trump":"{_SUIT_TEXT[report.trump]}","face_up":{face_up},'
            f'"discard":{int(report.discard)},"attacker":{int(report.attacker)},'
            f'"defender":{int(report.defender)},"taking":{taking},'
            f'"finished":[{finished}],"over":{over},"durak":{durak},'
            f'"known":[{known}]}}')


def _hand_text(hand: tuple[Card, ...]) -> str:
    """A hand's cards as a JSON array."""
    return "[" + ",".join(map(_QUOTED, hand)) + "]"


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON object of a report (what the encoder writes, as a dict)."""
    value: dict[str, Any] = read_json(_report_text(report))
    return value


def _capabilities_json(caps: Capabilities) -> dict[str, object]:
    return {"protocol": caps.protocol, "name": caps.name, "version": caps.version,
            "profiles": list(caps.profiles), "players": list(caps.players),
            "axes": {name: list(values) for name, values in caps.axes.items()},
            "capabilities": {"load": caps.load,
                             **({"turn_order": list(caps.turn_orders)}
                                if caps.turn_orders != ("free",) else {}),
                             **({"step": True} if caps.step else {}),
                             **({"events": True} if caps.events else {})}}


ERROR_LIMIT: Final = 1000
"""The longest ``error`` text of an error reply, in characters (longer ones are cut)."""


def _load_line(line: str | bytes) -> dict[str, Any]:
    try:
        data = read_json(line, what="the line", max_bytes=MAX_LINE, max_depth=MAX_DEPTH)
    except JsonError as error:
        raise MalformedMessage(error.message, line=line) from None
    if not isinstance(data, dict):
        raise MalformedMessage(f"a message must be a JSON object, not {show(data)}",
                               line=line)
    return data


def _failed(error: JsonError, line: str | bytes, data: Mapping[str, Any]) -> ProtocolError:
    rule = error.rule if isinstance(error, _AgainstTheRules) else None
    ident = data.get("id")
    return ProtocolError(error.reason, field=error.path or None, line=line, rule=rule,
                         message_id=ident if type(ident) is int and 0 <= ident <= MAX_ID
                         else None)


def encode_request(request: Request) -> str:
    """One request as a JSON line (without the final newline)."""
    if isinstance(request, ApplyRequest):
        then = ',"then":true' if request.then else ""
        return (f'{{"id":{int(request.id)},"cmd":"apply","action":'
                f'{_action_text(request.action)}{then}}}')
    if isinstance(request, StartRequest):
        rules = request.rules.to_dict()
        if request.players is not None:
            rules["players"] = request.players
        start: dict[str, object] = {
            "id": request.id, "cmd": "start", "rules": rules,
            "deck": [str(c) for c in request.deck], "seed": request.seed}
        if request.previous is not None:
            start["previous"] = {"durak": request.previous.durak, "finishing_order": [
                list(group) for group in request.previous.finishing_order]}
        return write_json(start)
    if isinstance(request, LoadRequest):
        return write_json({"id": request.id, "cmd": "load",
                           "state": state_to_json(request.state)})
    return f'{{"id":{int(request.id)},"cmd":"{request.cmd}"}}'


def encode_reply(reply: Reply) -> str:
    """One response as a JSON line (without the final newline).

    The line can always be written as UTF-8; an error's text is cut to
    :data:`ERROR_LIMIT` characters.
    """
    if isinstance(reply, LegalReply):
        actions = ",".join([_action_text(a) for a in reply.actions])
        return f'{{"id":{int(reply.id)},"ok":true,"actions":[{actions}]}}'
    if isinstance(reply, ReportReply):
        return f'{{"id":{int(reply.id)},"ok":true,"report":{_report_text(reply.report)}}}'
    if isinstance(reply, VerdictReply):
        verdict = reply.verdict
        if isinstance(verdict, Rejected):
            return write_json({"id": reply.id, "ok": True, "accepted": False,
                               "reason": _cut(verdict.reason), "rule": verdict.rule})
        events = "" if verdict.events is None else \
            f',"events":{write_json([e.to_json() for e in verdict.events])}'
        if reply.report is not None and reply.actions is not None:
            actions = ",".join([_action_text(a) for a in reply.actions])
            return (f'{{"id":{int(reply.id)},"ok":true,"accepted":true,'
                    f'"report":{_report_text(reply.report)},"actions":[{actions}]{events}}}')
        return f'{{"id":{int(reply.id)},"ok":true,"accepted":true{events}}}'
    if isinstance(reply, ErrorReply):
        data: dict[str, object] = {"id": reply.id, "ok": False, "error": _cut(reply.error)}
        if reply.rule is not None:
            data["rule"] = reply.rule
        if reply.declined:
            data["declined"] = True
        return write_json(data)
    if isinstance(reply, HelloReply):
        return write_json({"id": reply.id, "ok": True, **_capabilities_json(reply.capabilities)})
    return f'{{"id":{int(reply.id)},"ok":true}}'


def _cut(text: str) -> str:
    """A message for a reply: at most :data:`ERROR_LIMIT` characters, and characters only
    (a lone surrogate quoted from bad input is written as the text ``\\ud800``)."""
    if len(text) > ERROR_LIMIT:
        text = f"{text[:ERROR_LIMIT]}… ({len(text) - ERROR_LIMIT} more characters)"
    return _characters(text)


def _characters(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors="backslashreplace").decode("utf-8")
    return text


# -- decoding: msgspec first, the strict reader to name a fault --------------------------------

_ENCODE: Final = msgspec.json.Encoder().encode
_DECODE_REQUEST: Final = msgspec.json.Decoder(m.TypedRequest).decode
_REPORT: Final = (msgspec.json.Decoder(m.ReportReplyMsg).decode,)
_DECODERS: Final[Mapping[str, tuple[Callable[[str | bytes], Any], ...]]] = MappingProxyType({
    "start": _REPORT, "load": _REPORT, "state": _REPORT,
    "legal": (msgspec.json.Decoder(m.LegalResponseMsg).decode,),
    "apply": (msgspec.json.Decoder(m.AcceptedReplyMsg).decode,
              msgspec.json.Decoder(m.RejectedReplyMsg).decode),
    "quit": (msgspec.json.Decoder(m.OkReplyMsg).decode,)})
"""The structs msgspec decodes an answer into, by command; ``hello``, ``load`` requests and
error replies are always read strictly."""
_NOT_TYPED: Final = (msgspec.MsgspecError, ValueError, KeyError, JsonError)


def _compact(line: str | bytes, message: msgspec.Struct) -> bool:
    """Whether ``line``, which msgspec decoded into ``message``, is as compact as the
    encoder writes it; only then is the struct taken (else the strict reader reads it).

    msgspec keeps the last of two values of one key, so a line is taken only when its
    length is that of its struct encoded again (msgspec's key order differs, not its
    length). That proves no key was given twice: without a backslash in the line, a string
    takes as many bytes in the line as msgspec writes (tests/test_wire_typed.py checks it
    for every character), a number no fewer, and anything else - white space, a key given
    twice - makes the line longer."""
    data = line.encode() if isinstance(line, str) else line  # not empty: msgspec read it
    return _BACKSLASH not in data and len(_ENCODE(message)) == len(data) - (data[-1] == _NEWLINE)


_BACKSLASH: Final = ord("\\")
_NEWLINE: Final = ord("\n")


def _typed_request(line: str | bytes) -> Request | None:
    """The request msgspec reads, or ``None`` for the strict reader (refused, a value that
    fails a check, not compact)."""
    try:
        message = _DECODE_REQUEST(line)
        request = _request_of(message)
    except _NOT_TYPED:
        return None
    return request if _compact(line, message) else None


def _typed_reply(line: str | bytes, cmd: Command) -> Reply | None:
    """The answer msgspec reads, or ``None`` for the strict reader."""
    for decode in _DECODERS.get(cmd, ()):
        try:
            message = decode(line)
            reply = _reply_of(message, cmd)
        except msgspec.ValidationError:  # not this struct: an apply's answer has two
            continue
        except _NOT_TYPED:
            return None
        return reply if _compact(line, message) else None
    return None


def decode_request(line: str | bytes) -> Request:
    """Parse one request line strictly; raises :class:`ProtocolError` naming the field."""
    return _typed_request(line) or _strict_request(line)


def _strict_request(line: str | bytes) -> Request:
    data = _load_line(line)
    try:
        return _request_of(_read(data, _TYPES[m.AnyRequest], None))
    except JsonError as error:
        raise _failed(error, line, data) from None


def decode_reply(line: str | bytes, cmd: Command) -> Reply:
    """Parse the response to a ``cmd`` request strictly.

    The result is the command's reply type (:data:`REPLY_TYPES`) or an :class:`ErrorReply`;
    whether its id is the request's is the caller's check.
    """
    if cmd not in REPLY_TYPES:
        raise ValueError(f"unknown command {cmd!r}; commands are {', '.join(COMMANDS)}")
    return _typed_reply(line, cmd) or _strict_reply(line, cmd)


def _strict_reply(line: str | bytes, cmd: Command) -> Reply:
    data = _load_line(line)
    kind: Any = _SUCCESS[cmd]
    if data.get("ok") is False:
        kind = m.ErrorReplyMsg
    elif cmd == "apply" and data.get("accepted") is False:
        kind = m.RejectedReplyMsg
    try:
        return _reply_of(_read(data, _TYPES[kind], None), cmd)
    except JsonError as error:
        raise _failed(error, line, data) from None


_SUCCESS: Final[Mapping[Command, type]] = MappingProxyType({
    "hello": m.HelloReplyMsg, "start": m.ReportReplyMsg, "load": m.ReportReplyMsg,
    "legal": m.LegalResponseMsg, "apply": m.AcceptedReplyMsg, "state": m.ReportReplyMsg,
    "quit": m.OkReplyMsg})
"""The declaration of each command's successful answer (a rejection: ``RejectedReplyMsg``)."""
