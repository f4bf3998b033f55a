"""Building the rules website from an installed package (``durak-spec book``).

The wheel ships the book's pages (``durak_spec/book/source``: the MyST pages, the table of
contents, the configuration and the style sheet) and the feature files. :func:`build_book`
copies the pages to a scratch folder, points the configuration at the package's feature
files (``durak_features``), runs Jupyter Book there (the ``book`` extra:
``pip install 'durak-spec[book]'``) and copies the HTML to the target folder. Every example
is played during the build, as for the project's own build.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from durak_spec.spec.runner import features_dir

from .site import BookError

__all__ = ["book_source", "build_book"]

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


def build_book(out: Path, *, features: Path | None = None, engine: Path | None = None,
               say: Callable[[str], None] = print) -> Path:
    """Build the website into ``out`` (created or replaced); returns its ``index.html``.

    ``engine`` is a folder packed by :func:`durak_spec.book.bundle.pack_engine` (``python
    book/web/pack.py`` in a clone of the project): the site then serves it, and its
    pictures get their "Try it" buttons. It must match the installed package."""
    import importlib.util

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
        for line in process.stdout:
            text = line.rstrip("\n")
            tail = [*tail[-40:], text]
            if text.startswith("durak:") or (("ERROR" in text or "WARNING" in text) \
                    and "IPKernelApp" not in text):
                say(text)
        if process.wait() != 0:
            raise BookError("the book did not build:\n" + "\n".join(tail[-25:]))
        html = pages / "_build" / "html"
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(html, out)
    return out / "index.html"
