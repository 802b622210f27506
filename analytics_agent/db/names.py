"""Safe table and column names from whatever a file calls them. Pure.

A stored name is lowercase snake_case that never needs quoting: ``Order Date`` → ``order_date``,
``customerID`` → ``customer_id``, ``Café`` → ``cafe`` (accents dropped), ``備考`` → ``備考`` (other
letters kept: DuckDB reads them unquoted), ``2024 sales`` → ``t_2024_sales``, a reserved word gets a
trailing underscore (``select`` → ``select_``; ``rename_reason`` says so), and duplicates get ``_2``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

MAX_NAME_LENGTH = 63
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NOT_WORD = re.compile(r"[\W_]+")  # \W is Unicode-aware: letters of any script and digits stay
_GLOB_CHARS = re.compile(r"[*?\[\]{}]")
_DATA_SUFFIXES = (".zip", ".gz", ".zst", ".csv", ".tsv", ".txt", ".parquet", ".pq")


def safe_identifier(
    text: str, *, reserved: Iterable[str] = (), prefix: str = "c", fallback: str | None = None
) -> str:
    """One safe name; ``prefix`` (``c`` for columns, ``t`` for tables) goes before a leading digit;
    ``fallback`` (default: the prefix) stands in for a name with no usable letters."""
    snake = _NOT_WORD.sub("_", _CAMEL_BOUNDARY.sub("_", _without_accents(text)).lower()).strip("_")
    if not snake:
        snake = fallback or prefix
    elif snake[0].isdigit():
        snake = f"{prefix}_{snake}"
    snake = snake[:MAX_NAME_LENGTH].rstrip("_")
    if snake in {r.lower() for r in reserved}:
        snake += "_"
    return snake


def _without_accents(text: str) -> str:
    """Latin letters lose their accents (``é`` → ``e``); other scripts stay as written (``й``)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        base = unicodedata.normalize("NFKD", ch)
        ascii_base = "".join(c for c in base if not unicodedata.combining(c))
        out.append(ascii_base if ascii_base.isascii() else ch)
    return "".join(out)


def rename_reason(original: str, stored: str, reserved: Iterable[str]) -> str | None:
    """Why a name changed, when the change is not obvious from the two names: a reserved word. Pure."""
    base = stored.rstrip("_")
    if stored != original and stored.endswith("_") and base in {r.lower() for r in reserved}:
        return f"{original} is an SQL keyword, stored as {stored}"
    return None


def safe_column_names(originals: Sequence[str], *, reserved: Iterable[str] = ()) -> list[str]:
    """Safe, distinct names for a file's columns, in order."""
    reserved = frozenset(r.lower() for r in reserved)
    taken: set[str] = set()
    result = []
    for position, original in enumerate(originals, start=1):
        base = safe_identifier(original, reserved=reserved, prefix="c", fallback=f"column_{position}")
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        result.append(name)
    return result


def table_name_from_path(path: str, *, reserved: Iterable[str] = ()) -> str:
    """The table a file loads into when no name is given: its file name without data suffixes and
    glob characters (``exports/Sales 2024-*.csv.gz`` → ``sales_2024``)."""
    name = re.split(r"[/\\]", path)[-1]
    lowered = name.lower()
    stripped = True
    while stripped:
        stripped = False
        for suffix in _DATA_SUFFIXES:
            if lowered.endswith(suffix) and len(lowered) > len(suffix):
                name, lowered = name[: -len(suffix)], lowered[: -len(suffix)]
                stripped = True
    return safe_identifier(_GLOB_CHARS.sub(" ", name), reserved=reserved, prefix="t")
