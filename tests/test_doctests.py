"""Every ``>>>`` example in the package's docstrings runs, and shows what it says.

The README's Python blocks run in ``test_readme.py``; these are the docstrings' own
examples (``durak_spec.model.events``, ``durak_spec.engine.beating``, ...), one test per
module that has any, so a stale example fails with its module's name.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import durak_spec


def _modules() -> list[str]:
    names = ["durak_spec"]
    for info in pkgutil.walk_packages(durak_spec.__path__, "durak_spec."):
        if info.name.startswith(("durak_spec.features", "durak_spec.book.source")):
            continue
        names.append(info.name)
    return names


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = []
    for name in _modules():
        module = importlib.import_module(name)
        if any(test.examples for test in finder.find(module)):
            found.append(name)
    return found


MODULES = _with_examples()


def test_the_package_has_doctests() -> None:
    # The engine's chapters and the value types teach by example; losing them is a defect.
    assert len(MODULES) >= 10, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             report=True, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
