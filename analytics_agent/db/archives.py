"""Zip archives as load inputs: the one data file inside (or the member named) is copied out to a
temporary folder, streamed, since DuckDB reads ``.gz`` and ``.zst`` itself but not ``.zip``."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath

from analytics_agent.db.sources import Input
from analytics_agent.errors import LoadError

_CHUNK = 1 << 20


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


@contextlib.contextmanager
def unpacked(inputs: Sequence[Input]) -> Iterator[list[Path]]:
    """The paths DuckDB reads, in order: zip members copied to a temporary folder removed afterwards."""
    if not any(is_archive(i.path) for i in inputs):
        yield [i.path for i in inputs]
        return
    folder = Path(tempfile.mkdtemp(prefix="analytics-agent-unzip-"))
    try:
        yield [_extract(i, folder / str(n)) if is_archive(i.path) else i.path for n, i in enumerate(inputs)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _extract(item: Input, folder: Path) -> Path:
    try:
        with zipfile.ZipFile(item.path) as archive:
            member = choose_member(item.path.name, archive.namelist(), item.member)
            target = folder / PurePosixPath(member).name
            folder.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as source, target.open("wb") as sink:
                shutil.copyfileobj(source, sink, _CHUNK)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise LoadError(f"{item.path.name} is not a zip archive this can read: {exc}") from None
    except OSError as exc:
        raise LoadError(f"cannot unpack {item.path.name}: {exc.strerror or exc}") from None
    return target


def member_name(item: Input) -> str:
    """The name of the file DuckDB will read for ``item`` (decides CSV or Parquet) without unpacking."""
    if not is_archive(item.path):
        return item.path.name
    try:
        with zipfile.ZipFile(item.path) as archive:
            return PurePosixPath(choose_member(item.path.name, archive.namelist(), item.member)).name
    except zipfile.BadZipFile as exc:
        raise LoadError(f"{item.path.name} is not a zip archive this can read: {exc}") from None
