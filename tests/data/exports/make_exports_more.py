"""A second set of exports (``more_*`` files), written by a reviewer from other public data, in shapes the
first set (``make_exports.py``) does not have: Indian lakh grouping, trailing-minus amounts with a
decimal comma, currency codes after the number, Unicode minus signs, accounting ``$ -`` zeros, signed and
parenthesised percents, Excel error values, German/French totals rows in cp1252, ISO weeks, UTC ``Z``
timestamps, single-digit AM/PM times, day-first timestamps, two-digit birth years, UTF-16 with decimal
commas, a title block and a notes footer separated by blank lines, ZIP and FIPS codes.

The values are the 2010 and 2020 U.S. Census resident populations of 23 states (U.S. Census Bureau, a
U.S. Government work in the public domain), the states' FIPS codes and their capitals' ZIP codes, and
the birth dates of recent presidents, first ladies and vice presidents (public record). Amounts are
arithmetic on the counts (``fee`` = population / 1,000 x 1.25, in whatever currency the file shows).
The expected meaning is computed here from those values, never read back through the loader; the
column names are the loader's normalised header names (its naming rule, not a reading of the data).
Run ``python -m tests.data.exports.make_exports_more`` to write them again (deterministic).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"
EXPECTED = HERE / "expected"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
Export = tuple[str, bytes, dict[str, Any]]

# name, postal code, FIPS, census region, 2010 count, 2020 count, capital's ZIP code
STATES = [
    ("Alabama", "AL", "01", "South", 4779736, 5024279, "36104"),
    ("Alaska", "AK", "02", "West", 710231, 733391, "99801"),
    ("Arizona", "AZ", "04", "West", 6392017, 7151502, "85001"),
    ("Arkansas", "AR", "05", "South", 2915918, 3011524, "72201"),
    ("California", "CA", "06", "West", 37253956, 39538223, "95814"),
    ("Colorado", "CO", "08", "West", 5029196, 5773714, "80202"),
    ("Connecticut", "CT", "09", "Northeast", 3574097, 3605944, "06103"),
    ("Delaware", "DE", "10", "South", 897934, 989948, "19901"),
    ("Florida", "FL", "12", "South", 18801310, 21538187, "32301"),
    ("Georgia", "GA", "13", "South", 9687653, 10711908, "30303"),
    ("Illinois", "IL", "17", "Midwest", 12830632, 12812508, "62701"),
    ("Massachusetts", "MA", "25", "Northeast", 6547629, 7029917, "02201"),
    ("Michigan", "MI", "26", "Midwest", 9883640, 10077331, "48933"),
    ("Mississippi", "MS", "28", "South", 2967297, 2961279, "39201"),
    ("New Jersey", "NJ", "34", "Northeast", 8791894, 9288994, "08608"),
    ("New York", "NY", "36", "Northeast", 19378102, 20201249, "12207"),
    ("North Carolina", "NC", "37", "South", 9535483, 10439388, "27601"),
    ("Ohio", "OH", "39", "Midwest", 11536504, 11799448, "43215"),
    ("Pennsylvania", "PA", "42", "Northeast", 12702379, 13002700, "17101"),
    ("Texas", "TX", "48", "South", 25145561, 29145505, "78701"),
    ("Washington", "WA", "53", "West", 6724540, 7705281, "98501"),
    ("West Virginia", "WV", "54", "South", 1852994, 1793716, "25301"),
    ("Wyoming", "WY", "56", "West", 563626, 576851, "82001"),
]
FRENCH = {
    "California": "Californie",
    "Georgia": "Géorgie",
    "North Carolina": "Caroline du Nord",
    "Pennsylvania": "Pennsylvanie",
    "Florida": "Floride",
    "New York": "État de New York",
    "West Virginia": "Virginie-Occidentale",
    "New Jersey": "New Jersey",
    "Texas": "Texas",
}
GERMAN_REGION = {"Northeast": "Nordosten", "Midwest": "Mittlerer Westen", "South": "Süden", "West": "Westen"}
PEOPLE = [  # born 1930 or later, so a two-digit year reads one way under the 1930-2029 window
    ("Barack Obama", dt.date(1961, 8, 4)),
    ("Donald Trump", dt.date(1946, 6, 14)),
    ("Joe Biden", dt.date(1942, 11, 20)),
    ("George W. Bush", dt.date(1946, 7, 6)),
    ("Bill Clinton", dt.date(1946, 8, 19)),
    ("Michelle Obama", dt.date(1964, 1, 17)),
    ("Melania Trump", dt.date(1970, 4, 26)),
    ("Jill Biden", dt.date(1951, 6, 3)),
    ("Laura Bush", dt.date(1946, 11, 4)),
    ("Hillary Clinton", dt.date(1947, 10, 26)),
    ("Kamala Harris", dt.date(1964, 10, 20)),
    ("Mike Pence", dt.date(1959, 6, 7)),
    ("Dick Cheney", dt.date(1941, 1, 30)),
    ("Al Gore", dt.date(1948, 3, 31)),
]
RELEASE = dt.date(2021, 4, 26)  # apportionment counts delivered; each state's "report date" steps from it


def change(s: tuple[Any, ...]) -> int:
    return int(s[5] - s[4])


def pct(s: tuple[Any, ...]) -> float:
    return round(change(s) / s[4] * 100, 1)


def fee(s: tuple[Any, ...]) -> float:
    return round(s[5] / 1000 * 1.25, 2)


def report_day(i: int) -> dt.date:
    return RELEASE + dt.timedelta(days=7 * i + (i % 3))


def report_time(i: int) -> dt.datetime:
    return dt.datetime.combine(report_day(i), dt.time((i * 5) % 24, (i * 13) % 60))


def group(x: float, decimals: int, thousands: str, point: str, indian: bool = False) -> str:
    """``abs(x)`` with its digits grouped the way a locale writes them."""
    whole, _, frac = f"{abs(x):.{decimals}f}".partition(".")
    if indian and len(whole) > 3:
        head, tail = whole[:-3], whole[-3:]
        pairs = [head[max(0, k - 2) : k] for k in range(len(head), 0, -2)][::-1]
        whole = ",".join([*pairs, tail])
    else:
        whole = f"{int(whole):,}".replace(",", thousands)
    return whole + (point + frac if decimals else "")


def csv_text(rows: list[list[str]], sep: str = ",", newline: str = "\n") -> str:
    def cell(v: str) -> str:
        return f'"{v.replace(chr(34), chr(34) * 2)}"' if any(c in v for c in (sep, '"', "\n", "\r")) else v

    return "".join(sep.join(cell(v) for v in row) + newline for row in rows)


def meaning(
    columns: list[str],
    rows: list[list[Any]],
    option: dict[str, Any] | None = None,
    via: str | None = None,
    steps: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``steps``: the options the refusals name one after the other (a title above, notes below); what
    they leave of ``option`` is named by a note of the load they make."""
    found = {
        "source": "US Census 2010/2020 (public domain)",
        "option": option,
        "via": via,
        "columns": columns,
        "rows": rows,
    }
    return found | ({"steps": steps} if steps else {})


def amounts() -> list[Export]:
    out: list[Export] = []
    rows = [
        [
            s[0],
            group(change(s), 2, ".", ",") + ("-" if change(s) < 0 else ""),
            report_day(i).strftime("%d.%m.%Y"),
        ]
        for i, s in enumerate(STATES)
    ]
    out.append(
        (
            "more_datev_trailing_minus.csv",
            csv_text([["Bundesland", "Veränderung", "Stand"], *rows], ";").encode(),
            meaning(
                ["bundesland", "veranderung", "stand"],
                [[s[0], float(change(s)), report_day(i).isoformat()] for i, s in enumerate(STATES)],
            ),
        )
    )
    rows = [
        [s[0], group(s[5], 0, ",", ".", indian=True), "₹" + group(fee(s), 2, ",", ".", indian=True)]
        for s in STATES
    ]
    out.append(
        (
            "more_indian_lakh_grouping.csv",
            csv_text([["State", "Population 2020", "Fee"], *rows]).encode(),
            meaning(["state", "population_2020", "fee"], [[s[0], s[5], fee(s)] for s in STATES]),
        )
    )
    rows = [
        [s[1], ("-" if change(s) < 0 else "") + group(change(s) * 1.25, 2, " ", ",") + " EUR"] for s in STATES
    ]
    out.append(
        (
            "more_eur_code_suffix_space.csv",
            csv_text([["Land", "Betrag"], *rows], ";").encode(),
            meaning(["land", "betrag"], [[s[1], round(change(s) * 1.25, 2)] for s in STATES]),
        )
    )
    rows = [[s[1], f"({abs(pct(s))}%)" if pct(s) < 0 else f"{pct(s)}%"] for s in STATES]
    out.append(
        (
            "more_percent_parentheses.csv",
            csv_text([["state", "change"], *rows]).encode(),
            meaning(["state", "change"], [[s[1], pct(s)] for s in STATES]),
        )
    )
    rows = [[s[1], ("+" if pct(s) >= 0 else "-") + f"{abs(pct(s))} %"] for s in STATES]
    out.append(
        (
            "more_signed_percent.csv",
            csv_text([["state", "growth"], *rows]).encode(),
            meaning(["state", "growth"], [[s[1], pct(s)] for s in STATES]),
        )
    )
    rows = [[s[1], ("USD " if i % 2 else "") + group(fee(s), 2, ",", ".")] for i, s in enumerate(STATES)]
    out.append(
        (
            "more_usd_code_some_cells.csv",
            csv_text([["State", "Fee (USD)"], *rows]).encode(),
            meaning(["state", "fee_usd"], [[s[1], fee(s)] for s in STATES]),
        )
    )
    rows = [
        [s[0], ("\u2212" if change(s) < 0 else "") + group(change(s), 0, "\u00a0", ",") + " kr"]
        for s in STATES
    ]
    out.append(
        (
            "more_swedish_kr_unicode_minus.csv",
            csv_text([["delstat", "forandring"], *rows], ";").encode(),
            meaning(["delstat", "forandring"], [[s[0], change(s)] for s in STATES]),
        )
    )
    rows = [[s[1], group(fee(s), 2, "\u2019", ".") + " CHF"] for s in STATES]
    out.append(
        (
            "more_swiss_typographic_apostrophe.csv",
            csv_text([["Kanton", "Gebühr"], *rows], ";").encode(),
            meaning(["kanton", "gebuhr"], [[s[1], fee(s)] for s in STATES]),
        )
    )

    def accounting(x: float) -> str:
        if x == 0:
            return " $ -   "
        body = group(x, 2, ",", ".")
        return f" $ ({body})" if x < 0 else f" $ {body} "

    values = [0.0 if i % 5 == 4 else round(change(s) / 1000 * 1.25, 2) for i, s in enumerate(STATES)]
    rows = [[s[1], accounting(v)] for s, v in zip(STATES, values, strict=True)]
    out.append(
        (
            "more_accounting_dash_zero.csv",
            csv_text([["State", "Adjustment"], *rows]).encode(),
            meaning(["state", "adjustment"], [[s[1], v] for s, v in zip(STATES, values, strict=True)]),
        )
    )
    errors = {3: "#N/A", 8: "#DIV/0!", 15: "#VALUE!"}
    rows = [[s[1], errors.get(i, f"{pct(s)}")] for i, s in enumerate(STATES)]
    out.append(
        (
            "more_excel_error_values.csv",
            csv_text([["state", "pct_change"], *rows]).encode(),
            meaning(
                ["state", "pct_change"],
                [[s[1], None if i in errors else pct(s)] for i, s in enumerate(STATES)],
            ),
        )
    )
    return out


def totals() -> list[Export]:
    out: list[Export] = []
    lines, want = [["Region", "Bundesstaat", "Einwohner 2020"]], []
    for region, label in GERMAN_REGION.items():
        members = [s for s in STATES if s[3] == region]
        lines += [[label, s[0], group(s[5], 0, ".", ",")] for s in members]
        want += [[label, s[0], s[5]] for s in members]
        lines.append([f"Zwischensumme {label}", "", group(sum(s[5] for s in members), 0, ".", ",")])
    lines.append(["Gesamt", "", group(sum(s[5] for s in STATES), 0, ".", ",")])
    out.append(
        (
            "more_german_gesamt_subtotals.csv",
            csv_text(lines, ";").encode(),
            meaning(["region", "bundesstaat", "einwohner_2020"], want, {"drop_totals": True}, "note"),
        )
    )
    french = [s for s in STATES if s[0] in FRENCH]
    lines = [["État", "Redevance"], *[[FRENCH[s[0]], group(fee(s), 2, "\u00a0", ",") + " €"] for s in french]]
    lines.append(["Total général", group(sum(fee(s) for s in french), 2, "\u00a0", ",") + " €"])
    out.append(
        (
            "more_cp1252_total_general.csv",
            csv_text(lines, ";", "\r\n").encode("cp1252"),
            meaning(
                ["etat", "redevance"], [[FRENCH[s[0]], fee(s)] for s in french], {"drop_totals": True}, "note"
            ),
        )
    )
    return out


def dates() -> list[Export]:
    out: list[Export] = []
    days = [report_day(i) for i in range(len(STATES))]
    rows = [
        [f"{d.isocalendar()[0]}-W{d.isocalendar()[1]:02d}", s[1], str(s[5])]
        for d, s in zip(days, STATES, strict=True)
    ]
    out.append(
        (
            "more_iso_weeks.csv",
            csv_text([["week", "state", "population"], *rows]).encode(),
            meaning(
                ["week", "state", "population"],
                [[r[0], s[1], s[5]] for r, s in zip(rows, STATES, strict=True)],
            ),
        )
    )
    times = [report_time(i) for i in range(len(STATES))]
    rows = [[s[1], t.strftime("%Y-%m-%dT%H:%M:%SZ")] for t, s in zip(times, STATES, strict=True)]
    out.append(
        (
            "more_utc_z_timestamps.csv",
            csv_text([["state", "published"], *rows]).encode(),
            meaning(
                ["state", "published"],
                [[s[1], t.isoformat(sep=" ") + "+00:00"] for t, s in zip(times, STATES, strict=True)],
            ),
        )
    )

    def ampm(t: dt.datetime) -> str:
        hour = t.hour % 12 or 12
        return f"{t.month}/{t.day}/{t.year} {hour}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"

    rows = [[s[1], ampm(t)] for t, s in zip(times, STATES, strict=True)]
    out.append(
        (
            "more_us_ampm_unpadded.csv",
            csv_text([["State", "Published"], *rows]).encode(),
            meaning(
                ["state", "published"],
                [[s[1], t.isoformat(sep=" ")] for t, s in zip(times, STATES, strict=True)],
            ),
        )
    )
    rows = [[t.strftime("%d/%m/%Y %H:%M"), s[1]] for t, s in zip(times, STATES, strict=True)]
    out.append(
        (
            "more_dayfirst_timestamps.csv",
            csv_text([["published", "state"], *rows]).encode(),
            meaning(
                ["published", "state"],
                [[t.isoformat(sep=" "), s[1]] for t, s in zip(times, STATES, strict=True)],
            ),
        )
    )
    rows = [[t.strftime("%d/%m/%y %H:%M"), s[1]] for t, s in zip(times, STATES, strict=True)]
    out.append(
        (
            "more_dayfirst_short_year_stamps.csv",
            csv_text([["published", "state"], *rows]).encode(),
            meaning(
                ["published", "state"],
                [[t.isoformat(sep=" "), s[1]] for t, s in zip(times, STATES, strict=True)],
            ),
        )
    )
    rows = [
        [s[1], ampm(t).replace(f"/{t.year} ", f"/{t.year % 100:02d} ")]
        for t, s in zip(times, STATES, strict=True)
    ]
    out.append(
        (
            "more_us_ampm_short_year.csv",
            csv_text([["State", "Published"], *rows]).encode(),
            meaning(
                ["state", "published"],
                [[s[1], t.isoformat(sep=" ")] for t, s in zip(times, STATES, strict=True)],
            ),
        )
    )
    rows = [[n, f"{d.day:02d}-{MONTHS[d.month - 1]}-{d.year % 100:02d}"] for n, d in PEOPLE]
    out.append(
        (
            "more_birthdates_two_digit_years.csv",
            csv_text([["name", "born"], *rows]).encode(),
            meaning(["name", "born"], [[n, d.isoformat()] for n, d in PEOPLE]),
        )
    )
    rows = [
        [d.strftime("%d.%m.%y"), s[0], group(s[5], 0, ".", ",")] for d, s in zip(days, STATES, strict=True)
    ]
    out.append(
        (
            "more_german_short_dates.csv",
            csv_text([["Datum", "Staat", "Einwohner"], *rows], ";").encode(),
            meaning(
                ["datum", "staat", "einwohner"],
                [[d.isoformat(), s[0], s[5]] for d, s in zip(days, STATES, strict=True)],
            ),
        )
    )
    return out


def layouts() -> list[Export]:
    out: list[Export] = []
    lines = [["Bundesstaat", "Einwohner (Tsd.)", "Stichtag"]]
    lines += [
        [s[0], group(s[5] / 1000, 3, ".", ","), report_day(i).strftime("%d.%m.%Y")]
        for i, s in enumerate(STATES)
    ]
    out.append(
        (
            "more_bom_crlf_semicolon.csv",
            b"\xef\xbb\xbf" + csv_text(lines, ";", "\r\n").encode(),
            meaning(
                ["bundesstaat", "einwohner_tsd", "stichtag"],
                [[s[0], round(s[5] / 1000, 3), report_day(i).isoformat()] for i, s in enumerate(STATES)],
                {"decimal": ",", "thousands": "."},
                "note",
            ),
        )
    )
    lines = [["Staat", "Einwohner 2010", "Einwohner 2020", "Gebühr"]]
    lines += [
        [s[0], group(s[4], 0, ".", ","), group(s[5], 0, ".", ","), group(fee(s), 2, ".", ",")] for s in STATES
    ]
    text = "".join("\t".join(r) + "\r\n" for r in lines)
    out.append(
        (
            "more_utf16_tab_decimal_comma.txt",
            b"\xff\xfe" + text.encode("utf-16-le"),
            meaning(
                ["staat", "einwohner_2010", "einwohner_2020", "gebuhr"],
                [[s[0], s[4], s[5], fee(s)] for s in STATES],
                {"encoding": "utf-16", "decimal": ",", "thousands": "."},
                "refusal",
                [{"encoding": "utf-16"}],
            ),
        )
    )
    body = [["State", "FIPS", "2010", "2020", "Change"]]
    body += [[s[0], s[2], f"{s[4]:,}", f"{s[5]:,}", f"{pct(s)}%"] for s in STATES]
    text = (
        "Resident Population of Selected States: 2010 and 2020\n"
        "Table 1. Apportionment counts (report generated 04/26/2021)\n\n"
        + csv_text(body)
        + "\nSource: U.S. Census Bureau, 2010 and 2020 Censuses.\n"
        "Note: Change is the percent change from 2010 to 2020.\n"
    )
    out.append(
        (
            "more_title_block_and_notes.csv",
            text.encode(),
            meaning(
                ["state", "fips", "c_2010", "c_2020", "change"],
                [[s[0], s[2], s[4], s[5], pct(s)] for s in STATES],
                {"skip": 3, "skip_bad_rows": True},
                "refusal",
                [{"skip": 3}, {"skip_bad_rows": True}],
            ),
        )
    )
    lines = [["ZIP", "FIPS", "State", "Population"]]
    lines += [[s[6], s[2], s[0], f"{s[5]:,}"] for s in STATES]
    out.append(
        (
            "more_zip_fips_codes.csv",
            csv_text(lines).encode(),
            meaning(["zip", "fips", "state", "population"], [[s[6], s[2], s[0], s[5]] for s in STATES]),
        )
    )
    notes = [f'Counted {s[0]}; capital ZIP {s[6]}.\nRegion: {s[3]} ("{s[1]}")' for s in STATES]
    lines = [
        ["Code", "Anmerkung", "Einwohner"],
        *[[s[1], n, group(s[5], 0, ".", ",")] for s, n in zip(STATES, notes, strict=True)],
    ]
    out.append(
        (
            "more_multiline_semicolon.csv",
            csv_text(lines, ";", "\r\n").encode(),
            meaning(
                ["code", "anmerkung", "einwohner"],
                [[s[1], n, s[5]] for s, n in zip(STATES, notes, strict=True)],
            ),
        )
    )
    return out


def all_exports() -> list[Export]:
    return amounts() + totals() + dates() + layouts()


def main() -> None:
    FILES.mkdir(exist_ok=True)
    EXPECTED.mkdir(exist_ok=True)
    for name, data, meant in all_exports():
        (FILES / name).write_bytes(data)
        (EXPECTED / f"{name}.json").write_text(
            json.dumps(meant, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
