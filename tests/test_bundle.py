"""Packing the engine for the website, and how the book's build serves it (fast tests: no
Node, no Sphinx run; the real packing and the built site are tested by tests/test_browser.py).
"""

from __future__ import annotations

import html
import json
import logging
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from durak_spec.book import build_site, play_all
from durak_spec.book.bundle import (
    ENGINE_DIR,
    PACKED_LAYERS,
    RUNTIME_FILES,
    engine_problem,
    package_digest,
    package_files,
)
from durak_spec.book.extension import BookBuild, _engine
from durak_spec.book.pages import play_form
from durak_spec.book.render import example_html
from durak_spec.model.actions import action_from_json
from durak_spec.model.rules import PROFILES
from durak_spec.play.web import OPPONENTS, REVIEW_SAMPLES
from durak_spec.spec.runner import features_dir

PACKAGE = Path(__file__).resolve().parents[1] / "durak_spec"


def test_the_page_gets_the_lower_layers_and_the_rule_index_only() -> None:
    names = [name for name, _ in package_files()]
    assert "durak_spec/__init__.py" in names and "durak_spec/data/rule_index.json" in names
    assert "durak_spec/play/web.py" in names and "durak_spec/engine/__init__.py" in names
    layers = {name.split("/")[1] for name in names if name.count("/") > 1}
    assert layers == {*PACKED_LAYERS, "data"}
    assert not [n for n in names if "__pycache__" in n or "/features/" in n or "/book/" in n]



def test_every_module_the_page_imports_is_packed() -> None:
    """The web module and everything it imports, the coach of "Review this game"
    (durak_spec.play.review) among them, is in the zip the page unpacks."""
    probe = ("import sys, durak_spec.play.web; print('\\n'.join(m.__file__ for n, m in "
             "sorted(sys.modules.items()) if n.startswith('durak_spec') and m.__file__))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120)
    imported = {Path(f).resolve() for f in done.stdout.split()}
    packed = {path.resolve() for _, path in package_files()}
    assert PACKAGE / "play" / "review" / "coach.py" in imported
    assert imported <= packed, sorted(map(str, imported - packed))

def test_the_digest_follows_the_sources(tmp_path: Path) -> None:
    copy = tmp_path / "durak_spec"
    shutil.copytree(PACKAGE, copy, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "features", "source"))
    assert package_digest(copy) == package_digest()
    engine = copy / "engine" / "__init__.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert package_digest(copy) != package_digest()


def fake_packed(folder: Path, digest: str) -> Path:
    engine = folder / ENGINE_DIR
    engine.mkdir(parents=True)
    for name in (*RUNTIME_FILES, "python_stdlib_pyc.zip", "durak_spec.zip"):
        (engine / name).write_bytes(b"x")
    (engine / "manifest.json").write_text(json.dumps({"package_digest": digest,
                                                      "bytes": 1234}), encoding="utf-8")
    return folder


def test_a_packed_engine_is_served_only_when_complete_and_up_to_date(tmp_path: Path) -> None:
    assert "engine/manifest.json is missing" in str(engine_problem(tmp_path / "none"))
    fresh = fake_packed(tmp_path / "fresh", package_digest())
    assert engine_problem(fresh) is None
    stale = fake_packed(tmp_path / "stale", "0" * 64)
    assert "older than the package's sources" in str(engine_problem(stale))
    (fresh / ENGINE_DIR / "pyodide.asm.wasm").unlink()
    assert "lacks pyodide.asm.wasm" in str(engine_problem(fresh))


class _Config:
    def __init__(self, engine: Path) -> None:
        self.durak_engine = str(engine)
        self.html_extra_path: list[str] = []


class _App:
    srcdir = "/nowhere"

    def __init__(self) -> None:
        self.scripts: list[tuple[str, dict[str, Any]]] = []

    def add_js_file(self, name: str, **attributes: Any) -> None:
        self.scripts.append((name, attributes))


def test_the_build_serves_a_fresh_engine_and_warns_of_a_stale_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    build = BookBuild(features=features_dir())
    app, config = _App(), _Config(fake_packed(tmp_path / "fresh", package_digest()))
    _engine(app, config, build)
    assert config.html_extra_path == [str((tmp_path / "fresh").resolve())]
    assert app.scripts == [("durak-try.mjs", {"type": "module"})]
    assert build.engine_bytes == 1234
    stale_build = BookBuild(features=features_dir())
    app, config = _App(), _Config(fake_packed(tmp_path / "stale", "0" * 64))
    with caplog.at_level(logging.WARNING):
        _engine(app, config, stale_build)
    assert config.html_extra_path == [] and app.scripts == []
    assert stale_build.engine_bytes is None
    assert any("older than the package's sources" in r.getMessage() for r in caplog.records)
    app, config = _App(), _Config(tmp_path / "absent")
    _engine(app, config, stale_build)
    assert config.html_extra_path == [] and app.scripts == []


def test_the_game_page_offers_every_profile_and_the_computer_players() -> None:
    form = str(play_form(15_900_000))
    for name in PROFILES:
        assert f'value="{name}"' in form
    for kind in OPPONENTS:
        assert f'value="{kind}"' in form
    assert 'src="_static/durak-game.mjs"' in form and "16 MB" in form
    assert 'id="durak-new" disabled' in form and "served over HTTP" in form  # until the script
    assert [f'value="{n}"' in form for n in range(2, 7)] == [True] * 5
    # The coach's button waits, hidden, for a finished game, and says how much it samples.
    assert re.search(r'<section [^>]*id="durak-review"[^>]*\bhidden\b', form)
    assert 'id="durak-review-start"' in form and f"{REVIEW_SAMPLES} sampled deals" in form
    without = str(play_form(None))
    assert "does not include the engine" in without and "<form" not in without


def test_an_examples_picture_carries_its_moves(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(features_dir() / "03_beating.feature", features)
    site = build_site(features)
    run = play_all(site.spec)
    example = next(e for e in site.spec.examples() if e.number == "BEAT-1.1")
    page = str(example_html(example, run.played[example.number], site))
    found = re.search(r'id="pos-BEAT-1\.1" data-position="[^"]+" data-players="([^"]+)" '
                      r'data-moves="([^"]+)"', page)
    assert found is not None
    assert found.group(1) == "Anna,Boris"
    moves = [action_from_json(m) for m in json.loads(html.unescape(found.group(2)))]
    assert [str(m) for m in moves] == ["P1 cover 7♣ with 9♣"]
