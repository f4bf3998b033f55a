"""Hostile input (issue 12): every reproduction of the report is a test here.

The server and the checker survive any line, the loader lets only SavedGameError out and
reads no more than it may, saving never replaces a special file, and the notation refuses
what is not notation. The bounded fuzz tests of the same classes are in test_fuzz.py.
"""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import pytest

from durak_spec.core.cards import CardError, parse_card
from durak_spec.core.errors import NotationError
from durak_spec.core.jsonio import JsonError, read_file, read_json, write_json
from durak_spec.game import persist
from durak_spec.game.history import Game
from durak_spec.game.persist import SavedGameError
from durak_spec.model import actions as actions_module
from durak_spec.model.actions import Open, action_from_json, parse_action
from durak_spec.model.rules import profile
from durak_spec.protocol import ReferenceEngine
from durak_spec.protocol import wire as wire_module
from durak_spec.protocol.serve import Server, serve
from durak_spec.protocol.wire import decode_request

GAME = Game.new(profile("classic-throw-in").rules(players=3), seed=4)


# -- 1. one line must not kill the server -----------------------------------------------------

SURROGATE_LINES = [
    '{"id":1,"cmd":"\\ud800"}',
    '{"id":"\\ud800","cmd":"hello"}',
    '{"id":1,"cmd":"apply","action":{"player":0,"type":"\\udfff"}}',
    '{"\\ud800":1,"id":1,"cmd":"hello"}',
    '{"id":1,"cmd":"start","rules":"\\ud800","deck":[],"seed":0}',
    '{"id":1,"cmd":"apply","action":"\\ud800"}',
]


@pytest.mark.parametrize("line", SURROGATE_LINES)
def test_a_lone_surrogate_gets_an_error_reply_that_can_be_written(line: str) -> None:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")  # strict, as stdout
    stdin = io.StringIO(line + "\n" + '{"id":2,"cmd":"hello"}\n')
    serve(ReferenceEngine(), stdin, out)
    out.flush()
    written = out.buffer.getvalue().decode()  # type: ignore[attr-defined]
    replies = [json.loads(text) for text in written.splitlines()]
    assert len(replies) == 2
    assert replies[0]["ok"] is False and "surrogate" in replies[0]["error"]
    assert replies[1]["ok"] is True and replies[1]["id"] == 2  # the next request is answered


def test_the_encoder_writes_a_lone_surrogate_as_its_escape() -> None:
    text = write_json({"error": "bad \ud800 here ♣"})
    text.encode("utf-8")  # never raises
    assert json.loads(text) == {"error": "bad \ud800 here ♣"}
    assert write_json({"card": "7♣"}) == '{"card":"7♣"}'  # symbols stay when they can


# -- 2. decoding costs linear time ------------------------------------------------------------


def test_decoding_a_large_opening_formats_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_cut = actions_module._cut

    def counting_cut(text: str, limit: int = 60) -> str:
        calls.append(text)
        return real_cut(text, limit)

    monkeypatch.setattr(actions_module, "_cut", counting_cut)
    cards = ["7♣"] * 20_000
    action = action_from_json({"player": 0, "type": "open", "cards": cards})
    assert isinstance(action, Open) and len(action.played) == 20_000
    assert calls == []  # the context of an error is made only for an error


def test_a_megabyte_request_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[object] = []
    real_show = wire_module.show
    monkeypatch.setattr(wire_module, "show", lambda v, limit=60: shown.append(v) or
                        real_show(v, limit))
    line = json.dumps({"id": 1, "cmd": "apply", "action": {
        "player": 0, "type": "open", "cards": ["7♣"] * 100_000}}, ensure_ascii=False)
    request = decode_request(line)
    assert len(request.action.cards) == 100_000  # type: ignore[union-attr]
    assert shown == []
    bad = line.replace('"7♣"]', '"1♣"]')
    reply = json.loads(Server(ReferenceEngine()).handle(bad) or "")
    assert reply["ok"] is False and "action.cards[99999]" in reply["error"]


# -- 3. deep nesting --------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [65, 987, 100_000])
def test_deep_nesting_is_refused_before_parsing(depth: int) -> None:
    line = '{"id":1,"cmd":"apply","action":' + "[" * depth + "]" * depth + "}"
    reply = json.loads(Server(ReferenceEngine()).handle(line) or "")
    assert reply["ok"] is False and "levels deep" in reply["error"]
    with pytest.raises(SavedGameError, match="levels deep"):
        persist.loads("[" * depth)


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = json.dumps({"note": "[" * 1000 + "]" * 500, "x": ["\\\"]]]"]})
    assert read_json(text)["note"].count("[") == 1000


# -- 4. the loader ----------------------------------------------------------------------------


def test_a_version_of_five_thousand_digits_is_a_saved_game_error() -> None:
    data = persist.game_to_json(GAME)
    text = json.dumps(data, ensure_ascii=False).replace(f'"version": {persist.VERSION}',
                                                        '"version": ' + "7" * 5000)
    with pytest.raises(SavedGameError) as error:
        persist.loads(text)
    assert error.value.code == "json-number" and len(str(error.value)) < 300
    four_thousand = text.replace("7" * 5000, "7" * 4000)
    with pytest.raises(SavedGameError, match=r"^version: unknown version 7{60}… ") as again:
        persist.loads(four_thousand)
    assert len(str(again.value)) < 300


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/null", "/"])
def test_special_files_are_refused_without_reading(special: str) -> None:
    if not os.path.exists(special):
        pytest.skip(f"{special} does not exist here")
    with pytest.raises(SavedGameError, match="not a file") as error:
        persist.load(special)
    assert error.value.code == "file"


def test_a_pipe_with_no_writer_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SavedGameError, match="is a pipe, not a file"):
        persist.load(fifo)


def test_a_sparse_gigabyte_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: takes no room on the disk
    with pytest.raises(SavedGameError, match="1073741824 bytes long; at most") as error:
        persist.load(big)
    assert error.value.code == "json-too-large"


def test_a_missing_file_is_a_saved_game_error(tmp_path: Path) -> None:
    with pytest.raises(SavedGameError, match="No such file") as error:
        persist.load(tmp_path / "nothing.json")
    assert error.value.code == "file"


def test_read_file_reads_a_regular_file_up_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "small.json"
    path.write_bytes(b"[1]")
    assert read_file(path, max_bytes=3) == b"[1]"
    with pytest.raises(JsonError, match="3 bytes long; at most 2"):
        read_file(path, max_bytes=2)


# -- 5. saving never replaces a special file --------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_saving_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    persist.save(GAME, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert persist.load(real) == GAME
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # the file keeps its permissions
    assert _leftovers(tmp_path) == []


def test_saving_to_a_device_or_a_directory_is_refused_and_leaves_nothing(tmp_path: Path
                                                                          ) -> None:
    for target in ("/dev/null", str(tmp_path)):
        before = os.stat(target)
        with pytest.raises(SavedGameError, match="not a file") as error:
            persist.save(GAME, target)
        assert error.value.code == "file"
        after = os.stat(target)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SavedGameError, match="special file"):
        persist.save(GAME, fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    with pytest.raises(SavedGameError, match="No such file") as error:
        persist.save(GAME, tmp_path / "missing" / "game.json")
    assert error.value.code == "file"
    assert _leftovers(tmp_path) == []


def test_saving_a_regular_file_replaces_it_in_one_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("an older game", encoding="utf-8")
    persist.save(GAME, path)
    assert persist.load(path) == GAME and _leftovers(tmp_path) == []


# -- 8. the smaller ones ----------------------------------------------------------------------


def test_a_seat_of_five_thousand_digits_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="is not a seat") as error:
        parse_action("P" + "9" * 5000 + " take")
    assert len(str(error.value)) < 200


@pytest.mark.parametrize("text", ["P٣ take", "P１ take", "٣: take"])
def test_seats_are_ascii_digits(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


@pytest.mark.parametrize("text", ["7\nH", "J\u3000D", "7\t\tC", "1\u00a00♥", "٧♣", "7\u200b♣"])
def test_a_card_has_no_white_space_but_one_space_inside(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_one_space_between_rank_and_suit_is_still_a_card() -> None:
    assert parse_card("7 ♣") == parse_card("7♣") == parse_card(" 7C ")


def test_error_replies_are_cut() -> None:
    line = json.dumps({"id": 1, "cmd": "apply",
                       "action": {"player": 0, "type": "throw", "card": "x" * 1_000_000}})
    reply = Server(ReferenceEngine()).handle(line) or ""
    assert len(reply) < 1500
    assert json.loads(reply)["ok"] is False


def test_the_wire_refuses_duplicate_keys() -> None:
    reply = json.loads(Server(ReferenceEngine()).handle(
        '{"id":1,"cmd":"hello","cmd":"legal"}') or "")
    assert reply["ok"] is False and "appears twice" in reply["error"]


def test_apply_before_start_says_so_in_words() -> None:
    reply = json.loads(Server(ReferenceEngine()).handle(
        '{"id":1,"cmd":"apply","action":{"player":0,"type":"take"}}') or "")
    assert reply["ok"] is False
    assert reply["error"].startswith("no game yet: send start or load first")
    assert "RuntimeError" not in reply["error"]
