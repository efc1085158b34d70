"""Symmetries of the n-queens board: the dihedral group D4 acting on placements."""
