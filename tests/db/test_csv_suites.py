"""Every vendored public CSV suite file (DuckDB's data/csv subset, csv-spectrum, PapaParse's cases) through
the real loader, against the outcome written down for it in ``tests/data/csv_suites/manifest.json``.

A file that loads must give the rows and column types written down, with no text turned into NULL without
a note naming the column; a refusal must be one line, and doing what it says must load the file. One
shared temporary folder for the whole run; each file is its own test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.db.csv_suites import SUITES, attempt, follow_advice, load_manifest

CASES = load_manifest()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("csv_suites")


def test_the_manifest_covers_every_vendored_file() -> None:
    listed = {c["file"] for c in CASES}
    vendored = {
        str(p.relative_to(SUITES))
        for suite, sub in (("duckdb", "files"), ("csv_spectrum", "csvs"), ("papaparse", "files"))
        for p in (SUITES / suite / sub).rglob("*")
        if p.is_file()
    }
    assert listed == vendored
    assert sum(1 for f in vendored if f.startswith("duckdb/")) >= 150


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_suite_file(case: dict[str, Any], folder: Path) -> None:
    path = SUITES / case["file"]
    tag = f"c{CASES.index(case)}"
    got = attempt(path, case.get("options", {}), folder, tag)
    assert got.status != "internal", got.message
    assert not got.leftover_db, "a failed first load left a database file behind"
    if case["expect"] == "load":
        assert got.status == "loaded", got.message
        assert got.silent == []
        assert (got.rows, got.types) == (case["rows"], case["types"])
        return
    assert got.status == "refused"
    assert "\n" not in got.message and "Error:" not in got.message
    if case["expect"] == "refuse_final":
        return
    if "gap" in case:
        pytest.xfail(case["gap"])
    options, retried = follow_advice(path, got.message, folder, tag + "_then")
    assert options == case["then"]
    assert retried.status == "loaded", retried.message
    assert retried.silent == []
    assert retried.good_rejected == [], "the option named first dropped records that read right"
    assert retried.rows == case["then_rows"]


@pytest.mark.parametrize("name", sorted(p.stem for p in (SUITES / "csv_spectrum" / "json").glob("*.json")))
def test_csv_spectrum_rows_match_its_json(name: str, folder: Path) -> None:
    expected = json.loads((SUITES / "csv_spectrum" / "json" / f"{name}.json").read_text(encoding="utf-8"))
    got = attempt(SUITES / "csv_spectrum" / "csvs" / f"{name}.csv", {}, folder, f"spectrum_{name}")
    assert got.status == "loaded", got.message
    assert got.rows == (len(expected) if isinstance(expected, list) else 1)
