"""The figures of the documentation site, drawn with :mod:`queenslab.plot`.

:func:`build` returns ``{path under the site: SVG bytes}`` for the mkdocs hook, which adds
the files to the site; the pages embed them as ``figures/<name>.svg``. It takes a few
seconds and gives the same bytes every time:

* ``figures/counts.svg`` -- solution counts by n: OEIS A000170 and A002562 from
  :mod:`queenslab.data`, the toroidal and superqueens counts counted by the native engine;
* ``figures/orbit-coverage.svg`` -- the orbit-based search's coverage, n = 5..12;
* ``figures/benchmark-ratios.svg`` -- the benchmarks' measured ratios against their targets;
* ``figures/minconflicts-steps.svg`` -- min-conflicts repair steps by n, seeds 0..4, counted
  here (the steps do not depend on the machine);
* ``figures/rank-times.svg`` -- rank and unrank times without an index;
* ``figures/growth.svg`` -- log Q(n)/n by n against Simkin's asymptotics, drawn from the
  JSON record of ``queenslab experiment growth`` kept in ``docs/assets/growth.json``
  (:func:`growth_rows`; the run is not repeated while the site is built);
* ``figures/NAME-dark.svg`` -- each of the plots above in :mod:`queenslab.plot`'s dark
  style, for the site's dark colour scheme (the hook shows it there instead);
* ``figures/watch-selfcorrect.svg``, ``figures/watch-backtrack.svg`` -- animated SVGs of two
  traced searches (:mod:`queenslab.trace`): the self-correcting search on 8 queens and
  backtracking through every solution of 6 queens.

Measured times and ratios are not re-measured while the site is built: they are the
numbers recorded on the benchmarks and experiments pages (:data:`BENCHMARK_RATIOS`,
:data:`ORBIT_SEARCH`, :data:`RANK_TIMES`), copied here with the place each comes from. Each
row keeps the text the page shows, and ``tests/test_plot.py`` checks that the page still
shows it, so a re-measured page with a stale figure fails the tests. (Parsing the pages'
prose tables instead would break whenever their wording changes.)

``python docs/figures.py DIR`` writes the figures to DIR for a look.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: (label, measured ratio, target, text of the measurement on docs/benchmarks.md).
#: From the page's "Summary of the targets" (the runs of 2026-11-23 and 2026-11-25); a ratio
#: is "how many times faster", except the Dask overhead, which is a slowdown (lower is better).
#: The C comparison is drawn as C / engine (the page shows both, 0.70x and 1.42x).
BENCHMARK_RATIOS = (
    # "Native counting: the symmetric engine against a mirror-halved counter", n = 16
    ("symmetric engine / mirror-halved counter, 1 thread, n = 16", 3.86, 2.2, "3.86x"),
    ("native engine, 2 threads / 1 thread, n = 16", 1.97, 1.7, "1.97x"),
    # "Native counting", "With the SIMD lanes": C reference / engine, the target being 1 / 0.8
    ("C reference / symmetric engine (same algorithm), 1 thread, n = 17", 1.42, 1.25, "1.42x"),
    # "Backends: counting with and without lex-leader symmetry breaking", n = 12
    ("CP-SAT integer, lex-leader / plain, n = 12", 6.60, 4.0, "6.60x"),
    ("CP-SAT Boolean, lex-leader / plain, n = 12", 5.27, 4.0, "5.27x"),
    # "Edited variants: native against CP-SAT and SAT": the smallest ratio of a solver to native
    ("edited variants, slowest solver case / native, n = 8..12", 5.5, 1.0, "5.5x"),
    # "Counting on a Dask cluster", "With the SIMD lanes", n = 17: the medians of the four runs
    ("Dask, 1 worker / 2 workers, n = 17", 1.81, 1.8, "1.81x"),
    ("Dask overhead, 2 workers / native 2 threads, n = 17 (lower is better)", 1.063, 1.15, "1.063x"),
)

#: n -> (orbits found, true orbits), from the table of docs/experiments.md, "Does the
#: orbit-based search find every orbit? (Zhang and Zhang)" (commit ea0d70d, 2026-11-23).
ORBIT_SEARCH = {
    5: (2, 2),
    6: (1, 1),
    7: (6, 6),
    8: (12, 12),
    9: (45, 46),
    10: (84, 92),
    11: (276, 341),
    12: (1522, 1787),
}

#: (n, 1-based rank, unrank seconds, rank seconds) without an index, from the table of
#: docs/benchmarks.md, "Ranking against N. Gupta's methods" (commit 352f1c4, 2026-11-23).
RANK_TIMES = (
    (8, 24, 0.0004, 0.0002),
    (8, 47, 0.0004, 0.0003),
    (8, 91, 0.0003, 0.0002),
    (8, 92, 0.0003, 0.0002),
    (10, 100, 0.0007, 0.0004),
    (10, 182, 0.0008, 0.0004),
    (10, 363, 0.0007, 0.0004),
    (10, 723, 0.0005, 0.0002),
    (10, 724, 0.0005, 0.0003),
    (12, 100, 0.0049, 0.0004),
    (12, 3551, 0.0104, 0.0096),
    (12, 7101, 0.0056, 0.0045),
    (12, 14199, 0.0047, 0.0003),
    (12, 14200, 0.0056, 0.0005),
    (14, 100, 0.0584, 0.0048),
    (14, 91400, 0.0770, 0.0568),
    (14, 182799, 0.0521, 0.0496),
    (14, 365595, 0.0519, 0.0007),
    (14, 365596, 0.1087, 0.0007),
    (15, 100, 0.1605, 0.0098),
    (15, 569797, 0.3982, 0.2667),
    (15, 1139593, 0.1589, 0.0994),
    (15, 2279183, 0.2089, 0.0023),
    (15, 2279184, 0.1532, 0.0007),
    (16, 100, 0.6553, 0.0083),
    (16, 3693129, 1.4417, 1.0285),
    (16, 7386257, 0.7794, 0.7938),
    (16, 14772511, 0.6129, 0.0052),
    (16, 14772512, 0.7172, 0.0087),
)

#: The JSON record (``--out DIR``'s growth.json) of the growth run the page "Estimating
#: counts" shows; tests/test_growth.py checks that the page's tables are this run.
GROWTH_RECORD = Path(__file__).resolve().parent / "assets" / "growth.json"


def growth_rows() -> list:
    """The rows (:class:`queenslab.growth.GrowthRow`) of :data:`GROWTH_RECORD`."""
    import json

    from queenslab.growth import GrowthRow

    record = json.loads(GROWTH_RECORD.read_text(encoding="utf-8"))
    return [GrowthRow(**row) for row in record["results"]]


#: Board sizes and seeds of the min-conflicts figure (about a second in all).
MINCONFLICTS_NS = (8, 16, 32, 64, 100, 1_000, 10_000, 100_000, 1_000_000)
MINCONFLICTS_SEEDS = range(5)


def minconflicts_runs() -> list[tuple[int, int]]:
    """``(n, steps)`` of ``min_conflicts(n, seed=s)`` for every n and seed of the figure.

    The steps are those of every try: a try that ran out of steps counts its whole
    budget (``50 n + 500``, the default).
    """
    from queenslab.heuristics import min_conflicts

    runs = []
    for n in MINCONFLICTS_NS:
        for seed in MINCONFLICTS_SEEDS:
            _, stats = min_conflicts(n, seed=seed, return_stats=True)
            runs.append((n, (stats["tries"] - 1) * (50 * n + 500) + stats["steps"]))
    return runs


def watch_animations() -> dict[str, bytes]:
    """The animated traces of the "Watching a search" page (the same bytes every time:
    the searches are seeded or deterministic)."""
    from queenslab import Problem
    from queenslab.trace import record, trace_svg

    traces = {
        "figures/watch-selfcorrect.svg": record(Problem(8), "selfcorrect", seed=1),
        "figures/watch-backtrack.svg": record(Problem(6), "backtrack", solutions=0),
    }
    return {path: trace_svg(trace, frame_seconds=0.15).encode() for path, trace in traces.items()}


def plots(runs: list[tuple[int, int]]) -> dict[str, object]:
    """The plots of the site, drawn in the current :func:`queenslab.plot.style`.

    Parameters
    ----------
    runs : list of tuple
        The min-conflicts runs (:func:`minconflicts_runs`), counted once for both styles.

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        ``{"figures/<name>.svg": figure}``.
    """
    from queenslab import plot
    from queenslab.growth import figure as growth_figure

    return {
        "figures/counts.svg": plot.counts(),
        "figures/orbit-coverage.svg": plot.orbit_coverage(
            {n: 100 * found / total for n, (found, total) in ORBIT_SEARCH.items()}
        ),
        "figures/benchmark-ratios.svg": plot.ratios(
            [(label, ratio, target) for label, ratio, target, _ in BENCHMARK_RATIOS],
            title="Measured ratios against their targets",
        ),
        "figures/minconflicts-steps.svg": plot.minconflicts_steps(runs),
        "figures/rank-times.svg": plot.rank_times([(n, rank, unrank) for n, _, unrank, rank in RANK_TIMES]),
        "figures/growth.svg": growth_figure(growth_rows()),
    }


#: The plots' styles and the suffix of their files: the light ones are the pages' own
#: pictures, the hook shows each dark one instead in the site's dark (slate) scheme.
STYLES = {"light": "", "dark": "-dark"}


def build() -> dict[str, bytes]:
    """Draw every figure of the site.

    Returns
    -------
    dict of str to bytes
        ``{"figures/<name>.svg": SVG bytes}``: the keys are the files' paths relative to
        the site's root. Each plot is there twice, ``<name>.svg`` in the light style and
        ``<name>-dark.svg`` in the dark one.
    """
    from queenslab import plot

    runs = minconflicts_runs()
    out = {}
    for style, suffix in STYLES.items():
        with plot.style(style):
            for path, figure in plots(runs).items():
                out[path.removesuffix(".svg") + suffix + ".svg"] = plot.render(figure, "svg")
    out.update(watch_animations())
    return out


def main(argv: list[str]) -> int:
    """``python docs/figures.py DIR``: write the figures under DIR."""
    if len(argv) != 1:
        print("usage: python docs/figures.py DIR", file=sys.stderr)
        return 2
    for name, data in build().items():
        path = Path(argv[0]) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
