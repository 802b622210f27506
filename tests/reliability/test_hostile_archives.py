"""A zip or gzip bomb is refused in one line before it fills the disk or memory (issue 24: a 2 MB zip
filled 300 MB; round three: a .gz with little temporary space, ``--newline any``)."""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

import pytest
from bounded_run import GIB, run_capped

from analytics_agent.db.load.options import Input
from analytics_agent.db.load.read import archives
from analytics_agent.db.load.read.newlines import normalise, one_kind_of_newline
from analytics_agent.errors import LoadError

MB = 1 << 20


def _bomb(path: Path, expanded: int) -> Path:
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive,
        archive.open("rows.csv", "w") as member,
    ):
        member.write(b"a\n")
        for _ in range(expanded // MB):
            member.write(bytes(MB))
    return path


def test_a_member_declared_bigger_than_the_cap_is_refused_before_writing(tmp_path, monkeypatch):
    bomb = _bomb(tmp_path / "bomb.zip", 64 * MB)
    assert bomb.stat().st_size < 2 * MB
    monkeypatch.setattr(archives, "MAX_UNPACKED_BYTES", 8 * MB)
    with pytest.raises(LoadError) as caught, archives.unpacked([Input(bomb)]):
        pass
    message = str(caught.value)
    assert "\n" not in message and "bomb.zip: rows.csv expands to more than 8 MB" in message


def test_the_bytes_are_counted_not_the_size_the_header_claims():
    sink = io.BytesIO()
    assert not archives.copy_bounded(io.BytesIO(bytes(5 * MB)), sink, 3 * MB)
    assert sink.tell() <= 3 * MB
    whole = io.BytesIO()
    assert archives.copy_bounded(io.BytesIO(b"x" * 100), whole, 100) and whole.getvalue() == b"x" * 100


def test_the_limit_is_never_more_than_the_free_space_left(tmp_path, monkeypatch):
    class Usage:
        free = 300 * MB

    monkeypatch.setattr(archives.shutil, "disk_usage", lambda _: Usage)
    assert archives.unpack_limit(tmp_path) < 300 * MB


def _gzip_bomb(path: Path, expanded_mb: int, line_end: bytes = b"\n") -> Path:
    """A ``.gz`` CSV of ~1/1000 of its expanded size (deflate's best ratio on repeated rows)."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b"1,2" + line_end
    with path.open("wb") as out:
        out.write(pack.compress(b"a,b" + line_end))
        for _ in range(expanded_mb):
            out.write(pack.compress(chunk * (MB // len(chunk))))
        out.write(pack.flush())
    return path


@pytest.mark.parametrize("free_mb", [0, 100, 255])
def test_a_gzip_bomb_with_little_temporary_space_is_left_unread(tmp_path: Path, free_mb: int) -> None:
    """With under 256 MB free the limit computed to 0, which zlib reads as "no limit": a 3 MB .gz took
    6.2 GB of memory and filled the temporary folder. In a child held to 1 GB that sees ``free_mb``
    free, the file is left to DuckDB's streaming reader and nothing is written."""
    bomb = _gzip_bomb(tmp_path / "bomb.csv.gz", 2000)
    out = tmp_path / "out"
    result = run_capped(
        f"""
        import shutil
        from pathlib import Path
        from analytics_agent.db.load.read.archives import gunzipped
        shutil.disk_usage = lambda folder: shutil._ntuple_diskusage(1 << 40, 1 << 40, {free_mb} << 20)
        print(gunzipped(Path({str(bomb)!r}), Path({str(out)!r})))
        """,
        memory_bytes=1 * GIB,
    )
    assert result.stdout.strip() == str(bomb), result.stderr[-2000:]
    assert not any(out.iterdir())


@pytest.mark.parametrize(
    ("name", "expanded_mb", "free_mb", "limit_mb"),
    [("bomb.csv.gz", 200, 256 + 8, 8), ("plain.csv", 12, 256 + 4, 4), ("bomb.csv.gz", 50, 100, 0)],
)
def test_newline_any_copies_no_more_than_the_free_space_allows(
    tmp_path: Path, name: str, expanded_mb: int, free_mb: int, limit_mb: int
) -> None:
    """``--newline any`` copied a file's whole expansion into the temporary folder until the disk was
    full (``internal error (OSError)``); now the copy stops at the unpack limit, in one line."""
    source = tmp_path / name
    if name.endswith(".gz"):
        _gzip_bomb(source, expanded_mb, b"\r\n")
    else:
        source.write_bytes(b"a,b\r\n" + b"1,2\r\n" * (expanded_mb * MB // 5))
    copied: list[int] = []

    def free(folder: Path) -> int:
        copied.extend(p.stat().st_size for p in folder.iterdir())
        return free_mb * MB

    with pytest.raises(LoadError) as caught, one_kind_of_newline([source], "any", free):
        pass
    message = str(caught.value)
    assert "\n" not in message and f"grows past {limit_mb} MB" in message and name in message
    assert sum(copied) == 0  # asked before anything was written


def test_newline_any_stops_a_copy_at_the_limit_not_after(tmp_path: Path) -> None:
    source = io.BytesIO(b"x\r\n" * MB)
    sink = io.BytesIO()
    assert not normalise(source, sink, MB)
    assert sink.tell() <= MB
    whole = io.BytesIO()
    assert normalise(io.BytesIO(b"a\rb\r\n"), whole, 5) and whole.getvalue() == b"a\nb\n"


def test_ctrl_c_while_newline_any_copies_stops_the_load_and_rolls_back(tmp_path: Path) -> None:
    """A real SIGINT arriving while the copy is being written: the load stops at once, says it was
    rolled back, and the database keeps only what it had."""
    source = tmp_path / "rows.csv"
    source.write_bytes(b"a,b\r\n" + b"1,2\r\n" * (8 * MB // 5))
    db = tmp_path / "shop.duckdb"
    result = run_capped(
        f"""
        import os, signal
        from pathlib import Path
        import duckdb
        from analytics_agent.db.load.read import newlines
        from analytics_agent.db.load.run import load_files
        from analytics_agent.db.load.options import LoadOptions
        from analytics_agent.errors import Interrupted
        duckdb.connect({str(db)!r}).execute("CREATE TABLE kept AS SELECT 1 AS x").close()
        original = newlines.normalise

        class Reader:
            def __init__(self, source):
                self.source, self.calls = source, 0
            def read(self, n):
                self.calls += 1
                if self.calls == 3:
                    os.kill(os.getpid(), signal.SIGINT)
                return self.source.read(n)

        newlines.normalise = lambda source, *rest: original(Reader(source), *rest)
        try:
            load_files(Path({str(db)!r}), [{str(source)!r}], LoadOptions(newline="any"))
            print("loaded")
        except Interrupted as exc:
            print(exc)
        with duckdb.connect({str(db)!r}) as conn:
            print(sorted(r[0] for r in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()))
        """,
        memory_bytes=2 * GIB,
    )
    assert result.stdout.splitlines() == [
        "interrupted: the load was rolled back; the database is unchanged",
        "['kept']",
    ], result.stderr[-2000:]
