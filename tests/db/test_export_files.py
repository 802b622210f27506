"""The vendored Excel/ERP-style exports (``tests/data/exports``): each loads right by default, or with the
first option its refusal (or a note of its load) names, and is checked cell by cell against what the file
means (``expected/<file>.json``, computed by ``make_exports.py`` from the public source values, not read
back through the loader). Amounts are numbers, dates are dates, no row is lost or added."""

from __future__ import annotations

import datetime as dt
import json
import math
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.load.run import LoadSummary, load_files
from analytics_agent.errors import LoadError
from tests.db.csv_suites import options_from, suggested_options

EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"
NAMES = sorted(p.name for p in (EXPORTS / "files").iterdir())
_FLAGS = {
    "drop_totals": "--drop-totals",
    "skip": "--skip",
    "skip_bad_rows": "--skip-bad-rows",
    "encoding": "--encoding",
    "decimal": "--decimal",
    "thousands": "--thousands",
}


def _load(path: Path, db: Path, options: dict[str, Any]) -> LoadSummary:
    db.unlink(missing_ok=True)
    return load_files(db, [str(path)], options_from(options))


def _same(got: Any, want: Any) -> bool:
    if want is None or isinstance(want, (str, bool)):
        if isinstance(got, dt.datetime) and got.tzinfo is not None:  # a zoned instant: compared in UTC
            got = got.astimezone(dt.UTC)
        if isinstance(got, (dt.date, dt.datetime)) and isinstance(want, str):
            return got.isoformat(sep=" ") == want if isinstance(got, dt.datetime) else got.isoformat() == want
        return got == want and type(got) is type(want)
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-9)


def test_at_least_40_exports_each_with_its_meaning_written_down() -> None:
    assert len(NAMES) >= 40
    assert sorted(p.name.removesuffix(".json") for p in (EXPORTS / "expected").iterdir()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_export_loads_what_it_means(name: str, tmp_path: Path) -> None:
    meaning = json.loads((EXPORTS / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    path, db = EXPORTS / "files" / name, tmp_path / "t.duckdb"
    option = meaning["option"]
    if meaning["via"] == "refusal":
        named: dict[str, Any] = {}
        for step in meaning.get("steps", [option]):  # each refusal names the next option, first of all
            with pytest.raises(LoadError) as caught:
                _load(path, db, named)
            assert suggested_options(str(caught.value)) == step, str(caught.value)
            named |= step
        if named != option:  # the rest is named by a note of the load the refusals' options make
            rest = {k: v for k, v in option.items() if k not in named}
            summary = _load(path, db, named)
            assert any(_FLAGS[key] in note for key in rest for note in summary.notes), summary.notes
    elif meaning["via"] == "note":
        summary = _load(path, db, {})
        assert any(_FLAGS[key] in note for key in option for note in summary.notes), summary.notes
    summary = _load(path, db, option or {})
    assert [c.name for c in summary.columns] == meaning["columns"]
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT * FROM t").fetchall()
    assert len(rows) == len(meaning["rows"])
    for number, (got, want) in enumerate(zip(rows, meaning["rows"], strict=True), start=1):
        for column, g, w in zip(meaning["columns"], got, want, strict=True):
            assert _same(g, w), f"row {number}, {column}: stored {g!r}, the file means {w!r}"


def test_the_stored_files_are_what_the_script_writes(tmp_path: Path) -> None:
    """The files and their meanings come from ``make_exports.py`` alone (no hand edit drifted)."""
    sys.path.insert(0, str(EXPORTS))
    try:
        import make_exports  # type: ignore[import-not-found]
        import make_exports_more  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(EXPORTS))
    for name, data, meaning in make_exports.all_exports() + make_exports_more.all_exports():
        assert (EXPORTS / "files" / name).read_bytes() == data, name
        stored = json.loads((EXPORTS / "expected" / f"{name}.json").read_text(encoding="utf-8"))
        assert stored == json.loads(json.dumps(meaning)), name
