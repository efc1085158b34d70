"""Output files that are never half-written.

Every file queenslab writes on request (``solutions --out``, ``solve --out``,
``show --png``, :func:`~queenslab.placement_file.write_placement`,
:func:`~queenslab.viz.write_png`) goes through :func:`atomic_output`: the data is written
to a temporary file next to the target and renamed over it (``os.replace``) only once it
is complete. On an error or an interrupt (Ctrl-C) the temporary file is removed and a
file that already had the target's name is left as it was. So a file with the target's
name is either the old one or a complete new one, never the beginning of a new one.

:class:`NpyRows` streams the rows of a two-dimensional ``.npy`` array to such a file as
they come, and writes the number of rows into the header at the end: memory stays at
one batch of rows however many there are.

Unusable paths (empty, a directory, a device, a missing or read-only directory, a
read-only file, a dangling symbolic link, a name longer than the file system allows) are
refused with a :class:`~queenslab.errors.QueensError` that names the path and says why
(:func:`output_target` is the one policy, also for the index and the ledger);
:func:`check_output_path` does that before any work starts. :func:`check_distinct`
refuses, before anything is written, an output that is one of the command's inputs (also
through a link) or that another output of the same command also names.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from .errors import QueensError

__all__ = ["atomic_output", "staged", "check_output_path", "check_distinct", "output_target", "free_bytes", "NpyRows"]

#: Suffix of the temporary files (hidden: ``.NAME.XXXXXXXX.part``).
TEMP_SUFFIX = ".part"


def _label(path: object, what: str | None) -> str:
    return f"{what} {str(path)!r}" if what else repr(str(path))


def _as_text(path: object) -> str:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise QueensError(f"an output path must be a file name, got {type(path).__name__}")
    return os.fsdecode(path)


def _name_limits(directory: Path) -> tuple[int, int]:
    """The longest file name and path the file system of ``directory`` allows."""
    try:
        return os.pathconf(directory, "PC_NAME_MAX"), os.pathconf(directory, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows) or no such directory yet
        return 255, 4096


def output_target(path: object, what: str | None = None) -> Path:
    """The file that writing ``path`` would create or replace, after the one path policy.

    Every file queenslab writes or opens for writing -- outputs, pictures, problem files,
    an index, a ledger -- is checked here first:

    * the name must not be empty, a directory, or an existing non-regular file (a device,
      a pipe, a socket);
    * a symbolic link is followed only to an existing regular file, which is then the file
      replaced (the link stays, as with the shell's ``>``); a dangling link is refused, so
      that nothing is created outside the directory the user named;
    * an existing file marked read-only (no write bit), or that this process may not
      write, is refused, not replaced: renaming over it would discard what the user
      protected (root included);
    * the directory must exist, and the name must fit the file system's limits
      (``NAME_MAX``, ``PATH_MAX``).

    Returns
    -------
    Path
        The file to write (the link's target for a link).

    Raises
    ------
    QueensError
        Naming the path and what is wrong with it.
    """
    text = _as_text(path)
    if not text or not text.strip():
        raise QueensError(f"{_label(text, what)} is an empty file name; give the name of the file to write")
    if "\x00" in text:
        raise QueensError(f"{_label(text, what)} contains a NUL character, which no file name may hold")
    target = Path(text)
    if os.path.islink(text):
        resolved = Path(os.path.realpath(text))
        if not resolved.exists():
            raise QueensError(
                f"{_label(text, what)} is a symbolic link to {str(resolved)!r}, which does not exist; queenslab "
                "never creates a file outside the directory you named: remove the link, or name the file itself"
            )
        target = resolved
    name_max, path_max = _name_limits(target.parent if target.parent.is_dir() else Path("."))
    if len(os.fsencode(target.name)) > name_max:
        raise QueensError(
            f"{_label(_short(text), what)}: the file name has {len(os.fsencode(target.name))} bytes, "
            f"more than the {name_max} this file system allows; give a shorter name"
        )
    if len(os.fsencode(str(target.absolute()))) >= path_max:
        raise QueensError(f"{_label(_short(text), what)}: the path is longer than the {path_max} bytes allowed")
    if text.endswith(os.sep) or target.is_dir():
        raise QueensError(f"{_label(text, what)} is a directory; give the name of a file to write")
    try:
        st = target.stat()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise QueensError(f"cannot write {_label(text, what)}: {e.strerror or e}") from None
    else:
        if not stat.S_ISREG(st.st_mode):
            raise QueensError(
                f"{_label(text, what)} exists and is not a regular file (a device, pipe or socket); "
                "give the name of a regular file"
            )
        # the mode bits too: root may write anything, but a file marked read-only was protected
        if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
            if target.parent.is_dir():  # a directory that takes no new file (/proc) is the first reason
                fd, temp = _create_temp(target, what, path)
                os.close(fd)
                os.unlink(temp)
            raise QueensError(
                f"{_label(text, what)} exists and is read-only; queenslab does not replace a protected file "
                "(nor does the shell's >): make it writable, remove it, or give another name"
            )
    parent = target.parent
    if not parent.is_dir():
        raise QueensError(
            f"cannot write {_label(text, what)}: the directory {str(parent)!r} does not exist; create it first"
        )
    return target


def check_distinct(inputs: Mapping[str, object], outputs: Mapping[str, object]) -> None:
    """Refuse outputs that would overwrite an input or each other, before anything is written.

    Parameters
    ----------
    inputs, outputs : mapping of str to path
        The files a command reads and writes, keyed by how the user gave them
        (``"FILE"``, ``"--svg"``); None values are skipped.

    Raises
    ------
    QueensError
        An output that names one of the inputs (the same path, or the same file through
        a symbolic or a hard link), or two outputs that name one file.

    Examples
    --------
    >>> check_distinct({"FILE": "t.jsonl"}, {"--svg": "t.jsonl"})
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: --svg 't.jsonl' is the input FILE 't.jsonl' itself: writing it would destroy what the command reads; give the output another name
    >>> check_distinct({}, {"--svg": "a.svg", "--gif": "./a.svg"})
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: --svg 'a.svg' and --gif './a.svg' name the same file: one output would replace the other; give each its own name
    """
    from .infile import same_file

    given_in = [(k, v) for k, v in inputs.items() if v is not None]
    given_out = [(k, v) for k, v in outputs.items() if v is not None]
    for i, (flag, out) in enumerate(given_out):
        for source, path in given_in:
            if same_file(out, path):
                raise QueensError(
                    f"{flag} {_as_text(out)!r} is the input {source} {_as_text(path)!r} itself: writing it would "
                    "destroy what the command reads; give the output another name"
                )
        for other, path in given_out[:i]:
            if same_file(out, path):
                raise QueensError(
                    f"{other} {_as_text(path)!r} and {flag} {_as_text(out)!r} name the same file: one output would "
                    "replace the other; give each its own name"
                )


def _short(text: str) -> str:
    """A path shortened for a message (its start and end)."""
    return text if len(text) <= 80 else f"{text[:40]}...{text[-30:]}"


def _create_temp(target: Path, what: str | None, shown: object) -> tuple[int, Path]:
    """Create a new, empty temporary file next to ``target``: ``(descriptor, path)``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    # keep the temporary name within the file-name limit (bytes, for names in any script)
    stem = os.fsencode(target.name)[:200].decode("utf-8", "ignore") or "out"
    while True:
        temp = target.with_name(f".{stem}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        try:
            return os.open(temp, flags, 0o666), temp  # the permissions follow the umask
        except FileExistsError:
            continue
        except OSError as e:
            raise QueensError(
                f"cannot write {_label(shown, what)}: cannot create a file in {str(target.parent)!r} "
                f"({e.strerror or e})"
            ) from None


def check_output_path(path: object, what: str | None = None) -> str:
    """Check that a file can be written at ``path``, before the work that produces it.

    The check creates and removes a temporary file in the target's directory, so it
    finds what would stop :func:`atomic_output` (a missing or read-only directory, a
    file system that refuses new files such as ``/proc``). The target itself is not
    touched.

    Parameters
    ----------
    path : str or path-like
        The file to be written.
    what : str, optional
        How the user gave it (``"--out"``), for messages.

    Returns
    -------
    str
        ``path`` as a string.

    Raises
    ------
    QueensError
        If ``path`` is empty, a directory, an existing non-regular file (a device, a
        pipe), in a directory that does not exist, or no file can be created there.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     check_output_path(d, "--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    queenslab.errors.QueensError: --out '...' is a directory; give the name of a file to write
    """
    target = output_target(path, what)
    fd, temp = _create_temp(target, what, path)
    os.close(fd)
    os.unlink(temp)
    return _as_text(path)


@contextmanager
def staged(outputs: Mapping[str, object]) -> Iterator[dict[str, str]]:
    """Several outputs of one command, written all or none.

    Yields, for every output given (None values are skipped), a temporary file name next
    to its target with the target's suffix (a writer that chooses its format by the
    suffix chooses as for the target). When the block ends without an error, every
    temporary file is renamed over its target; on an error or an interrupt every one is
    removed, and every target is left as it was -- so a command whose third picture is
    refused has not written its first two.

    Parameters
    ----------
    outputs : mapping of str to path or None
        The outputs, keyed by how the user gave them (``"--svg"``).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     a, b = os.path.join(d, "a.txt"), os.path.join(d, "b.txt")
    ...     try:
    ...         with staged({"--a": a, "--b": b}) as temp:
    ...             _ = open(temp["--a"], "w").write("a")
    ...             raise QueensError("the second output is refused")
    ...     except QueensError:
    ...         pass
    ...     os.listdir(d)
    []
    """
    temps: dict[str, str] = {}
    targets: dict[str, Path] = {}
    try:
        for flag, path in outputs.items():
            if path is None:
                continue
            target = output_target(path, flag)
            fd, temp = _create_temp(target, flag, path)
            os.close(fd)
            keep = temp.with_name(f"{temp.name}{target.suffix}")  # the target's suffix last
            os.replace(temp, keep)
            temps[flag], targets[flag] = str(keep), target
        yield temps
        for flag in list(temps):
            os.replace(temps.pop(flag), targets[flag])
    finally:
        for leftover in temps.values():
            with suppress(OSError):
                os.unlink(leftover)


@contextmanager
def atomic_output(path: object, mode: str = "w", *, what: str | None = None) -> Iterator[IO[Any]]:
    """Open a file to be written at ``path`` all at once or not at all.

    Yields a file object on a new temporary file in the target's directory. When the
    block ends normally the file is flushed to disk and renamed to ``path``, replacing
    a file of that name (whose permission bits it keeps). When the block raises --
    anything, ``KeyboardInterrupt`` included -- the temporary file is removed, ``path``
    is left as it was, and the exception propagates; an ``OSError`` from writing (a
    full disk) becomes a :class:`QueensError` naming the file.

    Parameters
    ----------
    path : str or path-like
        The file to write, checked by :func:`output_target`: a symbolic link to an
        existing regular file is followed (that file is replaced, the link stays); a
        dangling link, a read-only file and a name too long are refused.
    mode : {"w", "wb"}
        Text (UTF-8) or binary.
    what : str, optional
        How the user gave the path (``"--out"``), for messages.

    Yields
    ------
    file object
        Open for writing (and seeking, in binary mode).

    Raises
    ------
    QueensError
        If the path cannot be written (see :func:`check_output_path`) or writing fails.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     f = os.path.join(d, "out.txt")
    ...     with atomic_output(f) as fh:
    ...         _ = fh.write("2 4 1 3\\n")
    ...         exists_while_writing = os.path.exists(f)
    ...     exists_while_writing, open(f).read(), os.listdir(d)
    (False, '2 4 1 3\\n', ['out.txt'])
    """
    if mode not in ("w", "wb"):
        raise QueensError(f"mode must be 'w' (text) or 'wb' (binary), got {mode!r}")
    target = output_target(path, what)
    fd, temp = _create_temp(target, what, path)
    done = False
    try:
        fh: IO[Any] = os.fdopen(fd, "w", encoding="utf-8") if mode == "w" else os.fdopen(fd, "wb")
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with suppress(FileNotFoundError):  # a new file keeps the umask's permissions
            os.chmod(temp, stat.S_IMODE(target.stat().st_mode))
        os.replace(temp, target)
        done = True
    except OSError as e:
        raise QueensError(f"cannot write {_label(path, what)}: {e.strerror or e}") from None
    finally:
        if not done:
            with suppress(FileNotFoundError):
                os.unlink(temp)


def free_bytes(path: object) -> int | None:
    """Bytes free for an unprivileged user in the directory of ``path`` (None if unknown).

    Examples
    --------
    >>> free_bytes(".") > 0
    True
    """
    if not isinstance(path, (str, os.PathLike)):
        return None
    try:
        st = os.statvfs(Path(path).resolve().parent)
    except (OSError, AttributeError):  # no statvfs (not POSIX), or an unreadable path
        return None
    return st.f_bavail * st.f_frsize


class NpyRows:
    """A two-dimensional ``.npy`` array written row batch by row batch.

    The header is written first with room for any number of rows and rewritten with
    the final count by :meth:`finish`; until then the file does not claim any rows.
    Only the batch being written is in memory. The file is a version 1.0 ``.npy`` file
    (:func:`numpy.load` reads it); its header takes :attr:`HEADER_BYTES` bytes, so the
    data is aligned as numpy aligns it.

    Parameters
    ----------
    fh : binary file object
        Open for writing and seeking, positioned at the start (as
        :func:`atomic_output` yields it in mode ``"wb"``).
    columns : int
        The length of a row.
    dtype : numpy dtype, default int64
        Stored little-endian.

    Examples
    --------
    >>> import io
    >>> import numpy as np
    >>> buf = io.BytesIO()
    >>> rows = NpyRows(buf, 4)
    >>> rows.write(np.array([[2, 4, 1, 3], [3, 1, 4, 2]]))
    >>> rows.finish()
    2
    >>> _ = buf.seek(0)
    >>> np.load(buf).tolist()
    [[2, 4, 1, 3], [3, 1, 4, 2]]
    """

    #: The size of the header (magic, length, padded dictionary), a multiple of 64.
    HEADER_BYTES = 128

    def __init__(self, fh: IO[bytes], columns: int, dtype: Any = "int64"):
        import numpy as np  # here only: the other output helpers need no numpy

        self.fh = fh
        self.columns = int(columns)
        self.dtype = np.dtype(dtype).newbyteorder("<")
        self.rows = 0
        self._write_header()

    def _header(self, rows: int) -> bytes:
        import numpy as np

        d = np.lib.format.header_data_from_array_1_0(np.empty((0, self.columns), self.dtype))
        d["shape"] = (rows, self.columns)
        text = "{" + "".join(f"{k!r}: {v!r}, " for k, v in sorted(d.items())) + "}"
        prefix = np.lib.format.magic(1, 0)
        room = self.HEADER_BYTES - len(prefix) - 2 - 1  # the length field, the final newline
        if len(text) > room:
            raise QueensError(
                f"an array of shape {(rows, self.columns)} does not fit a {self.HEADER_BYTES}-byte header"
            )
        body = (text + " " * (room - len(text)) + "\n").encode("latin1")
        return prefix + len(body).to_bytes(2, "little") + body

    def _write_header(self) -> None:
        self.fh.seek(0)
        self.fh.write(self._header(self.rows))

    def write(self, rows: Any) -> None:
        """Append ``rows`` (a numpy array of shape ``(k, columns)``)."""
        import numpy as np

        arr = np.asarray(rows)
        if arr.ndim != 2 or arr.shape[1] != self.columns:
            raise QueensError(f"expected rows of {self.columns} values, got an array of shape {arr.shape}")
        self.fh.write(np.ascontiguousarray(arr, dtype=self.dtype).tobytes())
        self.rows += arr.shape[0]

    def finish(self) -> int:
        """Write the header for the rows written; returns their number."""
        end = self.fh.tell()
        self._write_header()
        self.fh.seek(end)
        return self.rows
