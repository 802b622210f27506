"""The load's reading of CSV files, pinned for a source that reads them in place (``sources add``).

A load sniffs the files once (``plan.make_plan``: delimiter, quote, header, day-first dates, the user's
options) and stores safe column names. A source reads the files at every question, so the same decisions
are made once here and written into its ``sources.toml`` entry as plain data: ``read`` (the ``read_csv``
settings) and ``columns`` (the file's name -> the stored name). ``db.linked`` reads that data and never
imports the loader.
"""

from __future__ import annotations

import re
from collections.abc import Container
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.load.keywords import RenamedWords
from analytics_agent.db.load.names import rename_reason
from analytics_agent.db.load.options import LoadOptions, check_options, file_kind, resolve_inputs
from analytics_agent.db.load.plan import Plan, excel_note, make_plan
from analytics_agent.errors import LoadError

_IN_PLACE_ONLY = {
    "--skip-bad-rows": "skip_bad_rows",
    "--newline": "newline",
    "--drop-totals": "drop_totals",
    "--allow-empty": "allow_empty",
    "--negative": "negative",
}
"""Options that need a copy of the file or a table to write: a reader in place cannot take them."""
_NAMED_SETTING = re.compile(r"(\w+) = \?")


class PinnedReading(NamedTuple):
    read: dict[str, Any]
    """``read_csv`` settings: name -> value (text, number, true/false, a list, or a mapping)."""
    columns: dict[str, str]
    """The file's column name -> the stored (safe) name, for the columns whose name changes."""
    notes: list[str]
    """One line each, as a load says them: what was decided and how to undo it."""
    amounts: dict[str, dict[str, str]]
    """Stored name -> how its amounts read as numbers (``decimal``, and ``unit`` and ``currency`` when
    written): what the source's view reads with, checking each value (``db.amount_forms``)."""


def pin_csv_reading(pattern: str, options: LoadOptions, *, many: bool) -> PinnedReading:
    """Sniff the files ``pattern`` names as a load would and return the reader's settings, the renames and
    the notes. ``many``: the pattern is a glob or folder (files may come and go): the column types are
    pinned by name, and each file's columns are unioned by name, as a load of several files does."""
    for flag, field in _IN_PLACE_ONLY.items():
        if getattr(options, field):
            raise LoadError(f"{flag} needs a load (a copy of the file); a source reads the files in place")
    if options.column_date_formats:
        raise LoadError(
            "--date-format COLUMN=FORMAT needs a load; a source takes one --date-format for every date column"
        )
    inputs = resolve_inputs(_files_of(pattern))
    if file_kind([i.path.name for i in inputs]) != "csv":
        return PinnedReading({}, {}, [], {})
    options = check_options(options, "csv")
    files = [i.path for i in inputs]
    with duckdb.connect() as conn:
        reserved = RenamedWords(conn)
        plan = make_plan(conn, "csv", files, inputs, options, reserved, None, writing=False)
        free = [c for c in plan.text_columns if c not in plan.fixed]  # --column-type TEXT: left alone
        amounts, amount_notes = _amounts(conn, plan.query, plan.params, free, options.decimal)
        many = many or len(files) > 1
        read = _settings(plan.query, plan.params, many=many)
        if many:  # every column's type by name, as sniffed now: a later file cannot change it silently
            read["types"] = _file_types(conn, plan.query, plan.params) | read.get("types", {})
    renamed = {o: s for o, s in zip(plan.originals, plan.safe, strict=True) if o != s}
    notes = _notes(plan, renamed, reserved) + amount_notes
    return PinnedReading(read, renamed, notes, amounts)


def _notes(plan: Plan, renamed: dict[str, str], reserved: Container[str]) -> list[str]:
    """What the reading decided that a reader of the source should know: Excel's sep= line, the renames,
    the order of day and month. Pure."""
    notes = excel_note(plan.dialect) + [r for o, s in renamed.items() if (r := rename_reason(o, s, reserved))]
    spelled = [(o, s) for o, s in renamed.items() if o.lower() != s]  # not only lower-cased
    if spelled:
        shown = ", ".join(f"{o!r} -> {s}" for o, s in spelled[:5])
        more = f" and {len(spelled) - 5} more" if len(spelled) > 5 else ""
        notes.append(
            f"columns named as a load names them: {shown}{more} (the file's names are kept in the "
            "source's columns setting in sources.toml; edit it there to name them otherwise)"
        )
    if plan.date_formats:
        fmt = next(iter(plan.date_formats.values()))
        notes.append(
            f"dates read as {fmt} ({', '.join(plan.date_formats)}); if the file means another order, add "
            "the source again with --replace and --date-format"
        )
    return notes


def _files_of(pattern: str) -> list[str]:
    """A folder's CSV files, at any depth, as the source's view reads them (``folder/**/*.csv``); else the
    file or glob itself."""
    folder = Path(pattern).expanduser()
    if not folder.is_dir():
        return [pattern]
    files = sorted(str(p) for p in folder.rglob("*.csv") if p.is_file())
    if not files:
        raise LoadError(f"no .csv files in {pattern}")
    return files


def _amounts(
    conn: duckdb.DuckDBPyConnection, query: str, params: list[Any], text: list[str], decimal: str | None
) -> tuple[dict[str, dict[str, str]], list[str]]:
    """The text columns a load would store as numbers, decided by the load's own rules over every value
    (``amounts.read_amounts``), as the source's ``amounts`` setting; and the load's notes, in its words."""
    if not text:
        return {}, []
    from analytics_agent.db.catalog import quote_ident
    from analytics_agent.db.load.settle.amounts import candidates, converted_note, read_amounts

    wanted = ", ".join(quote_ident(c) for c in text)
    rows = conn.execute(f"SELECT {wanted} FROM ({query}) LIMIT 50", params).fetchall()  # as a load probes
    probe = {c: [r[i] for r in rows if r[i] is not None] for i, c in enumerate(text)}
    columns = list(candidates(probe))
    if not columns:
        return {}, []
    # the columns to read whole, once, instead of the file once per count
    kept = ", ".join(quote_ident(c) for c in columns)
    conn.execute(f"CREATE TEMP TABLE amount_text AS SELECT {kept} FROM ({query})", params)
    readings, notes, _ = read_amounts(conn, "amount_text", {c: probe[c] for c in columns}, decimal)
    if readings:
        notes.insert(0, converted_note(readings, "--column-type"))
    setting = {
        name: {"decimal": r.mark}
        | ({"unit": r.unit} if r.unit else {})
        | ({"currency": r.currency} if r.currency else {})
        for name, r in readings.items()
    }
    return setting, notes


def _file_types(conn: duckdb.DuckDBPyConnection, query: str, params: list[Any]) -> dict[str, str]:
    """The file's column name -> the type the plan's reader reads it as."""
    reader = query[query.rindex(" FROM read_csv(") + len(" FROM ") :]
    return {r[0]: r[1] for r in conn.execute(f"DESCRIBE SELECT * FROM {reader}", params).fetchall()}


def _settings(query: str, params: list[Any], *, many: bool) -> dict[str, Any]:
    """The named settings of the plan's ``read_csv(?, name = ?, …)`` call, the file list left out. Pure.

    ``many``: the column list becomes type overrides by name (a new file may have columns in another
    order), and files are unioned by name."""
    reader = query[query.rindex(" FROM read_csv(") :]
    names = _NAMED_SETTING.findall(reader)
    settings = dict(zip(names, params[1:], strict=True))
    if many and "columns" in settings:
        settings["types"] = settings.pop("columns")
        settings.pop("auto_detect", None)
        settings["union_by_name"] = True
    return settings
