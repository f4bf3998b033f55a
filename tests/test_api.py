"""The public API: every exported name is what it says, whatever submodules are imported."""

from __future__ import annotations

import importlib
import importlib.resources
import pkgutil
import types

import durak_spec


def test_no_submodule_shadows_an_exported_name() -> None:
    # Importing a submodule sets an attribute of the package with its name: a submodule
    # called like an exported function (check, view, ...) would replace that function.
    for info in pkgutil.walk_packages(durak_spec.__path__, "durak_spec."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    for name in durak_spec.__all__:
        value = getattr(durak_spec, name)
        assert not isinstance(value, types.ModuleType), f"durak_spec.{name} is a module"
    assert callable(durak_spec.check) and durak_spec.check.__module__ == "durak_spec.engine"


def test_the_package_is_typed() -> None:
    assert (importlib.resources.files("durak_spec") / "py.typed").is_file()
