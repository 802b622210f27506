"""What a statement writes for its opening and closing balances, in the languages read so far: the labels
of the first and last rows (``summary_rows``) and of balance rows among the records (``balance_runs``). Pure."""

from __future__ import annotations

import re
from typing import Any

from analytics_agent.db.load.settle.plain_words import may_hold

OPENING = (
    r"(?i)(saldo (anterior|inicial|de apertura|iniziale|precedente|awal)|opening balance|previous balance"
    r"|(beginning|starting) balance|(balance )?brought forward|b/f( balance)?|balance b/f|anfangssaldo|alter saldo|vortrag"
    r"|solde (pr[ée]c[ée]dent|initial|d'ouverture|de d[ée]but)|sold (initial|anterior|precedent)|beginsaldo|ingående saldo|inngående saldo"
    r"|alkusaldo|primosaldo|saldo primo|nyitó egyenleg|devreden bakiye|önceki bakiye|açılış bakiyesi"
    r"|baki awal|số dư đầu kỳ|期初余额|期初餘額|前月繰越|前期繰越|이월 ?잔액|ยอดยกมา|προηγούμενο υπόλοιπο"
    r"|υπόλοιπο από μεταφορά|από μεταφορά|υπόλοιπο έναρξης|αρχικό υπόλοιπο"
    r"|sākuma atlikums|pradinis likutis|algsaldo"
    r"|начално салдо|входящ(ий|ее) (остаток|сальдо)|остаток на начало( периода)?|вхідний залишок"
    r"|saldo pocz[aą]tkowe|po[cč]ate[cč]n[ýy] z[uů]statek)"
    r"( (as (of|at)|on|per|at|au|am|zum|del|al) .*)?"
)
"""What a statement writes in its first row's label for the balance before the movements below, with
the day it was taken on after it (Bank of America's ``Beginning balance as of 02/01/2024``)."""
_OPENING_WORDS = ("saldo", "balance", "forward", "b/f", "vortrag", "sold", "zustatek", "baki", "likutis")
"""A word every ASCII label ``OPENING`` matches holds, in lower case (``plain_words``: the test before it)."""
CLOSING = (
    r"(?i)(saldo( (final|atual|actual|finale|do dia|disponível|akhir))?|closing balance|ending balance"
    r"|new balance|(balance )?carried forward|c/f( balance)?|balance c/f|endsaldo|neuer saldo|solde( final)?|sold final|nouveau solde"
    r"|eindsaldo|utgående saldo|loppusaldo|ultimosaldo|saldo ultimo|záró egyenleg|kapanış bakiyesi"
    r"|son bakiye|baki akhir|số dư cuối kỳ|期末余额|期末餘額|次月繰越|次期繰越|ยอดยกไป|νέο υπόλοιπο"
    r"|τελικό υπόλοιπο|υπόλοιπο λήξης|beigu atlikums|galutinis likutis|lõppsaldo|крайно салдо|исходящ(ий|ее) (остаток|сальдо)|остаток на конец( периода)?"
    r"|вихідний залишок|saldo ko[nń]cowe|kone[cč]n[ýy] z[uů]statek)"
    r"( (as (of|at)|on|per|at|au|am|zum|del|al) .*)?"
)
"""What a statement writes in its last row's label for the balance after the movements above; the label
with the spaces of a spaced-out word taken out (``S A L D O``). Turkish ``Devreden Bakiye`` opens (the
balance carried in), Japanese ``前月繰越`` too, ``次月繰越`` closes."""


def label_of(value: Any) -> str:
    """A label as the patterns read it: its ends' spaces and colons off, a spaced-out word joined
    (``S A L D O``). Pure."""
    text = str(value).strip(" :")
    if text[1:2] == " " and re.fullmatch(r"(\w ){2,}\w", text):  # S A L D O
        text = text.replace(" ", "")
    return text


def is_opening(label: str) -> bool:
    """Whether a first row's label says an opening balance (``OPENING``). Pure."""
    return may_hold(label, _OPENING_WORDS) and re.fullmatch(OPENING, label) is not None
