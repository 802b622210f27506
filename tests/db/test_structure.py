"""A file's structure is checked, never guessed silently: ragged records fail naming their line (or are
set aside with --skip-bad-rows), fallback sniffs are refused, and zip, gzip and zstd inputs load."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError

GOOD = [f"{i},name {i},{i * 2}" for i in range(1, 30_001)]  # past DuckDB's sniffing sample


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def tables(db: Path) -> set[str]:
    if not db.exists():
        return set()
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'").fetchall()
    return {r[0] for r in rows}


@pytest.mark.parametrize(
    ("lines", "line", "found"),
    [
        (["a,b,c", "1,2,3", "4,5", "6,7,8,9"], 3, 2),  # the example: the sniffer skipped 3 lines
        (["a,b,c", "1,2,3", "4,5,6", "7,8", "9,10,11"], 4, 2),  # the sniffer fell back to one column
        (["id,name,amount", "1,x,2,extra", *GOOD], 2, 4),  # at the start
        (["id,name,amount", *GOOD[:15_000], "15001,short", *GOOD[15_001:]], 15_002, 2),  # in the middle
        (["id,name,amount", *GOOD[:25_000], "25001,short", *GOOD[25_001:]], 25_002, 2),  # past the sample
    ],
    ids=["issue-example", "one-short-row", "start", "middle", "past-sample"],
)
def test_a_ragged_record_fails_naming_its_line_and_leaves_no_table(tmp_path, lines, line, found):
    db = tmp_path / "r.duckdb"
    path = write(tmp_path / "ragged.csv", lines)
    expected = len(lines[0].split(","))
    with pytest.raises(LoadError) as err:
        load_files(db, [str(path)], LoadOptions())
    assert str(err.value).startswith(
        f"ragged.csv: line {line} has {found} fields where the header has {expected}"
    )
    assert "--skip-bad-rows" in str(err.value)
    assert "ragged" not in tables(db)


def test_skip_bad_rows_loads_the_rest_and_keeps_the_bad_lines_in_a_rejects_table(tmp_path):
    db = tmp_path / "r.duckdb"
    path = write(
        tmp_path / "ragged.csv", ["id,name,amount", "1,x,2,extra", *GOOD[:9], "10,short", *GOOD[10:]]
    )
    summary = load_files(db, [str(path)], LoadOptions(skip_bad_rows=True))
    assert summary.rows_loaded == len(GOOD) - 1 and summary.rejected_lines == [2, 12]
    with duckdb.connect(str(db), read_only=True) as conn:
        kept = conn.execute("SELECT file, line, text FROM ragged_rejects ORDER BY line").fetchall()
        assert conn.execute("SELECT count(*) FROM ragged WHERE id = 10").fetchone()[0] == 0
    assert kept == [("ragged.csv", 2, "1,x,2,extra"), ("ragged.csv", 12, "10,short")]
    clean = write(tmp_path / "clean.csv", ["id,name,amount", *GOOD[:5]])
    load_files(db, [str(clean)], LoadOptions(table="ragged", mode="replace", skip_bad_rows=True))
    assert "ragged_rejects" not in tables(db)  # no stale rejects next to a table that has none


@pytest.mark.parametrize(
    ("delimiter", "message"),
    [
        (";", r"--delimiter ';' does not occur in the first line \('a,b,c'\); it looks separated by ','"),
        (";;", r"--delimiter ';;' does not occur in the first line .*use --delimiter ','"),
    ],
)
def test_a_wrong_or_multi_character_delimiter_is_refused_with_the_one_to_use(tmp_path, delimiter, message):
    path = write(tmp_path / "comma.csv", ["a,b,c", "1,2,3"])
    with pytest.raises(LoadError, match=message):
        load_files(tmp_path / "d.duckdb", [str(path)], LoadOptions(delimiter=delimiter))


def test_a_multi_character_delimiter_the_file_really_uses_works(tmp_path):
    path = write(tmp_path / "pipes.csv", ["id||name", "1||x", "2||y"])
    summary = load_files(tmp_path / "d.duckdb", [str(path)], LoadOptions(delimiter="||"))
    assert [c.name for c in summary.columns] == ["id", "name"] and summary.rows_loaded == 2


def test_a_first_line_that_looks_like_data_is_refused_and_either_flag_decides(tmp_path):
    path = write(tmp_path / "nums.csv", ["2019,2020,2021", "1,2,3", "4,5,6"])
    db = tmp_path / "h.duckdb"
    with pytest.raises(
        LoadError, match=r"first line \('2019,2020,2021'\) looks like data.*--no-header.*--header"
    ):
        load_files(db, [str(path)], LoadOptions())
    assert load_files(db, [str(path)], LoadOptions(header=False)).rows_loaded == 3
    named = load_files(db, [str(path)], LoadOptions(table="named", header=True))
    assert named.rows_loaded == 2 and [c.name for c in named.columns] == ["c_2019", "c_2020", "c_2021"]


def test_a_one_column_file_without_delimiters_still_loads(tmp_path):
    path = write(tmp_path / "names.csv", ["name", "ann", "bob"])
    assert load_files(tmp_path / "o.duckdb", [str(path)], LoadOptions()).rows_loaded == 2


def test_gzip_and_zstd_files_load(tmp_path):
    text = "id,score\n1,NA\n2,5\n"
    with gzip.open(tmp_path / "g.csv.gz", "wt") as fh:
        fh.write(text)
    plain = write(tmp_path / "p.csv", text.splitlines())
    with duckdb.connect() as conn:  # DuckDB writes the zstd file; Python 3.11 has no zstd module
        conn.execute(
            f"COPY (FROM read_csv('{plain}', all_varchar = true)) TO '{tmp_path / 'z.csv.zst'}' (HEADER)"
        )
    db = tmp_path / "c.duckdb"
    for name in ("g.csv.gz", "z.csv.zst"):
        summary = load_files(db, [str(tmp_path / name)], LoadOptions())
        assert summary.table == name.split(".")[0] and summary.rows_loaded == 2
        assert [(c.name, c.type, c.nulls) for c in summary.columns] == [
            ("id", "BIGINT", 0),
            ("score", "BIGINT", 1),
        ]


def test_a_zip_with_two_members_asks_which_and_loads_the_one_named(tmp_path):
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("data/orders.csv", "id,total\n1,10\n2,20\n")
        zf.writestr("data/notes.csv", "id,note\n1,hi\n")
        zf.writestr("__MACOSX/data/._orders.csv", "junk")
    db = tmp_path / "z.duckdb"
    with pytest.raises(
        LoadError, match=r"export\.zip holds 2 files \(data/orders\.csv, data/notes\.csv\).*export\.zip:"
    ):
        load_files(db, [str(archive)], LoadOptions())
    summary = load_files(db, [f"{archive}:orders.csv"], LoadOptions())
    assert (
        summary.table == "orders" and summary.rows_loaded == 2 and summary.files == ["export.zip:orders.csv"]
    )
    with pytest.raises(LoadError, match=r"export\.zip has no file 'missing\.csv'"):
        load_files(db, [f"{archive}:missing.csv"], LoadOptions())


def test_a_bad_line_inside_a_zip_is_named_by_the_archive_member(tmp_path):
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("rows.csv", "a,b\n1,2\n3\n")
    with pytest.raises(LoadError, match=r"^bad\.zip:rows\.csv: line 3 has 1 field where"):
        load_files(tmp_path / "z.duckdb", [str(archive)], LoadOptions())
