"""The ``queenslab`` console script.

Importing the command line takes a few tenths of a second (numpy and the package). A
Ctrl-C in that time would end in a ``KeyboardInterrupt`` traceback from the import, so the
console script starts here, in a module that imports nothing heavy, and treats an
interrupt during start-up like one during work: ``interrupted`` on stderr and exit 130.
It lives outside the package because importing any module of ``queenslab`` runs the
package's own (heavier) ``__init__`` first.
"""

import sys


def main() -> None:
    """Run ``queenslab.cli.run``; a Ctrl-C while it loads exits 130 without a traceback."""
    try:
        from queenslab.cli import run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
