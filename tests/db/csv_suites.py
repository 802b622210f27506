"""Run one vendored CSV suite file through the real loader and describe what happened.

Shared by ``test_csv_suites.py`` (which checks each file against ``tests/data/csv_suites/manifest.json``)
and ``python -m tests.db.csv_suites`` (which prints the tallies, for the issue's before/after table).
The suites are in ``tests/data/csv_suites/<suite>/`` with their licences and a README naming the commit.
"""

from __future__ import annotations

import json
import re
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import AnalyticsAgentError

SUITES = Path(__file__).resolve().parents[1] / "data" / "csv_suites"
MANIFEST = SUITES / "manifest.json"
_FLAGS = {
    "delimiter": "--delimiter",
    "header": "--header",
    "date_format": "--date-format",
    "types": "--type",
    "thousands": "--thousands",
    "decimal": "--decimal",
    "encoding": "--encoding",
    "null_tokens": "--null",
    "skip_bad_rows": "--skip-bad-rows",
    "allow_empty": "--allow-empty",
    "comment": "--comment",
    "skip": "--skip",
    "quote": "--quote",
    "escape": "--escape",
    "newline": "--newline",
    "pad_short_rows": "--pad-short-rows",
    "max_line_size": "--max-line-size",
}


@dataclass
class Outcome:
    status: str  # loaded | refused | internal
    rows: int = 0
    types: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    message: str = ""
    silent: list[str] = field(default_factory=list)
    """Changes the loader made without a note: text that became NULL, rows that vanished."""
    leftover_db: bool = False
    good_rejected: list[str] = field(default_factory=list)
    """Set-aside records that read with the header's field count once ``"`` quotes them (good rows dropped)."""


def options_from(raw: Mapping[str, Any]) -> LoadOptions:
    values = dict(raw)
    if "null_tokens" in values:
        values["null_tokens"] = tuple(values["null_tokens"])
    return LoadOptions(table="t", **values)


def attempt(path: Path, raw_options: Mapping[str, Any], folder: Path, tag: str) -> Outcome:
    """Load ``path`` into a fresh database in ``folder``; never raises."""
    db = folder / f"{tag}.duckdb"
    try:
        summary = load_files(db, [str(path)], options_from(raw_options))
    except AnalyticsAgentError as exc:
        return Outcome("refused", message=str(exc), leftover_db=db.exists())
    except Exception:
        return Outcome("internal", message=traceback.format_exc(limit=3))
    outcome = Outcome(
        "loaded",
        rows=summary.rows_loaded,
        types=[c.type for c in summary.columns],
        names=[c.name for c in summary.columns],
        notes=list(summary.notes),
    )
    outcome.silent = _silent_changes(db, path, summary.notes, raw_options)
    outcome.good_rejected = _good_rejected(db, path, len(outcome.names))
    db.unlink(missing_ok=True)
    return outcome


def _silent_changes(db: Path, path: Path, notes: list[str], raw: Mapping[str, Any]) -> list[str]:
    """Text columns holding more NULLs than the file has empty fields, with no note naming them.

    The reference is DuckDB's own reading of the file as all text with only the empty field missing;
    a column it names differently (another dialect) is not judged."""
    if raw.get("null_tokens") is not None:
        return []  # the user chose the tokens
    with duckdb.connect(str(db), read_only=True) as conn:
        profile = conn.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 't'"
        ).fetchall()
        text = [c for c, t in profile if t == "VARCHAR"]
        if not text:
            return []
        ours = conn.execute(
            "SELECT " + ", ".join(f'count(*) - count("{c}")' for c in text) + " FROM t"
        ).fetchone()
    try:
        with duckdb.connect() as ref:
            cols = [
                d[0]
                for d in ref.execute(
                    "SELECT * FROM read_csv(?, all_varchar = true) LIMIT 0", [str(path)]
                ).description
            ]
            by_safe = {_simple(c): c for c in cols}
            pairs = [(c, by_safe[_simple(c)]) for c in text if _simple(c) in by_safe]
            if not pairs:
                return []
            theirs = ref.execute(
                "SELECT "
                + ", ".join(f'count(*) - count("{r}")' for _, r in pairs)
                + " FROM read_csv(?, all_varchar = true)",
                [str(path)],
            ).fetchone()
    except duckdb.Error:
        return []
    said = " ".join(notes)
    found = []
    mine = dict(zip(text, ours, strict=True))
    for (column, _), their_nulls in zip(pairs, theirs, strict=True):
        if mine[column] > their_nulls and column not in said:
            found.append(f"{column}: {mine[column] - their_nulls} values became NULL unsaid")
    return found


def _good_rejected(db: Path, path: Path, width: int) -> list[str]:
    """``Outcome.good_rejected``: set-aside records that, split with the delimiter that splits the header
    into the table's columns and ``"`` as quote, have as many fields as the table has columns. A table of
    one column is not judged (any record without that delimiter would count as good)."""
    with duckdb.connect(str(db), read_only=True) as conn:
        if width < 2 or "t_rejects" not in {
            r[0] for r in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }:
            return []
        texts = [r[0] for r in conn.execute("SELECT DISTINCT text FROM t_rejects ORDER BY text").fetchall()]
    head = path.read_bytes()[:65_536].decode("utf-8", errors="replace").lstrip("\ufeff").splitlines()[:1]
    delimiters = [d for d in ",;\t|" if head and _split(head[0], d) == width]
    return [t for t in texts if delimiters and t and _split(t, delimiters[0]) == width]


def _split(line: str, delimiter: str) -> int:
    import csv

    try:
        return len(next(csv.reader([line], delimiter=delimiter, quotechar='"', strict=True), []))
    except csv.Error:
        return -1


def _simple(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def load_manifest() -> list[dict[str, Any]]:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


def suite_files() -> list[Path]:
    files = []
    for suite in ("duckdb", "csv_spectrum", "papaparse"):
        root = SUITES / suite
        sub = root / ("csvs" if suite == "csv_spectrum" else "files")
        files += sorted(p for p in sub.rglob("*") if p.is_file())
    return files


_SUGGESTED = re.compile(
    r"(--max-line-size|--encoding|--comment|--skip-bad-rows|--skip|--pad-short-rows|--newline|--no-header|--header|--delimiter|--null|--type|"
    r"--date-format|--allow-empty|--quote|--escape|--thousands|--decimal)(?:\s+('[^']*'|\"[^\"]*\"|\S+))?"
)


def suggested_options(message: str) -> dict[str, Any] | None:
    """The options the first flag a refusal names stands for (``--encoding latin-1`` -> encoding)."""
    added = re.search(r"\badd (--\S+(?: ('[^']*'|\"[^\"]*\"|\S+))?)", message)
    match = _SUGGESTED.search(added[1]) if added else _SUGGESTED.search(message)
    if not match:
        return None
    flag, raw = match[1], (match[2] or "").rstrip(";,)")
    value = raw[1:-1] if raw[:1] in "'\"" and raw[-1:] == raw[:1] and len(raw) > 1 else raw
    if flag in ("--skip-bad-rows", "--pad-short-rows", "--allow-empty", "--no-header", "--header"):
        key = {"--no-header": "header", "--header": "header"}.get(flag, flag[2:].replace("-", "_"))
        return {key: flag != "--no-header"}
    if flag == "--type":
        column, _, type_name = value.partition("=")
        return {"types": {column: type_name}}
    if flag == "--null":
        return {"null_tokens": [value]}
    if flag == "--date-format" and "=" in value:  # one column's format, as load_options reads it
        column, _, fmt = value.partition("=")
        return {"column_date_formats": {column: fmt}}
    if flag in ("--skip", "--max-line-size"):
        return {flag[2:].replace("-", "_"): int(value)}
    return {flag[2:].replace("-", "_"): value}


def follow_advice(path: Path, message: str, folder: Path, tag: str) -> tuple[dict[str, Any], Outcome]:
    """Do what each refusal says, as a user would, up to three times: the options gathered and the end."""
    options: dict[str, Any] = {}
    got = Outcome("refused", message=message)
    for step in range(3):
        advice = suggested_options(got.message)
        if advice is None or all(options.get(k) == v for k, v in advice.items()):
            break
        options |= advice
        got = attempt(path, options, folder, f"{tag}_{step}")
        if got.status != "refused":
            break
    return options, got


def draft(folder: Path) -> dict[str, Any]:
    """What the loader does with each file now, refusals retried with the option they name."""
    entries = {}
    for n, path in enumerate(suite_files()):
        rel = str(path.relative_to(SUITES))
        got = attempt(path, {}, folder, f"f{n}")
        entry: dict[str, Any] = {"status": got.status}
        if got.status == "loaded":
            entry |= {"rows": got.rows, "types": got.types, "notes": got.notes, "silent": got.silent}
        else:
            entry["message"] = got.message
            then, retried = follow_advice(path, got.message, folder, f"g{n}")
            entry["then"] = then
            if then:
                entry["then_status"] = retried.status
                entry["then_rows"] = retried.rows
                entry["then_message"] = retried.message
        entries[rel] = entry
    return entries


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        result = draft(Path(tmp))
    Path(sys.argv[1]).write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
