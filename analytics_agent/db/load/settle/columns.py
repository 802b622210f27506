"""What a load tells the user beyond row counts: text columns that are numbers or dates but for a few odd
values, amounts, dates and marks written as text (each settled by a module of its own, asked here when
a column's first values call for it). Runs inside the load's transaction; the SQL is DuckDB's, no Python pass over rows."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.currencies import LOCAL_UNITS, SYMBOLS
from analytics_agent.db.load.settle.amounts_ahead import Ahead, AheadMissed
from analytics_agent.db.load.settle.day_month import Clues
from analytics_agent.db.load.settle.first_rows import SAMPLE_ROWS, first_rows
from analytics_agent.db.load.settle.odd_values import odd_value_notes
from analytics_agent.db.load.settle.sniffed_dates import settle_sniffed, sniffed_counts
from analytics_agent.db.load.settle.stat_symbols import may_hold_marks
from analytics_agent.db.load.settle.text_dates import text_dates
from analytics_agent.db.load.settle.text_first import read_text_first
from analytics_agent.db.load.settle.token_notes import token_notes
from analytics_agent.db.load.settle.token_scan import Recount
from analytics_agent.db.load.settle.yes_no import settle_yes_no
from analytics_agent.db.rows import first_row


class Numbers(NamedTuple):
    """What the checks of numbers written as text settled (``_numbers``), before the dates."""

    notes: list[str]
    units: dict[str, str | None]
    """Columns of amounts stored as numbers, with their unit (``amounts``)."""
    settled: list[str]
    """Every column stored as numbers (or BOOLEAN)."""
    marked: list[str]
    """Columns the export marked as text (``text_marks``): kept text."""
    noted: list[str]
    """Columns of amounts kept text with a note of their own."""
    probe: dict[str, list[str]]
    """The first values of the columns left (and of the amounts)."""
    comma_read: list[str]
    marks_seen: bool
    """Whether a column with a statistics office's marks was stored as numbers."""

    def odd_options(self) -> dict[str, Any]:
        """What ``odd_values.odd_value_notes`` takes from these checks."""
        return {"comma_read": self.comma_read, "text_marked": self.marked, "marks_seen": self.marks_seen}


def _numbers(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    probe: dict[str, list[str]],
    decimal: str | None,
    ahead: Ahead | None,
    negative: str | None,
) -> Numbers:
    """The text columns whose first values show numbers written as text, settled in turn: the marks that
    keep a value text (``_text_marks``), ``_plain_values``, amounts (``_amounts``), and amounts kept text
    by a statistics office's marks below their first values (``_late_marks``)."""
    marked, notes, probe, dated = _text_marks(conn, table, probe)
    numbers, plain_notes, seen, commas = _plain_values(conn, table, probe, decimal)
    probe = {c: v for c, v in probe.items() if c not in numbers}
    units, amount_notes, noted, comma_read = _amounts(conn, table, probe, decimal, ahead, negative)
    late, late_notes, either, either_notes, late_commas = _late_marks(conn, table, noted, decimal)
    said = tuple(f"{c} stayed text" for c in late + either)  # the amount note is moot
    amount_notes = [n for n in amount_notes if not n.startswith(said)]
    noted = [c for c in noted if c not in late]
    notes += plain_notes + amount_notes + late_notes + either_notes
    return Numbers(
        notes,
        units,
        numbers + list(units) + late + dated,
        marked,
        noted,
        probe,
        comma_read + commas + late_commas,
        seen or bool(late),
    )


def settle_columns(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    *,
    text: Sequence[str],
    flags: Sequence[str],
    fixed: Sequence[str],
    recount: Recount | None,
    stored_to_original: dict[str, str],
    tokens: Sequence[str],
    date_formats: Mapping[str, str],
    decimal: str | None = None,
    rows: int | None = None,
    units_known: Mapping[str, str | None] | None = None,
    stamps: Sequence[str] = (),
    ahead: Ahead | None = None,
    negative: str | None = None,
) -> tuple[list[str], dict[str, str | None]]:
    """Decide what the text columns of a freshly written table are, and say every change made to values.
    Returns the notes and the columns of amounts stored as numbers, with their unit (``amounts``).

    ``flags``: columns DuckDB guessed BOOLEAN, read as text; BOOLEAN only if every value is true/false.
    ``recount``: the file read again to count missing-value tokens (``token_notes``). ``fixed``: columns
    the user typed with --type (left alone). ``rows``: the table's row count, when the caller knows it.
    ``units_known``: units of amount columns settled before (a clue to the order of day and month).
    ``stamps``: TIMESTAMP columns DuckDB read without a format (``year_last.unread_short_years``).
    ``ahead``: amount columns the write converted (``amounts_ahead``): settled from their first values as
    text; ``AheadMissed`` when they would not have converted. ``negative``: ``--negative``."""
    text = _still_text(conn, table, text, flags, [c for c in stamps if c not in fixed])
    free = [c for c in text if c not in fixed]
    probe = _probe(conn, table, free)
    if ahead is not None:  # their first values as written, not the numbers stored
        probe |= {c: v for c, v in ahead.probe.items() if c in probe}
    found = _numbers(conn, table, probe, decimal, ahead, negative)
    notes, units, probe = found.notes, found.units, found.probe
    text = [c for c in text if c not in found.settled]
    free = [c for c in free if c not in found.settled and c not in found.marked and c not in found.noted]
    read, probe = read_text_first(conn, table, free, probe, decimal, notes)
    text, free = [c for c in text if c not in read], [c for c in free if c not in read]
    date_formats = _year_last(conn, table, date_formats, notes)
    sniffed = sniffed_counts(conn, table, date_formats)
    clues = Clues(
        list(stored_to_original.values()), {**(units_known or {}), **units}, sniffed.decided(date_formats)
    )
    dated, date_notes, noted, decided = text_dates(conn, table, free, rows, probe, clues)
    notes += date_notes
    text = [c for c in text if c not in dated]
    notes += token_notes(conn, table, text, recount, stored_to_original, tokens, rows=rows)
    odd = [c for c in text if c not in fixed and c not in noted + found.noted]
    notes += odd_value_notes(conn, table, odd, decimal=decimal, rows=rows, **found.odd_options())
    clues = clues.adding(decided)
    notes += settle_sniffed(conn, table, date_formats, sniffed, clues)
    return notes, units


_MARKED = r"[0-9] *([CDcd][Rr]|[Dd][Bb])\.? *(?:\n|$)|[0-9] *\([BASHΧΠ]\) *(?:\n|$)|[0-9] +[BASHΧΠ] *(?:\n|$)"
"""A first value ending in ``CR`` or ``DR`` after a digit (``49,633.80 CR``), or in a ledger's letter
(``12.345,67 (B)``, ``1.234,56 S``) or a Greek bank's (``274,76 Χ``): one search of a column's first ten
values joined (nearly every value of such a column is marked): 0.38 -> 0.06 ms a load of 60 text columns
against a per-value check of fifty."""


def _marked(text: str) -> bool:
    """Whether ``_MARKED`` finds a marked value in ``text``; first a plain test (``cr``, ``dr``, ``db``, a
    closing parenthesis or a capital of a ledger's letters after a space), so most loads compile no
    regex. Pure."""
    low = text.lower()
    may = "cr" in low or "dr" in low or "db" in low or ")" in text or any(f" {c}" in text for c in "BASHΧΠ")
    return may and re.search(_MARKED, text) is not None


def _debit_credit(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    probe: dict[str, list[str]],
    negative: str | None,
    decimal: str | None,
) -> tuple[list[str], list[str], list[str]]:
    """``debit_credit.settle_debit_credit`` when a first value ends in ``CR`` or ``DR``; nothing otherwise."""
    if not any(_marked("\n".join(values[:10])) for values in probe.values()):
        return [], [], []
    from analytics_agent.db.load.settle.debit_credit import settle_debit_credit  # such files only

    return settle_debit_credit(conn, table, probe, negative, decimal)


def _amounts(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    probe: dict[str, list[str]],
    decimal: str | None,
    ahead: Ahead | None = None,
    negative: str | None = None,
) -> tuple[dict[str, str | None], list[str], list[str], list[str]]:
    """``amounts.settle_amounts`` when the first values could hold amounts, then ``_debit_credit`` on
    the columns left (those it converts join the amounts, with no unit); nothing otherwise.
    ``AheadMissed`` when a column the write converted (``ahead``) would not have converted."""
    units: dict[str, str | None] = {}
    notes: list[str] = []
    noted: list[str] = []
    comma_read: list[str] = []
    if _may_hold_amounts(probe):
        from analytics_agent.db.load.settle.amounts import settle_amounts  # most files have none: kept off

        units, notes, noted, comma_read = settle_amounts(conn, table, probe, decimal, ahead)
    if ahead is not None and not set(ahead.forms) <= set(units):
        raise AheadMissed
    left = {c: v for c, v in probe.items() if c not in units and c not in noted}
    marked, marked_notes, kept = _debit_credit(conn, table, left, negative, decimal)
    if marked:  # those read with a comma are no decimal points for the odd values' --decimal advice
        from analytics_agent.db.load.settle.debit_credit import decimal_mark

        comma_read = comma_read + [c for c in marked if (decimal or decimal_mark(left[c])) == ","]
    return units | dict.fromkeys(marked), notes + marked_notes, noted + kept, comma_read


def _late_marks(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], decimal: str | None
) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """``stat_marks.settle_stat_marks`` on the columns of amounts kept text by values that do not read as
    amounts: a statistics office's marks below the first values (``..`` in a column of ``33,001.0``),
    counted over the first rows first (the columns they leave are read whole). Returns what
    ``stat_marks.Marked`` holds: the columns converted, their notes, those kept text whose numbers read
    either way, its note, and the columns converted with a decimal comma."""
    if not columns:
        return [], [], [], [], []
    from analytics_agent.db.load.settle.stat_marks import settle_stat_marks  # such columns only

    sample = first_rows(table, columns, SAMPLE_ROWS, None)
    return settle_stat_marks(conn, table, columns, decimal, sample=sample)


def _still_text(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text: Sequence[str],
    flags: Sequence[str],
    stamps: Sequence[str],
) -> list[str]:
    """The text columns to settle: DuckDB's BOOLEAN guesses that are not all true/false, and timestamps
    whose two-digit years it read without a format (back to text)."""
    kept = [c for c in text if c not in flags] + [c for c in flags if not _become_boolean(conn, table, c)]
    return kept + _short_year_stamps(conn, table, stamps)


def _short_year_stamps(conn: duckdb.DuckDBPyConnection, table: str, stamps: Sequence[str]) -> list[str]:
    """``year_last.unread_short_years`` when DuckDB read some timestamp without a format."""
    if not stamps:
        return []
    from analytics_agent.db.load.settle.year_last import unread_short_years  # rare: kept off other loads

    return unread_short_years(conn, table, stamps)


def _excel_errors(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]]
) -> tuple[list[str], list[str]]:
    """``excel_errors.settle_excel_errors`` when a first value starts with ``#``; else nothing."""
    if not any(v[:1] == "#" for values in probe.values() for v in values):  # rare: kept off other loads
        return [], []
    from analytics_agent.db.load.settle.excel_errors import error_columns, settle_excel_errors

    return settle_excel_errors(conn, table, error_columns(probe))


def _stat_marks(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]], decimal: str | None
) -> tuple[list[str], list[str], list[str]]:
    """``stat_marks.settle_stat_marks`` when a first value may be a statistics office's mark (``..``,
    ``:``, ``12.3 p``); else nothing. Returns the columns converted, the notes, and the converted columns
    read with a decimal comma."""
    if not any(map(may_hold_marks, probe.values())):  # rare: kept off other loads
        return [], [], []
    from analytics_agent.db.load.settle.stat_first import marked_columns
    from analytics_agent.db.load.settle.stat_marks import settle_stat_marks

    # numbers read either way (1,234) are said by the checks below, which name such columns anyway
    marked = settle_stat_marks(conn, table, marked_columns(probe), decimal)
    return marked.converted, marked.notes, marked.commas


def _plain_values(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]], decimal: str | None
) -> tuple[list[str], list[str], bool, list[str]]:
    """The text columns that are numbers but for a statistics office's marks, Excel's error values, yes/no
    flags, or numbers padded or signed with a plus, each settled in turn; with their notes, whether a
    column with an office's marks was among them, and those of them read with a decimal comma."""
    marked, notes, commas = _stat_marks(conn, table, probe, decimal)
    probe = {c: v for c, v in probe.items() if c not in marked}
    numbers, excel_notes = _excel_errors(conn, table, probe)
    numbers, notes = marked + numbers, notes + excel_notes
    flagged, flag_notes = settle_yes_no(conn, table, {c: v for c, v in probe.items() if c not in numbers})
    plain, plain_notes = _plain(
        conn, table, {c: v for c, v in probe.items() if c not in numbers + flagged}, decimal
    )
    return numbers + flagged + plain, notes + flag_notes + plain_notes, bool(marked), commas


def _text_marks(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]]
) -> tuple[list[str], list[str], dict[str, list[str]], list[str]]:
    """``text_marks.settle_text_marks`` when a first value is ``="…"``, ends in a tab or starts with an
    apostrophe, and ``settle_padding`` when one ends in two spaces; else nothing. Returns the columns
    marked (kept text), the notes, the first values of the others (the padded ones trimmed), and the
    padded columns stored as dates."""
    if not any(
        v[:2] == '="' or v[-1:] == "\t" or v[:1] == "'" or v[-2:] == "  "
        for values in probe.values()
        for v in values[:10]
    ):
        return [], [], probe, []  # rare: kept off other loads
    from analytics_agent.db.load.settle import text_marks as tm

    marked = tm.marked_columns(probe)
    padded = tm.padded_columns(probe, marked)
    pad_notes, dated = tm.settle_padding(conn, table, padded)
    notes = tm.settle_text_marks(conn, table, marked) + pad_notes
    left = {c: tm.unpadded(v) if c in padded else v for c, v in probe.items() if c not in marked + dated}
    return marked, notes, left, dated


def _plain(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]], decimal: str | None
) -> tuple[list[str], list[str]]:
    """``plain_numbers.settle_plain_numbers`` when a first value with a digit starts or ends with a space
    or starts with a plus, then ``signed_whole.settle_signed_whole`` on the columns left; else nothing."""
    if not any(
        (v[:1].isspace() or v[-1:].isspace() or v[:1] == "+") and any(c.isdigit() for c in v)
        for values in probe.values()
        for v in values[:10]
    ):  # rare: kept off other loads
        return [], []
    from analytics_agent.db.load.settle.plain_numbers import plain_columns, settle_plain_numbers
    from analytics_agent.db.load.settle.signed_whole import settle_signed_whole, signed_columns

    done, notes = settle_plain_numbers(conn, table, plain_columns(probe, decimal), decimal)
    left = {c: v for c, v in probe.items() if c not in done}
    signed, signed_notes = settle_signed_whole(conn, table, signed_columns(left))
    return done + signed, notes + signed_notes


def _year_last(
    conn: duckdb.DuckDBPyConnection, table: str, formats: Mapping[str, str], notes: list[str]
) -> Mapping[str, str]:
    """``year_last.read_year_last`` when DuckDB read a two-digit year first (its note added to ``notes``)."""
    if not any(f.startswith("%y") for f in formats.values()):  # rare: kept off other loads' imports
        return formats
    from analytics_agent.db.load.settle.year_last import read_year_last

    formats, said = read_year_last(conn, table, formats)
    notes += said
    return formats


_AMOUNT_SIGNS = frozenset(f"$%({SYMBOLS}\u2212")  # and the Unicode minus, which no cast reads
_SPACES = frozenset("'’ \u00a0\u202f")


def _may_hold_amounts(probe: dict[str, list[str]]) -> bool:
    """Whether some first value has a digit and a currency, percent or accounting sign, a three-letter
    code before or after it (``EUR 12``), or thousands grouped (``1,234``, ``1'234.50``, ``1 234,50``):
    only then is ``db.amounts`` imported and asked. Pure."""
    for values in probe.values():
        for value in set(values[:50]):  # first values repeat (0.00, 0.00): each asked once
            text = value.strip()
            if not any(map(str.isdigit, text)):
                continue
            if not _AMOUNT_SIGNS.isdisjoint(text) or text.endswith("-") or text.endswith(LOCAL_UNITS):
                return True
            if len(text) > 4 and text[-4] in ",'\u00a0\u202f " and text[-3:].isdigit():  # 1,234 1'234
                return True
            if "." in text and len(text.partition(".")[0]) > 4 and text.partition(".")[0][-4] in ",'’ ":
                return True  # 1,234.50
            if "," in text and len(text.partition(",")[0]) > 4 and text.partition(",")[0][-4] in _SPACES:
                return True  # 1 234,50
            if text.count(".") > 1 or ("." in text.partition(",")[0] and "," in text):
                return True  # 1.234.567, 1.234,50
            if _code(text[:3]) or _code(text[-3:]) or text.lstrip("+-\u2212 ").startswith(LOCAL_UNITS):
                return True  # EUR 12, 12 EUR, -S/ 14.85
    return False


def _code(part: str) -> bool:
    """A currency code's shape: capital letters only (``EUR``). Pure."""
    return part.isalpha() and part.isupper()


def _probe(conn: duckdb.DuckDBPyConnection, table: str, text: Sequence[str]) -> dict[str, list[str]]:
    """The non-null values among the first rows of each text column: what decides which columns the
    amount and date checks read whole (most columns are neither)."""
    if not text:
        return {}
    wanted = ", ".join(quote_ident(name) for name in text)
    rows = conn.execute(f"SELECT {wanted} FROM {quote_ident(table)} LIMIT 50").fetchall()
    return {name: [row[i] for row in rows if row[i] is not None] for i, name in enumerate(text)}


def _become_boolean(conn: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    col, target = quote_ident(column), quote_ident(table)
    other, present = first_row(
        conn.execute(
            f"SELECT count({col}) FILTER (WHERE lower(trim({col})) NOT IN ('true', 'false')), count({col}) "
            f"FROM {target}"
        )
    )
    if other or not present:
        return False
    conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE BOOLEAN USING lower(trim({col}))::BOOLEAN")
    return True
