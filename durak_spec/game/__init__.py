"""Layer 5, around the engine: game records and replay, saved games, player views,
positions described by hand, and pictures. Imports the engine and the layers below it."""
