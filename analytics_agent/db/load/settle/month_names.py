"""Month names in the languages of most European exports (``04-ene-2024``, ``15. März 2024``,
``3 janv. 2024``): DuckDB's ``strptime`` reads English names only, so such a column stayed text. A text
date column whose first values hold them is read with its month names put in English (``ene`` -> ``Jan``),
in SQL, the stored text left as written unless the column converts. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

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
_MORE = (
    # Polish: genitive after a day (Allegro's ``9 stycznia 2024, 11:46``), nominative, abbreviations
    "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
    "styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień",
    "sty lut mar kwi maj cze lip sie wrz paź lis gru",
    # Czech: genitive (``9. ledna 2024``), nominative
    "ledna února března dubna května června července srpna září října listopadu prosince",
    "leden únor březen duben květen červen červenec srpen září říjen listopad prosinec",
    # Slovak: genitive, nominative
    "januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra",
    "január február marec apríl máj jún júl august september október november december",
    # Russian: genitive (``9 января 2024 г.``), nominative, abbreviations
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
    "янв фев мар апр май июн июл авг сен окт ноя дек",
    # Ukrainian: genitive (``9 січня 2024 р.``), nominative
    "січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня",
    "січень лютий березень квітень травень червень липень серпень вересень жовтень листопад грудень",
    # Bulgarian
    "януари февруари март април май юни юли август септември октомври ноември декември",
    # Greek: genitive (``9 Ιανουαρίου 2024``), as capitals write it (no accents), nominative, abbreviations
    "ιανουαρίου φεβρουαρίου μαρτίου απριλίου μαΐου ιουνίου ιουλίου αυγούστου σεπτεμβρίου οκτωβρίου "
    "νοεμβρίου δεκεμβρίου",
    "ιανουαριου φεβρουαριου μαρτιου απριλιου μαϊου ιουνιου ιουλιου αυγουστου σεπτεμβριου οκτωβριου "
    "νοεμβριου δεκεμβριου",
    "ιανουάριος φεβρουάριος μάρτιος απρίλιος μάιος ιούνιος ιούλιος αύγουστος σεπτέμβριος οκτώβριος "
    "νοέμβριος δεκέμβριος",
    "ιαν φεβ μαρ απρ μαΐ ιουν ιουλ αυγ σεπ οκτ νοε δεκ",
    # Finnish: partitive after a day (``9. tammikuuta 2024``), nominative
    "tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta syyskuuta "
    "lokakuuta marraskuuta joulukuuta",
    "tammikuu helmikuu maaliskuu huhtikuu toukokuu kesäkuu heinäkuu elokuu syyskuu lokakuu marraskuu joulukuu",
    # Swedish, Danish, Norwegian
    "januari februari mars april maj juni juli augusti september oktober november december",
    "januar februar marts april maj juni juli august september oktober november december",
    "januar februar mars april mai juni juli august september oktober november desember",
    # Turkish, also as systems write it without its letters (``Mayis``)
    "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
    "ocak subat mart nisan mayis haziran temmuz agustos eylul ekim kasim aralik",
    # Romanian
    "ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie decembrie",
)
"""Twelve words a line, January first: the languages that write a month's name in another case after a
day (Polish, Czech, Slovak, Russian, Ukrainian, Greek, Finnish) and a few more. A month name that is
also English (``april``) is left to the English reading."""


@cache
def _words() -> tuple[dict[str, str], dict[str, str]]:
    """The month words of the other languages (lowercase, no dot) -> their English abbreviation, English's
    own words not among them; and what is read as a month: those, English's names too, which a German
    column writes beside its own (``April`` by ``März``), and abbreviations, whose dot the other
    languages write (``oct.``). Built on first use: a load whose columns hold no written date never
    needs them (0.17 ms of every load's import)."""
    local = {word: month for month, words in _MONTHS for word in words.split()}
    for line in _MORE:
        for (month, _), word, english in zip(_MONTHS, line.split(), _ENGLISH, strict=True):
            if word not in (english, month.lower()):
                local[word] = month
    read = {month.lower(): month for month, _ in _MONTHS}
    read |= {name: month for (month, _), name in zip(_MONTHS, _ENGLISH, strict=True)}
    return local, read | local


_WORD = r"(?<![^\W\d_])([^\W\d_]+)\.?(?![^\W\d_])"  # patterns, compiled on first use: most loads read none
_DAY_DOT = r"^(\d{1,2})(?:\.|er|º|°) "
"""A day's dot (``15. März``) or the first of a month as French and Spanish write it (``1er octobre``,
``1º de``): dropped."""


_OF = r"(?i)(?<=\d) del? (?=[^\W\d_])|(?<=[^\W\d_]) del? (?=\d)"
"""Spanish and Portuguese write a date's parts with ``de`` between them (``31 de marzo de 2024``)."""
_HOURS = r"(?i)(\d{1,2}:\d{2}(?::\d{2})?) ?(?:hs?|hrs?|uhr)\.?$"
"""A time's unit after it (Mercado Libre's ``14:03 hs.``, German ``14:03 Uhr``): dropped."""
_YEAR_MARK = r"(\d{4}) ?[гр]\."
"""The year's abbreviation after it (Russian ``2024 г.``, Ukrainian ``2024 р.``): dropped."""


def local_months(values: Sequence[str]) -> bool:
    """Whether some value writes a month in one of these languages. Pure."""
    return any(m[1].lower() in _words()[0] for v in values for m in re.finditer(_WORD, v))


def in_english(value: str) -> str:
    """``value`` with its month word in English and a day's dot or ordinal dropped (``15. März 2024`` ->
    ``15 Mar 2024``, ``1er octobre 2026`` -> ``1 Oct 2026``), as ``english_sql`` writes it. Pure."""
    value = re.sub(_WORD, lambda m: _words()[1].get(m[1].lower(), m[0]), value)
    value = re.sub(_YEAR_MARK, r"\1", value)
    return re.sub(_HOURS, r"\1", re.sub(_OF, " ", re.sub(_DAY_DOT, r"\1 ", value)))


def english_sql(column: str) -> str:
    """SQL: the quoted ``column``'s text as ``in_english`` writes it (RE2: ``\\pL`` is a letter)."""
    expr = f"regexp_replace({column}, '^(\\d{{1,2}})(?:\\.|er|º|°) ', '\\1 ')"
    expr = f"regexp_replace({expr}, '(\\d) (?i:del?) (\\pL)', '\\1 \\2')"
    expr = f"regexp_replace({expr}, '(\\pL) (?i:del?) (\\d)', '\\1 \\2')"
    expr = f"regexp_replace({expr}, '(\\d{{1,2}}:\\d{{2}}(?::\\d{{2}})?) ?(?i:hs?|hrs?|uhr)\\.?$', '\\1')"
    expr = f"regexp_replace({expr}, '(\\d{{4}}) ?[гр]\\.', '\\1')"
    for month, name in zip((m for m, _ in _MONTHS), _ENGLISH, strict=True):
        words = [word for word, english in _words()[0].items() if english == month]
        alternatives = "|".join(sorted([month.lower(), name, *words], key=len, reverse=True))
        expr = f"regexp_replace({expr}, '(^|[^\\pL])(?i:{alternatives})\\.?($|[^\\pL])', '\\1{month}\\2')"
    return expr
