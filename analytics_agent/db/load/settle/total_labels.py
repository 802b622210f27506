"""How a spreadsheet labels a totals or subtotal row, in a few languages: the text a footer's row is
named by before its numbers are checked against the rows above (``totals``). Pure."""

from __future__ import annotations

import re

from analytics_agent.db.load.settle.plain_words import may_hold

TOTAL_LABEL = (
    r"(?i)(grand[ _-]?)?totals?|sum|summe|gesamt(summe|ergebnis)?|insgesamt|total g[ée]n[ée]ral|(eind)?totaal|totale"
    r"|suma|razem|summa|totalt|итого|всего|обороти|обороты|обороти за период|обороты за период|合計|総計|合计|总计|總計"
    r"|小計|小计|共計|共计|합계|소계|총계"
    r"|totales|celkem|celkom|összesen|yhteensä|toplam|σύνολα|σύνολο|i alt|в[сc]ього|razem|ukupno|skupaj|kopā"
    r"|iš viso|kokku|סה\"כ|סך הכל|المجموع|الإجمالي|tổng cộng|tổng|รวม|ยอดรวม|jumlah|kabuuan|razem ogółem"
)
"""What a spreadsheet writes in a totals row's label cell, in a few languages (a trailing colon aside):
German Excel's pivot writes ``Gesamtergebnis``, Japanese ``合計``, Czech ``Celkem``, Greek ``Σύνολα``; a
subtotal's ``小計`` (Chinese, Japanese: a Taiwanese bill's last row) and Korean ``소계`` count too."""
_SUBTOTAL_WORDS = (
    r"sub[ _-]?totals?|zwischensumme|totals?|summe|gesamt|insgesamt|ergebnis|итого|всего|razem|suma|summa|totaal"
    r"|toplam[ıi]?|yhteensä|(mind)?összesen|celkem|celkom|ukupno|skupaj|kokku|totalt|i alt|σύνολο|rulaj"
    r"|общо|обороти|обороты|apgrozījums|apyvarta|käive"
)
_CJK_SUBTOTAL = r"小計|小计|合計|合计|總計|总计|総計|소계|합계|총계"
"""Chinese, Japanese and Korean write no space before the word: ``北區小計``, ``1月合計``, ``서울 소계``. Last
in the label (a colon or a space after it aside), as these languages put it."""
SUBTOTAL = rf"(?i)^.*\b({_SUBTOTAL_WORDS})\b.*$|^.*({_CJK_SUBTOTAL})[\s:：]*$"
"""A subtotal row's label: the word anywhere (``Subtotal``, ``North Total``, ``Total North``, ``North
Subtotal``, ``Subtotal: North``, ``North (total)``, Turkish ``Mart Toplamı``, ``Genel Toplam``, German
Excel's pivot ``Nord Ergebnis``, a Romanian statement's daily turnover ``Rulaj zi``). Loose on purpose: the rows so labelled count as
subtotals only when their sums and the other rows' sums each equal the totals row. (Only a label ending
or starting in a separate word used to count: ``North Subtotal`` rows were summed as data, 1050 for 350.)"""
SUBTOTAL_SQL = rf"(?i)^(.*[^\pL])?({_SUBTOTAL_WORDS})([^\pL].*)?$|^.*({_CJK_SUBTOTAL})[\s:：]*$"
"""``SUBTOTAL`` in DuckDB's RE2, whose ``\b`` is a boundary of ASCII words only (``Итого по группе``)."""
_SUBTOTAL_PY = rf"(?i)^(.*[\W\d_])?({_SUBTOTAL_WORDS})([\W\d_].*)?$|^.*({_CJK_SUBTOTAL})[\s:：]*$"
r"""``SUBTOTAL_SQL`` in Python's re, which has no ``\pL``: a character that is no letter is ``[\W\d_]``."""
_WORDS = (
    "total", "sum", "gesamt", "ergebnis", "totaal", "razem", "celkem", "celkom", "toplam", "i alt", "ukupno", "skupaj",
    "kokku", "jumlah", "kabuuan", "rulaj", "apyvarta"
)  # fmt: skip
"""A word every ASCII text either pattern matches holds, in lower case (``plain_words``: the test before
them; ``sum`` stands for ``summe``, ``suma``, ``summa`` and ``zwischensumme``)."""


def is_total_label(value: str) -> bool:
    """A totals row's label (``Total``, ``Summe:``, and the word among others: ``Company Total``, ``Total:
    all campaigns``): the row's numbers are checked against the rows above before it is called one. Pure."""
    text = value.strip(" :")
    if not may_hold(text, _WORDS):  # most cells: neither regex is compiled
        return False
    return re.fullmatch(TOTAL_LABEL, text) is not None or re.fullmatch(SUBTOTAL, text) is not None


def holds_subtotal_sql_label(values: list[str]) -> bool:
    """Whether DuckDB's ``regexp_full_match(value, SUBTOTAL_SQL)`` holds for one of ``values``, asked here
    of a column's first values read (a query with the pattern compiled the big case-blind regex for each
    column: 8 ms of CPU a load). One plain test of them all first: most columns hold none of the words.
    Never False where DuckDB says True; True where Python's case folding takes a Turkish ``İ`` or ``ı``
    for ``i`` and RE2's does not (the rows are asked again in SQL). Pure."""
    if not values or not may_hold("\n".join(values), _WORDS):
        return False
    return any(may_hold(v, _WORDS) and re.fullmatch(_SUBTOTAL_PY, v) is not None for v in values)


_RUNNING_WORDS = (
    r"year[ -]to[ -]date|ytd|ytd total|total ytd|cumulative( total)?|running total|kumuliert|cumul( annuel)?"
    r"|acumulado( (anual|del a[ñn]o))?|progressivo|kumulativ|с начала года|narastająco"
)
_CJK_RUNNING = r"累计|累計|누계"
RUNNING_SQL = rf"(?i)^\s*({_RUNNING_WORDS})[\s:：]*$|^.*({_CJK_RUNNING})(发生额|發生額)?[\s:：]*$"
"""A running total's label: a ledger's year-to-date row after each month's total (Kingdee's and Yonyou's
``本年累计`` under ``本期合计``, ``累計``, Korean ``누계``, ``Year to date``), whose numbers are the sums of
every record of the year so far. Read in DuckDB's RE2 and Python's re alike."""
_RUNNING_ASCII = ("year", "ytd", "cumul", "running", "kumul", "acumulado", "progressivo", "narastaj")


def holds_running_label(values: list[str]) -> bool:
    """Whether one of a column's first ``values`` is a running total's label (``RUNNING_SQL``). Pure."""
    if not values or not may_hold("\n".join(values), _RUNNING_ASCII):
        return False
    return any(re.fullmatch(RUNNING_SQL, v) is not None for v in values)
