"""Strings a regular expression matches, built from its own parse tree: each alternative once, in
several cases, after white space and a ``#``, with text after it, and with the letters past ASCII a
case-blind match takes. Tests of the plain-string checks run before a regex (``settle.plain_words``,
``text_dates``, ``odd_values``) read them: a check that refuses one the regex matches is wrong."""

from __future__ import annotations

import re._constants as sre
import re._parser as sre_parse
from typing import Any

_CATEGORY = {
    sre.CATEGORY_DIGIT: "7",
    sre.CATEGORY_SPACE: " ",
    sre.CATEGORY_WORD: "a",
    sre.CATEGORY_NOT_DIGIT: "x",
    sre.CATEGORY_NOT_SPACE: "x",
    sre.CATEGORY_NOT_WORD: "-",
}


Found = tuple[str, dict[int, str]]
"""A string and the text of each group in it (for a backreference later in the pattern)."""


_MEMO: dict[tuple[Any, ...], list[Found]] = {}
"""``_one``'s answers within one ``examples`` call: each path of a sequence asks every node again, which
took 40 s of CPU for one big alternation nested in groups."""


def _one(op: Any, av: Any, groups: dict[int, str]) -> list[Found]:
    """What one node of a parsed regex matches, each alternative once; ``groups``: the groups so far."""
    key = (op, id(av), tuple(sorted(groups.items())))
    if key not in _MEMO:
        _MEMO[key] = _node(op, av, groups)
    return _MEMO[key]


def _node(op: Any, av: Any, groups: dict[int, str]) -> list[Found]:
    if op is sre.LITERAL:
        return [(chr(av), {})]
    if op in (sre.NOT_LITERAL, sre.ANY):
        return [("x" if av != ord("x") else "y", {})]
    if op is sre.IN:
        if any(o is sre.NEGATE for o, _ in av):
            return [("x", {}), ("-", {})]
        found: list[str] = []
        for o, a in av:
            found += (
                [chr(a[0]), chr(a[1])]
                if o is sre.RANGE
                else [_CATEGORY[a]]
                if o is sre.CATEGORY
                else [chr(a)]
            )
        return [(s, {}) for s in found]
    if op is sre.CATEGORY:
        return [(_CATEGORY[av], {})]
    if op is sre.GROUPREF:
        return [(groups.get(av, ""), {})]
    if op is sre.BRANCH:
        return [f for branch in av[1] for f in _seq(branch, groups)]
    if op is sre.SUBPATTERN:
        inner = _seq(av[3], groups)
        return [(s, {**g, av[0]: s} if av[0] else g) for s, g in inner]
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = av
        inner = _seq(body, groups)
        once = max(low, 1)
        return [(inner[0][0] * low, inner[0][1])] + (
            [(s * once, g) for s, g in inner] if once <= high else []
        )
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return [("", {})]
    raise AssertionError(f"no examples for {op}")


def _seq(items: Any, groups: dict[int, str] | None = None) -> list[Found]:
    """What a sequence matches: the first choice at every node, then each other choice of a node among
    the first of the rest (each alternative once, not every combination); a backreference repeats what
    its group took on that path."""
    nodes = list(items)
    out: list[Found] = []
    paths = [(None, 0)] + [
        (i, j) for i, (op, av) in enumerate(nodes) for j in range(1, len(_one(op, av, groups or {})))
    ]
    for at, pick in paths:
        text, taken = "", dict(groups or {})
        for i, (op, av) in enumerate(nodes):
            options = _one(op, av, taken)
            s, g = options[pick if i == at and pick < len(options) else 0]
            text += s
            taken |= g
        out.append((text, {k: v for k, v in taken.items() if k not in (groups or {})}))
    return out


def examples(pattern: str) -> list[str]:
    """Strings built from ``pattern``'s alternatives, in other cases, after white space and a ``#``, with
    a digit or text after them, and with letters past ASCII a case-blind match takes (``ſ``, ``ı``, the
    Kelvin sign)."""
    found = set()
    parsed = sre_parse.parse(pattern)  # alive while _MEMO's ids of its nodes are
    _MEMO.clear()
    for s, _ in _seq(parsed):
        for case in (s, s.upper(), s.title(), s.swapcase()):
            for lead in ("", "  ", "\t", "#", " # ", "\u2003"):
                for tail in ("", " 2024", ":", " x", "\n"):
                    found.add(lead + case + tail)
        found |= {s.replace("s", "ſ"), s.replace("i", "ı"), s.replace("k", "\u212a"), s.replace("i", "İ")}
    return sorted(found)
