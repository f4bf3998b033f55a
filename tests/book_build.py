"""Building the rules book for the tests (a pytest plugin, loaded by conftest.py).

``built_book`` builds the whole book once per session from a temporary copy of ``book/``,
with the documented command, and yields its HTML folder. Before it builds, it packs the
reference engine for the site's "Try it" boards and game page (``book/web/pack.py``: the
pinned Pyodide from the npm registry, compiled with Node) when Node and npm are installed,
so that the built site is the one readers get; without them the site is built with
pictures only and the browser tests say why they skip (in CI, ``CI=true``, they fail).

``DURAK_BUILT_BOOK=book/_build/html python -m pytest tests/test_browser.py`` tests a site
built before instead of building one.

The build starts in a thread of its own when the run begins, if any test of the run reads
the book (:func:`book_build_started`), so that the tests that do not read it go on while it
builds; ``built_book`` waits for it. Under pytest-xdist the book is still built once per
run: the build sits in the run's shared temporary folder behind a file lock, so that the
other workers wait for the first build and read it instead of building again. The tests
that read it are placed in every worker's share of the run, after its first tests
(``pytest_collection_modifyitems`` in conftest.py), so that the build is done or nearly done
when they start.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
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


def build_with_the_cli(site: Path, say: Callable[[str], None],
                       engine: Path | None) -> tuple[int, str]:
    """``durak-spec book --out SITE [--engine ENGINE]`` in ``site``'s folder: its exit
    status and what it printed on standard output (its progress goes to ``say``)."""
    command = [sys.executable, "-m", "durak_spec", *BOOK_COMMAND[1:3], site.name,
               *(["--engine", str(engine)] if engine is not None else [])]
    process = subprocess.Popen(command, cwd=site.parent, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8",
                               errors="replace")
    assert process.stderr is not None and process.stdout is not None
    for line in process.stderr:
        plain = line.strip()
        if plain.startswith("durak:") or "ERROR" in plain or plain.startswith("building"):
            say(plain)
    output = process.stdout.read()
    return process.wait(timeout=900), output


def copy_book(target: Path) -> Path:
    shutil.copytree(BOOK, target, ignore=shutil.ignore_patterns("_build", "__pycache__",
                                                                "node_modules"))
    return target


def pack(say: Callable[[str], None]) -> str | None:
    """Pack the engine into ``book/_pyodide_site`` if needed; ``None`` when it is packed,
    else why it is not."""
    if engine_problem(ENGINE) is None:
        return None
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (apt-get install nodejs npm)"
    say("packing the engine for the site (book/web/pack.py) ...")
    try:
        pack_engine(BOOK / "web", ENGINE, say=say)
    except BookError as error:
        if IN_CI:
            raise
        return f"packing the engine failed: {error}"
    return engine_problem(ENGINE)


class Build:
    """The book's build for this run, in a thread of its own: started when the run begins
    (:func:`book_build_started`), so that the tests that do not read the book go on while
    it builds; :func:`built_book` waits for it.

    Under pytest-xdist every worker starts one; the first to take the run's file lock packs
    and builds, the others then find the site built. A build that failed is built again by
    the next worker that takes the lock, as before. What the build says is kept in
    ``lines`` (a thread may not write past pytest's capture) and shown by the fixture that
    waits for it."""

    def __init__(self, shared: Path) -> None:
        self.shared = shared
        self.lines: list[str] = []
        self.html = shared / "built" / "site"
        self.no_engine: str | None = "the book was not built"
        self.failure: str | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="book build", daemon=True)

    def _say(self, text: str) -> None:
        self.lines.append(text)

    def _run(self) -> None:
        try:
            with FileLock(str(self.shared / "book.lock")):
                self.no_engine = problem = pack(self._say)
                if (self.html / "index.html").is_file():
                    return
                if problem is not None:
                    self._say(f"the site is built without the engine: {problem}")
                shutil.rmtree(self.html.parent, ignore_errors=True)  # a build that broke off
                self.html.parent.mkdir(parents=True)
                self._say(f"building the whole book with {' '.join(BOOK_COMMAND)} ...")
                code, output = build_with_the_cli(
                    self.html, self._say, engine=ENGINE if problem is None else None)
                if code != 0:
                    self.failure = f"the book did not build:\n{output[-4000:]}"
                    return
                (self.html.parent / "stdout.txt").write_text(output, encoding="utf-8")
                self._say("built")
        except BaseException as error:  # shown by the fixture, in the test that waits
            self.error = error

    def wait(self, say: Callable[[str], None]) -> None:
        """Wait for the build, passing on what it says as it says it."""
        shown = 0
        while True:
            self.thread.join(timeout=0.5)
            while shown < len(self.lines):
                say(self.lines[shown])
                shown += 1
            if not self.thread.is_alive():
                break
        if self.error is not None:
            raise self.error
        assert self.failure is None, self.failure


BUILD = pytest.StashKey[Build]()
"""This run's build of the book, once it is started."""


def wants_the_book(session: pytest.Session) -> bool:
    return any("built_book" in getattr(item, "fixturenames", ()) for item in session.items)


@pytest.fixture(scope="session", autouse=True)
def book_build_started(tmp_path_factory: pytest.TempPathFactory,
                       request: pytest.FixtureRequest) -> Iterator[None]:
    """Start building the book at the run's first test, if any test of the run reads it
    and no site is given (``DURAK_BUILT_BOOK``); at the end of the run, wait for the
    build, so that a worker never leaves it half done."""
    if os.environ.get("DURAK_BUILT_BOOK") or not HAS_JUPYTER_BOOK \
            or not wants_the_book(request.session):
        yield
        return
    build = start_build(request.config, tmp_path_factory)
    yield
    build.thread.join()


def start_build(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Build:
    """This run's build of the book, started now unless it was started before."""
    build = config.stash.get(BUILD, None)
    if build is None:
        shared = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            shared = shared.parent  # the run's folder, above every worker's own
        build = config.stash[BUILD] = Build(shared)
        build.thread.start()
    return build


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
    build = start_build(request.config, tmp_path_factory)  # started already, as a rule
    build.wait(lambda text: say(request, text))
    request.config.stash[NO_ENGINE] = build.no_engine
    yield build.html


NO_ENGINE = pytest.StashKey[str | None]()
"""Why the built book has no engine (``None``: it has one)."""
