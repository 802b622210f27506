"""The ``load`` command's options, declared once as data, and a parser of a plain ``load`` command line that
needs no typer. Pure: no I/O.

Typer's import and its reading of a command's signature cost a small load about 17 ms of CPU, an eighth of
the whole process. Kept for docs/performance.md row 3 (``load`` within 1.15x of DuckDB's ``read_csv``):
with typer reading every load, ``weather.csv`` measured 1.30x against 1.15x (December 2026, paired, CPU). ``data_cmd`` builds the typer command from ``OPTIONS``, so its help
and its errors stay typer's; ``quick_load_args`` reads the same table and gives up (None) on anything that
is not a plain, valid load, which typer then parses and answers as always.
"""

from __future__ import annotations

from typing import Any

_DATE_HELP = (
    "Date format for every date column (%d/%m/%Y for day-first), or COLUMN=FORMAT for one column "
    "(repeatable)."
)
ENCODING_HELP = (
    "File encoding: utf-8, utf-16, latin-1, or any other Python reads (windows-1252, cp1250, cp932)."
)
NULL_HELP = (
    "A value that means missing (repeatable), besides the default set NA, N/A, n/a, NULL, null, None, "
    "NaN and the dashes '-', '--', ' --', an en and an em dash. With '' among them, exactly those: "
    "--null '' keeps the defaults as text. An empty field is always missing."
)
_TIMEZONE_HELP = (
    "The database's business time zone (IANA, e.g. America/New_York): days and months of zoned timestamps "
    "are counted in it. Kept in <db>.semantic.yaml."
)
PATHS_HELP = "CSV or Parquet files or globs; .gz, .bz2, .zst, .zip (ARCHIVE.zip:MEMBER for one of several)."


class Option:
    """One option: the parameter it fills, its flags (``--on/--off`` for a switch), its kind, its help.
    (A plain class: a NamedTuple costs this module's import a tenth of a millisecond more each.)"""

    __slots__ = ("flags", "help", "kind", "metavar", "name")

    def __init__(self, name: str, flags: str, kind: str, help: str, metavar: str | None = None) -> None:
        self.name, self.flags, self.help, self.metavar = name, flags, help, metavar
        self.kind = kind
        """``text``, ``int``, ``many`` (repeatable text), ``flag`` (False unless given), ``switch`` (None,
        True for the first flag, False for the ``--no-`` one)."""


OPTIONS = (
    Option("table", "--table -t", "text", "Table name (default: from the file name)."),
    Option("replace", "--replace", "flag", "Replace the table if it exists."),
    Option("append", "--append", "flag", "Add rows to the table (same columns)."),
    Option("delimiter", "--delimiter", "text", "Field separator, e.g. ';' or '\\t'."),
    Option("header", "--header/--no-header", "switch", "The first line is (not) the column names. Default: detect."),
    Option("date_format", "--date-format", "many", _DATE_HELP),
    Option("types", "--type", "many", "Column type override COLUMN=TYPE, e.g. amount=VARCHAR (repeatable)."),
    Option("thousands", "--thousands", "text", "Thousands separator in numbers, e.g. ','."),
    Option("decimal", "--decimal", "text", "Decimal separator, e.g. ','."),
    Option("encoding", "--encoding", "text", ENCODING_HELP),
    Option("null", "--null", "many", NULL_HELP, "TOKEN"),
    Option("skip_bad_rows", "--skip-bad-rows", "flag",
           "Load the good records and keep the malformed ones in the table <TABLE>_rejects."),
    Option("pad_short_rows", "--pad-short-rows", "flag",
           "Read the missing fields at the end of a short record as empty (NULL)."),
    Option("allow_empty", "--allow-empty", "flag", "Create the table even if the file has no data rows."),
    Option("drop_totals", "--drop-totals --drop-footer", "flag",
           "Leave out the footer below the table: a last row of totals (and the subtotal rows it counts), "
           "checked against the rows above, and note lines (Source: ..., * ...)."),
    Option("keep_label_rows", "--keep-label-rows", "flag",
           "Load the rows under the header that label or describe the columns (a line of labels or "
           "units, a gradebook's Points Possible) as rows; they are left out by default."),
    Option("plain_header", "--plain-header", "flag",
           "Store the header's own names alone, without the groups a line above it names over its "
           "columns (Insgesamt over Männer, Frauen: insgesamt_manner by default)."),
    Option("keep_blank_labels", "--keep-blank-labels", "flag",
           "Keep a pivot table's blank group labels empty (the label written once, on a group's first "
           "row, above its 'X Total' row); they are filled with the label above by default."),
    Option("negative", "--negative", "text",
           "DR or CR: in a column of amounts marked DR and CR (49.80 CR), the mark of the negative ones "
           "(DR for a bank statement, CR for a ledger's credit balances).", "MARK"),
    Option("comment", "--comment", "text", "Skip lines starting with this character, e.g. '#'."),
    Option("skip", "--skip", "int", "Lines to skip before the header (a preamble)."),
    Option("quote", "--quote", "text", "Quote character, or '' for none. Default: detect."),
    Option("escape", "--escape", "text", "Character escaping a quote inside quotes, e.g. '\\'. Default: detect."),
    Option("newline", "--newline", "text",
           "any: each of \\r\\n, \\n and \\r ends a line (for a file that mixes them). Default: detect."),
    Option("max_line_size", "--max-line-size", "int", "The longest line to read. Default: 2000000.", "BYTES"),
    Option("timezone", "--timezone", "text", _TIMEZONE_HELP),
)  # fmt: skip


class QuickLoad:
    """A plain load command line: the global options it gave, the paths and every option's value."""

    __slots__ = ("db", "paths", "values", "verbose")

    def __init__(self, db: str | None, verbose: bool, paths: list[str], values: dict[str, Any]) -> None:
        self.db, self.verbose, self.paths, self.values = db, verbose, paths, values


def _flags() -> dict[str, tuple[str, object]]:
    """Each flag → (the parameter it fills, what it means: a kind, or the value a flag or switch sets)."""
    table: dict[str, tuple[str, object]] = {"--db": ("db", "text"), "--verbose": ("verbose", True)}
    table["-v"] = table["--verbose"]
    for option in OPTIONS:
        if option.kind == "switch":
            on, off = option.flags.split("/")
            table[on], table[off] = (option.name, True), (option.name, False)
        else:
            for flag in option.flags.split():
                table[flag] = (option.name, True if option.kind == "flag" else option.kind)
    return table


def defaults() -> dict[str, Any]:
    """Every option's value when not given (typer's: False for a flag, None for the rest)."""
    return {o.name: False if o.kind == "flag" else None for o in OPTIONS}


def quick_load_args(args: list[str]) -> QuickLoad | None:
    """``args`` (the command line after the program name) when it runs ``load`` with known options only,
    each given a valid value, and at least one path; None for anything else (``--help``, another command,
    an unknown, short-clustered or valueless option, ``--``, a number that is not one, other global
    options): typer parses those. Values are taken as click takes them: the next word, whatever it
    starts with; a repeated option's last value wins, a repeatable one adds up."""
    flags, values, paths = _flags(), defaults(), []
    values.update(db=None, verbose=False)
    command_seen = False
    words = iter(args)
    for word in words:
        if word == "-":  # click reads it as a path; ours would be a file named "-"
            return None
        if not word.startswith("-"):
            if command_seen:
                paths.append(word)
            elif word != "load":
                return None
            command_seen = True
            continue
        flag, has_inline, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        if flag not in flags:
            return None
        name, meaning = flags[flag]
        if not command_seen and name not in ("db", "verbose"):  # the root takes only the global options
            return None
        if not isinstance(meaning, str):  # a flag or a switch: takes no value
            if has_inline:
                return None
            values[name] = meaning
            continue
        value = inline if has_inline else next(words, None)
        if value is None:
            return None
        if meaning == "int":
            try:
                values[name] = int(value)
            except ValueError:
                return None
        elif meaning == "many":
            values[name] = [*(values[name] or ()), value]
        else:
            values[name] = value
    if not command_seen or not paths:
        return None
    db, verbose = values.pop("db"), values.pop("verbose")
    return QuickLoad(db, verbose, paths, values)
