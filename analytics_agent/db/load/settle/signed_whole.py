"""Whole numbers each written with its sign (Kaspi's bonuses ``+150``, a score's ``+3``/``-2``): DuckDB's reader
keeps a column with a plus text, and a sum over it is refused. A column whose every value is a whole number of
six digits at most, with a sign and no leading zero, some signed with a plus, is a signed quantity: stored as
BIGINT and said in one line with the option that keeps the text. A phone number or a dialling code is
written with a plus too: longer digit runs (``+442079460958``), digits in groups (``+44 20 7946 0958``) or a
header that names a phone, a code or a time zone (``Country code``: ``+44``; ``UTC offset``: ``+1000``, ten
hours) keep the column text, with the odd-value check's note naming the ``--type`` that reads it. Runs inside
the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.amount_forms import literal
from analytics_agent.db.load.settle.convert_all import convert_all

_SIGNED = "[ ]*[+\u2212-](?:0|[1-9][0-9]{0,5})[ ]*"
"""A whole number with its sign (the hyphen or U+2212), no leading zero (``+007`` is a code), six digits at
most (the shortest international phone number has eight)."""
_NOT_QUANTITIES = (
    "phone", "tel", "fax", "mobil", "cell", "handy", "gsm", "msisdn", "whatsapp", "contact", "dial", "prefix",
    "prefijo", "indicatif", "vorwahl", "länder", "country", "code", "isd", "utc", "gmt", "tz",
    "timezone", "zone", "offset", "телеф", "тел", "моб", "код", "τηλ", "κινητ", "κωδ", "電話", "전화", "携帯",
)  # fmt: skip
"""Beginnings of a header's words that name what is written with a plus but is no quantity: a phone
number, a dialling code (``+44``), a code, a time zone's offset (``+1000``: ten hours)."""


def _no_quantity(name: str) -> bool:
    """Whether a header word begins as a phone, code or time zone's does. Pure."""
    return any(word.startswith(_NOT_QUANTITIES) for word in re.split(r"[\W_]+", name.lower()) if word)


def signed_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The columns whose first values are all whole numbers with a sign (``_SIGNED``), some a plus, under a
    header that names no phone, code or time zone. Pure."""
    return [
        name
        for name, values in probe.items()
        if values
        and any(v.lstrip()[:1] == "+" for v in values)
        and all(re.fullmatch(_SIGNED, v) for v in values)
        and not _no_quantity(name)
    ]


def settle_signed_whole(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> tuple[list[str], list[str]]:
    """The columns of ``columns`` stored as BIGINT (every value in the table a whole number with its sign),
    and one note for them."""
    converted = convert_all(
        conn,
        table,
        columns,
        fits=lambda col: f"regexp_full_match({col}, {literal(_SIGNED)})",
        # the example: a plus before a digit but a lone 0, if one is
        example=lambda col: (
            f"coalesce(min({col}) FILTER (WHERE regexp_matches({col}, '^ *[+][1-9]')), "
            f"min({col}) FILTER (WHERE starts_with(trim({col}), '+')))"
        ),
        # TRY_CAST: rows deleted in this load (--drop-totals) are rewritten by the ALTER too
        value=lambda col: f"TRY_CAST(replace(trim({col}), '\u2212', '-') AS BIGINT)",
        kind="BIGINT",
    )
    if not converted:
        return [], []
    done, examples = [name for name, _ in converted], [written.strip() for _, written in converted]
    each = " (for each such column)" if len(done) > 1 else ""
    return done, [
        f"{', '.join(done)}: whole numbers each written with its sign, like {examples[0]!r}, stored as BIGINT "
        f"(signed quantities, not phone numbers or codes); add --type {done[0]}=VARCHAR{each} to keep them as text"
    ]
