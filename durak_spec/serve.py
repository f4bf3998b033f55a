"""``python -m durak_spec.serve``: the reference engine over the wire protocol.

A thin alias kept because engine authors cite this command; the command is
:mod:`durak_spec.cli.serve` (``durak-spec serve`` runs the same), the server
:mod:`durak_spec.protocol.serve`.
"""

from __future__ import annotations

from durak_spec.cli.serve import main

if __name__ == "__main__":
    raise SystemExit(main())
