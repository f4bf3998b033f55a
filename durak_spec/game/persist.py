"""Saving and loading games and positions as versioned JSON (layer 4).

A saved game is resumed exactly: it holds the rule set, the position after the deal, the
whole history and (as a check) the position the history leads to. Loading trusts
nothing: only a regular file of at most :data:`MAX_BYTES` is read, as UTF-8 I-JSON
(:func:`durak_spec.core.jsonio.read_json`), every key, type and card is checked, every
position must be one play can reach (:func:`~durak_spec.engine.check_reachable`, the
strict check), the history is replayed action by action and must lead to the stored
position. Whatever is wrong is reported as a :class:`SavedGameError` that names the
place in the document (``initial.hands[1][2]``, ``history[17]``) and, when a rule of the
game is broken, the rule (``.rule``).

The game document (``"format": "durak-spec/game"``, version 2)
-----------------------------------------------------------------

A JSON object with exactly these keys::

    {
      "format": "durak-spec/game",
      "version": 2,                        // version 1 is read too (see VERSION)
      "rules":   {"players": 3, "transfer": false, ..., "trump_exchange": false},
      "seed":    12345,                    // the deal's seed, or null when unknown
      "deck":    ["9♠", "K♥", ...],        // 36 cards in dealing order, or null
      "initial": { position },             // the state after the deal
      "history": [ action, ... ],          // every action, in the order played
      "state":   { position }              // where the history leads (checked)
    }

``rules`` names every axis of :class:`~durak_spec.model.rules.RuleSet` with its JSON value
(``RuleSet.to_dict``); a missing axis is an error, so a saved game always says under which
rules it was played (a new axis means a new version of this format). When ``deck`` or
``seed`` is given, loading deals again and checks that the deal gives ``initial`` (with
a null seed, the deal decides the cards but the first attacker is checked only by the
rules, since chance may have chosen it, ORDER-2). When both are null (a game replayed
from a position), ``initial`` is any position play can reach.

An action is the object of :meth:`Action.to_json <durak_spec.model.actions.Action.to_json>`:
``{"player": 1, "type": "cover", "attack": "7♣", "card": "9♣"}``; the types are
``open`` (``"cards": [...]``), ``throw``, ``cover``, ``transfer``, ``show``
(``"card"``), ``take``, ``done`` and ``exchange``.

A position
----------

A position is an object with one key per field of :class:`~durak_spec.model.state.GameState`
except ``rules`` (the game's rules apply)::

    {
      "hands":  [["6♣", "9♦"], ...],   // one list per seat, canonical order
      "stock":  ["A♠", ..., "7♥"],     // drawing order; the last is the face-up trump
      "trump":  "♥",
      "table":  [["7♣", "9♣"], ["8♦", null]],  // attack card and its cover (or null)
      "discard": ["6♠", ...],
      "attacker": 0, "defender": 1, "opener": 0,
      "bout": 0,                        // bouts ended so far
      "taking": false,
      "passed": [2],                    // seats that said done (CLAR-3)
      "joined": [0, 2],                 // seats in the order they joined the attack
      "start_hands": [6, 6, 6],         // hand sizes when the bout began
      "shown": ["8♥"],                  // trumps shown to transfer this bout
      "known": [[], ["K♣"], []],        // per seat: cards in hand that all players know
      "finished": [[2], [0, 1]],        // seats out, grouped by the bout end they left at
      "thrower": null                   // last-thrower protocol: who played the last card
    }

Cards are written in the project's notation (``"10♥"``; ``"10H"`` and the other spellings
of :func:`~durak_spec.core.cards.parse_card` are read too). Hands, discard, known and shown
cards may be listed in any order and are stored in canonical order; the order of the
stock and the table matters.

A single position is saved with :func:`state_to_json` as its own document:
``{"format": "durak-spec/state", "version": 2, "rules": {...}, <the position's keys>}``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final, TypeVar

from durak_spec.core.cards import DECK, Card, CardError, Suit, parse_card
from durak_spec.core.errors import DurakError, InvalidState, NotationError
from durak_spec.core.jsonio import JsonError, read_file, read_json, write_json
from durak_spec.engine import check_reachable, deal, new_game
from durak_spec.game.history import Game, Match, ReplayError
from durak_spec.model.actions import Action, action_from_json
from durak_spec.model.rules import (
    AXES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DoneInTake,
    Goal,
    LaterGameLead,
    RuleSet,
    RuleSetError,
    TransferDraw,
    TransferTarget,
    TurnOrder,
)
from durak_spec.model.state import GameState, Pair, sort_cards

__all__ = [
    "FORMAT",
    "MATCH_FORMAT",
    "MAX_BYTES",
    "POSITION_KEYS",
    "STATE_FORMAT",
    "VERSION",
    "SavedGameError",
    "dumps",
    "game_from_json",
    "game_to_json",
    "load",
    "load_match",
    "loads",
    "match_from_json",
    "match_to_json",
    "save",
    "save_match",
    "state_from_json",
    "state_to_json",
]

FORMAT: Final = "durak-spec/game"
"""The ``format`` of a saved game document."""

STATE_FORMAT: Final = "durak-spec/state"
"""The ``format`` of a saved position document."""

VERSION: Final = 3
"""The version of the document formats that this module writes.

Version 2 added three axes to ``rules`` (``turn_order``, ``goal``, ``later_game_lead``)
and the key ``thrower`` to a position; version 3 added three more
(``draw_after_transfer``, ``done_in_take``, ``transfer_target``). An older document is
still read: it is taken as version 3 with the values every game of its version was
played under (:data:`VERSION_1_DEFAULTS`, :data:`VERSION_2_DEFAULTS`, and no thrower in
version 1). Its history is replayed by today's rules, so the rare version 1 game whose
transfers the reading of LIMIT-2 now limits differently is refused with that rule."""

READ_VERSIONS: Final = (1, 2, VERSION)
"""The versions this module reads."""

VERSION_1_DEFAULTS: Final = MappingProxyType({
    "turn_order": TurnOrder.FREE.value,
    "goal": Goal.LAST_HOLDER_LOSES.value,
    "later_game_lead": LaterGameLead.LOWEST_TRUMP.value,
})
"""The axes a version 1 rule set lacks beside those of :data:`VERSION_2_DEFAULTS`, with
the values its games were played under."""

VERSION_2_DEFAULTS: Final = MappingProxyType({
    "draw_after_transfer": TransferDraw.OPENER.value,
    "done_in_take": DoneInTake.FINAL.value,
    "transfer_target": TransferTarget.NEXT_IN_GAME.value,
})
"""The axes a version 1 or 2 rule set lacks, with the values its games were played
under (issue 24: the readings of real engines became switches)."""

_GAME_KEYS: Final = ("format", "version", "rules", "seed", "deck", "initial", "history", "state")
POSITION_KEYS: Final = tuple(f for f in GameState._fields if f != "rules")
"""The keys of a position, in the order they are written."""
_POSITION_KEYS: Final = POSITION_KEYS
_STATE_KEYS: Final = ("format", "version", "rules", *_POSITION_KEYS)

T = TypeVar("T")


class SavedGameError(DurakError):
    """A saved game or position that cannot be loaded.

    ``path`` names the place in the document (``"initial.table[0][1]"``, ``"history[3]"``;
    empty for the document as a whole), ``reason`` what is wrong there, and ``rule`` the
    rule ID when the document breaks a rule of the game (``None`` when it is only
    malformed). ``str(error)`` is ``"<path>: <reason> (<rule>)"``.
    """

    code = "saved-game"

    def __init__(self, path: str, reason: str, rule: str | None = None, *,
                 code: str | None = None) -> None:
        text = f"{path}: {reason}" if path else reason
        super().__init__(f"{text} ({rule})" if rule else text, rule=rule, code=code)
        self.path = path
        self.reason = reason

    def __reduce__(self) -> tuple[type[SavedGameError], tuple[str, str, str | None]]:
        return (type(self), (self.path, self.reason, self.rule))


# -- writing --------------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _position_to_json(state: GameState) -> dict[str, Any]:
    return {
        "hands": [_cards(hand) for hand in state.hands],
        "stock": _cards(state.stock),
        "trump": state.trump.symbol,
        "table": [[str(p.attack), None if p.cover is None else str(p.cover)]
                  for p in state.table],
        "discard": _cards(state.discard),
        "attacker": state.attacker,
        "defender": state.defender,
        "opener": state.opener,
        "bout": state.bout,
        "taking": state.taking,
        "passed": sorted(state.passed),
        "joined": list(state.joined),
        "start_hands": list(state.start_hands),
        "shown": _cards(sort_cards(list(state.shown))),
        "known": [_cards(sort_cards(list(k))) for k in state.known],
        "finished": [list(group) for group in state.finished],
        "thrower": state.thrower,
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """One position as a ``durak-spec/state`` document (a JSON-ready dict)."""
    return {"format": STATE_FORMAT, "version": VERSION, "rules": state.rules.to_dict(),
            **_position_to_json(state)}


def game_to_json(game: Game) -> dict[str, Any]:
    """A game as a ``durak-spec/game`` document (a JSON-ready dict)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "deck": None if game.deck is None else _cards(game.deck),
        "initial": _position_to_json(game.initial),
        "history": [action.to_json() for action in game.actions],
        "state": _position_to_json(game.state),
    }


def dumps(game: Game, *, indent: int | None = 1) -> str:
    """A game as JSON text (UTF-8 friendly: cards keep their suit symbols)."""
    return write_json(game_to_json(game), indent=indent)


def save(game: Game, path: str | os.PathLike[str]) -> None:
    """Write a game to ``path`` as UTF-8 JSON, replacing the file in one step.

    The text goes to a new file beside the target, which then takes the target's place,
    so a reader never sees half a game. A symbolic link is followed: the file it points
    to is replaced and the link stays. A directory, a device, a pipe or any other special
    file is refused and left alone, and a failed save leaves no temporary file behind.
    Raises :class:`SavedGameError` (code ``"file"``) when the game cannot be saved there.
    """
    _write(dumps(game), path)


def _write(text: str, path: str | os.PathLike[str]) -> None:
    """Write ``text`` and a newline to ``path`` in one step, as :func:`save` describes."""
    name = os.fspath(path)
    target = os.path.realpath(name)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise SavedGameError("", f"cannot save to {name}: {error.strerror or error}",
                             code="file") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "a special file"
        raise SavedGameError("", f"cannot save to {name}: it is {kind}, not a file; "
                             "give the name of a file", code="file")
    data = (text + "\n").encode("utf-8")
    folder, base = os.path.split(target)
    temporary = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if info is not None:
                os.chmod(temporary, stat.S_IMODE(info.st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise SavedGameError("", f"cannot save to {name}: {error.strerror or error}",
                             code="file") from None


# -- reading: JSON shapes -----------------------------------------------------------------


def _at(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {_cut(repr(value))}"
    if isinstance(value, str):
        return f"the string {_cut(repr(value))}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more)"


def _object(value: object, path: str, keys: tuple[str, ...], what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SavedGameError(path, f"{what} must be a JSON object, not {_kind(value)}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise SavedGameError(path, f"{what} lacks the key{'s' if len(missing) > 1 else ''} "
                             + ", ".join(repr(k) for k in missing))
    extra = [k for k in value if k not in keys]
    if extra:
        raise SavedGameError(path, f"{what} has the unknown key{'s' if len(extra) > 1 else ''} "
                             + ", ".join(_cut(repr(k)) for k in extra[:5])
                             + "; the keys are " + ", ".join(keys))
    return value


def _list(value: object, path: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise SavedGameError(path, f"{what} must be a JSON array, not {_kind(value)}")
    return value


def _items(value: object, path: str, what: str, item: Callable[[object, str], T]) -> list[T]:
    return [item(v, _at(path, i)) for i, v in enumerate(_list(value, path, what))]


def _count(value: object, path: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SavedGameError(path, f"{what} must be a whole number (0 or more), "
                             f"not {_kind(value)}")
    return value


def _bool(value: object, path: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise SavedGameError(path, f"{what} must be true or false, not {_kind(value)}")
    return value


def _card(value: object, path: str) -> Card:
    if not isinstance(value, str):
        raise SavedGameError(path, f"a card must be a string like '7♣', not {_kind(value)}")
    try:
        return parse_card(value)
    except CardError as error:
        raise SavedGameError(path, str(error)) from None


def _card_list(value: object, path: str, what: str) -> list[Card]:
    return _items(value, path, what, _card)


def _card_set(value: object, path: str, what: str) -> frozenset[Card]:
    cards = _card_list(value, path, what)
    _no_repeats(cards, path, what, lambda c: str(c))
    return frozenset(cards)


def _no_repeats(items: list[T], path: str, what: str, show: Callable[[T], str],
                rule: str | None = None) -> None:
    seen: set[T] = set()
    for index, item in enumerate(items):
        if item in seen:
            raise SavedGameError(_at(path, index), f"{show(item)} is listed twice in {what}",
                                 rule)
        seen.add(item)


def _check_header(data: object, keys: tuple[str, ...], expected: str, what: str
                  ) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise SavedGameError("", f"{what} must be a JSON object, not {_kind(data)}")
    fmt = data.get("format")
    if "format" not in data:
        raise SavedGameError("", f"{what} lacks the key 'format' (expected {expected!r})")
    if fmt != expected:
        hint = ""
        if fmt == STATE_FORMAT:
            hint = "; this is a saved position: read it with state_from_json"
        elif fmt == FORMAT:
            hint = "; this is a saved game: read it with game_from_json"
        raise SavedGameError("format", f"unknown format {_cut(repr(fmt))}: expected "
                             f"{expected!r}{hint}")
    if "version" not in data:
        raise SavedGameError("", f"{what} lacks the key 'version'")
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise SavedGameError("version", f"the version must be a whole number, "
                             f"not {_kind(version)}")
    if version not in READ_VERSIONS:
        raise SavedGameError("version", f"unknown version {_cut(str(version))} of {expected}: "
                             f"this durak-spec reads versions "
                             f"{', '.join(map(str, READ_VERSIONS))}")
    if version != VERSION:
        data = _upgrade(data, expected, version)
    return _object(data, "", keys, what)


def _upgrade(data: Mapping[str, Any], expected: str, version: int) -> Mapping[str, Any]:
    """A version 1 or 2 document as version 3: the axes added since and (from version 1)
    ``thrower`` filled in (only where missing; anything else is checked as strictly as
    in version 3)."""
    def position(value: object) -> object:  # a saved game's ``initial`` and ``state``
        if isinstance(value, Mapping) and "thrower" not in value:
            return {**value, "thrower": None}
        return value

    upgraded: dict[str, Any] = {**data, "version": VERSION}
    rules = data.get("rules")
    added = {**VERSION_2_DEFAULTS, **(VERSION_1_DEFAULTS if version == 1 else {})}
    if isinstance(rules, Mapping):
        upgraded["rules"] = {**{k: v for k, v in added.items() if k not in rules}, **rules}
    if version != 1:
        return upgraded
    if expected == STATE_FORMAT:
        upgraded.setdefault("thrower", None)
    elif expected == FORMAT:
        for key in ("initial", "state"):
            if key in upgraded:
                upgraded[key] = position(upgraded[key])
    return upgraded


# -- reading: the rule set ------------------------------------------------------------------


def _rules(value: object, path: str) -> RuleSet:
    names = tuple(axis.name for axis in AXES)
    data = _object(value, path, names, "the rule set")
    for axis in AXES:
        item = data[axis.name]
        where = _at(path, axis.name)
        if axis.enum is not None:
            choices = [str(m.value) for m in axis.enum]
            if item not in choices:
                raise SavedGameError(where, f"{_kind(item)} is not a value of {axis.name}; "
                                     f"choose one of {', '.join(choices)}")
        elif axis.kind is int:
            if isinstance(item, bool) or not isinstance(item, int):
                raise SavedGameError(where, f"{axis.name} must be a whole number, "
                                     f"not {_kind(item)}")
            if not MIN_PLAYERS <= item <= MAX_PLAYERS:
                raise SavedGameError(where, f"Durak is played by {MIN_PLAYERS} to "
                                     f"{MAX_PLAYERS} players, not {item}", "DEAL-3")
        elif not isinstance(item, bool):
            raise SavedGameError(where, f"{axis.name} must be true or false, not {_kind(item)}")
    try:
        return RuleSet.from_dict(data)
    except RuleSetError as error:
        raise SavedGameError(path, str(error)) from None


# -- reading: a position ----------------------------------------------------------------------


def _position(value: object, path: str, rules: RuleSet, what: str) -> GameState:
    data = _object(value, path, _POSITION_KEYS, what)
    n = rules.players

    def at(key: str) -> str:
        return _at(path, key)

    def seat(item: object, where: str) -> int:
        number = _count(item, where, "a seat")
        if number >= n:
            raise SavedGameError(where, f"P{number} is not a seat of a {n}-player game "
                                 f"(seats are 0 to {n - 1})")
        return number

    def seats(key: str, what: str) -> list[int]:
        return _items(data[key], at(key), what, seat)

    def per_seat(key: str, what: str) -> list[Any]:
        items = _list(data[key], at(key), what)
        if len(items) != n:
            raise SavedGameError(at(key), f"{what} must have one entry per seat: "
                                 f"{len(items)} entries for {n} players", "DEAL-3")
        return items

    hands = tuple(sort_cards(_card_list(hand, _at(at("hands"), i), "a hand"))
                  for i, hand in enumerate(per_seat("hands", "hands")))
    stock = tuple(_card_list(data["stock"], at("stock"), "the stock"))
    trump_text = data["trump"]
    if not isinstance(trump_text, str):
        raise SavedGameError(at("trump"), f"trump must be a suit like '♥', not "
                             f"{_kind(trump_text)}")
    try:
        trump = Suit.parse(trump_text)
    except CardError as error:
        raise SavedGameError(at("trump"), str(error)) from None
    table: list[Pair] = []
    for i, item in enumerate(_list(data["table"], at("table"), "the table")):
        where = _at(at("table"), i)
        pair = _list(item, where, "a table pair")
        if len(pair) != 2:
            raise SavedGameError(where, "a table pair is [attack card, cover card or null], "
                                 f"not {len(pair)} items")
        attack = _card(pair[0], _at(where, 0))
        cover = None if pair[1] is None else _card(pair[1], _at(where, 1))
        table.append(Pair(attack, cover))
    discard = sort_cards(_card_list(data["discard"], at("discard"), "the discard pile"))
    attacker = seat(data["attacker"], at("attacker"))
    defender = seat(data["defender"], at("defender"))
    opener = seat(data["opener"], at("opener"))
    bout = _count(data["bout"], at("bout"), "bout")
    taking = _bool(data["taking"], at("taking"), "taking")
    passed = seats("passed", "passed")
    _no_repeats(passed, at("passed"), "passed", lambda p: f"P{p}")
    joined = seats("joined", "joined")
    _no_repeats(joined, at("joined"), "joined", lambda p: f"P{p}")
    start_hands = tuple(_count(v, _at(at("start_hands"), i), "a hand size")
                        for i, v in enumerate(per_seat("start_hands", "start_hands")))
    shown = _card_set(data["shown"], at("shown"), "shown")
    known = tuple(_card_set(k, _at(at("known"), i), "known cards")
                  for i, k in enumerate(per_seat("known", "known")))
    finished: list[tuple[int, ...]] = []
    for i, group in enumerate(_list(data["finished"], at("finished"), "finished")):
        where = _at(at("finished"), i)
        members = _items(group, where, "a group of finished seats", seat)
        if not members:
            raise SavedGameError(where, "a group of finished seats is never empty", "END-1")
        finished.append(tuple(members))
    out = [p for group in finished for p in group]
    _no_repeats(out, at("finished"), "the finishing order", lambda p: f"P{p}", "END-1")
    thrower = None if data["thrower"] is None else seat(data["thrower"], at("thrower"))

    state = GameState(
        rules=rules, hands=hands, stock=stock, trump=trump, table=tuple(table),
        discard=discard, attacker=attacker, defender=defender, opener=opener, bout=bout,
        taking=taking, passed=frozenset(passed), joined=tuple(joined),
        start_hands=start_hands, shown=shown, known=known, finished=tuple(finished),
        thrower=thrower,
    )
    try:
        return check_reachable(state)  # the strict check: a position play can reach
    except InvalidState as error:
        raise SavedGameError(path, error.reason, error.rule) from None


def state_from_json(data: object) -> GameState:
    """The position of a ``durak-spec/state`` document, checked; see the module docstring."""
    document = _check_header(data, _STATE_KEYS, STATE_FORMAT, "a saved position")
    rules = _rules(document["rules"], "rules")
    body = {key: document[key] for key in _POSITION_KEYS}
    return _position(body, "", rules, "a saved position")


# -- reading: a game ---------------------------------------------------------------------------


def _action(value: object, path: str) -> Action:
    if not isinstance(value, Mapping):
        raise SavedGameError(path, f"an action must be a JSON object, not {_kind(value)}")
    try:
        action = action_from_json(value)
    except NotationError as error:
        raise SavedGameError(path, str(error)) from None
    expected = action.to_json()
    extra = [k for k in value if k not in expected]
    if extra:
        raise SavedGameError(path, f"a {expected['type']} action has no key "
                             + ", ".join(repr(k) for k in extra)
                             + "; its keys are " + ", ".join(expected))
    return action


def _deck(value: object, path: str) -> tuple[Card, ...] | None:
    if value is None:
        return None
    cards = _card_list(value, path, "the deck")
    _no_repeats(cards, path, "the deck", str, "DEAL-1")
    if len(cards) != len(DECK):
        missing = [c for c in DECK if c not in cards]
        raise SavedGameError(path, f"a deck holds 36 cards, not {len(cards)}"
                             + (f"; missing: {' '.join(map(str, missing))}" if missing else ""),
                             "DEAL-1")
    return tuple(cards)


def _seed(value: object, path: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SavedGameError(path, f"the seed must be a whole number or null, not {_kind(value)}")
    return value


def _differing(first: GameState, second: GameState) -> list[str]:
    return [name for name in GameState._fields if getattr(first, name) != getattr(second, name)]


def _check_deal(rules: RuleSet, seed: int | None, deck: tuple[Card, ...] | None,
                initial: GameState) -> None:
    if deck is None and seed is None:
        return  # a game replayed from a position (Game.replay): checked by the strict check
    order = deck if deck is not None else deal(rules, seed)
    dealt = new_game(rules, seed=seed, deck=order)
    if seed is None or rules.later_game_lead is not LaterGameLead.LOWEST_TRUMP:
        # chance (ORDER-2), or the last game of a match (ORDER-7, checked by
        # match_from_json), may have chosen the roles: only the rules check them
        dealt = dealt._replace(attacker=initial.attacker, defender=initial.defender,
                               opener=initial.opener)
    differing = _differing(dealt, initial)
    if differing:
        source = "the deck" if deck is not None else f"the seed {seed}"
        raise SavedGameError("initial", f"{source} does not deal this position; the fields "
                             f"that differ from the deal: {', '.join(differing)}", "CLAR-10")


def game_from_json(data: object) -> Game:
    """The game of a ``durak-spec/game`` document, checked; see the module docstring.

    Raises :class:`SavedGameError` naming the place and the problem: an unknown format or
    version, a missing or unknown key, a wrong type, a card that is not a card, a card in
    two places, an impossible position, a deal that does not give the initial position,
    an action that is illegal at its step, or a history that does not lead to the stored
    state.
    """
    document = _check_header(data, _GAME_KEYS, FORMAT, "a saved game")
    rules = _rules(document["rules"], "rules")
    seed = _seed(document["seed"], "seed")
    deck = _deck(document["deck"], "deck")
    initial = _position(document["initial"], "initial", rules, "the initial position")
    history = _items(document["history"], "history", "the history", _action)
    stored = _position(document["state"], "state", rules, "the current position")
    _check_deal(rules, seed, deck, initial)
    try:
        game = Game.replay(initial, history, seed=seed, deck=deck)
    except ReplayError as error:
        raise SavedGameError(f"history[{error.index}]", f"action {error.index} "
                             f"({error.action}) is illegal at its step: {error.reason}",
                             error.rule) from None
    differing = _differing(game.state, stored)
    if differing:
        raise SavedGameError("state", f"the {len(history)} actions of the history do not "
                             "lead to the stored position; the fields that differ: "
                             + ", ".join(differing))
    return game


MAX_BYTES: Final = 16 * 1024 * 1024
"""The largest saved game read, in bytes (a long game takes about 100 KB)."""


def _parse_json(text: str | bytes) -> object:
    if not isinstance(text, str | bytes | bytearray):
        raise SavedGameError("", f"a saved game is JSON text, not {type(text).__name__}")
    try:
        return read_json(text, what="a saved game", max_bytes=MAX_BYTES)
    except JsonError as error:
        raise SavedGameError(error.path, error.reason, code=error.code) from None


def loads(text: str | bytes) -> Game:
    """The game saved in JSON ``text``; raises :class:`SavedGameError` if it is not one."""
    return game_from_json(_parse_json(text))


def load(path: str | os.PathLike[str]) -> Game:
    """The game saved in the file at ``path``.

    Only a regular file of at most :data:`MAX_BYTES` is read (a directory, a device such
    as ``/dev/zero`` or a pipe is refused without reading); anything wrong, the file
    included, raises :class:`SavedGameError` (code ``"file"`` when it cannot be read).
    """
    try:
        data = read_file(path, what="the saved game", max_bytes=MAX_BYTES)
    except JsonError as error:
        raise SavedGameError("", error.reason, code=error.code) from None
    return loads(data)


# -- matches ----------------------------------------------------------------------------------

MATCH_FORMAT: Final = "durak-spec/match"
"""The ``format`` of a saved match: ``{"format", "version", "games": [saved games]}``."""

_MATCH_KEYS: Final = ("format", "version", "games")


def match_to_json(match: Match) -> dict[str, Any]:
    """A match as a ``durak-spec/match`` document: every game as a saved game, in order."""
    return {"format": MATCH_FORMAT, "version": VERSION,
            "games": [game_to_json(game) for game in match.games]}


def match_from_json(data: object) -> Match:
    """The match of a ``durak-spec/match`` document, checked: every game as
    :func:`game_from_json` checks it (its path prefixed ``games[i].``), one rule set,
    every game but the last over, and each later game led as ORDER-7 says."""
    document = _check_header(data, _MATCH_KEYS, MATCH_FORMAT, "a saved match")
    items = _list(document["games"], "games", "the games")
    if not items:
        raise SavedGameError("games", "a match holds at least one game")
    games = []
    for index, item in enumerate(items):
        try:
            games.append(game_from_json(item))
        except SavedGameError as error:
            raise SavedGameError(f"games[{index}]" + (f".{error.path}" if error.path else ""),
                                 error.reason, error.rule) from None
    try:
        match = Match(games[0].rules, tuple(games))
        match.check_leads()
    except DurakError as error:
        raise SavedGameError("games", error.message, error.rule) from None
    return match


def save_match(match: Match, path: str | os.PathLike[str]) -> None:
    """Write a match to ``path`` as UTF-8 JSON, in one step as :func:`save` does."""
    _write(write_json(match_to_json(match), indent=1), path)


def load_match(path: str | os.PathLike[str]) -> Match:
    """The match saved in the file at ``path``; raises :class:`SavedGameError`."""
    try:
        data = read_file(path, what="the saved match", max_bytes=MAX_BYTES)
    except JsonError as error:
        raise SavedGameError("", error.reason, code=error.code) from None
    return match_from_json(_parse_json(data))
