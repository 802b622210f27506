"""Amount columns converted in the write itself (``settle/amounts_ahead.py``): the same table, notes and
profile as the plain write followed by ``ALTER … TYPE DOUBLE``, and the plain load again when a value
further down leaves the form the first ones showed."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.amount_forms import simple, value_sql
from analytics_agent.db.catalog import get_profile
from analytics_agent.db.load import ahead as amounts_ahead
from analytics_agent.db.load import run as load_run
from analytics_agent.db.load.options import Input, load_options
from analytics_agent.db.load.plan import SAMPLE_BUFFER, make_plan
from analytics_agent.db.load.read.batches import write_batch
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle.amount_counts import Form
from analytics_agent.db.load.settle.amounts_ahead import checked_sql


def _money(cents: int) -> str:
    text = f"${abs(cents) / 100:,.2f}"
    return f"({text})" if cents < 0 else text


def _export(path: Path, rows: int, late: dict[int, str] | None = None) -> tuple[list[int], list[int]]:
    """An export-style file; returns the amounts (in cents) and the percents written."""
    rng = random.Random(7)
    cents = [rng.randint(-500_000, 90_000_000) for _ in range(rows)]
    shares = [rng.randint(0, 40) for _ in range(rows)]
    lines = ["Invoice,Invoice Date,Amount,Discount,Status"]
    for i in range(rows):
        amount = (late or {}).get(i, _money(cents[i]))
        lines.append(f'INV-{i:05d},{1 + i % 12:02d}/{1 + i % 28:02d}/2024,"{amount}",{shares[i]}%,Open')
    path.write_text("\n".join(lines) + "\n")
    return cents, shares


def _load(
    tmp_path: Path, csv: Path, name: str, monkeypatch: pytest.MonkeyPatch, ahead: bool
) -> dict[str, Any]:
    """Load ``csv`` with the conversion in the write allowed (``ahead``) or not; what was proposed, the
    summary, the stored rows and the profile."""
    proposed: list[Any] = []

    def spy(*args: Any) -> Any:
        found = amounts_ahead.plan_ahead(*args)
        proposed.append(found[1] if found else None)
        return found

    monkeypatch.setattr(amounts_ahead, "AHEAD_BYTES", 0 if ahead else 1 << 60)
    monkeypatch.setattr(load_run, "plan_ahead", spy)
    db = tmp_path / f"{name}.duckdb"
    summary = load_files(db, [str(csv)], load_options(table="t"))
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT * FROM t ORDER BY 1").fetchall()
        profile = get_profile(conn, "t")
    return {"proposed": proposed, "summary": summary, "rows": rows, "profile": profile}


def test_amounts_converted_in_the_write_are_stored_and_said_as_after_a_plain_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    csv = tmp_path / "export.csv"
    cents, shares = _export(csv, 600)
    ahead = _load(tmp_path, csv, "ahead", monkeypatch, ahead=True)
    plain = _load(tmp_path, csv, "plain", monkeypatch, ahead=False)
    assert ahead["proposed"][0].forms == {
        "amount": Form(".", dollar=True, percent=False),
        "discount": Form("0", dollar=False, percent=True),
    }
    assert plain["proposed"] == [None]
    types = {c.name: c.type for c in ahead["summary"].columns}
    assert types == {c.name: c.type for c in plain["summary"].columns}
    assert types["amount"] == types["discount"] == "DOUBLE" and types["invoice_date"] == "DATE"
    assert ahead["summary"].notes == plain["summary"].notes
    assert ahead["summary"].notes[0].startswith("amounts stored as numbers (DOUBLE)")
    assert ahead["rows"] == plain["rows"]
    assert ahead["profile"] == plain["profile"]
    assert ahead["profile"]["units"] == {"amount": "$", "discount": "%"}
    # the numbers the file says, independently of either path's SQL
    assert [r[2] for r in ahead["rows"]] == [c / 100 for c in cents]
    assert [r[3] for r in ahead["rows"]] == [float(s) for s in shares]


@pytest.mark.parametrize(
    "odd, note",
    [
        ("$1,23.45", "amount stayed text: it holds amounts ($) but 1 value does not read as one"),
        ("€56.00", "amount stayed text: it holds amounts in more than one currency"),
        ("pending", "amount stayed text: it holds amounts ($) but 1 value does not read as one"),
    ],
)
def test_a_value_outside_the_form_further_down_loads_the_plain_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, odd: str, note: str
):
    """``$1,23.45`` is what a proof by the cast alone would let through (its commas dropped it casts to
    123.45): the form's check writes NaN, found before the commit, and the plain load keeps it text."""
    csv = tmp_path / "late.csv"
    _export(csv, 300, late={250: odd})
    ahead = _load(tmp_path, csv, "ahead", monkeypatch, ahead=True)
    plain = _load(tmp_path, csv, "plain", monkeypatch, ahead=False)
    assert "amount" in ahead["proposed"][0].forms  # the first rows suggested it
    types = {c.name: c.type for c in ahead["summary"].columns}
    assert types["amount"] == "VARCHAR" and types["discount"] == "DOUBLE"
    assert any(n.startswith(note) for n in ahead["summary"].notes)
    assert ahead["summary"].notes == plain["summary"].notes
    assert ahead["rows"] == plain["rows"]
    assert ahead["profile"] == plain["profile"]
    assert odd in [r[2] for r in ahead["rows"]]


@pytest.mark.parametrize("flag", [{"decimal": "."}, {"thousands": ","}, {"drop_totals": True}])
def test_options_that_read_amounts_their_own_way_keep_the_plain_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: dict[str, Any]
):
    csv = tmp_path / "export.csv"
    _export(csv, 100)
    proposed: list[Any] = []
    monkeypatch.setattr(amounts_ahead, "AHEAD_BYTES", 0)
    monkeypatch.setattr(
        load_run, "plan_ahead", lambda *a: proposed.append(amounts_ahead.plan_ahead(*a)) or proposed[-1]
    )
    load_files(tmp_path / "t.duckdb", [str(csv)], load_options(table="t", **flag))
    assert proposed == [None]


def test_checked_sql_reads_the_form_and_marks_any_other_value_nan():
    values = ["$1,234.50", "($84.10)", "-$5", "$-5", ".5", None, "$1,23.45", "1.234,50", "€5", "", "$ 5"]
    form = Form(".", dollar=True, percent=False)
    sql = checked_sql("v", form)
    with duckdb.connect() as conn:
        got = [
            r[0]
            for r in conn.execute(
                f"SELECT {sql} FROM (SELECT unnest(?::VARCHAR[]) AS v, generate_subscripts(?::VARCHAR[], 1) AS i) ORDER BY i",
                [values, values],
            ).fetchall()
        ]
    assert got[:6] == [1234.5, -84.1, -5.0, -5.0, 0.5, None]
    assert all(g is not None and g != g for g in got[6:])  # NaN: not equal to itself


def _written(rng: random.Random, form: Form) -> str:
    """A random amount of ``form`` as a spreadsheet writes it."""
    whole = rng.choice([0, 7, 42, 999, 1000, 12_345, 1_234_567, 10**12 + 5])
    if form.mark == ".":
        digits = rng.choice([f"{whole}", f"{whole:,}"]) + rng.choice(["", ".5", ".05", ".10", ".125"])
        digits = rng.choice([digits, ".75"]) if whole == 0 else digits
    else:
        digits = str(whole)
    amount = ("$" if form.dollar and rng.random() < 0.8 else "") + digits + ("%" if form.percent else "")
    shapes = [amount, f"-{amount}", f"({amount})"]
    if form.dollar and not form.percent:
        shapes.append(f"$-{digits}")
    return rng.choice(shapes)


@pytest.mark.parametrize(
    "form",
    [Form(m, dollar=d, percent=p) for m in (".", "0") for d in (False, True) for p in (False, True)],
)
def test_checked_sql_gives_the_full_readings_number_for_every_value_of_the_form(form: Form):
    """The write's number (a negative in parentheses negated) is the one the regular-expression reading of
    any amount gives (``value_sql``), to the bit, minus zero included."""
    rng = random.Random(repr(form))
    values = [_written(rng, form) for _ in range(3000)] + ["(0)", "($0.00)", "-0", "(.5)"]
    values = [v for v in values if re.fullmatch(simple(*form), v)]
    assert len(values) > 2000
    with duckdb.connect() as conn:
        pairs = conn.execute(
            f"SELECT {checked_sql('v', form)}, {value_sql('v', '.')} FROM (SELECT unnest(?) AS v)",
            [values],
        ).fetchall()
    for value, (ahead, plain) in zip(values, pairs, strict=True):
        assert ahead is not None and not math.isnan(ahead), value
        assert (ahead, math.copysign(1, ahead)) == (plain, math.copysign(1, plain)), value


def test_the_first_rows_are_read_with_a_small_buffer_whatever_the_write_asks(tmp_path: Path):
    """A big file's write pins its batch as DuckDB's buffer; the plan's reading of the first rows pins a
    small one instead (not both: DuckDB refuses a named argument twice), and a '?' in a column's name is
    no parameter of it."""
    csv = tmp_path / "a.csv"
    csv.write_text('"Paid?",b\n' + "".join(f"{i},{'x' * 90}{i}\n" for i in range(100_000)))
    options = load_options(table="t")
    with duckdb.connect() as conn:
        plan = make_plan(conn, "csv", [csv], [Input(csv)], options, frozenset(), None)
        assert plan.first_rows is not None
        query, params = plan.first_rows
        assert write_batch([csv]) in plan.params and SAMPLE_BUFFER in params
        assert write_batch([csv]) not in params
        assert conn.execute(f"SELECT * FROM ({query}) LIMIT 1", params).fetchall() == [(0, "x" * 90 + "0")]


def test_a_big_write_rolled_back_and_loaded_again_leaves_a_sound_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Past two row groups DuckDB writes rows into the file before the commit: the write that converted
    ahead is rolled back after that, and the plain one is written into the same open database."""
    rows = 260_000
    lines = [f'{i},"${i * 7 % 99_991:,}.{i % 100:02d}",{i % 37}%' for i in range(rows)]
    lines[rows - 10] = f"{rows - 10},€5.00,1%"
    csv = tmp_path / "big.csv"
    csv.write_text("id,amount,share\n" + "\n".join(lines) + "\n")
    ahead = _load(tmp_path, csv, "ahead", monkeypatch, ahead=True)
    assert set(ahead["proposed"][0].forms) == {"amount", "share"}
    types = {c.name: c.type for c in ahead["summary"].columns}
    assert types == {"id": "BIGINT", "amount": "VARCHAR", "share": "DOUBLE"}
    assert any(
        "amount stayed text: it holds amounts in more than one currency" in n for n in ahead["summary"].notes
    )
    with duckdb.connect(str(tmp_path / "ahead.duckdb")) as conn:
        conn.execute("CHECKPOINT")
        got = conn.execute(
            "SELECT count(*), sum(share), count(*) FILTER (WHERE amount = '€5.00') FROM t"
        ).fetchone()
    assert got == (rows, float(sum(i % 37 for i in range(rows)) - (rows - 10) % 37 + 1), 1)


@pytest.mark.parametrize("first", ["5,000.00-", "$ 1,234.50", "1,234.50 $"])
def test_first_values_outside_every_plain_form_are_not_converted_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
):
    """Characters alone suggest a form (``amount_counts.guess``) that these values do not have: converted
    ahead, every one would be NaN and the file written twice."""
    csv = tmp_path / "sap.csv"
    csv.write_text("id,amount\n" + "".join(f'{i},"{first}"\n' for i in range(60)))
    ahead = _load(tmp_path, csv, "ahead", monkeypatch, ahead=True)
    plain = _load(tmp_path, csv, "plain", monkeypatch, ahead=False)
    assert ahead["proposed"] == [None]
    assert ahead["summary"].notes == plain["summary"].notes and ahead["rows"] == plain["rows"]
