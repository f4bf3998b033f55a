"""The version of durak-spec (layer 1)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
