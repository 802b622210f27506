"""Shape a tool's value into the compact JSON text a model reads, within fixed bounds. Pure.

Bounds: at most ``MAX_ROWS`` rows and at most ``MAX_TOKENS`` o200k tokens per result. Whatever is cut is
said in the result itself (``"truncated": true``, the total, and a hint), never dropped silently.

Token counts use ``estimate_tokens``, a deliberate over-estimate of o200k (the tokenizer GPT-4o uses), so
the runtime needs no tokenizer files (tiktoken downloads them on first use, which fails offline). On
result JSON it over-counts by at least 1.17x even for random strings (tests check it against the real
tokenizer); only bare runs of random letters outside JSON can beat it, and results are always JSON.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from analytics_agent.db.values import to_jsonable

MAX_ROWS = 50
MAX_TOKENS = 1000
_LETTER_RUNS = re.compile(r"[A-Z]*[a-z]+|[A-Z]+")  # o200k splits words where the case changes
_DIGIT_RUNS = re.compile(r"[0-9]+")
_BLANK_RUNS = re.compile(r" +|\n+|\t+")


def estimate_tokens(text: str) -> int:
    """Over-estimate o200k tokens: 1 per 2 letters, 1 per 3 digits, 1 per 8 blanks (each run rounded up),
    1 per other ASCII character (JSON punctuation mostly merges, which pays for unusual letter runs), 1 per
    UTF-8 byte of anything else (byte-level BPE never needs more).

    Counted with regexes and sums, not a Python loop per piece: it runs on every tool result.
    """
    ascii_chars = len(text.encode("ascii", "ignore"))
    non_ascii_bytes = len(text.encode("utf-8")) - ascii_chars
    letters, digits, blanks = (r.findall(text) for r in (_LETTER_RUNS, _DIGIT_RUNS, _BLANK_RUNS))
    letter_chars, digit_chars, blank_chars = (sum(map(len, runs)) for runs in (letters, digits, blanks))
    other_ascii = ascii_chars - letter_chars - digit_chars - blank_chars
    return (
        math.ceil((letter_chars + len(letters)) / 2)  # >= the sum of ceil(run / 2)
        + math.ceil((digit_chars + 2 * len(digits)) / 3)  # >= the sum of ceil(run / 3)
        + len(blanks)
        + blank_chars // 8
        + other_ascii
        + non_ascii_bytes
    )


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


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
    tokens: int


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
        tokens = estimate_tokens(text)
        if tokens <= max_tokens or keep == 0:
            return Shaped(text=text, rows=keep, truncated=truncated, tokens=tokens)
        keep = max(0, min(keep - 1, int(keep * max_tokens / tokens)))


def shape_object(value: dict[str, Any], *, max_tokens: int = MAX_TOKENS) -> Shaped:
    """An object result; if it is too large, its longest lists are halved until it fits, and it says so."""
    obj = to_jsonable(value)
    text = dumps(obj)
    cut: dict[str, int] = {}  # list name -> its full length
    tokens = estimate_tokens(text)
    while tokens > max_tokens:
        key = _longest_list_key(obj)
        if key is None:
            text = dumps({"truncated": True, "error": "the result is too large to show; narrow the question"})
            return Shaped(text=text, rows=0, truncated=True, tokens=estimate_tokens(text))
        cut.setdefault(key, len(obj[key]))
        obj[key] = obj[key][: len(obj[key]) // 2]
        obj.update(truncated=True, truncated_lists=cut)
        text = dumps(obj)
        tokens = estimate_tokens(text)
    return Shaped(text=text, rows=1, truncated=bool(cut), tokens=tokens)


def _longest_list_key(obj: dict[str, Any]) -> str | None:
    lists = [(len(v), k) for k, v in obj.items() if isinstance(v, list) and v]
    return max(lists)[1] if lists else None
