"""Every command and every output the user-facing documents show runs in the tests.

The documents are ``README.md``, ``examples/README.md``, the pages of ``docs/`` and the
transcript ``examples/engine_wrong_report.txt``. What they show is checked as a reader would
use it:

- a ```` ```python ```` block runs as written; when the next block is a ```` ```text ````
  block, that is its output, compared line by line;
- a ```` ```console ```` block, and a transcript file, is a session: each ``$ command`` line
  (continued by a trailing backslash) runs in a shell in a fresh folder that holds the
  project's ``examples/`` and ``features/``, with standard input closed, and what follows it
  up to the next ``$`` is its standard output (progress on standard error is not compared).
  A last output line ``(exit status N)`` is the exit status it must end with; otherwise it
  must end with 0. No command may print a traceback;
- a ```` ```sh ```` block is what a user types to install: the README's two commands are
  checked by ``test_ci_runs_the_readme_test_command`` and
  ``test_the_readme_first_command_installs_and_checks``.

The README's ``durak-spec book --out site`` is run once, by the book tests' fixture, which
builds the site they read with it; ``test_the_book_command_builds_the_site`` compares.

Shown output is compared after figures that vary from run to run (seconds, games per
second) are replaced by ``N``; a line ``...`` stands for any number of lines and ``...``
inside a line for any text, as in a doctest. ``DURAK_UPDATE_TRANSCRIPTS=1`` rewrites the
transcript files with what the commands print now (never the Markdown documents, whose
shown output is chosen by hand).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from book_build import BOOK_COMMAND

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "examples" / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]
TRANSCRIPTS = [ROOT / "examples" / "engine_wrong_report.txt"]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
VARIES = re.compile(r"\b\d+(?:\.\d+)?(?= ?(?:s|ms|µs|games/s)\b)")
EXIT = re.compile(r"^\(exit status (\d+)\)$")


@dataclass(frozen=True)
class Command:
    """One ``$ command`` of a document, with the output and exit status it shows."""

    where: str
    line: str
    output: tuple[str, ...]
    status: int

    @property
    def id(self) -> str:
        return f"{self.where}: {self.line[:60]}"


@dataclass(frozen=True)
class Block:
    where: str
    kind: str
    text: str


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(f"{path.relative_to(ROOT)}:{line}", match.group(1), match.group(2)))
    return found


def session(where: str, text: str) -> list[Command]:
    """The commands of a console block or a transcript, each with the output it shows."""
    commands: list[Command] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if not lines[index].startswith("$ "):
            index += 1  # prose before the first command
            continue
        command = lines[index][2:]
        while command.endswith("\\"):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        index += 1
        output: list[str] = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        while output and not output[-1].strip():
            output.pop()
        status = 0
        if output and (match := EXIT.match(output[-1])):
            status = int(match.group(1))
            output.pop()
            while output and not output[-1].strip():
                output.pop()
        commands.append(Command(where, command.strip(), tuple(output), status))
    return commands


def python_blocks() -> list[tuple[Block, Block | None]]:
    found = []
    for path in DOCUMENTS:
        found_here = blocks(path)
        for number, block in enumerate(found_here):
            if block.kind == "python":
                after = found_here[number + 1] if number + 1 < len(found_here) else None
                found.append((block, after if after is not None and after.kind == "text"
                              else None))
    return found


def console_commands() -> list[Command]:
    return [command for commands in sessions() for command in commands]


def normal(lines: list[str] | tuple[str, ...]) -> list[str]:
    return [VARIES.sub("N", line.rstrip()) for line in lines]


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is what ``shown`` shows (``...`` for any lines or any text)."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line == "..." else
        ".*?".join(re.escape(part) for part in line.split("...")) + r"\n"
        for line in shown)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed), re.S) is not None


def run_shell(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    for name in ("examples", "features"):
        if not (folder / name).exists():
            (folder / name).symlink_to(ROOT / name)
    env = {**os.environ, "TMPDIR": str(folder), "PYTHONIOENCODING": "utf-8",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "100"}
    env.pop("DURAK_UPDATE_TRANSCRIPTS", None)
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, encoding="utf-8", errors="replace",
                          stdin=subprocess.DEVNULL, timeout=600)


def test_the_documents_show_commands_and_code() -> None:
    commands = console_commands()
    assert len(commands) >= 10, "the documents lost their commands"
    assert python_blocks(), "the documents lost their Python examples"
    assert all(c.output for c in commands if c.where.startswith("examples/engine_wrong")), \
        "the transcript shows no output"


def sessions() -> list[list[Command]]:
    """The console blocks and transcripts, each a list of commands run in one folder."""
    found = []
    for path in DOCUMENTS:
        for block in blocks(path):
            if block.kind == "console":
                found.append(session(block.where, block.text))
    for path in TRANSCRIPTS:
        found.append(session(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("commands", sessions(), ids=lambda s: s[0].where if s else "empty")
def test_shown_commands_print_what_is_shown(commands: list[Command], tmp_path: Path) -> None:
    """The commands of one block run in order in one folder, as a reader types them."""
    for command in commands:
        if command.line == " ".join(BOOK_COMMAND):
            continue  # built once for the book tests: test_the_book_command_builds_the_site
        done = run_shell(command.line, tmp_path)
        printed = done.stdout.splitlines()  # progress goes to standard error, not compared
        while printed and not printed[-1].strip():
            printed.pop()
        assert "Traceback (most recent call last)" not in done.stdout + done.stderr, (
            command.line, done.stdout + done.stderr)
        if os.environ.get("DURAK_UPDATE_TRANSCRIPTS") and command.where.endswith(".txt"):
            update_transcript(command, printed, done.returncode)
            continue
        assert done.returncode == command.status, (
            f"{command.where}: `{command.line}` ended with {done.returncode}, the document "
            f"shows {command.status}:\n" + "\n".join(printed[-30:]) + done.stderr[-2000:])
        if command.output:
            shown, got = normal(command.output), normal(printed)
            assert matches(shown, got), (
                f"{command.where}: `{command.line}` printed something else than shown:\n"
                + "\n".join(got))


def update_transcript(command: Command, printed: list[str], status: int) -> None:
    path = ROOT / command.where
    text = path.read_text(encoding="utf-8")
    start = text.index(f"$ {command.line.split(' ')[0]}")
    # find this command's own lines: the first line of the command as written
    for match in re.finditer(r"^\$ .*$", text, re.M):
        written = text[match.start():]
        lines = written.splitlines()
        joined, used = lines[0][2:], 1
        while joined.endswith("\\"):
            joined = joined[:-1] + " " + lines[used].strip()
            used += 1
        if joined.strip() == command.line:
            start = match.start()
            head = "\n".join(lines[:used])
            break
    else:  # pragma: no cover - the command came from this very file
        raise AssertionError(command.line)
    rest = text[start + len(head):]
    following = re.search(r"^\$ ", rest, re.M)
    tail = rest[following.start():] if following else ""
    body = "\n".join(printed) + (f"\n(exit status {status})" if status else "")
    path.write_text(text[:start] + head + "\n" + body + "\n" + ("\n" + tail if tail else ""),
                    encoding="utf-8")


@pytest.mark.parametrize("block,output", python_blocks(), ids=lambda b: getattr(b, "where", ""))
def test_a_python_example_runs_and_prints_what_is_shown(
        block: Block, output: Block | None, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(block.text, block.where, "exec"), {"__name__": "docs"})
    printed = capsys.readouterr().out.splitlines()
    if output is not None:
        assert matches(normal(output.text.splitlines()), normal(printed)), \
            f"{block.where} printed:\n" + "\n".join(printed)


def test_the_matcher_takes_ellipses_and_nothing_else() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a ... c"], ["a b c"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert not matches(["a", "b"], ["a", "b", "c"])
    assert not matches(["a.c"], ["abc"])
    assert normal(["in 6.2 s (20 games/s), 3 passed"]) == ["in N s (N games/s), 3 passed"]


def readme_install_commands() -> tuple[str, str]:
    first = blocks(ROOT / "README.md")[0]
    assert first.kind == "sh", "the README must open with its two commands"
    lines = [line for line in first.text.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 2, lines
    return lines[0], lines[1]


def test_ci_runs_the_readme_test_command() -> None:
    """The second command is what CI runs: ``.ci/run`` makes the same venv, installs the
    same extras and runs the same pytest command (adding ruff, mypy and quiet flags)."""
    everything = readme_install_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [step.strip() for step in everything.split("&&")]
    assert steps[0] == "python3 -m venv .venv" and steps[0] in ci
    assert steps[1] == ". .venv/bin/activate" and steps[1] in ci
    assert steps[2].startswith("pip install ")
    assert f"python -m pip install --quiet {steps[2].removeprefix('pip install ')}" in ci
    assert steps[3].startswith("python -m pytest")
    assert re.search(rf"^{re.escape(steps[3])}( -q)?$", ci, re.M), ci


def test_the_readme_first_command_installs_and_checks(tmp_path: Path) -> None:
    """The first command, verbatim, in a copy of the project: it installs the package
    (not editable) and checks the reference engine against the whole specification."""
    install = readme_install_commands()[0]
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    copy = tmp_path / "durak-spec"
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes(source.read_bytes())
    for link in ("durak_spec/features", "durak_spec/book/source"):
        if (ROOT / link).is_symlink():
            (copy / link).unlink(missing_ok=True)
            (copy / link).symlink_to(os.readlink(ROOT / link))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(Path(sys.executable).parent)))
    done = subprocess.run(["bash", "-c", install], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"[1-9]\d* passed, 0 failed, 0 errored, 0 skipped", last), last


def test_the_book_command_builds_the_site(built_book: Path) -> None:
    """The README's ``durak-spec book --out site`` is how the book tests build the site
    they read (in a folder named ``site``, with ``--engine`` for the live boards): what it
    printed there is what the README shows."""
    line = " ".join(BOOK_COMMAND)
    shown = [c for c in console_commands() if c.line == line]
    assert shown, f"the README no longer shows {line}"
    if os.environ.get("DURAK_BUILT_BOOK"):
        pytest.skip("DURAK_BUILT_BOOK names a site built before: the command did not run")
    printed = (built_book.parent / "stdout.txt").read_text(encoding="utf-8").splitlines()
    for command in shown:
        assert matches(normal(command.output), normal(printed)), (command.where, printed)
