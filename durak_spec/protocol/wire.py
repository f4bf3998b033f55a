"""The wire protocol of external engines (layer 6): JSON lines to and from protocol values.

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
                                                            turn_order (optional)},
                                                            axes {axis: [values]} (optional)
start      rules {axis: value, every axis},                 report
           deck [36 cards in dealing and drawing order],
           seed (ORDER-2's chance)
load       state (a position document, see below)          report  (optional: capability load)
legal      (none)                                           actions [every legal action]
apply      action, then (optional: capability step)         accepted: true, or accepted: false
                                                            with reason and rule (ID or null);
                                                            with then, an accepted answer
                                                            also carries report and actions
state      (none)                                           report
quit       (none)                                           (none); the engine then exits
=========  ===============================================  ====================================

An engine that declares ``capabilities.step`` answers an ``apply`` that carries ``"then":
true`` with the report and the legal actions after the action too (when it is accepted),
so that a checker needs one round trip per action instead of three (``apply``, ``state``,
``legal``); engines that do not declare it are never sent ``then``.

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
error: it is an ``apply`` response with ``"accepted": false``.

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

Decoding is strict: a line is read by :func:`durak_spec.core.jsonio.read_json` (at most
:data:`MAX_LINE` bytes of UTF-8 I-JSON, nested at most :data:`MAX_DEPTH` deep, no key twice
in an object, no lone surrogates), and a missing field, an unknown field, a value of the
wrong type or a card not in the notation raises :class:`ProtocolError`, which names the
field (``report.hands[1]``) and quotes the offending line, truncated to 200 characters.
Decoding costs time linear in the line: no message is formatted unless a field is wrong.
Encoding never fails on text: an error reply is cut to :data:`ERROR_LIMIT` characters, and
a lone surrogate quoted from bad input is written as the text ``\\ud800``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal, NoReturn, cast

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
from durak_spec.engine.tables import COVERED, UNCOVERED
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
from durak_spec.model.rules import AXES, MAX_PLAYERS, MIN_PLAYERS, RuleSet, RuleSetError
from durak_spec.model.state import GameState, Outcome, Pair
from durak_spec.protocol import Accepted, Capabilities, Rejected, Report, Verdict, new_report

__all__ = [
    "COMMANDS",
    "MAX_DEPTH",
    "MAX_LINE",
    "QUOTE_LIMIT",
    "REPLY_TYPES",
    "ApplyRequest",
    "Codec",
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

MAX_ID = 2**53 - 1  # the largest integer every JSON reader holds exactly
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
_CARD_OF: Final = _WIRE_CARDS.copy().__getitem__
"""The card of a spelling (``KeyError`` for anything else): the look-up of the hot paths,
without the proxy's indirection, for ``map``."""
_CARD_GET: Final = _WIRE_CARDS.copy().get
"""The card of a spelling, ``None`` for anything else (the hot paths' other look-up)."""
_WIRE_SUITS: Final = MappingProxyType(
    {**{s.symbol: s for s in Suit}, **{s.letter: s for s in Suit}})
_SUIT_OF: Final = _WIRE_SUITS.copy().get
_SUIT_TEXT: Final = MappingProxyType({suit: suit.symbol for suit in Suit})
"""Each suit as the encoder writes it (a suit may also come as its number: a Suit is an
int)."""
_DECK_SIZE: Final = len(DECK)
_QUOTED: Final = MappingProxyType({card: f'"{card}"' for card in DECK})
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
        try:
            return tuple(map(_CARD_OF, value))
        except (KeyError, TypeError):
            for i, item in enumerate(value):
                card_from_wire(item, (path, i))
    fail(path, f"must be a JSON array of cards, not {show(value)}")


def _maybe_card(value: object, path: Path) -> Card | None:
    return None if value is None else card_from_wire(value, path)


def _suit(value: object, path: Path) -> Suit:
    if isinstance(value, str) and value in _WIRE_SUITS:
        return _WIRE_SUITS[value]
    fail(path, f"must be a suit: one of ♣ ♦ ♥ ♠ (or C D H S), not {show(value)}")


_UNCOVERED_OF: Final = MappingProxyType(
    {spelling: UNCOVERED[card] for spelling, card in _WIRE_CARDS.items()}).copy().__getitem__
"""The shared pair of an uncovered attack card, by the card's spelling (``KeyError`` for
anything else): a look-up instead of two and a named tuple built."""
_COVERED_OF: Final = MappingProxyType({
    spelling: MappingProxyType({cover: COVERED[card][covering]
                                for cover, covering in _WIRE_CARDS.items()}).copy()
    for spelling, card in _WIRE_CARDS.items()}).copy().__getitem__
"""Per attack card's spelling, the shared pairs it makes with each cover's spelling."""


def _table(value: object, path: Path) -> tuple[Pair, ...]:
    if type(value) is list:
        try:
            return tuple([(_UNCOVERED_OF(pair[0]) if pair[1] is None
                           else _COVERED_OF(pair[0])[pair[1]])
                          if type(pair) is list and len(pair) == 2 else _not_a_list()
                          for pair in value])
        except (KeyError, TypeError, ValueError):
            pass  # a wrong pair: read them one by one below to name it
    pairs = []
    for i, item in enumerate(expect_list(value, path)):
        if not isinstance(item, list) or len(item) != 2:
            fail((path, i), f"must be a pair [attack card, cover card or null], "
                 f"not {show(item)}")
        pairs.append(Pair(card_from_wire(item[0], ((path, i), 0)),
                          _maybe_card(item[1], ((path, i), 1))))
    return tuple(pairs)


ACTION_FIELDS: Final = MappingProxyType({
    "open": ("player", "type", "cards"),
    "throw": ("player", "type", "card"),
    "cover": ("player", "type", "attack", "card"),
    "transfer": ("player", "type", "card"),
    "show": ("player", "type", "card"),
    "take": ("player", "type"),
    "done": ("player", "type"),
    "exchange": ("player", "type"),
})
"""The fields of each type of action object, in the order the encoder writes them."""


_ACTION_KEYS: Final = MappingProxyType({kind: frozenset(names)
                                        for kind, names in ACTION_FIELDS.items()})


def action_from_wire(value: object, field: Path = "action") -> Action:
    """An action from its JSON object (:meth:`Action.to_json`), checked strictly."""
    if type(value) is dict:  # a well-formed action is read with as few steps as possible
        kind, player = value.get("type"), value.get("player")
        if type(kind) is str and kind in _ACTION_KEYS and value.keys() == _ACTION_KEYS[kind] \
                and type(player) is int and 0 <= player <= MAX_SEAT:
            if kind == "cover":
                attack, card = value["attack"], value["card"]
                if type(attack) is str and type(card) is str and attack in _WIRE_CARDS \
                        and card in _WIRE_CARDS:
                    return Cover(player, _WIRE_CARDS[attack], _WIRE_CARDS[card])
            elif kind in ("take", "done", "exchange"):
                return (Take(player) if kind == "take" else Done(player) if kind == "done"
                        else ExchangeTrump(player))
            elif kind == "open":
                cards = value["cards"]
                if type(cards) is list and len(cards) == 1 and type(cards[0]) is str \
                        and cards[0] in _WIRE_CARDS:
                    return Open(player, (_WIRE_CARDS[cards[0]],))
            else:
                card = value["card"]
                if type(card) is str and card in _WIRE_CARDS:
                    if kind == "throw":
                        return ThrowIn(player, _WIRE_CARDS[card])
                    return Transfer(player, _WIRE_CARDS[card], show=kind == "show")
    return _action(value, field)


def _action(value: object, field: Path) -> Action:
    """An action read field by field: the first wrong field is named."""
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
        return (f'{{"player":{player},"type":"cover","attack":{_QUOTED[action.attack]},'
                f'"card":{_QUOTED[action.card]}}}')
    if isinstance(action, ThrowIn):
        return f'{{"player":{player},"type":"throw","card":{_QUOTED[action.card]}}}'
    if isinstance(action, Transfer):
        kind = "show" if action.show else "transfer"
        return f'{{"player":{player},"type":"{kind}","card":{_QUOTED[action.card]}}}'
    if isinstance(action, Open):
        return f'{{"player":{player},"type":"open","cards":{_hand_text(action.played)}}}'
    return f'{{"player":{player},"type":"{action.kind}"}}'


def _actions(value: object, path: Path, codec: Codec | None) -> tuple[Action, ...]:
    items = expect_list(value, path)
    if codec is not None:
        return tuple([codec.action(item, (path, i)) for i, item in enumerate(items)])
    return tuple([action_from_wire(item, (path, i)) for i, item in enumerate(items)])


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
            data = {**data, axis.name: expect_int(item, where, MIN_PLAYERS, MAX_PLAYERS)}
        else:
            expect_bool(item, where)
    try:
        return RuleSet.from_dict(data)
    except RuleSetError as error:
        fail(field, str(error))


# -- reports, positions, capabilities ---------------------------------------------------------

REPORT_FIELDS: Final = ("hands", "table", "stock", "trump", "face_up", "discard", "attacker",
                        "defender", "taking", "finished", "over", "durak")
"""The fields of a report, in the order the encoder writes them (then ``known``)."""


def _report_text(report: Report, codec: Codec | None = None) -> str:
    """A report as JSON text: the one encoder of reports (it is on every request's path).

    With a ``codec``, the text of each hand is remembered (:meth:`Codec.hand_text`)."""
    quoted = _QUOTED
    if codec is not None:
        hand_text = codec.hand_text
        hands = ",".join([hand_text(hand) for hand in report.hands])
        known = ",".join([hand_text(cards) for cards in report.known])
    else:
        hands = ",".join([_hand_text(hand) for hand in report.hands])
        known = ",".join([_hand_text(cards) for cards in report.known])
    table = ",".join([f"[{quoted[a]},{'null' if c is None else quoted[c]}]"
                      for a, c in report.table])
    finished = ",".join(["[" + ",".join([str(int(s)) for s in group]) + "]"
                         for group in report.finished])
    face_up = "null" if report.face_up is None else quoted[report.face_up]
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
    return "[" + ",".join([_QUOTED[card] for card in hand]) + "]"


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON object of a report (what the encoder writes, as a dict)."""
    value: dict[str, Any] = read_json(_report_text(report))
    return value


def _hands(value: object, path: Path, codec: Codec | None = None
           ) -> tuple[tuple[Card, ...], ...]:
    """Hands (or known cards), each sorted canonically.

    With a ``codec``, a hand is looked up by its cards as written (:meth:`Codec.hand`):
    a game reports the same hands again and again, and sorting costs more than the look-up.
    """
    if type(value) is list:  # cards sort in canonical order by themselves (card_key)
        try:
            if codec is not None:
                hand_of = codec.hand
                return tuple([hand_of(hand) if type(hand) is list else _not_a_list()
                              for hand in value])
            return tuple([tuple(sorted(map(_CARD_OF, hand))) if type(hand) is list
                          else _not_a_list() for hand in value])
        except (KeyError, TypeError):
            pass  # a wrong card: read them one by one below to name it
    return tuple([tuple(sorted(_cards(hand, (path, i))))
                  for i, hand in enumerate(expect_list(value, path))])


def _not_a_list() -> NoReturn:
    raise TypeError


_REPORT_KEYS: Final = frozenset(REPORT_FIELDS)
_REPORT_KEYS_KNOWN: Final = frozenset((*REPORT_FIELDS, "known"))


def _count(value: object, path: Path) -> int:
    if type(value) is int and 0 <= value <= len(DECK):
        return value
    return expect_int(value, path, 0, len(DECK))


def report_from_json(value: object, field: Path = "report", codec: Codec | None = None
                     ) -> Report:
    """A report from its JSON object; the cards of each hand are sorted canonically.

    ``known`` (per seat, the cards of that hand every player knows, VIEW-2) is optional:
    an engine that does not track it leaves it out, and the report has ``known=()``.
    Every field is checked once, quickly when it is right; the first wrong one is named.
    With a ``codec``, hands it has read before are looked up (:meth:`Codec.hand`).
    """
    if type(value) is dict and (value.keys() == _REPORT_KEYS_KNOWN
                                or value.keys() == _REPORT_KEYS):
        data: dict[str, Any] = value
    else:
        data = expect_object(value, field, REPORT_FIELDS, ("known",))
    hands = _hands(data["hands"], (field, "hands"), codec)
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        fail((field, "hands"), f"must list one hand for each of 2 to 6 players, "
             f"not {len(hands)}")
    # Each field read at once when it is right; the checkers below name a wrong one.
    stock, discard, attacker, defender, durak, taking, over, trump, face_up, finished, \
        table = (data["stock"], data["discard"], data["attacker"], data["defender"],
                 data["durak"], data["taking"], data["over"], data["trump"], data["face_up"],
                 data["finished"], data["table"])
    if not (type(stock) is int and 0 <= stock <= _DECK_SIZE):
        stock = _count(stock, (field, "stock"))
    if not (type(discard) is int and 0 <= discard <= _DECK_SIZE):
        discard = _count(discard, (field, "discard"))
    if not (type(attacker) is int and 0 <= attacker <= MAX_SEAT):
        attacker = _seat(attacker, (field, "attacker"))
    if not (type(defender) is int and 0 <= defender <= MAX_SEAT):
        defender = _seat(defender, (field, "defender"))
    if durak is not None and not (type(durak) is int and 0 <= durak <= MAX_SEAT):
        durak = _seat(durak, (field, "durak"))
    if type(taking) is not bool:
        taking = expect_bool(taking, (field, "taking"))
    if type(over) is not bool:
        over = expect_bool(over, (field, "over"))
    suit = _SUIT_OF(trump) if type(trump) is str else None
    if suit is None:
        suit = _suit(trump, (field, "trump"))
    card = _CARD_GET(face_up) if type(face_up) is str else None
    if card is None and face_up is not None:
        card = card_from_wire(face_up, (field, "face_up"))
    return new_report(
        hands,
        () if table == [] else _table(table, (field, "table")),
        stock,
        suit,
        card,
        discard,
        attacker,
        defender,
        taking,
        () if finished == [] else _finished(finished, (field, "finished")),
        over,
        durak,
        _hands(data["known"], (field, "known"), codec) if "known" in data else (),
    )


_NUMBER_TEXT: Final = "(?:0|[1-9][0-9]?)"
_REPORT_MEMBERS: Final = re.compile(
    r'\{"hands":\[(?P<hands>[^:]*)\],"table":\[(?P<table>[^:]*)\],'
    rf'"stock":(?P<stock>{_NUMBER_TEXT}),"trump":"(?P<trump>[\u2663\u2666\u2665\u2660CDHS])",'
    rf'"face_up":(?:null|"(?P<face_up>[^"\\]*)"),"discard":(?P<discard>{_NUMBER_TEXT}),'
    rf'"attacker":(?P<attacker>{_NUMBER_TEXT}),"defender":(?P<defender>{_NUMBER_TEXT}),'
    r'"taking":(?P<taking>true|false),"finished":\[(?P<finished>[^:]*)\],'
    rf'"over":(?P<over>true|false),"durak":(?:null|(?P<durak>{_NUMBER_TEXT}))'
    r'(?:,"known":\[(?P<known>[^:]*)\])?\}')
"""A report object as the encoder writes it (:func:`_report_text`): its members in the
encoder's order, each once, numbers of one or two plain digits, a suit, ``true``,
``false``, ``null``, and one string without a quote or a backslash (the face-up card:
a text that is JSON once it is a card, which :func:`_report_of_match` requires); the
texts of the four arrays, which hold no colon, are groups of their own.
:func:`_report_of_match` reads each array's text by cutting it where the encoder puts
``],[`` and ``","``, and takes it only if every piece is a card or a seat with its
quotes or brackets: such a text is exactly the items joined as the encoder joins them
(the cuts undone), and so the JSON text of those items, as no card or seat holds a
quote, a comma or a bracket."""


_REPORT_START: Final = ',"ok":true,"report":'
"""How an answer with a report goes on after its id (then the report, then ``}``)."""
_STEP_START: Final = ',"ok":true,"accepted":true,"report":'
"""How a step answer goes on after its id (then the report, then :data:`_STEP_ACTIONS`)."""
_STEP_ACTIONS: Final = (',"actions":[{', "}]}")
"""How a step answer's actions begin and end, when it lists any."""
_SHORTEST_STEP: Final = 100
"""Fewer characters than any step answer has (its report alone has more)."""


def _encoders_answer(head: tuple[int, str | bytes], size: int, cmd: Command, codec: Codec
                     ) -> Reply | None:
    """The answer of a line of ``size`` whose id and rest are ``head`` and which carries a
    report written as the encoder writes it (:data:`_REPORT_MEMBERS`), read without the
    JSON reader: ``{"id":N,"ok":true,"report":{…}}`` to ``start``, ``load`` or ``state``,
    and an accepted ``apply``'s ``{"id":N,"ok":true,"accepted":true,"report":{…},
    "actions":[…]}`` (capability ``step``; its actions as :meth:`Codec.listing` reads
    them). ``None`` for any other line, and for one whose fields the strict reader would
    refuse: the caller then reads the line whole, and names the fault."""
    if size > MAX_LINE:
        return None
    rest = head[1]
    try:
        text = rest if isinstance(rest, str) else rest.decode()
    except UnicodeDecodeError:
        return None
    if cmd == "apply":
        if not text.startswith(_STEP_START):
            return None
        found = _REPORT_MEMBERS.match(text, len(_STEP_START))
        if found is None:
            return None
        after = text[found.end():]
        begin, end = _STEP_ACTIONS
        if after == ',"actions":[]}':
            actions: tuple[Action, ...] | None = ()
        elif after.startswith(begin) and after.endswith(end):
            actions = codec.listed(after[len(begin):-len(end)])
        else:
            return None
        report = _report_of_match(found, codec)
        if report is None or actions is None:
            return None
        return VerdictReply(head[0], Accepted(), report, actions)
    if not (text.startswith(_REPORT_START) and text.endswith("}")):
        return None
    found = _REPORT_MEMBERS.fullmatch(text, len(_REPORT_START), len(text) - 1)
    report = None if found is None else _report_of_match(found, codec)
    return None if report is None else ReportReply(head[0], report)


def _report_of_match(found: re.Match[str], codec: Codec) -> Report | None:
    """The report of a text matched by :data:`_REPORT_MEMBERS`, read with the checks of
    :func:`report_from_json`: hands of 2 to 6 players, each sorted (looked up by its text
    in the codec, :meth:`Codec.hand_texts`); counts of at most 36 cards; seats up to 5;
    cards that are cards; the table's shared pairs. ``None`` where a check fails."""
    hands_text, table, stock_text, trump, face_up, discard_text, attacker_text, \
        defender_text, taking, finished, over, durak, known_text = found.groups()
    stock, discard, attacker, defender = (
        int(stock_text), int(discard_text), int(attacker_text), int(defender_text))
    seat = None if durak is None else int(durak)
    if stock > _DECK_SIZE or discard > _DECK_SIZE or attacker > MAX_SEAT \
            or defender > MAX_SEAT or (seat is not None and seat > MAX_SEAT):
        return None
    try:
        card = None if face_up is None else _CARD_OF(face_up)
        hands = codec.hand_texts(hands_text)
        known = () if known_text is None else codec.hand_texts(known_text)
        pairs = tuple([_pair_of_text(pair) for pair in _cut_items(table, "],[", "[", "]")]) \
            if table else ()
        groups = tuple([_seats_of_text(group)
                        for group in _cut_items(finished, "],[", "[", "]")]) if finished else ()
    except KeyError:
        return None
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        return None
    return new_report(hands, pairs, stock, _WIRE_SUITS[trump], card, discard, attacker,
                      defender, taking == "true", groups, over == "true", seat, known)


def _cut_items(text: str, cut: str, open_: str, close: str) -> list[str]:
    """The items of ``open_ item cut item … close`` (``KeyError`` unless ``text`` begins
    with ``open_`` and ends with ``close``)."""
    if len(text) < 2 or text[0] != open_ or text[-1] != close:
        raise KeyError(text)
    return text[1:-1].split(cut)


def _pair_of_text(text: str) -> Pair:
    """The engine's shared pair of the text of a table's pair without its brackets
    (``"7♣",null``, ``"7♣","9♣"``); ``KeyError`` for any other text."""
    attack, _, cover = text.partition(",")
    if len(attack) < 2 or attack[0] != '"' or attack[-1] != '"':
        raise KeyError(text)
    if cover == "null":
        return _UNCOVERED_OF(attack[1:-1])
    if len(cover) < 2 or cover[0] != '"' or cover[-1] != '"':
        raise KeyError(text)
    return _COVERED_OF(attack[1:-1])[cover[1:-1]]


def _seats_of_text(text: str) -> tuple[int, ...]:
    """The seats of the text of a group of the finishing order without its brackets
    (``0,2``, or nothing); ``KeyError`` for any other text."""
    return tuple(map(_SEAT_OF, text.split(","))) if text else ()


_SEAT_OF: Final = {str(seat): seat for seat in range(MAX_SEAT + 1)}.__getitem__


def _seats(value: object, path: Path) -> tuple[int, ...]:
    return tuple([_seat(s, (path, i)) for i, s in enumerate(expect_list(value, path))])


def _finished(value: object, path: Path) -> tuple[tuple[int, ...], ...]:
    if type(value) is list:
        groups = []
        for group in value:  # a plain loop: the list is short, and a comprehension a call
            if type(group) is not list:
                break
            for seat in group:
                if type(seat) is not int or not 0 <= seat <= MAX_SEAT:
                    break
            else:
                groups.append(tuple(group))
                continue
            break
        else:
            return tuple(groups)
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
                             **({"step": True} if caps.step else {})}}


AXIS_VALUES: Final = MappingProxyType({
    axis.name: (tuple(str(m.value) for m in axis.enum) if axis.enum is not None
                else ("on", "off"))
    for axis in AXES if axis.name != "players"
})
"""Per axis, the values a capability can name (booleans as ``on``/``off``)."""


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
                          ("turn_order", "step"))
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
_REMEMBERED_REQUESTS: Final = (ApplyRequest, LegalRequest, StateRequest)
"""The requests a codec remembers by their line (the others are rare or long)."""


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


def encode_request(request: Request, codec: Codec | None = None) -> str:
    """One request as a JSON line (without the final newline)."""
    if isinstance(request, ApplyRequest):
        text = codec.text(request.action) if codec is not None else _action_text(request.action)
        then = ',"then":true' if request.then else ""
        return f'{{"id":{int(request.id)},"cmd":"apply","action":{text}{then}}}'
    if isinstance(request, StartRequest):
        start: dict[str, object] = {
            "id": request.id, "cmd": "start", "rules": request.rules.to_dict(),
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
    "hello": ("id", "cmd"), "start": ("id", "cmd", "rules", "deck", "seed"),
    "load": ("id", "cmd", "state"), "legal": ("id", "cmd"), "apply": ("id", "cmd", "action"),
    "state": ("id", "cmd"), "quit": ("id", "cmd"),
})
"""The fields of each request, by its ``cmd``."""
OPTIONAL_FIELDS: Final = MappingProxyType({"start": ("previous",), "apply": ("then",)})
"""The fields a request may leave out, by its ``cmd``."""
_REQUEST_KEYS: Final = MappingProxyType({cmd: frozenset(names)
                                         for cmd, names in REQUEST_FIELDS.items()})
_REPORT_REPLY_KEYS: Final = frozenset(("id", "ok", "report"))
_LEGAL_REPLY_KEYS: Final = frozenset(("id", "ok", "actions"))
_ACCEPTED_REPLY_KEYS: Final = frozenset(("id", "ok", "accepted"))
_STEP_REQUEST_KEYS: Final = frozenset(("id", "cmd", "action", "then"))
_STEP_REPLY_KEYS: Final = frozenset(("id", "ok", "accepted", "report", "actions"))


def decode_request(line: str | bytes, codec: Codec | None = None) -> Request:
    """Parse one request line strictly; raises :class:`ProtocolError` naming the field.

    With a ``codec``, a line that differs only in its id from a request it has read is
    answered from its memory (:meth:`Codec.known`)."""
    head = None
    if codec is not None:
        head = _id_and_rest(line)  # found once, for the look-up and the memory
        if head is not None:
            known = codec.recall(head, None, len(line))
            if known is not None:
                return known  # type: ignore[return-value]
    data = _load_line(line)
    try:
        request = _request(data, codec)
    except JsonError as error:
        raise _failed(error, line, data) from None
    if codec is not None and head is not None and isinstance(request, _REMEMBERED_REQUESTS):
        codec.keep(head, None, request)
    return request


def _request(data: dict[str, Any], codec: Codec | None) -> Request:
    if "id" not in data:
        fail("id", "is missing")
    ident = expect_int(data["id"], "id")
    cmd = data.get("cmd")
    if not isinstance(cmd, str) or cmd not in REQUEST_FIELDS:
        fail("cmd", f"must be one of {', '.join(COMMANDS)}, not {show(cmd)}")
    if data.keys() != _REQUEST_KEYS[cmd] and (cmd != "apply" or data.keys() != _STEP_REQUEST_KEYS):
        expect_object(data, None, REQUEST_FIELDS[cmd], OPTIONAL_FIELDS.get(cmd, ()),
                      noun="message")
    if cmd == "apply":
        action = data["action"]
        then = "then" in data and expect_bool(data["then"], "then")
        return ApplyRequest(ident, codec.action(action, "action") if codec is not None
                            else action_from_wire(action), then)
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


def encode_reply(reply: Reply, codec: Codec | None = None) -> str:
    """One response as a JSON line (without the final newline).

    The line can always be written as UTF-8; an error's text is cut to
    :data:`ERROR_LIMIT` characters.
    """
    if isinstance(reply, LegalReply):
        text = codec.text if codec is not None else _action_text
        actions = ",".join([text(a) for a in reply.actions])
        return f'{{"id":{int(reply.id)},"ok":true,"actions":[{actions}]}}'
    if isinstance(reply, ReportReply):
        return f'{{"id":{int(reply.id)},"ok":true,"report":{_report_text(reply.report, codec)}}}'
    if isinstance(reply, VerdictReply):
        verdict = reply.verdict
        if isinstance(verdict, Rejected):
            return write_json({"id": reply.id, "ok": True, "accepted": False,
                               "reason": _cut(verdict.reason), "rule": verdict.rule})
        if reply.report is not None and reply.actions is not None:
            text = codec.text if codec is not None else _action_text
            actions = ",".join([text(a) for a in reply.actions])
            return (f'{{"id":{int(reply.id)},"ok":true,"accepted":true,'
                    f'"report":{_report_text(reply.report, codec)},"actions":[{actions}]}}')
        return f'{{"id":{int(reply.id)},"ok":true,"accepted":true}}'
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


def decode_reply(line: str | bytes, cmd: Command, codec: Codec | None = None) -> Reply:
    """Parse the response to a ``cmd`` request strictly.

    The result is the command's reply type (:data:`REPLY_TYPES`) or an :class:`ErrorReply`;
    whether its id is the request's is the caller's check.

    With a ``codec``, a line written exactly as the encoder writes it is read by the
    codec's fast paths, without the JSON reader: a line seen before but for its id
    (:meth:`Codec.recall`), a legal list (:meth:`Codec.listing`), an answer with a report
    (:func:`_encoders_answer`). Each applies only where it proves the line is such an
    answer, and gives the same reply as the strict reader; any other line is read whole,
    and a fault is named as without a codec.
    """
    if cmd not in REPLY_TYPES:
        raise ValueError(f"unknown command {cmd!r}; commands are {', '.join(COMMANDS)}")
    head = None
    if codec is not None:
        if isinstance(line, bytearray):  # (a key of the codec's memories must be hashable)
            line = bytes(line)
        head = _id_and_rest(line)  # found once, for the look-ups and the memory
    if head is not None and codec is not None:
        if cmd == "legal" or cmd == "apply":
            known = codec.recall(head, cmd, len(line))
            if known is not None:
                return known  # type: ignore[return-value]
        if cmd == "legal":
            listed = codec.listing(head, len(line))
            if listed is not None:
                return listed
        elif cmd in ("state", "start", "load") or (
                cmd == "apply" and len(line) > _SHORTEST_STEP):  # an answer with a report
            answer = _encoders_answer(head, len(line), cmd, codec)
            if answer is not None:
                return answer
    data = _load_line(line)
    try:
        reply = _reply(data, cmd, codec)
    except JsonError as error:
        raise _failed(error, line, data) from None
    if codec is not None and head is not None and cmd in ("legal", "apply") and (
            isinstance(reply, LegalReply) or (
                isinstance(reply, VerdictReply) and reply.report is None)):
        codec.keep(head, cmd, reply)  # an answer without a report, which may recur
    return reply


def _reply(data: dict[str, Any], cmd: Command, codec: Codec | None) -> Reply:
    if "id" not in data:
        fail("id", "is missing")
    if "ok" not in data:
        fail("ok", "is missing")
    ok = data["ok"]
    if type(ok) is not bool:
        ok = expect_bool(ok, "ok")
    if not ok:
        expect_object(data, None, ("id", "ok", "error"), ("rule", "declined"), noun="message")
        ident = data["id"]
        declined = expect_bool(data.get("declined", False), "declined")
        if declined and cmd != "load":
            fail("declined", f"only a load may be declined, not {cmd}")
        return ErrorReply(None if ident is None else expect_int(ident, "id"),
                          expect_str(data["error"], "error"), _rule_id(data.get("rule"), "rule"),
                          declined)
    ident = data["id"]
    if not (type(ident) is int and 0 <= ident <= MAX_ID):  # a right one read at once
        ident = expect_int(ident, "id")
    if cmd in ("start", "load", "state"):
        if data.keys() != _REPORT_REPLY_KEYS:
            expect_object(data, None, ("id", "ok", "report"), noun="message")
        return ReportReply(ident, report_from_json(data["report"], "report", codec))
    if cmd == "legal":
        if data.keys() != _LEGAL_REPLY_KEYS:
            expect_object(data, None, ("id", "ok", "actions"), noun="message")
        return LegalReply(ident, _actions(data["actions"], "actions", codec))
    if cmd == "apply":
        if "accepted" not in data:
            fail("accepted", "is missing")
        if expect_bool(data["accepted"], "accepted"):
            if data.keys() == _STEP_REPLY_KEYS:  # one round trip: the position after it
                return VerdictReply(ident, Accepted(),
                                    report_from_json(data["report"], "report", codec),
                                    _actions(data["actions"], "actions", codec))
            if data.keys() != _ACCEPTED_REPLY_KEYS:
                stepped = "report" in data or "actions" in data
                expect_object(data, None, ("id", "ok", "accepted", "report", "actions")
                              if stepped else ("id", "ok", "accepted"), noun="message")
            return VerdictReply(ident, Accepted())
        expect_object(data, None, ("id", "ok", "accepted", "reason", "rule"), noun="message")
        return VerdictReply(ident, Rejected(expect_str(data["reason"], "reason", empty=False),
                                            _rule_id(data["rule"], "rule")))
    if cmd == "hello":
        expect_object(data, None, ("id", "ok", "protocol", "name", "version", "profiles",
                                   "players", "capabilities"), ("axes",), noun="message")
        return HelloReply(ident, _capabilities(data))
    expect_object(data, None, ("id", "ok"), noun="message")
    return OkReply(ident)


# -- a codec with caches of its own -------------------------------------------------------------


class Codec:
    """The wire's encoder and decoder for one conversation, remembering what recurs.

    A game repeats its actions and hands: the same covers and throw-ins are listed again
    and again, and most hands are reported as they were. A codec keeps, for the one
    server or client that owns it, the actions it has decoded (by their JSON text's
    fields, and by their object's text), the JSON text of the actions it has encoded,
    the hands it has read (by their cards as written, and by their text), and short
    answers by their line after the id, up to ``limit`` of each (short texts only), so
    that what recurs costs a dictionary look-up. The module's functions take a codec as
    their last argument; without one they remember nothing, and read the same. A codec
    is state: like the server and the subprocess engine that hold one, it serves one
    caller at a time.
    """

    __slots__ = ("_actions", "_hand_json", "_hand_texts", "_hands", "_lines", "_pieces",
                 "_texts", "limit")

    def __init__(self, limit: int = 50_000) -> None:
        self._actions: dict[tuple[object, ...], Action] = {}
        self._hands: dict[tuple[str, ...], tuple[Card, ...]] = {}
        """Hands read, sorted, by their cards as written (see :meth:`hand`)."""
        self._hand_texts: dict[str, tuple[Card, ...]] = {}
        """Hands read, sorted, by their text (see :meth:`hand_texts`)."""
        self._texts: dict[Action, str] = {}
        self._hand_json: dict[tuple[Card, ...], str] = {}
        """The JSON text of the hands encoded (see :meth:`hand_text`)."""
        self._lines: dict[object, Request | Reply] = {}
        """Messages read strictly, by their line after the id (see :func:`_id_and_rest`)."""
        self._pieces: dict[str | bytes, Action] = {}
        """Actions of legal lists and step answers, by their object's text (see
        :meth:`listed`)."""
        self.limit = limit

    def known(self, line: str | bytes, cmd: str | None = None) -> Request | Reply | None:
        """The message of ``line`` if a line that differs from it only in its id has been
        read strictly by this codec (and remembered); else ``None``.

        That is exact: an id of plain digits (no sign, no leading zero, at most
        :data:`MAX_ID`) read from the start of the line leaves the rest of it, and so
        everything the strict reader checks (nesting, keys, surrogates, fields), as it
        was when the line was read; only the length can differ, and it is checked."""
        if not self._lines:
            return None
        head = _id_and_rest(line)
        return None if head is None else self.recall(head, cmd, len(line))

    def recall(self, head: tuple[int, str | bytes], cmd: str | None,
               size: int) -> Request | Reply | None:
        """:meth:`known` for a line of ``size`` whose id and rest are ``head``
        (:func:`_id_and_rest`)."""
        message = self._lines.get((cmd, head[1]))
        if message is None or size > MAX_LINE:
            return None
        return _with_id(message, head[0])

    def remember(self, line: str | bytes, cmd: str | None, message: Request | Reply) -> None:
        """Remember ``message``, just read strictly from ``line``, for :meth:`known`."""
        head = _id_and_rest(line)
        if head is not None:
            self.keep(head, cmd, message)

    def keep(self, head: tuple[int, str | bytes], cmd: str | None,
             message: Request | Reply) -> None:
        """:meth:`remember` for a line whose id and rest are ``head``."""
        if len(self._lines) < _LINES_LIMIT:
            self._lines[cmd, head[1]] = message

    def listing(self, head: tuple[int, str | bytes], size: int) -> LegalReply | None:
        """The answer to ``legal`` of a line of ``size`` whose id and rest are ``head``, read
        one action object at a time, each object's text remembered; ``None`` where that
        does not apply (the caller then reads the line whole, and names any fault).

        It applies to a line ``{"id":N,"ok":true,"actions":[{…},…,{…}]}`` written without
        spaces between the objects, as encoders write it, and it is exact. The array's text
        is cut at every ``},{``; where each piece, given its braces back, is a JSON object
        the strict reader accepts on its own and an action, the array is exactly those
        objects one after another. A cut that fell inside a string, or inside an array or
        object of an item, would leave the piece before it ending inside that string or
        that array, and so no JSON object: then the line is read whole. The envelope around
        the array names ``id``, ``ok`` and ``actions`` once each, and UTF-8 (or a string's
        surrogates) cannot be valid in each piece and not in the line, as the cuts and the
        envelope are ASCII. Lists in a game repeat their actions, and their texts: a known
        piece costs a look-up."""
        rest: Any = head[1]  # str or bytes, as the line (and so are the texts it is cut by)
        if size > MAX_LINE:
            return None
        start, end = _LISTING_TEXT if type(rest) is str else _LISTING_BYTES
        if not (rest.startswith(start) and rest.endswith(end)):  # (they cannot overlap)
            return None
        actions = self.listed(rest[len(start):-len(end)])
        return None if actions is None else LegalReply(head[0], actions)

    def listed(self, text: str | bytes) -> tuple[Action, ...] | None:
        """The actions of the text of an array of action objects without its first and
        last brace and bracket (``"player":0,…},{"player":1,…``), as :meth:`listing` reads
        it; ``None`` if it does not apply."""
        parts = cast("list[str | bytes]", text.split("},{") if isinstance(text, str)
                     else text.split(b"},{"))
        pieces = self._pieces
        actions = [pieces.get(part) for part in parts]
        if None in actions:
            for i, part in enumerate(parts):
                if actions[i] is None:
                    actions[i] = self._piece(part, i)
                    if actions[i] is None:
                        return None
        return tuple(actions)  # type: ignore[arg-type]  # no None left

    def _piece(self, part: str | bytes, index: int) -> Action | None:
        """The action of one piece of a legal list (:meth:`listing`), read strictly and
        remembered; ``None`` if it is not a JSON object that is an action.

        A piece as the encoder writes it (:data:`_ACTION_MEMBERS`) is read by a regular
        expression (:func:`_matched_action`); any other by the strict JSON reader, whose
        value goes to :func:`action_from_wire`."""
        try:
            text = part if isinstance(part, str) else part.decode()
        except UnicodeDecodeError:
            return None
        found = _ACTION_MEMBERS.fullmatch(text)
        if found is not None:
            action = _matched_action(found)
            if action is None:
                return None
        else:
            try:
                value = read_json("{" + text + "}", what="the line", max_bytes=MAX_LINE,
                                  max_depth=MAX_DEPTH - 2)  # inside the line and its array
                if type(value) is not dict:
                    return None
                action = action_from_wire(value, ("actions", index))
            except JsonError:
                return None
        if len(self._pieces) < self.limit and len(part) <= _LONGEST_KEPT:
            self._pieces[part] = action
        return action

    def action(self, value: object, field: Path) -> Action:
        """:func:`action_from_wire`, remembered."""
        key = _action_key(value)
        if key is not None:
            try:
                known = self._actions.get(key)
            except TypeError:  # a field holds an array or object: not a card
                key = known = None
            if known is not None:
                return known
        action = action_from_wire(value, field)
        if key is not None and len(self._actions) < self.limit:
            self._actions[key] = action
        return action

    def hand(self, cards: list[Any]) -> tuple[Card, ...]:
        """The cards of one hand of a report (a JSON array), sorted canonically, remembered
        by the array's items; ``KeyError`` or ``TypeError`` if one is not a card.

        The key is the tuple of the items: only strings that are cards are ever stored, so
        an item of another type (a number, an array) finds nothing, as it should."""
        key = tuple(cards)
        hand = self._hands.get(key)
        if hand is None:
            hand = tuple(sorted(map(_CARD_OF, key)))
            if len(self._hands) < self.limit and len(key) <= _DECK_SIZE:
                self._hands[key] = hand
        return hand

    def hand_texts(self, text: str) -> tuple[tuple[Card, ...], ...]:
        """The hands of the text of an array of hands without its brackets, as the encoder
        writes it (``["7♣","6♣"],[],["A♠"]``), each sorted canonically and remembered by
        its text; ``KeyError`` for any other text (see :data:`_REPORT_MEMBERS`)."""
        if not text:
            return ()
        known = self._hand_texts
        hands = []
        for hand in _cut_items(text, "],[", "[", "]"):
            cards = known.get(hand)
            if cards is None:
                cards = tuple(sorted(map(_CARD_OF, _cut_items(hand, '","', '"', '"')))) \
                    if hand else ()
                if len(known) < self.limit and len(hand) <= _LONGEST_KEPT:
                    known[hand] = cards
            hands.append(cards)
        return tuple(hands)

    def hand_text(self, hand: tuple[Card, ...]) -> str:
        """The JSON text of a hand of a report, remembered (a game reports most hands as
        they were)."""
        text = self._hand_json.get(hand)
        if text is None:
            text = _hand_text(hand)
            if len(self._hand_json) < self.limit:
                self._hand_json[hand] = text
        return text

    def text(self, action: Action) -> str:
        """The JSON text of ``action``, remembered."""
        text = self._texts.get(action)
        if text is None:
            text = _action_text(action)
            if len(self._texts) < self.limit:
                self._texts[action] = text
        return text


_LISTING_TEXT: Final = (',"ok":true,"actions":[{', "}]}")
_LISTING_BYTES: Final = (b',"ok":true,"actions":[{', b"}]}")
"""How a legal list's line goes on after its id, and how it ends (:meth:`Codec.listing`)."""
_ACTION_MEMBERS: Final = re.compile(
    r'"player":(?P<player>[0-5]),"type":"(?:'
    r'(?P<cover>cover)","attack":"(?P<attack>[^"\\]+)","card":"(?P<covering>[^"\\]+)"'
    r'|(?P<kind>throw|transfer|show)","card":"(?P<card>[^"\\]+)"'
    r'|open","cards":\[(?P<cards>"[^"\\]+"(?:,"[^"\\]+")*)\]'
    r'|(?P<bare>take|done|exchange)")')
"""The members of an action object as the encoder writes them (:func:`_action_text`),
between its braces: a seat number, a type, and strings without a quote or a backslash,
so without escapes. Such a text is the JSON text of an object with exactly those
members once each string is a card (the text between the quotes is the string; a raw
control character or a lone surrogate would not be JSON, and is no card either):
:func:`_matched_action` refuses every string that is not a card."""


def _matched_action(found: re.Match[str]) -> Action | None:
    """The action of an object matched by :data:`_ACTION_MEMBERS`, as
    :func:`action_from_wire` reads those members (a seat the pattern allows, each card
    spelled as the wire spells cards); ``None`` if a string is not a card (then the
    strict reader names it)."""
    player = int(found["player"])
    if found["cover"] is not None:
        attack, card = _CARD_GET(found["attack"]), _CARD_GET(found["covering"])
        return None if attack is None or card is None else Cover(player, attack, card)
    kind = found["kind"]
    if kind is not None:
        card = _CARD_GET(found["card"])
        if card is None:
            return None
        return ThrowIn(player, card) if kind == "throw" \
            else Transfer(player, card, show=kind == "show")
    bare = found["bare"]
    if bare is not None:
        return Take(player) if bare == "take" else Done(player) if bare == "done" \
            else ExchangeTrump(player)
    cards = [_CARD_GET(text) for text in found["cards"][1:-1].split('","')]
    return None if None in cards else Open(player, tuple(cards))  # type: ignore[arg-type]


_LONGEST_KEPT: Final = 400
"""The longest text of an action object or a hand that a codec remembers: a hand of all
36 cards as the encoder writes it has 252 characters, while a hostile engine could pad
either to a line's length (spaces, a card repeated), and a codec keeps many."""
_LINES_LIMIT: Final = 4096
"""The most lines a codec remembers (short ones: requests, accepted applies, legal lists)."""
_ID_TEXT = re.compile(r'\{"id":(0|[1-9][0-9]{0,15}),')
_ID_BYTES = re.compile(rb'\{"id":(0|[1-9][0-9]{0,15}),')


def _id_and_rest(line: str | bytes) -> tuple[int, str | bytes] | None:
    """The id of a line that starts ``{"id":`` and plain digits, and the line after them."""
    found = (_ID_TEXT if isinstance(line, str) else _ID_BYTES).match(line)  # type: ignore[arg-type]
    if found is None:
        return None
    ident = int(found.group(1))
    if ident > MAX_ID:
        return None
    return ident, line[found.end(1):]


def _with_id(message: Request | Reply, ident: int) -> Request | Reply:
    """A remembered message (a request without a payload, an apply, an accepted apply's or
    a legal list's answer) with another id."""
    if isinstance(message, ApplyRequest):
        return ApplyRequest(ident, message.action, message.then)
    if isinstance(message, VerdictReply):
        return VerdictReply(ident, message.verdict)
    if isinstance(message, LegalReply):
        return LegalReply(ident, message.actions)
    return type(message)(ident)  # type: ignore[call-arg]


def _action_key(value: object) -> tuple[object, ...] | None:
    """The fields of an action object that decide the action, if it has exactly the
    fields of its type and a seat number; ``None`` for anything else (then it is read
    field by field). The objects of three fields (openings, throw-ins, transfers: most
    of a list of legal actions) are told apart first."""
    if type(value) is not dict:
        return None
    kind, player, size = value.get("type"), value.get("player"), len(value)
    if type(player) is not int:  # not True (== 1), not 1.0
        return None
    if size == 3:
        if kind == "open":
            cards = value.get("cards")
            return ("open", player, *cards) if type(cards) is list else None
        if (kind == "throw" or kind == "transfer" or kind == "show") and "card" in value:
            return (kind, player, value["card"])
        return None
    if kind == "cover" and size == 4 and "attack" in value and "card" in value:
        return ("cover", player, value["attack"], value["card"])
    if size == 2 and (kind == "take" or kind == "done" or kind == "exchange"):
        return (kind, player)
    return None
