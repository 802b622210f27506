"""Export files written by helper sessions that never saw the loader (``tests/data/exports_held``,
``exports_held_two``, ``_three`` and ``_four``: bank statements with padded titles and balance rows, SAP
lists, QuickBooks ledgers, GA and Tableau exports, Windows-1252, Greek, Hebrew, Korean and Chinese
encodings, UTF-16, totals rows with and without labels): each loads what it means, by default or by the options its
refusals and then its notes name, followed one at a time as a user would, checked cell by cell and by
column sums against ``expect.json`` (computed from the values the generator wrote)."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.load.run import LoadSummary, load_files
from analytics_agent.errors import LoadError
from tests.db.csv_suites import options_from, suggested_options

DATA = Path(__file__).resolve().parents[1] / "data"
ROUNDS = tuple(
    DATA / f"exports_held{part}"
    for part in (
        "",
        "_two",
        "_three",
        "_four",
        "_five",
        "_six",
        "_seven",
        "_eight",
        "_nine",
        "_ten",
        "_eleven",
        "_twelve",
        "_thirteen",
        "_fourteen",
    )
)
"""Fourteen rounds, each written by a helper that never saw the loader: the second adds a boolean kind and
keys a repeated header name as ``<name> (position N)`` with the header in ``header``; the third writes
ids and times of day as text, which the load stores as exact BIGINT and TIME (``_same``); the fourth
writes a percent as the number before its ``%``, as the later ones do."""
CASES = {
    f"{folder.name}/{case['file']}": case
    for folder in ROUNDS
    for case in json.loads((folder / "expect.json").read_text(encoding="utf-8"))
}
FOLLOWED = ("--drop-totals", "--drop-footer")
"""The options a note names that leave rows out; ``--decimal`` is followed where a note says a column
stayed text (elsewhere it names the other reading of a column read, as other options undo a reading)."""
KEPT_TEXT = {
    "11_treasury_payments_multiccy.csv": ("Payment Amount", "more than one currency"),
}
"""Files whose meaning the load declines on purpose, and the note that says why: one column of amounts in
five currencies is no number to sum."""


def _load(path: Path, db: Path, options: dict[str, Any]) -> LoadSummary:
    db.unlink(missing_ok=True)
    return load_files(db, [str(path)], options_from(options))


def _followed(path: Path, db: Path) -> tuple[LoadSummary, dict[str, Any]]:
    """The load a user ends with: each refusal's first option, then each note's that changes the load."""
    options: dict[str, Any] = {}
    for _ in range(8):
        try:
            summary = _load(path, db, options)
        except LoadError as exc:
            advice = suggested_options(str(exc))
            assert advice is not None and not advice.items() <= options.items(), str(exc)
            options |= advice
            continue
        wanted = [_note_option(n, options) for n in summary.notes]
        fresh = [a for a in wanted if a and not a.items() <= options.items()]
        if not fresh:
            return summary, options
        options |= fresh[0]
    raise AssertionError(f"{path.name}: no load after {options}")


def _note_option(note: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The option a note names that a user follows to load what the file means, if any: a ``--null`` named
    for a column's odd values too, as the file's own missing marker (added to those given)."""
    found = re.search(r"\badd (--\S+)", note)
    if found is None:
        return None
    if found[1] == "--null" and note.endswith("missing"):
        named = re.findall(r"--null '([^']*)'", note)
        return {"null_tokens": tuple(dict.fromkeys((*options.get("null_tokens", ()), *named)))}
    if found[1] in FOLLOWED:  # --drop-footer is --drop-totals' other name
        return {"drop_totals": True}
    if found[1] == "--negative":  # the first of the two marks named, as a user reads it
        mark = re.match(r"--negative (\S+)", note[found.start(1) :])
        return {"negative": mark[1]} if mark else None
    if found[1] not in ("--decimal", "--thousands") or "stayed text" not in note:
        return None
    marks: dict[str, str] = {}
    for flag, mark in re.findall(r"--(decimal|thousands) '(.)'", note[found.start() :]):
        marks.setdefault(flag, mark)  # both flags as the note says; of two readings named, the first
    return marks or None


def _same(got: Any, want: Any, kind: str) -> bool:
    if kind == "boolean":
        return got is want
    if kind == "text" and isinstance(got, int | dt.time) and not isinstance(got, bool):
        # an id without a leading zero stored as the exact BIGINT it writes, a time of day as TIME
        # a time of day written without seconds ('13:54') is the TIME 13:54:00
        return (got.isoformat() if isinstance(got, dt.time) else str(got)) in (want, f"{want}:00")
    if want is None:
        return got is None or got == ""
    if kind == "percent":  # the number as written before the %, or (round 3) its readings by name
        wants = want.values() if isinstance(want, dict) else (want,)
        return got is not None and any(math.isclose(got, w, abs_tol=1e-9) for w in wants)
    if kind in ("date", "timestamp"):
        if isinstance(got, dt.datetime):
            midnight = got.time() == dt.time() and kind == "date"
            return got.strftime("%Y-%m-%d %H:%M:%S") == want or (midnight and got.date().isoformat() == want)
        return isinstance(got, dt.date) and got.isoformat() in (want, want.removesuffix(" 00:00:00"))
    if kind == "number":
        return (
            isinstance(got, int | float)
            and not isinstance(got, bool)
            and math.isclose(got, want, abs_tol=1e-9)
        )
    return got == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_held_export_loads_what_it_means(name: str, tmp_path: Path) -> None:
    case, db = CASES[name], tmp_path / "t.duckdb"
    folder, file = name.split("/")
    summary, options = _followed(DATA / folder / "files" / file, db)
    by_header = {c.original.strip(): c.name for c in summary.columns}  # a header's padding is not its name
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute(f'SELECT * FROM "{summary.table}"').fetchall()
    names = [c.name for c in summary.columns]
    assert len(rows) == case["rows"], (options, summary.notes)
    kept = KEPT_TEXT.get(file)
    for header, spec in case["columns"].items():
        column = names.index(by_header[header.strip()]) if "header" not in spec else spec["position"]
        if kept and header == kept[0]:
            assert any(
                n.startswith(f"{by_header[header.strip()]} stayed text") and kept[1] in n
                for n in summary.notes
            )
            continue
        for at, want in spec["cells"].items():
            got = rows[int(at)][column]
            assert _same(got, want, spec["kind"]), (
                f"{header} row {at}: stored {got!r}, means {want!r} ({options})"
            )
    for header, want in case.get("sums", {}).items():
        if kept and header == kept[0]:
            continue
        spec = case["columns"].get(header, {})
        at = names.index(by_header[header.strip()]) if "header" not in spec else spec["position"]
        values = [row[at] for row in rows]
        total = sum(v for v in values if v is not None)
        assert any(math.isclose(total * k, want, rel_tol=1e-9, abs_tol=1e-6) for k in (1, 100, 0.01)), header


def test_every_held_file_has_its_meaning_written_down() -> None:
    files = [f"{folder.name}/{p.name}" for folder in ROUNDS for p in (folder / "files").iterdir()]
    assert sorted(files) == sorted(CASES)
    assert len(CASES) >= 40
