"""The Python examples in README.md run and print what they say."""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1].splitlines()[1:]
    assert block == [
        "python -m pip install -e . && queenslab count 12 --unique",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
