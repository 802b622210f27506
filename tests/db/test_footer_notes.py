"""Note lines below a table, written with the table's number of fields (``Source: ERP export,,``): they
loaded as rows without a word, kept a number column text with advice (``--null``) that would load the
note as a row, and below a totals row they hid the total, so every sum counted it twice. Now each is said
in one line naming ``--drop-footer`` (``--drop-totals``), which loads the table without them. Real files
through the real loader into a DuckDB file in a temp dir; sums checked against the rows written here."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.workspace.workspace import Workspace

ROWS = [("East", 120, 3), ("West", 340, 4), ("North", 55, 1), ("East", 80, 2), ("South", 410, 9)]
SALES = sum(r[1] for r in ROWS)


def _file(tmp_path: Path, *below: str) -> Path:
    lines = ["region,sales,units", *(f"{r},{s},{u}" for r, s, u in ROWS), *below]
    path = tmp_path / "sales.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _load(tmp_path: Path, path: Path, **options):
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", replace=True, **options))  # type: ignore[arg-type]


def _one(tmp_path: Path, sql: str):
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchone()


@pytest.mark.parametrize(
    "below",
    [
        ["Source: ERP export,,"],
        ["* figures in thousands,,"],
        ["Note: preliminary,,", "Prepared by Finance,,"],
        ["Quelle: Statistisches Bundesamt,,"],
    ],
    ids=["source", "asterisk", "two-lines", "german"],
)
def test_note_lines_are_said_and_drop_footer_loads_without_them(tmp_path, below):
    kept = _load(tmp_path, _file(tmp_path, *below))
    said = [n for n in kept.notes if "below the table" in n]
    dropped = _load(tmp_path, _file(tmp_path, *below), drop_totals=True)
    assert kept.rows_total == len(ROWS) + len(below) and len(said) == 1 and "--drop-footer" in said[0]
    assert dropped.rows_total == len(ROWS)
    assert _one(tmp_path, "SELECT count(*), sum(sales), typeof(sum(sales)) FROM t") == (
        len(ROWS),
        SALES,
        "HUGEINT",
    )


def test_a_note_that_keeps_a_number_column_text_names_drop_footer_not_null(tmp_path):
    path = _file(tmp_path, "Source: internal, unaudited,")
    kept = _load(tmp_path, path)
    assert not any("--null" in n for n in kept.notes), kept.notes
    assert any("keeping sales as text" in n and "--drop-footer" in n for n in kept.notes), kept.notes
    _load(tmp_path, path, drop_totals=True)
    assert _one(tmp_path, "SELECT sum(sales), typeof(sales) FROM t GROUP BY ALL") == (SALES, "BIGINT")


def test_a_totals_row_above_a_note_line_is_found_and_refused_at_question_time(tmp_path):
    total = f"Total,{SALES},{sum(r[2] for r in ROWS)}"
    path = _file(tmp_path, total, "Source: ERP export,,")
    kept = _load(tmp_path, path)
    assert any(
        n.startswith("the last row (region = 'Total')") and "note line below it" in n for n in kept.notes
    )
    with Workspace.open(tmp_path / "t.duckdb") as ws:
        plain = ws.executor.execute(
            "aggregate", json.dumps({"table": "t", "metrics": [{"fn": "sum", "column": "sales"}]})
        )
        said = plain.text
        fix = json.loads(said[said.index("{") : said.index("}") + 1])
        fixed = ws.executor.execute(
            "aggregate",
            json.dumps({"table": "t", "metrics": [{"fn": "sum", "column": "sales"}], "filters": [fix]}),
        )
    assert plain.is_error and sorted(fix["value"]) == ["Source: ERP export", "Total"]
    assert json.loads(fixed.text)["rows"] == [[SALES]]
    dropped = _load(tmp_path, path, drop_totals=True)
    assert dropped.rows_total == len(ROWS) and _one(tmp_path, "SELECT sum(sales) FROM t") == (SALES,)


@pytest.mark.parametrize(
    "last", ["Misc,,", "Gift cards,,", "Notebook stand,,"], ids=["misc", "words", "note-word"]
)
def test_a_last_row_with_no_numbers_that_is_not_a_note_stays_data_without_a_word(tmp_path, last):
    kept = _load(tmp_path, _file(tmp_path, last))
    assert kept.rows_total == len(ROWS) + 1
    assert not any("below the table" in n for n in kept.notes), kept.notes


def test_money_totals_above_a_note_in_a_date_column_are_both_dropped_and_the_dates_read(tmp_path):
    """The note's text sits in the date column and the total is written as money (text until the amounts
    are read): the first drop finds only the note, so the totals row was left as data (21 rows, the sum
    doubled), and the dates stayed text; the odd-value check advised --null for the note."""
    amounts = [100 + i * 3.25 for i in range(1, 21)]
    lines = ["day,customer,amount", *(f'2024-03-{i:02d},c{i},"${a:,.2f}"' for i, a in enumerate(amounts, 1))]
    lines += [f',Total,"${sum(amounts):,.2f}"', "Source: ERP,,"]
    path = tmp_path / "m.csv"
    path.write_text("\n".join(lines) + "\n")
    kept = _load(tmp_path, path)
    assert not any("--null" in n for n in kept.notes), kept.notes
    dropped = _load(tmp_path, path, drop_totals=True)
    assert dropped.rows_total == 20
    assert _one(tmp_path, "SELECT sum(amount), typeof(any_value(day)) FROM t") == (
        pytest.approx(sum(amounts)),
        "DATE",
    )


def test_a_column_named_rowid_is_stored_under_another_name_so_the_footer_checks_read_the_row_ids(tmp_path):
    """A column so named hid DuckDB's row id: the footer check failed with a Binder Error on a text one."""
    path = tmp_path / "r.csv"
    path.write_text("rowid,name,amount\nA1,a,5\nA2,b,6\nA3,c,7\nSource: x,,\n")
    kept = _load(tmp_path, path)
    assert next(c.name for c in kept.columns) == "rowid_"
    assert "rowid is DuckDB's name for a row's id, stored as rowid_" in kept.notes
    assert any("below the table" in n for n in kept.notes)


STATEMENT = (
    "Buchungstag;Empfänger;Betrag;Saldo\n"
    "13.01.2024;Miete;-1.350,00;2.162,40\n"
    "14.01.2024;REWE;-136,77;2.025,63\n"
    "15.01.2024;Gehalt;4.250,00;6.275,63\n"
    "Kontostand am 31.01.2024;;;6.275,63\n"
)


@pytest.mark.parametrize("decimal", [{}, {"decimal": ",", "thousands": "."}])
def test_a_closing_balance_line_is_a_note_below_the_table(tmp_path: Path, decimal: dict) -> None:
    """A bank statement ends in its closing balance, the balance of the row above said again: a note, not
    data (its date cell kept the dates text, and --null was advised for it, which loads it as a row), with
    the amounts read as text or, as --decimal ',' names, as numbers."""
    path = tmp_path / "konto.csv"
    path.write_text(STATEMENT)
    summary = _load(tmp_path, path, **decimal)
    assert not any("--null" in n for n in summary.notes), summary.notes
    (note,) = [n for n in summary.notes if "below the table" in n]
    assert "('Kontostand am 31.01.2024') is a note" in note and "--drop-footer" in note
    summary = _load(tmp_path, path, drop_totals=True, **decimal)  # --drop-footer is its other name
    assert summary.rows_loaded == 3
    assert {c.name: c.type for c in summary.columns}["buchungstag"] == "DATE"


def test_text_below_a_closing_balance_line_is_a_note_too(tmp_path: Path) -> None:
    """Santander (round eleven): a disclaimer padded to the table's width under the closing balance. It
    starts like no note, so neither line was found: both loaded as rows without a word, and the dates
    stayed text."""
    path = tmp_path / "konto.csv"
    path.write_text(STATEMENT + "Los movimientos pueden no incluir operaciones pendientes.;;;\n")
    kept = _load(tmp_path, path, decimal=",", thousands=".")
    (note,) = [n for n in kept.notes if "below the table" in n]
    assert "the last 2 lines ('Kontostand am 31.01.2024' …) are notes" in note and "--drop-footer" in note
    summary = _load(tmp_path, path, drop_totals=True, decimal=",", thousands=".")
    assert summary.rows_loaded == 3
    assert {c.name: c.type for c in summary.columns}["buchungstag"] == "DATE"


def test_text_below_a_balance_line_that_repeats_no_balance_stays_data(tmp_path: Path) -> None:
    path = tmp_path / "konto.csv"
    path.write_text(STATEMENT.replace(";;;6.275,63", ";;;9.999,99") + "Gebühren folgen;;;\n")
    summary = _load(tmp_path, path, decimal=",", thousands=".")
    assert not any("below the table" in n for n in summary.notes), summary.notes
    assert summary.rows_loaded == 5


def test_a_balance_line_whose_number_is_not_the_one_above_is_data(tmp_path: Path) -> None:
    path = tmp_path / "konto.csv"
    path.write_text(STATEMENT.replace(";;;6.275,63", ";;;9.999,99"))
    summary = _load(tmp_path, path, decimal=",", thousands=".")
    assert not any("below the table" in n for n in summary.notes), summary.notes
    assert summary.rows_loaded == 4


def test_a_column_text_only_for_a_note_reads_its_decimals_back_not_rounded(tmp_path: Path) -> None:
    """--drop-footer types such a column again: BIGINT only for whole numbers written so (DuckDB's cast
    reads '10.50' as the BIGINT 11, which stored every amount rounded)."""
    path = tmp_path / "amounts.csv"
    path.write_text("region,amount\nN,10.50\nS,20.25\nE,3\nSource:,ERP export\n")
    summary = _load(tmp_path, path, drop_totals=True)
    assert {c.name: c.type for c in summary.columns}["amount"] == "DOUBLE"
    assert _one(tmp_path, "SELECT sum(amount), count(*) FROM t") == (33.75, 3)


def test_a_percentage_of_total_row_under_the_total_is_a_note_and_both_are_dropped(tmp_path: Path) -> None:
    """Xero's aged payables end in 'Total' and then 'Percentage of total' (31.45%, ...): the percents kept
    every amount column text, and no option named left them out."""
    rows = [("AAA Couriers", 100.0, 8321.23), ("DHL Express", 16402.51, 0.0), ("Zenith", 0.0, 15892.53)]
    lines = ["Contact,Current,< 1 Month"] + [f'{c},"{a:,.2f}","{b:,.2f}"' for c, a, b in rows]
    current, month = sum(r[1] for r in rows), sum(r[2] for r in rows)
    lines += [f'Total,"{current:,.2f}","{month:,.2f}"', "Percentage of total,40.95%,59.05%"]
    path = tmp_path / "aged.csv"
    path.write_text("\n".join(lines) + "\n")
    kept = _load(tmp_path, path)
    (note,) = [n for n in kept.notes if "below the table" in n]
    assert "('Percentage of total') is a note" in note and "--drop-footer" in note
    summary = _load(tmp_path, path, drop_totals=True)
    assert summary.rows_loaded == 3
    assert {c.name: c.type for c in summary.columns}["current"] == "DOUBLE"


DSK = (
    "Дата\tОписание\tДебит\tКредит\tСалдо\n"
    "\tНачално салдо\t\t\t4 972,31\n"
    "02.03.2024\tТеглене от АТМ\t140,02\t\t4 832,29\n"
    "05.03.2024\tЗаплата\t\t1 961,37\t6 793,66\n"
    "17.03.2024\tКомунални услуги\t414,53\t\t6 379,13\n"
    "\tОбороти\t554,55\t1 961,37\t\n"
    "\tКрайно салдо\t\t\t6 379,13\n"
)
"""A Bulgarian statement (round six's DSK file): an opening balance row, the records, a turnover row of
the debit and credit sums, and the closing balance under it, which repeats the last record's balance."""


def test_a_statement_with_opening_turnover_and_closing_rows_says_each_and_drops_them(tmp_path: Path) -> None:
    """The closing line repeats the balance of the last record two rows up, not of the turnover row
    right above it: before, it was no note, so the turnover row was no footer total either, and the
    opening row went unsaid once a totals row was found. Now the load names all three, and --drop-totals
    loads the three records."""
    path = tmp_path / "izvlechenie.tsv"
    path.write_text(DSK, encoding="utf-8")
    summary = _load(tmp_path, path, decimal=",")
    said = " | ".join(summary.notes)
    assert "the last row (описание = 'Обороти') holds the sums of the rows above in дебит" in said
    assert "'Крайно салдо'" in said
    assert "the opening balance row (описание = 'Начално салдо') is no record" in said
    summary = _load(tmp_path, path, decimal=",", drop_totals=True)
    assert summary.rows_loaded == 3
    assert _one(tmp_path, "SELECT count(*), sum(дебит), sum(кредит), min(салдо) FROM t") == (
        3,
        554.55,
        1961.37,
        4832.29,
    )


def _ostatki(tmp_path: Path) -> Path:
    """A МойСклад stock list (round seven): a group's name alone on its row, its items (amounts with
    no-break-space thousands and a decimal comma, dates dd.mm.yy), its 'Итого по группе «…»' row; a grand
    'Итого' at the end."""
    groups = {"Электроника": [("00033", "1\u00a0518", "2\u00a0631\u00a0771,78", "26.12.23")]}
    groups["Электроника"].append(("00065", "383", "1\u00a0370\u00a0787,64", "03.09.23"))
    groups["Канцтовары"] = [("00512", "20", "1\u00a0000,50", "14.02.24"), ("00513", "7", "70,00", "01.03.24")]
    lines = ["Код;Остаток;Сумма;Последнее поступление"]
    for name, items in groups.items():
        lines.append(f"{name};;;")
        lines += [";".join(item) for item in items]
        units = sum(int(i[1].replace("\u00a0", "")) for i in items)
        total = sum(float(i[2].replace("\u00a0", "").replace(",", ".")) for i in items)
        lines.append(f"Итого по группе «{name}»;{units};{total:.2f}".replace(".", ",") + ";")
    lines.append("Итого;1928;4003629,92;")
    path = tmp_path / "ostatki.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_russian_group_subtotals_and_total_are_said_and_dropped_with_the_dates_left_right(
    tmp_path: Path,
) -> None:
    """'Итого по группе' rows were no subtotals to DuckDB's RE2 (its \\b is a boundary of ASCII words), so
    the grand total was no total either and all of them loaded as rows. With --drop-totals, the second
    settling of the label's column read the year-last dates again and swapped them back (26.12.23 as
    2026-12-23)."""
    path = _ostatki(tmp_path)
    summary = _load(tmp_path, path)
    said = " | ".join(summary.notes)
    assert "the last row (код = 'Итого') holds the sums of the rows above" in said, said
    assert "2 subtotal rows such as 'Итого по группе «Электроника»' and 2 rows naming their groups" in said
    summary = _load(tmp_path, path, drop_totals=True)
    assert summary.rows_loaded == 4
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        rows = conn.execute("SELECT код, последнее_поступление::VARCHAR FROM t ORDER BY код").fetchall()
    assert rows == [
        ("00033", "2023-12-26"),
        ("00065", "2023-09-03"),
        ("00512", "2024-02-14"),
        ("00513", "2024-03-01"),
    ]


def _huvudbok(tmp_path: Path, *, wrong: bool = False) -> Path:
    """A Fortnox general ledger (round six): per account its entries and a 'Summa period' row of their
    debit and credit sums, no grand total below."""
    accounts = {
        "1930": [(44526.92, None), (None, 18052.42), (27742.36, None)],
        "2440": [(None, 800.0), (120.5, None)],
    }
    lines = ["Konto;Text;Debet;Kredit"]
    for account, entries in accounts.items():
        lines += [f"{account};Post;{d or ''};{k or ''}" for d, k in entries]
        debit = sum(d or 0 for d, _ in entries) + (1 if wrong else 0)
        credit = sum(k or 0 for _, k in entries) + (1 if wrong else 0)
        lines.append(f"{account};Summa period;{debit:.2f};{credit:.2f}")
    path = tmp_path / "huvudbok.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_subtotal_rows_inside_a_ledger_with_no_grand_total_are_said_and_dropped(tmp_path: Path) -> None:
    """Each account's 'Summa period' row loaded as a record without a word: a sum of debet over the table
    counted every entry twice. The rows are named when each one's numbers are the sums since the one
    above; --drop-totals leaves them out."""
    summary = _load(tmp_path, _huvudbok(tmp_path))
    (said,) = [n for n in summary.notes if "Summa period" in n]
    assert said.startswith("2 rows labelled like 'Summa period' (text) hold the sums of debet, kredit"), said
    query = {"table": "t", "metrics": [{"fn": "sum", "column": "debet"}]}
    with Workspace.open(tmp_path / "t.duckdb") as ws:
        refused = ws.executor.execute("aggregate", json.dumps(query))
        fix = json.loads(refused.text[refused.text.index("{") : refused.text.index("}") + 1])
        answered = ws.executor.execute("aggregate", json.dumps({**query, "filters": [fix]}))
    assert refused.is_error and fix == {"column": "text", "op": "not_in", "value": ["Summa period"]}, (
        refused.text
    )
    assert json.loads(answered.text)["rows"] == [[72389.78]]
    summary = _load(tmp_path, _huvudbok(tmp_path), drop_totals=True)
    assert summary.rows_loaded == 5
    assert _one(tmp_path, "SELECT round(sum(debet), 2), round(sum(kredit), 2) FROM t") == (72389.78, 18852.42)


def test_rows_labelled_as_subtotals_whose_numbers_do_not_add_up_are_records(tmp_path: Path) -> None:
    summary = _load(tmp_path, _huvudbok(tmp_path, wrong=True))
    assert not any("Summa period" in n for n in summary.notes), summary.notes
    assert summary.rows_loaded == 7
