"""``peek.trailing_empty_fields``: whether a record of the file's first block has only empty fields past
the header's width. The csv module reads the block only when some line ends in its delimiter or a quote
once blanks are cut; these tests hold that shortcut to the csv module's own answer."""

from __future__ import annotations

import csv
import random

import pytest

from analytics_agent.db.load.read.peek import BLANKS, trailing_empty_fields


def _by_csv(text: str, delimiter: str, quote: str, width: int) -> bool:
    lines = text.splitlines()[:-1]
    rows = csv.reader(lines, delimiter=delimiter, quotechar=quote or None,
                      quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE)  # fmt: skip
    return any(len(row) > width and not any(f.strip() for f in row[width:]) for row in rows)


def test_blanks_are_what_str_strip_cuts() -> None:
    assert set(BLANKS) == {chr(i) for i in range(0x110000) if chr(i).isspace()}


@pytest.mark.parametrize("delimiter", [",", "\t", ";", "|"])
def test_the_shortcut_answers_as_the_csv_module(delimiter: str) -> None:
    rng = random.Random(f"trailing-{delimiter}")
    cells = ["a", "1", "", " ", "\u00a0", '""', '" "', "x y", "\u3000", "\t"]
    answers = set()
    for _ in range(400):
        width = rng.randint(1, 3)
        lines = [
            delimiter.join(rng.choice(cells) for _ in range(width + rng.choice([0, 0, 1, 2])))
            for _ in range(rng.randint(2, 6))
        ]
        text = "\n".join(lines) + "\n"
        expected = _by_csv(text, delimiter, '"', width)
        assert trailing_empty_fields(text, delimiter, '"', width) == expected, repr(text)
        answers.add(expected)
    assert answers == {True, False}


@pytest.mark.parametrize("quote", ['"', ""])
@pytest.mark.parametrize("delimiter", [",", "\t", ";"])
def test_a_block_without_quotes_answers_as_the_csv_module(delimiter: str, quote: str) -> None:
    """No quote in the block: each line is one record, split on the delimiter alone (the line-count path)."""
    rng = random.Random(f"unquoted-{delimiter}-{quote}")
    cells = ["a", "1", "", " ", "\u00a0", "x y", "\u3000", "\t", "'"]
    answers = set()
    for _ in range(400):
        width = rng.randint(1, 4)
        lines = [
            delimiter.join(rng.choice(cells) for _ in range(width + rng.choice([-1, 0, 0, 1, 2, 3])))
            for _ in range(rng.randint(2, 6))
        ]
        text = "\n".join(lines) + "\n"
        expected = _by_csv(text, delimiter, quote, width)
        assert trailing_empty_fields(text, delimiter, quote, width) == expected, repr(text)
        answers.add(expected)
    assert answers == {True, False}
