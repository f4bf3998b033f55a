"""Reading and writing JSON, one way for every format of the package (layer 1).

Saved games and positions, lockstep records, perft files, the rule index and the wire's
faulty lines are read by :func:`read_json` and written by :func:`write_json`. What is
accepted is I-JSON (RFC 7493), with limits: at most ``max_bytes`` of input (checked before
parsing; :func:`read_file` reads a file no further); UTF-8 only (UTF-16, UTF-32 and a
byte-order mark are refused and named); nesting no deeper than ``max_depth``; no key twice
in one object, no ``NaN``, ``Infinity`` or number beyond a double, no whole number of more
than :data:`MAX_DIGITS` digits, no lone surrogate (``"\\ud800"``) in a string. All of it
is linear in the text: the standard library's C scanner (also in the website's Pyodide)
reads it once with a hook per object that refuses a key given twice, then the nesting is
measured on the value read, breadth first.

Every refusal is a :class:`JsonError` (an :class:`~durak_spec.core.errors.InputError`)
with a ``code`` per kind (``"json-syntax"``, ``"json-too-deep"``, ...), the ``path`` of the
offending value where there is one, and a ``reason``; a format turns it into its own error
(``SavedGameError``, ``ProtocolError``, ...), keeping the path. The ``expect_*`` functions
read typed values with a :data:`Path`, built lazily as nested pairs (``(("history", 17),
"cards")``) and written out (``history[17].cards``) only when a value is wrong.
:func:`write_json` writes compact (or indented) JSON that keeps the suit symbols and can
always be written as UTF-8 (a lone surrogate is escaped).
"""

from __future__ import annotations

import codecs
import json
import math
import os
import stat
import sys
from collections.abc import Callable, Iterator
from itertools import accumulate
from types import MappingProxyType
from typing import Any, Final, NoReturn, TypeAlias

from durak_spec.core.errors import InputError

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "JsonError",
    "Path",
    "expect_bool",
    "expect_int",
    "expect_list",
    "expect_object",
    "expect_str",
    "fail",
    "members",
    "path_text",
    "read_file",
    "read_json",
    "show",
    "write_json",
]

MAX_DEPTH: Final = 64
"""The deepest nesting of arrays and objects read by default (the formats need about 5)."""

MAX_DIGITS: Final = 4300
"""The most digits of a whole number read: Python's own default limit (the formats' numbers
need at most 20; each format then checks its numbers' range)."""

DEFAULT_MAX_BYTES: Final = 8 * 1024 * 1024
"""The largest document :func:`read_json` reads unless told otherwise."""

Path: TypeAlias = "str | int | tuple[Path, str | int] | None"
"""Where a value sits in a document, built lazily: ``None`` is the document itself, a
key or index alone is a top-level member, and ``(parent, key)`` a member of ``parent``.
:func:`path_text` writes ``(("history", 17), "cards")`` as ``history[17].cards``."""


class JsonError(InputError):
    """A document that is not the JSON this package reads, or a value of the wrong shape.

    ``path`` is where in the document (``"history[17].cards[2]"``, empty for the document
    as a whole), ``reason`` what is wrong there; ``str(error)`` is ``"path: reason"``.
    """

    code = "json"

    def __init__(self, reason: str, *, path: str = "", code: str | None = None) -> None:
        super().__init__(f"{path}: {reason}" if path else reason, code=code)
        self.path = path
        self.reason = reason

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.reason, self.path, self.code))


def _rebuild(cls: type[JsonError], reason: str, path: str, code: str) -> JsonError:
    return cls(reason, path=path, code=code)


def path_text(path: Path) -> str:
    """A path as text: ``history[17].cards[2]`` (empty for the document itself)."""
    keys: list[str | int] = []
    node = path
    while isinstance(node, tuple):
        node, key = node
        keys.append(key)
    if node is not None:
        keys.append(node)
    out = ""
    for key in reversed(keys):
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out = f"{out}.{key}" if out else key
    return out


def fail(path: Path, reason: str, code: str | None = None) -> NoReturn:
    """Raise :class:`JsonError` for the value at ``path``."""
    raise JsonError(reason, path=path_text(path), code=code)


# -- reading -------------------------------------------------------------------------------


# The parser's hooks raise a JsonError with the reason alone; read_json names the document.


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonError(f"the key {show(key)} appears twice in one object",
                                code="json-duplicate-key")
            seen.add(key)
    return data


def _constant(name: str) -> NoReturn:
    raise JsonError(f"{name} is not a JSON number", code="json-number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"the number {show(text)} is too large for a double",
                        code="json-number")
    return value


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS and len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonError(_TOO_MANY_DIGITS, code="json-number")
    return int(text)


_TOO_MANY_DIGITS: Final = (f"a whole number has more than {MAX_DIGITS} digits; no number "
                           "of these formats is that long")

_Scan: TypeAlias = Callable[[str, int], tuple[Any, int]]
_SCAN: _Scan = json.JSONDecoder(  # type: ignore[attr-defined]
    object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float).scan_once
"""Python's own int reads the whole numbers: it refuses more than 4300 digits (and the
message says so) before converting; only an interpreter whose limit was raised or turned
off pays for :data:`_CHECKED_SCAN`'s length check of every number."""
_CHECKED_SCAN: _Scan = json.JSONDecoder(  # type: ignore[attr-defined]
    object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float,
    parse_int=_int).scan_once
_WHITESPACE: Final = " \t\n\r"
_MARKED: Final = frozenset((b"\xef", b"\xfe", b"\xff", b"\0"))
_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF8, "UTF-8 with a byte-order mark"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _decode_utf8(data: bytes, what: str) -> str:
    if data[:1] in _MARKED or data[1:2] == b"\0":  # a byte-order mark, or UTF-16/32 without
        for bom, name in _BOMS:
            if data.startswith(bom):
                raise JsonError(f"{what} is {name}; write it as UTF-8 (without a byte-order "
                                "mark)", code="json-encoding")
        head = data[:4]
        if 0 in head:  # JSON starts with an ASCII character; zero bytes beside it: UTF-16/32
            name = "UTF-32" if head.count(0) >= 3 else "UTF-16"
            raise JsonError(f"{what} is {name}; write it as UTF-8", code="json-encoding")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonError(f"{what} is not UTF-8 text ({error.reason} at byte {error.start})",
                        code="json-encoding") from None


def _deeper_than(value: Any, max_depth: int) -> bool:
    """Whether the arrays and objects of ``value`` nest deeper than ``max_depth``: one
    level at a time, each array and object visited once."""
    level = [value] if type(value) is list or type(value) is dict else []
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return True
        inner = []
        for item in level:
            for member in (item.values() if type(item) is dict else item):
                if type(member) is list or type(member) is dict:
                    inner.append(member)
        level = inner
    return False


def _text_deeper_than(text: str, max_depth: int) -> bool:
    """Whether the brackets of a text that is not JSON nest deeper than ``max_depth``,
    strings left out, in linear time: each escape pair is dropped (``\\\\`` first, then
    ``\\"``), the strings are then every other piece between quotes, and of the rest only
    the bracket bytes are kept (no byte of a longer UTF-8 character is ASCII)."""
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    brackets = outside.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > max_depth


_NOT_BRACKETS: Final = bytes(sorted(set(range(256)) - set(b"[]{}")))
_DEPTH_STEP: Final = MappingProxyType({ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1})


def _where(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    column = position - text.rfind("\n", 0, position)
    return f"line {line}, column {column}"


def read_json(data: str | bytes | bytearray, *, what: str = "the document",
              max_bytes: int = DEFAULT_MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The value of the JSON text ``data``, read strictly (see the module docstring).

    ``what`` names the document in messages (``"a saved game"``). Raises
    :class:`JsonError` for anything that is not I-JSON within the limits.
    """
    if isinstance(data, bytes | bytearray):
        if len(data) > max_bytes:
            raise JsonError(f"{what} is {len(data)} bytes long; at most {max_bytes} are read",
                            code="json-too-large")
        text = _decode_utf8(bytes(data), what)
    elif isinstance(data, str):
        if len(data) > max_bytes:
            raise JsonError(f"{what} is {len(data)} characters long; at most {max_bytes} "
                            "bytes are read", code="json-too-large")
        text = data
    else:
        raise JsonError(f"{what} must be JSON text, not {type(data).__name__}",
                        code="json-syntax")
    start = 0 if text[:1] not in _WHITESPACE else len(text) - len(text.lstrip(_WHITESPACE))
    limited = len(text) <= MAX_DIGITS or 0 < sys.get_int_max_str_digits() <= MAX_DIGITS
    try:
        value, end = _scan_strictly(text, start, what, _SCAN if limited else _CHECKED_SCAN,
                                    max_depth)
    except JsonError as error:  # a text too deep is named so, whatever else is wrong
        if error.code != "json-too-deep" and text.count("[") + text.count("{") > max_depth \
                and _text_deeper_than(text, max_depth):
            raise _too_deep(what, max_depth) from None
        raise
    if text.count("[") + text.count("{") > max_depth and _deeper_than(value, max_depth):
        raise _too_deep(what, max_depth)
    return _finish(text, data, value, end, what)


def _too_deep(what: str, max_depth: int) -> JsonError:
    return JsonError(f"{what} nests arrays and objects more than {max_depth} levels deep",
                     code="json-too-deep")


def _scan_strictly(text: str, start: int, what: str, scan: _Scan, max_depth: int
                   ) -> tuple[Any, int]:
    """The value read by ``scan`` (a scanner that checks every object) from ``start``, and
    where it ends; or the :class:`JsonError` of the first thing wrong in the text."""
    try:
        return scan(text, start)
    except StopIteration as stop:
        position = stop.value
        found = text[position:position + 10].rstrip(_WHITESPACE)
        found = show(found) if found else "nothing"
        raise JsonError(f"{what} is not JSON: expected a value at {_where(text, position)}, "
                        f"found {found}", code="json-syntax") from None
    except json.JSONDecodeError as error:
        message = error.msg.removesuffix(" at")  # "Unterminated string starting at"
        raise JsonError(f"{what} is not JSON: {message} at {_where(text, error.pos)}",
                        code="json-syntax") from None
    except JsonError as refusal:
        raise JsonError(f"{what} is not I-JSON: {refusal.reason}", code=refusal.code) from None
    except ValueError:  # Python's int refuses a number of more than its limit of digits
        raise JsonError(f"{what} is not I-JSON: {_TOO_MANY_DIGITS}", code="json-number") \
            from None
    except RecursionError:  # deeper than the interpreter's limit: refused where it is met
        raise _too_deep(what, max_depth) from None


def _finish(text: str, data: str | bytes | bytearray, value: Any, end: int, what: str) -> Any:
    """``value``, read from ``text`` up to ``end``, once nothing but white space follows
    and no string holds a lone surrogate."""
    if end != len(text) and text[end:].strip(_WHITESPACE):
        raise JsonError(f"{what} is not JSON: more text after the value at "
                        f"{_where(text, end)}", code="json-syntax")
    if ("\\u" in text and ("\\ud" in text or "\\uD" in text)) or (
            text is data and not text.isascii() and _raw_surrogate(text)):
        _no_surrogates(value)  # escaped, or (in a str) a raw surrogate: find its path
    return value


def _raw_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _no_surrogates(value: Any) -> None:
    """Refuse the first string (or key) that holds a lone surrogate."""
    stack: list[tuple[Any, Path]] = [(value, None)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _raw_surrogate(item):
                _lone_surrogate(path)
        elif isinstance(item, dict):
            for key, member in item.items():
                if not key.isascii() and _raw_surrogate(key):
                    _lone_surrogate(path, "a key of the object")
                stack.append((member, (path, key)))
        elif isinstance(item, list):
            stack.extend((member, (path, i)) for i, member in enumerate(item))


def _lone_surrogate(path: Path, what: str = "the string") -> NoReturn:
    fail(path, f"{what} holds a lone surrogate escape (\\ud800 to \\udfff without its pair), "
         "which is no character", "json-surrogate")


def read_file(path: str | os.PathLike[str], *, what: str = "the file",
              max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most ``max_bytes`` of them.

    The file is opened without blocking and checked before it is read: a directory, a
    device (``/dev/zero``), a pipe with no writer or a socket is refused, and so is a file
    larger than ``max_bytes`` (a sparse 1 GB file costs nothing). Raises :class:`JsonError`
    with code ``"file"`` (cannot be read) or ``"json-too-large"``.
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as error:
        raise JsonError(f"cannot read {name}: {error.strerror or error}",
                        code="file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((kind for test, kind in _FILE_KINDS if test(info.st_mode)),
                        "a special file")
            raise JsonError(f"{name} is {kind}, not a file", code="file")
        if info.st_size > max_bytes:
            raise JsonError(f"{what} {name} is {info.st_size} bytes long; at most {max_bytes} "
                            "are read", code="json-too-large")
        with open(fd, "rb", closefd=False) as file:
            data = file.read(max_bytes + 1)
        if len(data) > max_bytes:  # the file grew while it was read
            raise JsonError(f"{what} {name} is longer than {max_bytes} bytes",
                            code="json-too-large")
        return data
    except OSError as error:
        raise JsonError(f"cannot read {name}: {error.strerror or error}",
                        code="file") from None
    finally:
        os.close(fd)


_FILE_KINDS: Final = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe"),
                      (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                      (stat.S_ISSOCK, "a socket"))


# -- writing -------------------------------------------------------------------------------

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_COMPACT_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def write_json(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON text that can always be written as UTF-8.

    Compact without ``indent``; cards keep their suit symbols. A string holding a lone
    surrogate is written as its ``\\ud800`` escape, so that a message quoting bad input
    can always be sent. ``NaN`` and infinities raise ``ValueError`` (they are not JSON).
    """
    if indent is None:
        text = _COMPACT.encode(value)
    else:
        text = json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        if indent is None:
            return _COMPACT_ASCII.encode(value)
        return json.dumps(value, ensure_ascii=True, indent=indent, allow_nan=False)
    return text


# -- typed values --------------------------------------------------------------------------

_KINDS: Final = MappingProxyType({
    type(None): "null", bool: "a boolean", int: "a number", float: "a number",
    str: "a string", list: "an array", dict: "an object",
})


def show(value: object, limit: int = 60) -> str:
    """A JSON value for a message, cut to about ``limit`` characters."""
    if isinstance(value, list | dict) and len(value) > limit:
        return f"{_KINDS[type(value)]} of {len(value)} items"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > limit:
        return f"{text[:limit]}… ({len(text) - limit} more characters)"
    return text


def expect_object(value: object, path: Path, required: tuple[str, ...],
                  optional: tuple[str, ...] = (), *, noun: str = "object") -> dict[str, Any]:
    """An object with the ``required`` keys and no keys but those and ``optional``.

    ``noun`` names the object in the message about a key it should not have.
    """
    if not isinstance(value, dict):
        fail(path, f"must be a JSON object, not {show(value)}")
    if len(value) == len(required) and value.keys() == set(required):
        return value
    for key in required:
        if key not in value:
            fail((path, key), "is missing")
    for key in value:
        if key not in required and key not in optional:
            fields = ", ".join((*required, *optional))
            fail((path, key), f"is not a field of this {noun} (its fields are {fields})")
    return value


def expect_int(value: object, path: Path, low: int = 0, high: int = 2**53 - 1) -> int:
    """A whole number from ``low`` to ``high`` (``3.0`` is ``3``: JSON has one number)."""
    if type(value) is int and low <= value <= high:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        fail(path, f"must be a whole number, not {show(value)}")
    if not low <= value <= high:
        fail(path, f"must be from {low} to {high}, not {show(value)}")
    return value


def expect_bool(value: object, path: Path) -> bool:
    if not isinstance(value, bool):
        fail(path, f"must be true or false, not {show(value)}")
    return value


def expect_str(value: object, path: Path, *, empty: bool = True) -> str:
    if not isinstance(value, str):
        fail(path, f"must be a string, not {show(value)}")
    if not empty and not value.strip():
        fail(path, "must not be empty")
    return value


def expect_list(value: object, path: Path) -> list[Any]:
    if not isinstance(value, list):
        fail(path, f"must be a JSON array, not {show(value)}")
    return value


def members(value: list[Any], path: Path) -> Iterator[tuple[Any, Path]]:
    """The items of an array with their paths (built only if one is wrong)."""
    for index, item in enumerate(value):
        yield item, (path, index)
