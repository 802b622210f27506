"""Does every number in an answer come from a tool? Pure functions: texts in, findings out.

A number written in an answer (read by ``agent.numbers``, whatever its format) is *grounded* when, at the
precision it is written with, it equals a number the tools returned (or the system prompt, which our code
writes from the database), or a sum, difference, ratio or percentage of two of them.

The two must be related: in the same record (one row of a table result, or one object result with
everything nested in it: revenue / orders, cancelled / orders) or in the same column or key (Pune's and
Mumbai's revenue from two calls; two months of a trend the answer cites). Pairing any two numbers of a
large result would explain almost any number: among 200 numbers some ratio lands within 0.05 of every
percentage.

Not counted: numbers the question or the tool arguments already hold ("top 5"), years the context knows,
and names the tools returned verbatim ("Pressure Cooker 3L"). What is left is *unverified*.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from analytics_agent.agent.numbers import Mention, extract_numbers, years_in
from analytics_agent.agent.results import Record, records_of, strings_with_digits
from analytics_agent.conversation import AssistantTurn, Conversation, ToolResults, UserTurn

_RELATIVE_EPSILON = 1e-9
_NOT_WORD = re.compile(r"[^\w]+")


# --- which numbers a derivation may pair -------------------------------------------------------------


def groups_for(records: Sequence[Record], answer: str, stated: Sequence[Mention]) -> list[list[float]]:
    """The groups (each sorted) within which a derivation may pair two numbers: each record's own, and
    each column or key across records. A table's rows join their columns only when the answer cites them
    (names a label of the row or states one of its numbers): in a 50-row column some ratio lands on every
    percentage."""
    words = _words(answer)
    groups = [sorted(set(r.values())) for r in records]
    columns: dict[str, list[float]] = {}
    for record in records:
        if record.in_table and not _cited(record, words, stated):
            continue
        for key, values in record.numbers.items():
            if key:
                columns.setdefault(key, []).extend(values)
    groups += [sorted(set(values)) for values in columns.values()]
    return [g for g in groups if g]


def _cited(record: Record, words: str, stated: Sequence[Mention]) -> bool:
    if any(f" {_words(label).strip()} " in words for label in record.labels):
        return True
    values = sorted(record.values())
    return any(found_directly(mention, values) for mention in stated)


def _words(text: str) -> str:
    """Lower-case words separated by single spaces, padded: ``" home kitchen "``."""
    return " " + " ".join(_NOT_WORD.sub(" ", text.casefold()).split()) + " "


# --- matching and derivations -----------------------------------------------------------------------


def _interval(mention: Mention) -> tuple[float, float]:
    slack = mention.tolerance + _RELATIVE_EPSILON * max(1.0, mention.value)
    return mention.value - slack, mention.value + slack


def _any_within(values: Sequence[float], low: float, high: float, start: int = 0) -> bool:
    """Whether sorted ``values`` (from index ``start``) has an element in [low, high]."""
    i = bisect.bisect_left(values, low, lo=start)
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


def derived(mention: Mention, groups: Iterable[Sequence[float]]) -> bool:
    """Whether the mention is a sum, difference, ratio or percentage of two members of one group."""
    return any(derived_within(mention, group) for group in groups)


def derived_within(mention: Mention, values: Sequence[float]) -> bool:
    """Whether the mention is a sum, difference, ratio or percentage (share or change) of two of
    ``values`` (sorted, absolute). Each form is a range search per value: O(n log n), not O(n^2)."""
    low, high = _interval(mention)
    if not values:
        return False
    # a + b with 0 <= b <= the largest: a lies in [low - largest, high]
    for a in values[bisect.bisect_left(values, low - values[-1]) : bisect.bisect_right(values, high)]:
        if _any_within(values, low - a, high - a):
            return True
    for a in values[bisect.bisect_left(values, low) :]:  # a - b with b >= 0: a is at least the difference
        if _any_within(values, a - high, a - low):
            return True
    ratios = [(low / 100, high / 100), (1 + low / 100, 1 + high / 100), (1 - high / 100, 1 - low / 100)]
    for r_low, r_high in ratios if mention.percent else [(low, high)]:
        if r_high > 0 and _ratio_found(values, max(r_low, 0.0), r_high):
            return True
    return False


def _ratio_found(values: Sequence[float], r_low: float, r_high: float) -> bool:
    """Some a / b (both > 0) within [r_low, r_high]: b within [a / r_high, a / r_low]."""
    start = bisect.bisect_right(values, 0.0)
    if start == len(values):
        return False
    # b lies between the smallest and the largest positive value, so a between r_low and r_high times them
    first = bisect.bisect_left(values, r_low * values[start], lo=start)
    last = bisect.bisect_right(values, r_high * values[-1], lo=start)
    for a in values[first:last]:
        if _any_within(values, a / r_high, a / r_low if r_low > 0 else math.inf, start):
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
    records = records_of(evidence.results)
    known = sorted({v for record in records for v in record.values()})
    verbatim = {s for content in evidence.results for s in strings_with_digits(content)}
    context = sorted({m.value for text in evidence.context for m in extract_numbers(text)})
    years = years_in([*evidence.results, *evidence.context])
    mentions = extract_numbers(answer, verbatim=sorted(verbatim, key=len, reverse=True))
    groups: list[list[float]] | None = None  # built only when a number is not found directly
    flagged: list[str] = []
    for mention in mentions:
        if mention.year_like and int(mention.value) in years:
            continue
        if found_directly(mention, context) or found_directly(mention, known):
            continue
        groups = groups if groups is not None else groups_for(records, answer, mentions)
        if not derived(mention, groups) and mention.text not in flagged:
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
