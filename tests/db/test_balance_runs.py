"""A statement's balance rows among its records (Itaú's ``SALDO DO DIA`` after each day, held-out round
nine): they loaded as transactions, so every count was off without a word. Found when their label says a
balance and each balance is the one before moved by the rows between; said, refused by ``aggregate``,
dropped by ``--drop-totals``."""

from __future__ import annotations

import json
from pathlib import Path

from analytics_agent.workspace.workspace import Workspace
from tests.db.loaded import load_text, stored_rows

_DAYS = {
    "01/03/2024": [-496.79, -91.89],
    "04/03/2024": [-54.90, -240.69],
    "05/03/2024": [8450.00, -247.26, 1099.58],
    "07/03/2024": [-100.00],
    "13/03/2024": [-54.90, 310.25],
}


def _statement(*, opening: bool = True, wrong: bool = False, label: str = "SALDO DO DIA") -> str:
    """A Brazilian current-account statement: a movement column and a balance column filled only by the
    balance rows (an opening one first, one after each day)."""
    balance = 5432.10
    lines = ["Data;Lançamento;Valor (R$);Saldo (R$)"]
    if opening:
        lines.append(f"29/02/2024;SALDO ANTERIOR;;{balance:.2f}")
    for day, moves in _DAYS.items():
        lines += [f"{day};PIX TRANSF {i};{m:.2f}" + ";" for i, m in enumerate(moves)]
        balance += sum(moves) + (1 if wrong else 0)
        lines.append(f"{day};{label};;{balance:.2f}")
    return "\n".join(lines) + "\n"


def test_balance_rows_among_the_records_are_said_refused_and_dropped(tmp_path: Path) -> None:
    summary = load_text(tmp_path, "extrato.csv", _statement())
    (said,) = [n for n in summary.notes if "balances" in n]
    assert said.startswith(
        "6 rows labelled 'SALDO ANTERIOR' or 'SALDO DO DIA' (lancamento) are a statement's balances, no "
        "records: saldo_r there is the one before"
    ), said
    query = {"table": "t", "metrics": [{"fn": "count"}]}
    with Workspace.open(tmp_path / "t.duckdb") as ws:
        refused = ws.executor.execute("aggregate", json.dumps(query))
        fix = json.loads(refused.text[refused.text.index("{") : refused.text.index("}") + 1])
        answered = ws.executor.execute("aggregate", json.dumps({**query, "filters": [fix]}))
    assert refused.is_error and fix == {
        "column": "lancamento",
        "op": "not_in",
        "value": ["SALDO ANTERIOR", "SALDO DO DIA"],
    }, refused.text
    records = sum(len(m) for m in _DAYS.values())
    assert json.loads(answered.text)["rows"] == [[records]]
    dropped = load_text(tmp_path, "extrato.csv", _statement(), drop_totals=True)
    assert dropped.rows_loaded == records
    assert any(n.startswith("--drop-totals: dropped 6 rows labelled 'SALDO ANTERIOR'") for n in dropped.notes)
    assert stored_rows(tmp_path, "SELECT count(saldo_r), round(sum(valor_r), 2) FROM t") == [
        (0, round(sum(sum(m) for m in _DAYS.values()), 2))
    ]


def test_daily_balance_rows_without_an_opening_row_are_found(tmp_path: Path) -> None:
    """No opening row: the first day's balance starts the chain, whose later steps check it."""
    summary = load_text(
        tmp_path, "extrato.csv", _statement(opening=False, label="Saldo del día"), drop_totals=True
    )
    assert summary.rows_loaded == sum(len(m) for m in _DAYS.values())
    assert stored_rows(tmp_path, "SELECT count(*) FROM t WHERE lancamento = 'Saldo del día'") == [(0,)]


def test_rows_labelled_as_balances_whose_numbers_do_not_chain_are_records(tmp_path: Path) -> None:
    summary = load_text(tmp_path, "extrato.csv", _statement(wrong=True), drop_totals=True)
    assert summary.rows_loaded == sum(len(m) for m in _DAYS.values()) + 6
    assert not any("balances" in n for n in summary.notes), summary.notes


def _ledger() -> tuple[str, int]:
    """A Fortnox general ledger (held-out round ten): per account an opening balance row, its entries, a
    'Summa period' subtotal and a closing balance row; a grand total below all. The text."""
    accounts = {
        "1510": (84250.00, [(8185.77, None), (None, 32722.34), (75008.07, None)]),
        "1930": (312418.75, [(75765.80, None), (None, 10651.28)]),
        "2440": (-15000.00, [(None, 800.00), (120.50, None), (None, 99.90)]),
    }
    lines, records, debit, credit = ["Konto;Text;Debet;Kredit;Saldo"], 0, 0.0, 0.0
    for account, (balance, entries) in accounts.items():
        lines.append(f"{account};Ingående saldo;;;{balance:.2f}")
        for d, k in entries:
            balance += (d or 0) - (k or 0)
            lines.append(f"{account};Post;{d or ''};{k or ''};{balance:.2f}")
        sums = (sum(d or 0 for d, _ in entries), sum(k or 0 for _, k in entries))
        lines += [
            f"{account};Summa period;{sums[0]:.2f};{sums[1]:.2f};",
            f"{account};Utgående saldo;;;{balance:.2f}",
        ]
        records, debit, credit = records + len(entries), debit + sums[0], credit + sums[1]
    lines.append(f";Summa totalt;{debit:.2f};{credit:.2f};")
    return "\n".join(lines) + "\n", records


def test_each_accounts_opening_and_closing_balance_rows_in_a_ledger_are_dropped(tmp_path: Path) -> None:
    """Only the first and the last balance rows were found: the other accounts' loaded as entries."""
    text, records = _ledger()
    summary = load_text(tmp_path, "huvudbok.csv", text, drop_totals=True)
    assert summary.rows_loaded == records, summary.notes
    assert any(n.startswith("--drop-totals: dropped 6 rows labelled 'Ingående saldo'") for n in summary.notes)
    assert stored_rows(tmp_path, "SELECT count(saldo), count(*) FILTER (WHERE text <> 'Post') FROM t") == [
        (records, 0)
    ]


def test_a_romanian_statements_daily_turnover_rows_and_balances_are_no_records(tmp_path: Path) -> None:
    """Banca Transilvania (held-out round ten): 'Sold initial' first, a 'Rulaj zi' (the day's turnover) row
    after each day, 'Rulaj total cont' and 'Sold final' last. All loaded as records, without a word: the
    debits' sum counted each one three times."""
    days = [[("13-02-2024", "POS KAUFLAND", 324.61, None)], [("14-02-2024", "POS PETROM", 170.58, None),
            ("14-02-2024", "SALARIU", None, 6972.51)], [("15-02-2024", "ATM", 200.00, None)]]  # fmt: skip
    balance, lines = (
        4512.37,
        ["Data,Descriere,Debit,Credit,Sold", f'12-02-2024,Sold initial,,,"{4512.37:,.2f}"'],
    )
    for day in days:
        for date, text, debit, credit in day:
            balance += (credit or 0) - (debit or 0)
            lines.append(f'{date},{text},{debit or ""},{credit or ""},"{balance:,.2f}"')
        lines.append(f",Rulaj zi,{sum(d or 0 for *_, d, _ in day):.2f},{sum(c or 0 for *_, c in day):.2f},")
    lines += [",Rulaj total cont,695.19,6972.51,", f'29-02-2024,Sold final,,,"{balance:,.2f}"']
    text = "\n".join(lines) + "\n"
    kept = load_text(tmp_path, "extras.csv", text, thousands=",")
    assert any("'Rulaj total cont'" in n and "--drop-totals" in n for n in kept.notes), kept.notes
    summary = load_text(tmp_path, "extras.csv", text, thousands=",", drop_totals=True)
    assert summary.rows_loaded == 4, summary.notes
    assert stored_rows(
        tmp_path, "SELECT round(sum(debit), 2), round(sum(credit), 2), count(sold) FROM t"
    ) == [(695.19, 6972.51, 4)]


def test_bf_and_cf_balance_rows_around_a_running_balance_are_no_records(tmp_path: Path) -> None:
    """HSBC Hong Kong (held-out round eleven) opens with 'B/F BALANCE' and closes with 'C/F BALANCE':
    neither label was read, so both loaded as transactions."""
    text = (
        'Date,Transaction Details,Amount (HKD),Balance (HKD)\n01/02/2024,B/F BALANCE,,"45,678.90 CR"\n'
        '01/02/2024,MTR CORPORATION,"4,445.53 DR","41,233.37 CR"\n13/02/2024,SALARY,"1,000.00 CR","42,233.37 CR"\n'
        '29/02/2024,ATM,"233.37 DR","42,000.00 CR"\n29/02/2024,C/F BALANCE,,"42,000.00 CR"\n'
    )
    summary = load_text(tmp_path, "hsbc.csv", text, negative="DR", drop_totals=True)
    assert summary.rows_loaded == 3, summary.notes
    assert stored_rows(tmp_path, "SELECT round(sum(amount_hkd), 2) FROM t") == [(-3678.9,)]


def test_opening_and_closing_balances_written_in_a_movement_column_are_no_records(tmp_path: Path) -> None:
    """Intesa Sanpaolo (held-out round eleven) writes 'Saldo iniziale' and 'Saldo finale' under Entrate,
    the credits, beside signed Uscite: the closing is the opening plus both columns' rows between, which
    the check of one column missed, so the sum of the credits held both balances."""
    text = (
        "Data;Descrizione;Entrate;Uscite\n;Saldo iniziale;5.412,88;\n13/03/24;ENEL;;-135,67\n"
        "14/03/24;Bonifico;2.111,78;\n15/03/24;POS;;-56,82\n;Saldo finale;7.332,17;\n"
    )
    summary = load_text(tmp_path, "intesa.csv", text, decimal=",", thousands=".", drop_totals=True)
    assert summary.rows_loaded == 3, summary.notes
    assert stored_rows(tmp_path, "SELECT round(sum(entrate), 2), round(sum(uscite), 2) FROM t") == [
        (2111.78, -192.49)
    ]


def test_a_spanish_closing_balance_line_repeating_the_newest_balance_is_a_note(tmp_path: Path) -> None:
    """Santander (held-out round eleven) writes newest first and ends with 'Saldo a 31/03/2024:' and the
    balance of the first row: it loaded as a row, its label keeping the date column text."""
    text = (
        "Fecha;Concepto;Importe;Saldo\n31/03/2024;Bizum;-69,83;3.557,11\n30/03/2024;Compra;-27,29;3.626,94\n"
        "29/03/2024;Recibo;-44,41;3.654,23\nSaldo a 31/03/2024:;;;3.557,11\n"
    )
    summary = load_text(tmp_path, "santander.csv", text, decimal=",", thousands=".", drop_totals=True)
    assert summary.rows_loaded == 3, summary.notes
    assert stored_rows(tmp_path, "SELECT typeof(fecha), round(sum(importe), 2) FROM t GROUP BY 1") == [
        ("DATE", -141.53)
    ]
