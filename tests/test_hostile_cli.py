"""Hostile command lines (issue 21, items 6 and 7): one line and a documented exit code,
never a traceback, never a hang.

Each command runs as a user types it, in a shell (``sh -c``), so that ``>/dev/full``,
``>&-`` and ``<&-`` mean what they mean at a prompt. The exit codes are the ones
``durak-spec --help`` documents: 2 for bad options (a report file that cannot be one, an
ENGINE that is not an engine), 74 when standard output or input, or a report file at the
end, cannot be used.

Runtime: about 100 s on 2 shared cores (some 60 command starts, each about 1.5 s; a few
checks of one rule and short tip runs among them).
"""

from __future__ import annotations

import os
import resource
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from helpers import unprivileged

from durak_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]

PY = shlex.quote(sys.executable)
EXIT_IO = 74


def shell(command: str, *, cwd: Path | None = None, stdin: str = "",
          fsize: int | None = None, prefix: Sequence[str] = ()
          ) -> subprocess.CompletedProcess[str]:
    """``durak-spec COMMAND`` in a shell; ``fsize`` limits the size of the files it writes;
    ``prefix`` starts the command line (:func:`helpers.unprivileged`)."""
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([*prefix, "sh", "-c", f"{PY} -m durak_spec {command}"], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=cwd,
                          check=False, preexec_fn=limit)


def one_line(done: subprocess.CompletedProcess[str], code: int, words: str) -> str:
    """The command ended with ``code`` and one line on stderr holding ``words``."""
    lines = done.stderr.splitlines()
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert lines and words in lines[-1], done.stderr
    assert sum("error:" in line for line in lines) == 1, done.stderr
    return lines[-1]


needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")

# -- item 6: standard streams ----------------------------------------------------------------

PRINTING = ["profiles", "profiles --json", "rules BEAT-3", "game --seed 1",
            "check --rule BEAT-1", "perft --list", "serve --schema",
            "tips --games 2 --tips TIP-1 --quiet"]


@needs_dev_full
@pytest.mark.parametrize("command", PRINTING)
def test_standard_output_on_a_full_device(command: str) -> None:
    one_line(shell(f"{command} >/dev/full"), EXIT_IO,
             "error: cannot write to standard output: No space left on device")


@pytest.mark.parametrize("command", ["profiles", "game --seed 1", "check --rule BEAT-1",
                                     "perft --list", "serve --schema"])
def test_a_closed_standard_output(command: str) -> None:
    one_line(shell(f"{command} >&-"), EXIT_IO, "standard output is closed")


@needs_dev_full
def test_the_server_on_a_full_device() -> None:
    done = shell("serve >/dev/full", stdin='{"id":1,"cmd":"hello"}\n')
    one_line(done, EXIT_IO, "durak-spec serve: error: cannot write to standard output")


@pytest.mark.parametrize("command", ["serve", "play --seed 1"])
def test_a_closed_standard_input(command: str) -> None:
    one_line(shell(f"{command} <&-"), EXIT_IO, "standard input is closed")


def test_a_closed_or_full_standard_error_does_not_stop_the_work() -> None:
    done = shell("game --seed 1 --quiet 2>&-")
    assert done.returncode == 0 and done.stdout.startswith("Outcome: "), done
    done = shell("check --rule BEAT-1 2>/dev/full" if Path("/dev/full").exists()
                 else "check --rule BEAT-1 2>&-")
    assert done.returncode == 0 and "0 failed" in done.stdout, done
    # and the exit code still tells when there is nowhere to say why
    assert shell("game --players 9 2>&-").returncode == 2


def test_a_closed_pipe_is_still_quiet() -> None:
    done = subprocess.run(["sh", "-c", f"{PY} -m durak_spec rules | head -1"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for part in ("2 for bad options", "74 if standard output", "130 when interrupted",
                 "141 when the reader"):
        assert part in text, part


# -- item 6: serve MOD:ATTR that is not an engine -------------------------------------------


@pytest.mark.parametrize(("target", "words"), [
    ("os:getcwd", "made 'str', which is not an engine"),
    ("builtins:object", "has no method capabilities"),
    ("durak_spec.model.state:GameState", "cannot make an engine: calling it"),
])
def test_serve_something_that_is_not_an_engine(target: str, words: str) -> None:
    done = shell(f"serve {target}", stdin='{"id":1,"cmd":"hello"}\n')
    one_line(done, 2, words)
    assert done.stdout == ""  # refused before any request is answered


# -- item 6 and 7: the perft data files' generator (tools/, a clone's tool) ---------------


def fixtures(*args: str) -> subprocess.CompletedProcess[str]:
    """``python tools/perft_fixtures.py ARGS`` as a developer types it in a clone."""
    return subprocess.run([sys.executable, str(ROOT / "tools" / "perft_fixtures.py"), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_perft_generator_refuses_a_file_or_a_device_as_its_folder(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    one_line(fixtures("--dir", str(tmp_path / "afile")), 2, "not a folder")
    one_line(fixtures("--dir", "/dev/null"), 2, "a device, not a folder")
    one_line(fixtures("--dir", str(tmp_path / "afile" / "sub")), 2, "afile is not a folder")
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "mine"


def test_the_perft_generator_refuses_a_fifo_among_its_files_before_counting(
        tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "whole-game.json")
    one_line(fixtures("--dir", str(tmp_path), "--budget", "1"), 2,
             "it is a FIFO (named pipe), not a file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["whole-game.json"]  # none left


# -- item 7: report files are opened before the run ------------------------------------------


@pytest.fixture
def a_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "report.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    yield path
    server.close()


def _targets(tmp_path: Path, a_socket: Path) -> dict[str, tuple[str, str]]:
    os.mkfifo(tmp_path / "fifo")
    return {
        "fifo": (str(tmp_path / "fifo"), "it is a FIFO (named pipe), not a file"),
        "socket": (str(a_socket), "it is a socket, not a file"),
        "device": ("/dev/full" if Path("/dev/full").exists() else "/dev/null",
                   "it is a device, not a file"),
        "below a file": (str(tmp_path / "fifo" / "r.json"), "fifo is not a folder"),
        "missing folder": (str(tmp_path / "no" / "r.json"), "does not exist"),
    }


@pytest.mark.parametrize("option", ["check --rule BEAT-1 --json",
                                    "check --rule BEAT-1 --junit-xml",
                                    "check --random 1 --json",
                                    "tips --games 2 --tips TIP-1 --svg"])
def test_an_output_option_is_refused_up_front(tmp_path: Path, a_socket: Path,
                                              option: str) -> None:
    for kind, (path, words) in _targets(tmp_path, a_socket).items():
        done = shell(f"{option} {shlex.quote(path)}")
        line = one_line(done, 2, words)
        assert line.startswith(f"durak-spec {option.split()[0]}: error: cannot write"), kind
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1, (kind, done.stderr)


def test_a_read_only_report_file_is_refused_up_front(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    report.write_text("old", encoding="utf-8")
    report.chmod(0o444)
    one_line(shell(f"check --rule BEAT-1 --json {report}", prefix=unprivileged()), 2,
             "ermission denied")
    assert report.read_text(encoding="utf-8") == "old"


def test_a_report_that_cannot_be_written_at_the_end_leaves_the_text_report(
        tmp_path: Path) -> None:
    # the files the command writes may hold 4 KB: the JSON report (60 KB) does not fit
    done = shell("check --perft --max-depth 1 --json r.json", cwd=tmp_path, fsize=4096)
    one_line(done, EXIT_IO, "cannot write r.json (--json): File too large")
    assert " ok, 0 failed" in done.stdout  # the text report reached the terminal
    assert not (tmp_path / "r.json").exists()  # the partial file it made is gone
    done = shell("tips --games 2 --tips TIP-1 --quiet --svg c.svg", cwd=tmp_path, fsize=1000)
    one_line(done, EXIT_IO, "cannot write c.svg (--svg): File too large")
    assert "TIP-1" in done.stdout


def test_a_report_file_is_written_whole_over_an_older_one(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    report.write_text("x" * 100_000, encoding="utf-8")  # longer than the new report
    done = shell(f"check --rule BEAT-1 --json {report}")
    assert done.returncode == 0, done.stderr
    assert report.read_text(encoding="utf-8").rstrip().endswith("}")


# -- the report file itself ------------------------------------------------------------------


def test_an_output_file_made_and_never_written_is_removed(tmp_path: Path) -> None:
    from durak_spec.core.outfiles import OutputFile

    new = tmp_path / "new.json"
    with OutputFile(new, "--json"):
        assert new.is_file()  # made at once: the path is proven writable before the run
    assert not new.exists()  # the run did not finish: nothing half-made is left
    old = tmp_path / "old.json"
    old.write_text("the last report", encoding="utf-8")
    with OutputFile(old, "--json"):
        pass
    assert old.read_text(encoding="utf-8") == "the last report"  # someone's file is kept
    with OutputFile(old, "--json") as report:
        report.write("new")
    assert old.read_text(encoding="utf-8") == "new"
    with OutputFile(new, "--json") as report:
        report.write("{}")
    assert new.read_text(encoding="utf-8") == "{}"  # written: it stays
