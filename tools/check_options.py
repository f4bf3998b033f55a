"""Write durak_spec/data/check_options.json, the options table of ``durak-spec check``
that the book shows (the book lies below the CLI, so it reads this file, not the parser).

Run ``python tools/check_options.py`` after changing an option of ``durak-spec check``;
tests/test_layers.py fails while the file is out of date.
"""

from __future__ import annotations

import json
from pathlib import Path

from durak_spec.cli.check import option_rows

TARGET = Path(__file__).resolve().parent.parent / "durak_spec" / "data" / "check_options.json"


def render() -> str:
    return json.dumps(option_rows(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")
