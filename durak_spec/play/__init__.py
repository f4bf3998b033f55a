"""A face: computer players, the terminal game and the tip experiments."""
