"""A face: the conformance checker (scenarios, lockstep play, perft) over the engine protocol."""
