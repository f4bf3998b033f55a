"""Every reader of the package decodes any line in linear time and bounded memory (issue 21).

Hostile shapes - more than 64 brackets before an unterminated string of ``\\"`` (which made
the old depth check quadratic: 34 s for a 64 KB line), deep nesting, long strings, many
objects, many keys - are fed at growing sizes (8 KB, 64 KB, 512 KB) to each reader: the
server's line handler, the client's reader of engine answers, saved games, positions (a
``load`` request and a saved game's position), lockstep records (``check --replay``),
perft files (``perft --list``) and the rule index. Each must refuse them, and the time must
not grow faster than the size: the CPU time of the larger size is compared with the smaller
one's (a ratio, with generous slack, and a floor so that timer noise on small times cannot
fail it). The memory a read takes at its peak is bounded by a multiple of the line, and a
server keeps nothing of the lines it refused.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from durak_spec.conformance.lockstep import Record, RecordError
from durak_spec.conformance.perft import PerftFileError, load_positions
from durak_spec.core.ruleindex import RuleIndexError, parse_rule_index
from durak_spec.game import persist
from durak_spec.game.persist import SavedGameError
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol.serve import Server
from durak_spec.protocol.wire import ProtocolError, decode_reply

SIZES = (8 * 1024, 64 * 1024, 512 * 1024)
SLACK = 4.0
"""How much more than linear growth is tolerated (a quadratic reader grows 8 times more
per step of these sizes, and the old depth check far more)."""
FLOOR = 0.002
"""Times below this many seconds of CPU count as this much (timer noise, start-up)."""


def _deep_string(size: int) -> str:
    """More than 64 brackets, then an unterminated string of escaped quotes."""
    return "[" * 100 + '"' + '\\"' * ((size - 101) // 2)


def _deep_string_in_a_message(size: int) -> str:
    return '{"id":1,"cmd":"legal","x":' + _deep_string(size)


def _deep(size: int) -> str:
    return "[" * size


def _backslashes(size: int) -> str:
    return '{"id":1,"ok":true,"actions":["' + "\\\\" * (size // 2)


def _long_card(size: int) -> str:
    return ('{"id":1,"cmd":"apply","action":{"player":0,"type":"throw","card":"'
            + "x" * size + '"}}')


def _many_objects(size: int) -> str:
    return '{"id":1,"ok":true,"actions":[' + ",".join(["{}"] * (size // 3)) + "]}"


def _many_keys(size: int) -> str:
    return "{" + ",".join(f'"k{i}":{i}' for i in range(size // 12)) + "}"


def _repeated_key(size: int) -> str:
    return "{" + ",".join(['"id":1'] * (size // 7)) + "}"


SHAPES: dict[str, Callable[[int], str]] = {
    "deep-string": _deep_string, "deep-string-in-a-message": _deep_string_in_a_message,
    "deep": _deep, "backslashes": _backslashes, "long-card": _long_card,
    "many-objects": _many_objects, "many-keys": _many_keys, "repeated-key": _repeated_key,
}


def _server(line: str) -> None:
    reply = Server(ReferenceEngine()).handle(line)
    assert reply is not None and '"ok":false' in reply


def _answer(line: str) -> None:
    with pytest.raises(ProtocolError):
        decode_reply(line.encode("utf-8"), "legal")


def _saved_game(line: str) -> None:
    with pytest.raises(SavedGameError):
        persist.loads(line)


def _position(line: str) -> None:
    """A ``load`` request's position (read by the saved-position reader)."""
    reply = Server(ReferenceEngine()).handle('{"id":1,"cmd":"load","state":' + line + "}")
    assert reply is not None and '"ok":false' in reply


def _replay(line: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(line)


def _rule_index(line: str) -> None:
    with pytest.raises(RuleIndexError):
        parse_rule_index(line)


READERS: dict[str, Callable[[str], None]] = {
    "server": _server, "engine-answer": _answer, "saved-game": _saved_game,
    "position": _position, "replay": _replay, "rule-index": _rule_index,
}


def _cpu_time(read: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        read()
        best = min(best, time.process_time() - start)
    return max(best, FLOOR)


def _assert_linear(read: Callable[[int], None]) -> None:
    """``read(size)`` at each size: time grows at most linearly (with slack), and the
    peak of memory stays within a multiple of the size."""
    previous: tuple[int, float] | None = None
    for size in SIZES:
        seconds = _cpu_time(lambda size=size: read(size))  # type: ignore[misc]
        if previous is not None:
            smaller, before = previous
            allowed = before * (size / smaller) * SLACK
            assert seconds <= allowed, (
                f"{size} bytes took {seconds:.4f} s of CPU, {smaller} bytes {before:.4f} s: "
                f"more than linear growth allows ({allowed:.4f} s)")
        previous = (size, seconds)
    tracemalloc.start()
    try:
        read(SIZES[-1])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 40 * SIZES[-1] + (4 << 20), f"a {SIZES[-1]}-byte line took {peak} bytes"


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_each_shape_in_linear_time(reader: str, shape: str) -> None:
    make, read = SHAPES[shape], READERS[reader]
    lines = {size: make(size) for size in SIZES}
    _assert_linear(lambda size: read(lines[size]))


@pytest.mark.parametrize("shape", SHAPES)
def test_perft_files_are_refused_in_linear_time(shape: str, tmp_path: Path) -> None:
    make = SHAPES[shape]
    for size in SIZES:
        (tmp_path / f"{size}.json").write_text(make(size), encoding="utf-8")

    def read(size: int) -> None:
        with pytest.raises(PerftFileError):
            load_positions([tmp_path / f"{size}.json"])

    _assert_linear(read)


def test_the_server_keeps_nothing_of_the_lines_it_refused() -> None:
    """Lines of 1 MB that decode (an apply padded with spaces, each different) and are
    refused (no game yet): a server that remembered decoded lines grew by each."""
    server = Server(ReferenceEngine())
    lines = [f'{{"id":{n},"cmd":"apply","action":{{"player":0,"type":"take"}}'
             + " " * (999_000 + n) + "}" for n in range(30)]
    server.handle(lines[0])
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for line in lines[1:]:
            reply = server.handle(line)
            assert reply is not None and "no game yet" in reply
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < 1 << 20, f"the server kept {after - before} bytes of 29 MB read"
