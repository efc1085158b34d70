"""The Python examples in README.md and docs/*.md run and print what they say."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md")))
def test_docs_examples(page):
    text = (ROOT / "docs" / page).read_text()
    result = doctest.testfile(str(ROOT / "docs" / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert (result.attempted > 0) == (">>> " in text)


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("```")[1].splitlines()[1:]
    assert block == [
        "python -m pip install -e . && queenslab count 12 --unique",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
