"""'Did you mean' hints from a list of real names or values. Pure."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, candidates: Iterable[str], *, n: int = 3) -> list[str]:
    pool = [str(c) for c in candidates]
    by_case = {c.lower(): c for c in pool}
    if word.lower() in by_case:
        return [by_case[word.lower()]]
    import difflib  # only on the error path; kept off start-up

    lowered = difflib.get_close_matches(word.lower(), list(by_case), n=n, cutoff=0.6)
    return [by_case[m] for m in lowered]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    found = closest(word, candidates)
    if not found:
        return ""
    return "; did you mean " + " or ".join(repr(f) for f in found) + "?"
