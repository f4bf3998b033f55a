"""Building the rules website from an installed package (``durak-spec book``).

The wheel ships the book's pages (``durak_spec/book/source``: the MyST pages, the table of
contents, the configuration and the style sheet) and the feature files. :func:`build_book`
copies the pages to a scratch folder, points the configuration at the package's feature
files (``durak_features``), runs Jupyter Book there (the ``book`` extra:
``pip install 'durak-spec[book]'``) and copies the HTML to the target folder. Every example
is played during the build, as for the project's own build.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path

from durak_spec.spec.runner import features_dir

from .site import BookError

__all__ = ["MARKER", "book_source", "build_book", "install_site", "out_problem"]

MARKER = ".durak-book"
"""The file that ``durak-spec book`` writes into every folder it builds: only a folder
that carries it (or an empty or new one) is ever replaced by the next build."""

_MARKER_TEXT = ("This folder was built by 'durak-spec book'; the next build into it "
                "replaces it whole. Remove this file to keep the folder from being "
                "replaced.\n")

_PATTERNS = ("*.md", "*.yml", "_static/*")


def book_source() -> Path:
    """The book's pages as the package ships them."""
    source = resources.files("durak_spec").joinpath("book", "source")
    path = Path(str(source))
    if not (path / "_config.yml").is_file():
        raise BookError(f"the package holds no book pages ({path} has no _config.yml)")
    return path


def _copy_pages(source: Path, target: Path) -> None:
    for pattern in _PATTERNS:
        for path in source.glob(pattern):
            if path.is_file():
                destination = target / path.relative_to(source)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, destination)


def _configure(config: Path, features: Path, engine: Path | None = None) -> None:
    text = config.read_text(encoding="utf-8")
    marker = "    nb_execution_raise_on_error: true"
    if marker not in text:
        raise BookError(f"{config} has no sphinx config section to point at the features")
    extra = f"    durak_features: {features}\n"
    if engine is not None:
        extra += f"    durak_engine: {engine}\n"
    config.write_text(text.replace(marker, f"{extra}{marker}"), encoding="utf-8")


def out_problem(out: Path) -> str | None:
    """Why the site may not be written to the folder ``out``, in one line, or ``None``.

    ``out`` may be a path that does not exist yet (below a folder that can be written),
    an empty folder, or a folder that an earlier build made (it carries :data:`MARKER`).
    Anything else is refused: a folder of someone else's files, a symbolic link (never
    followed: the book is not written, nor anything deleted, where it points), a file or
    a device."""
    try:
        info = out.lstat()
    except FileNotFoundError:
        return _parent_problem(out)
    except OSError as error:
        return f"{out} cannot be examined ({error.strerror})"
    if stat.S_ISLNK(info.st_mode):
        return (f"{out} is a symbolic link; the book is never written through one: give "
                "a new folder, an empty one, or one an earlier build made")
    if not stat.S_ISDIR(info.st_mode):
        return f"{out} exists and is not a folder (the book is a folder of pages)"
    try:
        entries = os.listdir(out)
    except OSError as error:
        return f"{out} cannot be read ({error.strerror})"
    if entries:
        try:
            marker = (out / MARKER).lstat()
        except OSError:
            marker = None
        if marker is None or not stat.S_ISREG(marker.st_mode):
            return (f"{out} holds files that 'durak-spec book' did not write (it has no "
                    f"{MARKER} file), and the book replaces its folder whole: give a new "
                    "folder, an empty one, or one an earlier build made")
    return _parent_problem(out)


def _parent_problem(out: Path) -> str | None:
    """Why no folder can be made (or replaced) at ``out``: its nearest existing parent is
    not a folder that can be written."""
    parent = out.parent
    while not os.path.lexists(parent) and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a folder, so {out} cannot be made"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{parent} cannot be written, so {out} cannot be made there"
    return None


def install_site(html: Path, out: Path) -> None:
    """Put the built pages ``html`` at ``out`` with the marker file, replacing ``out``
    only if :func:`out_problem` allows it (checked again here, just before).

    The pages are copied next to ``out`` first and then moved into place, so that a
    failure leaves the folder as it was; nothing outside ``out`` is ever deleted."""
    problem = out_problem(out)
    if problem is not None:
        raise BookError(problem)
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        staging = Path(tempfile.mkdtemp(prefix=".durak-book-", dir=out.parent))
    except OSError as error:
        raise BookError(f"cannot write next to {out} ({error.strerror})") from None
    try:
        site = staging / "site"
        shutil.copytree(html, site)
        (site / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")
        if os.path.lexists(out):
            # out_problem allowed it: an empty folder, or one that a build made
            os.rename(out, staging / "old")
        os.rename(site, out)
    except OSError as error:
        raise BookError(f"cannot write the book to {out} ({error.strerror})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


ENTRANCE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Durak: the rules</title>
<link rel="icon" href="_static/favicon.svg">
<meta http-equiv="Refresh" content="0; url=intro.html">
</head>
<body><p><a href="intro.html">How to play Durak</a></p></body>
</html>
"""
"""The site's address opens How to play. Jupyter Book's own entrance is the refresh alone:
a browser then asks for ``/favicon.ico``, which the site does not have (a 404 in the
console, at random, when it answers before the page has moved on)."""


def build_book(out: Path, *, features: Path | None = None, engine: Path | None = None,
               say: Callable[[str], None] = print) -> Path:
    """Build the website into ``out`` (created, or replaced if an earlier build made it:
    see :func:`out_problem`); returns its ``index.html``.

    ``engine`` is a folder packed by :func:`durak_spec.book.bundle.pack_engine` (``python
    book/web/pack.py`` in a clone of the project): the site then serves it, and its
    pictures get their "Try it" buttons. It must match the installed package."""
    import importlib.util

    problem = out_problem(out)
    if problem is not None:
        raise BookError(problem)
    if importlib.util.find_spec("jupyter_book") is None:
        raise BookError("building the book needs Jupyter Book: pip install "
                        "'durak-spec[book]'")
    source = book_source()
    chosen = (features or features_dir()).resolve()
    if engine is not None:
        from .bundle import engine_problem

        problem = engine_problem(engine.resolve())
        if problem is not None:
            raise BookError(problem)
    with tempfile.TemporaryDirectory(prefix="durak-book-") as scratch:
        pages = Path(scratch) / "book"
        pages.mkdir()
        _copy_pages(source, pages)
        _configure(pages / "_config.yml", chosen,
                   engine.resolve() if engine is not None else None)
        say(f"building the rules book from {source} with the features of {chosen} ...")
        command = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()",
                   "build", "--all", "-W", "-n", "--keep-going", str(pages)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, encoding="utf-8", errors="replace")
        assert process.stdout is not None
        tail: list[str] = []
        try:
            for line in process.stdout:
                text = line.rstrip("\n")
                tail = [*tail[-40:], text]
                if text.startswith("durak:") or (("ERROR" in text or "WARNING" in text) \
                        and "IPKernelApp" not in text):
                    say(text)
            status = process.wait()
        except BaseException:  # interrupted or stopped: nothing it started may go on
            _stop_all(process)
            raise
        if status != 0:
            raise BookError("the book did not build:\n" + "\n".join(tail[-25:]))
        (pages / "_build" / "html" / "index.html").write_text(ENTRANCE, encoding="utf-8")
        with _uninterrupted():
            install_site(pages / "_build" / "html", out)
    return out / "index.html"


def _stop_all(process: subprocess.Popen[str]) -> None:
    """Stop Jupyter Book and everything it started (the kernel that runs the book's code
    runs in a session of its own, so a signal to the process group would miss it)."""
    import psutil  # a dependency of the book extra, like Jupyter Book itself

    try:
        root = psutil.Process(process.pid)
        family = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        family = []
    for member in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            member.terminate()
    _gone, alive = psutil.wait_procs(family, timeout=10)
    for member in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            member.kill()
    process.wait()


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while the site is put in place (a folder renamed away and
    the new one renamed in): a stop between the two renames would lose the old site."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
