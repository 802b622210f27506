"""A line of column groups above a header (a spanner: Statistik Austria's ``;;Insgesamt;;Österreichische
Staatsangehörige;;…`` over ``Bundesland;Stichtag;Männer;Frauen;Männer;Frauen;…``), each group's name over
the first of its columns: told from a title or a key-value line (``titles`` names the ``--skip`` past it),
and the group over each column of the header below it, which the stored names carry (``names.grouped_cells``)
so the names a header repeats under each group are told apart. Pure.
"""

from __future__ import annotations

from itertools import pairwise

from analytics_agent.db.load.read.peek import csv_rows, header_row, name_like


def column_groups(line: str, header: str, delimiter: str, quote: str) -> list[str]:
    """The names of ``line`` when it is a line of column groups over ``header`` (Statistik Austria's
    ``;;Insgesamt;;Österreichische Staatsangehörige;;…`` over ``Bundesland;Stichtag;Männer;Frauen;…``):
    as many fields, two names or more, each over the first of its group's columns with an empty field to
    its right, at most half the fields named, and the header naming every field. Empty when it is not one. Pure."""
    import csv

    try:
        rows = [[cell.strip() for cell in row] for row in csv_rows([line, header], delimiter, quote)]
    except csv.Error:
        return []
    return groups_over(rows[0], rows[1]) if len(rows) == 2 else []


def groups_over(groups: list[str], header: list[str]) -> list[str]:
    """``column_groups``' test of two lines' stripped cells (the groups' line may end short of the header's,
    its empty fields at the end left out). Pure."""
    if not 2 <= len(groups) <= len(header) or not all(map(name_like, header)):
        return []
    groups = sparse_groups(groups) + [""] * (len(header) - len(groups))
    names = [cell for cell in groups if cell]
    spans = all(at + 1 < len(groups) and not groups[at + 1] for at, cell in enumerate(groups) if cell)
    if len(names) < 2 or 2 * len(names) > len(groups) or not spans or not all(map(_group_like, names)):
        return []  # one name alone is a title or a banner padded to the table's width
    return names


def sparse_groups(cells: list[str]) -> list[str]:
    """A line of groups written with each name in every column of its group (a merged cell saved into each:
    ``;Nord;Nord;Süd;Süd``) as the sparse line of its first columns (``;Nord;;Süd;``); any other line as
    it is. Pure."""
    out, runs = [], 0
    for at, cell in enumerate(cells):
        before, after = cells[at - 1] if at else "", cells[at + 1] if at + 1 < len(cells) else ""
        if cell and cell != before and cell != after:
            return cells  # a name over one column: no runs
        runs += bool(cell) and cell != before
        out.append("" if cell == before else cell)
    return out if runs >= 2 else cells


def _group_like(cell: str) -> bool:
    """A group's name: a header cell, no label of a key-value pair (``期间：2024年第3期``, ``Konto: 1234``), or
    a year. Pure."""
    if cell[:1].isdigit():  # a year over its columns (``;;2023;;2024;``), or a fiscal one (``2023/24``)
        import re

        return re.fullmatch(r"(19|20)\d\d([/-]\d\d(\d\d)?)?", cell) is not None
    return name_like(cell) and ":" not in cell and "：" not in cell


MOST_GROUP_LINES = 3
"""Lines of groups stacked above a header (a year over a category over the names): more are a title."""


def group_of_each(text: str, delimiter: str, quote: str, skip: int) -> tuple[tuple[str, ...], int]:
    """The groups named over each column of the header after ``skip`` lines by the lines of column groups
    right above it (``column_groups``; a line over another only where each of its groups starts where one
    below starts: ``;;2023;;;;2024;;;`` over ``;;Insgesamt;;Ausländer;;Insgesamt;;Ausländer;``), the upper
    first (``2023 Insgesamt``), "" over a column of none (``Bundesland`` left of the groups), and how many
    lines name them. Empty when there is no such line, or when no name of the header stands under two
    groups (the groups then tell no repeated names apart). Pure."""
    if skip < 1 or len(delimiter) != 1:
        return (), 0
    header = [cell.strip() for cell in header_row(text, delimiter, quote, skip=skip)]
    levels: list[tuple[list[str], set[int]]] = []
    for at in range(skip - 1, max(skip - 1 - MOST_GROUP_LINES, -1), -1):
        above = [cell.strip() for cell in header_row(text, delimiter, quote, skip=at)]
        if not groups_over(above, header):
            break
        level = _spans(sparse_groups(above), len(header))
        if levels and not level[1] <= levels[-1][1]:
            break  # its groups do not stand over the ones below: a key-value line, a title
        levels.append(level)
    if not levels:
        return (), 0
    each = tuple(
        " ".join(g for g in reversed(column) if g) for column in zip(*(lv[0] for lv in levels), strict=True)
    )
    under = {(name.lower(), group) for name, group in zip(header, each, strict=True) if group}
    if len(under) == len({name for name, _ in under}):
        return (), 0  # no name under two groups: a key-value line (``Inhaber;;Max Muster;``) may read so
    return each, len(levels)


def _spans(above: list[str], width: int) -> tuple[list[str], set[int]]:
    """The group over each of ``width`` columns from a sparse line of groups, and the columns where one
    starts: a group's name over its first column covers the columns up to the next one's, the last as many
    as the one before it (or all the rest). Pure."""
    starts = [at for at, cell in enumerate(above) if cell] + [width]
    if len(starts) > 2:  # the last group as wide as the one before it
        starts[-1] = min(width, starts[-2] + starts[-2] - starts[-3])
    each = [""] * width
    for start, end in pairwise(starts):
        each[start:end] = [above[start]] * (end - start)
    return each, set(starts[:-1])
