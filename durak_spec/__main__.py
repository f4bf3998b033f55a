"""``python -m durak_spec``: the ``durak-spec`` command line (see :mod:`durak_spec.cli`)."""

from __future__ import annotations

from durak_spec.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
