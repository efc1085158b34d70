"""Output files are written whole or not at all, .npy output is streamed, and unusable
output paths and malformed placement files are errors (exit 2), never tracebacks."""

import io
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import example, given, strategies as st

import queenslab.ranking.lex as lex
from queenslab.cli import main
from queenslab.errors import InvalidPlacement, QueensError
from queenslab.outfile import NpyRows, atomic_output, check_output_path
from queenslab.placement_file import read_placement, write_placement


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def interrupt_after(batches, monkeypatch, exc=KeyboardInterrupt):
    """Make the solution stream yield ``batches`` real batches, then raise ``exc``
    (as Ctrl-C does in the middle of an enumeration)."""
    real = lex.solution_batches

    def stream(problem, **kw):
        for i, arr in enumerate(real(problem, **kw)):
            if i == batches:
                raise exc()
            yield arr
        raise exc()

    monkeypatch.setattr(lex, "solution_batches", lambda problem, **kw: stream(problem, batch=64, **kw))


def listing(d):
    return sorted(os.listdir(d))


# ----------------------------------------------------------------------- written whole or not at all


@pytest.mark.parametrize("fmt,name", [("npy", "s.npy"), ("spaces", "s.txt"), ("json", "s.jsonl")])
@pytest.mark.parametrize("existing", [False, True])
def test_interrupted_solutions_leave_no_file_and_keep_an_old_one(capsys, monkeypatch, tmp_path, fmt, name, existing):
    target = tmp_path / name
    if existing:
        target.write_text("the old file\n")
    interrupt_after(3, monkeypatch)
    code, out, err = run(capsys, "solutions", "10", "--format", fmt, "--out", target)
    assert code == 130 and "interrupted" in err
    if existing:
        assert target.read_text() == "the old file\n"
        assert listing(tmp_path) == [name]
    else:
        assert listing(tmp_path) == []


@pytest.mark.parametrize("fmt", ["npy", "digits"])
def test_stop_requested_while_writing_stops_the_write(capsys, monkeypatch, tmp_path, fmt):
    from queenslab import interrupt

    def stream(problem, **kw):  # a source that never looks at the stop flag
        for i in range(10**6):
            if i == 3:
                interrupt.request()  # what the main thread does on Ctrl-C
            yield np.zeros((1, problem.n), np.int64)

    monkeypatch.setattr(lex, "solution_batches", stream)
    code, _, err = run(capsys, "solutions", "8", "--format", fmt, "--out", tmp_path / "s", "--limit", 10**6)
    assert code == 130 and "interrupted" in err
    assert listing(tmp_path) == [] and not interrupt.requested()


def test_failed_solutions_write_is_an_error_and_leaves_no_file(capsys, monkeypatch, tmp_path):
    interrupt_after(2, monkeypatch, exc=lambda: OSError(28, "No space left on device"))
    target = tmp_path / "s.npy"
    code, out, err = run(capsys, "solutions", "10", "--format", "npy", "--out", target, "--json")
    assert code == 2 and "No space left on device" in err and str(target) in err
    assert json.loads(out)["kind"] == "QueensError"
    assert listing(tmp_path) == []


def _write_half_then_interrupt(*args, **kwargs):
    """A writer (np.save, Image.save) stopped by Ctrl-C after it wrote the start of the file."""
    target = next(a for a in args if isinstance(a, (str, os.PathLike)) or hasattr(a, "write"))
    if hasattr(target, "write"):
        target.write(b"\x93NUMPY the first half")
    else:
        with open(target, "wb") as fh:
            fh.write(b"\x93NUMPY the first half")
    raise KeyboardInterrupt


def test_solve_and_show_write_whole_files_or_none(capsys, monkeypatch, tmp_path):
    fail = _write_half_then_interrupt

    old = tmp_path / "q.npy"
    old.write_bytes(b"old")
    with monkeypatch.context() as m:
        m.setattr(np, "save", fail)
        code, _, _ = run(capsys, "solve", "50", "--out", old)
    assert code == 130 and old.read_bytes() == b"old" and listing(tmp_path) == ["q.npy"]
    code, _, _ = run(capsys, "solve", "50", "--out", old)
    assert code == 0 and np.array_equal(read_placement(old), np.asarray(_construct(50)))

    pytest.importorskip("PIL")
    from PIL import Image

    with monkeypatch.context() as m:
        m.setattr(Image.Image, "save", fail)
        code, _, _ = run(capsys, "show", "2413", "--png", tmp_path / "q.png")
    assert code == 130 and listing(tmp_path) == ["q.npy"]
    code, _, _ = run(capsys, "show", "2413", "--png", tmp_path / "q.png", "--bits")
    assert code == 0 and Image.open(tmp_path / "q.png").size == (4, 4)
    code, _, _ = run(capsys, "show", "2413", "--png", tmp_path / "q.png", "--scale", 10)
    assert code == 0 and Image.open(tmp_path / "q.png").size == (40, 40)


def _construct(n):
    from queenslab.heuristics import solve

    return solve(n)


def test_atomic_output_replaces_only_on_success(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    with pytest.raises(RuntimeError), atomic_output(target) as fh:
        fh.write("new, but never finished")
        assert target.read_text() == "old"  # the new text goes elsewhere until the end
        raise RuntimeError("stop")
    assert target.read_text() == "old" and listing(tmp_path) == ["f.txt"]
    with atomic_output(target) as fh:
        fh.write("new")
    assert target.read_text() == "new" and listing(tmp_path) == ["f.txt"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # an existing file keeps its permissions
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_output(link) as fh:
        fh.write("through the link")
    assert link.is_symlink() and target.read_text() == "through the link"


@pytest.mark.slow
def test_sigint_during_a_real_npy_enumeration_leaves_the_old_file(tmp_path):
    target = tmp_path / "s16.npy"
    target.write_bytes(b"the old file")
    proc = subprocess.Popen(
        [sys.executable, "-m", "queenslab", "solutions", "16", "--format", "npy", "--out", str(target)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may ignore SIGINT
    )
    try:
        deadline = time.monotonic() + 120

        def partial():  # the temporary file, once solutions are being written to it
            return [f for f in tmp_path.iterdir() if f.name != target.name and f.stat().st_size > 1 << 20]

        while not partial():
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "no temporary file appeared"
            time.sleep(0.05)
        time.sleep(1.5)
        assert proc.poll() is None, "the enumeration finished before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert target.read_bytes() == b"the old file"
    assert listing(tmp_path) == [target.name]


# ----------------------------------------------------------------------- .npy streamed


def test_npy_output_loads_and_equals_the_text_output(capsys, tmp_path):
    f = tmp_path / "s.npy"
    for args in ([], ["--offset", "100", "--limit", "250"], ["--toroidal"], ["--fix", "1,2"]):
        code, text, _ = run(capsys, "solutions", "10", *args)
        assert code == 0
        expected = np.array([[int(c) - 1 for c in line.split()] for line in text.splitlines()], np.int64)
        code, _, _ = run(capsys, "solutions", "10", "--format", "npy", "--out", f, *args)
        arr = np.load(f, allow_pickle=False)
        assert code == 0 and arr.dtype == np.int64
        assert arr.shape == (len(expected), 10) and np.array_equal(arr, expected.reshape(-1, 10))
        assert f.stat().st_size == NpyRows.HEADER_BYTES + arr.nbytes  # no space reserved beyond the rows


def test_npy_output_with_no_rows(capsys, tmp_path):
    f = tmp_path / "none.npy"
    code, _, _ = run(capsys, "solutions", "3", "--format", "npy", "--out", f)
    assert code == 0 and np.load(f).shape == (0, 3)


def test_npy_rows_are_streamed_to_disk_in_bounded_memory(capsys, monkeypatch, tmp_path):
    n, batch, batches = 17, 4096, 200  # 111 MB of rows, 0.56 MB a batch
    row_bytes = n * 8
    calls, sizes = [], []

    def on_disk():  # bytes in the temporary file the command writes to
        return sum(f.stat().st_size for f in tmp_path.iterdir())

    def stream(problem, **kw):
        calls.append(kw)
        for i in range(batches):
            sizes.append((i, on_disk()))
            yield np.full((batch, n), i % n, np.int64)

    monkeypatch.setattr(lex, "solution_batches", stream)
    f = tmp_path / "big.npy"
    tracemalloc.start()
    try:
        code, _, err = run(capsys, "solutions", n, "--format", "npy", "--out", f, "--limit", batch * batches)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert len(calls) == 1  # one pass over the solutions, not one to count and one to write
    for i, size in sizes:  # each batch reaches the file before the next one is made, and no space is reserved
        assert (i - 1) * batch * row_bytes <= size - NpyRows.HEADER_BYTES <= i * batch * row_bytes
    assert peak < 10 * batch * row_bytes, f"peak {peak / 1e6:.0f} MB for batches of {batch * row_bytes / 1e6:.1f} MB"
    arr = np.load(f, mmap_mode="r")
    assert arr.shape == (batch * batches, n)
    assert np.array_equal(arr[::batch, 0], np.arange(batches) % n)
    assert f.stat().st_size == NpyRows.HEADER_BYTES + batch * batches * row_bytes


def test_npy_refused_up_front_when_the_disk_is_too_small(capsys, monkeypatch, tmp_path):
    import queenslab.cli.placements as placements

    monkeypatch.setattr(placements, "free_bytes", lambda path: 10_000)
    f = tmp_path / "s.npy"
    code, _, err = run(capsys, "solutions", "8", "--format", "npy", "--out", f)
    assert code == 0, err  # 92 rows of 8 columns fit in 10 kB
    code, _, err = run(capsys, "solutions", "10", "--format", "npy", "--out", f)
    assert code == 2 and "724 solutions" in err and "58.0 kB" in err and "10.0 kB is free" in err
    assert listing(tmp_path) == ["s.npy"] and np.load(f).shape == (92, 8)  # the first run's file
    with pytest.raises(QueensError, match=r"95,815,104 solutions of 17 int64 columns need 13.0 GB"):
        placements._check_room(str(f), 95_815_104, 17)


def test_npy_rows_header_is_rewritten_in_place():
    buf = io.BytesIO()
    rows = NpyRows(buf, 3)
    buf.seek(0)
    assert np.lib.format.read_magic(buf) == (1, 0)
    assert np.lib.format.read_array_header_1_0(buf) == ((0, 3), False, np.dtype("<i8"))
    for k in range(5):
        rows.write(np.full((k, 3), k))
    assert rows.finish() == 10 and len(buf.getvalue()) == NpyRows.HEADER_BYTES + 10 * 3 * 8
    buf.seek(0)
    assert np.load(buf).tolist() == [[k] * 3 for k in range(5) for _ in range(k)]
    big = NpyRows(io.BytesIO(), 10**6)
    big.rows = 2**63 - 1  # the largest count still fits the reserved header
    assert len(big._header(big.rows)) == NpyRows.HEADER_BYTES


# ----------------------------------------------------------------------- unusable output paths


def _unwritable(tmp_path):
    return [
        ("", "empty file name"),
        (str(tmp_path / "nodir" / "x"), "does not exist"),
        (str(tmp_path), "is a directory"),
        (str(tmp_path) + "/", "is a directory"),
        ("/dev/null", "not a regular file"),
        ("/proc/version", "cannot create a file in '/proc'"),
    ]


@pytest.mark.parametrize("case", range(6))
@pytest.mark.parametrize(
    "command",
    [
        ["solutions", "6", "--out"],
        ["solutions", "6", "--format", "npy", "--out"],
        ["solve", "8", "--out"],
        ["show", "2413", "--png"],
    ],
)
def test_unwritable_output_paths_are_errors(capsys, tmp_path, command, case):
    path, match = _unwritable(tmp_path)[case]
    before = listing(tmp_path)
    code, out, err = run(capsys, *command, path)
    assert code == 2 and err.startswith("error: ") and match in err, err
    assert out == "" and listing(tmp_path) == before


def test_directory_refusing_new_files_is_an_error(capsys, monkeypatch, tmp_path):
    real_open = os.open

    def refuse(path, *args, **kwargs):  # as a read-only directory does (root may write anywhere)
        if str(path).endswith(".part"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    code, _, err = run(capsys, "solutions", "6", "--out", tmp_path / "s.txt")
    assert code == 2 and "cannot create a file" in err and "Permission denied" in err
    assert listing(tmp_path) == []


def test_check_output_path_touches_nothing(tmp_path):
    f = tmp_path / "keep.txt"
    f.write_text("kept")
    assert check_output_path(f) == str(f) and f.read_text() == "kept" and listing(tmp_path) == ["keep.txt"]
    assert check_output_path(tmp_path / "new.txt") and listing(tmp_path) == ["keep.txt"]


# ----------------------------------------------------------------------- placement files


@pytest.mark.parametrize(
    "content,match",
    [
        ("2 ² 1 3".encode(), "'²' is not a column number"),
        (b"2 --1 1 3", "'--1' is not a column number"),
        (b"2 4 1 12345678901234567890", "row 4 has column 12345678901"),
        (b"2 4 1 " + b"9" * 5000, r"\(5000 digits\)"),
        (b"2 4 \xff\xfe 1 3", "not UTF-8 text"),
        (b"2 4 1.5 3", "'1.5' is not a column number"),
        (b"2 \xd9\xa1 1 3", "is not a column number"),  # an Arabic-Indic digit one
        (b"", "holds no columns"),
        (b" , [ ] ", "holds no columns"),
        (b"2 4 1 -3", "row 4 has column -3"),
        (b"2 4 1 0", "row 4 has column 0"),
    ],
)
def test_malformed_text_placement_files(capsys, tmp_path, content, match):
    f = tmp_path / "p.txt"
    f.write_bytes(content)
    with pytest.raises(InvalidPlacement, match=match):
        read_placement(f)
    code, _, err = run(capsys, "show", "--from", f)
    assert code == 2 and err.startswith("error: ")


class _Marker:
    """Unpickling this creates a file: proof that a pickle was (not) loaded."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _npy_bytes(arr, **kw):
    buf = io.BytesIO()
    np.save(buf, arr, **kw)
    return buf.getvalue()


def _npy_header(descr, shape, fortran="False"):
    text = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}, }}"
    body = (text + " " * (118 - len(text)) + "\n").encode("latin1")
    return np.lib.format.magic(1, 0) + len(body).to_bytes(2, "little") + body


def test_malformed_npy_placement_files(capsys, tmp_path):
    marker = tmp_path / "unpickled"
    good = _npy_bytes(np.array([2, 4, 1, 3]))
    cases = {
        "object": (_npy_bytes(np.array([_Marker(str(marker))], dtype=object), allow_pickle=True), "dtype object"),
        "float": (_npy_bytes(np.array([2.0, 4.0, 1.0, 3.0])), "dtype float64"),
        "bool": (_npy_bytes(np.array([True])), "dtype bool"),
        "structured": (_npy_bytes(np.zeros(2, dtype=[("a", "<i4")])), "dtype"),
        "2d": (_npy_bytes(np.ones((2, 2), np.int64)), r"shape \(2, 2\)"),
        "scalar": (_npy_bytes(np.int64(1)), r"shape \(\)"),
        "empty": (_npy_bytes(np.zeros(0, np.int64)), r"shape \(0,\)"),
        "truncated": (good[:-5], "truncated"),
        "header only": (good[:20], "not a .npy array file"),
        "not npy": (b"2 4 1 3", "not a .npy array file"),
        "bad magic version": (good[:6] + b"\x09\x00" + good[8:], "not a .npy array file"),
        "bad header": (good[:10] + b"{'descr': <i8 nonsense" + good[32:], "not a .npy array file"),
        "huge shape": (_npy_header("<i8", "(1000000000000000000,)") + good[-32:], "truncated"),
        "big uint64": (_npy_bytes(np.array([2**64 - 1, 1], np.uint64)), "row 1 has column 18446744073709551615"),
        "int8 out of range": (_npy_bytes(np.array([-100, 1], np.int8)), "row 1 has column -100"),
        "npz": (b"PK\x03\x04" + good, "not a .npy array file"),
    }
    for name, (data, match) in cases.items():
        f = tmp_path / f"{name.replace(' ', '_')}.npy"
        f.write_bytes(data)
        with pytest.raises(InvalidPlacement, match=match):
            read_placement(f)
        code, _, err = run(capsys, "show", "--from", f)
        assert code == 2 and err.startswith("error: "), (name, err)
    assert not marker.exists()


def test_placement_files_read_what_they_should(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("[2, 4,\n 1, 3]\n")
    assert read_placement(f).tolist() == [1, 3, 0, 2]
    f.write_text("+2 04 1 3")
    assert read_placement(f).tolist() == [1, 3, 0, 2]
    g = tmp_path / "p.npy"
    for dtype in (np.int8, np.uint16, ">i4", np.int64):
        g.write_bytes(_npy_bytes(np.array([1, 3, 0, 2], dtype=dtype)))
        assert read_placement(g).tolist() == [1, 3, 0, 2] and read_placement(g).dtype == np.int64
    write_placement([1, 3, 0, 2], g)
    assert read_placement(g).tolist() == [1, 3, 0, 2]


def _read_bytes(data, suffix):
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "p" + suffix)
        with open(f, "wb") as fh:
            fh.write(data)
        try:
            arr = read_placement(f)
        except InvalidPlacement:
            return None
    assert arr.dtype == np.int64 and arr.ndim == 1 and arr.size > 0
    assert ((arr >= 0) & (arr < arr.size)).all()
    return arr


@given(st.binary(max_size=300), st.sampled_from([".txt", ".npy", ""]))
def test_random_bytes_read_or_refused(data, suffix):
    _read_bytes(data, suffix)


@given(
    st.sampled_from(["<i8", "|u1", ">i2", "<f8", "|O", "<U3", "|b1", "V8", "<i8x"]),
    st.sampled_from(["(4,)", "(0,)", "()", "(2, 2)", "(-1,)", "(99999999999,)", "(4, )", "[4]", "4"]),
    st.sampled_from(["False", "True", "0", "None"]),
    st.binary(max_size=64),
)
@example("<i8", "(-1,)", "False", b"")  # a negative length
@example("|O", "(4,)", "False", b"\x80\x04N.")  # an object array: never unpickled
def test_random_npy_headers_read_or_refused(descr, shape, fortran, data):
    _read_bytes(_npy_header(descr, shape, fortran) + data, ".npy")


@given(st.text(max_size=60), st.sampled_from([".txt", ".npy"]))
def test_random_text_read_or_refused(text, suffix):
    arr = _read_bytes(text.encode("utf-8", "surrogatepass"), suffix)
    if arr is not None and suffix == ".txt":
        assert all(ch.isspace() or ch in "0123456789+-,[]()" for ch in text)


# ----------------------------------------------------------------------- the path policy

#: Every command option that writes a file, with a command that writes it cheaply.
WRITERS = [
    ["solutions", "6", "--out"],
    ["solutions", "6", "--format", "npy", "--out"],
    ["solve", "8", "--out"],
    ["export", "cnf", "6", "--out"],
    ["show", "2413", "--png"],
    ["show", "2413", "--svg"],
    ["experiment", "signature", "--max-n", "6", "--plot"],
]


def _tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: " ".join(c[:2]) + " " + c[-1])
def test_a_dangling_link_is_refused_and_nothing_is_created_elsewhere(capsys, tmp_path, command):
    named, elsewhere = tmp_path / "named", tmp_path / "elsewhere"
    named.mkdir()
    elsewhere.mkdir()
    (named / "out").symlink_to(elsewhere / "target")
    code, out, err = run(capsys, *command, named / "out")
    assert code == 2 and err.startswith("error: ") and "symbolic link" in err and "does not exist" in err, err
    assert _tree(elsewhere) == [] and _tree(named) == ["out"]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: " ".join(c[:2]) + " " + c[-1])
def test_a_read_only_file_is_refused_not_replaced(capsys, tmp_path, command):
    f = tmp_path / "kept"
    f.write_text("protected")
    f.chmod(0o444)
    code, _, err = run(capsys, *command, f)
    assert code == 2 and "read-only" in err, err
    assert f.read_text() == "protected" and _tree(tmp_path) == ["kept"]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: " ".join(c[:2]) + " " + c[-1])
def test_a_name_too_long_for_the_file_system_is_an_error(capsys, tmp_path, command):
    code, _, err = run(capsys, *command, tmp_path / ("x" * 300 + ".out"))
    assert code == 2 and err.startswith("error: ") and "file name has" in err and "Traceback" not in err, err
    assert _tree(tmp_path) == []


def test_a_link_to_an_existing_file_replaces_that_file_and_keeps_the_link(capsys, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    (tmp_path / "link.txt").symlink_to(real)
    code, _, _ = run(capsys, "solve", "8", "--out", tmp_path / "link.txt")
    assert code == 0 and (tmp_path / "link.txt").is_symlink()
    assert real.read_text() != "old" and _tree(tmp_path) == ["link.txt", "real.txt"]
