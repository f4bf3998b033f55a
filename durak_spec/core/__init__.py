"""Layer 1: cards and their notation, the rule index, errors. Imports nothing of the project."""
