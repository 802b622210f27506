"""A statement's opening and closing balance rows and a settlement file's summary row above the records,
kept by a load (the default) or left out with ``--drop-totals``: the load says what they are and why (the
opening plus the movements is the closing; the summary's total is the sum below), ``aggregate`` refuses a
call whose rows include them with the filter that leaves them out, and ``describe_table`` shows them. Real
CSV files through the real loader into a DuckDB file in a temp dir; right numbers summed here in Python."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError
from analytics_agent.workspace.workspace import Workspace

MOVES = [2418.08, -968.2, 1198.96, -730.69, 1695.61, -52.4]
OPENING = 3817.42


def _statement(tmp_path: Path, closing: float) -> Path:
    lines = ['"Data","Lançamento","Valor"', f'"29/12/2023","Saldo Anterior","{OPENING:.2f}"']
    lines += [f'"{d + 13:02d}/01/2024","Pix {d}","{m:.2f}"' for d, m in enumerate(MOVES)]
    lines.append(f'"31/01/2024","S A L D O","{closing:.2f}"')
    path = tmp_path / "extrato.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _settlement(tmp_path: Path) -> Path:
    lines = ["settlement-id\tdeposit-date\ttotal-amount\ttype\torder-id\tamount"]
    lines.append(f"118945\t17.11.2026\t{sum(MOVES):.2f}\t\t\t")
    lines += [f"118945\t\t\tOrder\t028-{i:04d}\t{m:.2f}" for i, m in enumerate(MOVES)]
    path = tmp_path / "settlement.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _load(tmp_path: Path, path: Path, **options: Any) -> tuple[Path, list[str], int]:
    db = tmp_path / "t.duckdb"
    summary = load_files(db, [str(path)], load_options(table="t", replace=True, **options))  # type: ignore[arg-type]
    return db, summary.notes, summary.rows_loaded


def _call(db: Path, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    with Workspace.open(db) as ws:
        out = ws.executor.execute(tool, json.dumps(args))
    return out.is_error, out.text


SUM = {"table": "t", "metrics": [{"fn": "sum", "column": "valor"}, {"fn": "count"}]}


def test_opening_and_closing_balance_rows_are_said_refused_in_a_sum_and_dropped_on_asking(
    tmp_path: Path,
) -> None:
    db, notes, rows = _load(tmp_path, _statement(tmp_path, OPENING + sum(MOVES)))
    assert rows == len(MOVES) + 2
    assert (
        "the opening and closing balance rows (lancamento = 'Saldo Anterior', 'S A L D O') are no records: valor "
        "of the first plus the rows between is the last's; loaded as rows, sums and counts include them: add "
        "--drop-totals to load without them" in notes
    )
    error, said = _call(db, "aggregate", SUM)
    fix = json.loads(said[said.index("{") : said.index("}") + 1])
    assert error and "balances, not movements" in said
    assert fix == {"column": "lancamento", "op": "not_in", "value": ["S A L D O", "Saldo Anterior"]}
    fixed_error, fixed = _call(db, "aggregate", {**SUM, "filters": [fix]})
    assert not fixed_error and json.loads(fixed)["rows"] == [[pytest.approx(sum(MOVES)), len(MOVES)]]
    shown = json.loads(_call(db, "describe_table", {"table": "t"})[1])["totals_rows"]
    assert shown["column"] == "lancamento" and "opening (and closing) balance rows" in shown["note"]

    db, notes, rows = _load(tmp_path, _statement(tmp_path, OPENING + sum(MOVES)), drop_totals=True)
    assert rows == len(MOVES)
    assert any(n.startswith("--drop-totals: dropped the opening and closing balance rows") for n in notes)
    error, said = _call(db, "aggregate", SUM)
    assert not error and json.loads(said)["rows"] == [[pytest.approx(sum(MOVES)), len(MOVES)]]


def test_balance_labels_whose_numbers_do_not_add_up_are_records(tmp_path: Path) -> None:
    db, notes, rows = _load(tmp_path, _statement(tmp_path, OPENING + sum(MOVES) + 10))
    assert rows == len(MOVES) + 2 and not any("balance" in n for n in notes)
    error, _ = _call(db, "aggregate", SUM)
    assert not error


def test_a_summary_row_above_the_records_is_said_refused_and_dropped_on_asking(tmp_path: Path) -> None:
    path = _settlement(tmp_path)
    db, notes, rows = _load(tmp_path, path, decimal=None)
    assert rows == len(MOVES) + 1
    assert any(
        n.startswith("the first row is a summary, no record: its total_amount,")
        and "is the sum of amount over the rows below" in n
        for n in notes
    ), notes
    count = {"table": "t", "metrics": [{"fn": "count"}]}
    error, said = _call(db, "aggregate", count)
    fix = json.loads(said[said.index("{") : said.index("}") + 1])
    assert error and fix == {"column": "total_amount", "op": "is_null"}
    _, fixed = _call(db, "aggregate", {**count, "filters": [fix]})
    assert json.loads(fixed)["rows"] == [[len(MOVES)]]

    db, notes, rows = _load(tmp_path, path, drop_totals=True)
    assert rows == len(MOVES) and any(
        n.startswith("--drop-totals: dropped the first row, a summary") for n in notes
    )


def test_a_summary_over_a_decimal_column_is_found_too(tmp_path: Path) -> None:
    """The summary's total (DOUBLE) against a column typed DECIMAL: compared as Decimal minus float, the
    check raised TypeError and the load failed with an internal error."""
    _, notes, rows = _load(tmp_path, _settlement(tmp_path), types=["amount=DECIMAL(12,2)"])
    assert rows == len(MOVES) + 1
    assert any(n.startswith("the first row is a summary, no record") for n in notes), notes


def _wallet(tmp_path: Path, start: float) -> Path:
    lines = ["Date and Time,Description,Debit,Credit,Balance", f",STARTING BALANCE,,,{start:.2f}"]
    balance = START
    for i, move in enumerate(MOVES):
        balance += move
        debit, credit = (f"{-move:.2f}", "") if move < 0 else ("", f"{move:.2f}")
        lines.append(f"2024-03-{i + 10:02d} 04:51 PM,Move {i},{debit},{credit},{balance:.2f}")
    lines.append(f",ENDING BALANCE,,,{balance:.2f}")
    path = tmp_path / "wallet.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


START = 3250.0


def test_an_opening_balance_above_a_running_balance_is_named_with_the_closing_one(tmp_path: Path) -> None:
    """GCash's STARTING BALANCE and ENDING BALANCE: the balance column runs, no column sums to the closing
    one; the two rows loaded as records, their balances counted in a max or a count."""
    db, notes, rows = _load(tmp_path, _wallet(tmp_path, START))
    assert rows == len(MOVES) + 2
    assert any(
        n.startswith(
            "the opening and closing balance rows (description = 'STARTING BALANCE', 'ENDING BALANCE')"
        )
        for n in notes
    ), notes
    error, said = _call(db, "aggregate", {"table": "t", "metrics": [{"fn": "count"}]})
    assert error and "balance rows" in said
    _, notes, rows = _load(tmp_path, _wallet(tmp_path, START), drop_totals=True)
    assert rows == len(MOVES)


def test_an_opening_label_whose_balance_does_not_run_into_the_next_row_is_a_record(tmp_path: Path) -> None:
    _, notes, rows = _load(tmp_path, _wallet(tmp_path, START + 100))
    assert rows == len(MOVES) + 2 and not any("balance row" in n for n in notes)


REGIONS = [("Reykjavíkurborg", 139000, 141224), ("Kópavogsbær", 21273, 21038), ("Akureyrarbær", 19642, 19912)]
REGIONS += [("Hafnarfjarðarkaupstaður", 29799, 30264), ("Garðabær", 18252, 18706)]


def _px_web(tmp_path: Path, *, first: tuple[str, int, int] | None = None) -> Path:
    """A statistics office's table (round six's PX-Web export): the whole country first, its numbers the
    sums of the municipalities below, then a percent change beside them that is no sum."""
    total = first or ("Alls landið", sum(r[1] for r in REGIONS), sum(r[2] for r in REGIONS))
    lines = ['"Sveitarfélag";"2023";"2024";"Breyting (%)"']
    lines += [
        f'"{n}";{a};{b};{round(100 * (b - a) / a, 1):.1f}'.replace(".", ",") for n, a, b in [total, *REGIONS]
    ]
    path = tmp_path / "mannfjoldi.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_totals_row_above_the_records_is_said_refused_and_dropped_on_asking(tmp_path: Path) -> None:
    db, notes, rows = _load(tmp_path, _px_web(tmp_path), decimal=",")
    assert rows == len(REGIONS) + 1
    (said,) = [n for n in notes if n.startswith("the first row (")]
    assert said.startswith(
        "the first row (sveitarfelag = 'Alls landið') is no record: its c_2023, c_2024 are"
    )
    query = {"table": "t", "metrics": [{"fn": "sum", "column": "c_2024"}]}
    error, refusal = _call(db, "aggregate", query)
    fix = json.loads(refusal[refusal.index("{") : refusal.index("}") + 1])
    assert error and fix == {"column": "sveitarfelag", "op": "not_in", "value": ["Alls landið"]}, refusal
    _, fixed = _call(db, "aggregate", {**query, "filters": [fix]})
    assert json.loads(fixed)["rows"] == [[sum(r[2] for r in REGIONS)]]
    _, described = _call(db, "describe_table", {"table": "t"})
    assert json.loads(described)["totals_rows"]["labels"] == ["Alls landið"]

    db, notes, rows = _load(tmp_path, _px_web(tmp_path), decimal=",", drop_totals=True)
    assert rows == len(REGIONS)
    assert any(
        n.startswith("--drop-totals: dropped the first row (sveitarfelag = 'Alls landið')") for n in notes
    )


def test_a_first_row_whose_numbers_are_not_the_sums_below_is_a_record(tmp_path: Path) -> None:
    """The biggest municipality first, bigger than the next in both years, but no sum: a record."""
    path = _px_web(tmp_path, first=("Reykjanesbær", 90000, 91000))
    _, notes, rows = _load(tmp_path, path, decimal=",")
    assert rows == len(REGIONS) + 1 and not any("first row" in n for n in notes), notes


def _freeform(tmp_path: Path) -> Path:
    """Adobe Analytics' freeform table (round seven): '#' comment blocks with a blank line between them,
    then the header, then a totals row with its first cell empty, then the days."""
    days = [(f"Jan {d}, 2024", 1000 + 37 * d, 300 + 11 * d) for d in range(1, 9)]
    lines = ["#" * 20, "# Marketing Daily KPIs", "#" * 20, "", "# Freeform table", "Day,Page Views,Visits"]
    lines.append(f",{sum(d[1] for d in days)},{sum(d[2] for d in days)}")
    lines += [f'"{day}",{views},{visits}' for day, views, visits in days]
    path = tmp_path / "freeform.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_unlabelled_totals_row_under_the_header_is_said_refused_and_dropped(tmp_path: Path) -> None:
    """With --comment '#' named first, the blank line between the comment blocks was read as the header
    (DuckDB's sniffer skips it; an explicit read from line 0 did not), so the load failed on 'Page Views'
    as a number; and the totals row, no label but its empty first cell, loaded as a day."""
    db, notes, rows = _load(tmp_path, _freeform(tmp_path), comment="#")
    assert rows == 9
    (said,) = [n for n in notes if n.startswith("the first row (")]
    assert said.startswith("the first row (day empty) is no record: its page_views, visits are the sums"), (
        said
    )
    error, refusal = _call(db, "aggregate", {"table": "t", "metrics": [{"fn": "sum", "column": "visits"}]})
    fix = json.loads(refusal[refusal.index("{") : refusal.index("}") + 1])
    assert error and fix == {"column": "day", "op": "not_null"}, refusal
    _, fixed = _call(db, "aggregate", {"table": "t", "metrics": [{"fn": "count"}], "filters": [fix]})
    assert json.loads(fixed)["rows"] == [[8]]
    _, notes, rows = _load(tmp_path, _freeform(tmp_path), comment="#", drop_totals=True)
    assert rows == 8


def _venmo(tmp_path: Path, *, closing: bool = True) -> Path:
    """A Venmo statement as it comes: two title lines padded with commas, a header whose first column has
    no name, a row filling ``Beginning Balance`` alone, and a last row filling the ending balance and a
    disclaimer (the payments a bank funds leave the balance: no sum checks these rows)."""
    pad = "," * 8
    lines = [f"Account Statement - (@maya) - March 1st to March 31st 2024 {pad}", f"Account Activity{pad}"]
    lines += [",ID,Datetime,Type,Amount (total),Funding Source,Beginning Balance,Ending Balance,Disclaimer"]
    lines += [",,,,,,$412.37,,"]
    lines += [
        f',39838591191774{i:05d},2024-03-{i + 3:02d}T01:56:35,Payment,"- ${-m:,.2f}",Venmo balance,,,'
        if m < 0
        else f',39838591191774{i:05d},2024-03-{i + 3:02d}T01:56:35,Payment,"+ ${m:,.2f}",,,,'
        for i, m in enumerate(MOVES)
    ]
    if closing:
        lines.append(',,,,,,,$250.62,"In case of errors or questions:\nwrite to us"')
    path = tmp_path / "venmo.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_title_above_a_header_with_an_unnamed_first_column_names_its_skip(tmp_path: Path) -> None:
    # before: the title line was read as the header, the real one as a record, and each column was named
    # with a --null of its own header name ("add --null 'ID' if it means missing")
    with pytest.raises(
        LoadError, match=r"lines 1-2 are a title or notes .* add --skip 2 to start at the header"
    ):
        _load(tmp_path, _venmo(tmp_path))


@pytest.mark.parametrize("closing", [True, False])
def test_rows_filling_only_columns_of_their_own_are_said_refused_and_dropped(
    tmp_path: Path, closing: bool
) -> None:
    db, notes, rows = _load(tmp_path, _venmo(tmp_path, closing=closing), skip=2)
    edges = 2 if closing else 1
    assert rows == len(MOVES) + edges
    (note,) = [n for n in notes if "no record" in n]
    which = (
        "the first and last rows (id empty) are no records"
        if closing
        else "the first row (id empty) is no record"
    )
    assert note.startswith(which), note
    assert "beginning_balance" in note and ("ending_balance, disclaimer" in note) is closing
    count = {"table": "t", "metrics": [{"fn": "count"}, {"fn": "sum", "column": "amount_total"}]}
    error, said = _call(db, "aggregate", count)
    fix = json.loads(said[said.index("{") : said.index("}") + 1])
    assert error and fix == {"column": "id", "op": "not_null"}, said
    _, fixed = _call(db, "aggregate", {**count, "filters": [fix]})
    assert json.loads(fixed)["rows"] == [[len(MOVES), pytest.approx(sum(MOVES))]]
    shown = json.loads(_call(db, "describe_table", {"table": "t"})[1])["totals_rows"]
    assert shown["column"] == "id" and "(not_null)" in shown["note"]

    db, notes, rows = _load(tmp_path, _venmo(tmp_path, closing=closing), skip=2, drop_totals=True)
    assert rows == len(MOVES)


def test_a_first_row_of_its_own_columns_over_records_that_fill_them_too_is_a_record(tmp_path: Path) -> None:
    # the first record of a sparse file: its balance column is filled by other records below
    text = "ID,Type,Amount,Balance\n,,,100\n1,Payment,5,105\n2,Payment,7,\n3,Refund,-2,110\n"
    path = tmp_path / "sparse.csv"
    path.write_text(text, encoding="utf-8")
    _, notes, rows = _load(tmp_path, path)
    assert rows == 4 and not [n for n in notes if "no record" in n]


def test_an_opening_balance_dated_in_its_label_is_found(tmp_path: Path) -> None:
    """Bank of America's download (held-out round nine) opens with 'Beginning balance as of 02/01/2024':
    the label with its day after it was no opening balance's, so the row loaded as a record."""
    lines = [
        "Date,Description,Amount,Running Bal.",
        '02/01/2024,Beginning balance as of 02/01/2024,,"4,512.33"',
    ]
    balance = 4512.33
    for i, move in enumerate(MOVES):
        balance += move
        lines.append(f'02/{i + 13:02d}/2024,Move {i},{move:.2f},"{balance:,.2f}"')
    path = tmp_path / "stmt.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _, notes, rows = _load(tmp_path, path)
    assert rows == len(MOVES) + 1
    assert any(
        n.startswith("the opening balance row (description = 'Beginning balance as of") for n in notes
    ), notes
    _, notes, rows = _load(tmp_path, path, drop_totals=True)
    assert rows == len(MOVES)
