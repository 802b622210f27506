"""``peek.guess_encoding`` calls a first block binary by its share of control bytes: held here to the rule
written out byte by byte (NUL counts twice, as a NUL and as a control; BEL, ESC, tab, line ends and the
separators 30 and 31 are text)."""

from __future__ import annotations

import random

from analytics_agent.db.load.read.peek import guess_encoding

_TEXT_CONTROLS = (7, 9, 10, 13, 27, 30, 31)


def _binary_by_rule(sample: bytes) -> bool:
    nul = sample.count(0)
    controls = sum(1 for b in sample if b < 32 and b not in _TEXT_CONTROLS)
    return (nul + controls) * 20 > len(sample)


def test_binary_is_called_by_the_share_of_control_bytes() -> None:
    rng = random.Random("binary")
    answers = set()
    for _ in range(600):
        size = rng.randint(40, 400)
        odd = rng.choice([0, 1, 2, 3, 5, 8])
        cells = [rng.choice(b"abc,;\n\r\t 019") for _ in range(size)]
        for _ in range(odd):  # a few control bytes among text, at most a sixth NUL (not UTF-16's half)
            cells[rng.randrange(size)] = rng.choice([0, 1, 2, 7, 8, 11, 12, 14, 27, 30, 31])
        sample = bytes(cells)
        expected = _binary_by_rule(sample)
        assert (guess_encoding(sample) == "binary") == expected, sample
        answers.add(expected)
    assert answers == {True, False}
