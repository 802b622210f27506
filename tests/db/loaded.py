"""What the export tests share: a file written by the test, loaded through the real loader into a DuckDB
file in the test's temp dir (replacing table ``t`` unless told otherwise), and what was stored, read back."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import LoadSummary, load_files


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
