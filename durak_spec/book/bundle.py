"""The reference engine packed for the website: Pyodide and the package, served with the site.

The book's "Try it" buttons and its "Play a game" page run the package itself in the
browser, in Pyodide (CPython compiled to WebAssembly, from the npm package ``pyodide``). The
files are made before the book is built, by :func:`pack_engine` (``python book/web/pack.py``),
into a folder of the book (``book/_pyodide_site/``, not kept in git) whose contents the build
copies to the site's root (Sphinx's ``html_extra_path``), so the site holds::

    engine/pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, pyodide-lock.json
                           the runtime, as the npm package ships it
    engine/python_stdlib_pyc.zip
                           its standard library, compiled to bytecode by that runtime
                           (about twice as fast to start as the sources)
    engine/durak_spec.zip  the layers of the package the page needs (core, model, engine,
                           game, play) with their bytecode
    engine/manifest.json   versions, sizes and the digest of the package's sources

Making the bytecode needs Node (the runtime compiles it: ``book/web/make_pyc.mjs``) and
``npm ci`` in ``book/web`` (the pinned ``pyodide`` of its ``package-lock.json``, from the
npm registry). The build checks the digest: a packed engine older than the package's
sources fails the build, so the site never runs another engine than the one it describes.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from durak_spec.core.version import __version__

from .site import BookError

__all__ = ["ENGINE_DIR", "PACKED_LAYERS", "RUNTIME_FILES", "engine_problem", "pack_engine",
           "package_digest", "package_files", "read_manifest"]

ENGINE_DIR = "engine"
"""The folder of the site (and of the packed folder) that holds the engine's files."""
PACKED_LAYERS: tuple[str, ...] = ("core", "model", "engine", "game", "play")
"""The subpackages the page imports (the public API, the pictures, the bots, the boards)."""
_ROOT_FILES = ("__init__.py", "py.typed", "data/rule_index.json")
RUNTIME_FILES: tuple[str, ...] = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                  "pyodide-lock.json")
STDLIB = "python_stdlib_pyc.zip"
PACKAGE_ZIP = "durak_spec.zip"
MANIFEST = "manifest.json"


def _package_dir() -> Path:
    return Path(__file__).resolve().parents[1]  # durak_spec/book/bundle.py


def package_files(package: Path | None = None) -> Iterator[tuple[str, Path]]:
    """(name in the zip, file) for every file of the package the page needs."""
    root = package or _package_dir()
    for name in _ROOT_FILES:
        if (root / name).is_file():
            yield f"durak_spec/{name}", root / name
    for layer in PACKED_LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield f"durak_spec/{path.relative_to(root).as_posix()}", path


def package_digest(package: Path | None = None) -> str:
    """The SHA-256 of the packed files' names and contents."""
    digest = hashlib.sha256()
    for name, path in package_files(package):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a packed folder (``folder/engine/manifest.json``), if there is one."""
    path = folder / ENGINE_DIR / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def engine_problem(folder: Path, package: Path | None = None) -> str | None:
    """Why the packed engine in ``folder`` cannot be served with the site, or ``None``."""
    manifest = read_manifest(folder)
    if manifest is None:
        return f"{folder} holds no packed engine ({ENGINE_DIR}/{MANIFEST} is missing)"
    missing = [n for n in (*RUNTIME_FILES, STDLIB, PACKAGE_ZIP)
               if not (folder / ENGINE_DIR / n).is_file()]
    if missing:
        return f"the packed engine in {folder} lacks {', '.join(missing)}"
    if manifest.get("package_digest") != package_digest(package):
        return (f"the packed engine in {folder} is older than the package's sources: "
                "pack it again (python book/web/pack.py)")
    return None


def _run(command: list[str], cwd: Path, what: str) -> str:
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise BookError(f"{what} needs {command[0]}, which is not installed (Node.js and npm: "
                        "apt-get install nodejs npm)") from None
    if done.returncode != 0:
        raise BookError(f"{what} failed ({' '.join(command)}):\n"
                        + (done.stdout + done.stderr)[-2000:])
    return done.stdout


def _installed_pyodide(web: Path) -> str | None:
    path = web / "node_modules" / "pyodide" / "package.json"
    if not path.is_file():
        return None
    version = json.loads(path.read_text(encoding="utf-8")).get("version")
    return version if isinstance(version, str) else None


def _locked_pyodide(web: Path) -> str:
    lock = json.loads((web / "package-lock.json").read_text(encoding="utf-8"))
    version = lock["packages"]["node_modules/pyodide"]["version"]
    if not isinstance(version, str):
        raise BookError(f"{web}/package-lock.json pins no version of pyodide")
    return version


def _zip_package(target: Path, package: Path | None) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in package_files(package):
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    target.write_bytes(buffer.getvalue())


def pack_engine(web: Path, out: Path, *, package: Path | None = None,
                say: Callable[[str], None] = print) -> dict[str, Any]:
    """Lay out ``out/engine/`` (see the module's docstring) and return its manifest.

    ``web`` is the folder with ``package.json``, ``package-lock.json`` and ``make_pyc.mjs``.
    The runtime's files and the compiled standard library are kept when the pinned
    version has not changed; the package is zipped and compiled every time.
    """
    started = time.perf_counter()
    version = _locked_pyodide(web)
    if _installed_pyodide(web) != version:
        say(f"installing pyodide {version} (npm ci in {web}) ...")
        _run(["npm", "ci", "--no-audit", "--no-fund"], web, "installing pyodide")
    runtime = web / "node_modules" / "pyodide"
    engine = out / ENGINE_DIR
    engine.mkdir(parents=True, exist_ok=True)
    old = read_manifest(out) or {}
    for name in RUNTIME_FILES:
        shutil.copyfile(runtime / name, engine / name)
    stdlib = engine / STDLIB
    if old.get("pyodide") != version or not stdlib.is_file():
        say(f"compiling the standard library of pyodide {version} ...")
        say(_run(["node", "make_pyc.mjs", "--stdlib", str(stdlib.resolve())], web,
                 "compiling the standard library").strip())
    with tempfile.TemporaryDirectory(prefix="durak-pack-") as scratch:
        sources = Path(scratch) / "sources.zip"
        _zip_package(sources, package)
        say(_run(["node", "make_pyc.mjs", "--package", str(sources),
                  str((engine / PACKAGE_ZIP).resolve())], web,
                 "compiling the package").strip())
    files = {p.name: p.stat().st_size for p in sorted(engine.iterdir())
             if p.is_file() and p.name != MANIFEST}
    manifest = {"pyodide": version, "durak_spec": __version__,
                "package_digest": package_digest(package), "files": files,
                "bytes": sum(files.values())}
    (engine / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    say(f"packed the engine in {engine}: {len(files)} files, {manifest['bytes']:,} bytes, "
        f"in {time.perf_counter() - started:.1f} s")
    return manifest
