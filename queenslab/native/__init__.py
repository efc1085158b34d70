"""The native engine: numba bitboard search (kernels.py) and its Python driver (engine.py)."""
