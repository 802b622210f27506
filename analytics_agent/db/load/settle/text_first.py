"""Text columns read before the date checks, each only when its first values call for it: Excel's error
values (``text_errors``: ``#N/A`` beside dates or ``Yes``/``No`` kept them text) and dates of the Minguo
calendar that DuckDB left as text (``minguo_text``). Both modules are imported only then: most loads
have neither."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb


def read_text_first(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    probe: dict[str, list[str]],
    decimal: str | None,
    notes: list[str],
) -> tuple[list[str], dict[str, list[str]]]:
    """The columns of ``text`` typed here (their notes added to ``notes``), and the first values of the
    columns (``probe``), less the errors read as missing."""
    typed: list[str] = []
    if any(v[:1] == "#" for c in text for v in probe.get(c, ())):
        from analytics_agent.db.load.settle.text_errors import read_past_errors

        typed, said, probe = read_past_errors(conn, table, text, probe, decimal)
        notes += said
    left = {c: probe[c] for c in text if c in probe and c not in typed}
    if any(v and (v[0][:1] == "民" or v[0][:3].isdigit()) for v in left.values()):
        from analytics_agent.db.load.settle.minguo_text import minguo_columns, settle_minguo_text

        dated, said = settle_minguo_text(conn, table, minguo_columns(left))
        typed += dated
        notes += said
    return typed, probe
