"""Where an index lives: the index directory, the names of an index file and of the
files a build writes next to it, and the path policy a build follows.

Files live in the index directory -- ``$QUEENSLAB_INDEX_DIR``, else the user cache
directory (platformdirs), overridable per call -- named by the problem's fingerprint and
the depth. Next to ``X.sqlite`` a build writes ``X.sqlite.partial`` (its working file),
``X.sqlite.tmp`` (the complete index before its rename) and ``X.sqlite.lock`` (the build
lock). A path follows the one policy of :func:`~queenslab.outfile.output_target` (a
symbolic link only to an existing file, no read-only file replaced), and a file that is
not an index is never replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import store, validate
from ..errors import InvalidIndex, QueensError
from ..outfile import output_target
from ..problem import Problem
from .index_format import check_depth
from .walk import check_problem

ENV_VAR = "QUEENSLAB_INDEX_DIR"
#: The longest suffix of the files a build writes next to the index: ``X.partial.new``
#: with SQLite's ``-journal``.
_SIDE_SUFFIX = ".partial.new-journal"
#: The kinds of file (:func:`queenslab.store.identify`) an index build may replace (with
#: --rebuild) or start over.
REPLACEABLE = ("index", "partial", "empty")
#: Why a file that is not an index is refused as the target of a build, and what to do.
_KEPT = (
    "queenslab never replaces it, with or without --rebuild (which replaces only an index): "
    "give another file name for the index, or a directory"
)


def index_dir(directory: str | os.PathLike | None = None) -> Path:
    """The index directory: ``directory``, else ``$QUEENSLAB_INDEX_DIR``, else the user
    cache directory of queenslab (``platformdirs.user_cache_dir``) / ``index``."""
    if directory is not None:
        return validate.path(directory, "the index directory")
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    import platformdirs

    return Path(platformdirs.user_cache_dir("queenslab")) / "index"


def index_path(problem: Problem, depth: int, directory=None) -> Path:
    """Where the index of ``problem`` at ``depth`` lives."""
    check_problem(problem)
    depth = check_depth(problem, depth)
    return index_dir(directory) / f"{problem.fingerprint()[:20]}-n{problem.n}-d{depth}.sqlite"


def partial_path(path: str | os.PathLike) -> Path:
    """The working file of a build of the index at ``path`` (``X.sqlite.partial``)."""
    p = Path(path)
    return p.with_name(p.name + ".partial")


def tmp_path(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def name_too_long(path: Path, extra: str = "") -> tuple[str, str] | None:
    """Why ``path`` cannot be an index's name here (:func:`queenslab.store.too_long`)."""
    return store.too_long(path, extra, "building an index also writes")


def lookup_name(path: Path) -> Path:
    """``path`` if a file or directory can have that name (InvalidIndex if not)."""
    long = name_too_long(path)
    if long:
        raise InvalidIndex(f"the index {store.short(path)}: {long[0]}, so no index has that name")
    return path


def index_target(problem: Problem, d: int, directory, path, rebuild: bool) -> Path:
    """The index file a build writes (or reuses), after the path policy of
    :func:`~queenslab.outfile.output_target`: a symbolic link is followed only to an
    existing file; the name, and the names of the files a build writes next to it, must
    fit the file system; an existing file is never replaced unless it is a queenslab index
    (or a partial build, or holds nothing), and then only with ``rebuild``."""
    if path is not None and directory is not None:
        raise QueensError("give the index directory or the index file, not both")
    named = validate.path(path, "the index file") if path is not None else index_path(problem, d, directory)
    long = name_too_long(named, _SIDE_SUFFIX)
    if long:
        raise QueensError(f"the index file {store.short(named)}: {long[0]}; {long[1]}")
    if os.path.isdir(named):
        raise QueensError(f"the index file {named} is a directory; give a file name or pass it as the directory")
    parent = named.parent
    if os.path.lexists(parent) and not os.path.isdir(parent):
        raise QueensError(f"cannot put the index in {parent}: it is a file, not a directory")
    for missing in (d for d in (parent, *parent.parents) if not os.path.lexists(d)):  # directories to create
        long = name_too_long(missing)
        if long:
            raise QueensError(
                f"cannot create the index directory {store.short(missing)}: {long[0]}; give a shorter name"
            )
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise QueensError(
            f"cannot create the index directory {store.short(parent)}: {e.strerror or e}; choose a writable "
            f"directory with --index DIR or ${ENV_VAR}"
        ) from None
    if not rebuild and os.path.isfile(named):
        # an existing file is only read here (reused, or refused): a read-only index is fine
        target = Path(os.path.realpath(named)) if os.path.islink(named) else named
    else:
        target = output_target(named, "the index file")
    if target.name != named.name:  # a link to a file of another name: check the names next to that
        long = name_too_long(target, _SIDE_SUFFIX)
        if long:
            raise QueensError(
                f"the index file {store.short(named)} links to {store.short(target)}: {long[0]}; link to a file "
                "whose name is shorter"
            )
    _keep_others(target, "a queenslab index")
    return target


def check_partial(part: Path) -> None:
    """Refuse a file at the name of the partial build that is not one (it would be discarded)."""
    output_target(part, "the partial build")
    _keep_others(part, "the partial build of a queenslab index")


def _keep_others(path: Path, thing: str) -> None:
    """Refuse an existing file at ``path`` that a build may not replace, saying what it
    is rather than ``thing``."""
    if os.path.isfile(path):
        found = store.identify(path)
        if found.kind not in REPLACEABLE:
            raise InvalidIndex(f"{found.is_not(path, thing)}; {_KEPT}")
