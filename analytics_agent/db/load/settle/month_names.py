"""Month names in the languages of most European exports (``04-ene-2024``, ``15. März 2024``,
``3 janv. 2024``): DuckDB's ``strptime`` reads English names only, so such a column stayed text. A text
date column whose first values hold them is read with its month names put in English (``ene`` -> ``Jan``),
in SQL, the stored text left as written unless the column converts. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

_MONTHS = (
    # Spanish, German, French, Italian, Portuguese, Dutch (abbreviations and full names), per month
    ("Jan", "ene enero jän jänner januar janv janvier gen gennaio janeiro januari"),
    ("Feb", "febrero februar févr fevr février fevrier febbraio fev fevereiro februari"),
    ("Mar", "marzo mär märz mrz mars março marco maart mrt"),
    ("Apr", "abr abril avr avril aprile"),
    ("May", "mayo mai maggio mag maio mei"),
    ("Jun", "junio juni juin giu giugno junho"),
    ("Jul", "julio juli juil juillet lug luglio julho"),
    ("Aug", "ago agosto août aout augustus"),
    ("Sep", "sept septiembre setiembre septembre set settembre setembro"),
    ("Oct", "octubre okt oktober octobre ott ottobre out outubro"),
    ("Nov", "noviembre novembre novembro"),
    ("Dec", "dic diciembre dez dezember déc dec décembre decembre dicembre dezembro december"),
)
_LOCAL = {word: month for month, words in _MONTHS for word in words.split()}
"""A month word (lowercase, no dot) -> its English abbreviation; English's own words are not here."""
_ENGLISH = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_READ = {
    **{month.lower(): month for month, _ in _MONTHS},
    **{name: month for (month, _), name in zip(_MONTHS, _ENGLISH, strict=True)},
    **_LOCAL,
}
"""What is read as a month: also English's names, which a German column writes beside its own (``April``
by ``März``), and abbreviations, whose dot the other languages write (``oct.``)."""
_WORD = r"(?<![^\W\d_])([^\W\d_]+)\.?(?![^\W\d_])"  # patterns, compiled on first use: most loads read none
_DAY_DOT = r"^(\d{1,2})(?:\.|er|º|°) "
"""A day's dot (``15. März``) or the first of a month as French and Spanish write it (``1er octobre``,
``1º de``): dropped."""


_OF = r"(?i)(?<=\d) del? (?=[^\W\d_])|(?<=[^\W\d_]) del? (?=\d)"
"""Spanish and Portuguese write a date's parts with ``de`` between them (``31 de marzo de 2024``)."""
_HOURS = r"(?i)(\d{1,2}:\d{2}(?::\d{2})?) ?(?:hs?|hrs?|uhr)\.?$"
"""A time's unit after it (Mercado Libre's ``14:03 hs.``, German ``14:03 Uhr``): dropped."""


def local_months(values: Sequence[str]) -> bool:
    """Whether some value writes a month in one of these languages. Pure."""
    return any(m[1].lower() in _LOCAL for v in values for m in re.finditer(_WORD, v))


def in_english(value: str) -> str:
    """``value`` with its month word in English and a day's dot or ordinal dropped (``15. März 2024`` ->
    ``15 Mar 2024``, ``1er octobre 2026`` -> ``1 Oct 2026``), as ``english_sql`` writes it. Pure."""
    value = re.sub(_WORD, lambda m: _READ.get(m[1].lower(), m[0]), value)
    return re.sub(_HOURS, r"\1", re.sub(_OF, " ", re.sub(_DAY_DOT, r"\1 ", value)))


def english_sql(column: str) -> str:
    """SQL: the quoted ``column``'s text as ``in_english`` writes it (RE2: ``\\pL`` is a letter)."""
    expr = f"regexp_replace({column}, '^(\\d{{1,2}})(?:\\.|er|º|°) ', '\\1 ')"
    expr = f"regexp_replace({expr}, '(\\d) (?i:del?) (\\pL)', '\\1 \\2')"
    expr = f"regexp_replace({expr}, '(\\pL) (?i:del?) (\\d)', '\\1 \\2')"
    expr = f"regexp_replace({expr}, '(\\d{{1,2}}:\\d{{2}}(?::\\d{{2}})?) ?(?i:hs?|hrs?|uhr)\\.?$', '\\1')"
    for (month, words), name in zip(_MONTHS, _ENGLISH, strict=True):
        alternatives = "|".join(sorted([month.lower(), name, *words.split()], key=len, reverse=True))
        expr = f"regexp_replace({expr}, '(^|[^\\pL])(?i:{alternatives})\\.?($|[^\\pL])', '\\1{month}\\2')"
    return expr
