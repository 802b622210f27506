"""The ``load`` command's run: the load, then its summary. Needs no typer: a plain load command line runs
here straight from the console script (``load_args``); ``data_cmd.load`` is typer's way in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analytics_agent.cli.context import State, db_path, gets_sample_data, say_created, set_verbose
from analytics_agent.cli.edge import say
from analytics_agent.present.safe_text import escape_control

if TYPE_CHECKING:
    from analytics_agent.cli.load_args import QuickLoad
    from analytics_agent.db.load.run import LoadSummary


def run_quick(quick: QuickLoad) -> None:
    """A load command line parsed by ``quick_load_args``: its global options, then the load."""
    if quick.db is not None:
        State.db = Path(quick.db)
    if quick.verbose:
        set_verbose()
    run_load(quick.paths, quick.values)


def run_load(paths: list[str], values: dict[str, Any]) -> None:
    """Load ``paths`` with the options ``values`` (named as ``load_args.OPTIONS``), then show the summary."""
    from analytics_agent.db.load.options import load_options
    from analytics_agent.errors import Interrupted

    timezone = values.get("timezone")  # the semantic file's, not the load's
    flags = {name: value for name, value in values.items() if name != "timezone"}

    def run() -> LoadSummary:
        options = load_options(**flags)
        try:  # Ctrl-C inside the load is answered by load_files; here it can only be before or after it
            return _load(paths, options)
        except KeyboardInterrupt:
            raise Interrupted("interrupted before the load started; the database is unchanged") from None

    from analytics_agent.tools.semantic.zone_file import load_with_zone

    # also with no --timezone: a zone the loaded table shows (a zoned timestamp beside its local hour)
    summary, unset = load_with_zone(db_path(), timezone, run)
    try:
        _show(summary)
    except KeyboardInterrupt:
        raise Interrupted("interrupted after the load was committed; it is complete") from None
    if unset is not None:
        raise unset


def _load(paths: list[str], options: Any) -> LoadSummary:
    from analytics_agent.db.load.run import load_files

    progress = _Progress(paths[0]) if sys.stderr.isatty() else None
    try:
        return load_files(
            db_path(), paths, options, on_progress=progress, sample_data=gets_sample_data(db_path())
        )
    finally:
        if progress:
            progress.clear()


def _show(summary: LoadSummary) -> None:
    if summary.created_database:
        say_created(db_path(), sample_data=gets_sample_data(db_path()))
    print(render_summary(summary), flush=True)
    if gets_sample_data(db_path()):  # no --db: the user's table went in beside the sample tables
        say(
            escape_control(
                f"note: stored in the sample database {db_path()}, beside its sample tables; give --db FILE "
                f"to keep your tables in a database of your own, or remove this one with: analytics-agent "
                f"drop {summary.table}"
            )
        )
    if note := bundled_tools_lost(summary):
        say(escape_control(note))


def bundled_tools_lost(summary) -> str | None:
    """What a ``--replace`` of a sample table costs the bundled tools, or None if they still fit it."""
    if summary.mode != "replace":  # before the import: the tools (and pydantic) cost a load ~0.3 s of CPU
        return None
    from analytics_agent.tools.sqlfile.bundled import tools_using, unfit_tables

    reason = unfit_tables({summary.table: {c.name: c.type for c in summary.columns}}).get(summary.table)
    if reason is None:
        return None
    return (
        f"note: {summary.table} now {reason}; the bundled tools {', '.join(tools_using(summary.table))} "
        f"need its sample columns and are skipped from now on (load your data under another --table to keep them)"
    )


def render_summary(summary) -> str:
    """The closing summary: what went where, how long it took, each stored column, then what to know."""
    from analytics_agent.present.tables import plural, table
    from analytics_agent.suggest import clipped

    names = ", ".join(summary.files[:3]) + (" …" if len(summary.files) > 3 else "")
    verb = {"append": "Appended", "replace": "Loaded (replacing)"}.get(summary.mode, "Loaded")
    head = f"{verb} {plural(summary.rows_loaded, 'row')} from {names} into {summary.table} in {summary.seconds:.1f} s"
    if summary.mode == "append":
        head += f"; it now has {plural(summary.rows_total, 'row')}"
    renamed = any(c.original != c.name for c in summary.columns)
    headers = ["column", "type", "nulls"]
    rows = [[c.name, c.type, c.nulls] for c in summary.columns]
    if renamed:
        headers.insert(1, "original name")
        for row, c in zip(rows, summary.columns, strict=True):
            row.insert(1, clipped(c.original, limit=80) if c.original != c.name else "")
    lines = [escape_control(head) + ".", table(headers, rows, right=(len(headers) - 1,), plain=())]
    if summary.rejected_lines:
        lines.append(
            f"Skipped {plural(len(summary.rejected_lines), 'bad record')} "  # records, not errors
            f"({_rejected_where(summary)}), kept in the table {summary.table}_rejects."
        )
    lines += [escape_control(link) for link in summary.links]
    lines += [escape_control(f"note: {note}") for note in summary.notes]
    return "\n".join(lines)


class _Progress:
    """DuckDB's progress estimate on one stderr line (only drawn on a terminal)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.drawn = False

    def __call__(self, percent: float) -> None:
        sys.stderr.write(f"\rloading {self.label}: {min(percent, 100.0):5.1f}%")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _rejected_where(summary: LoadSummary) -> str:
    """``lines 3, 5`` for one file; ``a.csv line 3; b.csv lines 3, 5`` when several were loaded (a line
    number alone does not say which file to fix). The first five records are shown."""
    records = list(summary.rejected_at) or [("", line) for line in summary.rejected_lines]
    shown, more = records[:5], len(records) > 5
    by_file: dict[str, list[int]] = {}
    for name, line in shown:
        by_file.setdefault(name if len(summary.files) > 1 else "", []).append(line)
    parts = [
        f"{escape_control(name) + ' ' if name else ''}line{'s' if len(nums) > 1 else ''} {', '.join(map(str, nums))}"
        for name, nums in by_file.items()
    ]
    return "; ".join(parts) + (" …" if more else "")
