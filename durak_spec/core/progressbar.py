"""The progress bar of long runs (layer 1): tqdm on standard error.

``shown``: ``True`` always (``--progress``), ``False`` never (``--quiet``), ``None`` only
when standard error is a terminal, so that logs and pipes get no bar by default.
"""

from __future__ import annotations

import sys
from typing import Never

from tqdm import tqdm

__all__ = ["progress_bar"]


def progress_bar(total: int | None, *, unit: str, shown: bool | None = None) -> tqdm[Never]:
    """A bar of ``total`` steps counted in ``unit`` (``"game"``) on standard error."""
    return tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True,
                disable=None if shown is None else not shown)
