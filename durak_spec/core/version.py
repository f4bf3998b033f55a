"""The version of durak-spec (layer 1)."""

__all__ = ["__version__"]

__version__ = "0.3.0"
