"""Flags written as words of a language (Yes/No, Ja/Nej, Да/Нет, Ano/Ne) load as BOOLEAN and say so; a
column of one word, a country column of NO, or a pair of words no system writes for yes and no stays
text."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.load.options import LoadOptions, load_options
from analytics_agent.db.load.run import load_files


def _load(
    tmp_path: Path, text: str, options: LoadOptions | None = None
) -> tuple[dict[str, str], list[str], list]:
    path = tmp_path / "flags.csv"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "f.duckdb"
    db.unlink(missing_ok=True)
    summary = load_files(db, [str(path)], options or LoadOptions(table="f"))
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT * FROM f ORDER BY id").fetchall()
    return {c.name: c.type for c in summary.columns}, summary.notes, rows


def test_yes_no_words_of_several_languages_are_stored_as_booleans_and_said(tmp_path: Path) -> None:
    text = "id,billable,oplaceno,afstemt,likvidace,country\n"
    text += "1,Yes,Да,Ja,Ano,NO\n2,No,Нет,Nej,Ne,NO\n3,yes,Да,,ANO,NO\n4,NO,Нет,Ja,Ano,NO\n"
    types, notes, rows = _load(tmp_path, text)
    assert types == {
        "id": "BIGINT",
        "billable": "BOOLEAN",
        "oplaceno": "BOOLEAN",
        "afstemt": "BOOLEAN",
        "likvidace": "BOOLEAN",
        "country": "VARCHAR",
    }
    assert [r[1:5] for r in rows] == [
        (True, True, True, True),
        (False, False, False, False),
        (True, True, None, True),
        (False, False, True, True),
    ]
    assert (
        "billable: 'Yes' and 'NO' stored as BOOLEAN ('Yes' true); add --type billable=VARCHAR to keep them "
        "as text" in notes
    )
    assert any(n.startswith("oplaceno: 'Да' and 'Нет' stored as BOOLEAN") for n in notes)


def test_the_note_s_type_keeps_the_words_and_one_word_alone_stays_text(tmp_path: Path) -> None:
    text = "id,billable,only_yes,mixed\n1,Yes,Yes,Yes\n2,No,Yes,No\n3,Yes,Yes,Maybe\n"
    options = load_options(table="f", types=["billable=VARCHAR"])
    types, notes, rows = _load(tmp_path, text, options)
    assert types == {"id": "BIGINT", "billable": "VARCHAR", "only_yes": "VARCHAR", "mixed": "VARCHAR"}
    assert [r[1] for r in rows] == ["Yes", "No", "Yes"]
    assert not any("BOOLEAN" in n for n in notes)


def test_south_and_north_are_no_flags(tmp_path: Path) -> None:
    types, notes, _ = _load(tmp_path, "id,hemisphere\n1,S\n2,N\n3,S\n")
    assert types["hemisphere"] == "VARCHAR" and notes == []


def test_a_share_of_a_loaded_flag_is_asked_with_pct_as_the_refusal_of_avg_says(tmp_path: Path) -> None:
    import json

    from analytics_agent.workspace.workspace import Workspace

    text = "id,billable,hours\n1,Yes,2\n2,No,3\n3,Yes,5\n4,Yes,1\n"
    _load(tmp_path, text)
    with Workspace.open(tmp_path / "f.duckdb") as ws:
        refused = ws.executor.execute(
            "aggregate", json.dumps({"table": "f", "metrics": [{"fn": "avg", "column": "billable"}]})
        )
        said = refused.text
        pct = json.loads(said[said.index('{"fn": "pct"') : said.index("}", said.index('{"fn": "pct"')) + 1])
        answered = ws.executor.execute("aggregate", json.dumps({"table": "f", "metrics": [pct]}))
    assert refused.is_error and pct == {"fn": "pct", "where": "billable = true"}
    assert json.loads(answered.text)["rows"] == [[75]]


def test_flags_and_totals_labels_in_more_languages(tmp_path: Path) -> None:
    """A Saudi ERP's نعم/لا kept text; a Vietnamese ledger's 'Tổng cộng' row was no totals label, so its
    date column stayed text and --drop-totals was never named."""
    from analytics_agent.db.load.settle.total_labels import is_total_label

    types, _, rows = _load(tmp_path, "id,paid\n1,نعم\n2,لا\n3,نعم\n")
    assert types["paid"] == "BOOLEAN" and [r[1] for r in rows] == [True, False, True]
    labels = ["Tổng cộng", "Celkem", "Σύνολα", "Totales", "Toplam", "I alt", "รวม", "Kabuuan"]
    assert all(is_total_label(label) for label in labels)
    assert not any(is_total_label(word) for word in ("Tổng công ty", "Celkový", "Brand X"))
