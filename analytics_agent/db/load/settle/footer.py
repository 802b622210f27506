"""Note lines below a spreadsheet's table (``Source: ERP export,,``, ``* figures in thousands,,``): written
with the table's own number of fields, DuckDB reads them as records, so they loaded as rows without a
word; one with text where a number column has numbers kept that column text, and the odd-value note
then advised ``--null`` for it (which loads the note as a row). Below a totals row such a line also hid
the total (the last row was the note), so every sum over the table counted the totals twice.

A note row has no value in any column that is not text (numbers, dates, flags) and some text. The
trailing run of such rows is the footer's notes when a totals row stands right above it (nothing with no
numbers follows a grand total as data), or else when each of them starts like a note (``_NOTE_START``).
Runs inside the load's transaction on the freshly written table (its ``rowid`` follows the file's order).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.plain_words import lowered, may_start
from analytics_agent.db.rows import is_number

_NOTE_START = (
    r"(?i)^\s*(?:[*†‡©]|\(c\)|\(\d+\)|\d+\)\s"
    r"|(?:sources?|notes?|footnotes?|remarks?|comments?|disclaimer|quellen?|hinweise?|anmerkungen?|fuentes?"
    r"|notas?|remarques?|stand)\s*:"
    r"|(?:prepared|generated|created|exported|printed|compiled|produced|downloaded|extracted)\s+(?:by|on|at|from)\b"
    r"|report\s+(?:generated|created|run|printed)\b|copyright\b|(?:data\s+)?as\s+of\b|all\s+rights\s+reserved)"
)
"""How a note below a table starts: a footnote mark, ``Source:``/``Note:`` (in a few languages), ``Prepared
by``, ``Report generated``, ``Copyright``, ``As of``."""
_NOTE_STARTS = (
    "*", "(", "source", "note", "footnote", "remark", "comment", "disclaimer", "quelle", "hinweis",
    "anmerkung", "fuente", "nota", "remarque", "stand", "prepared", "generated", "created", "exported",
    "printed", "compiled", "produced", "downloaded", "extracted", "report", "copyright", "data", "as", "all"
)  # fmt: skip
"""How a text ``_NOTE_START`` matches starts when not with a digit, in lower case (``plain_words``: the
test before it)."""
_BALANCE_LINE = (
    r"(?i)^\s*#?\s*(?:(?:closing|ending|end|final)\s+balance|balance\s+(?:as\s+)?(?:of|at|on)\b|kontostand"
    r"|endsaldo|eindsaldo|schlusssaldo|saldo\s+(?:finale?|al|a|am|per|ko[nń]cowe|zamkni[eę]cia)\b"
    r"|saldo\s+(?:contabil[ií]stico|dispon[ií]vel|atual|actual)\b"
    r"|solde\s+(?:final|au)\b|sold\s+final\b|nouveau\s+solde|kone[cč]n[ýy]\s+z[uů]statek"
    r"|крайно\s+салдо|исходящ(?:ий|ее)\s+(?:остаток|сальдо)|остаток\s+на\s+конец|вихідний\s+залишок)"
)
"""How a bank statement's closing line starts (``Kontostand am 31.03.2024;;;;;7.549,48``, mBank's
``#Saldo końcowe``, a Portuguese bank's ``Saldo contabilístico``): its numbers repeat the balance of the row above, so it is a note, numbers and all
(``note_rows``)."""
_BALANCE_STARTS = (
    "closing", "end", "final", "balance", "kontostand", "eindsaldo", "schlusssaldo", "saldo", "sold", "nouveau",
    "kone"
)  # fmt: skip
"""How a text ``_BALANCE_LINE`` matches starts after its ``#``, in lower case (the test before it; ``end``
stands for ``ending`` and ``endsaldo``)."""
_SHARE_LINE = (
    r"(?i)^\s*(?:percent(?:age)?|%|share|anteil|pourcentage|porcentaje|percentuale)\s*(?:of|du|del|vom|am|sul)?\s*"
    r"(?:the\s+)?(?:grand\s+)?(?:total|gesamt|totale?)\b"
)
"""A row under a totals row that gives each column's share of the grand total (Xero's ``Percentage of
total``, ``31.45%``): a note, its percents no amounts (``note_rows``)."""
_SHARE_STARTS = ("percent", "%", "share", "anteil", "pourcentage", "porcentaje")  # percent: percentuale too
MOST_NOTE_ROWS = 5


class Notes:
    """Trailing rows that could be notes, last first: their rowids, each one's first text and the text
    columns each writes in. (A plain class: a NamedTuple costs every load's import more.)"""

    __slots__ = ("balance", "read", "rows", "texts", "written")

    def __init__(
        self,
        rows: list[int],
        texts: list[str],
        written: list[list[str]],
        read: dict[int, dict[str, Any]] | None = None,
        balance: int = -1,
    ) -> None:
        self.rows, self.texts, self.written = rows, texts, written
        self.read = read or {}
        """Every trailing row ``note_rows`` read (rowid -> its cells), notes or not: the totals check
        looks there for the row above the notes before it asks DuckDB (``row_above``)."""
        self.balance = balance
        """The index in ``rows`` of a closing balance line whose numbers repeat a record's, or -1."""

    def starting_like_notes(self) -> Notes:
        """The trailing run of these rows that each start like a note (or a closing balance). Below a
        closing balance line whose numbers repeat a record's, any line of text is a note too (Santander's
        disclaimer, padded to the table's width): nothing without a number follows it as data."""
        run = self.balance + 1
        while run < len(self.rows) and (
            is_note_start(self.texts[run])
            or is_balance_line(self.texts[run])
            or is_share_line(self.texts[run])
        ):
            run += 1
        return Notes(self.rows[:run], self.texts[:run], self.written[:run], self.read)

    def row_above(self, before: int | None) -> tuple[int, dict[str, Any]] | None:
        """The table's last row with a rowid below ``before`` (None: its last row) when ``note_rows`` read
        it, else None. It read every row of a rowid range ending at the table's largest, so a row it read
        below ``before`` is the last such row of the whole table."""
        below = [rowid for rowid in self.read if before is None or rowid < before]
        return (max(below), self.read[max(below)]) if below else None

    @property
    def columns(self) -> list[str]:
        """The text columns any of the rows writes in, in the table's order of first use."""
        return list(dict.fromkeys(c for row in reversed(self.written) for c in row))

    @property
    def first(self) -> int | None:
        """The rowid the notes start at (the lowest), or None when there are none."""
        return min(self.rows) if self.rows else None


def is_note_start(text: str) -> bool:
    """Whether ``text`` starts like a note (``_NOTE_START``). Pure."""
    low = lowered(text.lstrip())
    if low is not None and low[:1].isdigit():  # only ``1) ...`` of a number: not a value such as 42
        may = low.lstrip("0123456789").startswith(")")
    else:
        may = low is None or low.startswith(_NOTE_STARTS)
    return may and re.match(_NOTE_START, text) is not None


def is_balance_line(text: str) -> bool:
    """Whether ``text`` starts like a closing balance line (``_BALANCE_LINE``). Pure."""
    return (
        may_start(text.lstrip().removeprefix("#"), _BALANCE_STARTS)
        and re.match(_BALANCE_LINE, text) is not None
    )


def is_share_line(text: str) -> bool:
    """Whether ``text`` starts like a line of shares of the grand total (``_SHARE_LINE``). Pure."""
    return may_start(text, _SHARE_STARTS) and re.match(_SHARE_LINE, text) is not None


def may_total(last: Mapping[str, Any], above: Sequence[Mapping[str, Any]]) -> bool:
    """Whether two numbers of ``last`` or more may each be the sum of their column above it: of one sign
    with the values of ``above`` (the rows read above it), two of them at least, and as large as their sum,
    as a total of values of one sign is. The test before ``unnamed_totals`` scans the table (a year, or a
    count no larger than the rows' above, rules a column out). Pure."""
    summable = 0
    for column, value in last.items():
        values = [row[column] for row in above if is_number(row.get(column)) and row[column]]
        if not is_number(value) or len(values) < 2:
            continue
        total = sum(float(v) for v in values)
        positive = all(v > 0 for v in values) and float(value) >= total
        negative = all(v < 0 for v in values) and float(value) <= total
        summable += positive or negative
    return summable >= 2


def _first(conn: duckdb.DuckDBPyConnection, t: str) -> tuple[Any, ...] | None:
    """The table's first row (a statement written newest first ends with the balance after it)."""
    return conn.execute(f"SELECT * FROM {t} WHERE rowid = (SELECT min(rowid) FROM {t})").fetchone()


def _above(
    conn: duckdb.DuckDBPyConnection, t: str, rows: Sequence[tuple[int, Sequence[Any]]]
) -> Iterator[Sequence[Any]]:
    """The rows read above a closing line, then the table's first row (read only if asked)."""
    yield from (row for _, row in rows)
    if (first := _first(conn, t)) is not None:
        yield first


_DATE_SHAPE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")


def _figures_repeat(
    cells: Sequence[tuple[tuple[str, bool], Any]],
    conn: duckdb.DuckDBPyConnection,
    t: str,
    above: Sequence[tuple[int, Sequence[Any]]],
) -> bool:
    """Whether a closing balance line's amounts, read as text before the amounts settle, are a row's
    above it (or the first row's), cell for cell, digit for digit (``_digits``): else the line may hold the balance in a column no row
    fills so (a Bulgarian statement's ``Крайно салдо`` under its credit column, moved there by the rows
    above), for the check once they are numbers to say. Its label and dates (the period's end) aside."""
    texts = [(i, str(v).strip()) for i, ((_, text), v) in enumerate(cells) if text and str(v or "").strip()]
    figures = [
        (i, v) for i, v in texts[1:] if any(ch.isdigit() for ch in v) and not _DATE_SHAPE.search(v)
    ]  # the first text is the label
    if not figures:
        return True
    return any(all(_digits(said[i]) == _digits(v) for i, v in figures) for said in _above(conn, t, above))


def _digits(value: Any) -> str:
    """A figure's digits, trailing zeros off: the same amount written ``2.804,16 EUR`` or read 2804.16,
    ``2.800,00`` or 2800.0. Pure."""
    return "".join(ch for ch in str(value) if ch.isdigit()).rstrip("0")


def note_rows(conn: duckdb.DuckDBPyConnection, table: str) -> Notes:
    """The table's trailing rows (at most ``MOST_NOTE_ROWS``) with no value outside its text columns (as
    typed now) and some text, last first: one rowid range read (not a sort), its types from DuckDB's
    binding of it (a load reads the catalog once)."""
    t = quote_ident(table)
    cursor = conn.execute(
        f"SELECT rowid, * FROM {t} WHERE rowid > (SELECT max(rowid) FROM {t}) - {MOST_NOTE_ROWS}"
    )
    names = [(d[0], str(d[1]) == "VARCHAR") for d in (cursor.description or [])[1:]]
    # last first, sorted here: DuckDB's ORDER BY of five rows cost a 60-column table 1.3 ms of CPU
    read = {int(rowid): row for rowid, *row in sorted(cursor.fetchall(), key=lambda r: -int(r[0]))}
    rows: list[int] = []
    texts: list[str] = []
    columns: list[list[str]] = []
    balance = -1
    ordered = list(read.items())
    for at, (rowid, row) in enumerate(ordered):  # last first
        cells = list(zip(names, row, strict=True))
        written = [(c, str(v).strip()) for (c, text), v in cells if text and v is not None and str(v).strip()]
        numbers = [(i, v) for i, ((_, text), v) in enumerate(cells) if not text and v is not None]
        if (
            numbers  # only then is the label read (its regex is compiled on first use)
            and written
            and is_balance_line(written[0][1])
            and any(
                all(said[i] == v for i, v in numbers if is_number(v))
                for said in _above(conn, t, ordered[at + 1 :])
            )
        ):
            # a closing balance: the numbers of a row above it (the last record's, under a turnover row),
            # or of the first row (a statement written newest first); its date may be the period's end
            numbers, balance = [], len(rows)
        elif (
            not numbers
            and len(written) > 1
            and is_balance_line(written[0][1])
            and not _figures_repeat(cells, conn, t, ordered[at + 1 :])
        ):
            break
        if not written or numbers:
            break
        rows.append(rowid)
        texts.append(written[0][1])
        columns.append([c for c, _ in written])
    return Notes(
        rows,
        texts,
        columns,
        {r: dict(zip((n for n, _ in names), row, strict=True)) for r, row in read.items()},
        balance,
    )
