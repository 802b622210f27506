"""A line of column groups above the header (a spanner: Statistik Austria's ``;;Insgesamt;;Österreichische
Staatsangehörige;;…`` over ``Bundesland;Stichtag;Männer;Frauen;Männer;Frauen;…``, a group's name over the
first of its columns, blanks to its right). The refusal named the ``--skip`` that made the group line the
header: the names loaded as a data row, every number column stayed text, and the notes advised ``--null
'Männer'``. It now names the ``--skip`` to the line of names and says the group line; the names under it
carry their group (``insgesamt_manner``), said in one note with ``--plain-header``, which keeps the
header's own names. Real files written here, loaded through the loader into DuckDB files in tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from tests.db.loaded import load_path as _load
from tests.db.loaded import refusal as _refusal
from tests.db.test_exports_held import _followed

STATES = ("Burgenland", "Kärnten", "Salzburg", "Wien")


def _write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
    return path


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def _dotted(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _population(away_base: int = 250_000) -> tuple[str, list[tuple[str, int, list[int | None]]]]:
    """A Statistik Austria table: a title with a footnote mark (and a comma, which led DuckDB's sniffer to
    read the file with commas), the group line, the names, four states a year with dot-grouped thousands,
    ``..`` and ``x`` marks, an ``Österreich insgesamt`` row after each year (its sums, ``..`` where a part
    is), a blank line and notes. Returns the file's text and its records (state, year, six numbers)."""
    records = []
    lines = [
        "Bevölkerung zu Jahresbeginn nach Bundesland, Geschlecht und Staatsangehörigkeit 2022-2024 1)",
        ";;Insgesamt;;Österreichische Staatsangehörige;;Ausländische Staatsangehörige 2);",
        "Bundesland;Stichtag;Männer;Frauen;Männer;Frauen;Männer;Frauen",
    ]
    for year in (2022, 2023, 2024):
        totals: list[int | None] = [0] * 6
        for i, state in enumerate(STATES):
            home = [140_000 + 90_017 * i + year, 150_000 + 70_003 * i + year]
            away = [away_base + 1_111 * i, away_base + 50_000 + 2_221 * i]
            values: list[int | None] = [home[0] + away[0], home[1] + away[1], *home, *away]
            if (year, state) == (2023, "Salzburg"):
                values[4] = None  # written 'x': kept secret
            if (year, state) == (2024, "Wien"):
                values[5] = None  # written '..': not available
            records.append((state, year, values))
            totals = [
                t + v if t is not None and v is not None else None
                for t, v in zip(totals, values, strict=True)
            ]
            cells = [
                "x" if v is None and k == 4 else ".." if v is None else _dotted(v)
                for k, v in enumerate(values)
            ]
            lines.append(f"{state};01.01.{year};" + ";".join(cells))
        lines.append(
            f"Österreich insgesamt;01.01.{year};"
            + ";".join(".." if t is None else _dotted(t) for t in totals)
        )
    lines += [
        "",
        "Q: STATISTIK AUSTRIA, Statistik des Bevölkerungsstandes.",
        "1) 2024 vorläufige Ergebnisse.",
    ]
    lines.append('".. = Daten nicht verfügbar; x = Geheimhaltung"')
    return "\n".join(lines) + "\n", records


GROUPED = [
    "bundesland",
    "stichtag",
    "insgesamt_manner",
    "insgesamt_frauen",
    "osterreichische_staatsangehorige_manner",
    "osterreichische_staatsangehorige_frauen",
    "auslandische_staatsangehorige_2_manner",
    "auslandische_staatsangehorige_2_frauen",
]


def test_a_group_line_under_a_title_is_named_and_skipped_to_the_names_below_it(tmp_path: Path) -> None:
    text, records = _population()
    path = _write(tmp_path, "bevoelkerung.csv", text, "latin-1")
    refusal = _refusal(path)
    assert refusal == (
        "bevoelkerung.csv: line 1 is a title or note ('Bevölkerung zu Jahresbeginn nach Bundesland, "
        "Geschlecht u...') and line 2 is a line of column groups ('Insgesamt', 'Österreichische "
        "Staatsangehörige', 'Ausländische Staatsangehörige 2)') above the header (line 3, 8 fields, its names "
        "under the groups); add --skip 2 to start at the header"
    )
    db = tmp_path / "followed.duckdb"
    summary, options = _followed(path, db)
    assert options == {"skip": 2, "skip_bad_rows": True, "drop_totals": True}
    assert [c.name for c in summary.columns] == GROUPED
    assert [c.original for c in summary.columns][2:4] == ["Insgesamt Männer", "Insgesamt Frauen"]
    assert [c.type for c in summary.columns][1:] == ["DATE"] + ["DOUBLE"] * 6
    assert (
        "line 2 names groups of the columns below it ('Insgesamt', 'Österreichische Staatsangehörige', "
        "'Ausländische Staatsangehörige 2)'): each column under one is stored with the group's name first, "
        "as insgesamt_manner, insgesamt_frauen, osterreichische_staatsangehorige_manner, "
        "osterreichische_staatsangehorige_frauen and 2 more; add --plain-header to store the header's names "
        "alone"
    ) in summary.notes
    dropped = [n for n in summary.notes if n.startswith("--drop-totals: dropped 3 rows labelled like")]
    assert dropped and "'Österreich insgesamt' (bundesland)" in dropped[0], summary.notes
    stored = _rows(db, f"SELECT * FROM {summary.table} ORDER BY rowid")
    assert len(stored) == len(records) == 12
    for row, (state, year, values) in zip(stored, records, strict=True):
        assert row[0] == state and row[1].isoformat() == f"{year}-01-01"
        assert list(row[2:]) == values


def test_plain_header_keeps_the_names_the_header_gives(tmp_path: Path) -> None:
    text, _ = _population()
    path = _write(tmp_path, "bevoelkerung.csv", text, "latin-1")
    summary = _load(path, skip=2, skip_bad_rows=True, drop_totals=True, plain_header=True)
    names = ["bundesland", "stichtag", "manner", "frauen", "manner_1", "frauen_1", "manner_2", "frauen_2"]
    assert [c.name for c in summary.columns] == names
    assert not any("names groups" in n for n in summary.notes)
    assert any(n.startswith("columns 5, 6, 7, 8 repeat an earlier name") for n in summary.notes)


def test_a_group_line_first_of_years_over_a_comma_table(tmp_path: Path) -> None:
    """No title: the groups are years (``,,2023,,2024,``), as a comparison report writes them."""
    rows = "".join(f"P-{i},Item {i},{i},{i * 10}.5,{i + 1},{i * 11}.25\n" for i in range(1, 9))
    path = _write(tmp_path, "compare.csv", ",,2023,,2024,\nCode,Name,Units,Revenue,Units,Revenue\n" + rows)
    refusal = _refusal(path)
    assert "line 1 is a line of column groups ('2023', '2024') above the header (line 2, 6 fields" in refusal
    assert refusal.endswith("add --skip 1 to start at the header"), refusal
    summary = _load(path, skip=1)
    names = ["code", "name", "c_2023_units", "c_2023_revenue", "c_2024_units", "c_2024_revenue"]
    assert [c.name for c in summary.columns] == names
    assert [c.original for c in summary.columns][2:] == [
        "2023 Units",
        "2023 Revenue",
        "2024 Units",
        "2024 Revenue",
    ]
    assert _rows(path.with_suffix(".duckdb"), "SELECT sum(c_2023_units), sum(c_2024_revenue) FROM t") == [
        (36, 398.0)
    ]


def test_a_title_without_a_comma_above_a_group_line(tmp_path: Path) -> None:
    """DuckDB's sniffer reads this one with ``;`` and skips the title itself: the refusal named --skip 1
    (the group line as the header)."""
    rows = "".join(f"Region {i};{1000 * i + 7};{900 * i + 3};{i}00;{i}10\n" for i in range(1, 9))
    text = "Tabelle 3 Umsatz nach Region\n;Inland;;Ausland;\nRegion;Umsatz;Kosten;Umsatz;Kosten\n" + rows
    path = _write(tmp_path, "umsatz.csv", text)
    refusal = _refusal(path)
    assert "and line 2 is a line of column groups ('Inland', 'Ausland')" in refusal, refusal
    assert refusal.endswith("add --skip 2 to start at the header"), refusal
    summary = _load(path, skip=2)
    assert [c.name for c in summary.columns] == [
        "region",
        "inland_umsatz",
        "inland_kosten",
        "ausland_umsatz",
        "ausland_kosten",
    ]
    stored = _rows(
        path.with_suffix(".duckdb"), "SELECT inland_umsatz, ausland_kosten FROM t ORDER BY rowid LIMIT 2"
    )
    assert stored == [(1007, 110), (2007, 210)]


def test_a_header_first_with_a_sparse_first_record_loads_as_before(tmp_path: Path) -> None:
    """Guard: the first line is the header and the first record fills few fields; nothing is skipped and
    no name changes."""
    rows = "1,,,x,,\n" + "".join(f"{i},n{i},{i},y,{i * 2},{i * 3}\n" for i in range(2, 10))
    path = _write(tmp_path, "sparse.csv", "id,name,a,flag,b,c\n" + rows)
    summary = _load(path)
    assert [c.name for c in summary.columns] == ["id", "name", "a", "flag", "b", "c"]
    assert summary.rows_loaded == 9
    assert not any("group" in n for n in summary.notes)
    assert _rows(path.with_suffix(".duckdb"), "SELECT id, name, flag, b FROM t ORDER BY rowid LIMIT 2") == [
        (1, None, "x", None),
        (2, "n2", "y", 4),
    ]


def test_a_key_value_line_above_the_header_is_no_group_line(tmp_path: Path) -> None:
    """Guard: with --skip past a line of key-value cells padded to the table's width (``Konto: 1234;;…``),
    the names stay the header's own."""
    rows = "".join(f"0{i}.02.2024;Buchung {i};{i}0,50;EUR\n" for i in range(1, 9))
    text = "Konto: 1234;;Zeitraum: Februar;\nDatum;Text;Betrag;Währung\n" + rows
    path = _write(tmp_path, "konto.csv", text)
    summary = _load(path, skip=1)
    assert [c.name for c in summary.columns] == ["datum", "text", "betrag", "wahrung"]
    assert not any("names groups" in n for n in summary.notes)


def test_rows_labelled_insgesamt_are_named_as_subtotals(tmp_path: Path) -> None:
    """German statistics label a subtotal ``… insgesamt`` (``Deutschland insgesamt`` after each year's
    states): its numbers are those rows' sums, and it loaded as a record without a word."""
    lines = ["Land;Jahr;Einwohner;Fläche"]
    for year in (2022, 2023, 2024):
        people = [1200 + year, 3400 + 2 * year, 560 + year % 7]
        area = [35.5, 70.25, 12.0]
        lines += [
            f"{land};{year};{p};{a}"
            for land, p, a in zip(("Bayern", "Berlin", "Bremen"), people, area, strict=True)
        ]
        lines.append(f"Deutschland insgesamt;{year};{sum(people)};{sum(area)}")
    path = _write(tmp_path, "laender.csv", "\n".join(lines) + "\n")
    summary = _load(path)
    assert (
        "3 rows labelled like 'Deutschland insgesamt' (land) hold the sums of einwohner, flache over the rows "
        "above each of them, back to the one before: loaded as rows, a sum over the table counts those rows "
        "twice: add --drop-totals to load without them"
    ) in summary.notes
    dropped = _load(path, drop_totals=True)
    assert dropped.rows_loaded == 9
    assert _rows(path.with_suffix(".duckdb"), "SELECT count(*) FROM t WHERE land LIKE '%insgesamt'") == [(0,)]


def test_points_that_group_thousands_elsewhere_in_the_file_group_them_in_a_column_of_three_digits(
    tmp_path: Path,
) -> None:
    """A column of counts below a million (``21.491``: foreigners in a small state) beside one of millions
    (``4.648.186``): DuckDB read the first as decimals (21.491), and the load only said the options that
    read the points as thousands, though the file shows that its points group them."""
    small = [21_491, 128_832, 33_619, 64_374, 110_061]
    big = [4_648_186, 4_735_521, 3_621_947, 3_634_988, 1_026_239]
    rows = "".join(
        f"Land {i};{_dotted(b)};{_dotted(s)}\n" for i, (b, s) in enumerate(zip(big, small, strict=True))
    )
    path = _write(tmp_path, "zahlen.csv", "Bundesland;Insgesamt;Ausländer\n" + rows)
    summary = _load(path)
    (note,) = [n for n in summary.notes if n.startswith("auslander: every value is written like '110.061'")]
    assert note.endswith(
        "(three digits after one point) in a semicolon file whose points group thousands ('1.026.239' in "
        "insgesamt): read as thousands (110.061 -> 110061); add --decimal '.' to read them as decimals"
    ), note
    db = path.with_suffix(".duckdb")
    assert _rows(db, "SELECT insgesamt, auslander FROM t ORDER BY rowid") == list(
        zip(big, small, strict=True)
    )
    _load(path, decimal=".")
    assert _rows(db, "SELECT auslander FROM t ORDER BY rowid LIMIT 2") == [(21.491,), (128.832,)]


def test_points_alone_in_a_semicolon_file_are_still_said_as_decimals(tmp_path: Path) -> None:
    """Guard: with no number in the file that can only group thousands, a column of ``1.234`` stays the
    decimals DuckDB read, said with the options that read the points as thousands."""
    path = _write(tmp_path, "k.csv", "k;v;n\nA;1.234;7\nB;2.500;8\nC;10.000;9\n")
    summary = _load(path)
    assert any(
        n.startswith("v: every value is written like") and "if the points group thousands" in n
        for n in summary.notes
    )
    assert _rows(path.with_suffix(".duckdb"), "SELECT v FROM t ORDER BY rowid") == [(1.234,), (2.5,), (10.0,)]


def test_a_key_value_line_of_two_names_over_distinct_names_leaves_them(tmp_path: Path) -> None:
    """Guard: ``Kontoinhaber;;Max Mustermann;`` reads like two groups, but no name of the header stands
    under both: the names stay the header's own."""
    rows = "".join(f"0{i}.02.2024;Buchung {i};{i}0,50;EUR\n" for i in range(1, 9))
    text = "Kontoinhaber;;Max Mustermann;\nDatum;Text;Betrag;Währung\n" + rows
    path = _write(tmp_path, "inhaber.csv", text)
    summary = _load(path, skip=1)
    assert [c.name for c in summary.columns] == ["datum", "text", "betrag", "wahrung"]
    assert not any("names groups" in n for n in summary.notes)


def test_small_counts_beside_marks_read_as_the_file_writes_its_thousands(tmp_path: Path) -> None:
    """The foreigners' columns below a hundred thousand (``20.000``, ``21.111``) beside ``..`` and ``x``: each
    value reads with a decimal point or a decimal comma, and they stayed text, said with both --decimal
    readings, though the totals columns (``1.194.856``) show how the file writes them."""
    text, records = _population(away_base=20_000)
    path = _write(tmp_path, "bevoelkerung.csv", text, "latin-1")
    db = tmp_path / "followed.duckdb"
    summary, options = _followed(path, db)
    assert options == {"skip": 2, "skip_bad_rows": True, "drop_totals": True}, summary.notes
    assert (
        "auslandische_staatsangehorige_2_manner, auslandische_staatsangehorige_2_frauen: numbers that read "
        "either way read with a decimal comma ('20.000' -> 20000, the points grouping thousands), as "
        "insgesamt_manner's numbers are written; add --decimal '.' to read the points as decimals"
    ) in summary.notes, summary.notes
    stored = _rows(db, f"SELECT * FROM {summary.table} ORDER BY rowid")
    assert [list(row[2:]) for row in stored] == [values for _, _, values in records]


def test_a_group_like_line_under_a_real_header_is_described_as_before(tmp_path: Path) -> None:
    """Guard: the first line is the header and the line under it sparse (``,,North,,South,``): no --skip is
    named and no name changes; the line describes the columns, as it did."""
    rows = "".join(f"P{i},Item {i},{i},{i * 10}.5,{i + 1},{i * 11}.25\n" for i in range(1, 7))
    path = _write(tmp_path, "g.csv", "Code,Name,Units,Revenue,Units2,Revenue2\n,,North,,South,\n" + rows)
    summary = _load(path)
    assert [c.name for c in summary.columns] == ["code", "name", "units", "revenue", "units2", "revenue2"]
    assert summary.rows_loaded == 6
    assert any(n.startswith("the line under the header describes the columns") for n in summary.notes)
    assert not any("names groups" in n for n in summary.notes)
    assert _rows(path.with_suffix(".duckdb"), "SELECT sum(units), sum(revenue2) FROM t") == [(21, 232.5)]


def test_a_group_line_with_each_name_over_every_column_of_its_group(tmp_path: Path) -> None:
    """A merged cell saved into each of its columns (``;Nord;Nord;Süd;Süd``): the refusal named --skip 1,
    which made it the header (``nord``, ``nord_1``) and loaded the names as a record, every column text."""
    rows = "".join(f"R{i};{i};{i * 3};{i + 7};{i * 5}\n" for i in range(1, 7))
    path = _write(tmp_path, "regionen.csv", "Tabelle 1\n;Nord;Nord;Süd;Süd\nName;x;y;x;y\n" + rows)
    refusal = _refusal(path)
    assert "line 2 is a line of column groups ('Nord', 'Süd') above the header (line 3" in refusal, refusal
    assert refusal.endswith("add --skip 2 to start at the header"), refusal
    summary = _load(path, skip=2)
    assert [c.name for c in summary.columns] == ["name", "nord_x", "nord_y", "sud_x", "sud_y"]
    assert summary.rows_loaded == 6
    assert _rows(path.with_suffix(".duckdb"), "SELECT sum(nord_y), sum(sud_x) FROM t") == [(63, 63)]


def test_two_lines_of_groups_each_over_the_one_below(tmp_path: Path) -> None:
    """A year over a category over the names (``;2023;;;;2024;;;`` over ``;Insgesamt;;Ausländer;;…``): the
    names carry both, the upper first; a line whose groups do not start where the ones below start (a
    key-value line) is no group line."""
    head = ";2023;;;;2024;;;\n;Insgesamt;;Ausländer;;Insgesamt;;Ausländer;\n"
    head += "Land;Männer;Frauen;Männer;Frauen;Männer;Frauen;Männer;Frauen\n"
    rows = "".join(f"L{i};" + ";".join(str(i * k) for k in range(100, 108)) + "\n" for i in range(1, 7))
    path = _write(tmp_path, "zwei.csv", "Tabelle 9: Bevölkerung\n" + head + rows)
    refusal = _refusal(path)
    assert "line 3 is a line of column groups ('Insgesamt', 'Ausländer') above the header (line 4" in refusal
    assert refusal.endswith("add --skip 3 to start at the header"), refusal
    summary = _load(path, skip=3)
    names = [
        f"c_{y}_{g}_{s}"
        for y in (2023, 2024)
        for g in ("insgesamt", "auslander")
        for s in ("manner", "frauen")
    ]
    assert [c.name for c in summary.columns] == ["land", *names]
    assert summary.columns[5].original == "2024 Insgesamt Männer"
    assert summary.notes[0].startswith(
        "lines 2-3 name groups of the columns below them ('2023 Insgesamt', '2023 Ausländer', '2024 Insgesamt' "
        "and 1 more): each column under one is stored with the group's name first, as c_2023_insgesamt_manner"
    ), summary.notes
    assert _rows(
        path.with_suffix(".duckdb"), "SELECT c_2024_auslander_frauen FROM t ORDER BY rowid LIMIT 2"
    ) == [
        (107,),
        (214,),
    ]
    path = _write(tmp_path, "kv.csv", "Inhaber;;Max Muster;;;;;;\n" + head.split("\n", 1)[1] + rows)
    summary = _load(path, skip=2)
    assert summary.columns[1].original == "Insgesamt Männer"
