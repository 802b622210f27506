"""Which comes first in a date column whose values fit both orders (``03/04/2024``): what the rest of the
file says (another date column read one way only, ``$`` or ``€`` amounts, a US header, dots between day and
month), or a refusal naming both readings. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analytics_agent.errors import LoadError

US_HEADERS = frozenset({"zip", "zipcode", "zip_code", "zip code", "ssn", "ein", "usd", "state_code"})
"""Column names that say a file is a US export (month-first dates)."""


class Clues:
    """What the rest of the file says about the order of day and month. (A plain class: a NamedTuple
    costs every load's import a tenth of a millisecond more.)"""

    __slots__ = ("decided", "names", "units")

    def __init__(
        self, names: Sequence[str], units: Mapping[str, str | None], decided: Mapping[str, str]
    ) -> None:
        self.names = names
        """The file's own column names."""
        self.units = units
        """Columns of amounts and their unit (``db.amounts``): ``$`` says US, ``€`` and ``£`` day-first."""
        self.decided = decided
        """Date columns whose own values decide the order: column -> ``month`` or ``day``."""

    def adding(self, decided: Mapping[str, str]) -> Clues:
        return Clues(self.names, self.units, {**self.decided, **decided})


def first_of(fmt: str) -> str:
    """``month`` or ``day``: which a format writes first. Pure."""
    return "month" if fmt.find("%m") < fmt.find("%d") else "day"


def swapped(fmt: str) -> str:
    return fmt.replace("%d", "\0").replace("%m", "%d").replace("\0", "%m")


def file_reading(clues: Clues, column: str, fmt: str) -> tuple[str | None, str]:
    """``month`` or ``day`` first for ``column`` (written in ``fmt``) by the rest of the file or the dots
    between its day and month, and the reason; (None, "") when it says nothing or contradicts itself. Pure."""
    others = {c: first for c, first in clues.decided.items() if c != column}
    if len(set(others.values())) == 1:
        other, first = next(iter(others.items()))
        return first, f"as {other}'s dates, which only fit {first}-first"
    if others:
        return None, ""
    currencies = {u for u in clues.units.values() if u}
    if "$" in currencies:
        return "month", "as the file's $ amounts say it is a US export"
    us = next((n for n in clues.names if n.strip().lower() in US_HEADERS), None)
    if us is not None:
        return "month", f"as its column {us!r} says it is a US export"
    if currencies & {"€", "£"}:
        return "day", f"as the file's {min(currencies & {'€', '£'})} amounts say"
    if "%d.%m" in fmt or "%m.%d" in fmt:  # German, Nordic, Slavic, Turkish: no country writes 03.13.2024
        return "day", "as dates written with dots are"
    return None, ""


def refusal(name: str, fmt: str, example: object) -> LoadError:
    """Both readings fit every value, they give different dates, and nothing else decides."""
    month, day = (fmt, swapped(fmt)) if first_of(fmt) == "month" else (swapped(fmt), fmt)
    return LoadError(
        f"{name}: every date fits both day-first and month-first (e.g. {example!r}) and nothing else in the "
        f"file says which; add --date-format {name}={month} if months come first (US), or "
        f"--date-format {name}={day} if days come first"
    )
