"""A CSV source's pinned reading (``read``, ``columns``) as ``sources.toml`` holds it: checked when read,
written back as TOML that reads the same, and used by the view."""

from __future__ import annotations

import tomllib

import duckdb
import pytest

from analytics_agent.db.linked.link import link_sources
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.db.linked.store import render_toml
from analytics_agent.errors import SourceError


def _source(tmp_path, **extra):
    path = tmp_path / "a b.csv"
    path.write_text("Net Amount;Day\n1,5;28/09/2021\n2,5;13/10/2021\n", encoding="utf-8")
    return parse_source("sales", {"type": "files", "path": str(path), **extra})


def test_the_pinned_reading_survives_the_toml_round_trip_and_the_view_uses_it(tmp_path):
    read = {"delim": ";", "decimal_separator": ",", "dateformat": "%d/%m/%Y", "skip": 0, "header": True,
            "nullstr": ["NA", ""], "columns": {"Net Amount": "DOUBLE", "Day": "DATE"}, "auto_detect": False}  # fmt: skip
    source = _source(tmp_path, read=read, columns={"Net Amount": "net_amount", "Day": "day"})
    again = parse_source("sales", tomllib.loads(render_toml([source]))["sales"])
    assert again == source
    conn = duckdb.connect()
    linked = link_sources(conn, [again])
    assert linked.tables == {"sales": "sales"}
    rows = conn.execute("SELECT sum(net_amount), min(day), max(day) FROM sales").fetchone()
    assert (
        rows is not None and rows[0] == 4.0 and str(rows[1]) == "2021-09-28" and str(rows[2]) == "2021-10-13"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"read": {"filename": True}}, "unknown read setting 'filename'"),
        ({"read": {"delim": 1.5}}, "read setting delim must be"),
        ({"read": "delim=;"}, "read must be a table of settings"),
        ({"columns": {"Net Amount": "Net Amount"}}, "columns maps a file's column to a lower-case name"),
    ],
)
def test_a_bad_pinned_setting_is_one_line_naming_it(tmp_path, extra, message):
    with pytest.raises(SourceError, match=message):
        _source(tmp_path, **extra)
