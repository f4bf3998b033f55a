"""``python -m durak_spec.serve``: the reference engine over the wire protocol.

A thin alias kept because engine authors cite this command; the server itself is
:mod:`durak_spec.protocol.serve` (``durak-spec serve`` runs the same).
"""

from __future__ import annotations

from durak_spec.protocol.serve import main

if __name__ == "__main__":
    raise SystemExit(main())
