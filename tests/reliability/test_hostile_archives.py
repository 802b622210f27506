"""A zip bomb is refused in one line before it fills the disk (issue 24: a 2 MB zip filled 300 MB)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from analytics_agent.db import archives
from analytics_agent.db.sources import Input
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
