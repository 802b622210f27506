"""Shape a tool's value into the compact JSON text a model reads, within fixed bounds. Pure.

Bounds: at most ``MAX_ROWS`` rows and at most ``MAX_TOKENS`` o200k tokens per result. Whatever is cut is
said in the result itself (``"truncated": true``, the total, and a hint), never dropped silently.

Token counts use ``estimate_tokens``, a deliberate over-estimate of o200k (the tokenizer GPT-4o uses), so
the runtime needs no tokenizer files (tiktoken downloads them on first use, which fails offline). Tests
check it against the real tokenizer: never under on any JSON, and within 1.3x on typical results.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from analytics_agent.db.values import to_jsonable

MAX_ROWS = 50
MAX_TOKENS = 1000
_LETTER_RUNS = re.compile(r"[A-Z]*[a-z]+|[A-Z]+")  # o200k splits words where the case changes
_LETTERS = re.compile(r"[A-Za-z]+")
_DIGIT_RUNS = re.compile(r"[0-9]+")
_BLANK_RUNS = re.compile(r" +|\n+|\t+")
_PUNCT = r"!-/:-@\[-`{-~"  # ASCII punctuation
# Whole punctuation runs with no blank or non-ASCII neighbour: a space before, a line end after (o200k's
# pre-tokenizer joins ``":{"`` and the ``\n`` after it into one piece, 3 tokens, not 1 + 1) or a symbol
# such as "₹" next to a run can join it into one pre-token piece that o200k splits differently.
# "Not non-ASCII" is spelled [^\x00-\x7f]: the range \x80-\U0010ffff costs re about 9 ms to compile, at
# every start-up, for the same matches.
_PUNCT_RUNS = re.compile(rf"(?<![\s{_PUNCT}])(?<![^\x00-\x7f])[{_PUNCT}]++(?![^\x00-\x7f])(?![\r\n])")
# JSON punctuation runs that o200k encodes as one token, alone and after a space (tests check each
# against the real tokenizer). A run of two or more punctuation characters is one pre-token piece.
# fmt: off
SINGLE_TOKEN_PUNCTUATION = frozenset({
    '""', '",', '":', '"[', '"]', '"{', '"}', ',"', ',[', ',{', ':"', ':[', ':{', '["', '[[', '[]', '[{',
    ']"', '],', ']]', ']}', '{"', '{}', '}"', '},', '}]', '}}', '"",', '","', '":"', '":[', '"],', '"]]',
    '"},', '"}}', '[],', '],"', '],[', ']],', ']},', '{},', '},"', '},{', '}},', '":["', '":[]', '":{"',
    '},{"', '"},{"',
})
# Words results repeat (our keys, DuckDB type names, common analytics words) with their o200k token counts,
# checked by tests; any other letter run is counted as 1 per 2 letters.
KNOWN_WORDS: dict[str, int] = {
    'table': 1, 'rows': 1, 'columns': 1, 'column': 1, 'name': 1, 'type': 1, 'min': 1, 'max': 1,
    'values': 1, 'original': 1, 'page': 1, 'pages': 1, 'next': 1, 'row': 1, 'count': 1, 'shown': 1,
    'hint': 1, 'error': 1, 'sum': 1, 'avg': 1, 'total': 1, 'true': 1, 'false': 1, 'null': 1, 'day': 1,
    'week': 1, 'month': 1, 'quarter': 1, 'year': 1, 'date': 1, 'range': 1, 'limit': 1, 'by': 1, 'group': 1,
    'VARCHAR': 1, 'DOUBLE': 1, 'DATE': 1, 'WITH': 1, 'TIME': 1, 'ZONE': 1, 'BOOLEAN': 1, 'INTEGER': 1,
    'FLOAT': 1, 'UUID': 1, 'orders': 1, 'order': 1, 'customers': 1, 'customer': 1, 'product': 1,
    'products': 1, 'category': 1, 'categories': 1, 'status': 1, 'city': 1, 'cities': 1, 'quantity': 1,
    'price': 1, 'value': 1, 'amount': 1, 'items': 1, 'item': 1, 'channel': 1, 'segment': 1, 'period': 1,
    'change': 1, 'units': 1, 'unit': 1, 'rank': 1, 'rate': 1, 'share': 1, 'average': 1, 'percent': 1,
    'pct': 1, 'time': 1, 'hour': 1, 'delay': 1, 'distance': 1, 'origin': 1, 'destination': 1, 'carrier': 1,
    'weather': 1, 'speed': 1, 'length': 1, 'weight': 1, 'height': 1, 'width': 1, 'female': 1, 'male': 1,
    'species': 1, 'store': 1, 'web': 1, 'app': 1, 'id': 1, 'key': 1, 'code': 1, 'region': 1, 'country': 1,
    'state': 1, 'kind': 1, 'level': 1, 'score': 1, 'sales': 1, 'sale': 1, 'profit': 1, 'cost': 1,
    'margin': 1, 'discount': 1, 'tax': 1, 'net': 1, 'gross': 1, 'returned': 1, 'pending': 1, 'paid': 1,
    'open': 1, 'closed': 1, 'active': 1, 'inactive': 1, 'new': 1, 'old': 1, 'yes': 1, 'no': 1, 'none': 1,
    'other': 1, 'unknown': 1, 'first': 1, 'last': 1, 'start': 1, 'end': 1, 'since': 1, 'until': 1,
    'from': 1, 'to': 1, 'of': 1, 'and': 1, 'in': 1, 'on': 1, 'per': 1, 'each': 1, 'all': 1, 'any': 1,
    'not': 1, 'is': 1, 'are': 1, 'was': 1, 'were': 1, 'has': 1, 'have': 1, 'monthly': 1, 'daily': 1,
    'weekly': 1, 'annual': 1, 'users': 1, 'user': 1, 'sessions': 1, 'session': 1, 'events': 1, 'event': 1,
    'views': 1,
    'nulls': 2, 'omitted': 2, 'truncated': 2, 'BIGINT': 2, 'TIMESTAMP': 2, 'DECIMAL': 2, 'INTERVAL': 2,
    'revenue': 2, 'costs': 2, 'delivered': 2, 'cancelled': 2, 'shipped': 2, 'yearly': 2, 'spend': 2,
    'visits': 2, 'clicks': 2,
}
# fmt: on


def estimate_tokens(text: str) -> int:
    """Over-estimate o200k tokens: 1 per 2 letters (1 per letter in runs of up to 3), 1 per 3 digits, 1 per 8 blanks (each run rounded up, a longer
    run one more),
    1 per other ASCII character except that a known JSON punctuation run (``":"``, ``},{"``) counts 1,
    1 per UTF-8 byte of anything else (byte-level BPE never needs more).

    Counted with regexes and sums, not a Python loop per character: it runs on every tool result.
    """
    if text.isascii():  # most results: no need to encode the text twice to count its bytes
        ascii_chars, non_ascii_bytes = len(text), 0
    else:
        ascii_chars = len(text.encode("ascii", "ignore"))
        non_ascii_bytes = len(text.encode("utf-8")) - ascii_chars
    letters, digits = _letter_runs(text), _DIGIT_RUNS.findall(text)
    # compact JSON seldom has a blank: three substring tests cost less than the regex
    blanks = _BLANK_RUNS.findall(text) if " " in text or "\n" in text or "\t" in text else []
    letter_chars, digit_chars, blank_chars = (sum(map(len, runs)) for runs in (letters, digits, blanks))
    other_ascii = ascii_chars - letter_chars - digit_chars - blank_chars
    return (
        math.ceil(_letter_halves(letters) / 2)  # >= the sum of ceil(run / 2), known words exact
        + math.ceil((digit_chars + 2 * len(digits)) / 3)  # >= the sum of ceil(run / 3)
        + len(blanks)
        + sum(len(run) > 1 for run in blanks)  # o200k leaves a run's last blank to the next piece
        + blank_chars // 8
        + other_ascii
        - _merged_punctuation(text)
        + non_ascii_bytes
    )


def _letter_runs(text: str) -> list[str]:
    """``_LETTER_RUNS.findall(text)``, faster: whole ASCII letter runs first (a plain character class
    scans about three times as fast as the pattern's alternatives), then only a run with a capital after
    a small letter (``aB``) split by the pattern itself."""
    runs = _LETTERS.findall(text)
    if all(run.islower() or run.isupper() or run[1:].islower() for run in runs):
        return runs
    split: list[str] = []
    for run in runs:
        if run.islower() or run.isupper() or run[1:].islower():
            split.append(run)
        else:
            split += _LETTER_RUNS.findall(run)
    return split


def _letter_halves(runs: list[str]) -> int:
    """Twice the letter-run estimate: a known word counts its tokens, a short unknown run (up to
    ``_SHORT_RUN`` letters, e.g. ``Gk``) or one with capitals after its first letter one per letter (o200k
    may split it letter by letter), any other run (letters + 1) / 2."""
    if len(runs) < _FEW_RUNS:  # counting a few runs first (Counter) costs more than it saves
        return sum(map(_run_halves, runs))
    return sum(times * _run_halves(run) for run, times in Counter(runs).items())


def _run_halves(run: str) -> int:
    known = KNOWN_WORDS.get(run)
    if known is not None:
        return 2 * known
    if len(run) <= _SHORT_RUN or not run[1:].islower():
        # short runs, and codes in capitals or mixed case (EAAHAAH is 5 tokens), may split per letter
        return 2 * len(run)
    return len(run) + 1


_SHORT_RUN = 3
_FEW_RUNS = 32


def _merged_punctuation(text: str) -> int:
    """Characters saved by counting each known punctuation run as one token."""
    return sum(len(run) - 1 for run in _PUNCT_RUNS.findall(text) if run in SINGLE_TOKEN_PUNCTUATION)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""``json.dumps`` with these options builds an encoder on every call."""


def dumps(value: Any) -> str:
    return _ENCODER.encode(value)


# What ``shape_rows`` always returns, as JSON Schema: the output schema of every tool that answers in rows.
ROWS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "columns": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": {"type": "array"}},
        "row_count": {"type": "integer", "description": "All matching rows, shown or not."},
        "truncated": {"type": "boolean"},
        "shown": {"type": "integer"},
        "hint": {"type": "string", "description": "How to narrow the question when rows were cut."},
    },
    "required": ["columns", "rows", "row_count"],
}


@dataclass(frozen=True)
class Rows:
    """A table result: the first rows fetched (at most MAX_ROWS + 1) and, when known, the total."""

    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    total: int | None = None
    hint: str = "narrow the question: add a filter, a shorter date range or a smaller limit"


@dataclass(frozen=True)
class Shaped:
    text: str
    rows: int
    truncated: bool

    @cached_property
    def tokens(self) -> int:
        """The estimate of ``text``, counted when read: most results are too short to need it."""
        return estimate_tokens(self.text)


def over_budget(text: str, max_tokens: int) -> int | None:
    """The token estimate of ``text`` when it is over ``max_tokens``, else None. The estimate never exceeds
    the text's UTF-8 bytes, so a text of at most ``max_tokens`` bytes is not counted at all (about 15 µs
    per result, on the path of every call)."""
    if len(text) <= max_tokens and (text.isascii() or len(text.encode("utf-8")) <= max_tokens):
        return None
    tokens = estimate_tokens(text)
    return tokens if tokens > max_tokens else None


def shape_rows(result: Rows, *, max_rows: int = MAX_ROWS, max_tokens: int = MAX_TOKENS) -> Shaped:
    rows = [[to_jsonable(v) for v in row] for row in result.rows]
    total = result.total if result.total is not None else len(rows)
    keep = min(len(rows), max_rows)
    while True:
        payload: dict[str, Any] = {"columns": list(result.columns), "rows": rows[:keep], "row_count": total}
        truncated = keep < total
        if truncated:
            payload.update(truncated=True, shown=keep, hint=result.hint)
        text = dumps(payload)
        tokens = over_budget(text, max_tokens)
        if tokens is None or keep == 0:
            return Shaped(text=text, rows=keep, truncated=truncated)
        keep = max(0, min(keep - 1, int(keep * max_tokens / tokens)))


def shape_object(value: dict[str, Any], *, max_tokens: int = MAX_TOKENS) -> Shaped:
    """An object result; if it is too large, its longest lists are halved until it fits, and it says so."""
    obj = to_jsonable(value)
    text = dumps(obj)
    cut: dict[str, int] = {}  # list name -> its full length
    while over_budget(text, max_tokens) is not None:
        key = _longest_list_key(obj)
        if key is None:
            text = dumps({"truncated": True, "error": "the result is too large to show; narrow the question"})
            return Shaped(text=text, rows=0, truncated=True)
        cut.setdefault(key, len(obj[key]))
        obj[key] = obj[key][: len(obj[key]) // 2]
        obj.update(truncated=True, truncated_lists=cut)
        text = dumps(obj)
    return Shaped(text=text, rows=1, truncated=bool(cut))


def _longest_list_key(obj: dict[str, Any]) -> str | None:
    lists = [(len(v), k) for k, v in obj.items() if isinstance(v, list) and v]
    return max(lists)[1] if lists else None
