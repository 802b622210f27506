"""Amounts and flags three bank exports (held-out round twelve) wrote in their own way: the Peruvian sol's
``S/ 1,944.58`` (Banco de Crédito del Perú; older ``S/.``) and Latin America's other currencies written with a
slash or a point, Greek debit and credit letters (Piraeus' ``274,76 Χ`` and ``… Π``) and ``ΝΑΙ``/``ΟΧΙ``, and
whole numbers each written with its sign (Kaspi Gold's bonuses ``+150``). Each file is written here as such
a system writes it and loaded through the real loader into a DuckDB file in a temp dir; beside them, text
that looks alike (sizes, temperatures, phone numbers, dialling codes) stays text."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.db.loaded import load_text, stored_rows, stored_types

BCP = (
    "Movimientos de la cuenta\r\nCuenta: 191-12345678-0-12\r\nMoneda: Soles\r\n"
    "Fecha,Descripción operación,Monto,Saldo\r\n"
    '01/02/2024,YAPE A JUAN PÉREZ,"S/ 1,944.58","S/ 7,174.98"\r\n'
    '01/02/2024,PLIN DE MARÍA QUISPE,-S/ 466.62,"S/ 6,708.36"\r\n'
    '13/02/2024,"TRANSF. CTA, AHORROS",S/ 799.40,"S/ 7,507.76"\r\n'
    '14/02/2024,COMPRA PLAZA VEA,-S/ 14.85,"S/ 7,492.91"\r\n'
)


def test_the_peruvian_sols_amounts_are_numbers(tmp_path: Path) -> None:
    # before: 'S/' was no currency, and both columns stayed text without a word
    summary = load_text(tmp_path, "bcp.csv", BCP.encode("cp1252"), skip=3, encoding="cp1252")
    assert stored_types(summary)["monto"] == "DOUBLE" and stored_types(summary)["saldo"] == "DOUBLE"
    assert stored_rows(tmp_path, "SELECT monto, saldo FROM t ORDER BY rowid") == [
        (1944.58, 7174.98),
        (-466.62, 6708.36),
        (799.40, 7507.76),
        (-14.85, 7492.91),
    ]
    ((total,),) = stored_rows(tmp_path, "SELECT sum(monto) FROM t")
    assert math.isclose(total, 2262.51)
    (note,) = [n for n in summary.notes if n.startswith("amounts stored as numbers")]
    assert "monto 'S/ 1,944.58' -> 1944.58 (S/); saldo 'S/ 7,174.98' -> 7174.98 (S/)" in note
    assert note.endswith("add --type monto=VARCHAR (for each such column) to keep them as text")


@pytest.mark.parametrize(
    ("values", "numbers", "unit"),
    [
        (("S/.1.50", "-S/. 14.85", '"S/. 1,944.58"'), (1.5, -14.85, 1944.58), "S/"),
        (("S/ 1.50", "-S/. 14.85", '"PEN 1,944.58"'), (1.5, -14.85, 1944.58), "S/"),  # one currency
        (("B/. 12.50", "-B/.14.85", '"B/. 1,234.00"'), (12.5, -14.85, 1234.0), "B/."),
        (("Bs.12.50", "-Bs 14.85", '"Bs 1,234.00"'), (12.5, -14.85, 1234.0), "Bs"),
        (("RD$ 12.50", "-RD$14.85", '"RD$1,234.00"'), (12.5, -14.85, 1234.0), "RD$"),
        (("Gs. 150.000", "-Gs. 14.500", "Gs. 1.234.000"), (150000.0, -14500.0, 1234000.0), "₲"),
        (("₲ 150.000", "-₲ 14.500", "1.234.000 Gs"), (150000.0, -14500.0, 1234000.0), "₲"),
        (("Bs. 1.234,56", "-Bs. 14,85", "Bs.2,50"), (1234.56, -14.85, 2.5), "Bs"),
    ],
)
def test_currencies_written_with_a_slash_or_a_point_are_read(
    tmp_path: Path, values: tuple[str, ...], numbers: tuple[float, ...], unit: str
) -> None:
    # a point after the currency's letter or slash is its own, no decimal point: 'S/.1.50' is 1.5
    delimiter = ";" if any("," in v and not v.startswith('"') for v in values) else ","
    rows = "".join(f"2024-02-0{i + 1}{delimiter}{v}\n" for i, v in enumerate(values))
    summary = load_text(tmp_path, "f.csv", f"Fecha{delimiter}Monto\n{rows}")
    assert stored_rows(tmp_path, "SELECT monto FROM t ORDER BY rowid") == [(n,) for n in numbers]
    (note,) = [n for n in summary.notes if n.startswith("amounts stored as numbers")]
    assert f"-> {numbers[0]:g} ({unit})" in note


PIRAEUS = (
    "Κινήσεις Λογαριασμού\r\nΑριθμός λογαριασμού: 5012-034567-890\r\n\r\n"
    "Ημερομηνία;Αιτιολογία;Ποσό;Υπόλοιπο;Επιβεβαιωμένη\r\n"
    "03/06/2024;ΜΙΣΘΟΔΟΣΙΑ;274,76 Χ;2.875,99;ΝΑΙ\r\n"
    "09/06/2024;ΑΓΟΡΑ ΜΕ ΚΑΡΤΑ;1.845,21 Π;4.721,20;ΝΑΙ\r\n"
    "10/06/2024;ΠΛΗΡΩΜΗ ΔΕΗ;512,27 Χ;4.208,93;ΟΧΙ\r\n"
    "21/06/2024;ΑΝΑΛΗΨΗ ATM;15,60 Χ;4.193,33;ΝΑΙ\r\n"
).encode("cp1253")
_GREEK = {"encoding": "cp1253", "skip": 3, "decimal": ",", "thousands": "."}


def test_greek_debit_and_credit_letters_name_both_readings_the_banks_first(tmp_path: Path) -> None:
    # before: '274,76 Χ' was no marked amount, and the column stayed text without a word
    summary = load_text(tmp_path, "piraeus.csv", PIRAEUS, **_GREEK)
    assert stored_types(summary)["ποσό"] == "VARCHAR"
    (note,) = [n for n in summary.notes if "as credits or debits" in n]
    assert note == (
        "ποσό stayed text: its amounts are marked Π or Χ as credits or debits (like '15,60 Χ'), and which "
        "is negative depends on whose books these are; add --negative DR if debits (Χ) take away (a bank "
        "statement), or --negative CR if credits (Π) do (a ledger)"
    )


def test_greek_debits_are_negative_with_negative_dr(tmp_path: Path) -> None:
    summary = load_text(tmp_path, "piraeus.csv", PIRAEUS, negative="DR", **_GREEK)
    assert stored_rows(tmp_path, "SELECT ποσό, υπόλοιπο FROM t ORDER BY rowid") == [
        (-274.76, 2875.99),
        (1845.21, 4721.20),
        (-512.27, 4208.93),
        (-15.60, 4193.33),
    ]
    ((total,),) = stored_rows(tmp_path, "SELECT sum(ποσό) FROM t")
    assert math.isclose(total, 1042.58)
    (note,) = [n for n in summary.notes if "stored as negative numbers" in n]
    assert note.startswith(
        "amounts marked Χ stored as negative numbers, those marked Π or unmarked as positive"
    )
    assert "ποσό '15,60 Χ' -> -15.6" in note


def test_greek_yes_and_no_in_capitals_are_booleans(tmp_path: Path) -> None:
    # before: capitals drop the accent ('ΟΧΙ', not 'ΌΧΙ'), which no pair held: the column stayed text
    summary = load_text(tmp_path, "piraeus.csv", PIRAEUS, negative="DR", **_GREEK)
    assert stored_types(summary)["επιβεβαιωμένη"] == "BOOLEAN"
    assert stored_rows(tmp_path, "SELECT επιβεβαιωμένη FROM t ORDER BY rowid") == [
        (True,),
        (True,),
        (False,),
        (True,),
    ]
    assert "επιβεβαιωμένη: 'ΝΑΙ' and 'ΟΧΙ' stored as BOOLEAN ('ΝΑΙ' true)" in " ".join(summary.notes)


@pytest.mark.parametrize(
    "values",
    [
        ("12 S", "14 S", "10 S"),  # sizes: no cents, no Soll
        ("1.234,56 C", "45,90 D", "12,00 D"),  # débito and crédito, or Statistics Canada's quality letters
        ("9.5 D", "10 C", "11 D"),  # shoe widths
        ("1.234,56 S", "98,00 Χ", "500,00 S"),  # two languages' letters
    ],
)
def test_a_letter_after_a_number_that_is_no_debit_or_credit_stays_text(
    tmp_path: Path, values: tuple[str, ...]
) -> None:
    rows = "".join(f"item{i};{v}\n" for i, v in enumerate(values))
    summary = load_text(tmp_path, "f.csv", f"Item;Value\n{rows}", negative="DR")
    stored = [v for (v,) in stored_rows(tmp_path, "SELECT value FROM t ORDER BY rowid")]
    # as written, or (a statistics office's 'C' flag) the positive numbers before the letters
    assert stored == list(values) or all(isinstance(v, float) and v > 0 for v in stored)
    assert not [n for n in summary.notes if "credits or debits" in n or "negative numbers" in n]


KASPI = (
    "Выписка по Kaspi Gold за период с 01.03.24 по 30.04.24\r\nДоступно на 30.04.24: 123 456,78 ₸\r\n\r\n"
    "Дата\tСумма\tОперация\tДетали\tБонусы\r\n"
    "01.03.24\t+ 133 995,00 ₸\tПополнение\tYandex Go\t\r\n"
    "04.03.24\t− 56 572,00 ₸\tПокупка\tYandex Go\t+861\r\n"
    "06.03.24\t− 2 996,00 ₸\tПокупка\tYandex Go\t+772\r\n"
    "07.03.24\t− 30 491,00 ₸\tПокупка\tMagnum\t+514\r\n"
    "08.03.24\t− 21 009,00 ₸\tПокупка\tSmall\t+0\r\n"
)


def test_whole_numbers_each_written_with_a_sign_are_numbers(tmp_path: Path) -> None:
    # before: '+150' stayed text, with a note that named --type бонусы=BIGINT
    summary = load_text(tmp_path, "kaspi.txt", KASPI.encode("utf-16"), skip=3, encoding="utf-16")
    assert stored_types(summary)["бонусы"] == "BIGINT"
    rows = stored_rows(tmp_path, "SELECT бонусы FROM t ORDER BY rowid")
    assert rows == [(None,), (861,), (772,), (514,), (0,)]
    assert stored_rows(tmp_path, "SELECT sum(бонусы) FROM t") == [(2147,)]
    assert (
        "бонусы: whole numbers each written with its sign, like '+514', stored as BIGINT (signed "
        "quantities, not phone numbers or codes); add --type бонусы=VARCHAR to keep them as text"
    ) in summary.notes


def test_signed_changes_of_both_signs_are_numbers(tmp_path: Path) -> None:
    text = "Player,Rating change\nAnna,+12\nBen,-7\nCleo,+3\nDan,\u22122\n"
    summary = load_text(tmp_path, "f.csv", text)
    assert stored_rows(tmp_path, "SELECT rating_change FROM t ORDER BY rowid") == [(12,), (-7,), (3,), (-2,)]
    assert any(n.startswith("rating_change: whole numbers each written with its sign") for n in summary.notes)


@pytest.mark.parametrize(
    ("header", "values"),
    [
        ("Contact", ("+44 20 7946 0958", "+49 30 901820", "+1 212 555 0100")),  # phone numbers
        ("Contact", ("+442079460958", "+4930901820", "+12125550100")),  # long digit runs
        ("Country code", ("+44", "+1", "+49")),  # dialling codes
        ("Phone ext", ("+12", "+340", "+7")),
        ("UTC offset", ("+1000", "-800", "+530")),  # hours and minutes, not a number
        ("Ref", ("+007", "+012", "+100")),  # leading zeros: a code
        ("Bonus", ("+150", "200", "+30")),  # not every value signed
    ],
)
def test_signed_text_that_is_no_quantity_stays_text(
    tmp_path: Path, header: str, values: tuple[str, ...]
) -> None:
    rows = "".join(f"name{i},{v}\n" for i, v in enumerate(values))
    summary = load_text(tmp_path, "f.csv", f"Name,{header}\n{rows}")
    column = header.lower().replace(" ", "_")
    assert stored_types(summary)[column] == "VARCHAR"
    assert stored_rows(tmp_path, f"SELECT {column} FROM t ORDER BY rowid") == [(v,) for v in values]
    assert not [n for n in summary.notes if "written with its sign" in n]
