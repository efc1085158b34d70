"""The child process that writes XCSP3 with pycsp3: ``python -m queenslab.models.xcsp3_writer``.

pycsp3 changes Python's built-in types when it is imported (it "curses" ``set``, ``list``
and others with forbiddenfruit so that its modelling expressions read naturally), and
every later membership test of the whole process then runs through its wrappers: a
process that imported it ran queenslab's test suite twice as slowly. So queenslab never
imports pycsp3 itself: :func:`queenslab.models.xcsp3.to_xcsp3` sends the linear model
here as JSON on standard input, and this process builds the pycsp3 model and prints the
XCSP3 text. Exit status 3 says pycsp3 is missing (the message on standard error).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile

#: The exit status that says pycsp3 cannot be imported.
MISSING = 3


def main() -> int:
    model = json.load(sys.stdin)
    argv = sys.argv
    sys.argv = [""]  # as a console: pycsp3 then reads no command line
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            import pycsp3 as p
            from pycsp3.compiler import Compilation
    except ImportError as e:
        print(str(e), file=sys.stderr)
        return MISSING
    finally:
        sys.argv = argv
    try:
        with tempfile.TemporaryDirectory(prefix="queenslab-xcsp3-") as tmp:
            with contextlib.redirect_stdout(io.StringIO()):
                p.clear()
                x = p.VarArray(size=[model["n"], model["columns"]], dom={0, 1}, id="x")

                def terms(cells):
                    return [x[r][c] for r, c in cells]

                for cells, least, most in model["sums"]:
                    total = p.Sum(terms(cells))
                    if least == most:
                        p.satisfy(total == most)
                    elif least == 0:
                        p.satisfy(total <= most)
                    else:
                        p.satisfy(total in range(least, most + 1))
                for left, right in model["lex"]:
                    p.satisfy(p.LexIncreasing(terms(right), terms(left)))  # Y <=lex X
                path, _ = p.compile(os.path.join(tmp, "model"), verbose=-1)
            with open(path, encoding="utf-8") as fh:
                sys.stdout.write(fh.read())
    finally:
        Compilation.done = True  # pycsp3's exit hook compiles a model not marked compiled
    return 0


if __name__ == "__main__":
    sys.exit(main())
