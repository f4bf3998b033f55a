"""The wire protocol of external engines (layer 5): JSON lines to and from protocol values.

An external engine is a command that reads requests on its standard input and writes one
response per request on its standard output, each a single line of JSON (UTF-8, ended by
``\\n``). Every request carries an ``id`` (a whole number) and a ``cmd``; the response
repeats the ``id``. ``durak_spec/data/protocol.schema.json`` is the JSON Schema of every
message; this module is the strict Python encoder and decoder of the same messages.

=========  ===============================================  ====================================
cmd        request fields                                   successful response fields
=========  ===============================================  ====================================
hello      (none)                                           protocol, name, version, profiles,
                                                            players, capabilities {load,
                                                            turn_order, step, events
                                                            (optional)},
                                                            axes {axis: [values]} (optional)
start      rules {axis: value, every axis},                 report
           deck [36 cards in dealing and drawing order],
           seed (ORDER-2's chance)
load       state (a position document, see below)          report  (optional: capability load)
legal      (none)                                           actions [every legal action]
apply      action, then (optional: capability step)         accepted: true, or accepted: false
                                                            with reason and rule (ID or null);
                                                            with then, an accepted answer
                                                            also carries report and actions;
                                                            with capability events, events
state      (none)                                           report
quit       (none)                                           (none); the engine then exits
=========  ===============================================  ====================================

An engine that declares ``capabilities.step`` answers an ``apply`` that carries ``"then":
true`` with the report and the legal actions after the action too (when it is accepted),
so that a checker needs one round trip per action instead of three (``apply``, ``state``,
``legal``); engines that do not declare it are never sent ``then``.

An engine that declares ``capabilities.events`` adds ``events`` to an accepted answer: what
happened in the step, in order (the objects of :meth:`to_json` of
:mod:`durak_spec.model.events`: the action, a transfer, a trump exchange, the bout's end,
each draw, who went out, the next bout or the game's end), each with the ``rule`` that
decided it. The checker then compares the step event by event. Once a report says the game
is ``over``, its ``attacker``, ``defender`` and ``taking`` carry nothing the rules decide
and are not compared.

An engine that plays a turn-based bout protocol says so in ``capabilities.turn_order``:
``["last-thrower"]`` or ``["opener-first"]`` (CLAR-17, CLAR-18; default ``["free"]``,
CLAR-3); the checker then plays its profiles, scenarios and lockstep games under that
protocol, and its ``legal`` lists the actions of the one seat to act.

A successful response has ``"ok": true``; a request the engine cannot serve gets
``{"id": n, "ok": false, "error": "...", "rule": "DEAL-1" | null}`` (``rule`` optional, and
``id`` null when the request had no readable id). An engine with the ``load`` capability
that cannot represent one position declines it with the standard answer
``{"id": n, "ok": false, "error": "why", "declined": true}`` (only to ``load``): the
checker skips what needed that position, giving the reason. Rejecting an illegal action is *not* an
error: it is an ``apply`` response with ``"accepted": false``. A checker may ask for a game
no rule set allows, a ``start`` whose ``rules.players`` lies outside the schema's 2 to 6
(the vectors' ``setup`` step): the engine refuses it like any start it cannot play, with an
error naming ``"rule": "DEAL-3"`` (this decoder raises a :class:`ProtocolError` whose
``rule`` is DEAL-3, which :mod:`~durak_spec.protocol.serve` answers so).

Cards are written in the project's notation, rank then suit: ``"7♣"``, ``"10♥"``; an
engine may write the ASCII suit letters instead (``"7C"``, ``"10H"``, also ``"TH"``).
A suit alone (the trump) is ``"♣"`` or ``"C"``. Actions are the objects of
:meth:`durak_spec.model.actions.Action.to_json`, for example
``{"player": 1, "type": "cover", "attack": "7♣", "card": "9♣"}``. A report lists the hands
(in any order inside a hand; the decoder sorts them canonically), the table as
``[[attack, cover or null], ...]`` in the order the attack cards were played, the sizes of
the stock and the discard, the trump and the face-up card, the roles and the outcome, and
(optionally) ``known``: per seat, the cards of that hand that every player knows.

The ``state`` of ``load`` is a full position in the saved-position format of
:mod:`durak_spec.game.persist` (:func:`~durak_spec.game.persist.state_to_json`): ``"format":
"durak-spec/state"``, ``"version": 1``, the ``rules`` naming every axis, and one key per
field of :class:`~durak_spec.model.state.GameState` (hands, stock in drawing order, trump, table
as ``[[attack, cover or null], ...]``, discard, attacker, defender, opener, bout, taking,
passed, joined, start_hands, shown, known, finished).

Decoding is strict and linear in the line. A line is first decoded by msgspec into the
typed struct of the message it should be (:mod:`durak_spec.protocol.messages`), and taken
when it is that struct as the encoder writes it (which proves no key was given twice) and
its values pass the checks below; any other line is read by
:func:`durak_spec.core.jsonio.read_json` (at most :data:`MAX_LINE` bytes of UTF-8 I-JSON,
nested at most :data:`MAX_DEPTH` deep, no key twice in an object, no lone surrogates), and
a missing field, an unknown field, a value of the wrong type or a card not in the notation
raises :class:`ProtocolError`, which names the field (``report.hands[1]``) and quotes the
offending line, truncated to 200 characters. Nothing read is remembered.
Encoding never fails on text: an error reply is cut to :data:`ERROR_LIMIT` characters, and
a lone surrogate quoted from bad input is written as the text ``\\ud800``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, cast

import msgspec
from msgspec import UNSET

from durak_spec.core.cards import DECK, Card, CardError, Rank, Suit, parse_card
from durak_spec.core.errors import DurakError
from durak_spec.core.jsonio import (
    JsonError,
    Path,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
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
from durak_spec.model.rules import AXES, MAX_PLAYERS, MIN_PLAYERS, RuleSet, RuleSetError
from durak_spec.model.state import GameState, Outcome, Pair
from durak_spec.protocol import Accepted, Capabilities, Rejected, Report, Verdict
from durak_spec.protocol.messages import (
    ACTION_TYPES,
    AXIS_VALUES,
    EVENT_TYPES,
    MAX_ID,
    REQUEST_TYPES,
    ActionMsg,
    LegalReplyMsg,
    OkReplyMsg,
    ReportMsg,
    ReportReplyMsg,
    RequestMsg,
    VerdictReplyMsg,
)

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
    "rules_from_json",
]

QUOTE_LIMIT = 200
"""How many characters of an offending line an error message quotes."""

MAX_LINE: Final = 1_000_000
"""The longest line, in bytes, that either side reads as a message."""

MAX_DEPTH: Final = 64
"""The deepest nesting of a message read (a load request needs 5)."""

MAX_SEAT = MAX_PLAYERS - 1

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
    """Internal: a well-formed position that breaks a rule (a ``load``); names the rule."""

    def __init__(self, reason: str, *, path: str, rule: str | None) -> None:
        super().__init__(reason, path=path)
        self.rule = rule


# -- scalar fields -------------------------------------------------------------------------
# Each checker returns at once for a good value; only a bad one pays for the message.


def _seat(value: object, path: Path) -> int:
    if type(value) is int and 0 <= value <= MAX_SEAT:
        return value
    return expect_int(value, path, 0, MAX_SEAT)


def _rule_id(value: object, path: Path) -> str | None:
    if value is None:
        return None
    text = expect_str(value, path)
    head, dash, tail = text.partition("-")
    if not (dash and head.isascii() and head.isalpha() and head.isupper()
            and tail.isascii() and tail.isdigit()):
        fail(path, f"must be a rule ID like \"BEAT-3\" or null, not {show(value)}")
    return text


# -- cards, suits, actions -----------------------------------------------------------------


def _wire_spellings() -> dict[str, Card]:
    spellings: dict[str, Card] = {}
    for card in DECK:
        ranks = (card.rank.symbol, "T") if card.rank is Rank.TEN else (card.rank.symbol,)
        for rank in ranks:
            for suit in (card.suit.symbol, card.suit.letter):
                spellings[rank + suit] = card
    return spellings


_WIRE_CARDS: Final = MappingProxyType(_wire_spellings())
"""Every spelling of a card the wire accepts: ``7♣`` and ``7C``, ``10♥``, ``10H``, ``TH``."""
_CARD_OF: Final = cast("Callable[[object], Card]", _WIRE_CARDS.copy().__getitem__)
"""The card of a spelling; ``KeyError`` for anything else (another string, ``UNSET``)."""
_WIRE_SUITS: Final = MappingProxyType(
    {**{s.symbol: s for s in Suit}, **{s.letter: s for s in Suit}})
_SUIT_TEXT: Final = MappingProxyType({suit: suit.symbol for suit in Suit})
"""Each suit as the encoder writes it (a suit may also come as its number: a Suit is an
int)."""
_DECK_SIZE: Final = len(DECK)
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


def _cards(value: object, path: Path) -> tuple[Card, ...]:
    if isinstance(value, list):
        return tuple([card_from_wire(item, (path, i)) for i, item in enumerate(value)])
    fail(path, f"must be a JSON array of cards, not {show(value)}")


def _maybe_card(value: object, path: Path) -> Card | None:
    return None if value is None else card_from_wire(value, path)


def _suit(value: object, path: Path) -> Suit:
    if isinstance(value, str) and value in _WIRE_SUITS:
        return _WIRE_SUITS[value]
    fail(path, f"must be a suit: one of ♣ ♦ ♥ ♠ (or C D H S), not {show(value)}")


def _table(value: object, path: Path) -> tuple[Pair, ...]:
    pairs = []
    for i, item in enumerate(expect_list(value, path)):
        if not isinstance(item, list) or len(item) != 2:
            fail((path, i), f"must be a pair [attack card, cover card or null], "
                 f"not {show(item)}")
        attack = card_from_wire(item[0], ((path, i), 0))
        cover = _maybe_card(item[1], ((path, i), 1))
        pairs.append(UNCOVERED[attack] if cover is None else COVERED[attack][cover])
    return tuple(pairs)


def _tag(kind: type[msgspec.Struct]) -> str:
    return str(kind.__struct_config__.tag)


def _split(kind: type[msgspec.Struct]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The required fields of a message's declaration and its optional ones, in order."""
    fields = msgspec.structs.fields(kind)
    return (tuple([f.name for f in fields if f.required]),
            tuple([f.name for f in fields if not f.required]))


ACTION_FIELDS: Final = MappingProxyType({
    _tag(kind): ("player", "type", *kind.__struct_fields__[1:]) for kind in ACTION_TYPES})
"""The fields of each type of action object, in the order the encoder writes them."""


def action_from_wire(value: object, field: Path = "action") -> Action:
    """An action from its JSON object (:meth:`Action.to_json`), read field by field: the
    first wrong field is named."""
    if not isinstance(value, dict):
        fail(field, f"must be an action object like {{\"player\": 0, \"type\": \"take\"}}, "
             f"not {show(value)}")
    kind = value.get("type")
    names = ACTION_FIELDS[kind] if isinstance(kind, str) and kind in ACTION_FIELDS else None
    if names is None:
        fail((field, "type"), f"must be one of {', '.join(ACTION_FIELDS)}, not {show(kind)}")
    expect_object(value, field, names)
    player = _seat(value["player"], (field, "player"))
    if kind == "cover":
        return Cover(player, card_from_wire(value["attack"], (field, "attack")),
                     card_from_wire(value["card"], (field, "card")))
    if kind == "throw":
        return ThrowIn(player, card_from_wire(value["card"], (field, "card")))
    if kind == "transfer" or kind == "show":
        return Transfer(player, card_from_wire(value["card"], (field, "card")),
                        show=kind == "show")
    if kind == "open":
        cards = _cards(value["cards"], (field, "cards"))
        if not cards:
            fail((field, "cards"), "an opening plays at least one card")
        return Open(player, cards)
    if kind == "take":
        return Take(player)
    if kind == "done":
        return Done(player)
    return ExchangeTrump(player)


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


EVENT_FIELDS: Final = MappingProxyType({
    _tag(kind): (("type", *_split(kind)[0]), tuple([n for n in _split(kind)[1] if n != "rule"]))
    for kind in EVENT_TYPES})
"""Per event type of an ``apply`` answer's ``events``, its fields and its optional ones
(each may also name its ``rule``), as :mod:`durak_spec.protocol.messages` declares them."""


def event_from_wire(value: object, path: Path = "event") -> Event:
    """One event of the step from its JSON object, read strictly; the first wrong field
    is named."""
    if not isinstance(value, dict):
        fail(path, f"must be an event object like {{\"type\": \"draw\", \"player\": 0, "
             f"\"cards\": []}}, not {show(value)}")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        fail((path, "type"), f"must be one of {', '.join(EVENT_FIELDS)}, not {show(kind)}")
    names, optional = EVENT_FIELDS[kind]
    expect_object(value, path, names, (*optional, "rule"))
    rule = _rule_id(value.get("rule"), (path, "rule")) or ""

    def seat(name: str) -> int:
        return _seat(value[name], (path, name))

    if kind == "action":
        return Played(action_from_wire(value["action"], (path, "action")), rule)
    if kind == "transfer":
        return Transferred(seat("player"), card_from_wire(value["card"], (path, "card")),
                           expect_bool(value["shown"], (path, "shown")), seat("defender"),
                           rule)
    if kind == "trump-exchange":
        return TrumpExchanged(seat("player"), card_from_wire(value["gave"], (path, "gave")),
                              card_from_wire(value["took"], (path, "took")), rule)
    if kind == "bout-ended":
        taker = None if value["taker"] is None else seat("taker")
        result = value["result"]
        if result != ("beaten-off" if taker is None else "taken"):
            fail((path, "result"), f"must be \"taken\" with a taker, \"beaten-off\" "
                 f"without, not {show(result)}")
        return BoutEnded(expect_int(value["bout"], (path, "bout"), 1, MAX_ID), taker,
                         _cards(value["cards"], (path, "cards")), rule)
    if kind == "draw":
        return Drew(seat("player"), _cards(value["cards"], (path, "cards")), rule)
    if kind == "out":
        return WentOut(_seats(value["players"], (path, "players")), rule)
    if kind == "next-bout":
        return NextBout(expect_int(value["bout"], (path, "bout"), 1, MAX_ID),
                        seat("attacker"), seat("defender"), rule)
    durak = None if value["durak"] is None else seat("durak")
    return GameOver(Outcome(_finished(value["finishing_order"], (path, "finishing_order")),
                            durak), rule)


def events_from_wire(value: object, path: Path = "events") -> tuple[Event, ...]:
    """The events of an ``apply`` answer (capability ``events``), in order."""
    return tuple([event_from_wire(item, (path, i))
                  for i, item in enumerate(expect_list(value, path))])


def _actions(value: object, path: Path) -> tuple[Action, ...]:
    return tuple([action_from_wire(item, (path, i))
                  for i, item in enumerate(expect_list(value, path))])


# -- rule sets -------------------------------------------------------------------------------

_AXIS_NAMES = tuple(axis.name for axis in AXES)


def rules_from_json(value: object, field: Path = "rules") -> RuleSet:
    """A rule set from an object naming every axis (:meth:`RuleSet.to_dict`), strictly."""
    data = expect_object(value, field, _AXIS_NAMES)
    for axis in AXES:
        item = data[axis.name]
        where = (field, axis.name)
        if axis.enum is not None:
            if not isinstance(item, str) or item not in {m.value for m in axis.enum}:
                fail(where, f"must be one of {axis.choices()}, not {show(item)}")
        elif axis.kind is int:
            count = expect_int(item, where, -MAX_ID)
            if not MIN_PLAYERS <= count <= MAX_PLAYERS:  # well formed, but no game (DEAL-3)
                raise _AgainstTheRules(f"must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not "
                                       f"{count}: Durak is played by 2 to 6 players (DEAL-3)",
                                       path=path_text(where), rule="DEAL-3")
            data = {**data, axis.name: count}
        else:
            expect_bool(item, where)
    try:
        return RuleSet.from_dict(data)
    except RuleSetError as error:
        fail(field, str(error))


# -- reports, positions, capabilities ---------------------------------------------------------

REPORT_FIELDS: Final = tuple(field.name for field in msgspec.structs.fields(ReportMsg)
                             if field.required)
"""The fields of a report, in the order the encoder writes them (then ``known``): those
its declaration (:class:`~durak_spec.protocol.messages.ReportMsg`) requires."""


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


def _hands(value: object, path: Path) -> tuple[tuple[Card, ...], ...]:
    """Hands (or known cards), each sorted canonically."""
    return tuple([tuple(sorted(_cards(hand, (path, i))))
                  for i, hand in enumerate(expect_list(value, path))])


def _count(value: object, path: Path) -> int:
    return expect_int(value, path, 0, _DECK_SIZE)


def report_from_json(value: object, field: Path = "report") -> Report:
    """A report from its JSON object; the cards of each hand are sorted canonically.

    ``known`` (per seat, the cards of that hand every player knows, VIEW-2) is optional:
    an engine that does not track it leaves it out, and the report has ``known=()``.
    The first wrong field is named.
    """
    data = expect_object(value, field, REPORT_FIELDS, ("known",))
    hands = _hands(data["hands"], (field, "hands"))
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        fail((field, "hands"), f"must list one hand for each of 2 to 6 players, "
             f"not {len(hands)}")
    stock = _count(data["stock"], (field, "stock"))
    discard = _count(data["discard"], (field, "discard"))
    attacker = _seat(data["attacker"], (field, "attacker"))
    defender = _seat(data["defender"], (field, "defender"))
    durak = None if data["durak"] is None else _seat(data["durak"], (field, "durak"))
    taking = expect_bool(data["taking"], (field, "taking"))
    over = expect_bool(data["over"], (field, "over"))
    trump = _suit(data["trump"], (field, "trump"))
    face_up = _maybe_card(data["face_up"], (field, "face_up"))
    return Report(hands, _table(data["table"], (field, "table")), stock, trump, face_up,
                      discard, attacker, defender, taking,
                      _finished(data["finished"], (field, "finished")), over, durak,
                      _hands(data["known"], (field, "known")) if "known" in data else ())


def _seats(value: object, path: Path) -> tuple[int, ...]:
    return tuple([_seat(s, (path, i)) for i, s in enumerate(expect_list(value, path))])


def _finished(value: object, path: Path) -> tuple[tuple[int, ...], ...]:
    return tuple([_seats(group, (path, i)) for i, group in enumerate(expect_list(value, path))])


def _previous(value: object) -> Outcome:
    """The last game's outcome of a ``start`` request (ORDER-7)."""
    data = expect_object(value, "previous", ("durak", "finishing_order"))
    durak = data["durak"]
    return Outcome(_finished(data["finishing_order"], ("previous", "finishing_order")),
                   None if durak is None else _seat(durak, ("previous", "durak")))


def _state(value: object, path: Path) -> GameState:
    """A full position (a ``durak-spec/state`` document of :mod:`durak_spec.game.persist`)."""
    try:
        return state_from_json(value)
    except SavedGameError as error:
        where = path_text((path, error.path)) if error.path else path_text(path)
        raise _AgainstTheRules(error.reason, path=where, rule=error.rule) from None


def _capabilities_json(caps: Capabilities) -> dict[str, object]:
    return {"protocol": caps.protocol, "name": caps.name, "version": caps.version,
            "profiles": list(caps.profiles), "players": list(caps.players),
            "axes": {name: list(values) for name, values in caps.axes.items()},
            "capabilities": {"load": caps.load,
                             **({"turn_order": list(caps.turn_orders)}
                                if caps.turn_orders != ("free",) else {}),
                             **({"step": True} if caps.step else {}),
                             **({"events": True} if caps.events else {})}}


def _axes(value: object, path: Path) -> dict[str, tuple[str, ...]]:
    """Per axis, the values an engine plays in any combination (``Capabilities.axes``)."""
    if not isinstance(value, dict):
        fail(path, f"must be a JSON object of axes, not {show(value)}")
    axes: dict[str, tuple[str, ...]] = {}
    for name, values in value.items():
        choices = AXIS_VALUES.get(name)
        if choices is None:
            fail((path, name), f"is not a rule-set axis a capability can name (axes: "
                 f"{', '.join(AXIS_VALUES)})")
        items = expect_list(values, (path, name))
        for i, item in enumerate(items):
            if not isinstance(item, str) or item not in choices:
                fail(((path, name), i), f"must be one of {', '.join(choices)}, "
                     f"not {show(item)}")
        axes[name] = tuple(items)
    return axes


def _capabilities(data: Mapping[str, Any]) -> Capabilities:
    profiles = expect_list(data["profiles"], "profiles")
    players = expect_list(data["players"], "players")
    extra = expect_object(data["capabilities"], "capabilities", ("load",),
                          ("turn_order", "step", "events"))
    return Capabilities(
        name=expect_str(data["name"], "name", empty=False),
        version=expect_str(data["version"], "version"),
        protocol=expect_int(data["protocol"], "protocol", 1),
        profiles=tuple([expect_str(p, ("profiles", i), empty=False)
                        for i, p in enumerate(profiles)]),
        players=tuple([expect_int(n, ("players", i), MIN_PLAYERS, MAX_PLAYERS)
                       for i, n in enumerate(players)]),
        load=expect_bool(extra["load"], ("capabilities", "load")),
        axes=_axes(data.get("axes", {}), "axes"),
        turn_orders=_turn_orders(extra.get("turn_order", ["free"])),
        step="step" in extra and expect_bool(extra["step"], ("capabilities", "step")),
        events="events" in extra and expect_bool(extra["events"], ("capabilities", "events")),
    )


def _turn_orders(value: object) -> tuple[str, ...]:
    """The bout protocols an engine declares (``capabilities.turn_order``): a list of
    values of the axis ``turn_order``, its own first; a single value may stand alone."""
    path: Path = ("capabilities", "turn_order")
    items = [value] if isinstance(value, str) else expect_list(value, path)
    choices = AXIS_VALUES["turn_order"]
    for i, item in enumerate(items):
        if not isinstance(item, str) or item not in choices:
            fail((path, i), f"must be one of {', '.join(choices)}, not {show(item)}")
    if not items:
        fail(path, "names no bout protocol (free, opener-first or last-thrower)")
    return tuple(items)


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


def _message_id(data: Mapping[str, Any]) -> int | None:
    value = data.get("id")
    if type(value) is int and 0 <= value <= MAX_ID:
        return value
    return None


def _failed(error: JsonError, line: str | bytes, data: Mapping[str, Any]) -> ProtocolError:
    rule = error.rule if isinstance(error, _AgainstTheRules) else None
    return ProtocolError(error.reason, field=error.path or None, line=line,
                         message_id=_message_id(data), rule=rule)


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


REQUEST_FIELDS: Final = MappingProxyType({
    _tag(kind): ("id", "cmd", *_split(kind)[0][1:]) for kind in REQUEST_TYPES})
"""The fields of each request, by its ``cmd``."""
OPTIONAL_FIELDS: Final = MappingProxyType({
    _tag(kind): _split(kind)[1] for kind in REQUEST_TYPES if _split(kind)[1]})
"""The fields a request may leave out, by its ``cmd``."""


# -- decoding: typed structs first, the strict reader for anything else ------------------------

_DECODE_REQUEST: Final = msgspec.json.Decoder(RequestMsg).decode
_DECODE_REPORT_REPLY: Final = msgspec.json.Decoder(ReportReplyMsg).decode
_DECODE_LEGAL_REPLY: Final = msgspec.json.Decoder(LegalReplyMsg).decode
_DECODE_VERDICT_REPLY: Final = msgspec.json.Decoder(VerdictReplyMsg).decode
_DECODE_OK_REPLY: Final = msgspec.json.Decoder(OkReplyMsg).decode
_ENCODE: Final = msgspec.json.Encoder().encode
_NOT_TYPED: Final = (msgspec.DecodeError, ValueError, RecursionError, KeyError, JsonError)
"""What a line that is not its struct as the encoder writes it raises on the typed path:
msgspec's errors (and ``UnicodeEncodeError``, a ``ValueError``, for a text holding a lone
surrogate), and the ``KeyError`` or ``JsonError`` of a value the strict reader refuses."""


def _as_written(message: msgspec.Struct, line: str | bytes) -> bool:
    """Whether ``line`` is ``message`` as the encoder writes it (a final newline aside):
    then the line is strict I-JSON whose objects give no key twice (see
    :mod:`durak_spec.protocol.messages`)."""
    text = _ENCODE(message)
    if isinstance(line, str):
        return text == line.removesuffix("\n").encode("utf-8")
    return text == (line[:-1] if line[-1:] == b"\n" else line)


def _action_of(message: ActionMsg) -> Action:
    """The action of a decoded action object, with the strict reader's checks (the
    engine's shared action, as the reference lists it); ``KeyError`` where one fails (the
    strict reader then names it)."""
    player, kind, card_of = message.player, message.type, _CARD_OF
    if kind == "cover":
        if message.cards is not UNSET:
            raise KeyError(kind)
        return COVERS[player][card_of(message.attack)][card_of(message.card)]
    if kind == "open":
        cards = message.cards
        if message.attack is not UNSET or message.card is not UNSET or not cards:
            raise KeyError(kind)
        if len(cards) == 1:
            return OPENS[player][card_of(cards[0])]
        return Open(player, tuple(map(card_of, cards)))
    if message.attack is not UNSET or message.cards is not UNSET:
        raise KeyError(kind)
    if kind in _ONE_CARD:
        return _ONE_CARD[kind][player][card_of(message.card)]
    if message.card is not UNSET:
        raise KeyError(kind)
    return _NO_CARD[kind][player]


_ONE_CARD: Final[Mapping[str, tuple[Mapping[Card, Action], ...]]] = MappingProxyType({
    "throw": THROWS, "transfer": TRANSFERS, "show": SHOWS})
_NO_CARD: Final[Mapping[str, tuple[Action, ...]]] = MappingProxyType({
    "take": TAKES, "done": DONES, "exchange": EXCHANGES})


def _report_of(message: ReportMsg) -> Report:
    """The report of a decoded report object, with the strict reader's checks;
    ``KeyError`` where one fails."""
    card_of = _CARD_OF
    hands = tuple([tuple(sorted(map(card_of, hand))) for hand in message.hands])
    table = tuple([UNCOVERED[card_of(attack)] if cover is None
                   else COVERED[card_of(attack)][card_of(cover)]
                   for attack, cover in message.table])
    face_up = None if message.face_up is None else card_of(message.face_up)
    trump = _WIRE_SUITS[message.trump]
    known = () if message.known is UNSET else tuple(
        [tuple(sorted(map(card_of, cards))) for cards in message.known])
    return Report(hands, table, message.stock, trump, face_up, message.discard,
                  message.attacker, message.defender, message.taking,
                  tuple([tuple(group) for group in message.finished]), message.over,
                  message.durak, known)


def _typed_request(line: str | bytes) -> Request | None:
    """The request of a line the encoder wrote, decoded by msgspec; else ``None``."""
    try:
        message = _DECODE_REQUEST(line)
        ident, cmd, action, then = message.id, message.cmd, message.action, message.then
        if cmd == "apply":
            if action is UNSET or then is False:
                return None
            request: Request = ApplyRequest(ident, _action_of(action), then is True)
        elif action is not UNSET or then is not UNSET:
            return None
        elif cmd in _PLAIN_REQUESTS:
            request = _PLAIN_REQUESTS[cmd](ident)
        else:
            return None
    except _NOT_TYPED:
        return None
    return request if _as_written(message, line) else None


_PLAIN_REQUESTS: Final[Mapping[str, type[LegalRequest | StateRequest | HelloRequest
                                          | QuitRequest]]] = MappingProxyType({
    "legal": LegalRequest, "state": StateRequest, "hello": HelloRequest, "quit": QuitRequest})


def _typed_reply(line: str | bytes, cmd: Command) -> Reply | None:
    """The successful reply to ``cmd`` of a line the encoder wrote, decoded by msgspec;
    else ``None`` (an error reply, a fault, another spelling)."""
    message: ReportReplyMsg | LegalReplyMsg | VerdictReplyMsg | OkReplyMsg
    reply: Reply
    try:
        if cmd == "legal":
            message = _DECODE_LEGAL_REPLY(line)
            reply = LegalReply(message.id, tuple([_action_of(m) for m in message.actions]))
        elif cmd == "apply":
            message = _DECODE_VERDICT_REPLY(line)
            reply = _verdict_of(message)
        elif cmd == "quit":
            message = _DECODE_OK_REPLY(line)
            reply = OkReply(message.id)
        elif cmd != "hello":
            message = _DECODE_REPORT_REPLY(line)
            reply = ReportReply(message.id, _report_of(message.report))
        else:
            return None
    except _NOT_TYPED:
        return None
    return reply if message.ok is True and _as_written(message, line) else None


def _verdict_of(message: VerdictReplyMsg) -> VerdictReply:
    """The verdict of a decoded answer to ``apply``; ``KeyError`` where a check fails."""
    report, actions = message.report, message.actions
    if not message.accepted:
        reason = message.reason
        if (report is not UNSET or actions is not UNSET or message.events is not UNSET
                or reason is UNSET
                or not reason.strip() or message.rule is UNSET):
            raise KeyError(message)
        return VerdictReply(message.id, Rejected(reason, _rule_id(message.rule, "rule")))
    if message.reason is not UNSET or message.rule is not UNSET:
        raise KeyError(message)
    accepted = _ACCEPTED if message.events is UNSET else \
        Accepted(events_from_wire(message.events, "events"))
    if report is UNSET and actions is UNSET:
        return VerdictReply(message.id, accepted)
    if report is UNSET or actions is UNSET:
        raise KeyError(message)
    return VerdictReply(message.id, accepted, _report_of(report),
                        tuple([_action_of(m) for m in actions]))


_ACCEPTED: Final = Accepted()


def decode_request(line: str | bytes) -> Request:
    """Parse one request line strictly; raises :class:`ProtocolError` naming the field.

    A line as the encoder writes it is decoded by msgspec into its typed struct
    (:mod:`durak_spec.protocol.messages`); any other is read by the strict reader, which
    gives the same request or names the first fault."""
    request = _typed_request(line)
    if request is not None:
        return request
    data = _load_line(line)
    try:
        return _request(data)
    except JsonError as error:
        raise _failed(error, line, data) from None


def _request(data: dict[str, Any]) -> Request:
    if "id" not in data:
        fail("id", "is missing")
    ident = expect_int(data["id"], "id")
    cmd = data.get("cmd")
    if not isinstance(cmd, str) or cmd not in REQUEST_FIELDS:
        fail("cmd", f"must be one of {', '.join(COMMANDS)}, not {show(cmd)}")
    expect_object(data, None, REQUEST_FIELDS[cmd], OPTIONAL_FIELDS.get(cmd, ()),
                  noun="message")
    if cmd == "apply":
        then = "then" in data and expect_bool(data["then"], "then")
        return ApplyRequest(ident, action_from_wire(data["action"]), then)
    if cmd == "legal":
        return LegalRequest(ident)
    if cmd == "state":
        return StateRequest(ident)
    if cmd == "hello":
        return HelloRequest(ident)
    if cmd == "start":
        return StartRequest(ident, rules_from_json(data["rules"]), _cards(data["deck"], "deck"),
                            expect_int(data["seed"], "seed", -MAX_ID),
                            _previous(data["previous"]) if "previous" in data else None)
    if cmd == "load":
        return LoadRequest(ident, _state(data["state"], "state"))
    return QuitRequest(ident)


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


def decode_reply(line: str | bytes, cmd: Command) -> Reply:
    """Parse the response to a ``cmd`` request strictly.

    The result is the command's reply type (:data:`REPLY_TYPES`) or an :class:`ErrorReply`;
    whether its id is the request's is the caller's check. A successful answer as the
    encoder writes it is decoded by msgspec into its typed struct; any other line (an
    error reply, a fault, another spelling) is read by the strict reader, which gives the
    same reply or names the first fault.
    """
    if cmd not in REPLY_TYPES:
        raise ValueError(f"unknown command {cmd!r}; commands are {', '.join(COMMANDS)}")
    if isinstance(line, bytearray):
        line = bytes(line)
    reply = _typed_reply(line, cmd)
    if reply is not None:
        return reply
    data = _load_line(line)
    try:
        return _reply(data, cmd)
    except JsonError as error:
        raise _failed(error, line, data) from None


def _reply(data: dict[str, Any], cmd: Command) -> Reply:
    if "id" not in data:
        fail("id", "is missing")
    if "ok" not in data:
        fail("ok", "is missing")
    if not expect_bool(data["ok"], "ok"):
        expect_object(data, None, ("id", "ok", "error"), ("rule", "declined"), noun="message")
        ident = data["id"]
        declined = expect_bool(data.get("declined", False), "declined")
        if declined and cmd != "load":
            fail("declined", f"only a load may be declined, not {cmd}")
        return ErrorReply(None if ident is None else expect_int(ident, "id"),
                          expect_str(data["error"], "error"), _rule_id(data.get("rule"), "rule"),
                          declined)
    ident = expect_int(data["id"], "id")
    if cmd in ("start", "load", "state"):
        expect_object(data, None, ("id", "ok", "report"), noun="message")
        return ReportReply(ident, report_from_json(data["report"], "report"))
    if cmd == "legal":
        expect_object(data, None, ("id", "ok", "actions"), noun="message")
        return LegalReply(ident, _actions(data["actions"], "actions"))
    if cmd == "apply":
        if "accepted" not in data:
            fail("accepted", "is missing")
        if expect_bool(data["accepted"], "accepted"):
            stepped = "report" in data or "actions" in data
            expect_object(data, None, ("id", "ok", "accepted", "report", "actions")
                          if stepped else ("id", "ok", "accepted"), ("events",),
                          noun="message")
            accepted = Accepted(events_from_wire(data["events"], "events")) \
                if "events" in data else Accepted()
            if stepped:  # one round trip: the position after it
                return VerdictReply(ident, accepted, report_from_json(data["report"], "report"),
                                    _actions(data["actions"], "actions"))
            return VerdictReply(ident, accepted)
        expect_object(data, None, ("id", "ok", "accepted", "reason", "rule"), noun="message")
        return VerdictReply(ident, Rejected(expect_str(data["reason"], "reason", empty=False),
                                            _rule_id(data["rule"], "rule")))
    if cmd == "hello":
        expect_object(data, None, ("id", "ok", "protocol", "name", "version", "profiles",
                                   "players", "capabilities"), ("axes",), noun="message")
        return HelloReply(ident, _capabilities(data))
    expect_object(data, None, ("id", "ok"), noun="message")
    return OkReply(ident)
