"""The feature files under features/, run as tests against the engine (the reference by default).

``scenarios()`` is called once per feature file, so that a malformed file fails on its own
(``test_feature_file_parses``) instead of taking every other chapter down with it. The step
definitions come with the plugin ``durak_spec.spec.plugin`` (see ``conftest.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_bdd import scenarios

FEATURES = Path(__file__).resolve().parents[1] / "features"
FEATURE_FILES = sorted(FEATURES.glob("*.feature"))

_BROKEN: dict[str, str] = {}
for _path in FEATURE_FILES:
    try:
        scenarios(str(_path))
    except Exception as error:  # any parse error is reported per file below
        _BROKEN[_path.name] = f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("name", [p.name for p in FEATURE_FILES])
def test_feature_file_parses(name: str) -> None:
    """Each feature file parses, so that its scenarios run."""
    if name in _BROKEN:
        pytest.fail(f"{name} cannot be read: {_BROKEN[name]}", pytrace=False)
