"""The rules book (layer 8): the specification on the website, every example played.

Every rule and every example on the book's pages comes from two places only: the feature
files (the specification in Gherkin, read by :mod:`durak_spec.spec.gherkin`) and the rule
index. Nothing here states a rule; it reads, runs and draws. The package is split by job:

* :mod:`~durak_spec.book.site`: where every rule and example is on the site;
* :mod:`~durak_spec.book.play`: running every example once with the reference engine,
  the report of broken examples, and the Python behind each example;
* :mod:`~durak_spec.book.text` and :mod:`~durak_spec.book.render`: reader language and
  HTML, built with escaping by construction (:mod:`durak_spec.game.markup`);
* :mod:`~durak_spec.book.pages`: "How to play" pictures, the narrated game, the pages for
  implementers;
* :mod:`~durak_spec.book.extension`: the Sphinx extension with the directives the pages
  use; :func:`setup` is its entry point (``durak_spec.book`` in the book's ``_config.yml``);
* :mod:`~durak_spec.book.build`: building the site from an installed package
  (``durak-spec book``).
"""

from __future__ import annotations

from typing import Any

from .play import ExampleFailed, Played, Run, broken_examples, play_all, python_of
from .site import PAGE_OF_CHAPTER, BookError, Site, build_site

__all__ = [
    "PAGE_OF_CHAPTER",
    "BookError",
    "ExampleFailed",
    "Played",
    "Run",
    "Site",
    "broken_examples",
    "build_site",
    "play_all",
    "python_of",
    "setup",
]


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension (see :mod:`durak_spec.book.extension`), imported only when a
    book is built, so that the rest of the package works without Sphinx installed."""
    from .extension import setup as extension_setup

    return extension_setup(app)
