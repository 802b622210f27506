"""A small .gz input is unpacked once, so DuckDB's several reads of it (sniffer, write, recounts) do
not each unpack it; anything this cannot unpack plainly is left to DuckDB as before."""

from __future__ import annotations

import gzip

import pytest

from analytics_agent.db.load.options import Input, LoadOptions
from analytics_agent.db.load.read import archives
from analytics_agent.db.load.read.archives import gunzipped, unpacked
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError

TEXT = b"id,name,score\n" + b"".join(b"%d,name %d,%d.5\n" % (i, i, i) for i in range(300))


def test_a_small_gz_file_is_read_from_its_unpacked_text(tmp_path):
    packed = tmp_path / "scores.csv.gz"
    packed.write_bytes(gzip.compress(TEXT))
    with unpacked([Input(packed)]) as (read,):
        assert read.name == "scores.csv" and read.parent != tmp_path
        assert read.read_bytes() == TEXT
        folder = read.parent.parent
    assert not folder.exists()  # removed afterwards


@pytest.mark.parametrize(
    "name, content",
    [
        ("cut.csv.gz", gzip.compress(TEXT)[:500]),  # a stream cut short
        ("two.csv.gz", gzip.compress(TEXT[:2000]) + gzip.compress(TEXT[2000:])),  # a second stream
        ("padded.csv.gz", gzip.compress(TEXT) + b"\0\0\0\0"),  # bytes after the stream
        ("plain.csv.gz", TEXT),  # not gzip at all
        ("nested.csv.gz.gz", gzip.compress(gzip.compress(TEXT))),  # its text is packed again
    ],
)
def test_what_cannot_be_unpacked_plainly_is_left_to_duckdb(tmp_path, name, content):
    packed = tmp_path / name
    packed.write_bytes(content)
    assert gunzipped(packed, tmp_path / "out") == packed


def test_a_file_too_big_or_expanding_too_far_is_left_to_duckdb(tmp_path, monkeypatch):
    packed = tmp_path / "scores.csv.gz"
    packed.write_bytes(gzip.compress(TEXT))
    monkeypatch.setattr(archives, "MAX_GUNZIPPED_BYTES", len(TEXT) - 1)
    assert gunzipped(packed, tmp_path / "out") == packed
    monkeypatch.setattr(archives, "MAX_GUNZIPPED_BYTES", len(TEXT))
    assert gunzipped(packed, tmp_path / "out").read_bytes() == TEXT
    monkeypatch.setattr(archives, "SMALL_GZIP_BYTES", packed.stat().st_size - 1)
    assert gunzipped(packed, tmp_path / "again") == packed


def test_a_gz_file_loads_as_its_text_and_messages_name_the_gz_file(sample_db, tmp_path):
    text, packed = tmp_path / "scores.csv", tmp_path / "packed.csv.gz"
    text.write_bytes(TEXT)
    packed.write_bytes(gzip.compress(TEXT))
    one = load_files(sample_db, [str(text)], LoadOptions(table="one"))
    two = load_files(sample_db, [str(packed)], LoadOptions(table="two"))
    assert (one.rows_loaded, one.columns, one.notes) == (two.rows_loaded, two.columns, two.notes)
    assert two.files == ["packed.csv.gz"]

    ragged = tmp_path / "ragged.csv.gz"
    ragged.write_bytes(gzip.compress(TEXT + b"1,2,3,4\n"))
    with pytest.raises(LoadError) as caught:
        load_files(sample_db, [str(ragged)], LoadOptions(table="three"))
    message = str(caught.value)
    assert message.startswith("ragged.csv.gz: line 302 has 4 fields"), message
    assert "analytics-agent-unpacked" not in message
