"""Ranking: lexicographic rank / unrank of solutions (lex.py), the persistent prefix-count
index (index.py), permutation ranks (permutations.py) and uniform sampling (sampling.py)."""
