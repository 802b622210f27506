"""What a load says it did: the summary a front door prints or returns (the table, its rows and columns,
the notes, the records set aside). Pure."""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
from typing import Any, NamedTuple


class ColumnSummary(NamedTuple):
    name: str
    original: str
    type: str
    nulls: int


class LoadSummary(NamedTuple):  # not a dataclass: a tenth of the import cost
    """What a load did, for the closing summary."""

    table: str
    files: list[str]
    """The files as the user named them (``archive.zip:member.csv`` for an archive member)."""
    mode: str
    rows_loaded: int
    rows_total: int
    columns: list[ColumnSummary]
    seconds: float
    created_database: bool
    rejected_lines: list[int]
    """The line of each record set aside by ``--skip-bad-rows`` (one per record: two files can each
    have a line 3); ``rejected_at`` names the file of each."""
    notes: list[str]
    """Things the user should know: odd values that kept a column as text, names that changed and why."""
    links: tuple[str, ...] = ()
    """One line per link from or to the table, and how sure it is (``describe_link``)."""
    rejected_at: tuple[tuple[str, int], ...] = ()
    """(file as named, line) of each record in ``rejected_lines``, in the same order."""


def column_summaries(profile: dict[str, Any]) -> list[ColumnSummary]:
    original = profile.get("original_names", {})
    return [
        ColumnSummary(c["name"], original.get(c["name"], c["name"]), c["type"], int(c["nulls"]))
        for c in profile["columns"]
    ]
