"""'Did you mean' hints and bounded lists of real names or values. Pure.

Both stay small whatever the database holds: a table of 10,000 columns lists 20 of them and says how
many more there are, and a "word" longer than any real name gets no hint (difflib on a 50 MB string
would take minutes and gigabytes)."""

from __future__ import annotations

from collections.abc import Iterable

MAX_LISTED = 20
MAX_WORD_CHARS = 200
MAX_RATIO_GAP = 0.15
"""A suggestion is offered only when it is about as close as the closest one."""


def listing(names: Iterable[object], *, limit: int = MAX_LISTED) -> str:
    """``a, b, c`` for a short list; the first ``limit`` and ``… and N more`` for a long one."""
    items = [str(n) for n in names]
    if len(items) <= limit:
        return ", ".join(items)
    return f"{', '.join(items[:limit])}, … and {len(items) - limit:,} more"


def with_article(word: str) -> str:
    """``a SELECT``, ``an INSERT``, ``an UPDATE``: the article by the first letter (statement kinds and
    column names, where a vowel letter is a vowel sound)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def clipped(text: str, *, limit: int = MAX_WORD_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: for echoing what was sent."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def closest(word: str, candidates: Iterable[str], *, n: int = 3) -> list[str]:
    if len(word) > MAX_WORD_CHARS:
        return []
    pool = [str(c) for c in candidates]
    by_case = {c.lower(): c for c in pool}
    if word.lower() in by_case:
        return [by_case[word.lower()]]
    import difflib  # only on the error path; kept off start-up

    # Close names only: a loose match (0.6-0.7) must also start with the same letter, so 'average' still
    # finds 'avg' while 'damage' is no longer offered 'name'.
    target = word.lower()
    scored = [
        (m, difflib.SequenceMatcher(None, target, m).ratio())
        for m in difflib.get_close_matches(target, list(by_case), n=n, cutoff=0.6)
    ]
    scored = [(m, r) for m, r in scored if m[:1] == target[:1] or r >= 0.7]
    # Only the close ones: beside 'orders' for 'ordrs' (0.91), 'order_items' (0.63) is noise.
    best = max((r for _, r in scored), default=0.0)
    return [by_case[m] for m, r in scored if r >= best - MAX_RATIO_GAP]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    found = closest(word, candidates)
    if not found:
        return ""
    return "; did you mean " + " or ".join(repr(f) for f in found) + "?"
