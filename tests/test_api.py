"""The public API: every exported name is what it says, whatever submodules are imported."""

from __future__ import annotations

import importlib
import importlib.resources
import pkgutil
import types

import durak_spec
import durak_spec.engine


def test_no_submodule_shadows_an_exported_name() -> None:
    # Importing a submodule sets an attribute of the package with its name: a submodule
    # called like an exported function (check, view, ...) would replace that function.
    for info in pkgutil.walk_packages(durak_spec.__path__, "durak_spec."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    for package in (durak_spec, durak_spec.engine):
        for name in package.__all__:
            value = getattr(package, name)
            assert not isinstance(value, types.ModuleType), f"{package.__name__}.{name} is a module"
        for info in pkgutil.iter_modules(package.__path__):  # ... nor a name a submodule
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            assert getattr(package, info.name) is module, \
                f"{package.__name__}.{info.name} is not the submodule of that name"
    assert callable(durak_spec.check)
    assert durak_spec.check is durak_spec.engine.check
    assert durak_spec.check.__module__.startswith("durak_spec.engine.")


def test_the_package_is_typed() -> None:
    assert (importlib.resources.files("durak_spec") / "py.typed").is_file()
