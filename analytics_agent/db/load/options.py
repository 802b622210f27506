"""How a load reads: its options checked, and the DuckDB reader call for its files (which files: ``inputs``,
whose names are kept here too for the modules that import them from here). Pure.

Reader options reach DuckDB as bound parameters (``read_csv(?, delim = ?, …)``), never spliced into SQL.
"""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from analytics_agent.db.load.inputs import ARCHIVE_MEMBER as ARCHIVE_MEMBER
from analytics_agent.db.load.inputs import GLOB as GLOB
from analytics_agent.db.load.inputs import Input as Input
from analytics_agent.db.load.inputs import Kind as Kind
from analytics_agent.db.load.inputs import file_kind as file_kind
from analytics_agent.db.load.inputs import resolve_inputs as resolve_inputs
from analytics_agent.errors import LoadError

Mode = Literal["create", "replace", "append"]
# What R, pandas and spreadsheet exports write for a missing value; "" is DuckDB's own default.
DEFAULT_NULL_TOKENS = (
    "NA",
    "N/A",
    "n/a",
    "NULL",
    "null",
    "None",
    "NaN",
    "-",
    "--",
    " --",
    "\u2013",
    "\u2014",
    "",
)
"""What exports write for a missing value: dashes too, as reports print a blank cell (an en or em dash;
Google Ads writes `` --``)."""
# compiled on first use (re's cache): most loads name no type and no archive member
_TYPE_NAME = r"^[A-Za-z][A-Za-z0-9_]*(\s*\(\s*\d+\s*(,\s*\d+\s*)?\))?(\[\])?$"
_DELIMITER_ALIASES = {"\\t": "\t", "tab": "\t", "TAB": "\t"}


NO_PAIRS: Mapping[str, str] = MappingProxyType({})


class LoadOptions(NamedTuple):  # not a dataclass: a frozen dataclass of 20 fields costs 0.8 ms to define
    """How to read and where to write. CSV-only options are refused for Parquet."""

    table: str | None = None
    mode: Mode = "create"
    delimiter: str | None = None
    header: bool | None = None
    """None: DuckDB decides, and a first line that looks like data is refused rather than guessed."""
    date_format: str | None = None
    types: Mapping[str, str] = NO_PAIRS
    thousands: str | None = None
    decimal: str | None = None
    encoding: str | None = None
    null_tokens: tuple[str, ...] | None = None
    """Values read as missing besides ``DEFAULT_NULL_TOKENS`` (as pandas' ``na_values``: a file's own
    marker, named by a load's advice, must not turn the defaults off); with ``""`` among them, exactly
    these. None: the defaults. The empty value is always missing."""
    skip_bad_rows: bool = False
    allow_empty: bool = False
    comment: str | None = None
    """Lines starting with this character are skipped (``#``)."""
    skip: int | None = None
    """Lines skipped before the header (a preamble)."""
    quote: str | None = None
    """The quote character; ``""`` for none. None: DuckDB detects it."""
    escape: str | None = None
    """The character that escapes a quote inside a quoted value. None: DuckDB detects it."""
    newline: str | None = None
    """``any``: every ``\\r\\n``, ``\\r`` and ``\\n`` ends a line (the file is read through a copy with
    one kind); None: DuckDB detects it."""
    pad_short_rows: bool = False
    """A record with fewer fields than the header gets NULL for the missing ones (DuckDB's null_padding)."""
    column_date_formats: Mapping[str, str] = NO_PAIRS
    """``--date-format COLUMN=FORMAT``: that column read as a DATE (TIMESTAMP with a time) in that format."""
    max_line_size: int | None = None
    """The longest line DuckDB reads, in bytes; None: DuckDB's own limit (2,000,000)."""
    drop_totals: bool = False
    """A footer totals row (and the subtotal rows it counts) is left out (``db.totals_row``)."""
    negative: str | None = None
    """``DR`` or ``CR``: the mark whose amounts are negative in a column of amounts marked so
    (``settle.debit_credit``); None: such a column stays text."""
    keep_label_rows: bool = False
    """Rows under the header that label or describe the columns (``settle.header_rows``) are loaded as
    rows, said and marked; by default they are left out."""
    plain_header: bool = False
    """The header's own names alone: a line of column groups right above it (``--skip`` past it) is not
    put before the names of the columns under each group (``read.titles.group_of_each``)."""

    keep_blank_labels: bool = False
    """A pivot table's blank group labels (the label written once per group, above its subtotal row) are
    kept empty (NULL); by default they are filled with the label above (``settle.pivot_groups``)."""

    def csv_only_options(self) -> list[str]:
        used = {
            "--delimiter": self.delimiter is not None,
            "--header/--no-header": self.header is not None,
            "--date-format": self.date_format is not None,
            "--thousands": self.thousands is not None,
            "--decimal": self.decimal is not None,
            "--encoding": self.encoding is not None,
            "--null": self.null_tokens is not None,
            "--skip-bad-rows": self.skip_bad_rows,
            "--negative": self.negative is not None,
            "--keep-label-rows": self.keep_label_rows,
            "--plain-header": self.plain_header,
            "--keep-blank-labels": self.keep_blank_labels,
            "--comment": self.comment is not None,
            "--skip": self.skip is not None,
            "--quote": self.quote is not None,
            "--escape": self.escape is not None,
            "--newline": self.newline is not None,
            "--pad-short-rows": self.pad_short_rows,
            "--max-line-size": self.max_line_size is not None,
        }
        used["--date-format"] = used["--date-format"] or bool(self.column_date_formats)
        return [flag for flag, on in used.items() if on]

    def nulls(self) -> list[str]:
        given = self.null_tokens or ()
        tokens = (*given, "") if "" in given else (*DEFAULT_NULL_TOKENS, *given)
        return list(dict.fromkeys(tokens))


MAX_LINE_SIZE = 1 << 30
"""The longest ``--max-line-size``: a line is held whole in memory while DuckDB reads it."""

NEWLINES: dict[str, str | None] = {"any": None}
"""``--newline`` values and what DuckDB's ``new_line`` takes for them (``any`` is a normalised copy). DuckDB
1.x/2.0 reads no rows with ``new_line = '\\r\\n'`` in strict mode when the header holds a quoted ``\\n``, so
``crlf``/``lf``/``cr`` are not offered."""


def load_options(
    *,
    table: str | None = None,
    replace: bool = False,
    append: bool = False,
    types: Mapping[str, str] | Sequence[str] | None = None,
    null: str | Sequence[str] | None = None,
    date_format: str | Sequence[str] | None = None,
    **rest: Any,
) -> LoadOptions:
    """The options of one load from the flags of ``analytics-agent load`` or the arguments of
    ``Workspace.load`` (named alike): the one place both front doors build them. Pure.

    ``types``: a mapping, or ``COLUMN=TYPE`` strings; ``date_format``: one format for every date column
    and/or ``COLUMN=FORMAT`` items (repeatable)."""
    if replace and append:
        raise LoadError("--replace and --append contradict each other; choose one")
    _check_separators(rest.get("thousands"), rest.get("decimal"))
    negative = rest.pop("negative", None)
    if negative is not None and str(negative).upper() not in ("DR", "CR"):
        raise LoadError(f"--negative {negative!r}: give DR or CR, the mark whose amounts are negative")
    formats = [date_format] if isinstance(date_format, str) else list(date_format or ())
    shared = [f for f in formats if "=" not in f]
    if len(shared) > 1:
        raise LoadError(
            f"--date-format given twice ({', '.join(shared)}); give one for all columns, or COLUMN=FORMAT"
        )
    return LoadOptions(
        table=table,
        mode="replace" if replace else "append" if append else "create",
        types=types
        if isinstance(types, Mapping)
        else _pairs(types or (), "--type", "TYPE", "amount=VARCHAR"),
        # one marker given as a string (a notebook's null='NA') is that marker, not 'N' and 'A'
        null_tokens=((null,) if isinstance(null, str) else tuple(null)) if null is not None else None,
        date_format=shared[0] if shared else None,
        column_date_formats=_pairs(
            [f for f in formats if "=" in f], "--date-format", "FORMAT", "day=%d/%m/%Y"
        ),
        negative=None if negative is None else str(negative).upper(),
        **rest,
    )


def _check_separators(thousands: str | None, decimal: str | None) -> None:
    """One mark cannot be both: DuckDB's own words were "Binder Error: THOUSANDS must not appear in the
    DECIMAL_SEPARATOR specification", with '.' the decimal mark unless --decimal names another. Pure."""
    if thousands and thousands == (decimal or "."):
        raise LoadError(
            f"--thousands {thousands!r} is also the decimal mark"
            + ("" if decimal else " (the default); for a decimal-comma file add --decimal ','")
        )


def _pairs(items: Sequence[str], flag: str, what: str, example: str) -> dict[str, str]:
    """``COLUMN=VALUE`` items as a mapping; a malformed one is a LoadError saying the form. Pure."""
    result: dict[str, str] = {}
    for item in items:
        column, sep, value = item.partition("=")
        if not sep or not column.strip() or not value.strip():
            raise LoadError(f"{flag} {item!r}: write COLUMN={what}, e.g. {flag} {example}")
        result[column.strip()] = value.strip()
    return result


def check_options(options: LoadOptions, kind: Kind) -> LoadOptions:
    """Refuse what cannot work before any reading; normalise the delimiter spelling."""
    if kind == "parquet" and options.csv_only_options():
        raise LoadError(f"{', '.join(options.csv_only_options())} only apply to CSV files, not Parquet")
    for column, type_name in options.types.items():
        if not column or not re.match(_TYPE_NAME, type_name.strip()):
            raise LoadError(
                f"--type {column}={type_name}: give COLUMN=TYPE with a DuckDB type such as VARCHAR, "
                "BIGINT, DOUBLE, DATE or TIMESTAMP"
            )
    delimiter = options.delimiter
    if delimiter is not None:
        delimiter = _DELIMITER_ALIASES.get(delimiter, delimiter)
        if not delimiter or len(delimiter) > 4 or "\n" in delimiter or "\r" in delimiter:
            raise LoadError("--delimiter takes one character, e.g. ';' or '\\t'")
    for flag, value in (
        ("--comment", options.comment),
        ("--quote", options.quote),
        ("--escape", options.escape),
    ):
        if value is not None and len(value) > 1:
            raise LoadError(
                f"{flag} takes one character, e.g. {flag} '#'"
                if flag == "--comment"
                else f"{flag} takes one character (or '' for none), e.g. {flag} '\"'"
            )
    if options.newline == "any" and (options.encoding or "").lower().replace("-", "") == "utf16":
        raise LoadError("--newline any reads utf-8 and latin-1 files; convert a utf-16 file to utf-8 first")
    if options.newline is not None and options.newline not in NEWLINES:
        raise LoadError("--newline takes any (each of \\r\\n, \\n and \\r ends a line)")
    for column, fmt in options.column_date_formats.items():
        if "%" not in fmt:
            raise LoadError(f"--date-format {column}={fmt}: give a strptime format such as %d/%m/%Y")
    if options.max_line_size is not None and not 0 < options.max_line_size <= MAX_LINE_SIZE:
        raise LoadError(f"--max-line-size takes a number of bytes from 1 to {MAX_LINE_SIZE:,}, e.g. 10000000")
    if options.skip is not None and options.skip < 0:
        raise LoadError("--skip takes the number of lines to skip before the header, e.g. --skip 2")
    if options.drop_totals and options.mode == "append":
        raise LoadError(
            "--drop-totals checks a file's last row against the rows above it: load the file into a new "
            "table (or with --replace), not with --append"
        )
    if options.mode not in ("create", "replace", "append"):
        raise LoadError(f"unknown load mode {options.mode!r}")
    return options._replace(delimiter=delimiter)


class Dialect(NamedTuple):
    """How one CSV file is laid out, as sniffed and checked (see ``db.dialect``)."""

    delimiter: str
    quote: str
    escape: str
    header: bool
    columns: dict[str, str]
    """The file's own column names and their types, in order."""
    date_format: str | None = None
    timestamp_format: str | None = None
    comment: str = ""
    skip: int = 0
    trailing_empty: bool = False
    """A record of the first block has empty fields past the header (DuckDB drops them; counted, said)."""
    excel_delimiter: str = ""
    """The delimiter named by the file's first line, Excel's ``sep=;`` (skipped, and said)."""
    header_cells: tuple[str, ...] = ()
    """The header line's own cells, when DuckDB renamed some (an empty one ``column0``, a repeat ``a_1``)."""
    column_groups: tuple[str, ...] = ()
    """The groups lines of column groups right above the header name over each column ("" for none;
    ``read.column_groups.group_of_each``), put before its name; empty without such a line or with
    --plain-header."""
    group_lines: int = 0
    """How many lines above the header name ``column_groups``."""
    hex_seen: bool = False
    """A field of the first block is a hexadecimal number (``0x1A``): DuckDB stores such as integers."""
    describing: bool = False
    """A row under the header may describe the columns (``read.under_header``): the table's first rows
    are read for it (``settle.describing_rows``)."""
    new_line: str = ""
    """``\\n`` when every line ends so and ``\\r\\n`` occurs only inside quoted values (DuckDB's sniffer
    would take the file for one of mixed line ends); empty: as ``--newline`` says."""


def duckdb_path(path: Path) -> str:
    """The path as DuckDB's reader takes it: DuckDB globs ``[``, ``*`` and ``?`` itself, so a file whose
    name holds them is named through one-character classes (``[[]a].csv`` reads ``[a].csv``). Pure."""
    text = str(path)
    if not any(c in text for c in "[*?"):  # most paths: the regex is not compiled
        return text
    return re.sub(r"([\[*?])", r"[\1]", text)


def csv_reader_sql(
    files: Sequence[Path],
    options: LoadOptions,
    dialect: Dialect,
    *,
    types: Mapping[str, str] | None = None,
    rejects: tuple[str, str] | None = None,
    lenient: bool = False,
    strict: bool = True,
    nulls: list[str] | None = None,
    batch: int | None = None,
) -> tuple[str, list[Any]]:
    """``read_csv(…)`` with the layout pinned: no second guess, and a record whose field count differs
    from the header fails (or, with ``rejects`` = (errors table, scans table), is set aside there).

    One file: every column's type is given, so DuckDB does not sniff again. Several files: the layout is
    pinned and DuckDB unions their columns by name; ``types`` are overrides only. ``batch``: the bytes each
    thread parses (``read.batches``), as DuckDB's buffer size."""
    single = len(files) == 1
    named: list[tuple[str, Any]] = [
        ("auto_detect", False if single else None),
        ("delim", dialect.delimiter),
        ("quote", dialect.quote),
        ("escape", dialect.escape),
        ("header", dialect.header),
        ("skip", dialect.skip),
        ("comment", dialect.comment),
        ("columns", {**dialect.columns, **(types or {})} if single else None),
        ("types", dict(types) if types and not single else None),
        ("nullstr", nulls or options.nulls()),
        ("dateformat", options.date_format or dialect.date_format),
        ("timestampformat", dialect.timestamp_format),
        ("thousands", options.thousands),
        ("decimal_separator", options.decimal),
        ("encoding", options.encoding),
        ("new_line", dialect.new_line or NEWLINES.get(options.newline or "any")),
        ("strict_mode", strict),
        ("null_padding", options.pad_short_rows),
        ("max_line_size", options.max_line_size),
        ("buffer_size", batch),
        # with rejects DuckDB refuses union_by_name: the files' headers are the same (plan._same_columns)
        ("union_by_name", None if single or rejects else True),
    ]
    if lenient:  # a second look at a file already loaded: never fail on what the load set aside
        named += [("ignore_errors", True)]
    if rejects is not None:
        named += [("store_rejects", True), ("rejects_table", rejects[0]), ("rejects_scan", rejects[1])]
    return _call("read_csv", [[duckdb_path(f) for f in files]], named)


def parquet_reader_sql(files: Sequence[Path]) -> tuple[str, list[Any]]:
    extra = ", union_by_name = true" if len(files) > 1 else ""
    return f"read_parquet(?{extra})", [[duckdb_path(f) for f in files]]


def sniff_sql(path: Path, options: LoadOptions, **pinned: Any) -> tuple[str, list[Any]]:
    """``sniff_csv(…)`` with the user's options and ``pinned`` ones (e.g. delim, header, skip)."""
    header = pinned.pop("header", options.header)
    named: list[tuple[str, Any]] = [
        ("delim", pinned.pop("delim", options.delimiter)),
        ("header", header),
        ("nullstr", options.nulls()),
        ("dateformat", options.date_format),
        ("thousands", options.thousands),
        ("decimal_separator", options.decimal),
        ("encoding", options.encoding),
        ("comment", options.comment),
        ("skip", options.skip),
        ("quote", options.quote),
        ("escape", options.escape),
        ("new_line", NEWLINES.get(options.newline or "any")),
        ("null_padding", options.pad_short_rows or None),
        ("max_line_size", options.max_line_size),
        *pinned.items(),
    ]
    named = list({key: value for key, value in named}.items())  # a pinned value replaces the user's
    return _call("sniff_csv", [duckdb_path(path)], named)


def _call(function: str, first: list[Any], named: list[tuple[str, Any]]) -> tuple[str, list[Any]]:
    parts, params = ["?"], list(first)
    for key, value in named:
        if value is not None:
            parts.append(f"{key} = ?")
            params.append(value)
    return f"{function}({', '.join(parts)})", params
