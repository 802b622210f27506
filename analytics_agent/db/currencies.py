"""The currency signs an amount is written with, in one place: the amount patterns (``amount_forms``) and the
load's quick look at a column's first values (``load.settle.columns``, which imports this alone: the
patterns stay off loads without amounts)."""

SYMBOLS = "€£¥₹₩₽₺₪₫฿₱₦₴₸₲﷼￥￡"
"""One-character currency symbols (``$`` apart: ``US$``, ``R$`` are read with it), the full-width yen and pound
Japanese exports write (``￥1,450``) and the guaraní's ``₲`` among them."""
LOCAL_UNITS = (
    "kr", "zł", "Fr", "Ft", "Kč", "lei", "Rp", "KSh", "TL", "RM", "лв", "грн", "ر.س", "د.إ", "ج.م", "원", "円", "元",
    "S/.", "S/", "B/.", "Bs.", "Bs", "Gs.", "Gs",
)  # fmt: skip
"""Currencies written as their local abbreviation: krona/krone, złoty, franc, forint, koruna, leu, rupiah,
Kenyan shilling, Turkish lira (Garanti's ``-1.234,56 TL``), ringgit, lev, hryvnia, riyal (``36,818.15 ر.س``),
dirham, Egyptian pound, and the won, yen and yuan as Korean, Japanese and Chinese bills write them after the
number (``1,234원``, ``1,234円``, ``1,234元``); Latin America's written with a slash or a point: the Peruvian
sol (``S/ 1,944.58``, older ``S/.``), Panama's balboa (``B/.``), the bolívar and boliviano (``Bs.``, ``Bs``)
and the guaraní (``Gs.``). The Dominican peso's ``RD$`` is read with ``$``. A longer spelling is listed before
the shorter it starts with (``S/.`` before ``S/``): the patterns take the first that fits."""
