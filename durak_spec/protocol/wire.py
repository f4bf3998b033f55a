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
                                                            players, capabilities {load},
                                                            axes {axis: [values]} (optional)
start      rules {axis: value, every axis},                 report
           deck [36 cards in dealing and drawing order],
           seed (ORDER-2's chance)
load       state (a position document, see below)          report  (optional: capability load)
legal      (none)                                           actions [every legal action]
apply      action                                           accepted: true, or accepted: false
                                                            with reason and rule (ID or null)
state      (none)                                           report
quit       (none)                                           (none); the engine then exits
=========  ===============================================  ====================================

A successful response has ``"ok": true``; a request the engine cannot serve gets
``{"id": n, "ok": false, "error": "...", "rule": "DEAL-1" | null}`` (``rule`` optional, and
``id`` null when the request had no readable id). Rejecting an illegal action is *not* an
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

Decoding is strict: a missing field, an unknown field, a value of the wrong type or a card
not in the notation raises :class:`ProtocolError`, which names the field (``report.hands[1]``)
and quotes the offending line, truncated to 200 characters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NoReturn, TypeAlias

from durak_spec.core.cards import DECK, Card, CardError, Rank, Suit, parse_card
from durak_spec.core.errors import DurakError, NotationError
from durak_spec.game.persist import SavedGameError, state_from_json, state_to_json
from durak_spec.model.actions import Action, action_from_json
from durak_spec.model.rules import AXES, MAX_PLAYERS, MIN_PLAYERS, RuleSet, RuleSetError
from durak_spec.model.state import GameState, Pair, card_key
from durak_spec.protocol import Accepted, Capabilities, Rejected, Report, Verdict

__all__ = [
    "COMMANDS",
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

MAX_ID = 2**53 - 1  # the largest integer every JSON reader holds exactly
MAX_SEAT = MAX_PLAYERS - 1

def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)

Command = Literal["hello", "start", "load", "legal", "apply", "state", "quit"]
COMMANDS: tuple[Command, ...] = ("hello", "start", "load", "legal", "apply", "state", "quit")


# -- errors -------------------------------------------------------------------------------


def quote(line: str | bytes, limit: int = QUOTE_LIMIT) -> str:
    """``line`` for an error message: cut to ``limit`` characters, saying how much was cut."""
    text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


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


Path: TypeAlias = "str | tuple[Path, str | int] | None"
"""Where a field sits, built lazily: ``(("report", "hands"), 1)`` is ``report.hands[1]``."""


def _name(path: Path) -> str | None:
    if path is None or isinstance(path, str):
        return path
    parent, key = path
    base = _name(parent)
    if isinstance(key, int):
        return f"{base or ''}[{key}]"
    return f"{base}.{key}" if base else key


class _Bad(Exception):
    """Internal: a field is wrong; turned into a ProtocolError with the line attached."""

    def __init__(self, path: Path, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.field = _name(path)
        self.reason = reason
        self.rule = rule


def _fail(path: Path, reason: str) -> NoReturn:
    raise _Bad(path, reason)


def _show(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return quote(text, 60)


# -- scalar fields -------------------------------------------------------------------------
# Each checker returns at once for a good value; only a bad one pays for the message.

_KEYSETS: dict[tuple[str, ...], frozenset[str]] = {}


def _object(value: object, path: Path, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, Any]:
    keys = _KEYSETS.get(required)
    if keys is None:
        keys = _KEYSETS[required] = frozenset(required)
    if isinstance(value, dict) and value.keys() == keys:
        return value
    if not isinstance(value, dict):
        _fail(path, f"must be a JSON object, not {_show(value)}")
    for key in required:
        if key not in value:
            _fail((path, key), "is missing")
    for key in value:
        if key not in keys and key not in optional:
            _fail((path, key), "is not a field of this message "
                  f"(its fields are {', '.join((*required, *optional))})")
    return value


def _int(value: object, path: Path, low: int = 0, high: int = MAX_ID) -> int:
    if type(value) is int and low <= value <= high:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # JSON has one kind of number: 3.0 is 3
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(path, f"must be a whole number, not {_show(value)}")
    if not low <= value <= high:
        _fail(path, f"must be from {low} to {high}, not {value}")
    return value


def _seat(value: object, path: Path) -> int:
    if type(value) is int and 0 <= value <= MAX_SEAT:
        return value
    return _int(value, path, 0, MAX_SEAT)


def _bool(value: object, path: Path) -> bool:
    if not isinstance(value, bool):
        _fail(path, f"must be true or false, not {_show(value)}")
    return value


def _str(value: object, path: Path, *, empty: bool = True) -> str:
    if not isinstance(value, str):
        _fail(path, f"must be a string, not {_show(value)}")
    if not empty and not value.strip():
        _fail(path, "must not be empty")
    return value


def _list(value: object, path: Path) -> list[Any]:
    if not isinstance(value, list):
        _fail(path, f"must be a JSON array, not {_show(value)}")
    return value


def _rule_id(value: object, path: Path) -> str | None:
    if value is None:
        return None
    text = _str(value, path)
    head, dash, tail = text.partition("-")
    if not (dash and head.isascii() and head.isalpha() and head.isupper()
            and tail.isascii() and tail.isdigit()):
        _fail(path, f"must be a rule ID like \"BEAT-3\" or null, not {_show(value)}")
    return text


# -- cards, suits, actions -----------------------------------------------------------------

_CARD_TEXT: dict[Card, str] = {card: str(card) for card in DECK}
_CARD_ORDER: dict[Card, int] = {card: i for i, card in enumerate(sorted(DECK, key=card_key))}
_WIRE_CARDS: dict[str, Card] = {}
for _card in DECK:
    for _rank in (_card.rank.symbol, "T") if _card.rank is Rank.TEN else (_card.rank.symbol,):
        for _letter in (_card.suit.symbol, _card.suit.letter):
            _WIRE_CARDS[_rank + _letter] = _card
_WIRE_SUITS: dict[str, Suit] = {}
for _s in Suit:
    _WIRE_SUITS[_s.symbol] = _s
    _WIRE_SUITS[_s.letter] = _s


def card_from_wire(value: object, field: Path = "card") -> Card:
    """A card in wire notation (``"7♣"``, ``"10♥"``, or ASCII ``"7C"``, ``"TH"``)."""
    if isinstance(value, str):
        card = _WIRE_CARDS.get(value)
        if card is not None:
            return card
        try:
            parsed = parse_card(value)
        except CardError as error:
            _fail(field, str(error))
        _fail(field, f"{_show(value)} is not in wire notation: write \"{parsed}\" "
              f"(or \"{parsed.ascii}\"), rank then suit with nothing between")
    _fail(field, f"must be a card like \"7♣\" or \"7C\", not {_show(value)}")


def _cards(value: object, path: Path) -> tuple[Card, ...]:
    if isinstance(value, list):
        try:
            return tuple([_WIRE_CARDS[item] for item in value])
        except (KeyError, TypeError):
            for i, item in enumerate(value):
                card_from_wire(item, (path, i))
    _fail(path, f"must be a JSON array of cards, not {_show(value)}")


def _maybe_card(value: object, path: Path) -> Card | None:
    return None if value is None else card_from_wire(value, path)


def _suit(value: object, path: Path) -> Suit:
    if isinstance(value, str):
        suit = _WIRE_SUITS.get(value)
        if suit is not None:
            return suit
    _fail(path, f"must be a suit: one of ♣ ♦ ♥ ♠ (or C D H S), not {_show(value)}")


def _table_json(table: Sequence[tuple[Card, Card | None]]) -> list[list[str | None]]:
    return [[_CARD_TEXT[attack], None if cover is None else _CARD_TEXT[cover]]
            for attack, cover in table]


def _table(value: object, path: Path) -> tuple[Pair, ...]:
    pairs = []
    for i, item in enumerate(_list(value, path)):
        if not isinstance(item, list) or len(item) != 2:
            _fail((path, i), f"must be a pair [attack card, cover card or null], "
                  f"not {_show(item)}")
        pairs.append(Pair(card_from_wire(item[0], ((path, i), 0)),
                          _maybe_card(item[1], ((path, i), 1))))
    return tuple(pairs)


_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "open": ("player", "type", "cards"),
    "throw": ("player", "type", "card"),
    "cover": ("player", "type", "attack", "card"),
    "transfer": ("player", "type", "card"),
    "show": ("player", "type", "card"),
    "take": ("player", "type"),
    "done": ("player", "type"),
    "exchange": ("player", "type"),
}
_ONE_CARD = frozenset(("throw", "transfer", "show"))
_NO_CARD = frozenset(("take", "done", "exchange"))
_ACTIONS: dict[tuple[object, ...], Action] = {}
_ACTION_CACHE_LIMIT = 100_000
_ACTION_TEXT: dict[Action, str] = {}


def _action_key(value: dict[str, Any]) -> tuple[object, ...] | None:
    """The cache key of a well-formed action object; ``None`` if anything is unusual."""
    try:
        kind = value["type"]
        player = value["player"]
        if type(player) is not int or not 0 <= player <= MAX_SEAT:
            return None
        size = len(value)
        if kind == "cover" and size == 4:
            return ("cover", player, _WIRE_CARDS[value["attack"]], _WIRE_CARDS[value["card"]])
        if kind in _ONE_CARD and size == 3:
            return (kind, player, _WIRE_CARDS[value["card"]])
        if kind in _NO_CARD and size == 2:
            return (kind, player)
        cards = value["cards"]
        if kind == "open" and size == 3 and isinstance(cards, list) and cards:
            return ("open", player, *[_WIRE_CARDS[c] for c in cards])
    except (KeyError, TypeError):
        pass
    return None


def action_from_wire(value: object, field: Path = "action") -> Action:
    """An action from its JSON object (:meth:`Action.to_json`), checked strictly."""
    if isinstance(value, dict):
        key = _action_key(value)
        if key is not None:
            cached = _ACTIONS.get(key)
            if cached is not None:
                return cached
    if not isinstance(value, dict):
        _fail(field, f"must be an action object like {{\"player\": 0, \"type\": \"take\"}}, "
              f"not {_show(value)}")
    kind = value.get("type")
    names = _ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if names is None:
        _fail((field, "type"), f"must be one of {', '.join(_ACTION_FIELDS)}, "
              f"not {_show(kind)}")
    _object(value, field, names)
    player = _seat(value["player"], (field, "player"))
    if kind == "open":
        cards = _cards(value["cards"], (field, "cards"))
        if not cards:
            _fail((field, "cards"), "an opening plays at least one card")
        key = (kind, player, *cards)
    elif len(names) == 4:
        key = (kind, player, card_from_wire(value["attack"], (field, "attack")),
               card_from_wire(value["card"], (field, "card")))
    elif len(names) == 3:
        key = (kind, player, card_from_wire(value["card"], (field, "card")))
    else:
        key = (kind, player)
    try:
        action = action_from_json({**value, "player": player})
    except NotationError as error:  # pragma: no cover - the checks above come first
        _fail(field, str(error))
    if len(_ACTIONS) < _ACTION_CACHE_LIMIT:
        _ACTIONS[key] = action
    return action


def _action_text(action: Action) -> str:
    """The JSON text of an action (cached: actions are immutable)."""
    text = _ACTION_TEXT.get(action)
    if text is None:
        text = _ENCODER.encode(action.to_json())
        if len(_ACTION_TEXT) < _ACTION_CACHE_LIMIT:
            _ACTION_TEXT[action] = text
    return text


def _actions(value: object, path: Path) -> tuple[Action, ...]:
    items = _list(value, path)
    return tuple([action_from_wire(item, (path, i)) for i, item in enumerate(items)])


# -- rule sets -------------------------------------------------------------------------------

_AXIS_NAMES = tuple(axis.name for axis in AXES)
_RULES: dict[tuple[object, ...], RuleSet] = {}


def rules_from_json(value: object, field: Path = "rules") -> RuleSet:
    """A rule set from an object naming every axis (:meth:`RuleSet.to_dict`), strictly."""
    data = _object(value, field, _AXIS_NAMES)
    for axis in AXES:
        item = data[axis.name]
        where = (field, axis.name)
        if axis.enum is not None:
            if not isinstance(item, str) or item not in {m.value for m in axis.enum}:
                _fail(where, f"must be one of {axis.choices()}, not {_show(item)}")
        elif axis.kind is int:
            data = {**data, axis.name: _int(item, where, MIN_PLAYERS, MAX_PLAYERS)}
        else:
            _bool(item, where)
    try:
        return RuleSet.from_dict(data)
    except RuleSetError as error:
        _fail(field, str(error))


# -- reports, positions, capabilities ---------------------------------------------------------

_REPORT_FIELDS = ("hands", "table", "stock", "trump", "face_up", "discard", "attacker",
                  "defender", "taking", "finished", "over", "durak")


def report_to_json(report: Report) -> dict[str, Any]:
    """The JSON object of a report."""
    return {
        "hands": [[_CARD_TEXT[c] for c in hand] for hand in report.hands],
        "table": _table_json(report.table),
        "stock": report.stock,
        "trump": report.trump.symbol,
        "face_up": None if report.face_up is None else _CARD_TEXT[report.face_up],
        "discard": report.discard,
        "attacker": report.attacker,
        "defender": report.defender,
        "taking": report.taking,
        "finished": [list(group) for group in report.finished],
        "over": report.over,
        "durak": report.durak,
        "known": [[_CARD_TEXT[c] for c in cards] for cards in report.known],
    }


_QUOTED: dict[Card, str] = {card: f'"{card}"' for card in DECK}


def _report_text(report: Report) -> str:
    """``_dumps(report_to_json(report))``, written directly (it is on every request's path)."""
    quoted = _QUOTED
    hands = ",".join(["[" + ",".join([quoted[c] for c in hand]) + "]" for hand in report.hands])
    table = ",".join([f"[{quoted[a]},{'null' if c is None else quoted[c]}]"
                      for a, c in report.table])
    finished = ",".join(["[" + ",".join([str(int(s)) for s in group]) + "]"
                         for group in report.finished])
    face_up = "null" if report.face_up is None else quoted[report.face_up]
    durak = "null" if report.durak is None else str(int(report.durak))
    known = ",".join(["[" + ",".join([quoted[c] for c in cards]) + "]"
                      for cards in report.known])
    return (f'{{"hands":[{hands}],"table":[{table}],"stock":{int(report.stock)},'
            f'"trump":"{Suit(report.trump).symbol}","face_up":{face_up},'
            f'"discard":{int(report.discard)},"attacker":{int(report.attacker)},'
            f'"defender":{int(report.defender)},"taking":{_JSON_BOOL[bool(report.taking)]},'
            f'"finished":[{finished}],"over":{_JSON_BOOL[bool(report.over)]},"durak":{durak},'
            f'"known":[{known}]}}')


_JSON_BOOL = {True: "true", False: "false"}


def _seats(value: object, path: Path) -> tuple[int, ...]:
    return tuple([_seat(s, (path, i)) for i, s in enumerate(_list(value, path))])


def _finished(value: object, path: Path) -> tuple[tuple[int, ...], ...]:
    return tuple([_seats(group, (path, i)) for i, group in enumerate(_list(value, path))])


_REPORT_KEYS = frozenset(_REPORT_FIELDS)
_REPORT_KEYS_KNOWN = _REPORT_KEYS | {"known"}


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_SEAT


def _is_count(value: object) -> bool:
    return type(value) is int and 0 <= value <= len(DECK)


def _quick_report(data: object) -> Report | None:
    """A well-formed report, read fast; ``None`` for anything unusual (then the careful
    reader below decides, and names what is wrong)."""
    if not isinstance(data, dict):
        return None
    keys = data.keys()
    if keys != _REPORT_KEYS_KNOWN and keys != _REPORT_KEYS:
        return None
    cards = _WIRE_CARDS
    order = _CARD_ORDER.__getitem__
    try:
        hands_data = data["hands"]
        if type(hands_data) is not list or not MIN_PLAYERS <= len(hands_data) <= MAX_PLAYERS:
            return None
        hands = []
        for hand in hands_data:
            if type(hand) is not list:
                return None
            hands.append(tuple(sorted([cards[c] for c in hand], key=order)))
        table_data = data["table"]
        if type(table_data) is not list:
            return None
        table = []
        for pair in table_data:
            if type(pair) is not list or len(pair) != 2:
                return None
            attack, cover = pair
            table.append(Pair(cards[attack], None if cover is None else cards[cover]))
        finished_data = data["finished"]
        if type(finished_data) is not list:
            return None
        finished = []
        for group in finished_data:
            if type(group) is not list or not all(_is_seat(s) for s in group):
                return None
            finished.append(tuple(group))
        known: list[tuple[Card, ...]] = []
        if "known" in data:
            known_data = data["known"]
            if type(known_data) is not list:
                return None
            for seen in known_data:
                if type(seen) is not list:
                    return None
                known.append(tuple(sorted([cards[c] for c in seen])))
        stock, discard = data["stock"], data["discard"]
        attacker, defender, durak = data["attacker"], data["defender"], data["durak"]
        taking, over, face_up = data["taking"], data["over"], data["face_up"]
        if not (_is_count(stock) and _is_count(discard) and _is_seat(attacker)
                and _is_seat(defender) and (durak is None or _is_seat(durak))
                and type(taking) is bool and type(over) is bool):
            return None
        return Report(hands=tuple(hands), table=tuple(table), stock=stock,
                      trump=_WIRE_SUITS[data["trump"]],
                      face_up=None if face_up is None else cards[face_up], discard=discard,
                      attacker=attacker, defender=defender, taking=taking,
                      finished=tuple(finished), over=over, durak=durak, known=tuple(known))
    except (KeyError, TypeError):
        return None


def report_from_json(value: object, field: Path = "report") -> Report:
    """A report from its JSON object; the cards of each hand are sorted canonically.

    ``known`` (per seat, the cards of that hand every player knows, VIEW-2) is optional:
    an engine that does not track it leaves it out, and the report has ``known=()``.
    """
    quick = _quick_report(value)
    if quick is not None:
        return quick
    data = _object(value, field, _REPORT_FIELDS, ("known",))
    hands_data = _list(data["hands"], (field, "hands"))
    if not MIN_PLAYERS <= len(hands_data) <= MAX_PLAYERS:
        _fail((field, "hands"), f"must list one hand for each of 2 to 6 players, "
              f"not {len(hands_data)}")
    order = _CARD_ORDER.__getitem__
    hands = tuple([tuple(sorted(_cards(hand, ((field, "hands"), i)), key=order))
                   for i, hand in enumerate(hands_data)])
    durak = data["durak"]
    return Report(
        hands=hands,
        table=_table(data["table"], (field, "table")),
        stock=_int(data["stock"], (field, "stock"), 0, len(DECK)),
        trump=_suit(data["trump"], (field, "trump")),
        face_up=_maybe_card(data["face_up"], (field, "face_up")),
        discard=_int(data["discard"], (field, "discard"), 0, len(DECK)),
        attacker=_seat(data["attacker"], (field, "attacker")),
        defender=_seat(data["defender"], (field, "defender")),
        taking=_bool(data["taking"], (field, "taking")),
        finished=_finished(data["finished"], (field, "finished")),
        over=_bool(data["over"], (field, "over")),
        durak=None if durak is None else _seat(durak, (field, "durak")),
        known=tuple([tuple(sorted(_cards(cards, ((field, "known"), i)))) for i, cards
                     in enumerate(_list(data.get("known", []), (field, "known")))]),
    )


def _state(value: object, path: Path) -> GameState:
    """A full position (a ``durak-spec/state`` document of :mod:`durak_spec.game.persist`)."""
    try:
        return state_from_json(value)
    except SavedGameError as error:
        where = _name((path, error.path)) if error.path else _name(path)
        raise _Bad(where, error.reason, error.rule) from None


def _capabilities_json(caps: Capabilities) -> dict[str, object]:
    return {"protocol": caps.protocol, "name": caps.name, "version": caps.version,
            "profiles": list(caps.profiles), "players": list(caps.players),
            "axes": {name: list(values) for name, values in caps.axes.items()},
            "capabilities": {"load": caps.load}}


_AXIS_VALUES: dict[str, tuple[str, ...]] = {
    axis.name: (tuple(str(m.value) for m in axis.enum) if axis.enum is not None
                else ("on", "off"))
    for axis in AXES if axis.name != "players"
}


def _axes(value: object, path: Path) -> dict[str, tuple[str, ...]]:
    """Per axis, the values an engine plays in any combination (``Capabilities.axes``)."""
    if not isinstance(value, dict):
        _fail(path, f"must be a JSON object of axes, not {_show(value)}")
    axes: dict[str, tuple[str, ...]] = {}
    for name, values in value.items():
        choices = _AXIS_VALUES.get(name)
        if choices is None:
            _fail((path, name), f"is not a rule-set axis a capability can name (axes: "
                  f"{', '.join(_AXIS_VALUES)})")
        items = _list(values, (path, name))
        for i, item in enumerate(items):
            if not isinstance(item, str) or item not in choices:
                _fail(((path, name), i), f"must be one of {', '.join(choices)}, "
                      f"not {_show(item)}")
        axes[name] = tuple(items)
    return axes


def _capabilities(data: Mapping[str, Any]) -> Capabilities:
    profiles = _list(data["profiles"], "profiles")
    players = _list(data["players"], "players")
    extra = _object(data["capabilities"], "capabilities", ("load",))
    return Capabilities(
        name=_str(data["name"], "name", empty=False),
        version=_str(data["version"], "version"),
        protocol=_int(data["protocol"], "protocol", 1),
        profiles=tuple([_str(p, ("profiles", i), empty=False) for i, p in enumerate(profiles)]),
        players=tuple([_int(n, ("players", i), MIN_PLAYERS, MAX_PLAYERS)
                       for i, n in enumerate(players)]),
        load=_bool(extra["load"], ("capabilities", "load")),
        axes=_axes(data.get("axes", {}), "axes"),
    )


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


@dataclass(frozen=True, slots=True)
class OkReply:
    """The answer to ``quit``."""

    id: int


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """The engine could not serve the request; ``rule`` names a rule ID when one applies."""

    id: int | None
    error: str
    rule: str | None = None


Reply = HelloReply | ReportReply | LegalReply | VerdictReply | OkReply | ErrorReply

REPLY_TYPES: Mapping[Command, type[Reply]] = {
    "hello": HelloReply, "start": ReportReply, "load": ReportReply, "legal": LegalReply,
    "apply": VerdictReply, "state": ReportReply, "quit": OkReply,
}
"""The successful reply to each command."""


def _dumps(obj: Mapping[str, object]) -> str:
    return _ENCODER.encode(obj)


def _load_line(line: str | bytes) -> dict[str, Any]:
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedMessage(f"not UTF-8 text ({error.reason} at byte {error.start})",
                                   line=line) from None
    else:
        text = line
    try:
        data = _DECODER.decode(text)
    except (ValueError, RecursionError) as error:
        raise MalformedMessage(f"not valid JSON ({error})", line=line) from None
    if not isinstance(data, dict):
        raise MalformedMessage(f"a message must be a JSON object, not {type(data).__name__}",
                               line=line)
    return data


def _message_id(data: Mapping[str, Any]) -> int | None:
    value = data.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    return None


def encode_request(request: Request) -> str:
    """One request as a JSON line (without the final newline)."""
    if isinstance(request, ApplyRequest):
        return f'{{"id":{int(request.id)},"cmd":"apply","action":{_action_text(request.action)}}}'
    if isinstance(request, StartRequest):
        return _dumps({"id": request.id, "cmd": "start", "rules": request.rules.to_dict(),
                       "deck": [_CARD_TEXT[c] for c in request.deck], "seed": request.seed})
    if isinstance(request, LoadRequest):
        return _dumps({"id": request.id, "cmd": "load", "state": state_to_json(request.state)})
    return f'{{"id":{int(request.id)},"cmd":"{request.cmd}"}}'


_REQUEST_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": (), "start": ("rules", "deck", "seed"), "load": ("state",), "legal": (),
    "apply": ("action",), "state": (), "quit": (),
}


_REQUEST_KEYS = {cmd: ("id", "cmd", *fields) for cmd, fields in _REQUEST_FIELDS.items()}


def decode_request(line: str | bytes) -> Request:
    """Parse one request line strictly; raises :class:`ProtocolError` naming the field."""
    data = _load_line(line)
    try:
        return _request(data)
    except _Bad as bad:
        raise ProtocolError(bad.reason, field=bad.field, line=line, message_id=_message_id(data),
                            rule=bad.rule) from None


def _request(data: dict[str, Any]) -> Request:
    if "id" not in data:
        _fail("id", "is missing")
    ident = _int(data["id"], "id")
    cmd = data.get("cmd")
    if not isinstance(cmd, str) or cmd not in _REQUEST_FIELDS:
        _fail("cmd", f"must be one of {', '.join(COMMANDS)}, not {_show(cmd)}")
    _object(data, None, _REQUEST_KEYS[cmd])
    if cmd == "hello":
        return HelloRequest(ident)
    if cmd == "start":
        return StartRequest(ident, rules_from_json(data["rules"]), _cards(data["deck"], "deck"),
                            _int(data["seed"], "seed", -MAX_ID))
    if cmd == "load":
        return LoadRequest(ident, _state(data["state"], "state"))
    if cmd == "legal":
        return LegalRequest(ident)
    if cmd == "apply":
        return ApplyRequest(ident, action_from_wire(data["action"]))
    if cmd == "state":
        return StateRequest(ident)
    return QuitRequest(ident)


def encode_reply(reply: Reply) -> str:
    """One response as a JSON line (without the final newline)."""
    if isinstance(reply, LegalReply):
        actions = ",".join([_action_text(a) for a in reply.actions])
        return f'{{"id":{int(reply.id)},"ok":true,"actions":[{actions}]}}'
    if isinstance(reply, ReportReply):
        return f'{{"id":{int(reply.id)},"ok":true,"report":{_report_text(reply.report)}}}'
    if isinstance(reply, VerdictReply):
        verdict = reply.verdict
        if isinstance(verdict, Rejected):
            return _dumps({"id": reply.id, "ok": True, "accepted": False,
                           "reason": verdict.reason, "rule": verdict.rule})
        return f'{{"id":{int(reply.id)},"ok":true,"accepted":true}}'
    if isinstance(reply, ErrorReply):
        data: dict[str, object] = {"id": reply.id, "ok": False, "error": reply.error}
        if reply.rule is not None:
            data["rule"] = reply.rule
        return _dumps(data)
    if isinstance(reply, HelloReply):
        return _dumps({"id": reply.id, "ok": True, **_capabilities_json(reply.capabilities)})
    return f'{{"id":{int(reply.id)},"ok":true}}'


def decode_reply(line: str | bytes, cmd: Command) -> Reply:
    """Parse the response to a ``cmd`` request strictly.

    The result is the command's reply type (:data:`REPLY_TYPES`) or an :class:`ErrorReply`;
    whether its id is the request's is the caller's check.
    """
    if cmd not in REPLY_TYPES:
        raise ValueError(f"unknown command {cmd!r}; commands are {', '.join(COMMANDS)}")
    data = _load_line(line)
    try:
        return _reply(data, cmd)
    except _Bad as bad:
        raise ProtocolError(bad.reason, field=bad.field, line=line, message_id=_message_id(data),
                            rule=bad.rule) from None


def _reply(data: dict[str, Any], cmd: Command) -> Reply:
    if "id" not in data:
        _fail("id", "is missing")
    if "ok" not in data:
        _fail("ok", "is missing")
    ok = _bool(data["ok"], "ok")
    if not ok:
        _object(data, None, ("id", "ok", "error"), ("rule",))
        ident = data["id"]
        return ErrorReply(None if ident is None else _int(ident, "id"),
                          _str(data["error"], "error"), _rule_id(data.get("rule"), "rule"))
    ident = _int(data["id"], "id")
    if cmd == "hello":
        _object(data, None, ("id", "ok", "protocol", "name", "version", "profiles", "players",
                             "capabilities"), ("axes",))
        return HelloReply(ident, _capabilities(data))
    if cmd in ("start", "load", "state"):
        _object(data, None, ("id", "ok", "report"))
        return ReportReply(ident, report_from_json(data["report"]))
    if cmd == "legal":
        _object(data, None, ("id", "ok", "actions"))
        return LegalReply(ident, _actions(data["actions"], "actions"))
    if cmd == "apply":
        if "accepted" not in data:
            _fail("accepted", "is missing")
        if _bool(data["accepted"], "accepted"):
            _object(data, None, ("id", "ok", "accepted"))
            return VerdictReply(ident, Accepted())
        _object(data, None, ("id", "ok", "accepted", "reason", "rule"))
        return VerdictReply(ident, Rejected(_str(data["reason"], "reason", empty=False),
                                            _rule_id(data["rule"], "rule")))
    _object(data, None, ("id", "ok"))
    return OkReply(ident)
