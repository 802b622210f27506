"""UTF-16 files of either byte order, with and without a BOM, and with a title line above the header: the
refusals name ``--encoding utf-16`` and then ``--skip 1``, and following them loads every record. DuckDB's
``utf-16`` reads little-endian only: a big-endian file (Abacus' Swiss booking journal, held-out round
thirteen) read so was one line of other characters, and the load said "no data rows, only a header" and
named ``--allow-empty``, which created an empty table. Each file is written here with Python's codecs and
loaded through the real loader into a DuckDB file in a temp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows

JOURNAL = (
    "Buchungsjournal 01.01.2024 – 31.03.2024;Mandant 0042 Beispiel GmbH\r\n"
    "Beleg-Nr.;Datum;Konto;Text;Betrag CHF\r\n"
    "10000;05.01.2024;1020;Büromaterial;1'718.98\r\n"
    "10001;06.01.2024;6500;Miete Zürich – Jänner;2'500.00-\r\n"
    "10002;09.01.2024;3200;Gutschrift Müller & Söhne;312.40\r\n"
    "10003;12.01.2024;6510;Spesen Genève;45.15-\r\n"
)
PLAIN = "Konto;Text\r\n1020;Büromaterial\r\n6500;Miete Zürich – Jänner\r\n"

CODECS = [
    ("utf-16-be", b"\xfe\xff"),  # big-endian with its BOM, as Abacus writes it
    ("utf-16-be", b""),
    ("utf-16-le", b"\xff\xfe"),  # what Excel's 'Unicode text' writes
    ("utf-16-le", b""),
]


@pytest.mark.parametrize(("codec", "bom"), CODECS, ids=["be-bom", "be", "le-bom", "le"])
def test_the_refusals_options_load_every_record(tmp_path: Path, codec: str, bom: bytes) -> None:
    data = bom + JOURNAL.encode(codec)
    with pytest.raises(LoadError, match=r"add --encoding utf-16 \("):
        load_text(tmp_path, "journal.csv", data)
    with pytest.raises(LoadError) as titled:
        load_text(tmp_path, "journal.csv", data, encoding="utf-16")
    assert "line 1 is a title or note ('Buchungsjournal 01.01.2024 – 31.03.2024;Mandant 0042 Beis..." in str(
        titled.value
    )
    assert "add --skip 1 to start at the header" in str(titled.value)
    summary = load_text(tmp_path, "journal.csv", data, encoding="utf-16", skip=1)
    assert [c.original for c in summary.columns] == ["Beleg-Nr.", "Datum", "Konto", "Text", "Betrag CHF"]
    assert summary.rows_loaded == 4 and not any("allow-empty" in n for n in summary.notes)
    assert stored_rows(
        tmp_path, "SELECT beleg_nr, datum::VARCHAR, text, betrag_chf FROM t ORDER BY rowid"
    ) == [
        (10000, "2024-01-05", "Büromaterial", 1718.98),
        (10001, "2024-01-06", "Miete Zürich – Jänner", -2500.0),
        (10002, "2024-01-09", "Gutschrift Müller & Söhne", 312.4),
        (10003, "2024-01-12", "Spesen Genève", -45.15),
    ]
    assert stored_rows(tmp_path, "SELECT konto FROM t ORDER BY rowid") == [(1020,), (6500,), (3200,), (6510,)]


@pytest.mark.parametrize(("codec", "bom"), CODECS, ids=["be-bom", "be", "le-bom", "le"])
def test_a_file_with_its_header_first_loads_as_written(tmp_path: Path, codec: str, bom: bytes) -> None:
    summary = load_text(tmp_path, "plain.csv", bom + PLAIN.encode(codec), encoding="utf-16")
    assert [c.original for c in summary.columns] == ["Konto", "Text"]
    assert stored_rows(tmp_path, "SELECT * FROM t ORDER BY rowid") == [
        (1020, "Büromaterial"),
        (6500, "Miete Zürich – Jänner"),
    ]
    assert summary.notes == []  # read as the file says: nothing changed, nothing to say


def test_big_and_little_endian_files_load_together(tmp_path: Path) -> None:
    # one load reads every file with one encoding: the big-endian one must not turn the other into noise
    for name, data in (
        ("a.csv", PLAIN.encode("utf-16-be")),
        ("b.csv", b"\xff\xfe" + PLAIN.encode("utf-16-le")),
    ):
        (tmp_path / name).write_bytes(data)
    both = load_files(
        tmp_path / "t.duckdb", [str(tmp_path / "[ab].csv")], load_options(table="u", encoding="utf-16")
    )
    assert both.rows_loaded == 4
    assert stored_rows(tmp_path, "SELECT text FROM u ORDER BY text") == [
        ("Büromaterial",),
        ("Büromaterial",),
        ("Miete Zürich – Jänner",),
        ("Miete Zürich – Jänner",),
    ]
