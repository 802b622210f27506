"""A first look at a CSV file's bytes before DuckDB reads it: is it text at all, in which encoding, does a
comment or preamble sit above the header, and how wide is its first line. Pure apart from reading the
first block of the file (``.gz`` unpacked on the fly; other compressions are left to DuckDB).

Each answer becomes a one-line error naming the option that reads the file, instead of a sniffer failure
several lines later (or a traceback on bytes that are not UTF-8).
"""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from analytics_agent.db.load.read.encodings import PEEK_BYTES, better_encodings, decodes, fitting, share
from analytics_agent.errors import LoadError

MAX_COLUMNS = 10_000
"""A wider file is refused before DuckDB sniffs it: sniffing 100,000 columns takes minutes and gigabytes."""


class Peek(NamedTuple):  # not a dataclass: a tenth of the import cost
    encoding: str | None
    """The encoding the bytes say (``utf-16`` for a BOM or NUL-interleaved text), or None for UTF-8."""
    comment: str | None
    """The mark of comment lines above the header (``#``), if the file starts with one."""
    endings: tuple[str, ...] = ()
    """The kinds of line end in the first block (``\\r\\n``, ``\\n``, ``\\r``, as written); more than
    one is a file DuckDB's sniffer cannot read (``--newline any`` reads it)."""
    text: str = ""
    """The first block as text (at most ``PEEK_BYTES``)."""


def peek_file(path: Path, label: str, *, encoding: str | None, comment: str | None, skip: int | None) -> Peek:
    """Refuse what DuckDB cannot read as asked, in one line; otherwise say what the bytes show."""
    head = _head(path)
    if not head:
        return Peek(None, None)
    guessed = guess_encoding(head)
    if guessed == "binary":
        raise LoadError(
            f"{label} is not a text CSV file (it holds binary bytes); check that it is the file you meant, "
            "or export it as CSV"
        )
    if guessed == "windows-1252" and encoding is None:
        if decodes(head, "cp1252"):  # every byte reads, as other text than Windows-1252's (transcode)
            raise LoadError(
                f"{label} is not UTF-8, and its text reads as another encoding than Windows-1252; "
                f"{fitting(head, share(head, 'cp1252'))}"
            )
        raise LoadError(
            f"{label} is neither UTF-8 nor Windows-1252 (a byte that encoding lacks); {fitting(head)}"
        )
    chosen = (encoding or guessed or "utf-8").lower().replace("_", "-")
    if guessed == "latin-1" and encoding is None and (other := better_encodings(head)):
        raise LoadError(
            f"{label} is not UTF-8, and its text reads as another encoding than latin-1; add {' or '.join(other)}"
        )
    if guessed and encoding is None:
        raise LoadError(
            f"{label} is not UTF-8; it looks like {guessed}: add --encoding {guessed} "
            "(DuckDB reads utf-8, utf-16 and latin-1)"
        )
    text = _decode(head, chosen)
    lines = text.splitlines()
    found_comment = None
    if comment is None and skip is None and len(lines) > 1 and lines[0].lstrip().startswith("#"):
        following = next((line for line in lines[1:] if not line.lstrip().startswith("#")), "")
        if _widest(lines[0]) != _widest(following):  # "#id,name" above rows of as many fields is a header
            found_comment = "#"
            raise LoadError(
                f"{label}: the first line ({short_line(lines[0])}) is a comment, not the header; add --comment "
                "'#' to skip such lines, or --skip N to skip the first N lines"
            )
    first_data = lines[skip or 0] if len(lines) > (skip or 0) else ""
    widest = _widest(first_data)
    if widest > MAX_COLUMNS:
        raise LoadError(
            f"{label} has {'over ' if len(lines) <= (skip or 0) + 1 else ''}{widest:,} columns on its first "
            f"line; at most {MAX_COLUMNS:,} can load "
            "(split the file, or transpose it so the columns become rows)"
        )
    return Peek(guessed, found_comment, line_endings(text), text)


_EXCEL_SEP = "\ufeff?sep=([^\r\n])\r?(?:\n|$)"


def excel_delimiter(text: str) -> str | None:
    """The delimiter Excel's ``sep=;`` line names when it is the first line of ``text``, else None. Pure."""
    found = re.match(_EXCEL_SEP, text) if text.startswith(("sep=", "\ufeffsep=")) else None
    return found.group(1) if found else None


_RENAMED = r"column\d+|.+_\d+"
"""How DuckDB names a header cell that is empty (``column0``) or repeats an earlier one (``a_1``)."""


def header_cells(
    text: str, names: list[str], delimiter: str, quote: str, *, skip: int = 0
) -> tuple[str, ...]:
    """The header's own cells in ``text`` (the first block) when DuckDB may have renamed some of them
    (``names``: its names) and the header line splits into as many; else (). Pure."""
    if not any(n[-1:].isdecimal() and re.fullmatch(_RENAMED, n) for n in names):  # a digit last: a test first
        return ()
    row = header_row(text, delimiter, quote, skip=skip)
    return row if len(row) == len(names) else ()


def header_row(text: str, delimiter: str, quote: str, *, skip: int = 0) -> tuple[str, ...]:
    """The cells of the first line after ``skip`` lines of ``text``, split as Python's csv module splits
    them; () when the layout is one it cannot split (a delimiter of several characters). Pure."""
    import csv
    import io

    if len(delimiter) != 1 or len(quote) > 1:
        return ()
    lines = io.StringIO(text.lstrip("\ufeff"), newline="")  # read up to the header, not the whole block
    for _ in range(skip):
        lines.readline()
    try:
        reader = csv.reader(
            lines,
            delimiter=delimiter,
            quotechar=quote or None,
            quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE,
        )
        return tuple(next(reader, []))
    except csv.Error:
        return ()


def line_endings(text: str) -> tuple[str, ...]:
    """Which of ``\\r\\n``, ``\\n`` and ``\\r`` end lines in ``text``, spelled as escapes. Pure."""
    crlf = text.count("\r\n")
    found = (("\\r\\n", crlf), ("\\n", text.count("\n") - crlf), ("\\r", text.count("\r") - crlf))
    return tuple(name for name, count in found if count)


def endings_outside_quotes(text: str) -> tuple[str, ...]:
    """``line_endings`` of ``text`` with its ``"``-quoted values left out (a ``\\r\\n`` in a quoted header
    cell of a ``\\n`` file ends no line). Pure."""
    return line_endings("".join(text.split('"')[::2]))


def _widest(line: str) -> int:
    return max(line.count(d) for d in (",", ";", "\t", "|")) + 1


_NOT_CONTROLS = bytes(b for b in range(256) if b >= 32 or b in (7, 9, 10, 13, 27, 30, 31))
"""Every byte but the control ones a text file does not hold: 30 and 31 are separators, 7 and 27 (BEL, ESC)
terminal escapes, which in a text value are hostile text, not a binary file (the load shows them escaped).
Deleted by ``bytes.translate``, what remains are the control bytes (4 KB: 0.15 ms as a Python loop)."""


def guess_encoding(head: bytes) -> str | None:
    """``utf-16``, ``latin-1``, ``binary`` or None (UTF-8 or plain ASCII), from the first bytes. Pure."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"\xef\xbb\xbf"):
        return None
    sample = head[:4096]
    nul = sample.count(0)
    if nul and nul * 3 >= len(sample):  # every other byte NUL: UTF-16 without a BOM
        odd = sample[1::2].count(0)
        even = sample[0::2].count(0)
        if max(odd, even) * 10 >= len(sample) * 4:
            return "utf-16"
    controls = len(sample.translate(None, _NOT_CONTROLS))
    if (nul + controls) * 20 > len(sample):
        return "binary"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(head) < PEEK_BYTES or exc.start < len(head) - 4:  # not a character cut at the block's end
            # C1 bytes (0x80-0x9f) are Windows-1252 punctuation, which DuckDB's latin-1 refuses
            return "windows-1252" if any(0x80 <= b <= 0x9F for b in head) else "latin-1"
    return None


def _head(path: Path) -> bytes:
    try:
        if path.name.lower().endswith(".gz"):
            import gzip  # only for a .gz file: kept off a plain load's start-up

            with gzip.open(path, "rb") as compressed:
                return compressed.read(PEEK_BYTES)
        if path.name.lower().endswith((".zst", ".zstd")):
            return b""  # DuckDB unpacks it; its own errors are explained afterwards
        with path.open("rb") as handle:
            return handle.read(PEEK_BYTES)
    except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError
        raise LoadError(f"cannot read {path.name}: {getattr(exc, 'strerror', None) or exc}") from None


def _decode(head: bytes, encoding: str) -> str:
    name = {"latin1": "latin-1", "utf16": "utf-16"}.get(encoding, encoding)
    try:
        return head.decode(name, errors="replace")
    except LookupError:
        raise LoadError(
            f"--encoding {encoding}: no such encoding; e.g. utf-8, utf-16, latin-1, windows-1252, cp1250, "
            "cp932"
        ) from None


def short_line(line: str, limit: int = 60) -> str:
    return repr(line if len(line) <= limit else line[: limit - 3] + "...")


_LINE_END = re.compile(r"\r\n|\r|\n")
CANDIDATE_DELIMITERS = (",", ";", "\t", "|")


def whole_lines(text: str, most: int) -> list[str]:
    """The first ``most`` lines of ``text``, the file's first block: its last line is left out when the
    block was cut (it may end mid-line)."""
    lines = _LINE_END.split(text, maxsplit=most)
    if len(lines) > most:  # the rest of the block: the first ``most`` lines each ended
        return lines[:most]
    if lines[-1] == "" or len(text.encode("utf-8", "replace")) >= PEEK_BYTES - 4:
        lines.pop()
    return lines[:most]


def field_count(line: str, delimiter: str, quote: str = '"') -> int:
    """How many fields ``line`` splits into (``quote``: ``''`` for none). Pure."""
    import csv

    try:
        return len(next(csv.reader([line], delimiter=delimiter, quotechar=quote or "\x00"), []))
    except csv.Error:  # a quoted field past the csv module's limit (128 KiB): count the plain way
        return line.count(delimiter) + 1


def field_widths(lines: list[str], delimiter: str, quote: str) -> list[int]:
    return [field_count(line, delimiter, quote) for line in lines]


def agreeing_delimiter(text: str) -> str | None:
    """The delimiter under which the file's first lines (at least two) all have the same number of fields,
    two or more, when exactly one does: a tab file whose values hold commas, which DuckDB's sniffer reads
    with commas by skipping its header. Pure."""
    lines = [line for line in whole_lines(text, 5) if line.strip()]
    if len(lines) < 2:
        return None
    agreeing = []
    for delimiter in CANDIDATE_DELIMITERS:
        widths = field_widths(lines, delimiter, '"')
        if widths[0] >= 2 and len(set(widths)) == 1:
            agreeing.append(delimiter)
    return agreeing[0] if len(agreeing) == 1 else None


def csv_rows(lines: list[str], delimiter: str, quote: str) -> Iterator[list[str]]:
    """The csv module's reading of ``lines`` (``quote``: ``''`` for none); it raises ``csv.Error``."""
    import csv

    return csv.reader(
        lines,
        delimiter=delimiter,
        quotechar=quote or None,
        quoting=csv.QUOTE_MINIMAL if quote else csv.QUOTE_NONE,
    )


BLANKS = (
    "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
"""What ``str.strip()`` cuts: every character ``str.isspace`` calls a blank."""


def trailing_empty_fields(text: str, delimiter: str, quote: str, width: int, *, skip: int = 0) -> bool:
    """Whether a record in ``text`` (the first block) has only empty fields past ``width``: DuckDB drops
    them, and the load says so. Pure."""
    import csv

    if len(delimiter) != 1 or len(quote) > 1:  # the csv module splits on one character only
        return False
    lines = text.splitlines()[skip:-1]  # the last line may be cut by the block's end
    # such a record ends in its delimiter or a quote once blanks are cut: the csv module (0.9 ms a load
    # for 64 KB) reads only a block where some line does
    blanks = "".join(c for c in BLANKS if c != delimiter)
    ends = {delimiter, quote} - {""}
    if not any(line.rstrip(blanks)[-1:] in ends for line in lines):
        return False
    if not quote or quote not in text:
        # each line is then one record, its fields the pieces between delimiters: only a line with more
        # than ``width - 1`` of them can hold more fields (a 60-column export ending in empty fields: 0.8
        # -> 0.1 ms against the csv module)
        return any(
            line.count(delimiter) >= width
            and not line.split(delimiter, width)[width].replace(delimiter, "").strip()
            for line in lines
        )
    try:
        rows = csv_rows(lines, delimiter, quote)
        return any(len(row) > width and not any(f.strip() for f in row[width:]) for row in rows)
    except csv.Error:
        return False


def name_like(cell: str) -> bool:
    """A header cell: it holds a letter and is no number (``Betrag (EUR)``, not ``1e5`` or ``2024-01-02``). Pure."""
    if not any(c.isalpha() for c in cell):
        return False
    try:
        float(cell)
    except ValueError:
        return not cell[:1].isdigit()
    return False
