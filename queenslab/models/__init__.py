"""Declarative models of a Problem for general solvers: CP-SAT (cpsat.py), CNF (cnf.py)."""
