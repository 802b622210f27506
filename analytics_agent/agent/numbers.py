"""Numbers as people write them: ``4,798``, ``4798.0``, ``₹4,798``, ``4.8k``, ``23.7 %``, ``1.2 million``,
``1.2 lakh``, ``12,34,567``. Pure: text in, mentions out.

Not quantities, so never read: dates and times (``2026-10-24``, ``24 Oct 2026``, ``19-25 Oct``, ``10:30``),
identifiers (``A-1042``, ``Q3``, ``FY26``), ordinals, list markers, and product-like tokens (``64GB``,
``4.8kg``). "Written precision" is half a unit of the last digit shown: ``4.8k`` stands for 4,750-4,850
and ``23.7%`` for 23.65-23.75; after a hedge ("about 42,000") trailing zeros are not significant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# A day of a month (1-31) standing alone: "Jan 33.51" is a month's value, not a 33rd of January.
_DAY = r"(?<![\d.,])(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?(?![.,]?\d)"
_TO = r"(?:-|–|—|to|until|through|and)"
_CURRENCY_WORD = r"(?:Rs|INR|USD|EUR|GBP)"
# Spans that hold digits but are no quantity: each alternative is one kind of token.
_NOT_QUANTITIES = re.compile(
    "|".join(
        [
            r"\d{4}-\d{2}(?:-\d{2})?(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?",  # ISO dates and months
            r"\d{4}-W\d{2}",  # ISO weeks
            r"\bweek\s+\d{1,2}\b",  # week 43
            r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b",  # 24/10/2026, 24.10.2026
            rf"\b{_DAY}\s*{_TO}\s*{_DAY}\s+(?:of\s+)?{_MONTH}",  # 19-25 Oct, 1 to 15 October
            rf"\b{_MONTH}\s+{_DAY}\s*{_TO}\s*{_DAY}\b",  # Oct 19-25
            rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?(?![\w])",  # 24 Oct 2026, 24th of October
            rf"\b{_MONTH}\s+{_DAY}(?:,?\s+\d{{4}})?\b",  # Oct 24, 2026
            rf"\b{_MONTH}\s+\d{{4}}\b",  # October 2026
            r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?",  # times
            r"\b\d{1,2}\s*[ap]\.?m\b\.?",  # 5 pm
            rf"\b(?!{_CURRENCY_WORD}\b)[A-Za-z]+[-_]?\d[\w-]*",  # A-1042, C-00042, Q3, FY26, qwen3
            r"\b\d+(?:st|nd|rd|th)\b",  # ordinals
            r"^\s*(?:[-*]\s+)?\d{1,2}[.)](?=\s)",  # list markers
            r"#\d+\b",  # #1
            r"\b(?:last|past|previous|next|within)\s+\d+\s+(?:days?|weeks?|months?|quarters?|years?)\b",
        ]
    ),
    re.IGNORECASE | re.MULTILINE,
)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")

_SCALES = {
    "k": 1e3, "thousand": 1e3,
    "m": 1e6, "mn": 1e6, "million": 1e6,
    "b": 1e9, "bn": 1e9, "billion": 1e9,
    "l": 1e5, "lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5,
    "cr": 1e7, "crore": 1e7, "crores": 1e7,
}  # fmt: skip
_NUMBER = re.compile(
    r"""
    (?<![\w.,])
    (?P<currency>(?:₹|\$|€|£|(?:Rs\.?|INR|USD|EUR|GBP)\s?)\s?)?
    (?>  # atomic: "4.8kg" is no number at all, not "4" followed by ".8kg"
        (?P<digits>\d{1,3}(?:,\d{3})+(?!,?\d)|\d{1,2}(?:,\d{2})+,\d{3}(?!,?\d)|\d+|(?=\.\d))
        (?P<decimals>\.\d+)?
    )
    (?:
        (?P<percent>\s?(?:%|per\s?cent\b|pct\b|percentage\s+points?\b|pp\b))
      | (?P<glued>k|K|M|mn|bn|B|L|Cr|cr)(?![\w])
      | \s(?P<word>thousand|million|billion|lakhs?|lacs?|crores?|mn|bn|cr)\b
      | (?:x|×)(?![\w])  # 2.3x: a ratio, read as the number
      | (?![\w])
    )
    """,
    re.VERBOSE,
)
_HEDGE = re.compile(
    r"(?:about|around|roughly|approximately|approx\.?|nearly|almost|over|under|more than|less than|"
    r"close to|some|~|≈)\s*$",
    re.IGNORECASE,
)
_HEDGE_WINDOW = 20  # characters before a number that may hold "approximately"
_GLUED_NEEDS_CURRENCY = {"l", "cr"}  # "3L" is a pressure cooker's litres unless a currency says rupees


@dataclass(frozen=True)
class Mention:
    """One number as written in a text."""

    text: str
    """As written, e.g. ``₹4.8k`` or ``23.7 %``."""
    value: float
    """Its size in plain units (absolute: signs are read as words like "fell" as often as "-")."""
    tolerance: float
    """Half a unit of the last digit written, in plain units."""
    percent: bool = False
    year_like: bool = False
    """A bare 4-digit number 1900-2099: a year unless the context knows no such year."""


def extract_numbers(text: str, *, verbatim: Iterable[str] = ()) -> list[Mention]:
    """The numbers written in ``text``, skipping dates, identifiers, ordinals and list markers.

    Args:
        text: any prose.
        verbatim: strings to skip wherever they occur (names with digits, such as "Pen Drive 64GB").
    """
    masked = _mask(text, verbatim)
    found = []
    for match in _NUMBER.finditer(masked):
        mention = _mention(match, masked)
        if mention is not None:
            found.append(mention)
    return found


def _mask(text: str, verbatim: Iterable[str]) -> str:
    blank = lambda m: " " * len(m.group(0))  # noqa: E731 - keeps offsets, so hedges still read right
    for literal in verbatim:
        if literal and literal in text:
            text = text.replace(literal, " " * len(literal))
    return _NOT_QUANTITIES.sub(blank, text)


def _mention(match: re.Match[str], text: str) -> Mention | None:
    digits, decimals = match["digits"], match["decimals"] or ""
    if not digits and not decimals:
        return None
    glued = (match["glued"] or "").lower()
    if glued in _GLUED_NEEDS_CURRENCY and not match["currency"]:
        return None
    scale = _SCALES.get(glued or (match["word"] or "").lower(), 1.0)
    number = float((digits.replace(",", "") or "0") + decimals)
    places = len(decimals) - 1 if decimals else 0
    unit = 10.0**-places
    hedged = bool(_HEDGE.search(text[max(0, match.start() - _HEDGE_WINDOW) : match.start()]))
    if hedged and not decimals and number:
        unit = 10.0 ** _trailing_zeros(digits.replace(",", ""))
    plain = not (match["currency"] or match["percent"] or glued or match["word"] or decimals or "," in digits)
    return Mention(
        text=match.group(0).strip(),
        value=number * scale,
        tolerance=unit / 2 * scale,
        percent=bool(match["percent"]),
        year_like=plain and len(digits) == 4 and 1900 <= number <= 2099,
    )


def _trailing_zeros(digits: str) -> int:
    return len(digits) - len(digits.rstrip("0"))


def years_in(texts: Iterable[str]) -> set[int]:
    """Every year written in dates or as a bare year in these texts."""
    return {int(y) for text in texts for y in _YEAR.findall(text)}
