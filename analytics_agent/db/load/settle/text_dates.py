"""Dates a load settles once the rows are in. Text columns of dates (and of day/month timestamps such as
``28/09/2021 03:21``) that DuckDB's sniffer left as VARCHAR become DATE (TIMESTAMP); a day/month order
that every value of a column fits both ways (``03/04/2020``) is taken from the rest of the file (a column
whose values decide it, ``$`` amounts, a US header) or refused with the option for each reading; two-digit
years get the century spreadsheets give them. Runs inside the load's transaction, in DuckDB's SQL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.date_formats import (
    COMMA_TIME,
    DATE_SHAPE,
    ISO_DATE,
    MONTH_FORMATS,
    MONTH_PERIOD,
    NAMED_FORMATS,
    NAMED_STAMP,
    NAMED_STAMP_FORMATS,
    PIVOT_SAID,
    TEXT_DATE_FORMATS,
    TEXT_STAMP_FORMATS,
    UTC_FORMATS,
    UTC_STAMP,
    WRITTEN_DATE,
    WRITTEN_STAMP,
    YEAR_STAMP,
    ZONED_FORMATS,
    ZONED_SAID,
    ZONED_STAMP,
    commas,
    pivoted,
    year_stamp_formats,
)
from analytics_agent.db.load.settle.day_month import Clues, file_reading, first_of, refusal, swapped
from analytics_agent.db.load.settle.first_rows import SAMPLE_ROWS, first_rows
from analytics_agent.db.load.settle.month_names import english_sql, in_english, local_months
from analytics_agent.db.load.settle.total_labels import is_total_label
from analytics_agent.db.rows import first_row


def text_dates(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    rows: int | None,
    probe: Mapping[str, Sequence[str]],
    clues: Clues,
) -> tuple[list[str], list[str], list[str], dict[str, str]]:
    """Text columns whose every value is a date in one of ``TEXT_DATE_FORMATS`` (a timestamp in one of
    ``TEXT_STAMP_FORMATS``): converted. Returns them, the notes, the columns noted as dates but for some
    values (the odd-value check need not name those values again) and the columns whose values decided
    day or month first."""
    formats, shaped, local, marked = _candidates(text, probe)
    if not formats:
        return [], [], [], {}
    values = {name: _value_sql(name, local, name in marked) for name in formats}
    fitting: dict[str, tuple[int, list[str], int, str]] = {}
    for (name, kinds), (present, fits) in zip(
        formats.items(), _format_fits(conn, table, formats, rows, values), strict=True
    ):
        full = [f for f, n in zip(kinds, fits, strict=True) if present and n == present]
        most, best = max(zip(fits, kinds, strict=True)) if present else (0, "")
        fitting[name] = (present, full, most, best)
    decided = {
        name: first_of(full[0])
        for name, (_, full, _, _) in fitting.items()
        if len(full) == 1 and "%m" in full[0] and swapped(full[0]) in formats[name]
    }
    clues = clues.adding(decided)
    converted: list[str] = []
    notes: list[str] = []
    noted: list[str] = []
    # month periods last: their years are weighed against the other dates, read first
    for name, (present, full, most, best) in sorted(
        fitting.items(), key=lambda f: formats[f[0]] == MONTH_FORMATS
    ):
        if not full and name in marked and (not most or most * 2 < present):
            from analytics_agent.db.load.settle.day_halves import unread_note

            notes.append(unread_note(name, probe[name], marked[name]))
            noted.append(name)
            continue
        if not full and (not most or most * 2 < present):
            # an ISO date is DuckDB's own form: what kept such a column text is named by the odd-value check
            if shaped.get(name) and not re.match(ISO_DATE, shaped[name]):
                notes.append(
                    f"{name} looks like dates (e.g. {shaped[name]!r}) in a form not recognised; it stayed "
                    f"text: add --date-format {name}=FORMAT (e.g. %d/%m/%y) to store it as DATE"
                )
            continue
        # most values fit a format (``best``) but some do not: those are named below, not the format
        chosen, why = _choose_format(conn, table, name, full, clues, values[name]) if full else (best, "")
        note = _convert(conn, table, name, (chosen, why), (values[name], name in local), marked.get(name, []))
        if note.startswith((f"{name} looks like", f"{name} stayed text")):
            noted.append(name)
        else:
            converted.append(name)
        notes.append(note)
    return converted, notes, noted, decided


def _convert(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    name: str,
    reading: tuple[str, str],
    read_as: tuple[str, bool],
    marks: Sequence[str],
) -> str:
    """Store a text column as DATE (TIMESTAMP) read with ``reading``'s format (and said with its reason),
    or say which values do not fit. ``read_as``: SQL, the column's value as read (``_value_sql``), and
    whether its month names are read in English; ``marks``: the morning and afternoon marks its values
    write (``day_halves``)."""
    (chosen, why), (text, local), col, target = reading, read_as, quote_ident(name), quote_ident(table)
    read = f"TRY_STRPTIME({text}, ?)"
    fits = f"{read} IS NOT NULL AND {_year_shape(col, chosen)}"
    bad, example, low, high, earliest = first_row(
        conn.execute(
            f"SELECT count(*) FILTER (WHERE NOT ({fits})), any_value({col}) FILTER (WHERE NOT ({fits})), "
            f"min(year({read})), max(year({read})), arg_min({col}, {read}) FROM {target} WHERE {col} IS NOT NULL",
            [chosen] * 5,  # fits twice, read thrice
        )
    )
    if not bad and low is not None:
        from analytics_agent.db.load.settle.date_years import years_read  # a column of text dates only

        kept, said = years_read(conn, table, name, chosen, (int(low), int(high)), str(earliest))
        if kept:
            return kept
        why += said
    if bad:
        return _unfit_note(name, chosen, bad, str(example), marks)
    # the latest hour shows what its mark does (23:12:54, not 11:12:54): an ordered LIMIT 1 keeps one row
    order = f" ORDER BY hour(TRY_STRPTIME({text}, '{chosen}')) DESC" if marks else ""
    sample = first_row(conn.execute(f"SELECT {col} FROM {target} WHERE {col} IS NOT NULL{order} LIMIT 1"))[0]
    kind = "TIMESTAMP" if "%H" in chosen or "%I" in chosen else "DATE"
    if "%z" in chosen or "%Z" in chosen:
        kind, why = "TIMESTAMP WITH TIME ZONE", f"{why}; {ZONED_SAID}"
    value = f"TRY_STRPTIME({text}, '{chosen}')::{kind}"  # TRY: rows deleted in this load are rewritten too
    if local:
        why += f"; month names read in English, {sample!r} as {in_english(str(sample))!r}"
    if marks:
        from analytics_agent.db.load.settle.day_halves import clock, halves_said

        why += f"; {halves_said(marks)}, {sample!r} as {clock(str(sample))}"
    if "%y" in chosen:
        value = pivoted(value)
        why += f"; {PIVOT_SAID}"
    if kind == "DATE" and "%d" not in chosen:
        why += "; each month as its first day"
    conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE {kind} USING {value}")
    return (
        f"{name}: text dates like {sample!r} stored as {kind} (format {chosen}{why}); "
        f"add --type {name}=VARCHAR to keep them as text"
    )


def _unfit_note(name: str, chosen: str, bad: int, example: str, marks: Sequence[str]) -> str:
    """The note of a column of dates read with ``chosen`` but for ``bad`` values (``example`` one): it
    stayed text, and what to do. Pure."""
    fault = _fault(example) if marks else ""
    fix = (
        f"{fault}; fix them"
        if fault
        else "add --drop-totals if it labels a last row of totals"
        if bad == 1 and is_total_label(example)
        else "fix them"
        if re.search(r"\d", example)  # a value with a digit is data, no missing marker
        else f"fix them, or add --null {example!r} if they mean missing"
    )
    which = f"1 value, {example!r}, does" if bad == 1 else f"{bad:,} values such as {example!r} do"
    return f"{name} looks like dates ({chosen}) but {which} not fit; it stayed text ({fix})"


def _format_fits(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    formats: Mapping[str, Sequence[str]],
    rows: int | None,
    values: Mapping[str, str],
) -> list[tuple[int, list[int]]]:
    """Per column, its values among the first ``SAMPLE_ROWS`` rows and how many fit each of its formats,
    in one scan. ``values``: SQL, each column's value as read (``_value_sql``)."""
    selects = []
    for name, kinds in formats.items():
        col, text = quote_ident(name), values[name]
        selects.append(f"count({col})")
        selects += [
            f"count(*) FILTER (WHERE TRY_STRPTIME({text}, '{f}') IS NOT NULL AND {_year_shape(col, f)})"
            for f in kinds
        ]
    counts = iter(
        first_row(
            conn.execute(
                f"SELECT {', '.join(selects)} FROM {first_rows(table, list(formats), SAMPLE_ROWS, rows)}"
            )
        )
    )
    return [(next(counts), [next(counts) for _ in kinds]) for kinds in formats.values()]


def _candidates(
    text: Sequence[str], probe: Mapping[str, Sequence[str]]
) -> tuple[dict[str, tuple[str, ...]], dict[str, str], set[str], dict[str, list[str]]]:
    """The text columns whose first values could be dates (or timestamps), with the formats to try: the
    full check runs on these only (``TRY_STRPTIME`` on every format for every sampled value is the
    costliest step of a load); of the dates, those shaped like dates throughout (``12/31/09``,
    ``2009-Jan-31``), with an example; those whose month names are in another language (``month_names``);
    and those whose times have a morning or afternoon mark other than ``AM``/``PM`` after them, with the
    marks (``day_halves``)."""
    keep: dict[str, tuple[str, ...]] = {}
    shaped = {}
    local: set[str] = set()
    marked: dict[str, list[str]] = {}
    for name in text:
        values = probe[name]
        if not values:
            continue
        first = values[0]  # a date with a month name holds both; most text columns do not
        if 6 <= len(first) <= 32 and first[:1].isdigit() and not first.isdigit() and local_months(values):
            values = [in_english(v) for v in values]  # 15. März 2024 -> 15 Mar 2024
            local.add(name)
        if may_mark(first) and (marks := _halves(values)):
            values = marks[1]  # 2024/08/01 下午 03:15:22 -> 2024/08/01 03:15:22 PM
            marked[name] = marks[0]
        if all(_date_like(v) for v in values):
            # month names put in English are abbreviations: the other formats cannot fit, and each tried
            # costs the name's twelve replacements on every sampled value
            keep[name] = NAMED_FORMATS if name in local else TEXT_DATE_FORMATS
            if all(re.match(DATE_SHAPE, v) for v in values):
                shaped[name] = values[0]
        # plain tests before each regex, which is compiled on first use: a time holds a colon; a month
        # period, ``_may_be_period`` (the compiles cost a small load 0.8 ms of CPU)
        elif all(len(v) <= 24 and ":" in v and re.match(WRITTEN_STAMP, v) for v in values):
            keep[name] = _stamp_formats(TEXT_STAMP_FORMATS, values[0])
        elif all(len(v) <= 30 and ":" in v and re.match(NAMED_STAMP, v) for v in values):
            keep[name] = _stamp_formats(NAMED_STAMP_FORMATS, values[0])
        elif all(len(v) <= 26 and ":" in v and re.match(ZONED_STAMP, v) for v in values):
            keep[name] = ZONED_FORMATS
        elif all(len(v) <= 28 and ":" in v and re.match(UTC_STAMP, v) for v in values):
            keep[name] = UTC_FORMATS
        elif all(len(v) <= 28 and v[:4].isdecimal() and ":" in v and re.match(YEAR_STAMP, v) for v in values):
            keep[name] = year_stamp_formats(values[0])
        elif all(len(v) <= 14 and _may_be_period(v) and re.match(MONTH_PERIOD, v) for v in values):
            keep[name] = MONTH_FORMATS
    return keep, shaped, local & set(keep), {n: m for n, m in marked.items() if n in keep}


def may_mark(value: str) -> bool:
    """The plain test before ``day_halves``' regexes (a module imported only then): ``value`` holds a
    mark's character past ASCII (``午``, ``오``) or an ``m.``; most text columns hold neither. Pure."""
    return "午" in value or "오" in value or "m." in value or "M." in value


def _halves(values: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """The morning and afternoon marks ``values`` write and the values with them as ``AM``/``PM`` after
    the time, or None when the first holds none (``day_halves``). Pure."""
    from analytics_agent.db.load.settle.day_halves import day_halves, with_am_pm

    marks = day_halves(values)
    return (marks, [with_am_pm(v) for v in values]) if marks else None


def _stamp_formats(formats: tuple[str, ...], first: str) -> tuple[str, ...]:
    """The timestamp formats to try on a column whose first value is ``first``: with a comma before the
    time when it writes one (``commas``), else ``formats``. Pure."""
    return commas(formats) if "," in first and re.search(COMMA_TIME, first) else formats


def _value_sql(name: str, local: set[str], marked: bool) -> str:
    """SQL: a column's value as the date formats read it, its month names in English when in another
    language (``month_names.english_sql``), its morning or afternoon mark as ``AM``/``PM`` after the time
    when ``marked`` (``day_halves.am_pm_sql``)."""
    value = quote_ident(name)
    if marked:
        from analytics_agent.db.load.settle.day_halves import am_pm_sql

        value = am_pm_sql(value)
    return english_sql(value) if name in local else value


def _fault(value: str) -> str:
    from analytics_agent.db.load.settle.day_halves import twelve_hour_fault

    return twelve_hour_fault(value)


def _date_like(value: str) -> bool:
    """Three parts, numbers or a month name, with date separators: could be a written date (``Jan 1 2009``,
    ``1-Jan-2009``, ``2009/01/31``; not ``A-00001234``). Pure."""
    # a plain test first: every written date ends in a digit, 日 or a dot (``$`` also before a last \n)
    end = value.removesuffix("\n")[-1:]
    return (
        6 <= len(value) <= 20
        and (end.isdecimal() or end in ("日", "."))
        and bool(re.match(WRITTEN_DATE, value))
    )


def _may_be_period(value: str) -> bool:
    """Whether ``value`` passes the plain test before ``MONTH_PERIOD``: a digit last (before a last line
    break, as ``$`` reads), and an ASCII letter first or a ``-`` or ``/`` in it. Pure."""
    first = value[:1]
    return value.removesuffix("\n")[-1:].isdecimal() and (
        (first.isascii() and first.isalpha()) or "-" in value or "/" in value
    )


def _year_shape(col: str, fmt: str) -> str:
    """SQL: the value writes its year in full (``2.2.2`` is a version, not 2 Feb of year 2)."""
    return f"regexp_matches({col}, '\\d{{4}}')" if "%Y" in fmt else "true"


def _choose_format(
    conn: duckdb.DuckDBPyConnection, table: str, name: str, full: Sequence[str], clues: Clues, text: str
) -> tuple[str, str]:
    """One format among those every value fits. When a day-first and a month-first one both fit and give
    different dates, the rest of the file decides (``file_reading``), or the load is refused."""
    pair = next((f for f in full if "%m" in f and "%d" in f and swapped(f) in full), None)
    if pair is None:
        return _year_first(conn, table, name, full[0], text)
    col = quote_ident(name)
    changed, example = first_row(
        conn.execute(
            f"SELECT count(*), any_value({col}) FROM {quote_ident(table)} "
            f"WHERE TRY_STRPTIME({text}, '{pair}') <> TRY_STRPTIME({text}, '{swapped(pair)}')"
        )
    )
    day_first = pair if first_of(pair) == "day" else swapped(pair)
    if not changed:  # 01/01/2020: the same date either way
        return day_first, ""
    first, reason = file_reading(clues, name, pair)
    if first is None:
        raise refusal(name, pair, example)
    chosen = day_first if first == "day" else swapped(day_first)
    return chosen, (
        f"; every value fits {swapped(chosen)} too, read {first}-first {reason}: if not, add --date-format "
        f"{name}={swapped(chosen)}"
    )


_YEAR_LAST = re.compile(r"%[dm]([./-])%[dm]\1%y")


def _year_first(
    conn: duckdb.DuckDBPyConnection, table: str, name: str, fmt: str, text: str
) -> tuple[str, str]:
    """``fmt``, or the two-digit year read first when that fits every value too and its dates span a
    twelfth of the time or less: Korean and Chinese bills write ``24.01.28`` (2024-01-28), which read
    year-last is 2028-01-24, a statement's month spread over 28 years."""
    shape = _YEAR_LAST.match(fmt)
    if shape is None:
        return fmt, ""
    first = f"%y{shape[1]}%m{shape[1]}%d{fmt[shape.end() :]}"
    read, other = f"TRY_STRPTIME({text}, '{fmt}')", f"TRY_STRPTIME({text}, '{first}')"
    present, fits, span, narrower = first_row(
        conn.execute(
            f"SELECT count({quote_ident(name)}), count({other}), "
            f"date_diff('day', min({read}), max({read})), date_diff('day', min({other}), max({other})) "
            f"FROM {quote_ident(table)}"
        )
    )
    if fits != present or span is None or narrower is None or 12 * narrower > span:
        return fmt, ""
    return first, (
        f"; every value fits {fmt} too, read year first as its dates then span {narrower:,} days, not "
        f"{span:,}: if not, add --date-format {name}={fmt}"
    )
