"""Writes the three export files of this set (run once; the files are committed): a US invoice export
(``$1,234.50``, ``12%``, month-first dates, CRLF, an Excel totals row), a German point-of-sale export in
Windows-1252 (``;``, ``1.234,56 €``, ``5,0 %``, ``31.01.2024``, a ``Summe`` footer) and a budget report
with a three-line preamble and accounting negatives (``(5,264.92)``, ``-2.9%``). Generated with a fixed
seed: the shapes are those of real exports, the values are made up.

Run: python tests/data/heldout_v6_exports/make_files.py
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _german(x: float) -> str:
    return f"{x:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")


def invoices(rng: random.Random) -> None:
    regions = {
        "Northwind Traders": "West", "Contoso Ltd": "East", "Fabrikam Inc": "East", "Adventure Works": "West",
        "Tailspin Toys": "South", "Wide World Importers": "South", "Litware Inc": "Central", "Proseware": "Central",
    }  # fmt: skip
    lines = ["Invoice #,Customer,Region,Invoice Date,Amount,Discount,Status"]
    total = 0.0
    for i in range(240):
        customer = rng.choice(sorted(regions))
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randrange(366))
        amount = round(rng.uniform(120, 9800), 2)
        total += amount
        discount = rng.choice([0, 5, 10, 12, 15, 20])
        status = rng.choice(["Paid", "Paid", "Paid", "Open", "Overdue"])
        lines.append(
            f'INV-{24000 + i},{customer},{regions[customer]},{day:%m/%d/%Y},"{_money(amount)}",{discount}%,{status}'
        )
    lines.append(f',Total,,,"{_money(total)}",,')
    (HERE / "invoices.csv").write_bytes(("\r\n".join(lines) + "\r\n").encode())


def umsatz(rng: random.Random) -> None:
    products = ["Käse", "Brötchen", "Müsli", "Würstchen", "Apfelsaft", "Kaffee", "Tee", "Schokolade"]
    stores = ["München", "Köln", "Düsseldorf", "Nürnberg"]
    lines = ["Datum;Filiale;Produkt;Menge;Umsatz;Rabatt"]
    total = 0.0
    for _ in range(300):
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randrange(200))
        quantity = rng.randint(1, 40)
        revenue = round(quantity * rng.uniform(0.8, 14.5), 2)
        total += revenue
        rebate = f"{rng.choice([0, 2.5, 5, 7.5]):.1f}".replace(".", ",")
        store, product = rng.choice(stores), rng.choice(products)
        lines.append(f"{day:%d.%m.%Y};{store};{product};{quantity};{_german(revenue)} €;{rebate} %")
    lines.append(f"Summe;;;;{_german(total)} €;")
    text = "\r\n".join(lines) + "\r\n"
    (HERE / "umsatz.csv").write_bytes(text.encode("cp1252"))
    # the ground truth's copy: plain DuckDB reads no Windows-1252 (its latin-1 refuses the euro sign, 0x80)
    (HERE / "truth").mkdir(exist_ok=True)
    (HERE / "truth" / "umsatz-utf8.csv").write_bytes(text.encode())


def budget(rng: random.Random) -> None:
    departments = [
        "Marketing",
        "Sales",
        "Engineering",
        "Support",
        "Finance",
        "HR",
        "Legal",
        "Operations",
        "IT",
    ]
    lines = [
        "Acme Corp - FY2024 Budget vs Actual",
        "Prepared by Finance, exported 2025-01-15",
        "",
        "Department,Quarter,Budget,Actual,Variance,Variance %",
    ]

    def accounting(x: float) -> str:
        return f'"({abs(x):,.2f})"' if x < 0 else f'"{x:,.2f}"'

    for department in departments:
        for quarter in range(1, 5):
            planned = round(rng.uniform(50_000, 400_000), 2)
            actual = round(planned * rng.uniform(0.8, 1.2), 2)
            variance = round(actual - planned, 2)
            lines.append(
                f"{department},Q{quarter},{accounting(planned)},{accounting(actual)},{accounting(variance)},"
                f"{variance / planned * 100:.1f}%"
            )
    (HERE / "budget.csv").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    rng = random.Random(2024)
    invoices(rng)
    umsatz(rng)
    budget(rng)
