"""Packed load inputs. Zip archives: the one data file inside (or the member named) is copied out to a
temporary folder, streamed, since DuckDB reads ``.gz`` and ``.zst`` itself but not ``.zip`` (nor
``.bz2``, unpacked there alike). A small ``.gz`` file is unpacked there too, once (``gunzipped``)."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import IO

from analytics_agent.db.load.inputs import Input
from analytics_agent.errors import LoadError

_CHUNK = 1 << 20
# A zip bomb (2 MB that expands to terabytes) must be refused before it fills the disk: no member is
# unpacked beyond this, nor beyond the free space of the temporary folder less a margin for the rest.
MAX_UNPACKED_BYTES = 16 << 30
_FREE_MARGIN = 256 << 20

FreeSpace = Callable[[Path], int]
"""The free bytes of the file system holding a folder; a parameter so tests can play a nearly full disk."""


def free_bytes(folder: Path) -> int:
    return shutil.disk_usage(folder).free


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith(".zip")


def data_members(names: Sequence[str]) -> list[str]:
    """The files in an archive listing that could be data: no folders, no macOS or hidden extras."""
    return [
        n
        for n in names
        if not n.endswith("/") and not n.startswith("__MACOSX/") and not PurePosixPath(n).name.startswith(".")
    ]


def choose_member(archive: str, names: Sequence[str], wanted: str | None) -> str:
    """The member to load: the one named, or the only data file. Pure."""
    members = data_members(names)
    if wanted is not None:
        if wanted in names:
            return wanted
        by_base = [n for n in members if PurePosixPath(n).name == wanted]
        if len(by_base) == 1:
            return by_base[0]
        raise LoadError(f"{archive} has no file {wanted!r}; it holds: {', '.join(members) or 'nothing'}")
    if len(members) == 1:
        return members[0]
    if not members:
        raise LoadError(f"{archive} holds no files; there is nothing to load")
    shown = ", ".join(members[:5]) + (" …" if len(members) > 5 else "")
    raise LoadError(
        f"{archive} holds {len(members)} files ({shown}); name the one to load, e.g. {archive}:{members[0]}"
    )


SMALL_GZIP_BYTES = 4_000_000
"""A ``.gz`` file up to this size is unpacked once before a load. DuckDB reads a small file whole two to
four times (its sniffer, the write, a recount of missing-value tokens) and unpacks it each time:
who.csv.gz (135 kB) cost 7.7 ms more of a 226 ms load than its unpacked text; unpacking it once costs 2.3."""
MAX_GUNZIPPED_BYTES = 64 << 20
"""A small ``.gz`` file that expands beyond this is left to DuckDB, which streams it."""


@contextlib.contextmanager
def unpacked(inputs: Sequence[Input]) -> Iterator[list[Path]]:
    """The paths DuckDB reads, in order: zip members, ``.bz2`` files (which DuckDB cannot read) and small
    ``.gz`` files unpacked (``gunzipped``), in a temporary folder removed afterwards."""
    if not any(is_archive(i.path) or _gzipped(i.path) or _bzipped(i.path) for i in inputs):
        yield [i.path for i in inputs]
        return
    folder = Path(tempfile.mkdtemp(prefix="analytics-agent-unpacked-"))
    try:
        yield [_unpack(i, folder / str(n)) for n, i in enumerate(inputs)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _unpack(item: Input, folder: Path) -> Path:
    if is_archive(item.path):
        return _extract(item, folder)
    if _bzipped(item.path):
        return bunzipped(item.path, folder)
    return gunzipped(item.path, folder)


def _bzipped(path: Path) -> bool:
    return path.name.lower().endswith(".bz2")


def bunzipped(path: Path, folder: Path) -> Path:
    """A ``.bz2`` file's text in ``folder`` under its name without ``.bz2``, streamed and bounded as a zip
    member is (``unpack_limit``): DuckDB reads gzip and zstd, not bzip2."""
    import bz2  # only for a .bz2 file: kept off a plain load's start-up

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (path.name[:-4] or "data")
    limit = unpack_limit(folder)
    try:
        with bz2.open(path, "rb") as source, target.open("wb") as sink:
            if not copy_bounded(source, sink, limit):
                raise LoadError(_too_big(path.name, path.name[:-4], limit))
    except (OSError, EOFError, ValueError) as exc:
        raise LoadError(f"{path.name} is not a bzip2 file this can unpack: {exc}") from None
    return target


def _gzipped(path: Path) -> bool:
    return path.name.lower().endswith(".gz")


def gunzipped(path: Path, folder: Path, free: FreeSpace = free_bytes) -> Path:
    """A small ``.gz`` file's text in ``folder``, under its name without ``.gz``; or the path itself when
    it is not one (other files, a big one, one that expands beyond ``MAX_GUNZIPPED_BYTES`` or the free
    space, one that is not a single whole gzip stream, one that cannot be read), which DuckDB then reads
    as before and explains as before: no outcome of a load depends on this, only its cost."""
    name = path.name[:-3]
    if not _gzipped(path) or not name or name.lower().endswith((".gz", ".zst", ".zstd", ".zip")):
        return path
    try:
        if path.stat().st_size > SMALL_GZIP_BYTES:
            return path
        inflate = zlib.decompressobj(wbits=31)  # a gzip header and trailer, checked
        folder.mkdir(parents=True, exist_ok=True)
        limit = min(MAX_GUNZIPPED_BYTES, unpack_limit(folder, free))
        if limit <= 0:  # zlib reads a max_length of 0 as "no limit": a 3 MB bomb took 6 GB and the disk
            return path
        text = inflate.decompress(path.read_bytes(), limit)
        if not inflate.eof or inflate.unused_data or inflate.unconsumed_tail:
            return path  # cut short, a second stream after the first, or more than the limit
        target = folder / name
        target.write_bytes(text)
    except (OSError, zlib.error):
        return path
    return target


def _extract(item: Input, folder: Path) -> Path:
    try:
        with zipfile.ZipFile(item.path) as archive:
            member = choose_member(item.path.name, archive.namelist(), item.member)
            target = folder / PurePosixPath(member).name
            folder.mkdir(parents=True, exist_ok=True)
            limit = unpack_limit(folder)
            declared = archive.getinfo(member).file_size
            if declared > limit:
                raise LoadError(_too_big(item.path.name, member, limit))
            with archive.open(member) as source, target.open("wb") as sink:
                if not copy_bounded(source, sink, limit):
                    raise LoadError(_too_big(item.path.name, member, limit))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise LoadError(f"{item.path.name} is not a zip archive this can read: {exc}") from None
    except OSError as exc:
        raise LoadError(f"cannot unpack {item.path.name}: {exc.strerror or exc}") from None
    return target


def unpack_limit(folder: Path, free: FreeSpace = free_bytes) -> int:
    """How many bytes one member may expand to in ``folder``: the cap, or the free space less a margin
    (0 when less than the margin is free: callers must treat 0 as "nothing", never as "no limit")."""
    try:
        available = free(folder)
    except OSError:
        return MAX_UNPACKED_BYTES
    return max(0, min(MAX_UNPACKED_BYTES, available - _FREE_MARGIN))


def copy_bounded(source: IO[bytes], sink: IO[bytes], limit: int) -> bool:
    """Copy ``source`` to ``sink``; False (and stop) as soon as more than ``limit`` bytes came out.

    The bytes are counted, not the size the archive declares: a header may lie.
    """
    written = 0
    while chunk := source.read(_CHUNK):
        written += len(chunk)
        if written > limit:
            return False
        sink.write(chunk)
    return True


def _too_big(archive: str, member: str, limit: int) -> str:
    return (
        f"{archive}: {member} expands to more than {limit >> 20} MB, more than this may unpack here "
        "(a zip bomb, or too little free disk); unzip it yourself where there is room and load the file"
    )


def member_name(item: Input) -> str:
    """The name of the file DuckDB will read for ``item`` (decides CSV or Parquet) without unpacking."""
    if not is_archive(item.path):
        return item.path.name
    try:
        with zipfile.ZipFile(item.path) as archive:
            return PurePosixPath(choose_member(item.path.name, archive.namelist(), item.member)).name
    except zipfile.BadZipFile as exc:
        raise LoadError(f"{item.path.name} is not a zip archive this can read: {exc}") from None
