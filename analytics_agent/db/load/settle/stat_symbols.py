"""The marks statistics offices print in a table of numbers: the symbols that stand for a missing value,
and the flags written after a number. A plain test of a column's first values (``may_hold_marks``) says
whether ``stat_marks``, which reads them, is imported at all: most loads hold none. Pure.

Missing values, alone in a cell (each office's legend of its table symbols):

- ``..`` not available: Statistics Canada (for a reference period), the OECD and the World Bank's
  DataBank exports, the ABS and IBGE (not applicable), INE, the PX-Web tables of the Nordic offices;
  ``.``, ``...`` and longer runs of dots are PX-Web's (PC-Axis) dot codes, ``.`` and ``...`` also
  StatCan's (not available for any period, not applicable) and IBGE's (``...`` not available), ``…``
  the same three dots as one character;
- ``:`` Eurostat's, alone or with its flag (``: c`` confidential, ``: z`` not applicable);
- ``x`` (``X``) suppressed for confidentiality: StatCan, the ONS, IBGE, Destatis, INE Portugal;
  ``F`` too unreliable to be published: StatCan;
- ``np`` (``n.p.``) not published, ``na`` (``n.a.``) not available, ``nya`` (``n.y.a.``) not yet
  available: the ABS;
- ``[x]``, ``[c]``, ``[z]``, ``[w]``, ``[low]``: the shorthand of the UK's Government Statistical
  Service, which the ONS writes;
- ``/`` (Destatis: not reliable enough), ``//`` (INE Portugal) and ``///`` (INDEC): not applicable;
  ``..C`` Stats NZ's confidential.

The dashes (``-``, ``–``, ``—``) are among the load's missing-value tokens already.

Flags after a number (the number is kept, the flag dropped, and the load says so):

- Eurostat: a space, then one or more of its letters ``b c d e f n p r s u z`` (``12.3 p``, ``0.5 bep``);
- the GSS shorthand in square brackets, spaced or not (``123 [p]``, ``45[r][e]``);
- StatCan's quality letters ``A``-``E`` and ``p``, ``r`` (superscripts in print) after a number with a
  decimal part or grouped thousands (``12.3E``, ``1,234.5 A``): after a whole number (``12A``) such a
  letter is a house or part number's;
- an asterisk, one to three, after a number (ELSTAT's provisional ``36.758.620*``, a footnote's mark).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

DOTS = (".", "..", "...", "....", ".....", "......", "\u2026", "..C")
LETTERS = ("x", "X", "F", "np", "n.p.", "na", "n.a.", "nya", "n.y.a.")
"""Symbols written in letters: a real text column may hold one (a size ``x``, ``F`` for female), so a
column with them converts only where numbers are at least half of its values."""
BRACKETS = ("[x]", "[c]", "[z]", "[w]", "[low]")
SLASHES = ("/", "//", "///")
WEAK = ("x", "X", "F", *SLASHES)
"""Symbols other systems write too (an ``X`` among whole numbers, a path's ``/``): they read as missing
only among numbers with a decimal part or grouped thousands, or beside another of them or a mark only an
office writes (``stat_marks.corroborated``)."""
MISSING = (*DOTS, ":", *LETTERS, *BRACKETS, *SLASHES)
"""Every symbol that stands for a missing value (with ``:`` and a Eurostat flag: ``EUROSTAT_FLAGS``)."""
EUROSTAT_FLAGS = "bcdefnprsuz"
GSS_FLAGS = ("a", "b", "e", "f", "k", "p", "r", "s", "t", "u", "w", "ns", "ss", "sss")
"""The GSS shorthand written beside a value (average, break, estimated, forecast, low figure, provisional,
revised, significant, total, low reliability, ...): the others (``[x]``, ``[c]``, ``[z]``) stand alone."""
STATCAN_FLAGS = "ABCDEpr"

_MISSING = frozenset(MISSING)
_AFTER_SPACE = frozenset(EUROSTAT_FLAGS)
_ATTACHED = frozenset(STATCAN_FLAGS)
_WRITTEN = frozenset(
    [
        *MISSING,
        *(f"{s} " for s in MISSING),
        *(f": {f}" for f in EUROSTAT_FLAGS),
        *(f": {f} " for f in EUROSTAT_FLAGS),
    ]
)
"""The symbols as a cell holds them, a space after them or not (Eurostat pads every value)."""
_ENDS = frozenset(EUROSTAT_FLAGS + STATCAN_FLAGS + "]*")
_FIRST, _LAST = itemgetter(slice(None, 1)), itemgetter(slice(-1, None))
_DIGITS = frozenset("0123456789")


def may_hold_marks(values: Sequence[str]) -> bool:
    """False only when no first value of a column is a statistics office's mark (``may_mark``) or none
    starts with a digit (a column of paths ``/``, of ``F`` and ``M``). Set tests first, which run in C:
    a symbol as written, a value that starts with a digit and one that ends as a flag does; a column of
    words, numbers or dates fails one of them (60 columns of 50 values: 2 ms to ask ``may_mark`` of each
    value, 0.1 ms so). Pure."""
    digits = not _DIGITS.isdisjoint(map(_FIRST, values))
    if _WRITTEN.isdisjoint(values) and not (digits and not _ENDS.isdisjoint(map(_LAST, values))):
        return False
    return any(map(may_mark, values)) and any(v.lstrip(" +-")[:1].isdigit() for v in values)


def may_mark(value: str) -> bool:
    """False only when ``value`` is no office's mark: neither a missing-value symbol (nor Eurostat's
    ``:`` with a flag) nor a number that ends as a flag does: a Eurostat letter after a space (``12 p``)
    or after another (``0.5 bep``), a shorthand in brackets (``123 [r]``), a StatCan letter after a
    number with a decimal mark (``12.3E``, ``1,234.5 A``), or an asterisk (``12.3*``). Pure."""
    text = value.strip(" ")
    if text in _MISSING or text[:1] == ":":
        return True
    if not text.lstrip("+-")[:1].isdigit():
        return False
    if text[-1:] == "]" or (text[-1:] == "*" and text.rstrip("* ")[-1:].isdigit()):
        return True
    decimal = "." in text or "," in text
    head, _, tail = text.rpartition(" ")
    if head.rstrip(" ")[-1:].isdigit() and 0 < len(tail) <= 3:  # after a space: 12 p, 0.5 bep, 12.3 E
        return set(tail) <= _AFTER_SPACE or (decimal and tail in _ATTACHED)
    return decimal and text[-2:-1].isdigit() and text[-1:] in _ATTACHED
