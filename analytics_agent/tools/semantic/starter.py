"""Write what the data shows as a starting semantic file: per table what one row is, its time column,
inferred relationships, dimensions (text columns with few, short values), a measure per numeric column
with its natural aggregate, and placeholders for units and descriptions; the business time zone when the
data tells it. Pure: catalog, relationships and profiles in, YAML text out (it parses and checks).

Not measures: ids and codes, clock times written as numbers (``dep_time`` 517 is 05:17, not an amount),
date parts (year, month, day, hour, minute), zone offsets, coordinates: a sum of any of them means nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from analytics_agent.db.relationships import Relationship
from analytics_agent.tools.aggregate.metrics import NUMERIC
from analytics_agent.tools.aggregate.time import TEMPORAL, is_zoned
from analytics_agent.tools.date_parts import parts_date

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PARTS = {"year", "month", "day", "hour", "minute", "second", "week", "quarter", "weekday", "yr"}
_NOT_MEASURE = re.compile(
    r"(^id$|_id$|^id_|_key$|^key$|_code$|^code$|zip|postal|phone|_no$|^no$|^number$|flight$|^flight"
    r"|_number$|_num$|_nr$|^num$|serial|^seq|sequence|year"
    r"|_time$|^time$|_hhmm$|^tz$|tz_?offset|utc_?offset|^offset$|timezone|^lat|^lon|latitude|longitude"
    r"|^alt$|altitude|_dir$|^dir$|direction|bearing|heading|angle)",
    re.I,
)
# Sums that mean something: amounts, quantities, durations, distances. Any other number is averaged
# (a sum of isotope ratios, ages or scores means nothing; an average of them at least reads as one).
_ADDITIVE = re.compile(
    r"(amount|revenue|sales|total|cost|spend|profit|income|paid|fee|tax|qty|quantity|units|count|^num_|^n_"
    r"|seats|items|distance|duration|minutes|seconds|hours|precip|rain|snow|volume|population|orders"
    r"|bookings|passengers|visits|clicks|views|sessions|calls|gross|net|budget|value)",
    re.I,
)
_AVERAGED = re.compile(
    r"(rate|ratio|pct|percent|share|_per_|per_\d|avg|mean|score|index|temp|humid|pressure|speed|wind"
    r"|visib|dewp|age$|price|delay|length|depth|width|height|mass|weight|size|_mm$|_cm$|_kg$|_g$|level"
    r"|discount|margin|rating|lifeexp|life_exp|gdp|percap)",
    re.I,
)
_FREE_TEXT = re.compile(r"(comment|note|remark|description|text|message|review|summary|title|body)", re.I)
MAX_DIMENSION_VALUE = 40


def _q(name: str) -> str:
    """A YAML scalar for a name (JSON strings are valid YAML)."""
    return (
        name
        if _PLAIN.match(name) and name not in ("null", "true", "false", "yes", "no")
        else json.dumps(name)
    )


def is_measure(column: str, kind: str) -> bool:
    return bool(NUMERIC.match(kind)) and column.lower() not in _PARTS and not _NOT_MEASURE.search(column)


def natural_fn(column: str) -> str:
    """avg for rates, levels and sizes (a sum of temperatures means nothing), sum for amounts,
    quantities and durations, and avg for a number whose name says neither."""
    if _AVERAGED.search(column):
        return "avg"
    return "sum" if _ADDITIVE.search(column) else "avg"


def dimensions(profile: Mapping[str, Any], kinds: Mapping[str, str]) -> list[str]:
    """Text columns whose few values are short labels, not free text (a comment is no dimension)."""
    found = []
    for c in profile.get("columns", []):
        values = c.get("values")
        name = c["name"]
        if values is None or not kinds.get(name, "").upper().startswith("VARCHAR"):
            continue
        if _FREE_TEXT.search(name) or any(len(str(v)) > MAX_DIMENSION_VALUE for v in values):
            continue
        found.append(name)
    return found


def starter_yaml(
    catalog: Mapping[str, Mapping[str, str]],
    relationships: Sequence[Relationship],
    profiles: Mapping[str, Mapping[str, Any]],
    *,
    keys: Mapping[str, str] | None = None,
    zone: tuple[str, str] | None = None,
    not_measures: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """``keys``: per table, a column found to be a unique key (what one row is). ``zone``: the business
    time zone and why (written active when the data told it, else as a commented placeholder).
    ``not_measures``: per table, numeric columns the data shows are no amount (ids, clock times), and why."""
    keys = keys or {}
    not_measures = not_measures or {}
    lines = [*_HEADER, *_zone_lines(catalog, zone), "tables:"]
    taken: set[str] = set()  # metric names are global across tables
    for table, kinds in catalog.items():
        row = f"One row per {keys[table]}" if table in keys else "One row per <what?>"
        lines += _table_lines(table, kinds, row, relationships, profiles.get(table, {}))
        skipped = {**not_measures.get(table, {})}
        if table in keys:
            skipped.setdefault(keys[table], "the key: what one row is")
        lines += _metric_lines(table, kinds, row, skipped, taken)
    return "\n".join(lines) + "\n"


_HEADER = (
    "# A starting semantic model, written from what the data shows. Edit freely: fill in the",
    "# descriptions and units, add synonyms and the metrics your business uses (names are global across",
    "# tables); then run `analytics-agent semantic check`. Metric fn: count sum avg min max",
    '# count_distinct median stddev p90 p95 p99 pct; where: "column op value and ..."; ratio: [a, b].',
)


def _zone_lines(catalog: Mapping[str, Mapping[str, str]], zone: tuple[str, str] | None) -> list[str]:
    """The zone the data told, or a commented placeholder where zoned timestamps need one."""
    if zone:
        return [f"timezone: {_q(zone[0])}  # {zone[1]}"]
    if any(is_zoned(k) for kinds in catalog.values() for k in kinds.values()):
        return ["# timezone: America/New_York  # the zone days and months of zoned timestamps are counted in"]
    return []


def _table_lines(
    table: str,
    kinds: Mapping[str, str],
    row: str,
    relationships: Sequence[Relationship],
    profile: Mapping[str, Any],
) -> list[str]:
    """A table's description, time column (or its date parts), relationships and dimensions."""
    lines = [f"  {_q(table)}:", f"    description: {json.dumps(row + '. <what the table holds>')}"]
    dated = [c for c, t in kinds.items() if TEMPORAL.match(t)]
    parts = parts_date(kinds)
    if dated:
        lines.append(f"    time_column: {_q(dated[0])}")
    elif parts:
        lines.append(f"    # time: {parts.describe()}, found from its integer parts")
    links = [r for r in relationships if r.table == table]
    if links:
        lines.append("    relationships:  # inferred, many-to-one; null removes one")
        lines += [f"      {_q(r.column)}: {_q(r.target)}.{_q(r.key)}" for r in links]
    dims = dimensions(profile, kinds)
    if dims:
        lines.append("    dimensions:  # columns worth grouping by; add synonyms people use")
        lines += [f"      {_q(c)}: {{column: {_q(c)}, synonyms: []}}" for c in dims]
    return lines


def _metric_lines(
    table: str, kinds: Mapping[str, str], row: str, skipped: Mapping[str, str], taken: set[str]
) -> list[str]:
    """The row count, then a measure per numeric column with its natural aggregate; a numeric column the
    data shows is no amount is named in a comment with the reason."""
    count = _unique(f"{table}_count", taken)
    lines = ["    metrics:", f"      {_q(count)}: {{fn: count, description: {json.dumps(row)}}}"]
    for column, kind in kinds.items():
        if column in skipped and is_measure(column, kind):
            lines.append(f"      # {_q(column)}: no measure, {skipped[column]}")
        if column in skipped or not is_measure(column, kind):
            continue
        fn = natural_fn(column)
        name = _unique(f"{'total' if fn == 'sum' else 'avg'}_{column}", taken, table)
        lines.append(
            f'      {_q(name)}: {{fn: {fn}, column: {_q(column)}, description: "<unit, what it measures>"}}'
        )
    return lines


def _unique(name: str, taken: set[str], table: str = "") -> str:
    """Metric names are global: a second ``total_amount`` is named after its table."""
    if name in taken and table:
        name = f"{table}_{name}"
    n = 2
    base = name
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


ZONE_AGREEMENT = 0.995
"""Share of sampled rows whose local hour a zone must show: a row or two at a DST gap (an hour the clock
skips, such as 02:00 on a spring-forward day, written by a generator as 03:00) must not hide the zone."""


def propose_zone(samples: Mapping[str, Sequence[tuple[float, int]]]) -> tuple[str, str] | None:
    """The IANA zone in which the sampled zoned timestamps show the hour their table's local ``hour``
    column says (column -> [(epoch seconds, hour)]) on at least ``ZONE_AGREEMENT`` of the rows, with the
    reason; None when no zone fits. Common business zones are tried first, so of zones that agree on
    every sampled row (a winter-only sample cannot tell New York from Toronto) the usual one is named."""
    import datetime as dt
    from zoneinfo import ZoneInfo, available_timezones

    preferred = [
        "UTC", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
        "America/Sao_Paulo", "Europe/London", "Europe/Paris", "Europe/Berlin", "Asia/Kolkata",
        "Asia/Shanghai", "Asia/Tokyo", "Australia/Sydney",
    ]  # fmt: skip
    others = sorted(
        z
        for z in available_timezones()
        if "/" in z
        and not z.startswith(("Etc/", "US/", "SystemV/", "posix", "right/"))
        and z not in preferred
    )
    rows = [(epoch, hour) for pairs in samples.values() for epoch, hour in pairs]
    if not rows:
        return None
    allowed = len(rows) - int(len(rows) * ZONE_AGREEMENT)
    for name in (*preferred, *others):
        zone = ZoneInfo(name)
        misses = 0
        for epoch, hour in rows:
            if dt.datetime.fromtimestamp(epoch, zone).hour != hour:
                misses += 1
                if misses > allowed:
                    break
        else:
            columns = ", ".join(samples)
            agree = f"{len(rows) - misses:,} of {len(rows):,}" if misses else f"all {len(rows):,}"
            return name, f"{columns} shows the local hour column's hour in this zone on {agree} sampled rows"
    return None
