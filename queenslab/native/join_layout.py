"""How the half-board join cuts its keys into chunks and buckets: the constants and the
layout arithmetic that the join's kernels (:mod:`queenslab.native.join_kernels`, which
compile :func:`key_bits` and :func:`chunk_layout`) and its memory estimate
(:mod:`queenslab.native.join`) share, in plain Python so that the estimate and the
choice of a counting method import no compiler.
"""

from __future__ import annotations

__all__ = [
    "MAX_CHUNK",
    "MAX_CHUNKS",
    "MAX_N",
    "MIN_CHUNK",
    "MIN_CHUNKS",
    "PAD",
    "SIEVE_CUTS",
    "SIEVE_MAX_CUTS",
    "SIEVE_MIN_KEYS",
    "chunk_layout",
    "key_bits",
]

#: Fewest and most chunks a table's keys are cut into (:func:`chunk_layout`): a query ANDs
#: one table row per chunk, so fewer and wider chunks mean fewer loads per 64 keys, and each
#: chunk of w bits has ``2 ** w`` rows to build. Four chunks of 8 bits instead of five of 6
#: for n = 16 and 17 (30 key bits) took 5% longer at n = 17 (Intel Xeon, 2026-12-01):
#: their tables are short, so the rows to build outweigh the loads saved.
MIN_CHUNKS = 5
MAX_CHUNKS = 6
#: Narrowest and widest chunk, in bits. Sampled tasks, the pair count of each width
#: interleaved in one process (2-core AMD EPYC with AVX-512, 2026-11-29): at n = 18 and 19
#: (34 key bits) 7 bits (five chunks) beat 6 (six) by 8% and 7%; at n = 20 (38 bits) 8
#: bits (five chunks) beat 6 (seven) by 12% and 7 (six) by 8%, at n = 21 by 15% and 7%; at
#: n = 22 (42 bits) 8 bits (six chunks) and 9 (five) were level and 10 was 17% slower.
MIN_CHUNK = 6
MAX_CHUNK = 8
#: Largest n: a key of ``2 * (2 * (n // 2) - 1)`` bits fits :data:`MAX_CHUNKS` chunks of
#: :data:`MAX_CHUNK` bits (a half-board word, ``2 * (n - 1)`` bits, fits an int64 well beyond).
MAX_N = 25
#: Key bits a long bit-sliced table is bucketed by (``join_kernels._cuts``), so that a query skips
#: the buckets of keys that share its bits there: 3 from :data:`SIEVE_MIN_KEYS` keys, as
#: in the table of E. Kluev's N-Queens-Count-Sol for n = 20 and 21, and one more per doubling of the
#: table beyond (at most :data:`SIEVE_MAX_CUTS`), so that a bucket keeps 1,000 to 2,000
#: keys. Since the queries are counted block by block (a bucket costs a query no more
#: than its blocks), smaller buckets pay: on samples of tasks (Intel Xeon, 2026-12-02)
#: buckets of 1,000 to 2,000 keys made the pair count of n = 20 0.76x of that with 3,000
#: to 6,000 (about six bits against four), n = 21 0.78x and n = 22 0.76x (eight bits
#: against six or seven), and left n = 18 and 19 level; at n = 20 buckets of 500 to 1,000
#: keys were level with them and of 2,000 to 4,000 keys 1.1x slower; four bits from 16,384
#: keys were 1.2x slower at n = 21 (1.41 s against 1.22 s).
SIEVE_CUTS = 3
#: Tables shorter than this many keys are not bucketed (at n = 18, 4,000 to 17,500 keys a
#: task, bucketing from 4,096 or 8,192 keys was level with none).
SIEVE_MIN_KEYS = 8192
#: Most key bits a table is bucketed by.
SIEVE_MAX_CUTS = 8
#: A bucket's words are padded to a multiple of this many (with empty slots, in no row):
#: the pair count reads a table by blocks of 8 words (``jit.BLOCK``, one 512-bit vector a
#: row), so a bucket must be whole blocks, or a block would hold keys of two buckets and
#: count keys against queries that share their bucket bits (``join_kernels`` refuses to
#: load otherwise). Before the blocks, padding to 8 words made the pair count of sampled
#: tasks 4-5% faster at n = 20 and 8-14% at n = 22 on an Intel Xeon (2026-12-01), LLVM's
#: vector loop then ending in shorter vectors and a scalar remainder.
PAD = 8


# The two functions below are compiled by numba for the kernels as they are written here:
# integers and tuples only.


def key_bits(n: int) -> int:
    """Bits of n's half-board keys: the ``2m - 1`` diagonals of each direction that cross
    both halves, ``m = n // 2``.

    Examples
    --------
    >>> key_bits(16), key_bits(17), key_bits(22)
    (30, 30, 42)
    """
    return 2 * (2 * (n // 2) - 1)


def chunk_layout(bits: int) -> tuple[int, int]:
    """``(width, chunks)``: how keys of ``bits`` bits are cut for their tables: the fewest
    chunks of at most :data:`MAX_CHUNK` bits that hold them (at least :data:`MIN_CHUNKS`),
    each of the least width from :data:`MIN_CHUNK` that holds them.

    Examples
    --------
    >>> chunk_layout(30), chunk_layout(34), chunk_layout(42)
    ((6, 5), (7, 5), (7, 6))
    """
    nchunks = max(MIN_CHUNKS, (bits + MAX_CHUNK - 1) // MAX_CHUNK)
    return max(MIN_CHUNK, (bits + nchunks - 1) // nchunks), nchunks
