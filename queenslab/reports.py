"""The reports the command line prints with ``--json``: one dataclass per command.

A report's fields are its JSON keys, in order, and :func:`to_json` is the one function
that turns any report (or a result it holds, such as a
:class:`~queenslab.backends.crosscheck.CrosscheckRow` or a
:class:`~queenslab.limits.Limit`) into the JSON object. Every key has one type and one
meaning across all commands; the glossary of docs/cli.md lists them, and a test runs every
command with ``--json`` against it.

Reports hold the library's own values: placements and cells with 0-based columns, a rank
counted from 0. A field declared with :data:`ONE_BASED` metadata is shifted by one when it is
written, so JSON speaks the command line's 1-based language while a Python user of a
report sees what the library returns.

Examples
--------
>>> to_json(Sample(rank=0, solution=(1, 3, 0, 2)))
{'rank': 1, 'solution': [2, 4, 1, 3]}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import PurePath
from types import MappingProxyType
from typing import Any

from .problem import Problem

__all__ = [
    "to_json",
    "ONE_BASED",
    "ErrorReport",
    "CountReport",
    "CrosscheckReport",
    "OptimiserRun",
    "OptimumReport",
    "ExportReport",
    "SolutionsReport",
    "BrokenRule",
    "CheckReport",
    "ShowReport",
    "RankReport",
    "UnrankReport",
    "Sample",
    "SampleReport",
    "Orbit",
    "BurnsideReport",
    "OrbitsReport",
    "Element",
    "SymmetryTableReport",
    "SymmetryOrbitReport",
    "LimitsReport",
    "SolveReport",
    "IndexEntry",
    "IndexBuildReport",
    "IndexInfoReport",
    "IndexVerifyReport",
    "SignatureRow",
    "Certified",
    "SignatureReport",
    "SearchStep",
    "OrbitSearchReport",
    "GrowthReport",
    "WatchReport",
    "ReplayReport",
    "WarmedSet",
    "WarmReport",
]

#: Digits kept of a float (seconds, ratios): a microsecond is below any timing's noise.
_DIGITS = 6


#: The metadata of a field whose integers (a placement, cells, a rank; nested lists and
#: dict values too) are 0-based in the report and written 1-based by :func:`to_json`:
#: ``placement: tuple[int, ...] = field(metadata=ONE_BASED)``.
ONE_BASED = MappingProxyType({"one_based": True})


def _plus_one(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return None if value == -1 else value + 1  # -1: an empty row of a board with fewer queens
    if isinstance(value, dict):
        return {k: _plus_one(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plus_one(v) for v in value]
    return int(value) + 1  # a numpy integer


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Problem):
        return value.to_dict(one_based=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return round(value, _DIGITS)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _plain(value.tolist())
    raise TypeError(f"no JSON form for {type(value).__name__}")


def to_json(report: Any) -> dict[str, Any]:
    """The JSON object of a report: its fields, in order, as JSON values.

    A :class:`~queenslab.problem.Problem` becomes its 1-based dict, a nested dataclass
    its own object, a tuple a list, a float is rounded to six digits, and a field with
    :data:`ONE_BASED` metadata is shifted to 1-based.

    Examples
    --------
    >>> to_json(RankReport(n=4, problem=None, placement=(1, 3, 0, 2), rank=0, seconds=0.5, index=None))
    {'n': 4, 'problem': None, 'placement': [2, 4, 1, 3], 'rank': 1, 'seconds': 0.5, 'index': None}
    """
    if not dataclasses.is_dataclass(report) or isinstance(report, type):
        raise TypeError(f"to_json takes a report (a dataclass instance), not {type(report).__name__}")
    out = {}
    for f in dataclasses.fields(report):
        value = _plain(getattr(report, f.name))
        out[f.name] = _plus_one(value) if f.metadata.get("one_based") else value
    return out


@dataclass(frozen=True)
class ErrorReport:
    """What any command prints under ``--json`` when it refuses or fails (exit 2)."""

    error: str
    kind: str


@dataclass(frozen=True)
class CountReport:
    """``queenslab count``: one problem's count (one per line for a range of n)."""

    n: int
    count: int | None
    unique: int | None
    classes: dict[int, int] | None
    backend: str
    method: str
    threads: int | None
    seconds: float
    complete: bool
    known: int | None
    known_unique: int | None
    agrees: bool | None
    known_source: str | None
    nodes: int | None
    problem: Problem
    note: str | None
    derivation: str | None = None
    tasks: int | None = None
    from_ledger: int | None = None
    workers: tuple[str, ...] | None = None
    recounted: int | None = None
    verify_method: str | None = None
    disagreements: tuple[Any, ...] | None = None  # distributed.runner.Disagreement
    provenance: dict[str, Any] | None = None
    # an estimate (the approxmc backend): its guarantee, bounds and the known value held against them
    approximate: bool = False
    epsilon: float | None = None
    delta: float | None = None
    count_bounds: tuple[int, int] | None = None
    unique_bounds: tuple[int, int] | None = None
    within_bounds: bool | None = None


@dataclass(frozen=True)
class CrosscheckReport:
    """``queenslab crosscheck``: one problem on several backends."""

    n: int
    problem: Problem
    compared_unique: bool
    time_limit: float
    agrees: bool
    verdict: str
    results: tuple[Any, ...]  # CrosscheckRow: backend, count, unique, seconds, complete, error, timed_out, ...
    note: str | None
    known: int | None
    known_unique: int | None
    known_source: str | None
    known_agrees: bool | None


@dataclass(frozen=True)
class OptimiserRun:
    """One optimiser's answer in ``queenslab optimize``."""

    solver: str
    value: int | None
    bound: int | None
    proved: bool
    seconds: float


@dataclass(frozen=True)
class OptimumReport:
    """``queenslab optimize``: the optimum of one objective on one problem."""

    objective: str
    n: int
    problem: Problem
    optimum: int | None
    proved: bool
    agrees: bool | None
    queens: tuple[tuple[int, int], ...] = field(metadata=ONE_BASED)
    runs: tuple[OptimiserRun, ...] = ()
    time_limit: float | None = None


@dataclass(frozen=True)
class ExportReport:
    """``queenslab export``: a model written as text."""

    model: str
    n: int
    problem: Problem
    symmetry: str
    encoding: str | None
    formulation: str | None
    variables: int | None
    clauses: int | None
    out: str | None
    text: str | None


@dataclass(frozen=True)
class SolutionsReport:
    """``queenslab solutions``: solutions in lexicographic order."""

    n: int
    problem: Problem
    offset: int
    limit: int | None
    listed: int
    format: str
    out: str | None
    solutions: tuple[tuple[int, ...], ...] | None = field(metadata=ONE_BASED)


@dataclass(frozen=True)
class BrokenRule:
    """One broken rule of a placement: the rule, the cells involved and a sentence."""

    rule: str
    cells: tuple[tuple[int, int], ...] = field(metadata=ONE_BASED)
    message: str


@dataclass(frozen=True)
class CheckReport:
    """``queenslab check``: whether a placement is a solution, and why not."""

    n: int
    problem: Problem
    placement: tuple[int, ...] = field(metadata=ONE_BASED)
    valid: bool
    conflicts: tuple[BrokenRule, ...]


@dataclass(frozen=True)
class ShowReport:
    """``queenslab show``: a board drawn as text or a picture."""

    n: int
    problem: Problem | None
    placement: tuple[int, ...] | None = field(metadata=ONE_BASED)
    valid: bool | None
    conflict: str | None
    board: tuple[str, ...] | None
    png: str | None
    svg: str | None
    pixels: tuple[int, int] | None


@dataclass(frozen=True)
class RankReport:
    """``queenslab rank``: a solution's rank in lexicographic order."""

    n: int
    problem: Problem | None
    placement: tuple[int, ...] = field(metadata=ONE_BASED)
    rank: int = field(metadata=ONE_BASED)
    seconds: float
    index: str | None


@dataclass(frozen=True)
class UnrankReport:
    """``queenslab unrank``: the solution of a given rank."""

    n: int
    problem: Problem
    rank: int = field(metadata=ONE_BASED)
    solution: tuple[int, ...] = field(metadata=ONE_BASED)
    seconds: float
    index: str | None


@dataclass(frozen=True)
class Sample:
    """One uniformly drawn solution and its rank."""

    rank: int = field(metadata=ONE_BASED)
    solution: tuple[int, ...] = field(metadata=ONE_BASED)


@dataclass(frozen=True)
class SampleReport:
    """``queenslab sample``: K uniformly random solutions (written as they are drawn)."""

    n: int
    problem: Problem
    seed: int
    index: str | None
    samples: tuple[Sample, ...] = ()


@dataclass(frozen=True)
class Orbit:
    """One orbit: its canonical (fundamental) solution and its size."""

    solution: tuple[int, ...] = field(metadata=ONE_BASED)
    size: int


@dataclass(frozen=True)
class BurnsideReport:
    """The orbits counted by Burnside's lemma, beside the engine's own orbit count."""

    fixed: dict[str, int]
    unique: int
    native_unique: int | None
    agrees: bool | None


@dataclass(frozen=True)
class OrbitsReport:
    """``queenslab orbits``: the fundamental solutions."""

    n: int
    orbits: tuple[Orbit, ...]
    unique: int
    count: int
    complete: bool
    group: tuple[str, ...]
    known_unique: int | None
    agrees: bool
    problem: Problem
    burnside: BurnsideReport | None = None


@dataclass(frozen=True)
class Element:
    """One element of the permutation operation group PO."""

    name: str
    definition: str
    geometry: str
    document_geometry: str
    flags: tuple[str, ...]
    inverse: str


@dataclass(frozen=True)
class SymmetryTableReport:
    """``queenslab symmetry table``: the group's composition table."""

    table: tuple[tuple[str, ...], ...]
    reading: str
    elements: tuple[Element, ...]


@dataclass(frozen=True)
class SymmetryOrbitReport:
    """``queenslab symmetry orbit``: a placement's images, orbit, stabiliser and signature."""

    n: int
    placement: tuple[int, ...] = field(metadata=ONE_BASED)
    valid: bool
    images: dict[str, tuple[int, ...]] = field(metadata=ONE_BASED)
    orbit: tuple[tuple[int, ...], ...] = field(metadata=ONE_BASED)
    size: int
    stabilizer: tuple[str, ...]
    canonical: tuple[int, ...] = field(metadata=ONE_BASED)
    raw_signature: Any
    signature: Any


@dataclass(frozen=True)
class LimitsReport:
    """``queenslab limits``: every declared practical limit."""

    limits: tuple[Any, ...]  # Limit: name, largest, unit, cost, forceable


@dataclass(frozen=True)
class SolveReport:
    """``queenslab solve``: one solution, verified."""

    n: int
    problem: Problem
    backend: str | None
    method: str | None
    seed: int | None
    seconds: float
    verified: bool
    solution: tuple[int, ...] | None = field(metadata=ONE_BASED)
    out: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class IndexEntry:
    """One index file (or partial build) as ``queenslab index info`` lists it."""

    path: str
    bytes: int | None
    status: str
    n: int | None
    depth: int | None
    count: int | None
    rows: int | None
    problem: dict[str, Any] | None
    built: str | None


@dataclass(frozen=True)
class IndexBuildReport:
    """``queenslab index build``: the finished index."""

    path: str
    n: int
    depth: int
    count: int
    rows: int
    bytes: int
    problem: dict[str, Any] | None
    built: str | None
    seconds: float
    status: str


@dataclass(frozen=True)
class IndexInfoReport:
    """``queenslab index info``: the indexes of a directory."""

    directory: str
    indexes: tuple[IndexEntry, ...]


@dataclass(frozen=True)
class IndexVerifyReport:
    """``queenslab index verify``: an index checked completely."""

    path: str
    n: int
    depth: int
    count: int
    rows: int
    problem: Problem
    checks: tuple[str, ...]
    recounted: int
    seconds: float
    status: str


@dataclass(frozen=True)
class SignatureRow:
    """One board size of the orbit-signature experiment."""

    n: int
    criterion: str
    unique: int
    known_unique: int | None
    signatures: int
    collisions: tuple[tuple[tuple[int, ...], ...], ...] = field(metadata=ONE_BASED)
    ambiguous: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Certified:
    """One board size beyond the enumeration, where only the ambiguous solutions (both
    signatures alternating) are grouped into orbits and by signature."""

    n: int
    ambiguous_solutions: int
    ambiguous_orbits: int
    collisions: tuple[tuple[tuple[int, ...], ...], ...] = field(metadata=ONE_BASED)
    seconds: float = 0.0


@dataclass(frozen=True)
class SignatureReport:
    """``queenslab experiment signature``: are orbit signatures unique?"""

    experiment: str
    min_n: int
    max_n: int
    results: tuple[SignatureRow, ...]
    certified: tuple[Certified, ...]
    distinct_signatures: bool
    plot: str | None
    provenance: dict[str, Any]


@dataclass(frozen=True)
class SearchStep:
    """One orbit reached by Zhang and Zhang's orbit-based search."""

    orbit_number: int
    step: int
    parent: int | None
    operation: str
    source: tuple[int, ...] = field(metadata=ONE_BASED)
    source_rank: int | None
    generator: tuple[int, ...] = field(metadata=ONE_BASED)
    generator_rank: int | None
    size: int
    canonical: tuple[int, ...] = field(metadata=ONE_BASED)


@dataclass(frozen=True)
class OrbitSearchReport:
    """``queenslab experiment orbit-search``: the orbits the search reaches."""

    experiment: str
    n: int
    strategy: str
    key: str
    step1_solutions: int
    step1_orbits: int
    found: int
    unique: int
    complete: bool
    coverage: float | None
    trajectory: tuple[SearchStep, ...]
    missing: tuple[tuple[int, ...], ...] = field(metadata=ONE_BASED)
    seconds: float = 0.0
    plot: str | None = None
    provenance: dict[str, Any] | None = None


@dataclass(frozen=True)
class GrowthReport:
    """``queenslab experiment growth``: log Q(n) / n from estimates, against the asymptotics
    (its ``results`` are :class:`queenslab.growth.GrowthRow`)."""

    experiment: str
    results: tuple[Any, ...]
    alpha: float
    alpha_error: float
    max_relative_stderr: float
    confidence: float
    samples_per_n: int | None
    time_per_n: float | None
    seed: int
    threads: int
    method: str
    out: str | None
    plot: str | None
    seconds: float
    provenance: dict[str, Any]


@dataclass(frozen=True)
class WatchReport:
    """``queenslab watch``: a search recorded and drawn as it runs."""

    n: int
    problem: Problem
    method: str
    seed: int | None
    max_steps: int
    steps: int
    complete: bool
    solutions_found: int
    attacking_pairs: int
    final: tuple[int | None, ...] = field(metadata=ONE_BASED)
    solution: tuple[int, ...] | None = field(metadata=ONE_BASED)
    out: str | None
    seconds: float


@dataclass(frozen=True)
class ReplayReport:
    """``queenslab replay``: a trace file read back, and the pictures made of it."""

    path: str
    n: int
    problem: Problem
    method: str
    seed: int | None
    steps: int
    complete: bool
    solutions_found: int
    attacking_pairs: int
    final: tuple[int | None, ...] = field(metadata=ONE_BASED)
    solution: tuple[int, ...] | None = field(metadata=ONE_BASED)
    svg: str | None
    gif: str | None
    mp4: str | None
    frames: str | None
    tree: str | None
    every: int | None
    fps: float | None


@dataclass(frozen=True)
class WarmedSet:
    """One kernel set of ``queenslab warm``: the count method it serves, whether it was
    compiled now (False: it was cached already), and the compile's wall-clock and CPU
    seconds (0 when cached)."""

    method: str
    compiled: bool
    seconds: float
    cpu_seconds: float


@dataclass(frozen=True)
class AheadOfTime:
    """The join's kernels built ahead of time (:mod:`queenslab.native.aot`) as ``queenslab
    warm`` left them: whether they load now (``ready``), whether they were built now
    (``compiled``) and in how many wall-clock and CPU seconds (0 when not), where the
    module is kept, and why it could not be built (``error``; None when it could, or when
    the module is turned off: ``enabled`` False)."""

    enabled: bool
    ready: bool
    compiled: bool
    seconds: float
    cpu_seconds: float
    path: str
    error: str | None


@dataclass(frozen=True)
class WarmReport:
    """``queenslab warm``: the native engine's kernel sets, compiled ahead of any count,
    and the join's kernels built ahead of time."""

    kernels: tuple[WarmedSet, ...]
    ahead_of_time: AheadOfTime
