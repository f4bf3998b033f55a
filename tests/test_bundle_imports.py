"""The website's engine bundle runs without msgspec.

The wire decodes with msgspec, a compiled extension that Pyodide would need as a
WebAssembly wheel; the layers packed for the website (``PACKED_LAYERS``: core, model,
engine, game, play) do not import the wire, so every module of the bundle must import
with msgspec unavailable.
"""

from __future__ import annotations

import subprocess
import sys

from durak_spec.book.bundle import package_files

_PROBE = """
import importlib, sys

class NoMsgspec:
    def find_spec(self, name, path=None, target=None):
        if name == "msgspec" or name.startswith("msgspec."):
            raise ImportError("msgspec is not in the browser bundle")
        return None

sys.meta_path.insert(0, NoMsgspec())
for name in sys.argv[1:]:
    importlib.import_module(name)
print("msgspec" in sys.modules)
"""


def test_every_packed_module_imports_without_msgspec() -> None:
    modules = [name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
               for name, _ in package_files() if name.endswith(".py")]
    assert "durak_spec.game.persist" in modules and "durak_spec.core.jsonio" in modules
    done = subprocess.run([sys.executable, "-c", _PROBE, *modules], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
