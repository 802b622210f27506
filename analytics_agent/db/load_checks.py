"""What a load tells the user beyond row counts: records set aside by ``--skip-bad-rows`` (kept in a
``<table>_rejects`` table), text columns that are numbers or dates but for a few odd values, and names
that had to change. Runs inside the load's transaction; the SQL is DuckDB's, no Python pass over rows."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.amounts import settle_amounts
from analytics_agent.db.catalog import quote_ident, table_names
from analytics_agent.db.odd_values import SAMPLE_ROWS, first_rows, odd_value_notes
from analytics_agent.db.rows import first_row

# Patterns as text, compiled by ``re`` on first use (and kept in its cache): most loads have no column
# that looks like dates, and compiling the three cost every load 0.27 ms.
# day, month (number or name) and year with one separator kind: 12/31/09, 31-Jan-2009, 2009.01.31
_DATE_SHAPE = r"^(\d{1,2}([-/])(\d{1,2}|[A-Za-z]{3,9})\2\d{2,4}|\d{4}([-/.])(\d{1,2}|[A-Za-z]{3,9})\4\d{1,2}|\d{1,2}\.\d{1,2}\.\d{4})$"
_ISO_DATE = r"^\d{4}-\d{1,2}-\d{1,2}$"
_WRITTEN_DATE = r"^(\d{1,4}|[A-Za-z]{3,9})[-/. ]+(\d{1,2}|[A-Za-z]{3,9})[-/., ]+\d{2,4}$"


class Rejects(NamedTuple):  # not a dataclass: a tenth of the import cost (0.07 against 0.5 ms)
    """Where DuckDB puts the records a ``--skip-bad-rows`` load sets aside (temporary tables)."""

    errors: str
    scans: str

    @classmethod
    def fresh(cls) -> Rejects:
        tag = uuid.uuid4().hex[:12]
        return cls(f"_rejects_{tag}", f"_reject_scans_{tag}")

    def keep(self, conn: duckdb.DuckDBPyConnection, table: str, labels: dict[str, str]) -> list[int]:
        """Copy the set-aside records to ``<table>_rejects`` (replacing an older one) and return their
        line numbers; with none, an older ``<table>_rejects`` is dropped."""
        target = quote_ident(f"{table}_rejects")
        if f"{table}_rejects" in table_names(conn):
            conn.execute(f"DROP TABLE {target}")
        count = first_row(conn.execute(f"SELECT count(*) FROM {quote_ident(self.errors)}"))[0]
        if count:
            conn.execute(
                f"CREATE TABLE {target} AS SELECT coalesce(MAP(?::VARCHAR[], ?::VARCHAR[])[s.file_path], "
                "s.file_path) AS file, "
                "e.line, e.column_name AS column, e.error_type AS problem, e.csv_line AS text "
                f"FROM {quote_ident(self.errors)} e JOIN {quote_ident(self.scans)} s USING (scan_id, file_id) "
                "ORDER BY file, line",
                [list(labels), list(labels.values())],
            )
        # one record can hold several errors: count records, not errors
        lines = conn.execute(f"SELECT DISTINCT line FROM {quote_ident(self.errors)} ORDER BY line").fetchall()
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.errors)}")
        conn.execute(f"DROP TABLE IF EXISTS {quote_ident(self.scans)}")
        return [int(r[0]) for r in lines]


# Dates written as text that DuckDB's sniffer leaves as VARCHAR; day/month pairs are tried both ways.
TEXT_DATE_FORMATS = (
    "%b %d %Y",
    "%b %d, %Y",
    "%d %b %Y",
    "%d-%b-%Y",
    "%d-%b-%y",
    "%B %d %Y",
    "%B %d, %Y",
    "%d %B %Y",
    "%Y/%m/%d",
    "%d.%m.%Y",
    "%m.%d.%Y",
    "%d/%m/%Y",
    "%m/%d/%Y",
    "%d-%m-%Y",
    "%m-%d-%Y",
)
_DAY_FIRST = {"%m.%d.%Y": "%d.%m.%Y", "%m/%d/%Y": "%d/%m/%Y", "%m-%d-%Y": "%d-%m-%Y"}


def settle_columns(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    *,
    text: Sequence[str],
    flags: Sequence[str],
    fixed: Sequence[str],
    recount: tuple[str, list[Any]] | None,
    stored_to_original: dict[str, str],
    tokens: Sequence[str],
    date_formats: Mapping[str, str],
    decimal: str | None = None,
    rows: int | None = None,
) -> tuple[list[str], dict[str, str | None]]:
    """Decide what the text columns of a freshly written table are, and say every change made to values.
    Returns the notes and the columns of amounts stored as numbers, with their unit (``amounts``).

    ``flags``: columns DuckDB guessed BOOLEAN, read as text; BOOLEAN only if every value is true/false.
    Text columns holding dates in a common written form become DATE (said). Missing-value tokens that
    became NULL in a text column are counted from the file (``recount``) and said with the option that
    keeps them. ``fixed``: columns the user typed with --type (left alone). ``rows``: the table's row
    count, when the caller knows it (the checks of its first rows then read it whole when it is small)."""
    text = [c for c in text if c not in flags] + [c for c in flags if not _become_boolean(conn, table, c)]
    free = [c for c in text if c not in fixed]
    probe = _probe(conn, table, free)
    amounts = settle_amounts(conn, table, probe, decimal)
    notes = list(amounts.notes)
    text = [c for c in text if c not in amounts.units]
    free = [c for c in free if c not in amounts.units and c not in amounts.noted]
    dated, date_notes, noted = _text_dates(conn, table, free, date_formats, rows, probe)
    notes += date_notes
    text = [c for c in text if c not in dated]
    notes += _token_notes(conn, table, text, recount, stored_to_original, tokens)
    noted += amounts.noted
    notes += odd_value_notes(
        conn, table, [c for c in text if c not in fixed and c not in noted], decimal=decimal, rows=rows
    )
    notes += _ambiguous_date_notes(conn, table, date_formats)
    return notes, amounts.units


def _probe(conn: duckdb.DuckDBPyConnection, table: str, text: Sequence[str]) -> dict[str, list[str]]:
    """The non-null values among the first rows of each text column: what decides which columns the
    amount and date checks read whole (most columns are neither)."""
    if not text:
        return {}
    wanted = ", ".join(quote_ident(name) for name in text)
    rows = conn.execute(f"SELECT {wanted} FROM {quote_ident(table)} LIMIT 50").fetchall()
    return {name: [row[i] for row in rows if row[i] is not None] for i, name in enumerate(text)}


def _become_boolean(conn: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    col, target = quote_ident(column), quote_ident(table)
    other, present = first_row(
        conn.execute(
            f"SELECT count({col}) FILTER (WHERE lower(trim({col})) NOT IN ('true', 'false')), count({col}) "
            f"FROM {target}"
        )
    )
    if other or not present:
        return False
    conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE BOOLEAN USING lower(trim({col}))::BOOLEAN")
    return True


def _text_dates(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    decided: Mapping[str, str],
    rows: int | None,
    probe: Mapping[str, Sequence[str]],
) -> tuple[list[str], list[str], list[str]]:
    """Text columns whose every value is a date in one of ``TEXT_DATE_FORMATS``: converted to DATE. Also
    the notes, and the columns noted as dates but for some values (the odd-value check need not name
    those values again)."""
    text, shaped = _date_candidates(text, probe)
    if not text:
        return [], [], []
    converted: list[str] = []
    notes: list[str] = []
    noted: list[str] = []
    others = set(decided.values())
    for name, (present, fits) in zip(text, _format_fits(conn, table, text, rows), strict=True):
        full = [f for f, n in zip(TEXT_DATE_FORMATS, fits, strict=True) if present and n == present]
        most, best = max(zip(fits, TEXT_DATE_FORMATS, strict=True)) if present else (0, "")
        if not full and (not most or most * 2 < present):
            # an ISO date is DuckDB's own form: what kept such a column text is named by the odd-value check
            if shaped.get(name) and not re.match(_ISO_DATE, shaped[name]):
                notes.append(
                    f"{name} looks like dates (e.g. {shaped[name]!r}) in a form not recognised; it stayed "
                    f"text: add --date-format {name}=FORMAT (e.g. %d/%m/%y) to store it as DATE"
                )
            continue
        # most values fit a format (``best``) but some do not: those are named below, not the format
        chosen, why = _choose_format(name, full, others) if full else (best, "")
        col, target = quote_ident(name), quote_ident(table)
        bad, example = first_row(
            conn.execute(
                f"SELECT count(*), any_value({col}) FROM {target} WHERE {col} IS NOT NULL "
                f"AND (TRY_STRPTIME({col}, ?) IS NULL OR NOT {_year_shape(col, chosen)})",
                [chosen],
            )
        )
        if bad:
            notes.append(
                f"{name} looks like dates ({chosen}) but {bad:,} values such as {example!r} do not fit; "
                f"it stayed text (fix them, or add --null {example!r} if they mean missing)"
            )
            noted.append(name)
            continue
        sample = first_row(conn.execute(f"SELECT {col} FROM {target} WHERE {col} IS NOT NULL LIMIT 1"))[0]
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE DATE USING strptime({col}, '{chosen}')::DATE")
        converted.append(name)
        notes.append(
            f"{name}: text dates like {sample!r} stored as DATE (format {chosen}{why}); "
            f"add --type {name}=VARCHAR to keep them as text"
        )
    return converted, notes, noted


def _format_fits(
    conn: duckdb.DuckDBPyConnection, table: str, text: Sequence[str], rows: int | None
) -> list[tuple[int, list[int]]]:
    """Per column, its values among the first ``SAMPLE_ROWS`` rows and how many fit each of
    ``TEXT_DATE_FORMATS``, in one scan."""
    selects = []
    for name in text:
        col = quote_ident(name)
        selects.append(f"count({col})")
        selects += [
            f"count(*) FILTER (WHERE TRY_STRPTIME({col}, '{f}') IS NOT NULL AND {_year_shape(col, f)})"
            for f in TEXT_DATE_FORMATS
        ]
    counts = first_row(
        conn.execute(f"SELECT {', '.join(selects)} FROM {first_rows(table, text, SAMPLE_ROWS, rows)}")
    )
    width = len(TEXT_DATE_FORMATS) + 1
    return [(counts[width * i], list(counts[width * i + 1 : width * (i + 1)])) for i in range(len(text))]


def _date_candidates(
    text: Sequence[str], probe: Mapping[str, Sequence[str]]
) -> tuple[list[str], dict[str, str]]:
    """The text columns whose first values fit some date format: the full check runs on these only
    (``TRY_STRPTIME`` on every format for every sampled value is the costliest step of a load); and of
    those, the ones shaped like dates throughout (``12/31/09``, ``2009-Jan-31``), with an example."""
    keep, shaped = [], {}
    for name in text:
        values = probe[name]
        if values and all(_date_like(v) for v in values):
            keep.append(name)
            if all(re.match(_DATE_SHAPE, v) for v in values):
                shaped[name] = values[0]
    return keep, shaped


def _date_like(value: str) -> bool:
    """Three parts, numbers or a month name, with date separators: could be a written date (``Jan 1 2009``,
    ``1-Jan-2009``, ``2009/01/31``; not ``A-00001234``). Pure."""
    return 6 <= len(value) <= 20 and re.match(_WRITTEN_DATE, value) is not None


def _year_shape(col: str, fmt: str) -> str:
    """SQL: the value writes its year in full (``2.2.2`` is a version, not 2 Feb of year 2)."""
    return f"regexp_matches({col}, '\\d{{4}}')" if "%Y" in fmt else "true"


def _choose_format(name: str, full: Sequence[str], others: set[str]) -> tuple[str, str]:
    """One format among those every value fits: day-first unless the file's other dates are month-first."""
    if len(full) == 1:
        return full[0], ""
    month_first = [f for f in full if f in _DAY_FIRST and _DAY_FIRST[f] in full]
    if month_first:
        day_first = _DAY_FIRST[month_first[0]]
        if any(o.find("%m") < o.find("%d") for o in others if "%m" in o and "%d" in o):
            return month_first[0], (
                "; every value fits day-first too, read month-first as the file's other dates: if days come "
                f"first, add --date-format {name}={day_first}"
            )
        return day_first, (
            f"; every value fits month-first too, read day-first: if months come first, add --date-format "
            f"{name}={month_first[0]}"
        )
    return full[0], ""


def _token_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    recount: tuple[str, list[Any]] | None,
    stored_to_original: dict[str, str],
    tokens: Sequence[str],
) -> list[str]:
    """Name each text column where values such as ``NA`` became NULL, with the count."""
    real = [t for t in tokens if t]
    if not text or recount is None or not real:
        return []
    nulls = first_row(
        conn.execute(
            f"SELECT {', '.join(f'count(*) - count({quote_ident(c)})' for c in text)} FROM {quote_ident(table)}"
        )
    )
    suspects = [c for c, n in zip(text, nulls, strict=True) if n]
    if not suspects:
        return []
    source, params = recount
    parts = []
    for name in suspects:
        col = quote_ident(stored_to_original[name])
        parts += [
            f"count(*) FILTER (WHERE {col} IN ({', '.join('?' * len(real))}))",
            f"list(DISTINCT {col}) FILTER (WHERE {col} IN ({', '.join('?' * len(real))}))",
        ]
    try:  # on a cursor of its own: a failure here must not abort the load's transaction
        counts = first_row(
            conn.cursor().execute(
                f"SELECT {', '.join(parts)} FROM {source}", [*(real * 2 * len(suspects)), *params]
            )
        )
    except duckdb.Error:
        return [f"{', '.join(suspects)}: values such as NA may have become NULL; add --null '' to keep them"]
    notes = []
    for i, name in enumerate(suspects):
        count, seen = counts[2 * i], counts[2 * i + 1]
        if count:
            shown = ", ".join(repr(v) for v in sorted(seen)[:3])
            values = "value" if count == 1 else "values"
            notes.append(
                f"{name}: {count:,} {values} {shown} read as missing (NULL); add --null '' to keep them as text"
            )
    return notes


def _ambiguous_date_notes(
    conn: duckdb.DuckDBPyConnection, table: str, formats: Mapping[str, str]
) -> list[str]:
    """Say which reading of day/month dates was chosen, and whether the values decided it."""
    notes = []
    for name, fmt in formats.items():
        col = quote_ident(name)
        first = "day" if fmt.index("%d") < fmt.index("%m") else "month"
        swapped = fmt.replace("%d", "\0").replace("%m", "%d").replace("\0", "%m")
        deciding = first_row(
            conn.execute(f"SELECT count(*) FILTER (WHERE day({col}) > 12) FROM {quote_ident(table)}")
        )[0]
        if deciding:
            notes.append(
                f"{name}: dates read {first}-first ({fmt}); {deciding:,} "
                f"{'value only fits' if deciding == 1 else 'values only fit'} that reading"
            )
        else:
            notes.append(
                f"{name}: dates read {first}-first ({fmt}) but every value fits {swapped} too; "
                f"if that is meant, load again with --date-format {name}={swapped}"
            )
    return notes


def data_lines(conn: duckdb.DuckDBPyConnection, path: Path, options: Any) -> int:
    """The rows DuckDB's own detection reads from the file (all text, bad lines ignored)."""
    from analytics_agent.db.sources import duckdb_path

    named = "".join(
        f", {k} = ?" for k, v in (("encoding", options.encoding), ("comment", options.comment)) if v
    )
    params: list[Any] = [duckdb_path(path), *(v for v in (options.encoding, options.comment) if v)]
    try:
        row = first_row(
            conn.cursor().execute(
                f"SELECT count(*) FROM read_csv(?, all_varchar = true, ignore_errors = true{named})", params
            )
        )
    except duckdb.Error:
        return 0
    return int(row[0])


def plural_lines(n: int) -> str:
    return f"{n:,} line" + ("" if n == 1 else "s")
