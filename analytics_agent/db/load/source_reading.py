"""The load's reading of CSV files, pinned for a source that reads them in place (``sources add``).

A load sniffs the files once (``plan.make_plan``: delimiter, quote, header, day-first dates, the user's
options) and stores safe column names. A source reads the files at every question, so the same decisions
are made once here and written into its ``sources.toml`` entry as plain data: ``read`` (the ``read_csv``
settings) and ``columns`` (the file's name -> the stored name). ``db.linked`` reads that data and never
imports the loader.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.load.keywords import reserved_words
from analytics_agent.db.load.names import rename_reason
from analytics_agent.db.load.options import LoadOptions, check_options, file_kind, resolve_inputs
from analytics_agent.db.load.plan import excel_note, make_plan
from analytics_agent.errors import LoadError

_IN_PLACE_ONLY = {
    "--skip-bad-rows": "skip_bad_rows",
    "--newline": "newline",
    "--drop-totals": "drop_totals",
    "--allow-empty": "allow_empty",
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


def pin_csv_reading(pattern: str, options: LoadOptions, *, many: bool) -> PinnedReading:
    """Sniff the files ``pattern`` names as a load would and return the reader's settings, the renames and
    the notes. ``many``: the pattern is a glob or folder (files may come and go): the column types are
    pinned by name only, and each file's columns are unioned by name, as a load of several files does."""
    for flag, field in _IN_PLACE_ONLY.items():
        if getattr(options, field):
            raise LoadError(f"{flag} needs a load (a copy of the file); a source reads the files in place")
    if options.column_date_formats:
        raise LoadError(
            "--date-format COLUMN=FORMAT needs a load; a source takes one --date-format for every date column"
        )
    inputs = resolve_inputs([pattern])
    if file_kind([i.path.name for i in inputs]) != "csv":
        return PinnedReading({}, {}, [])
    options = check_options(options, "csv")
    files = [i.path for i in inputs]
    with duckdb.connect() as conn:
        reserved = reserved_words(conn)
        plan = make_plan(conn, "csv", files, inputs, options, reserved, None)
        amounts = _amount_columns(conn, plan.query, plan.params, plan.text_columns)
    read = _settings(plan.query, plan.params, many=many or len(files) > 1)
    renamed = {o: s for o, s in zip(plan.originals, plan.safe, strict=True) if o != s}
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
    if amounts:
        notes.append(
            f"amounts read as text: {', '.join(amounts)} (a load stores them as numbers, its unit kept); a "
            "source reads the file as it is written: load the file to sum them"
        )
    return PinnedReading(read, renamed, notes)


_SAMPLE_ROWS = 2048


def _amount_columns(
    conn: duckdb.DuckDBPyConnection, query: str, params: list[Any], text: list[str]
) -> list[str]:
    """The text columns whose first values are amounts (``$1,234.50``, ``3,50 €``, ``12%``), by the load's
    own rule (``amounts.candidates``): those a load stores as numbers and a source reads as text."""
    if not text:
        return []
    from analytics_agent.db.catalog import quote_ident
    from analytics_agent.db.load.settle.amounts import candidates

    lists = ", ".join(f"list({quote_ident(c)})[1:50]" for c in text)
    row = conn.execute(f"SELECT {lists} FROM ({query} LIMIT {_SAMPLE_ROWS})", params).fetchone()
    probe = {
        c: [v for v in values or [] if v is not None] for c, values in zip(text, row or (), strict=False)
    }
    return list(candidates(probe))


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
