"""The package's layers are its folders, and imports point only downwards.

From the bottom: ``core`` (cards, the rule index, errors), ``model`` (rule set, state,
actions), ``engine`` (the rules), ``game`` (records, saved games, views, pictures),
``protocol`` (one engine protocol, the wire, subprocess engines, the server), ``spec``
(the step library, which talks to engines only through the protocol), then the faces:
``play`` and ``conformance`` side by side, ``book`` above them, and ``cli`` on top.
A module may import its own layer and the layers below it, never one above or beside it.
The root ``durak_spec/__init__.py`` is the public API of the layers up to ``game``.

A second check: no module of the package keeps mutable state at module level (a list,
dict or set bound to a global, a ``global`` statement, an ``lru_cache``): every result
of the package is a function of its arguments.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import durak_spec

PACKAGE = Path(durak_spec.__file__).resolve().parent

LAYERS: dict[str, int] = {
    "core": 1,
    "model": 2,
    "engine": 3,
    "game": 4,
    "protocol": 5,
    "spec": 6,
    "play": 7,
    "conformance": 7,
    "book": 8,
    "cli": 9,
}
"""The height of each subpackage; ``play`` and ``conformance`` are siblings."""

ROOT_MODULES: dict[str, int] = {
    "durak_spec": LAYERS["game"],  # the public API: everything up to the game layer
    "durak_spec.__main__": LAYERS["cli"],  # python -m durak_spec
    "durak_spec.serve": LAYERS["cli"],  # python -m durak_spec.serve, cited by engines
}


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if {"features", "source"} & set(path.relative_to(PACKAGE).parts):
            continue  # links to the feature files and the book's pages, shipped as data
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(["durak_spec", *parts]), path


def layer_of(module: str) -> tuple[str, int]:
    if module in ROOT_MODULES:
        return module, ROOT_MODULES[module]
    top = module.split(".")[1]
    if top not in LAYERS:
        raise AssertionError(f"{module} lies in no layer; put it in one of {sorted(LAYERS)}")
    return top, LAYERS[top]


def project_imports(path: Path, module: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of the package in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "durak_spec":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "durak_spec":
                continue
            if target == "durak_spec":  # from durak_spec import X: X may be a subpackage
                for alias in node.names:
                    sub = f"durak_spec.{alias.name}"
                    yield node.lineno, sub if (PACKAGE / alias.name).exists() or \
                        (PACKAGE / f"{alias.name}.py").exists() else "durak_spec"
            else:
                yield node.lineno, target


def test_every_module_lies_in_a_layer() -> None:
    for module, _ in modules():
        layer_of(module)


def test_imports_point_down_or_within_a_layer() -> None:
    wrong = []
    for module, path in modules():
        name, height = layer_of(module)
        for line, target in project_imports(path, module):
            if target == "durak_spec" and module != "durak_spec":
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports the package "
                             "root; import the module that defines the name instead")
                continue
            if target == "durak_spec":
                continue
            target_name, target_height = layer_of(target)
            if target_name == name:
                continue
            if module in ROOT_MODULES:
                if target_height > height:
                    wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} may import "
                                 f"up to layer {height}, not {target}")
                continue
            if target_height > height or (target_height == height and target_name != name):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name} (layer "
                             f"{height}) imports {target} ({target_name}, layer {target_height})")
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_sees_a_wrong_import(tmp_path: Path) -> None:
    # The check above must be able to fail: an engine module importing the CLI is caught.
    bad = tmp_path / "bad.py"
    bad.write_text("from durak_spec.cli import main\nfrom ..game import svg\n", encoding="utf-8")
    found = list(project_imports(bad, "durak_spec.engine.bad"))
    assert found == [(1, "durak_spec.cli"), (2, "durak_spec.game")]
    assert layer_of("durak_spec.cli")[1] > layer_of("durak_spec.engine.bad")[1]


LAYER_IN_TEXT = re.compile(r"\(layer (\d+)")

KNOWN_LAYER_TEXTS: frozenset[str] = frozenset()
"""Modules whose docstring still gives another layer number than LAYERS; only shrinks."""


def test_docstrings_give_the_layer_numbers_of_this_test() -> None:
    # "(layer N)" in a module's docstring is the number above, so the two never disagree.
    wrong, seen = [], set()
    for module, path in modules():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        _, height = layer_of(module)
        for match in LAYER_IN_TEXT.finditer(doc):
            if int(match[1]) != height:
                seen.add(module)
                if module not in KNOWN_LAYER_TEXTS:
                    wrong.append(f"{module}: its docstring says layer {match[1]}, "
                                 f"LAYERS says {height}")
    assert not wrong, "\n".join(wrong)
    fixed = sorted(KNOWN_LAYER_TEXTS - seen)
    assert not fixed, "the layer number agrees now (remove from KNOWN_LAYER_TEXTS): " + \
        ", ".join(fixed)


KNOWN_ENGINE_INTERNALS: frozenset[str] = frozenset()
"""Modules outside the engine that still import one of its modules; the list only shrinks."""


def test_only_the_engine_imports_its_own_modules() -> None:
    # Above the engine, the rules are reached through the engine package's public names
    # (durak_spec.engine's __all__); its chapters (engine.turns, engine.limits, ...) are its
    # own business. Steps and faces reach an engine through the protocol, and the reference
    # through those names.
    found, seen = [], set()
    for module, path in modules():
        if module.startswith("durak_spec.engine"):
            continue
        for line, target in project_imports(path, module):
            if target.startswith("durak_spec.engine."):
                seen.add(module)
                if module not in KNOWN_ENGINE_INTERNALS:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {target}; "
                                 "import the name from durak_spec.engine")
    assert not found, "\n".join(found)
    fixed = sorted(KNOWN_ENGINE_INTERNALS - seen)
    assert not fixed, "no longer imports an engine module (remove it from " \
        "KNOWN_ENGINE_INTERNALS): " + ", ".join(fixed)


# -- no mutable module state --------------------------------------------------------------

MUTABLE = (list, dict, set, bytearray)

KNOWN_MUTABLE_GLOBALS: frozenset[str] = frozenset({
})
"""Module globals that still hold a mutable value: each one is a defect to remove (issue 9),
and the list may only shrink."""


def _all_modules() -> Iterator[str]:
    yield "durak_spec"
    for info in pkgutil.walk_packages(durak_spec.__path__, "durak_spec."):
        if info.name.startswith("durak_spec.features"):
            continue
        yield info.name


def test_no_module_keeps_mutable_state() -> None:
    found = []
    seen = set()
    for name in _all_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("__") or not isinstance(value, MUTABLE):
                continue
            if attr == "__all__":
                continue
            qualified = f"{name}.{attr}"
            seen.add(qualified)
            if qualified not in KNOWN_MUTABLE_GLOBALS:
                found.append(f"{qualified}: a module-level {type(value).__name__}; use a "
                             "tuple, frozenset or types.MappingProxyType (or pass it in)")
    assert not found, "\n".join(found)
    fixed = sorted(KNOWN_MUTABLE_GLOBALS - seen)
    assert not fixed, "no longer mutable (remove from KNOWN_MUTABLE_GLOBALS): " + ", ".join(fixed)


ALLOWED_CACHES: frozenset[str] = frozenset({
    # The parsed rule index: immutable package data, read once; functools.cache is
    # thread-safe (at worst two threads parse the same file).
    "durak_spec/core/ruleindex.py",
})

KNOWN_HIDDEN_STATE: frozenset[str] = frozenset({
})
"""Files that still rebind globals or cache results behind the caller's back; only shrinks."""


@pytest.mark.parametrize("needle", ["global ", "lru_cache", "functools.cache", "@cache"])
def test_no_global_statements_or_hidden_caches(needle: str) -> None:
    found = []
    for _module, path in modules():
        where = str(path.relative_to(PACKAGE.parent))
        if where in KNOWN_HIDDEN_STATE or (needle != "global " and where in ALLOWED_CACHES):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if needle in code and not code.lstrip().startswith(('"', "'")):
                found.append(f"{where}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def argparse_importers() -> list[str]:
    """The modules outside ``durak_spec/cli`` that import argparse, anywhere in the module."""
    found = []
    for module, path in modules():
        if module == "durak_spec.cli" or module.startswith("durak_spec.cli."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name.split(".")[0] == "argparse" for name in names):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_every_argparse_parser_lives_in_the_cli() -> None:
    # Issue 25: the option types, --jobs and each command's parser are the CLI's (layer 9).
    assert argparse_importers() == []


def test_the_book_shows_the_options_of_todays_check_parser() -> None:
    # The book (layer 8) reads the options table the check parser writes; after changing an
    # option, run: python tools/check_options.py
    import runpy

    tool = runpy.run_path(str(PACKAGE.parent / "tools" / "check_options.py"))
    assert tool["TARGET"].read_text(encoding="utf-8") == tool["render"](), \
        "durak_spec/data/check_options.json is out of date: run python tools/check_options.py"
