"""Does every number in an answer come from a tool? Pure functions: text in, findings out.

A number written in an answer is *grounded* when, at the precision it is written with, it equals a
number the tools returned (or the system prompt, which our code writes from the database), or a sum,
difference, ratio or percentage of two of them. Formats do not matter: ``4,798``, ``4798.0``,
``₹4,798``, ``4.8k``, ``23.7 %``, ``1.2 million``, ``1.2 lakh`` and ``12,34,567`` are read as numbers.

Not counted: numbers the question or the tool arguments already hold ("top 5"), dates and times,
identifiers (``A-1042``, ``Q3``), list markers, ordinals, and names the tools returned verbatim
("Pressure Cooker 3L"). What is left is *unverified*: shown to the user, never silently trusted.

"Written precision" is half a unit of the last digit shown: ``4.8k`` stands for 4,750-4,850 and
``23.7%`` for 23.65-23.75. After a hedge ("about 42,000") trailing zeros are not significant.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from analytics_agent.conversation import AssistantTurn, Conversation, ToolResults, UserTurn

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_TO = r"(?:-|–|—|to|until|through|and)"
_CURRENCY_WORD = r"(?:Rs|INR|USD|EUR|GBP)"
# Spans that hold digits but are no quantity: each alternative is one kind of token.
_NOT_QUANTITIES = re.compile(
    "|".join(
        [
            r"\d{4}-\d{2}(?:-\d{2})?(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?",  # ISO dates and months
            r"\d{4}-W\d{2}",  # ISO weeks
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
_GLUED_NEEDS_CURRENCY = {"l", "cr"}  # "3L" is a pressure cooker's litres unless a currency says rupees
_RELATIVE_EPSILON = 1e-9


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
    hedged = bool(_HEDGE.search(text[: match.start()]))
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


# --- numbers the tools returned -------------------------------------------------------------------


def numbers_in_result(content: str) -> list[float]:
    """Every number in a tool result: JSON numbers, numbers inside its strings, and list lengths
    (a model may count rows). Not JSON (an error sentence): the numbers written in it."""
    try:
        value = json.loads(content)
    except ValueError:
        return [m.value for m in extract_numbers(content)]
    found: list[float] = []
    _walk(value, found)
    return found


def _walk(value: Any, found: list[float]) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        if math.isfinite(value):
            found.append(abs(float(value)))
    elif isinstance(value, str):
        found.extend(m.value for m in extract_numbers(value))
    elif isinstance(value, list):
        found.append(float(len(value)))
        for item in value:
            _walk(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _walk(item, found)


def strings_with_digits(content: str) -> list[str]:
    """String values of a JSON result that contain digits (names like "Pen Drive 64GB"), longest first."""
    try:
        value = json.loads(content)
    except ValueError:
        return []
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any(c.isdigit() for c in item) and any(c.isalpha() for c in item) and len(item) <= 120:
                found.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return sorted(found, key=len, reverse=True)


# --- matching and derivations -----------------------------------------------------------------------


def _interval(mention: Mention) -> tuple[float, float]:
    slack = mention.tolerance + _RELATIVE_EPSILON * max(1.0, mention.value)
    return mention.value - slack, mention.value + slack


def _any_within(values: Sequence[float], low: float, high: float) -> bool:
    """Whether sorted ``values`` has an element in [low, high]."""
    i = bisect.bisect_left(values, low)
    return i < len(values) and values[i] <= high


def matches(mention: Mention, value: float) -> bool:
    """Whether ``value`` written at the mention's precision is the mention (a percent also as a ratio)."""
    low, high = _interval(mention)
    x = abs(value)
    return low <= x <= high or (mention.percent and low <= 100 * x <= high)


def found_directly(mention: Mention, values: Sequence[float]) -> bool:
    """``values`` sorted ascending, absolute."""
    low, high = _interval(mention)
    if _any_within(values, low, high):
        return True
    return mention.percent and _any_within(values, low / 100, high / 100)


def derived(mention: Mention, values: Sequence[float]) -> bool:
    """Whether the mention is a sum, difference, ratio or percentage of two of ``values`` (sorted, absolute).

    Each form is a range search per value (bisect), so the cost is O(n log n), not O(n^2).
    """
    low, high = _interval(mention)
    for a in values:
        if _any_within(values, low - a, high - a):  # a + b
            return True
        if _any_within(values, a - high, a - low):  # a - b
            return True
    ratios = [(low / 100, high / 100), (1 + low / 100, 1 + high / 100), (1 - high / 100, 1 - low / 100)]
    for r_low, r_high in ratios if mention.percent else [(low, high)]:
        if r_high > 0 and _ratio_found(values, max(r_low, 0.0), r_high):
            return True
    return False


def _ratio_found(values: Sequence[float], r_low: float, r_high: float) -> bool:
    """Some a / b (both > 0) within [r_low, r_high]: b within [a / r_high, a / r_low]."""
    start = bisect.bisect_right(values, 0.0)
    for a in values[start:]:
        b_low = a / r_high
        b_high = a / r_low if r_low > 0 else math.inf
        i = bisect.bisect_left(values, b_low, lo=start)
        if i < len(values) and values[i] <= b_high:
            return True
    return False


# --- the check ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """What an answer may draw on."""

    results: Sequence[str]
    """Texts our code produced from the data: tool results, the system prompt."""
    context: Sequence[str]
    """Texts whose numbers are not facts to verify: the question(s), tool call arguments."""


def unverified_numbers(answer: str, evidence: Evidence) -> list[str]:
    """The numbers in ``answer`` that no tool result explains, as written, each once, in order."""
    verbatim: set[str] = set()
    values: list[float] = []
    for content in evidence.results:
        verbatim.update(strings_with_digits(content))
        values.extend(numbers_in_result(content))
    known = sorted(set(values))
    context = sorted({m.value for text in evidence.context for m in extract_numbers(text)})
    years = years_in([*evidence.results, *evidence.context])
    mentions = extract_numbers(answer, verbatim=sorted(verbatim, key=len, reverse=True))
    flagged: list[str] = []
    for mention in mentions:
        if mention.year_like and int(mention.value) in years:
            continue
        if found_directly(mention, context) or found_directly(mention, known) or derived(mention, known):
            continue
        if mention.text not in flagged:
            flagged.append(mention.text)
    return flagged


def evidence_from(conversation: Conversation) -> Evidence:
    """What the answers of a conversation may draw on: its tool results and system prompt (written by
    our code from the database); its questions and the tool arguments as context. A chat's later answer
    may rest on an earlier question's results, so the whole conversation counts."""
    results: list[str] = [conversation.system]
    context: list[str] = []
    for message in conversation.messages:
        if isinstance(message, UserTurn):
            context.append(message.text)
        elif isinstance(message, AssistantTurn):
            context.extend(call.arguments for call in message.tool_calls)
        elif isinstance(message, ToolResults):
            results.extend(result.content for result in message.results)
    return Evidence(results=results, context=context)
