"""Building the rules book for the tests (a pytest plugin, loaded by conftest.py).

``built_book`` builds the whole book once per session from a temporary copy of ``book/``,
with the documented command, and yields its HTML folder. Before it builds, it packs the
reference engine for the site's "Try it" boards and game page (``book/web/pack.py``: the
pinned Pyodide from the npm registry, compiled with Node) when Node and npm are installed,
so that the built site is the one readers get; without them the site is built with
pictures only and the browser tests say why they skip (in CI, ``CI=true``, they fail).

``DURAK_BUILT_BOOK=book/_build/html python -m pytest tests/test_browser.py`` tests a site
built before instead of building one.

Under pytest-xdist the book is still built once per run: the build sits in the run's shared
temporary folder behind a file lock, so that a second worker that needs it waits for the
first build and reads it instead of building again. The tests that read it are collected
first (``pytest_collection_modifyitems`` in conftest.py), so that the build starts at once.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock

from durak_spec.book.bundle import engine_problem, pack_engine
from durak_spec.book.site import BookError

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
ENGINE = BOOK / "_pyodide_site"
HAS_JUPYTER_BOOK = importlib.util.find_spec("jupyter_book") is not None
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def say(request: pytest.FixtureRequest, text: str) -> None:
    """A line on the terminal while a build runs (past pytest's output capture)."""
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None:
        return
    if capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"book: {text}")
    else:
        reporter.write_line(f"book: {text}")


def build(book_dir: Path, request: pytest.FixtureRequest, features: Path | None = None
          ) -> tuple[int, str]:
    """Build the book in ``book_dir`` with the documented command, saying what it does."""
    if features is not None:
        config = book_dir / "_config.yml"
        config.write_text(config.read_text(encoding="utf-8").replace(
            "    nb_execution_raise_on_error: true",
            f"    durak_features: {features}\n    nb_execution_raise_on_error: true"),
            encoding="utf-8")
    command = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()",
               "build", "--all", "-W", "-n", "--keep-going", str(book_dir)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, encoding="utf-8", errors="replace")
    assert process.stdout is not None
    output: list[str] = []
    last = ""
    for line in process.stdout:
        output.append(line)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
        step = re.match(r"(reading sources|writing output)\.\.\. \[\s*(\d+)%\]", plain)
        if plain.startswith("durak:") or plain.startswith("ERROR"):
            say(request, plain)
        elif step and step.group(0) != last and int(step.group(2)) % 25 < 5:
            last = step.group(0)
            say(request, f"{step.group(1)} {step.group(2)}%")
    return process.wait(timeout=900), "".join(output)


BOOK_COMMAND = ("durak-spec", "book", "--out", "site")
"""How the README builds the site; the book tests build theirs with it (in a folder of the
run, adding ``--engine`` for the live boards), and ``test_docs`` compares what it printed
with what the README shows."""


def build_with_the_cli(site: Path, request: pytest.FixtureRequest,
                       engine: Path | None) -> tuple[int, str]:
    """``durak-spec book --out SITE [--engine ENGINE]`` in ``site``'s folder: its exit
    status and what it printed on standard output (its progress goes to the terminal)."""
    command = [sys.executable, "-m", "durak_spec", *BOOK_COMMAND[1:3], site.name,
               *(["--engine", str(engine)] if engine is not None else [])]
    process = subprocess.Popen(command, cwd=site.parent, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8",
                               errors="replace")
    assert process.stderr is not None and process.stdout is not None
    for line in process.stderr:
        plain = line.strip()
        if plain.startswith("durak:") or "ERROR" in plain or plain.startswith("building"):
            say(request, plain)
    output = process.stdout.read()
    return process.wait(timeout=900), output


def copy_book(target: Path) -> Path:
    shutil.copytree(BOOK, target, ignore=shutil.ignore_patterns("_build", "__pycache__",
                                                                "node_modules"))
    return target


def pack(request: pytest.FixtureRequest) -> str | None:
    """Pack the engine into ``book/_pyodide_site`` if needed; ``None`` when it is packed,
    else why it is not."""
    if engine_problem(ENGINE) is None:
        return None
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (apt-get install nodejs npm)"
    say(request, "packing the engine for the site (book/web/pack.py) ...")
    try:
        pack_engine(BOOK / "web", ENGINE, say=lambda text: say(request, text))
    except BookError as error:
        if IN_CI:
            raise
        return f"packing the engine failed: {error}"
    return engine_problem(ENGINE)


@pytest.fixture(scope="session")
def built_book(tmp_path_factory: pytest.TempPathFactory,
               request: pytest.FixtureRequest) -> Iterator[Path]:
    """The book, built once from a temporary copy; yields its HTML folder. Its
    ``engine`` folder holds the packed engine unless ``request.config.stash[NO_ENGINE]``
    says why not."""
    given = os.environ.get("DURAK_BUILT_BOOK")
    if given:  # a site built before (by hand): the tests read it, nothing is built
        html = Path(given).resolve()
        request.config.stash[NO_ENGINE] = None if (html / "engine" / "manifest.json").is_file() \
            else f"{html} was built without the engine"
        yield html
        return
    if not HAS_JUPYTER_BOOK:
        pytest.skip("jupyter-book is not installed: install the book extra "
                    "(pip install -e '.[book]')")
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above every worker's own
    with FileLock(str(shared / "book.lock")):
        problem = pack(request)
        request.config.stash[NO_ENGINE] = problem
        html = shared / "built" / "site"
        if not (html / "index.html").is_file():
            if problem is not None:
                say(request, f"the site is built without the engine: {problem}")
            shutil.rmtree(html.parent, ignore_errors=True)  # a build that broke off
            html.parent.mkdir(parents=True)
            say(request, f"building the whole book with {' '.join(BOOK_COMMAND)} ...")
            code, output = build_with_the_cli(html, request,
                                              engine=ENGINE if problem is None else None)
            assert code == 0, f"the book did not build:\n{output[-4000:]}"
            (html.parent / "stdout.txt").write_text(output, encoding="utf-8")
            say(request, "built")
    yield html


NO_ENGINE = pytest.StashKey[str | None]()
"""Why the built book has no engine (``None``: it has one)."""
