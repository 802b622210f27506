"""What the cells of a row under the header say when the row describes the columns rather than being a
record: a label naming what the row holds (Canvas' ``Points Possible``, ``Units``, ``Data type``) and
values no record of the column has (``(read only)``, ``kg``, ``%`` above numbers). Shared by the load's
quick look at the file's first lines (``read/under_header``) and the check of the written table
(``describing_rows``). Pure."""

from __future__ import annotations

from collections.abc import Iterable

from analytics_agent.db.load.settle.stat_symbols import MISSING

SAID_ALONE = frozenset(
    (
        "points possible",
        "possible points",
        "max points",
        "maximum points",
        "max score",
        "maximum score",
        "max marks",
        "maximum marks",
        "manual posting",
        "muted",
        "unit of measure",
        "units of measure",
        "data type",
        "data types",
        "datatype",
        "dtype",
        "datentyp",
    )
)
"""Labels that say by themselves the row describes the columns (a gradebook's maximum points, a types
line): no record is named so."""
SAID_WITH_MORE = frozenset(
    (
        "unit",
        "units",
        "uom",
        "einheit",
        "unité",
        "unidad",
        "unidade",
        "unità",
        "eenheid",
        "jednostka",
        "out of",
        "type",
        "types",
        "format",
        "description",
        "weight",
        "weighting",
        "max",
        "maximum",
        "scale",
        "label",
    )
)
"""Labels a record could hold too (a metric called ``Units`` with its own numbers, a product called
``Max``): they count only beside values no record of their columns has, or a key left empty."""


def describing_label(value: str) -> int:
    """2 when ``value`` is a label of ``SAID_ALONE``, 1 of ``SAID_WITH_MORE``, else 0 (case, spaces and a
    trailing colon aside: Canvas writes ``    Points Possible``)."""
    text = " ".join(value.split()).strip(" :").lower()
    if not text or len(text) > 20:
        return 0
    return 2 if text in SAID_ALONE else 1 if text in SAID_WITH_MORE else 0


def number_like(value: str) -> bool:
    """A value written as a number, an amount or a date (``12.5``, ``$1,234``, ``(5.00)``, ``12%``,
    ``2024-03-01``): a digit and no letter."""
    # map over str methods: a third of a generator's cost, on every cell of a file's first rows
    return any(map(str.isdigit, value)) and not any(map(str.isalpha, value))


_OFFICE_BLANKS = frozenset(MISSING)
"""A statistics office's symbols for a missing value (Destatis' ``.``, ``...``, ``x`` and ``/``, Eurostat's
``:``): ``stat_marks`` reads them as NULL once the line above is gone, so they leave the column one of
numbers."""


def numbers_below(values: Iterable[str]) -> bool:
    """Whether a column's ``values`` below a row are numbers (``number_like``), two at least and half of
    them at least, a statistics office's missing-value symbols the others: a units line (``;;Anzahl;Tage;%``)
    over a table of counts with ``...`` for a figure still to come describes the columns as much as over
    one without. Pure."""
    values = list(values)
    numbers = [v for v in values if v.strip() not in _OFFICE_BLANKS]
    return len(numbers) >= 2 and 2 * len(numbers) >= len(values) and all(map(number_like, numbers))
