"""Text columns of two words that answer yes or no (``Yes``/``No``, ``Ja``/``Nej``, ``Да``/``Нет``,
``Ano``/``Ne``): stored as BOOLEAN and said, so a share of them is one ``avg`` away. Runs inside the
load's transaction, in DuckDB's SQL.

Both words of one pair must be in the column and nothing else: a country column of ``NO`` alone stays
text, and single letters stand only for ``Y``/``N`` and ``J``/``N`` (``S``/``N`` may be south and north)."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

PAIRS = (
    ("yes", "no"),
    ("y", "n"),
    ("ja", "nein"),
    ("j", "n"),
    ("ja", "nej"),
    ("ja", "nei"),
    ("ja", "nee"),
    ("oui", "non"),
    ("sí", "no"),
    ("si", "no"),
    ("sì", "no"),
    ("sim", "não"),
    ("sim", "nao"),
    ("да", "нет"),
    ("так", "ні"),
    ("ano", "ne"),
    ("áno", "nie"),
    ("tak", "nie"),
    ("igen", "nem"),
    ("kyllä", "ei"),
    ("jah", "ei"),  # Estonian
    ("jā", "nē"),  # Latvian
    ("taip", "ne"),  # Lithuanian
    ("da", "ne"),  # Croatian, Serbian, Slovenian, Bosnian
    ("да", "не"),  # Bulgarian, Serbian, Macedonian
    ("já", "nei"),  # Icelandic
    ("evet", "hayir"),  # Turkish as systems write it without ı
    ("evet", "hayır"),
    ("ναι", "όχι"),
    ("ναι", "οχι"),  # Greek in capitals drops the accent: ΝΑΙ/ΟΧΙ
    ("wahr", "falsch"),
    ("vrai", "faux"),
    ("verdadero", "falso"),
    ("vero", "falso"),
    ("是", "否"),
    ("예", "아니오"),
    ("はい", "いいえ"),
    ("نعم", "لا"),
    ("כן", "לא"),
    ("có", "không"),
    ("da", "nu"),
    ("ya", "tidak"),
    ("ใช่", "ไม่ใช่"),
)
"""(yes, no) in lower case, as spreadsheets and business systems write a flag in their language."""


_WORDS = frozenset(word for pair in PAIRS for word in pair)


def _pair(words: set[str]) -> tuple[str, str] | None:
    """The (yes, no) pair ``words`` (two, in lower case) are. Pure."""
    return next((pair for pair in PAIRS if set(pair) == words), None)


def settle_yes_no(
    conn: duckdb.DuckDBPyConnection, table: str, probe: dict[str, list[str]]
) -> tuple[list[str], list[str]]:
    """The columns of ``probe`` (column -> its first values) stored as BOOLEAN, and the notes that say so:
    those whose first values are all yes-or-no words and whose values in the table are two words, one
    pair's."""
    candidates = [
        name for name, values in probe.items() if values and {v.strip().lower() for v in values} <= _WORDS
    ]
    if not candidates:
        return [], []
    parts = []
    for col in map(quote_ident, candidates):
        word = f"lower(trim({col}))"
        parts += [
            f"count(DISTINCT {word})",
            f"min({word})",
            f"max({word})",
            # as written, the least of a word's spellings (Yes before yes): the same on every load
            f"arg_min({col}, ({word}, {col}))",
            f"arg_max({col}, ({word}, -ascii({col}), {col}))",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    said: dict[tuple[str, str], list[str]] = {}
    for i, name in enumerate(candidates):
        distinct, low, high, low_written, high_written = found[5 * i : 5 * i + 5]
        pair = _pair({low, high}) if distinct == 2 else None
        if pair is None:
            continue
        col = quote_ident(name)
        conn.execute(
            f"ALTER TABLE {quote_ident(table)} ALTER {col} TYPE BOOLEAN USING lower(trim({col})) = '{pair[0]}'"
        )
        written = {low: low_written.strip(), high: high_written.strip()}
        said.setdefault((written[pair[0]], written[pair[1]]), []).append(name)
    notes = []
    for (yes, no), names in said.items():
        each = " (for each such column)" if len(names) > 1 else ""
        notes.append(
            f"{', '.join(names)}: {yes!r} and {no!r} stored as BOOLEAN ({yes!r} true); add --type "
            f"{names[0]}=VARCHAR{each} to keep them as text"
        )
    return [name for names in said.values() for name in names], notes
