"""Windows-1252 text, what Excel on Windows saves a CSV as, which DuckDB cannot read (its latin-1 refuses
the bytes 0x80-0x9f that hold ``€``, ``“`` and ``–``): read through a UTF-8 copy in a temporary folder,
as a zip member is unpacked (``db.archives``), and said in one line. Only a file whose first block is not
UTF-8 and holds such bytes is copied, and only when every byte of it is Windows-1252; otherwise it is left
to the check that refuses it (``db.peek``), naming the encodings its bytes fit. Any other encoding Python
knows and DuckDB does not (``--encoding cp1250``, ``cp932``) is read through such a copy too, and so is
big-endian UTF-16, which DuckDB's ``utf-16`` (little-endian only) reads as other characters."""

from __future__ import annotations

import codecs
import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from analytics_agent.db.load.inputs import Input
from analytics_agent.db.load.read.archives import unpack_limit
from analytics_agent.db.load.read.encodings import PEEK_BYTES, better_encodings, central_misread, share
from analytics_agent.db.load.read.peek import guess_encoding
from analytics_agent.errors import LoadError

_CHUNK = 1 << 20
_PACKED = (".gz", ".zst", ".zstd", ".parquet", ".pq")


NATIVE = frozenset({"utf-8", "utf8", "utf-16", "utf16", "latin-1", "latin1"})
"""``--encoding`` values DuckDB reads itself; any other a file is read with through a UTF-8 copy."""


def copied_codec(encoding: str | None) -> str | None:
    """The Python codec that reads a file given ``--encoding`` through a UTF-8 copy: any DuckDB cannot
    read itself (``windows-1252``, ``cp1250``, ``cp932``); None for DuckDB's own, none given, or a name
    Python does not know (the check of the file says so). Pure."""
    name = (encoding or "").lower().replace("_", "-")
    if not name or name in NATIVE:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


@contextlib.contextmanager
def utf8_copies(
    files: Sequence[Path], inputs: Sequence[Input], encoding: str | None
) -> Iterator[tuple[list[Path], list[str], str | None]]:
    """The files DuckDB reads, a Windows-1252 one replaced by its UTF-8 copy, a note for each copy, and
    the ``--encoding`` DuckDB reads them with (None once they are UTF-8 copies). ``encoding``: the load's
    ``--encoding`` (given, nothing is copied, unless DuckDB cannot read it (``copied_codec``) or it is
    ``utf-16`` and a file is big-endian (``_utf16_copies``): then every file is, and one that is not in
    it is refused)."""
    given = copied_codec(encoding)
    if encoding and not given:
        wanted = _utf16_copies(files, encoding)
    else:  # each file's head is read once: the codec it says is the one it is copied with
        found = ((i, given if given and not _packed(f) else _western(f)) for i, f in enumerate(files))
        wanted = {i: codec for i, codec in found if codec}
    if not wanted:
        yield list(files), [], None if given else encoding
        return
    folder = Path(tempfile.mkdtemp(prefix="analytics-agent-utf8-"))
    try:
        paths, notes = list(files), []
        for i, codec in wanted.items():
            copy = _transcoded(files[i], folder / str(i), codec)
            if copy is None and encoding:
                raise LoadError(
                    f"{inputs[i].label} is not {encoding} either (it holds a byte that encoding lacks, or is "
                    "too big to copy); check the encoding it was saved in"
                )
            if copy is not None:
                paths[i] = copy
                notes += (
                    _central_note(files[i], inputs[i].label, codec)
                    if encoding
                    else [
                        f"{inputs[i].label} is not UTF-8 but {_SAID[codec]}, every byte of it: read as such (give "
                        "--encoding to read it otherwise)"
                    ]
                )
        yield paths, notes, None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_UTF16 = frozenset({"utf-16", "utf16"})


def _utf16_copies(files: Sequence[Path], encoding: str) -> dict[int, str]:
    """Given ``--encoding utf-16``, when a file is big-endian (a Swiss ledger's export, ``FE FF`` first):
    the codec each file is copied with, as DuckDB reads every file of a load with one encoding and its
    ``utf-16`` is little-endian only (a big-endian file read so is one line of other characters, ``䈀甀``
    for ``Bu``, and the load found no rows); {} when none is, or for any other encoding."""
    if encoding.lower().replace("_", "-") not in _UTF16:
        return {}
    heads = {i: _first_bytes(f) for i, f in enumerate(files) if not _packed(f)}
    if not any(_big_endian(head) for head in heads.values()):
        return {}
    return {i: _utf16_codec(head) for i, head in heads.items()}


def _first_bytes(path: Path, size: int = 4096) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(size)
    except OSError:
        return b""  # the load says so itself


def _big_endian(head: bytes) -> bool:
    """Whether ``head`` is big-endian UTF-16: its BOM says so, or without one the NUL of each ASCII
    character comes first (``\x00a\x00,``). Pure."""
    if head.startswith((b"\xfe\xff", b"\xff\xfe")):
        return head.startswith(b"\xfe\xff")
    return head[0::2].count(0) > max(head[1::2].count(0), len(head) // 4)


def _utf16_codec(head: bytes) -> str:
    """The codec that reads UTF-16 ``head``: ``utf-16`` reads a BOM and leaves it out of the copy. Pure."""
    if head.startswith((b"\xfe\xff", b"\xff\xfe")):
        return "utf-16"
    return "utf-16-be" if _big_endian(head) else "utf-16-le"


def _central_note(path: Path, label: str, codec: str) -> list[str]:
    """A note when the file was read with the Central European encoding given and its words read as the
    other's (``central_misread``): ISO-8859-2's ``Łódź`` is ``ŁódĽ`` in Windows-1250."""
    if codec not in ("cp1250", "iso8859-2"):
        return []
    misread = central_misread(_first_bytes(path, PEEK_BYTES), codec)
    if misread is None:
        return []
    other, right, wrong = misread
    return [
        f"{label} read as {codec}, as given, though its words read as {other} ({right!r}, which {codec} "
        f"reads {wrong!r}); add --encoding {other} to read it so"
    ]


def _packed(path: Path) -> bool:
    return path.name.lower().endswith(_PACKED)


_SAID = {
    "cp1252": "Windows-1252 (what Excel on Windows saves)",
    "iso8859-15": "ISO-8859-15 (latin-1 with the euro sign)",
}
_EURO = re.compile(rb"\d[ \xa0]?\xa4|\xa4[ \xa0]?\d")
"""Byte 0xA4 beside a number: ISO-8859-15's ``€``, where latin-1 and Windows-1252 read ``¤`` (a Finnish
bank's ``850 €``)."""


def _western(path: Path) -> str | None:
    """The codec the file's first block says, of the Western ones DuckDB cannot read: ``cp1252`` when not
    UTF-8 and its bytes past ASCII read as text (with none in 0x80-0x9f it is latin-1 too, which reads
    those bytes alike), ``iso8859-15`` for latin-1 bytes with a euro sign beside a number; else None."""
    if _packed(path):
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(PEEK_BYTES)
    except OSError:
        return None  # the load says so itself
    # Windows-1252 reads every byte of a Central European or Cyrillic file too, as the wrong letters
    guessed = guess_encoding(head)
    if guessed == "latin-1" and _EURO.search(head) and not better_encodings(head):
        return "iso8859-15"
    if guessed == "latin-1":  # no byte of Windows-1252's own: its words must say so (not 'ÿÿ' in a list)
        return "cp1252" if share(head, "cp1252") >= 0.5 and not better_encodings(head) else None
    return "cp1252" if guessed == "windows-1252" and not better_encodings(head) else None


def _transcoded(path: Path, folder: Path, codec: str) -> Path | None:
    """The file as UTF-8 in ``folder``, or None when a byte is not of ``codec`` (in Windows-1252: 0x81,
    0x8d, 0x8f, 0x90 and 0x9d) or the copy would not fit (``unpack_limit``)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    limit, written = unpack_limit(folder), 0
    try:
        with path.open("rb") as source, target.open("wb") as sink:
            while chunk := source.read(_CHUNK):
                text = decoder.decode(chunk).encode("utf-8")
                written += len(text)
                if written > limit:
                    return None
                sink.write(text)
            sink.write(decoder.decode(b"", final=True).encode("utf-8"))
    except (UnicodeDecodeError, OSError):
        return None
    return target
