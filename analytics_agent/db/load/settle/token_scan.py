"""Whether a file can hold a missing-value token at all, before the recount reads it again as text.

The recount (``token_notes.token_counts``) parses the whole file a second time to tell a token read as
missing (``NA``, ``NULL``) from an empty field: 0.67 s of CPU on a 66 MB voter file whose own load
writes in 2.3. Most files hold no token at all, only empty fields; one regular-expression scan of the
file's bytes for a token standing as a whole field proves that in 0.2 s on the same file, and stops at
the first one found when there is one.

The scan must never miss a token DuckDB would match (no note would then say what became NULL), so it is
loose: a token counts as standing alone between any two of the delimiter's characters, the quote, a line
end, a byte-order mark or the file's ends. DuckDB matches a field's whole text, quoted or not, untrimmed; a token next to
anything else is no field of its own. A loose match only costs the recount that would have run anyway.
"""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.load.options import duckdb_path
from analytics_agent.db.rows import first_row

MAX_SCAN_BYTES = 256 * 2**20
"""DuckDB's ``read_text`` holds the whole file in memory; a bigger input is recounted without a scan."""

_PACKED = (".gz", ".bz2", ".zst", ".zstd", ".zip", ".xz")
"""DuckDB's reader unpacks these itself; their bytes say nothing."""


class Recount(NamedTuple):
    """The file read again as text (only the empty field missing), and what the scan before it needs."""

    source: str
    params: list[Any]
    files: Sequence[Path] = ()
    """The files as DuckDB reads them; empty when their bytes are not the text DuckDB reads (an
    encoding DuckDB decodes, a packed file): then there is no scan."""
    boundaries: str = ""
    """The characters around a whole field: the delimiter's, the quote, the line ends, the byte-order mark."""
    sample: tuple[str, list[Any]] | None = None
    """``source`` in small batches, for its first rows (which tokens a column holds)."""


def recount_for(
    source: str,
    params: list[Any],
    files: Sequence[Path],
    delimiter: str,
    quote: str,
    encoding: str | None,
    *,
    sample: tuple[str, list[Any]] | None = None,
) -> Recount:
    """The recount of a plan; its files are scanned only when their bytes are what DuckDB reads. Pure."""
    plain = (encoding or "utf-8").lower().replace("_", "-") in ("utf-8", "utf8") and not any(
        f.name.lower().endswith(_PACKED) for f in files
    )
    # the byte-order mark too: DuckDB drops it, so a file's first field starts right after it
    edges = "".join(sorted({*delimiter, *quote, "\n", "\r", "\ufeff"}))
    return Recount(source, params, tuple(files) if plain else (), edges, sample)


def scan_pattern(tokens: Sequence[str], boundaries: str) -> str | None:
    """RE2 pattern matching any of ``tokens`` as a whole field; None when a token could not be told apart
    by its bytes (it holds a boundary character or RE2's literal end ``\\E``). Pure."""
    if not tokens or any(set(t) & set(boundaries) or "\\E" in t for t in tokens):
        return None
    edge = "[" + "".join(_in_class(c) for c in boundaries) + "]"
    alternatives = "|".join(f"\\Q{t}\\E" for t in sorted(tokens, key=len, reverse=True))
    return f"(?:^|{edge})(?:{alternatives})(?:{edge}|$)"


def _in_class(char: str) -> str:
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, "\\" + char if char in "\\]^-[" else char)


_HEAD_BYTES = 1 << 16


def _in_head(path: Path, tokens: Sequence[str], boundaries: str) -> bool:
    """A token as a whole field in the file's first block: most files that hold one show it there, and
    then DuckDB need not read the whole file into memory to find it (0.04 s of CPU on 66 MB). Loose, as
    the scan is: a token cut at the block's end still counts. Each token is looked for with the edge after
    it, then the character before it is checked: Python's ``re`` skips quickly to a token's first letter,
    not to a delimiter that stands between every two fields (64 KB: 0.3 against 1.5 ms)."""
    import re  # compiled once a load, only for a file with NULLs in its text columns

    with path.open("rb") as handle:
        head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    alternatives = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
    followed = re.compile(f"(?:{alternatives})(?=[{re.escape(boundaries)}]|$)")
    return any(m.start() == 0 or head[m.start() - 1] in boundaries for m in followed.finditer(head))


def may_hold_tokens(conn: duckdb.DuckDBPyConnection, recount: Recount, tokens: Sequence[str]) -> bool:
    """False only when no file holds any of ``tokens`` as a field (so every NULL of a text column was an
    empty field); True when one may, or when the bytes cannot be scanned."""
    pattern = scan_pattern(tokens, recount.boundaries)
    if pattern is None or not recount.files:
        return True
    try:
        if _in_head(recount.files[0], tokens, recount.boundaries):
            return True
        if sum(f.stat().st_size for f in recount.files) > MAX_SCAN_BYTES:
            return True
        found = first_row(
            conn.cursor().execute(
                "SELECT coalesce(bool_or(regexp_matches(content, ?)), false) FROM read_text(?)",
                [pattern, [duckdb_path(f) for f in recount.files]],
            )
        )[0]
    except (duckdb.Error, OSError):  # not UTF-8 after all, gone, unreadable: the recount decides
        return True
    return bool(found)
