"""The console samples of the README and the docs: each ``$ queenslab ...`` line of a
```` ```console ```` block with the output printed under it, and the rule by which a real
run's output matches it.

A sample's output matches when its lines match one by one, where

* a line ``...`` (indented or not) stands for any number of lines (none included);
* ``...`` inside a line stands for any text;
* a run of spaces stands for any run of spaces (a table's column is as wide as its
  widest entry, a timing included);
* a decimal number (``0.302``, ``24.5``) stands for any decimal number: timings, memory
  and rates differ from run to run and machine to machine, while every count (an integer)
  must be the same;
* trailing spaces do not count.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

#: A decimal number, the text a timing or a rate is written in.
_DECIMAL = re.compile(r"\d+\.\d+")


@dataclass(frozen=True)
class Sample:
    """One ``$ queenslab`` line of a page and the output printed under it.

    Attributes
    ----------
    page : str
        The file, relative to the repository (``docs/cli.md``).
    line : int
        The command's 1-based line in that file.
    command : str
        The command line as written, without the ``$ `` and without a trailing ``# ...``
        comment.
    output : tuple of str
        The lines printed under it, up to the next ``$`` line or the block's end.
    """

    page: str
    line: int
    command: str
    output: tuple[str, ...]

    @property
    def argv(self) -> list[str]:
        """The command's arguments after ``queenslab``, as a shell would split them."""
        return shlex.split(self.command, comments=True)[1:]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def samples(root: Path, pages: list[str]) -> list[Sample]:
    """Every ``$ queenslab`` command of the console blocks of ``pages`` (paths relative to
    ``root``), in the pages' order; other ``$`` lines (``pip install``) are left out."""
    found = []
    for page in pages:
        lines = (root / page).read_text(encoding="utf-8").splitlines()
        inside = False
        current: tuple[int, str] | None = None
        output: list[str] = []
        for number, text in enumerate(lines, start=1):
            fence = text.strip().startswith("```")
            if not inside:
                inside = fence and text.strip() == "```console"
                continue
            if fence or text.startswith("$ "):
                if current is not None:
                    found.append(Sample(page, current[0], current[1], tuple(output)))
                current, output = None, []
                if fence:
                    inside = False
                elif text.startswith("$ queenslab"):
                    command = text[2:]
                    if " #" in command:  # a comment for the reader, not the shell
                        command = command[: command.index(" #")]
                    current = (number, command.rstrip())
                continue
            if current is not None:
                output.append(text)
    return found


def _literal(text: str) -> str:
    """The pattern of text printed as is, but for its runs of spaces."""
    return " +".join(re.escape(word) for word in re.split(" +", text))


def _line_pattern(expected: str) -> re.Pattern[str]:
    pieces = []
    for i, part in enumerate(expected.rstrip().split("...")):
        if i:
            pieces.append(".*")
        pos = 0
        for m in _DECIMAL.finditer(part):
            pieces.append(_literal(part[pos : m.start()]) + r"\d+\.\d+")
            pos = m.end()
        pieces.append(_literal(part[pos:]))
    return re.compile("".join(pieces))


def matches(expected: tuple[str, ...] | list[str], actual: list[str]) -> bool:
    """Whether ``actual`` (a run's lines) matches a sample's ``expected`` lines.

    Examples
    --------
    >>> matches(["92 solutions", "backend native, 0.012 s"], ["92 solutions", "backend native, 1.5 s"])
    True
    >>> matches(["92 solutions"], ["93 solutions"]), matches(["a", "...", "z"], ["a", "b", "c", "z"])
    (False, True)
    >>> matches(["wrote ... (SVG)"], ["wrote /tmp/x.svg (SVG)"]), matches(["a", "  ..."], ["a"])
    (True, True)
    >>> matches(["  search   9  22.57 s"], ["  search   9   8.85 s"]), matches(["a b"], ["ab"])
    (True, False)
    """
    expected = [e.rstrip() for e in expected]
    actual = [a.rstrip() for a in actual]
    while expected and not expected[-1]:
        expected.pop()
    while actual and not actual[-1]:
        actual.pop()
    patterns = [None if e.strip() == "..." else _line_pattern(e) for e in expected]

    def walk(i: int, j: int) -> bool:
        if i == len(patterns):
            return j == len(actual)
        pattern = patterns[i]
        if pattern is None:
            return any(walk(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and pattern.fullmatch(actual[j]) is not None and walk(i + 1, j + 1)

    return walk(0, 0)
