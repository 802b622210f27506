"""What the export tests share: a file written by the test, loaded through the real loader into a DuckDB
file in the test's temp dir (replacing table ``t`` unless told otherwise), and what was stored, read back."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import LoadSummary, load_files
from analytics_agent.errors import LoadError
from tests.db.csv_suites import options_from


def load_text(tmp_path: Path, name: str, text: str | bytes, **options: object) -> LoadSummary:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    options.setdefault("table", "t")
    options.setdefault("replace", True)
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(**options))  # type: ignore[arg-type]


def stored_rows(tmp_path: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def stored_types(summary: LoadSummary) -> dict[str, str]:
    return {c.name: c.type for c in summary.columns}


def load_path(path: Path, **options: object) -> LoadSummary:
    """``path`` loaded into a DuckDB file beside it (one a file, made anew), with ``options`` as a suite
    case names them (``csv_suites.options_from``)."""
    db = path.with_suffix(".duckdb")
    db.unlink(missing_ok=True)
    return load_files(db, [str(path)], options_from(options))


def refusal(path: Path, **options: object) -> str:
    """The one line a load of ``path`` (``load_path``) is refused with; it fails when the file loads."""
    with pytest.raises(LoadError) as caught:
        load_path(path, **options)
    return str(caught.value)
