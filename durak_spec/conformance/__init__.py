"""A face: the conformance checker (scenarios, lockstep play, perft) over the engine protocol."""

from __future__ import annotations

__all__ = ["engine_label"]


def engine_label(name: str, version: str) -> str:
    """An engine's name with its version marked as one (``engine_x, version 1``), as every
    report's header shows it: a bare number after a name reads as a count."""
    name, version = name.strip(), version.strip()
    if not version:
        return name
    return f"{name}, version {version}" if name else f"version {version}"
