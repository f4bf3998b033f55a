"""Layers 2 and 3: the rule set with its variant axes and profiles; the immutable game state
and the actions players know. Imports only :mod:`durak_spec.core`."""
