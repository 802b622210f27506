"""Safe table and column names from whatever a file calls them. Pure.

A stored name is lowercase snake_case that never needs quoting: ``Order Date`` → ``order_date``,
``customerID`` → ``customer_id``, ``Café`` → ``cafe`` (accents dropped), ``備考`` → ``備考`` (other
letters kept: DuckDB reads them unquoted), ``2024 sales`` → ``t_2024_sales``, a reserved word gets a
trailing underscore (``select`` → ``select_``; ``rename_reason`` says so), and duplicates get ``_2``.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence

MAX_NAME_LENGTH = 63
_CAMEL_BOUNDARY = r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])"  # compiled for a name with capitals
_NOT_WORD = re.compile(r"[\W_]+")  # \W is Unicode-aware: letters of any script and digits stay
_GLOB_CHARS = r"[*?\[\]{}]"
_DATA_SUFFIXES = (".zip", ".gz", ".bz2", ".zst", ".csv", ".tsv", ".txt", ".parquet", ".pq")


def safe_identifier(
    text: str, *, reserved: Container[str] = (), prefix: str = "c", fallback: str | None = None
) -> str:
    """One safe name; ``prefix`` (``c`` for columns, ``t`` for tables) goes before a leading digit;
    ``fallback`` (default: the prefix) stands in for a name with no usable letters."""
    plain = _without_accents(text)
    lower = plain.lower()
    if lower != plain:  # a capital letter: the only place a camelCase boundary can be
        lower = re.sub(_CAMEL_BOUNDARY, "_", plain).lower()
    snake = _NOT_WORD.sub("_", lower).strip("_")
    if not snake:
        snake = fallback or prefix
    elif snake[0].isdigit():
        snake = f"{prefix}_{snake}"
    snake = snake[:MAX_NAME_LENGTH].rstrip("_")
    if snake in reserved:
        snake += "_"
    return snake


def _without_accents(text: str) -> str:
    """Latin letters lose their accents (``é`` → ``e``); other scripts stay as written (``й``)."""
    if text.isascii():  # nothing to take off; and unicodedata is imported only for a name that needs it
        return text
    import unicodedata

    out = []
    for ch in unicodedata.normalize("NFC", text):
        base = unicodedata.normalize("NFKD", ch)
        ascii_base = "".join(c for c in base if not unicodedata.combining(c))
        out.append(ascii_base if ascii_base.isascii() else ch)
    return "".join(out)


def rename_reason(original: str, stored: str, reserved: Container[str]) -> str | None:
    """Why a name changed, when the change is not obvious from the two names: a reserved word. Pure."""
    base = stored.rstrip("_")
    if stored != original and stored.endswith("_") and base in reserved:
        what = "DuckDB's name for a row's id" if base == "rowid" else "an SQL keyword"
        return f"{original} is {what}, stored as {stored}"
    return None


def header_renames(
    cells: Sequence[str], names: Sequence[str], stored: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """What became of header cells that are not stored under their cleaned name (``cells``; ``names``:
    DuckDB's names for them): empty ones (``column0``: a row index pandas or R wrote), ones repeating an
    earlier name in any case (``a, a``: ``a_1``), and ones whose cleaned name another column holds as its
    own (``Order Date`` beside ``order_date``: ``order_date_2``). At most three notes, and the file's name
    of each stored column DuckDB renamed ("" when the cell is empty). Pure."""
    seen: dict[str, str] = {}  # a cell's name in any case -> the first cell so named
    empty: list[tuple[int, str]] = []
    repeats: dict[str, str] = {}
    positions: list[int] = []
    taken: list[tuple[int, str, str]] = []
    own: dict[str, str] = {}
    for position, (whole, name, kept) in enumerate(zip(cells, names, stored, strict=True), start=1):
        cell = whole.strip()  # DuckDB trims a cell's spaces: " b" is b, no rename
        key = cell.lower()
        if cell != name:
            own[kept] = cell  # "" for an empty cell: DuckDB's column0 may be another column's own name
        if not key:
            if whole != name:
                empty.append((position, kept))
        elif key in seen:
            repeats[kept] = seen[key]
            positions.append(position)
        elif kept not in _cleaned(cell, position):
            taken.append((position, kept, cell))
        seen.setdefault(key, cell)
    notes = []
    if empty:
        notes.append(
            f"{_columns([p for p, _ in empty])} no name in the header; stored as {_listed([k for _, k in empty])}"
        )
    if repeats:
        firsts = sorted(set(repeats.values()), key=list(repeats.values()).index)
        notes.append(
            f"{_columns(positions, has='repeats', have='repeat')} an earlier name ({_listed(firsts, quote=True)}); "
            f"stored as {_listed(list(repeats))}"
        )
    if taken:
        notes.append(
            f"{_columns([p for p, _, _ in taken])} a name ({_listed([c for _, _, c in taken], quote=True)}) that "
            f"cleans to another column's own; stored as {_listed([k for _, k, _ in taken])}"
        )
    return notes, own


def _cleaned(cell: str, position: int) -> tuple[str, str]:
    """The names a cell is stored under when nothing else claims its name: cleaned, or cleaned with the
    keyword's underscore (``select_``)."""
    base = safe_identifier(cell, fallback=f"column_{position}")
    return base, base + "_"


def _columns(positions: list[int], *, has: str = "has", have: str = "have") -> str:
    if len(positions) == 1:
        return f"column {positions[0]} {has}"
    return f"columns {_listed([str(p) for p in positions])} {have}"


def _listed(items: Sequence[object], *, quote: bool = False, most: int = 5) -> str:
    shown = [repr(i) if quote else str(i) for i in items[:most]]
    return ", ".join(shown) + (f" and {len(items) - most:,} more" if len(items) > most else "")


def grouped_cells(cells: Sequence[str], groups: Sequence[str]) -> tuple[str, ...]:
    """The header's cells with the group a line above them names over each put first (``Insgesamt`` over
    ``Männer``: ``Insgesamt Männer``), so names the header repeats under each group are told apart;
    ``cells`` as they are without groups. Pure."""
    if len(groups) != len(cells):
        return tuple(cells)
    return tuple(
        f"{group} {cell.strip()}" if group else cell for cell, group in zip(cells, groups, strict=True)
    )


def groups_note(line: int, groups: Sequence[str], stored: Sequence[str], lines: int = 1) -> list[str]:
    """The note for column names that carry their groups (``grouped_cells``; ``line``: the last line of
    groups, 1-based, ``lines`` of them; ``stored``: every column's stored name). Pure."""
    under = [name for name, group in zip(stored, groups, strict=True) if group]
    if not under:
        return []
    named = list(dict.fromkeys(group for group in groups if group))
    which = f"line {line} names" if lines <= 1 else f"lines {line - lines + 1}-{line} name"
    return [
        f"{which} groups of the columns below {'it' if lines <= 1 else 'them'} ({_listed(named, quote=True, most=3)}): each column "
        f"under one is stored with the group's name first, as {_listed(under, most=4)}; add --plain-header to "
        "store the header's names alone"
    ]


def safe_column_names(
    originals: Sequence[str], *, reserved: Container[str] = (), cells: Sequence[str] = ()
) -> list[str]:
    """Safe, distinct names for a file's columns, in order.

    ``cells``: the header's own cells, when DuckDB renamed some (``a, a, a_1`` it reads as ``a, a_1,
    a_1_1``); else the file's names are ``originals``. A name the file gives a column keeps it: first every
    name already safe (``a_1``), then every cleaned name no one took (``Order Date`` -> ``order_date``),
    then the rest numbered past every name of both kinds. Numbering in file order instead gave the second
    ``a`` the name ``a_1`` and the file's own ``a_1`` column another: one column's name over another's
    numbers (issue 38)."""
    names = [
        cell if cell.strip() else original
        for cell, original in zip(
            cells if len(cells) == len(originals) else originals, originals, strict=True
        )
    ]
    given = [bool(cell.strip()) for cell in (cells if len(cells) == len(originals) else originals)]
    bases = [
        safe_identifier(name, reserved=reserved, prefix="c", fallback=f"column_{position}")
        for position, name in enumerate(names, start=1)
    ]
    result: list[str | None] = [None] * len(names)
    taken: set[str] = set()
    for exact_only in (True, False):
        for i, (name, base) in enumerate(zip(names, bases, strict=True)):
            if result[i] is None and base not in taken and given[i] and (name == base or not exact_only):
                result[i] = base
                taken.add(base)
    avoided = taken | set(bases)  # numbered names never take a name some column cleans to
    for i, base in enumerate(bases):
        if result[i] is None:
            alone = base not in taken and bases.count(base) == 1  # a nameless column's column0
            # numbered from _1, as DuckDB's reader and the earlier loads number a repeated name
            name, n = base, 0
            while name in avoided and not (n == 0 and alone):
                n += 1
                name = f"{base}_{n}"
            avoided.add(name)
            result[i] = name
    return [name for name in result if name is not None]


def table_name_from_path(path: str, *, reserved: Container[str] = ()) -> str:
    """The table a file loads into when no name is given: its file name without data suffixes and
    glob characters (``exports/Sales 2024-*.csv.gz`` → ``sales_2024``)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]  # after the last / or backslash
    lowered = name.lower()
    stripped = True
    while stripped:
        stripped = False
        for suffix in _DATA_SUFFIXES:
            if lowered.endswith(suffix) and len(lowered) > len(suffix):
                name, lowered = name[: -len(suffix)], lowered[: -len(suffix)]
                stripped = True
    if any(c in name for c in "*?[]{}"):
        name = re.sub(_GLOB_CHARS, " ", name)
    return safe_identifier(name, reserved=reserved, prefix="t")
