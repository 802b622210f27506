#!/usr/bin/env python3
"""Generate realistic "export-style" CSV probe files plus machine-readable ground truth.

Run:  python make.py          (standard library only; deterministic, seeded)

Writes files/<name>, expect.json and README.md next to this script.
Ground truth is taken from the Python values the generator formats, never from
re-parsing the CSV.  A structural self-check (csv module) only verifies that the
bytes we wrote line up with those values (quoting, column positions).
"""
import calendar
import csv
import datetime as dt
import io
import json
import os
import random
from decimal import Decimal as D, ROUND_HALF_UP

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
SEED = 20240611


# ----------------------------------------------------------------- helpers
class Missing:
    """A missing cell, written as `token` (e.g. 'N/A', '-', 'NULL', '')."""
    __slots__ = ("token",)

    def __init__(self, token=""):
        self.token = token


def is_missing(v):
    return v is None or isinstance(v, Missing)


def q(x, places=2):
    r = D(x).quantize(D(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return abs(r) if r == 0 else r  # no negative zero


def grp(digits, sep):
    parts = []
    while len(digits) > 3:
        parts.insert(0, digits[-3:])
        digits = digits[:-3]
    parts.insert(0, digits)
    return sep.join(parts)


def num(v, places=2, thou=",", dec=".", neg="lead", pre="", suf=""):
    """Format a number the way a spreadsheet / ERP displays it."""
    if isinstance(v, Missing):
        return v.token
    if v is None:
        return ""
    v = D(v)
    s = f"{abs(v):.{places}f}"
    if places:
        i, f = s.split(".")
        body = grp(i, thou) + dec + f
    else:
        body = grp(s, thou)
    if v < 0:
        if neg == "lead":
            return f"-{pre}{body}{suf}"
        if neg == "inner":
            return f"{pre}-{body}{suf}"
        if neg == "paren":
            return f"({pre}{body}{suf})"
        if neg == "trail":
            return f"{pre}{body}{suf}-"
        raise ValueError(neg)
    return f"{pre}{body}{suf}"


def F(**kw):
    return lambda v: num(v, **kw)


def general(v):
    """Excel 'General' format: no thousands separator, no trailing zeros."""
    if isinstance(v, Missing):
        return v.token
    if v is None:
        return ""
    s = f"{D(v):f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def opt(f):
    def g(v):
        if isinstance(v, Missing):
            return v.token
        if v is None:
            return ""
        return f(v)
    return g


def mdy(d):
    return f"{d.month:02d}/{d.day:02d}/{d.year}"


def mdy_np(d):
    return f"{d.month}/{d.day}/{d.year}"


def dmy(d, sep="/"):
    return f"{d.day:02d}{sep}{d.month:02d}{sep}{d.year}"


def dmy_hm(t):
    return f"{dmy(t)} {t.hour:02d}:{t.minute:02d}"


def us_ampm(t):
    h = t.hour % 12 or 12
    return f"{t.month}/{t.day}/{t.year} {h}:{t.minute:02d}:{t.second:02d} {'AM' if t.hour < 12 else 'PM'}"


def rdate(rng, a, b):
    return a + dt.timedelta(days=rng.randint(0, (b - a).days))


def rdt(rng, a, b):
    """random datetime between dates a and b (inclusive days), whole seconds."""
    d = rdate(rng, a, b)
    return dt.datetime(d.year, d.month, d.day, rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))


def money(rng, lo, hi, places=2):
    sc = 10 ** places
    return q(D(rng.randint(int(lo * sc), int(hi * sc))) / sc, places)


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def pct_fmt(places=1, sep="", dec="."):
    def f(v):
        s = f"{D(v):.{places}f}"
        return s.replace(".", dec) + sep + "%"
    return opt(f)


def some_day_gt12(vals):
    assert any(not is_missing(v) and v.day > 12 for v in vals), "need a day > 12"


def all_days_le12(vals):
    assert all(is_missing(v) or v.day <= 12 for v in vals), "need all days <= 12"


FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
         "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
         "Charles", "Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sandra",
         "Donald", "Ashley", "Priya", "Wei", "Carlos", "Aisha", "Sean", "Niamh", "Tomas", "Olga", "Kenji",
         "Fatima", "Grace", "Omar", "Hannah", "Lucas", "Mei", "Diego"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
        "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson",
        "Martin", "Lee", "O'Brien", "Nguyen", "Patel", "Kowalski", "Murphy", "Chen", "Okafor", "Schmidt",
        "Rossi", "Kelly", "Walsh", "Byrne", "Fischer", "Novak", "Singh", "Park"]
CO_A = ["Acme", "Brightline", "Cedar Ridge", "Harborview", "Summit Peak", "Northwind", "Bluefin",
        "Ironwood", "Pinecrest", "Redwood", "Silverline", "Keystone", "Lakeshore", "Granite", "Meridian",
        "Oakmont", "Riverbend", "Stonegate", "Tidewater", "Westfield", "Copperleaf", "Foxhollow"]
CO_B = ["Holdings, Inc.", "LLC", "Corp.", "Supply Co.", "Partners, LP", "Logistics", "Group",
        "Industries", "Foods, Inc.", "Manufacturing", "Dental Group", "Services, LLC"]


def company(rng):
    return f"{rng.choice(CO_A)} {rng.choice(CO_B)}"


def person(rng):
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


# ----------------------------------------------------------------- model
class Col:
    def __init__(self, header, kind, values, fmt=None, check=True, force=(), do_sum=True, strs=None):
        self.header = header
        self.kind = kind
        self.values = list(values)
        self.fmt = fmt or opt(str)
        self.check = check
        self.force = list(force)
        self.do_sum = do_sum
        self.strs = strs  # exact per-row strings (when the format depends on another column)

    def cell(self, i):
        return self.strs[i] if self.strs is not None else self.fmt(self.values[i])


def tricky_rank(kind, v):
    if is_missing(v):
        return 0
    if kind == "number":
        if v < 0:
            return 1
        if abs(v) >= 1000:
            return 2
        return None
    if kind == "percent":
        if v < 0:
            return 1
        return 2 if D(v) != D(v).to_integral_value() else None
    if kind == "date":
        return 1 if v.day > 12 else None
    if kind == "timestamp":
        if v.day > 12:
            return 1
        return 2 if v.hour >= 12 else None
    if kind == "text":
        if "\n" in v:
            return 0
        if any(ch in v for ch in ',"') or v[:1] == "0":
            return 1
        if not v.isascii():
            return 2
        return None
    return None


def expval(kind, v):
    if is_missing(v):
        return None
    if kind == "number":
        return v if isinstance(v, int) else float(v)
    if kind == "percent":
        return {"fraction": float(D(v) / 100), "as_written": float(D(v))}
    if kind == "date":
        return v.isoformat()
    if kind == "timestamp":
        return v.strftime("%Y-%m-%d %H:%M:%S")
    return v


class Case:
    def __init__(self, file, what, cols, delim=",", nl="\r\n", enc="utf-8", bom=False, quote_all=False):
        self.file, self.what, self.cols = file, what, cols
        self.delim, self.nl, self.enc, self.bom, self.quote_all = delim, nl, enc, bom, quote_all
        ns = {len(c.values) for c in cols}
        assert len(ns) == 1, (file, [(c.header, len(c.values)) for c in cols])
        self.n = ns.pop()
        self.lines = []  # (kind, payload, data_index)

    # building
    def raw(self, s):
        self.lines.append(("raw", s, None))

    def rec(self, fields):
        self.lines.append(("rec", [str(f) for f in fields], None))

    def header(self, extra=()):
        self.lines.append(("rec", [c.header for c in self.cols] + list(extra), "H"))

    def row(self, i, extra=()):
        self.lines.append(("rec", [c.cell(i) for c in self.cols] + list(extra), i))

    def rows(self, extra=()):
        for i in range(self.n):
            self.row(i, extra)

    # rendering
    def enc_field(self, s):
        if self.quote_all or any(ch in s for ch in (self.delim, '"', "\n", "\r")):
            return '"' + s.replace('"', '""') + '"'
        return s

    def text(self):
        out = []
        for kind, p, _ in self.lines:
            out.append(p if kind == "raw" else self.delim.join(self.enc_field(f) for f in p))
        return self.nl.join(out) + self.nl

    def bytes(self):
        t = self.text()
        if self.enc == "utf-16-le":
            return "\ufeff".encode("utf-16-le") + t.encode("utf-16-le")
        b = t.encode(self.enc)
        if self.bom:
            b = b"\xef\xbb\xbf" + b
        return b

    # checks
    def selfcheck(self):
        raw = self.bytes()
        if self.enc == "utf-16-le":
            t = raw.decode("utf-16")
        else:
            t = raw.decode("utf-8-sig" if self.bom else self.enc)
        assert t == self.text()
        recs = list(csv.reader(io.StringIO(t, newline=""), delimiter=self.delim))
        assert len(recs) == len(self.lines), (self.file, len(recs), len(self.lines))
        seen = []
        hdr = None
        for (kind, p, di), r in zip(self.lines, recs):
            if di == "H":
                hdr = r
                assert r[:len(self.cols)] == [c.header for c in self.cols], (self.file, r)
            elif di is not None:
                seen.append(di)
                for j, c in enumerate(self.cols):
                    assert r[j] == c.cell(di), (self.file, di, c.header, r[j], c.cell(di))
        assert hdr is not None
        assert seen == list(range(self.n)), (self.file, "data rows out of order / missing")
        assert len({c.header for c in self.cols}) == len(self.cols), "duplicate headers"
        # lossless-format check: the written string must carry the full value
        for c in self.cols:
            for i, v in enumerate(c.values):
                s = c.cell(i)
                if is_missing(v):
                    continue
                if c.kind in ("number", "percent"):
                    digits = int("".join(ch for ch in s if ch.isdigit()))
                    av = abs(D(v))
                    assert any(D(digits) == av * (D(10) ** k) for k in range(7)), (self.file, c.header, i, s, v)
                    assert (("-" in s) or ("(" in s)) == (v < 0), (self.file, c.header, i, s, v)
                elif c.kind == "timestamp":
                    for attr in ("second", "minute", "hour"):
                        if getattr(v, attr):
                            assert c.fmt(v) != c.fmt(v.replace(**{attr: (getattr(v, attr) + 1) % 60 if attr != "hour" else (v.hour + 1) % 24})), (self.file, c.header, i, attr)
                elif c.kind == "date":
                    assert c.fmt(v) != c.fmt(v + dt.timedelta(days=1)), (self.file, c.header, i)

    def pick(self, c, rng):
        n = self.n
        chosen = [0, n - 1] + list(c.force)
        by = {}
        for i, v in enumerate(c.values):
            r = tricky_rank(c.kind, v)
            if r is not None:
                by.setdefault(r, []).append(i)
        for r in sorted(by):
            cand = [i for i in by[r] if i not in chosen]
            if cand:
                chosen.append(rng.choice(cand))
        while len(set(chosen)) < min(5, n):
            chosen.append(rng.randrange(n))
        out = []
        for i in chosen:
            if i not in out:
                out.append(i)
        return sorted(out[:6])

    def expect(self, rng):
        cols = {}
        sums = {}
        for c in self.cols:
            if not c.check:
                continue
            idx = self.pick(c, rng)
            cols[c.header] = {"kind": c.kind,
                              "cells": {str(i): expval(c.kind, c.values[i]) for i in idx}}
            if c.kind == "number":  # every numeric column gets a checksum
                vals = [v for v in c.values if not is_missing(v)]
                s = sum((D(v) for v in vals), D(0))
                sums[c.header] = int(s) if all(isinstance(v, int) for v in vals) else float(s)
        return {"file": self.file, "what": self.what, "rows": self.n, "columns": cols, "sums": sums}


# ----------------------------------------------------------------- cases
def c01_invoices_us(rng):
    n = 60
    nos, k = [], 4480
    for _ in range(n):
        k += rng.randint(1, 3)
        nos.append(f"{k:06d}")
    idates = sorted(rdate(rng, dt.date(2024, 1, 2), dt.date(2024, 3, 29)) for _ in range(n))
    terms = [rng.choice([15, 30, 30, 45]) for _ in range(n)]
    due = [d + dt.timedelta(days=t) for d, t in zip(idates, terms)]
    cust = [company(rng) for _ in range(n)]
    amt, status = [], []
    for _ in range(n):
        if rng.random() < 0.1:
            amt.append(-money(rng, 20, 900))
            status.append("Credit Memo")
        else:
            amt.append(money(rng, 85, 24000))
            status.append(rng.choice(["Paid", "Paid", "Open", "Overdue"]))
    amt[7], status[7] = D("-84.10"), "Credit Memo"
    amt[12], status[12] = D("-1250.00"), "Credit Memo"
    some_day_gt12(idates)
    fm = F(pre="$", neg="paren")
    cols = [Col("Invoice No", "text", nos), Col("Invoice Date", "date", idates, opt(mdy)),
            Col("Due Date", "date", due, opt(mdy_np)), Col("Customer", "text", cust),
            Col("Terms", "text", [f"Net {t}" for t in terms]), Col("Amount", "number", amt, fm),
            Col("Status", "text", status)]
    c = Case("01_invoices_us.csv",
             "Excel US (cp1252/ASCII, CRLF): invoice numbers with leading zeros (text), MM/DD/YYYY and M/D/YYYY dates "
             "(days>12 present), \"$1,234.50\" quoted money, credit memos as ($84.10) parentheses, customer names with "
             "embedded commas, final 'Total' row (sum of Amount) that is NOT data",
             cols, enc="cp1252")
    c.header()
    c.rows()
    c.rec(["Total", "", "", "", "", fm(sum(amt)), ""])
    return c


def c02_bank_de(rng):
    months = [(1, "Januar"), (2, "Februar"), (3, "März")]
    tx = []
    for m, mname in months:
        tx.append((dt.date(2024, m, 1 + rng.randint(0, 2)), "Müller Immobilien GmbH", f"Miete {mname} 2024 Whg. 3 OG links", D("-1350.00")))
        tx.append((dt.date(2024, m, 15), "Stadtwerke München", "Abschlag Strom/Gas Kd-Nr. 0047118", D("-142.00")))
        tx.append((dt.date(2024, m, 20 + rng.randint(0, 3)), "Deutsche Telekom AG", f"Rechnung Festnetz {m:02d}/2024", D("-49.95")))
        tx.append((dt.date(2024, m, 27), "Brandt & Söhne KG", f"Gehalt {mname} 2024", D("4250.00")))
    shops = [("Café Römer", "Kartenzahlung girocard", 3, 38), ("REWE Markt GmbH", "Kartenzahlung girocard", 8, 165),
             ("Bäckerei Schütz", "Kartenzahlung girocard", 2, 18), ("Tankstelle Öztürk", "Kartenzahlung girocard", 35, 95),
             ("Amazon EU S.à r.l.", "Bestellung 302-4471920-5531", 9, 240),
             ("Möbelhaus Kröger", "Anzahlung Küche Auftrag 88123", 900, 2400),
             ("Apotheke am Dom", "Kartenzahlung girocard", 4, 60)]
    while len(tx) < 80:
        name, purpose, lo, hi = rng.choice(shops)
        if name.startswith("Möbel") and any(t[1] == name for t in tx):
            continue
        tx.append((rdate(rng, dt.date(2024, 1, 2), dt.date(2024, 3, 28)), name, purpose, -money(rng, lo, hi)))
    tx.append((dt.date(2024, 2, 14), "Finanzamt München", "Erstattung ESt 2022", D("1187.35")))
    tx.sort(key=lambda t: t[0])
    tx = tx[:80]
    bal = D("3512.40")
    saldo = []
    for t in tx:
        bal += t[3]
        saldo.append(bal)
    book = [t[0] for t in tx]
    val = [d + dt.timedelta(days=rng.choice([0, 0, 0, 1])) for d in book]
    fm = F(thou=".", dec=",")
    cols = [Col("Buchungstag", "date", book, opt(lambda d: dmy(d, "."))),
            Col("Valuta", "date", val, opt(lambda d: dmy(d, "."))),
            Col("Auftraggeber / Empfänger", "text", [t[1] for t in tx]),
            Col("Verwendungszweck", "text", [t[2] for t in tx]),
            Col("Betrag (EUR)", "number", [t[3] for t in tx], fm),
            Col("Saldo (EUR)", "number", saldo, fm, do_sum=False)]
    c = Case("02_kontoauszug_girokonto.csv",
             "German bank statement: Windows-1252 (ä ö ü é à and en-dash in preamble), semicolon, CRLF, 5 preamble lines "
             "(title, holder, IBAN, period, ';;;;;' spacer) before header, DD.MM.YYYY dates, 1.234,56 European numbers "
             "with leading minus, footer 'Kontostand am ...' balance line that is NOT data",
             cols, delim=";", enc="cp1252")
    c.raw("Umsätze Girokonto;;;;;")
    c.raw("Kontoinhaber: Sabine Krüger;;;;;")
    c.raw("IBAN: DE44 5001 0517 5407 3249 31;;;;;")
    c.raw("Zeitraum: 01.01.2024 – 31.03.2024;;;;;")
    c.raw(";;;;;")
    c.header()
    c.rows()
    c.rec(["Kontostand am 31.03.2024", "", "", "", "", fm(bal)])
    return c


def c03_payroll_uk(rng):
    letters = "ABCEGHJKLMNPRSTWXYZ"
    emps = []
    for eid in rng.sample(range(100, 2400), 30):
        emps.append((f"{eid:05d}", f"{rng.choice(LAST)}, {rng.choice(FIRST)}",
                     f"{rng.choice(letters)}{rng.choice(letters)} {rng.randint(10,99)} {rng.randint(10,99)} {rng.randint(10,99)} {rng.choice('ABCD')}",
                     D(rng.randrange(21000, 95000, 500))))
    paydays = [(1, 26), (2, 28), (3, 27)]
    R = {k: [] for k in ["id", "name", "ni", "start", "pay", "gross", "tax", "nic", "pen", "adj", "net"]}
    for m, pd in paydays:
        for eid, name, ni, sal in emps:
            gross = q(sal / 12)
            if rng.random() < 0.2:
                gross += money(rng, 40, 600)
            tax = q(max(D(0), gross - D("1047.50")) * D("0.20"))
            nic = q(max(D(0), gross - D("1048")) * D("0.10"))
            pen = q(gross * D("0.05"))
            r = rng.random()
            adj = D("0.00") if r < 0.8 else (-money(rng, 20, 250) if r < 0.93 else money(rng, 20, 250))
            for key, v in zip(R, [eid, name, ni, dt.date(2024, m, 1), dt.date(2024, m, pd), gross, tax, nic, pen, adj,
                                  gross - tax - nic - pen + adj]):
                R[key].append(v)
    R["adj"][3] = D("-120.00")
    R["net"][3] = R["gross"][3] - R["tax"][3] - R["nic"][3] - R["pen"][3] + R["adj"][3]
    all_days_le12(R["start"])
    some_day_gt12(R["pay"])
    fm = F(pre="£")
    dd = opt(dmy)
    cols = [Col("Employee ID", "text", R["id"]), Col("Employee Name", "text", R["name"]),
            Col("NI Number", "text", R["ni"]), Col("Pay Period Start", "date", R["start"], dd),
            Col("Pay Date", "date", R["pay"], dd), Col("Gross Pay", "number", R["gross"], fm),
            Col("Tax", "number", R["tax"], fm), Col("NI", "number", R["nic"], fm),
            Col("Pension", "number", R["pen"], fm), Col("Adjustments", "number", R["adj"], fm),
            Col("Net Pay", "number", R["net"], fm)]
    c = Case("03_payroll_uk_q1.csv",
             "UK payroll, UTF-8 with BOM, CRLF: DD/MM/YYYY (Pay Period Start is always the 1st so all its days<=12; Pay Date "
             "has days 26-28 proving day-first), £ amounts \"£2,345.67\" and '-£120.00', employee IDs with leading zeros, "
             "'Surname, First' names quoted, final 'Grand Total' row NOT data",
             cols, bom=True)
    c.header()
    c.rows()
    c.rec(["Grand Total", "", "", "", ""] + [fm(sum(R[k])) for k in ["gross", "tax", "nic", "pen", "adj", "net"]])
    return c


def c04_ga(rng):
    n = 50
    sections = ["/", "/pricing", "/features", "/contact", "/about", "/careers", "/login", "/signup"]
    slugs = ["how-to-choose-a-crm", "q1-product-update", "pricing-explained", "integrations-guide",
             "customer-story-harborview", "api-rate-limits", "gdpr-checklist", "onboarding-tips",
             "dashboard-templates", "sales-forecasting-101", "remote-team-rituals", "data-import-faq"]
    paths = list(sections)
    for s in slugs:
        paths.append(f"/blog/{s}")
    for p in ["widget-pro", "widget-lite", "analytics-addon", "team-plan", "enterprise"]:
        paths.append(f"/products/{p}")
        paths.append(f"/products/{p}?utm_source=newsletter&utm_campaign=spring_sale")
    paths.append("/landing/webinar?utm_source=linkedin&utm_content=carousel,v2")
    paths.append("/landing/ebook-crm-guide")
    paths.append("/de/preise")
    paths.append("/fr/tarifs")
    paths.append("/search?q=csv+import")
    paths.append("/docs/getting-started")
    paths.append("/docs/api/v2/authentication")
    paths.append("/status")
    paths.append("/partners")
    paths.append("/events/summit-2024")
    paths.append("/legal/privacy")
    for extra in ["/blog/year-in-review-2023", "/blog/kpi-glossary", "/webinars", "/support", "/security",
                  "/integrations/salesforce", "/integrations/hubspot", "/compare/spreadsheet-vs-crm", "/templates/invoice-tracker"]:
        paths.append(extra)
    paths = paths[:n]
    assert len(paths) == n
    sessions = sorted((rng.randint(40, 28000) for _ in range(n)), reverse=True)
    rng.shuffle(paths)
    new_users = [int(s * rng.uniform(0.2, 0.85)) for s in sessions]
    pnew = [q(D(u) * 100 / D(s)) for u, s in zip(new_users, sessions)]
    bounce = [money(rng, 15, 85) for _ in range(n)]
    pps = [money(rng, 1, 7) for _ in range(n)]
    conv = [money(rng, 0, 6) if rng.random() < 0.8 else D("0.00") for _ in range(n)]
    rev = [money(rng, 0, 30000) if rng.random() < 0.7 else D("0.00") for _ in range(n)]
    pf = pct_fmt(2)
    cols = [Col("Landing Page", "text", paths), Col("Sessions", "number", sessions, F(places=0)),
            Col("% New Sessions", "percent", pnew, pf), Col("New Users", "number", new_users, F(places=0)),
            Col("Bounce Rate", "percent", bounce, pf), Col("Pages / Session", "number", pps, F(), do_sum=True),
            Col("Goal Conversion Rate", "percent", conv, pf), Col("Revenue", "number", rev, F(pre="$"))]
    c = Case("04_ga_landing_pages.csv",
             "Google Analytics export, UTF-8, LF: 6 '# ...' preamble lines + blank line before header, thousands in "
             "quoted \"12,345\" integers, '45.23%' percent columns, \"$12,345.67\" revenue, one URL containing a comma "
             "(quoted); after the data a blank line and an UNLABELLED totals row (empty Landing Page) that is NOT data",
             cols, nl="\n")
    for line in ["# ----------------------------------------", "# All Web Site Data", "# Landing Pages",
                 "# 20240101-20240331", "# ----------------------------------------"]:
        c.raw(line)
    c.raw("")
    c.header()
    c.rows()
    c.raw("")
    S, U = sum(sessions), sum(new_users)
    wb = q(sum(b * s for b, s in zip(bounce, sessions)) / S)
    wp = q(sum(p * s for p, s in zip(pps, sessions)) / S)
    wc = q(sum(x * s for x, s in zip(conv, sessions)) / S)
    c.rec(["", num(S, places=0), pf(q(D(U) * 100 / D(S))), num(U, places=0), pf(wb), num(wp), pf(wc),
           num(sum(rev), pre="$")])
    return c


def c05_region_subtotals(rng):
    regions = ["Central", "East", "North", "West"]
    lines = ["Hardware", "Software", "Services", "Support"]
    R = {k: [] for k in ["reg", "rep", "pl", "units", "rev", "mar"]}
    groups = []
    for reg in regions:
        reps = [person(rng) for _ in range(3)]
        k = rng.randint(8, 14)
        start = len(R["reg"])
        for _ in range(k):
            u = rng.randint(5, 900)
            price = money(rng, 9, 480)
            m = q(D(rng.uniform(-8, 45)), 1)
            for key, v in zip(R, [reg, rng.choice(reps), rng.choice(lines), u, q(u * price), m]):
                R[key].append(v)
        groups.append((reg, start, len(R["reg"])))
    R["mar"][2] = D("-3.1")
    fm = F()
    cols = [Col("Region", "text", R["reg"]), Col("Sales Rep", "text", R["rep"]),
            Col("Product Line", "text", R["pl"]), Col("Units", "number", R["units"], F(places=0)),
            Col("Revenue", "number", R["rev"], fm), Col("Margin %", "percent", R["mar"], pct_fmt(1))]
    c = Case("05_sales_by_region_subtotals.csv",
             "Excel Data>Subtotal output, UTF-8, CRLF: after each region a '<Region> Total' subtotal row and at the end "
             "a 'Grand Total' row (5 non-data rows; none count in rows), Revenue as quoted \"1,234.50\", Units >999 as "
             "\"1,234\"? (no: units <=900), Margin % with negatives '-3.1%'",
             cols)
    c.header()
    for reg, a, b in groups:
        for i in range(a, b):
            c.row(i)
        c.rec([f"{reg} Total", "", "", num(sum(R["units"][a:b]), places=0), fm(sum(R["rev"][a:b])), ""])
    c.rec(["Grand Total", "", "", num(sum(R["units"]), places=0), fm(sum(R["rev"])), ""])
    c.what = ("Excel Data>Subtotal output, UTF-8, CRLF: after each of the 4 regions a '<Region> Total' subtotal row and "
              "at the end a 'Grand Total' row (5 non-data rows, not counted), Revenue as quoted \"1,234.50\", "
              "Margin % percent column with negatives like '-3.1%'")
    return c


def c06_fuel_brands(rng):
    brands = ["Aral", "BP", "Esso", "Gulf", "Jet", "Shell", "Texaco", "Total"]
    R = {k: [] for k in ["pe", "br", "lit", "rev", "avg"]}
    for m in range(1, 13):
        for b in brands:
            lit = rng.randint(20000, 400000)
            price = money(rng, 1.38, 1.72, 3)
            for key, v in zip(R, [month_end(2023, m), b, lit, q(lit * price), price]):
                R[key].append(v)
    first_total = R["br"].index("Total")
    fm = F(pre="£")
    cols = [Col("Period End", "date", R["pe"], opt(dmy), force=[first_total]),
            Col("Brand", "text", R["br"], force=[first_total]),
            Col("Litres Sold", "number", R["lit"], F(places=0), force=[first_total]),
            Col("Revenue", "number", R["rev"], fm, force=[first_total]),
            Col("Avg Price per Litre", "number", R["avg"], F(places=3), do_sum=False)]
    c = Case("06_forecourt_sales_by_brand.csv",
             "Forecourt fuel sales, UTF-8, CRLF, DD/MM/YYYY month-end dates: 'Total' is a real fuel BRAND appearing in 12 "
             "data rows (row 7, 15, ...); the LAST line is a real totals row with Brand='Total', empty Period End and "
             "Litres/Revenue equal to the column sums, which is NOT data. Litres as \"123,456\", Revenue \"£123,456.78\"",
             cols)
    c.header()
    c.rows()
    c.rec(["", "Total", num(sum(R["lit"]), places=0), fm(sum(R["rev"])), ""])
    return c


def c07_lubricants(rng):
    catalog = {
        "Castrol": ["EDGE 5W-30 LL", "GTX 10W-40", "MAGNATEC 5W-40 C3", "Vecton 10W-40"],
        "Elf": ["Evolution 900 SXR 5W-30", "Evolution 700 STI 10W-40"],
        "Fuchs": ["Titan GT1 Pro C-3 5W-30", "Titan Cargo MC 10W-40", "Titan ATF 4000"],
        "Liqui Moly": ["Top Tec 4200 5W-30", "Special Tec AA 0W-20", "Leichtlauf 10W-40"],
        "Mobil": ["Mobil 1 ESP 5W-30", "Super 3000 X1 5W-40", "Delvac MX 15W-40"],
        "Motul": ["8100 X-clean 5W-40", "Specific 504 00 507 00 0W-30"],
        "Shell": ["Helix Ultra 5W-40", "Helix HX7 10W-40", "Rimula R4 X 15W-40"],
        "Total": ["Quartz 9000 Energy 0W-30", "Quartz INEO ECS 5W-30", "Rubia TIR 8900 10W-40", "Quartz 7000 10W-40"],
    }
    R = {k: [] for k in ["br", "sku", "prod", "pack", "units", "sales"]}
    skus = rng.sample(range(10000, 999999), 60)
    for b, prods in catalog.items():
        for p in prods:
            for pack in rng.sample([D("1"), D("4"), D("5"), D("20"), D("208")], 2):
                units = rng.randint(3, 2400) if pack < 20 else rng.randint(1, 60)
                unit_price = money(rng, 6, 14) * pack if pack < 20 else money(rng, 3.5, 7) * pack
                for key, v in zip(R, [b, f"{skus.pop():07d}", p, pack, units, q(units * unit_price)]):
                    R[key].append(v)
    n = len(R["br"])
    assert R["br"][-1] == "Total" and R["sales"][-1] != sum(R["sales"][:-1])
    assert R["units"][-1] != sum(R["units"][:-1])
    totals = [i for i in range(n) if R["br"][i] == "Total"]
    cols = [Col("Brand", "text", R["br"], force=totals[:1]), Col("SKU", "text", R["sku"]),
            Col("Product", "text", R["prod"]), Col("Pack Size (L)", "number", R["pack"], general),
            Col("Units Sold", "number", R["units"], F(places=0)),
            Col("Net Sales (USD)", "number", R["sales"], F(), force=totals[:1])]
    c = Case("07_lubricant_sell_through.csv",
             "Distributor sell-through, UTF-8, LF, no totals row at all: rows sorted by Brand and the LAST 8 rows are the "
             "real oil brand 'Total' (their numbers do NOT equal the sum of the other rows, so they are data); SKUs with "
             "leading zeros (text), \"12,345.60\" quoted money",
             cols, nl="\n")
    c.header()
    c.rows()
    return c


CITIES = [("Boston", "MA", "021", "617"), ("Cambridge", "MA", "021", "617"), ("Worcester", "MA", "016", "508"),
          ("Providence", "RI", "029", "401"), ("Hartford", "CT", "061", "860"), ("New Haven", "CT", "065", "203"),
          ("Newark", "NJ", "071", "973"), ("Hoboken", "NJ", "070", "201"), ("Portland", "ME", "041", "207"),
          ("Burlington", "VT", "054", "802"), ("Manchester", "NH", "031", "603"), ("Chicago", "IL", "606", "312"),
          ("Austin", "TX", "787", "512"), ("Denver", "CO", "802", "303"), ("San Juan", "PR", "009", "787")]
STREETS = ["Main St", "Elm St", "Washington Ave", "Commercial St", "Harbor Dr", "Maple Ave", "Congress St",
           "Park Pl", "River Rd", "Industrial Pkwy"]


def c08_customers_us(rng):
    n = 40
    R = {k: [] for k in ["id", "co", "contact", "addr", "city", "st", "zip", "phone", "start", "renew", "acv", "ltv"]}
    ids = rng.sample(range(100, 9999), n)
    for i in range(n):
        city, st, zp, ac = rng.choice(CITIES)
        z = f"{zp}{rng.randint(1, 99):02d}"
        if rng.random() < 0.25:
            z += f"-{rng.randint(1, 9999):04d}"
        addr = f"{rng.randint(1, 9999)} {rng.choice(STREETS)}"
        if rng.random() < 0.3:
            addr += f", Suite {rng.randint(1, 12) * 100}"
        start = dt.date(rng.choice([2021, 2022, 2023]), rng.randint(1, 12), 1)
        renew = dt.date(start.year + rng.choice([1, 2, 3]), start.month, 1)
        acv = D(rng.randrange(6000, 180000, 500))
        ltv = acv * rng.randint(1, 4) + money(rng, 0, 9000)
        for key, v in zip(R, [f"{ids[i]:06d}", company(rng), person(rng), addr, city, st, z,
                              f"({ac}) 555-01{rng.randint(0, 99):02d}", start, renew, q(acv), ltv]):
            R[key].append(v)
    R["zip"][0] = "02134"
    R["city"][0], R["st"][0] = "Boston", "MA"
    R["phone"][0] = "(617) 555-0142"
    all_days_le12(R["start"])
    all_days_le12(R["renew"])
    fm = F(pre="$")
    cols = [Col("Customer ID", "text", R["id"]), Col("Company", "text", R["co"]), Col("Primary Contact", "text", R["contact"]),
            Col("Street Address", "text", R["addr"]), Col("City", "text", R["city"]), Col("State", "text", R["st"]),
            Col("ZIP", "text", R["zip"]), Col("Phone", "text", R["phone"]),
            Col("Contract Start", "date", R["start"], opt(mdy)), Col("Renewal Date", "date", R["renew"], opt(mdy)),
            Col("Annual Contract Value", "number", R["acv"], fm), Col("Lifetime Value", "number", R["ltv"], fm)]
    c = Case("08_customer_master_us.csv",
             "US customer master, UTF-8, CRLF: BOTH date columns are MM/01/YYYY (every day-part is 01, every month-part "
             "<=12, so the dates alone cannot tell US from day-first); $ amounts, 2-letter US states, ZIP codes and "
             "(617) phones say US -> read as month-first. ZIPs '02134' / ZIP+4 must stay text, customer IDs with leading "
             "zeros, addresses with commas",
             cols)
    c.header()
    c.rows()
    return c


def c09_billing_us(rng):
    plans = {"Starter": D("12.00"), "Team": D("29.00"), "Business": D("49.00"), "Enterprise": D("89.00")}
    accts = [(f"ACC-{rng.randint(100, 99999):05d}", rng.choice(list(plans)), rng.randint(3, 400),
              rng.choice([D("0"), D("0"), D("-10"), D("-15"), D("-12.5")])) for _ in range(20)]
    R = {k: [] for k in ["acct", "plan", "seats", "ps", "pe", "due", "mrr", "disc", "net"]}
    for m in (1, 2, 3):
        for a, plan, seats, disc in accts:
            seats = max(1, seats + rng.randint(-3, 5))
            start = dt.date(2024, m, 1)
            mrr = plans[plan] * seats
            for key, v in zip(R, [a, plan, seats, start, month_end(2024, m), start + dt.timedelta(days=14), mrr, disc,
                                  q(mrr * (100 + disc) / 100)]):
                R[key].append(v)
    all_days_le12(R["ps"])
    some_day_gt12(R["pe"])
    fm = F(pre="$")
    cols = [Col("Account ID", "text", R["acct"]), Col("Plan", "text", R["plan"]), Col("Seats", "number", R["seats"], F(places=0)),
            Col("Billing Period Start", "date", R["ps"], opt(mdy)), Col("Billing Period End", "date", R["pe"], opt(mdy)),
            Col("Invoice Due", "date", R["due"], opt(mdy)), Col("MRR", "number", R["mrr"], fm),
            Col("Discount", "percent", R["disc"], opt(lambda v: f"{v}%")), Col("Net MRR", "number", R["net"], fm)]
    c = Case("09_subscription_billing.csv",
             "SaaS billing, UTF-8, CRLF: 'Billing Period Start' is always the 1st (MM/01/YYYY, all days<=12, ambiguous on "
             "its own) but 'Billing Period End' (01/31/2024) and 'Invoice Due' (01/15/2024) in the same file are "
             "unambiguously month-first -> all three are US; \"$1,234.00\" money; Discount percent '0%', '-10%', '-12.5%'",
             cols)
    c.header()
    c.rows()
    return c


def c10_card_fr(rng):
    tmpl = [("CB CAFÉ DE LA GARE {d}", "Restaurants", 3, 25), ("CB BOULANGERIE LÉVÊQUE {d}", "Alimentation", 1.1, 18),
            ("CB CARREFOUR MARKET {d}", "Alimentation", 8, 160), ("CB SNCF INTERNET {d}", "Transport", 15, 140),
            ("CB PHARMACIE DU MARCHÉ {d}", "Santé", 4, 60), ("RETRAIT DAB {d} PARIS 11E", "Retraits", 20, 200),
            ("CB FNAC.COM {d}", "Loisirs", 10, 400)]
    ts = [rdt(rng, dt.date(2021, 9, 1), dt.date(2021, 11, 30)).replace(second=0) for _ in range(106)]
    ts.append(dt.datetime(2021, 9, 28, 3, 21))
    fixed = {}
    for m, mois in [(9, "SEPTEMBRE"), (10, "OCTOBRE"), (11, "NOVEMBRE")]:
        t = dt.datetime(2021, m, 28, 6, 5 + m)
        ts.append(t)
        fixed[t] = (f"VIR SEPA SALAIRE {mois} BRANDT SAS", "Revenus", money(rng, 2850, 3100))
        t = dt.datetime(2021, m, 5, 4, 12)
        ts.append(t)
        fixed[t] = ("PRLV SEPA EDF CLIENTS PARTICULIERS", "Énergie", -money(rng, 60, 140))
        t = dt.datetime(2021, m, 19, 5, 30)
        ts.append(t)
        fixed[t] = ("PRLV SEPA FREE MOBILE", "Télécom", D("-19.99"))
    t = dt.datetime(2021, 10, 16, 14, 47)
    ts.append(t)
    fixed[t] = ("CB FNAC.COM 16/10 MACBOOK AIR", "Loisirs", D("-1449.00"))
    ts.append(dt.datetime(2021, 11, 2, 0, 4))
    ts.sort()
    lab, cat, amt = [], [], []
    for t in ts:
        if t in fixed:
            l, ct, a = fixed[t]
        else:
            l, ct, lo, hi = rng.choice(tmpl)
            l = l.format(d=f"{t.day:02d}/{t.month:02d}")
            a = -money(rng, lo, hi)
            if ct == "Retraits":
                a = D(int(a / 10) * 10).quantize(D("0.01"))
        lab.append(l)
        cat.append(ct)
        amt.append(a)
    val = [(t + dt.timedelta(days=rng.choice([0, 0, 1, 2]))).date() for t in ts]
    fm = F(thou="\u00a0", dec=",", suf=" €")
    cols = [Col("Date opération", "timestamp", ts, opt(dmy_hm)), Col("Date de valeur", "date", val, opt(dmy)),
            Col("Libellé", "text", lab), Col("Catégorie", "text", cat), Col("Montant", "number", amt, fm)]
    c = Case("10_releve_carte_fr.csv",
             "French bank card export, Windows-1252 (É, é, ê, € as byte 0x80, NBSP 0xA0), semicolon, CRLF: day-first "
             "timestamps without seconds '28/09/2021 03:21' (-> 2021-09-28 03:21:00), DD/MM/YYYY value dates, amounts "
             "'-1\u00a0449,00 €' with NO-BREAK SPACE thousands separator, comma decimal and trailing ' €'; labels "
             "contain date-like text '27/09'",
             cols, delim=";", enc="cp1252")
    c.header()
    c.rows()
    return c


def c11_treasury(rng):
    n = 50
    ccy_list = ["USD", "USD", "EUR", "EUR", "GBP", "JPY", "CHF"]
    base = {"USD": D("1"), "EUR": D("1.0845"), "GBP": D("1.2650"), "JPY": D("0.006710"), "CHF": D("1.1240")}
    R = {k: [] for k in ["ref", "vd", "ben", "ccy", "amt", "rate", "usd"]}
    for i in range(n):
        ccy = rng.choice(ccy_list)
        if ccy == "JPY":
            a = rng.randint(50, 9000) * 1000
        else:
            a = money(rng, 100, 250000)
        rate = base[ccy] if ccy == "USD" else q(base[ccy] * D(str(round(rng.uniform(0.985, 1.015), 4))), 6)
        for key, v in zip(R, [f"PAY-2024-{rng.randint(1, 99999):06d}", rdate(rng, dt.date(2024, 3, 1), dt.date(2024, 3, 28)),
                              company(rng), ccy, a, rate, None]):
            R[key].append(v)
    # returns / reversals
    R["ccy"][3], R["amt"][3], R["rate"][3] = "EUR", D("-1234.50"), D("1.084500")
    R["ccy"][9], R["amt"][9], R["rate"][9] = "USD", D("-250.00"), D("1")
    R["ccy"][0], R["amt"][0], R["rate"][0] = "CHF", D("1234.50"), D("1.124000")
    R["ccy"][n - 1], R["amt"][n - 1], R["rate"][n - 1] = "JPY", 120000, D("0.006712")
    R["ccy"][5], R["amt"][5], R["rate"][5] = "EUR", D("12.50"), D("1.084500")
    R["ccy"][6], R["amt"][6], R["rate"][6] = "GBP", D("980.00"), D("1.265000")
    R["usd"] = [q(D(a) * r) for a, r in zip(R["amt"], R["rate"])]
    R["vd"].sort()

    def famt(ccy, a):
        return {"USD": lambda: num(a, pre="$"), "EUR": lambda: num(a, pre="EUR ", neg="inner"),
                "GBP": lambda: num(a, pre="£"), "JPY": lambda: num(a, places=0, pre="¥"),
                "CHF": lambda: num(a, thou="'", pre="CHF ")}[ccy]()
    strs = [famt(c_, a) for c_, a in zip(R["ccy"], R["amt"])]
    rate_strs = [f"{r:.6f}" for r in R["rate"]]
    cols = [Col("Payment Ref", "text", R["ref"]), Col("Value Date", "date", R["vd"], opt(dt.date.isoformat)),
            Col("Beneficiary", "text", R["ben"]), Col("Currency", "text", R["ccy"]),
            Col("Payment Amount", "number", R["amt"], strs=strs, force=[0, 3, 5, 6, 9]),
            Col("FX Rate to USD", "number", R["rate"], strs=rate_strs, do_sum=False),
            Col("USD Equivalent", "number", R["usd"], F(thou=""))]
    c = Case("11_treasury_payments_multiccy.csv",
             "Treasury payment run, UTF-8, CRLF: 'Payment Amount' mixes currency markers per row: \"$1,234.50\", "
             "'-$250.00', 'EUR 12.50', \"EUR -1,234.50\", '£980.00', \"¥120,000\" (no decimals), \"CHF 1'234.50\" (apostrophe "
             "thousands); all decimals are '.'; ISO dates; 'USD Equivalent' plain 1234.50. Sum of Payment Amount is a "
             "pure checksum across currencies",
             cols)
    c.header()
    c.rows()
    return c


def c12_swiss(rng):
    n = 70
    texts = [("Zahlung Rechnung {r} Müller AG", -1), ("Miete Büro Zürich {m}", -1), ("Lohnzahlung {m}", -1),
             ("Einnahme Kunde Bühler & Co. RG {r}", 1), ("Spesen Reise Genève", -1), ("Zahlungseingang Frei Gärten GmbH", 1),
             ("Swisscom Rechnung {m}", -1), ("Einnahme Kunde Lüthi Treuhand", 1), ("Zahlungseingang Keller Bau AG", 1),
             ("Einnahme Kunde Meier Transporte RG {r}", 1)]
    dates = sorted(rdate(rng, dt.date(2024, 1, 3), dt.date(2024, 3, 28)) for _ in range(n))
    R = {k: [] for k in ["d", "bel", "txt", "gk", "amt", "vat", "sal"]}
    bal = D("48250.00")
    mon = {1: "Januar", 2: "Februar", 3: "März"}
    for i, d in enumerate(dates):
        t, sgn = rng.choice(texts)
        a = money(rng, 40, 12500) * sgn
        bal += a
        for key, v in zip(R, [d, f"{118 + i:06d}", t.format(r=f"2024-{rng.randint(1, 400):04d}", m=mon[d.month]),
                              str(rng.choice([3200, 3400, 4000, 5000, 6000, 6510])),
                              a, rng.choice([D("8.1"), D("8.1"), D("2.6"), D("0.0")]), bal]):
            R[key].append(v)
    fm = F(thou="'", pre="CHF ", neg="inner")
    cols = [Col("Datum", "date", R["d"], opt(lambda d: dmy(d, "."))), Col("Beleg", "text", R["bel"]),
            Col("Buchungstext", "text", R["txt"]), Col("Gegenkonto", "text", R["gk"], check=False),
            Col("Betrag", "number", R["amt"], fm), Col("MWST-Satz", "percent", R["vat"], pct_fmt(1, sep=" ")),
            Col("Saldo", "number", R["sal"], F(thou="'"), do_sum=False)]
    c = Case("12_kontoblatt_1020_ch.csv",
             "Swiss ledger (Kontoblatt), UTF-8 with BOM, semicolon, CRLF: 3 preamble lines + ';;;;;;' spacer, "
             "DD.MM.YYYY dates, Betrag as \"CHF 1'234.50\" / \"CHF -1'234.50\" (apostrophe thousands, '.' decimal), "
             "Saldo \"12'345.60\" without prefix, MWST-Satz '8.1 %' with a space, "
             "Beleg numbers with leading zeros",
             cols, delim=";", bom=True)
    c.raw("Kontoblatt;;;;;;")
    c.raw("Konto 1020 Bank UBS;;;;;;")
    c.raw("Periode: 01.01.2024 - 31.03.2024;;;;;;")
    c.raw(";;;;;;")
    c.header()
    c.rows()
    return c


def c13_japan(rng):
    stores = [("0012", "渋谷店"), ("0013", "新宿店"), ("0101", "梅田店"), ("0205", "札幌店"), ("0310", "博多店")]
    items = [("緑茶 500ml", 150), ("ほうじ茶 600ml", 160), ("おにぎり 鮭", 180), ("幕の内弁当", 650),
             ("カップ麺 しょうゆ", 230), ("ドリップコーヒー", 120), ("ギフトセット 和菓子", 3240)]
    n = 60
    dates = sorted(rdate(rng, dt.date(2024, 3, 1), dt.date(2024, 3, 31)) for _ in range(n))
    R = {k: [] for k in ["d", "sc", "sn", "item", "qty", "price", "amt", "yoy"]}
    for d in dates:
        sc, sn = rng.choice(stores)
        it, pr = rng.choice(items)
        qty = rng.randint(1, 400) if rng.random() > 0.07 else -rng.randint(1, 5)
        for key, v in zip(R, [d, sc, sn, it, qty, pr, qty * pr, q(D(rng.uniform(-15, 25)), 1)]):
            R[key].append(v)
    R["qty"][4] = -2
    R["amt"][4] = -2 * R["price"][4]
    yen = F(places=0, pre="¥")
    cols = [Col("日付", "date", R["d"], opt(lambda d: d.strftime("%Y/%m/%d"))), Col("店舗コード", "text", R["sc"]),
            Col("店舗名", "text", R["sn"]), Col("商品名", "text", R["item"]), Col("数量", "number", R["qty"], F(places=0)),
            Col("単価", "number", R["price"], yen), Col("売上金額", "number", R["amt"], yen),
            Col("前年比", "percent", R["yoy"], pct_fmt(1))]
    c = Case("13_uriage_meisai_jp.csv",
             "Japanese POS sales, UTF-8 (no BOM), LF, Japanese headers: YYYY/MM/DD dates, store codes with leading zeros "
             "('0012', text), yen amounts with U+00A5 sign and no decimals \"¥12,000\", returns as '-2' / '-¥360', "
             "year-over-year percent '-3.2%'",
             cols, nl="\n")
    c.header()
    c.rows()
    return c


def c14_sap(rng):
    n = 100
    texts = ["Schrauben M8 – verzinkt", "Büromaterial Q1", "Frachtkosten Spedition Müller", "Reisekosten Köln",
             "Wartung Gabelstapler", "Gutschrift Kunde 10045", "Umbuchung Kostenstelle 4711", "Erlöse Ersatzteile"]
    dates = sorted(rdate(rng, dt.date(2024, 1, 2), dt.date(2024, 3, 28)) for _ in range(n))
    R = {k: [] for k in ["doc", "post", "no", "typ", "mat", "txt", "amt", "cur", "pc"]}
    for i, d in enumerate(dates):
        typ = rng.choice(["RV", "RV", "DR", "SA", "DG"])
        a = money(rng, 5, 48000)
        if typ in ("DG", "SA") and rng.random() < 0.8:
            a = -a
        mat = f"{rng.randint(1000, 99999999):018d}" if rng.random() < 0.7 else None
        for key, v in zip(R, [d - dt.timedelta(days=rng.randint(0, 4)), d, f"{100004500 + i * 7:010d}", typ, mat,
                              rng.choice(texts), a, "EUR", rng.choice(["0000010010", "0000010020", "0000020010"])]):
            R[key].append(v)
    R["amt"][2] = D("-84.10")
    R["amt"][n - 1] = D("-1234.10")
    some_day_gt12(R["post"])
    dd = opt(lambda d: dmy(d, "."))
    fm = F(neg="trail")
    cols = [Col("Doc. Date", "date", R["doc"], dd), Col("Pstng Date", "date", R["post"], dd),
            Col("DocumentNo", "text", R["no"]), Col("Type", "text", R["typ"]), Col("Material", "text", R["mat"]),
            Col("Text", "text", R["txt"]), Col("Amount in LC", "number", R["amt"], fm), Col("LCurr", "text", R["cur"]),
            Col("Profit Ctr", "text", R["pc"])]
    c = Case("14_sap_fbl3n_400000.txt",
             "SAP ALV 'Text with tabs' export: Windows-1252 (ü ö and en-dash 0x96), TAB-delimited, CRLF, .txt; 6 "
             "preamble lines (title, blank, 'Company Code<TAB>1000', 'G/L Account<TAB>0000400000', period, blank); "
             "DD.MM.YYYY dates; trailing-minus amounts '84.10-' / '1,234.10-'; 18-digit material numbers and 10-digit "
             "document numbers / profit centers with leading zeros (text; Material empty in some rows); footer blank + "
             "'Generated by SAP on ...' + 'Confidential' NOT data",
             cols, delim="\t", enc="cp1252")
    for line in ["G/L Account Line Item Display", "", "Company Code\t1000", "G/L Account\t0000400000",
                 "Period\t01.01.2024 - 31.03.2024", ""]:
        c.raw(line)
    c.header()
    c.rows()
    c.raw("")
    c.raw("Generated by SAP on 04.04.2024 10:15:22, user JSMITH, system PRD/100")
    c.raw("Confidential")
    return c


def c15_inventory(rng):
    n = 150
    items = [("Hex bolt, M8 x 40, zinc", 0.08, 0.25), ("Hex nut M8 DIN 934", 0.03, 0.09),
             ("Washer 8.4 mm, stainless", 0.03, 0.12), ("Cable tie 200 x 4.8, black", 0.02, 0.06),
             ("Wood screw 4 x 40, Torx", 0.03, 0.08), ("Anchor plug 10 mm", 0.05, 0.15), ("Hose clamp 20-32 mm", 0.4, 1.2),
             ("Drill bit HSS 6 mm", 1.5, 4.5), ("Safety gloves, size L", 2.1, 6.9), ("Duct tape 50 mm x 25 m", 2.9, 7.5),
             ("Sandpaper P120, 10-pack", 3.2, 6.8), ("WD-40 400 ml", 4.9, 8.5), ("LED tube 4ft 18W", 5.5, 14),
             ("PVC pipe 1/2\" x 10'", 3.8, 9.9), ("Copper elbow 3/4\"", 1.9, 4.6), ("Extension cord 25 ft, 12/3", 18, 42),
             ("Cordless drill 18V kit", 89, 189), ("Pallet jack 2500 kg", 1150, 1890)]
    R = {k: [] for k in ["sku", "desc", "wh", "oh", "res", "cost", "rop", "lcd", "lt"]}
    skus = rng.sample(range(1, 99999), n)
    for i in range(n):
        desc, clo, chi = rng.choice(items)
        cap = 5200 if chi < 10 else (400 if chi < 100 else 25)
        oh = rng.randint(0, cap) if rng.random() > 0.08 else Missing("N/A")
        if not is_missing(oh) and rng.random() < 0.03:
            oh = -rng.randint(1, 12)
        res = rng.randint(0, min(300, cap // 4)) if rng.random() > 0.1 else Missing("-")
        r = rng.random()
        cost = money(rng, clo, chi, 4 if chi < 1 else 2) if r > 0.07 else Missing("NULL" if r < 0.04 else "")
        rop = rng.randint(2, max(3, cap // 10)) if rng.random() > 0.1 else Missing("")
        lcd = rdate(rng, dt.date(2023, 9, 1), dt.date(2024, 3, 29)) if rng.random() > 0.1 else Missing("")
        lt = rng.randint(2, 90) if rng.random() > 0.15 else Missing(rng.choice(["N/A", "-", "NULL", ""]))
        for key, v in zip(R, [f"{skus[i]:06d}", desc, rng.choice(["DC-01", "DC-02", "STORE-114"]),
                              oh, res, cost, rop, lcd, lt]):
            R[key].append(v)
    R["cost"][n - 1] = Missing("NULL")
    R["oh"][5] = -4
    cols = [Col("SKU", "text", R["sku"]), Col("Description", "text", R["desc"]), Col("Warehouse", "text", R["wh"]),
            Col("On Hand", "number", R["oh"], opt(str)), Col("Reserved", "number", R["res"], opt(str)),
            Col("Unit Cost", "number", R["cost"], opt(lambda v: f"{v:f}")), Col("Reorder Point", "number", R["rop"], opt(str)),
            Col("Last Count Date", "date", R["lcd"], opt(dt.date.isoformat)),
            Col("Lead Time (days)", "number", R["lt"], opt(str))]
    c = Case("15_erp_inventory_snapshot.csv",
             "ERP inventory snapshot, UTF-8, CRLF: missing numbers written as 'N/A' (On Hand), '-' (Reserved), 'NULL' "
             "or empty (Unit Cost), empty (Reorder Point, Last Count Date) and a mix of all four in 'Lead Time (days)' "
             "-> all NULL; negative On Hand; 6-digit SKUs with leading zeros; descriptions with commas and "
             "doubled quotes (inch marks)",
             cols)
    c.header()
    c.rows()
    return c


def c16_used_range(rng):
    n = 200
    cats = {"Garden": (3, 120), "Hardware": (0.5, 60), "Paint": (8, 75), "Lumber": (4, 220), "Electrical": (1, 140),
            "Plumbing": (2, 180)}
    dates = sorted(rdate(rng, dt.date(2024, 3, 1), dt.date(2024, 4, 30)) for _ in range(n))
    R = {k: [] for k in ["d", "store", "cat", "units", "sales"]}
    for d in dates:
        cat = rng.choice(list(cats))
        u = rng.randint(1, 60) if rng.random() > 0.05 else -rng.randint(1, 5)
        p = money(rng, *cats[cat])
        for key, v in zip(R, [d, f"Store {rng.choice([14, 22, 103, 7, 58]):03d}", cat, u, q(u * p)]):
            R[key].append(v)
    R["sales"][3] = D("1234.50")
    R["units"][3] = 30
    R["units"][10], R["sales"][10] = -3, D("-89.97")
    some_day_gt12(R["d"])
    cols = [Col("Date", "date", R["d"], opt(mdy_np)), Col("Store", "text", R["store"]), Col("Category", "text", R["cat"]),
            Col("Units", "number", R["units"], opt(str)), Col("Sales", "number", R["sales"], general)]
    c = Case("16_daily_store_sales_usedrange.csv",
             "Excel 'Save as CSV' with a stale used range, cp1252/ASCII, CRLF: header and every row end with 2 extra empty "
             "columns (',,') that are not real columns; 8 trailing ',,,,,,' lines after the data (not rows); M/D/YYYY "
             "dates (days>12 present); Sales in Excel General format (1234.5, 804.1, -89.97 - no trailing zeros)",
             cols, enc="cp1252")
    c.header(extra=["", ""])
    c.rows(extra=["", ""])
    for _ in range(8):
        c.rec([""] * 7)
    return c


def c17_crm(rng):
    n = 45
    stages = ["Prospecting", "Qualification", "Proposal/Price Quote", "Negotiation/Review", "Closed Won", "Closed Lost"]
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    notes_pool = ["Call notes:\n- budget approved, PO expected next week\n- needs legal review of MSA",
                  "Champion left the company; new contact is the VP Ops, \"very price sensitive\".",
                  "Demo went well.\nAsked for SSO, audit log and EU data residency.",
                  "Waiting on security questionnaire (112 questions, due Friday)",
                  "Renewal at risk:\n1) usage down 30%\n2) competitor pilot running\n3) exec sponsor unresponsive",
                  "Verbal yes, paperwork pending", ""]
    R = {k: [] for k in ["id", "acct", "opp", "stage", "amt", "close", "owner", "next", "desc"]}
    for i in range(n):
        co = company(rng)
        kind = rng.choice(["New Business", "Renewal 2024", "Upsell", "Expansion – EMEA"])
        opp = f"{co.split(',')[0]} – {kind}"
        if rng.random() < 0.2:
            opp += ' ("Gold" tier)'
        amt = D(rng.randrange(2500, 480000, 250)).quantize(D("0.01")) if rng.random() > 0.1 else Missing("")
        nxt = rng.choice(["Send proposal", "Schedule demo, loop in SE", "Follow up w/ procurement", "", "Redline MSA"])
        for key, v in zip(R, ["006" + "5g00000" + "".join(rng.choice(alnum) for _ in range(5)), co, opp,
                              rng.choice(stages), amt, rdate(rng, dt.date(2024, 1, 1), dt.date(2024, 9, 30)),
                              person(rng), nxt or None, rng.choice(notes_pool) or None]):
            R[key].append(v)
    R["desc"][0] = notes_pool[0]
    R["desc"][n - 1] = notes_pool[4]
    R["opp"][1] = "Harborview Logistics – Renewal 2024 (\"Gold\" tier)"
    R["acct"][1] = "Harborview Logistics, Inc."
    some_day_gt12(R["close"])
    cols = [Col("Opportunity ID", "text", R["id"]), Col("Account Name", "text", R["acct"]),
            Col("Opportunity Name", "text", R["opp"]), Col("Stage", "text", R["stage"]),
            Col("Amount", "number", R["amt"], F(pre="$")), Col("Close Date", "date", R["close"], opt(mdy_np)),
            Col("Opportunity Owner", "text", R["owner"]), Col("Next Step", "text", R["next"]),
            Col("Description", "text", R["desc"], force=[0, n - 1])]
    c = Case("17_crm_opportunities.csv",
             "CRM report export, UTF-8, CRLF records, EVERY field quoted: multi-line Description cells (LF inside "
             "quotes), embedded commas and doubled quotes (\"\"Gold\"\" tier), en-dash in names, \"$12,500.00\" amounts with "
             "some empty (\"\") -> NULL, M/D/YYYY close dates (days>12 present), IDs starting with '006' (text)",
             cols, quote_all=True)
    c.header()
    c.rows()
    return c


def c18_summe_de(rng):
    n = 80
    names = [("Schraube M8 – verzinkt", 0.12, 0.35), ("Dübel 10 mm (100 Stk.)", 6.9, 12.5),
             ("Wärmeleitpaste 20 g", 4.5, 9.9), ("Maßband 5 m", 5.9, 14.9), ("Kabelbinder 200×4,8 mm", 0.04, 0.09),
             ("Türscharnier Edelstahl", 8.5, 24), ("Gewindestange M10 × 1 m", 1.9, 4.2), ("Rohrschelle ½\"", 0.6, 1.8),
             ("Sägeblatt für Kreissäge Ø 190 mm", 19, 59), ("Stoßdämpfer-Set", 89, 260),
             ("Flüssigkleber 'Extra stark'", 3.2, 7.9), ("Akku-Kreissäge HKS 18 – Profi", 980, 1450)]
    R = {k: [] for k in ["art", "bez", "menge", "preis", "rab", "ges"]}
    arts = rng.sample(range(1000, 99999), n)
    for i in range(n):
        m = rng.randint(1, 500) if rng.random() > 0.06 else -rng.randint(1, 10)
        nm, lo, hi = rng.choice(names)
        if hi > 500:
            m = max(-1, min(m, 4)) or 1
        p = money(rng, lo, hi)
        r = rng.choice([D("0"), D("0"), D("5"), D("10"), D("12.5"), D("3")])
        for key, v in zip(R, [f"{arts[i]:06d}", nm, m, p, r, q(m * p * (100 - r) / 100)]):
            R[key].append(v)
    R["art"][0] = "004711"
    R["bez"][1], R["menge"][1], R["preis"][1], R["rab"][1] = "Akku-Kreissäge HKS 18 – Profi", 1, D("1234.50"), D("0")
    R["ges"][1] = q(R["menge"][1] * R["preis"][1])
    fm = F(thou=".", dec=",", suf=" €")
    cols = [Col("Artikelnummer", "text", R["art"]), Col("Bezeichnung", "text", R["bez"]),
            Col("Menge", "number", R["menge"], opt(str)), Col("Einzelpreis", "number", R["preis"], fm),
            Col("Rabatt", "percent", R["rab"], pct_fmt(1, sep=" ", dec=",")), Col("Gesamtpreis", "number", R["ges"], fm)]
    c = Case("18_auftragspositionen_summe.csv",
             "German Excel CSV, Windows-1252 (ü ä ß ×, ½, Ø, en-dash, € = 0x80), semicolon, CRLF: prices '1.234,50 €' "
             "(trailing euro), percent '12,5 %' with comma decimal and space, returns with negative Menge, "
             "article numbers with leading zeros; last line 'Summe' with column sums NOT data",
             cols, delim=";", enc="cp1252")
    c.header()
    c.rows()
    c.rec(["Summe", "", str(sum(R["menge"])), "", "", fm(sum(R["ges"]))])
    return c


def c19_quickbooks(rng):
    accounts = [("Business Checking (1010)", 35, D("18250.00"), 12, 9800),
                ("Savings (1020)", 8, D("60000.00"), 500, 8000),
                ("Petty Cash (1050)", 12, D("500.00"), 4, 90)]
    types_by = {
        "Business Checking (1010)": [("Deposit", 1, "Sales", 800, 9800), ("Check", -1, "Office Supplies", 40, 900),
                                     ("Expense", -1, "Utilities", 120, 1400),
                                     ("Payment", 1, "Accounts Receivable (A/R)", 500, 12000),
                                     ("Payment", 1, "Accounts Receivable (A/R)", 500, 12000),
                                     ("Bill Payment (Check)", -1, "Accounts Payable (A/P)", 200, 6500),
                                     ("Expense", -1, "Rent or Lease", 4200, 4200), ("Transfer", -1, "Savings (1020)", 1000, 5000)],
        "Savings (1020)": [("Transfer", 1, "Business Checking (1010)", 1000, 5000),
                           ("Transfer", -1, "Business Checking (1010)", 1000, 8000),
                           ("Deposit", 1, "Interest Earned", 12, 95)],
        "Petty Cash (1050)": [("Expense", -1, "Meals and Entertainment", 4, 90), ("Expense", -1, "Office Supplies", 3, 60),
                              ("Expense", -1, "Postage and Delivery", 2, 45)]}
    memos = ["", "Q1 estimated, see attached", "Inv 1043, 1044", "Monthly service", "Reimb. mileage, Jan"]
    R = {k: [] for k in ["blank", "date", "type", "num", "name", "memo", "split", "amt", "bal"]}
    groups = []
    for acct, k, opening, _lo, _hi in accounts:
        dates = sorted(rdate(rng, dt.date(2024, 1, 2), dt.date(2024, 3, 29)) for _ in range(k))
        start = len(R["date"])
        bal = opening
        types = types_by[acct]
        chk = rng.randint(1040, 1100)
        for d in dates:
            t, sgn, split, lo, hi = rng.choice(types)
            a = money(rng, lo, hi) * sgn
            bal += a
            num_ = ""
            if t.startswith("Check") or t.startswith("Bill"):
                chk += 1
                num_ = str(chk)
            for key, v in zip(R, ["", d, t, num_, rng.choice([company(rng), person(rng)]), rng.choice(memos) or None,
                                  split, a, bal]):
                R[key].append(v)
        groups.append((acct, start, len(R["date"])))
    some_day_gt12(R["date"])
    fm = F(neg="paren")
    cols = [Col("", "text", R["blank"], check=False), Col("Date", "date", R["date"], opt(mdy)),
            Col("Transaction Type", "text", R["type"]), Col("Num", "text", R["num"], check=False),
            Col("Name", "text", R["name"]), Col("Memo/Description", "text", R["memo"]),
            Col("Split", "text", R["split"]), Col("Amount", "number", R["amt"], fm),
            Col("Balance", "number", R["bal"], fm, do_sum=False)]
    c = Case("19_quickbooks_transaction_detail.csv",
             "QuickBooks 'Transaction Detail by Account', UTF-8, CRLF: 3 title lines + blank, header whose FIRST column "
             "has no name, account group-header rows (name in col 1, rest empty), 'Total for <account>' subtotal rows "
             "and a final 'TOTAL' row (none are data: 3 group headers + 3 subtotals + 1 total excluded), blank line and "
             "'Accrual Basis ...' footer; MM/DD/YYYY dates, negatives in parentheses '(1,234.56)' in Amount and the "
             "running Balance (which starts from an opening balance, so Balance is not the cumulative sum of Amount)",
             cols)
    c.raw("Northwind Hardware LLC")
    c.raw("Transaction Detail by Account")
    c.raw('"January - March, 2024"')
    c.raw("")
    c.header()
    for acct, a, b in groups:
        c.rec([acct] + [""] * 8)
        for i in range(a, b):
            c.row(i)
        c.rec([f"Total for {acct}", "", "", "", "", "", "", fm(sum(R["amt"][a:b])), ""])
    c.rec(["TOTAL", "", "", "", "", "", "", fm(sum(R["amt"])), ""])
    c.raw("")
    c.raw('"Accrual Basis Monday, April 1, 2024 09:14 AM GMT-04:00"')
    return c


def c20_stripe(rng):
    n = 300
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ts = sorted(rdt(rng, dt.date(2024, 1, 1), dt.date(2024, 3, 31)) for _ in range(n))
    R = {k: [] for k in ["id", "type", "created", "avail", "amt", "fee", "net", "ccy", "desc", "email"]}
    for t in ts:
        r = rng.random()
        if r < 0.78:
            typ, a = "charge", money(rng, 5, 2500)
            fee = q(a * D("0.029") + D("0.30"))
        elif r < 0.88:
            typ, a, fee = "refund", -money(rng, 5, 500), D("0.00")
        elif r < 0.94:
            typ, a, fee = "payout", -money(rng, 1000, 20000), D("0.00")
        elif r < 0.97:
            typ, a, fee = "stripe_fee", -money(rng, 1, 50), D("0.00")
        else:
            typ, a, fee = "adjustment", money(rng, -300, 300), D("0.00")
        desc = {"charge": f"Invoice INV-{rng.randint(1000, 9999)}, {company(rng)}", "refund": "REFUND FOR CHARGE (Duplicate)",
                "payout": "STRIPE PAYOUT", "stripe_fee": "Billing - Usage Fee (2024-02)",
                "adjustment": "Chargeback withdrawal for ch_dispute"}[typ]
        fn = rng.choice(FIRST).lower()
        for key, v in zip(R, ["txn_" + "".join(rng.choice(alnum) for _ in range(24)), typ, t,
                              t.date() + dt.timedelta(days=2), a, fee, a - fee, "usd", desc,
                              f"{fn}.{rng.choice(LAST).lower().replace(chr(39), '')}@example.com" if typ == "charge" else None]):
            R[key].append(v)
    plain = F(thou="")
    cols = [Col("id", "text", R["id"]), Col("type", "text", R["type"]),
            Col("created (UTC)", "timestamp", R["created"], opt(lambda t: t.strftime("%Y-%m-%d %H:%M:%S"))),
            Col("available_on (UTC)", "date", R["avail"], opt(dt.date.isoformat)),
            Col("amount", "number", R["amt"], plain), Col("fee", "number", R["fee"], plain),
            Col("net", "number", R["net"], plain), Col("currency", "text", R["ccy"]),
            Col("description", "text", R["desc"]), Col("customer_email", "text", R["email"])]
    c = Case("20_payments_balance_history.csv",
             "Payment-processor balance history, UTF-8, LF (the clean control case): ISO timestamps "
             "'2024-03-05 14:03:22', ISO dates, plain decimals with leading minus, descriptions with commas quoted, "
             "empty customer_email for non-charges",
             cols, nl="\n")
    c.header()
    c.rows()
    return c


def c21_tpv_es(rng):
    n = 120
    prods = [("Café con leche – grande", "Cafetería", D("1.80")), ("Café solo", "Cafetería", D("1.30")),
             ("Tostada con tomate", "Desayunos", D("2.40")), ("Zumo de naranja natural", "Bebidas", D("3.20")),
             ("Croissant a la plancha", "Bollería", D("1.90")), ("Té verde", "Cafetería", D("1.60")),
             ("Caña de cerveza", "Bebidas", D("2.00")), ("Bocadillo de jamón ibérico", "Bocadillos", D("6.50")),
             ("Menú del día", "Comidas", D("13.90")), ("Tarta de queso (porción)", "Postres", D("4.50"))]
    dates = sorted(rdate(rng, dt.date(2024, 2, 1), dt.date(2024, 2, 29)) for _ in range(n))
    R = {k: [] for k in ["d", "tk", "prod", "cat", "u", "p", "imp", "iva"]}
    tk = 480
    for d in dates:
        tk += rng.randint(1, 4)
        pr, cat, p = rng.choice(prods)
        u = rng.randint(1, 6) if rng.random() > 0.05 else -1
        for key, v in zip(R, [d, f"{tk:06d}", pr, cat, u, p, q(u * p),
                              D("21") if cat == "Bebidas" and "cerveza" in pr else D("10")]):
            R[key].append(v)
    R["u"][7], R["imp"][7] = -1, -R["p"][7]
    some_day_gt12(R["d"])
    fm = F(thou=".", dec=",", suf=" €")
    cols = [Col("Fecha", "date", R["d"], opt(dmy)), Col("Ticket", "text", R["tk"]), Col("Producto", "text", R["prod"]),
            Col("Categoría", "text", R["cat"]), Col("Unidades", "number", R["u"], opt(str)),
            Col("Precio unitario", "number", R["p"], fm), Col("Importe", "number", R["imp"], fm),
            Col("IVA", "percent", R["iva"], opt(lambda v: f"{v} %"))]
    c = Case("21_ventas_tpv_febrero.csv",
             "Spanish café POS export, Windows-1252 (í, ó, en-dash, € 0x80), semicolon, CRLF: DD/MM/YYYY (days>12), "
             "'1,80 €' comma-decimal trailing euro, refunds '-1,80 €', IVA '10 %' / '21 %', ticket numbers with "
             "leading zeros; last line 'Total' with sums NOT data",
             cols, delim=";", enc="cp1252")
    c.header()
    c.rows()
    c.rec(["Total", "", "", "", str(sum(R["u"])), "", fm(sum(R["imp"])), ""])
    return c


def c22_budget(rng):
    n = 40
    depts = [("0410", "Marketing"), ("0420", "Sales"), ("0510", "Engineering"), ("0610", "Finance"), ("0710", "People")]
    accts = ["Salaries & Wages", "Travel & Entertainment", "Software Subscriptions", "Contractors", "Office Rent",
             "Training", "Advertising", "Recruiting Fees"]
    R = {k: [] for k in ["cc", "dep", "acc", "bud", "act", "var", "pct"]}
    for i in range(n):
        cc, dep = depts[i % len(depts)]
        b = rng.randrange(2000, 400000, 100)
        a = int(b * rng.uniform(0.75, 1.2))
        for key, v in zip(R, [cc, dep, accts[(i // len(depts)) % len(accts)], b, a, b - a, q(D(b - a) * 100 / b, 1)]):
            R[key].append(v)
    fm = F(places=0, pre="$", neg="paren")
    pf = opt(lambda v: f"({abs(v):.1f}%)" if v < 0 else f"{v:.1f}%")
    cols = [Col("Cost Center", "text", R["cc"]), Col("Department", "text", R["dep"]), Col("Account", "text", R["acc"]),
            Col("Budget", "number", R["bud"], fm), Col("Actual", "number", R["act"], fm),
            Col("Variance", "number", R["var"], fm), Col("Variance %", "percent", R["pct"], pf)]
    c = Case("22_budget_vs_actual_q1.csv",
             "FP&A budget vs actual, UTF-8, CRLF: whole-dollar money \"$12,345\" with accounting negatives \"($1,234)\", "
             "Variance % with negatives in parentheses '(4.2%)' (= -4.2%), cost centers '0410' (text); totals row with "
             "EMPTY first two cells and 'Total' in the 3rd column (NOT data), followed by 4 ',,,,,,' lines",
             cols)
    c.header()
    c.rows()
    B, A = sum(R["bud"]), sum(R["act"])
    c.rec(["", "", "Total", fm(B), fm(A), fm(B - A), pf(q(D(B - A) * 100 / B, 1))])
    for _ in range(4):
        c.rec([""] * 7)
    return c


def c23_timesheet_au(rng):
    emps = [(f"{rng.randint(1, 999):04d}", person(rng), money(rng, 28, 62)) for _ in range(10)]
    R = {k: [] for k in ["id", "name", "d", "cin", "cout", "brk", "hrs", "rate", "pay"]}
    for eid, name, rate in emps:
        days = sorted(rng.sample(range(0, 45), 15))
        for dd in days:
            d = dt.date(2024, 2, 5) + dt.timedelta(days=dd)
            h = rng.choice([6, 7, 8, 9, 14, 22])
            cin = dt.datetime(d.year, d.month, d.day, h, rng.choice([0, 15, 30, 45]))
            dur = rng.randint(16, 40) * 15  # minutes
            cout = cin + dt.timedelta(minutes=dur)
            brk = rng.choice([0, 30, 30, 45, 60]) if dur > 300 else 0
            hrs = q(D(dur - brk) / 60)
            for key, v in zip(R, [eid, name, d, cin, cout, brk, hrs, rate, q(hrs * rate)]):
                R[key].append(v)
    some_day_gt12(R["d"])
    fm = F(pre="$")
    cols = [Col("Employee ID", "text", R["id"]), Col("Employee", "text", R["name"]), Col("Date", "date", R["d"], opt(dmy)),
            Col("Clock In", "timestamp", R["cin"], opt(dmy_hm)), Col("Clock Out", "timestamp", R["cout"], opt(dmy_hm)),
            Col("Break (mins)", "number", R["brk"], opt(str)), Col("Hours", "number", R["hrs"], F()),
            Col("Rate", "number", R["rate"], fm, do_sum=False), Col("Gross Pay", "number", R["pay"], fm)]
    c = Case("23_timesheets_au.csv",
             "Australian timesheets, UTF-8, CRLF: '$' amounts (AUD) but dates are DAY-first DD/MM/YYYY (days>12 "
             "present) -> '$' must not be taken as evidence for US dates; clock-in/out day-first timestamps without "
             "seconds '13/02/2024 08:30', overnight shifts cross midnight; 4-digit employee IDs with leading zeros",
             cols)
    c.header()
    c.rows()
    return c


def c24_orders_us(rng):
    n = 120
    states = [("NY", D("8.875")), ("CA", D("7.25")), ("TX", D("6.25")), ("OR", D("0")), ("IL", D("10.25")),
              ("WA", D("10.1")), ("MA", D("6.25")), ("FL", D("7"))]
    ts = sorted(rdt(rng, dt.date(2024, 3, 1), dt.date(2024, 4, 30)) for _ in range(n - 2))
    ts += [dt.datetime(2024, 3, 14, 0, 7, 41), dt.datetime(2024, 4, 2, 12, 30, 5)]
    ts.sort()
    R = {k: [] for k in ["id", "t", "email", "st", "sub", "disc", "ship", "rate", "tax", "tot"]}
    for i, t in enumerate(ts):
        st, rate = rng.choice(states)
        sub = money(rng, 9, 1800)
        disc = -q(sub * rng.choice([D("0.10"), D("0.15")])) if rng.random() < 0.25 else D("0.00")
        ship = rng.choice([D("0.00"), D("5.99"), D("9.99"), D("14.50")])
        tax = q((sub + disc) * rate / 100)
        for key, v in zip(R, [f"#{1001 + i}", t, f"{rng.choice(FIRST).lower()}{rng.randint(1, 99)}@example.net", st,
                              sub, disc, ship, rate, tax, sub + disc + ship + tax]):
            R[key].append(v)
    some_day_gt12(R["t"])
    midnight = [R["t"].index(dt.datetime(2024, 3, 14, 0, 7, 41))]
    noon = [R["t"].index(dt.datetime(2024, 4, 2, 12, 30, 5))]
    fm = F(thou="")
    cols = [Col("Order", "text", R["id"]), Col("Created At", "timestamp", R["t"], opt(us_ampm), force=midnight[:1] + noon[:1]),
            Col("Email", "text", R["email"]), Col("Ship State", "text", R["st"]), Col("Subtotal", "number", R["sub"], fm),
            Col("Discount", "number", R["disc"], fm), Col("Shipping", "number", R["ship"], fm),
            Col("Tax Rate", "percent", R["rate"], opt(lambda v: f"{v}%")), Col("Tax", "number", R["tax"], fm),
            Col("Total", "number", R["tot"], fm)]
    c = Case("24_shop_orders_march_april.csv",
             "Web shop orders opened in Excel (US), UTF-8, CRLF: 'M/D/YYYY h:mm:ss AM/PM' timestamps incl. 12:07:41 AM "
             "(=00:07:41) and 12:30:05 PM (=12:30:05), days>12 present; a data COLUMN named 'Total' (not a totals row); "
             "Tax Rate '8.875%', '0%'; order ids '#1001'; discounts as plain negatives '-12.30'",
             cols)
    c.header()
    c.rows()
    return c


def c25_ar_aging_ie(rng):
    n = 60
    R = {k: [] for k in ["cust", "no", "cur", "b1", "b2", "b3", "b4", "tot"]}
    nos = rng.sample(range(100, 9999), n)
    irish = ["Ltd", "DAC", "Teoranta", "& Sons Ltd", "Services Ltd"]
    for i in range(n):
        name = f"{rng.choice(['Shannon', 'Liffey', 'Burren', 'Corrib', 'Wicklow', 'Atlantic', 'Claddagh', 'Erne', 'Barrow', 'Boyne'])} " \
               f"{rng.choice(['Foods', 'Engineering', 'Pharma', 'Motors', 'Print', 'Builders', 'Logistics', 'Medical'])} {rng.choice(irish)}"
        b = [money(rng, 50, 24000) if rng.random() < p else D("0.00") for p in (0.7, 0.45, 0.3, 0.2, 0.15)]
        if rng.random() < 0.08:
            b[0] = -money(rng, 20, 900)
        for key, v in zip(R, [name, f"{nos[i]:05d}"] + b + [sum(b)]):
            R[key].append(v)
    R["cur"][2] = D("-250.00")
    R["tot"][2] = R["cur"][2] + R["b1"][2] + R["b2"][2] + R["b3"][2] + R["b4"][2]
    R["cust"][5] = "O'Neill & Daughters, Kilkenny"
    fm = F(pre="€")
    cols = [Col("Customer", "text", R["cust"]), Col("Customer No", "text", R["no"]),
            Col("Current", "number", R["cur"], fm), Col("1 - 30", "number", R["b1"], fm),
            Col("31 - 60", "number", R["b2"], fm), Col("61 - 90", "number", R["b3"], fm),
            Col("Over 90", "number", R["b4"], fm), Col("Total Balance", "number", R["tot"], fm)]
    c = Case("25_ar_aging_ie.csv",
             "Irish AR aging, UTF-8, CRLF: leading euro \"€1,234.56\" and '-€250.00', a data COLUMN named 'Total Balance'; "
             "after the data a blank line, a 'Grand Total' row, a blank line, 'Report generated 01/04/2024 08:02 by "
             "mkelly' and 'Confidential – for internal use only' footers (none are data); customer numbers with "
             "leading zeros",
             cols)
    c.header()
    c.rows()
    c.raw("")
    c.rec(["Grand Total", ""] + [fm(sum(R[k])) for k in ["cur", "b1", "b2", "b3", "b4", "tot"]])
    c.raw("")
    c.raw("Report generated 01/04/2024 08:02 by mkelly")
    c.raw("Confidential – for internal use only")
    return c


def c26_vendors(rng):
    n = 50
    R = {k: [] for k in ["id", "name", "addr", "city", "sp", "pc", "cty", "ph", "tax", "bank", "terms", "lim", "lpd"]}
    ids = rng.sample(range(1, 9999), n)
    gb = [("London", "SW1A 1AA", "+44 20 7946 0"), ("Manchester", "M1 1AE", "+44 161 496 0"), ("Leeds", "LS1 4AP", "+44 113 496 0")]
    de = [("Berlin", "10115", "+49 30 901820"), ("Dresden", "01067", "+49 351 4400")]
    ca = [("Montreal", "QC", "H3Z 2Y7", "(514) 555-01"), ("Toronto", "ON", "M5V 3L9", "(416) 555-01")]
    for i in range(n):
        r = rng.random()
        if r < 0.6:
            city, st, zp, ac = rng.choice(CITIES)
            pc = f"{zp}{rng.randint(1, 99):02d}" + (f"-{rng.randint(1, 9999):04d}" if rng.random() < 0.3 else "")
            row = (city, st, pc, "US", f"{ac}-555-01{rng.randint(0, 99):02d}" + (f" ext. {rng.randint(10, 99)}" if rng.random() < 0.15 else ""),
                   f"{rng.randint(1, 99):02d}-{rng.randint(0, 9999999):07d}")
        elif r < 0.8:
            city, pc, ph = rng.choice(gb)
            row = (city, None, pc, "GB", f"{ph}{rng.randint(0, 999):03d}", f"GB{rng.randint(100000000, 999999999)}")
        elif r < 0.9:
            city, pc, ph = rng.choice(de)
            row = (city, None, pc, "DE", f"{ph}{rng.randint(0, 99):02d}", f"DE{rng.randint(100000000, 999999999)}")
        else:
            city, st, pc, ph = rng.choice(ca)
            row = (city, st, pc, "CA", f"{ph}{rng.randint(0, 99):02d}", f"{rng.randint(100000000, 999999999)}RT0001")
        lim = rng.randrange(5000, 250000, 5000) if rng.random() > 0.15 else Missing("")
        lpd = rdate(rng, dt.date(2023, 6, 1), dt.date(2024, 3, 28)) if rng.random() > 0.1 else Missing("")
        for key, v in zip(R, [f"{ids[i]:06d}", company(rng), f"{rng.randint(1, 999)} {rng.choice(STREETS)}", row[0], row[1],
                              row[2], row[3], row[4], row[5], f"{rng.randint(0, 99999999):012d}",
                              rng.choice(["Net 30", "Net 45", "2/10 Net 30", "Due on receipt"]), lim, lpd]):
            R[key].append(v)
    R["city"][0], R["sp"][0], R["pc"][0], R["cty"][0], R["ph"][0] = "Hoboken", "NJ", "07030", "US", "201-555-0199"
    R["tax"][0] = "04-1234567"
    R["pc"][n - 1], R["cty"][n - 1], R["sp"][n - 1], R["city"][n - 1] = "01067", "DE", None, "Dresden"
    R["ph"][n - 1] = "+49 351 440012"
    R["tax"][n - 1] = "DE811204596"
    cols = [Col("vendor_id", "text", R["id"]), Col("vendor_name", "text", R["name"]), Col("address_line1", "text", R["addr"]),
            Col("city", "text", R["city"]), Col("state_province", "text", R["sp"]), Col("postal_code", "text", R["pc"]),
            Col("country", "text", R["cty"]), Col("phone", "text", R["ph"]), Col("tax_id", "text", R["tax"]),
            Col("bank_account", "text", R["bank"]), Col("payment_terms", "text", R["terms"]),
            Col("credit_limit", "number", R["lim"], opt(str)), Col("last_payment_date", "date", R["lpd"], opt(dt.date.isoformat))]
    c = Case("26_vendor_master.csv",
             "Vendor master, UTF-8 with BOM, CRLF: text-only identifier columns that look numeric: vendor_id '000123', "
             "postal_code '07030' / '07030-5774' / 'SW1A 1AA' / '01067', phone '201-555-0199' / '+44 20 7946 0123', "
             "EIN '04-1234567', 12-digit bank_account with leading zeros; credit_limit integers with some empty",
             cols, bom=True)
    c.header()
    c.rows()
    return c


def c27_pageviews_quoted(rng):
    pages = ["/", "/pricing", "/blog/csv-import-tips", "/blog/duckdb-vs-sqlite", "/docs/quickstart", "/docs/api",
             "/customers", "/changelog", "/integrations/salesforce", "/contact-sales"]
    R = {k: [] for k in ["d", "p", "pv", "upv", "avg", "ent", "exit"]}
    for k in range(20):
        d = dt.date(2024, 3, 1) + dt.timedelta(days=k)
        for p in pages:
            pv = rng.randint(50, 15000) if p != "/" else rng.randint(9000, 48000)
            upv = int(pv * rng.uniform(0.6, 0.95))
            for key, v in zip(R, [d, p, pv, upv, q(D(rng.uniform(8, 240)), 1), int(upv * rng.uniform(0.1, 0.9)),
                                  q(D(rng.uniform(5, 85)), 1)]):
                R[key].append(v)
    R["pv"][1], R["upv"][1], R["ent"][1] = 999, 874, 512
    R["pv"][2], R["upv"][2], R["ent"][2] = 1000, 911, 630
    some_day_gt12(R["d"])
    fm0 = F(places=0)
    cols = [Col("Date", "date", R["d"], opt(lambda d: f"{d.strftime('%b')} {d.day}, {d.year}")),
            Col("Page Path", "text", R["p"]), Col("Pageviews", "number", R["pv"], fm0, force=[1, 2]),
            Col("Unique Pageviews", "number", R["upv"], fm0), Col("Avg. Time on Page (s)", "number", R["avg"], F(places=1)),
            Col("Entrances", "number", R["ent"], fm0), Col("Exit Rate", "percent", R["exit"], pct_fmt(1))]
    c = Case("27_pageviews_daily_all_quoted.csv",
             "BI tool export, UTF-8, LF, EVERY field quoted: dates 'Mar 5, 2024' (comma inside), integers \"1,234\" with "
             "thousands separators next to \"999\" without (rows 1 and 2: 999 and 1,000), one-decimal 65.4, Exit Rate '45.2%'",
             cols, nl="\n", quote_all=True)
    c.header()
    c.rows()
    return c


def c28_powerbi(rng):
    n = 150
    regions = ["East", "West", "Central", "South"]
    prods = ["Binder Clips", "Ergonomic Chair", "Standing Desk", "Label Printer", "Paper Shredder", "Monitor Arm"]
    dates = sorted(rdate(rng, dt.date(2024, 1, 1), dt.date(2024, 3, 31)) for _ in range(n))
    R = {k: [] for k in ["od", "st", "reg", "prod", "qty", "sales", "disc", "profit"]}
    for d in dates:
        ship = (dt.datetime(d.year, d.month, d.day) + dt.timedelta(days=rng.randint(1, 6), hours=rng.randint(7, 19),
                                                                    minutes=rng.randint(0, 59))) if rng.random() > 0.1 else Missing("")
        qty = rng.randint(1, 14)
        sales = q(qty * money(rng, 2, 650))
        disc = rng.choice([D("0"), D("0"), D("0.1"), D("0.2"), D("0.25")])
        profit = q(sales * D(str(round(rng.uniform(-0.35, 0.4), 2))))
        for key, v in zip(R, [d, ship, rng.choice(regions), rng.choice(prods), qty, sales, disc, profit]):
            R[key].append(v)
    some_day_gt12(R["od"])
    cols = [Col("Order Date", "date", R["od"], opt(lambda d: f"{d.month}/{d.day}/{d.year} 12:00:00 AM")),
            Col("Ship Timestamp", "timestamp", R["st"], opt(us_ampm)), Col("Region", "text", R["reg"]),
            Col("Product", "text", R["prod"]), Col("Quantity", "number", R["qty"], opt(str)),
            Col("Sales", "number", R["sales"], general), Col("Discount", "number", R["disc"], general),
            Col("Profit", "number", R["profit"], general)]
    c = Case("28_powerbi_export_data.csv",
             "Power BI 'Export data', UTF-8 with BOM, CRLF: a DATE column written as 'M/D/YYYY 12:00:00 AM' on every "
             "row (all midnight; expected as date), a real timestamp column 'M/D/YYYY h:mm:ss AM/PM' with some empty; "
             "numbers in General format (1234.5, -12.3); Discount is a raw fraction 0.25 (number, not a % string)",
             cols, bom=True)
    c.header()
    c.rows()
    return c


def c29_fatture_it(rng):
    n = 70
    clients = ["Società Rossi S.r.l.", "Ferramenta Bianchi & Figli S.n.c.", "Caffè Verdi S.p.A.", "Lavanderia L'Aquila",
               "Officina Meccanica Galli S.r.l.", "Studio Dentistico Dr. Ricci", "Pasticceria Colombo", "Trattoria Da Nicolò"]
    dates = sorted(rdate(rng, dt.date(2024, 1, 8), dt.date(2024, 4, 30)) for _ in range(n))
    R = {k: [] for k in ["nr", "cli", "d", "imp", "ivap", "iva", "tot", "sc"]}
    for i, d in enumerate(dates):
        imp = money(rng, 40, 18000)
        if rng.random() < 0.06:
            imp = -imp
        ivap = rng.choice([22, 22, 22, 10, 4])
        iva = q(imp * ivap / 100)
        for key, v in zip(R, [f"2024/{i + 123:05d}", rng.choice(clients), d, imp, D(ivap), iva, imp + iva,
                              rng.choice([D("0"), D("0"), D("2"), D("2.5")])]):
            R[key].append(v)
    R["imp"][3] = D("-1234.50")
    R["ivap"][3] = D(22)
    R["iva"][3] = q(R["imp"][3] * 22 / 100)
    R["tot"][3] = R["imp"][3] + R["iva"][3]
    some_day_gt12(R["d"])
    pre = F(thou=".", dec=",", pre="EUR ", neg="inner")
    suf = F(thou=".", dec=",", suf=" EUR")
    cols = [Col("Numero fattura", "text", R["nr"]), Col("Cliente", "text", R["cli"]), Col("Data fattura", "date", R["d"], opt(dmy)),
            Col("Imponibile", "number", R["imp"], pre), Col("IVA %", "percent", R["ivap"], opt(lambda v: f"{v}%")),
            Col("IVA", "number", R["iva"], pre), Col("Totale", "number", R["tot"], suf),
            Col("Sconto", "percent", R["sc"], opt(lambda v: str(v).replace(".", ",") + "%"))]
    c = Case("29_fatture_emesse_it.csv",
             "Italian invoice register, UTF-8 (no BOM), LF, semicolon: amounts with currency CODE prefix 'EUR 1.234,50' "
             "and 'EUR -1.234,50' and suffix '1.506,09 EUR' / '-1.506,09 EUR' (dot thousands, comma decimal), "
             "DD/MM/YYYY (days>12), percent '22%' and '2,5%'; invoice numbers like '2024/00123' (text)",
             cols, delim=";", nl="\n")
    c.header()
    c.rows()
    return c


def c30_tableau(rng):
    cats = {"Furniture": ["Bookcases", "Chairs", "Furnishings", "Tables"],
            "Office Supplies": ["Appliances", "Art", "Binders", "Envelopes", "Fasteners", "Labels", "Paper", "Storage", "Supplies"],
            "Technology": ["Accessories", "Copiers", "Machines", "Phones"]}
    R = {k: [] for k in ["reg", "cat", "sub", "sales", "profit", "ratio", "qty"]}
    for reg in ["Central", "East", "South", "West"]:
        for cat, subs in cats.items():
            for s in subs:
                sales = rng.randint(2000, 200000)
                profit = int(sales * rng.uniform(-0.2, 0.3))
                for key, v in zip(R, [reg, cat, s, sales, profit, q(D(profit) * 100 / sales, 1), rng.randint(40, 2400)]):
                    R[key].append(v)
    money0 = F(places=0, pre="$")
    cols = [Col("Region", "text", R["reg"]), Col("Category", "text", R["cat"]), Col("Sub-Category", "text", R["sub"]),
            Col("Sales", "number", R["sales"], money0), Col("Profit", "number", R["profit"], money0),
            Col("Profit Ratio", "percent", R["ratio"], pct_fmt(1)), Col("Quantity", "number", R["qty"], F(places=0))]
    c = Case("30_tableau_crosstab.csv",
             "Tableau 'Crosstab' download: UTF-16LE with BOM, TAB-delimited despite .csv, CRLF: '$163,797' / '-$2,871' "
             "whole-dollar money (unquoted, tab file), '1,827' quantities, Profit Ratio '-1.8%'; last row 'Grand Total' "
             "NOT data",
             cols, delim="\t", enc="utf-16-le")
    c.header()
    c.rows()
    S, P = sum(R["sales"]), sum(R["profit"])
    c.rec(["Grand Total", "", "", money0(S), money0(P), pct_fmt(1)(q(D(P) * 100 / S, 1)), num(sum(R["qty"]), places=0)])
    return c


def c31_hr(rng):
    n = 80
    R = {k: [] for k in ["id", "name", "birth", "hire", "term", "dept", "sal"]}
    ids = rng.sample(range(1, 99999), n)
    for i in range(n):
        b = rdate(rng, dt.date(1944, 1, 1), dt.date(1999, 12, 31))
        h = rdate(rng, max(dt.date(b.year + 20, b.month, 1), dt.date(1995, 1, 1)), dt.date(2024, 3, 1))
        t = rdate(rng, h + dt.timedelta(days=90), dt.date(2024, 3, 15)) if rng.random() < 0.2 and h < dt.date(2023, 12, 1) else None
        for key, v in zip(R, [f"{ids[i]:06d}", person(rng), b, h, t,
                              rng.choice(["Finance", "Sales", "Engineering", "Operations", "HR", "Legal"]),
                              rng.randrange(38000, 185000, 500)]):
            R[key].append(v)
    R["birth"][0] = dt.date(1945, 3, 12)
    R["hire"][0] = dt.date(2019, 1, 3)
    assert sum(1 for b in R["birth"] if b.year < 1969) >= 10
    f = opt(lambda d: f"{d.day}-{d.strftime('%b')}-{d.year % 100:02d}")
    cols = [Col("employee_id", "text", R["id"]), Col("full_name", "text", R["name"]),
            Col("birth_date", "date", R["birth"], f, force=[i for i, b in enumerate(R["birth"]) if b.year < 1969][:2]),
            Col("hire_date", "date", R["hire"], f), Col("termination_date", "date", R["term"], f),
            Col("department", "text", R["dept"]), Col("annual_salary", "number", R["sal"], opt(str))]
    c = Case("31_hr_employee_roster.csv",
             "HRIS roster, UTF-8, LF: Excel 'd-mmm-yy' two-digit-year dates: birth_date '12-Mar-45' -> 1945 (birth years "
             "1944-1999, so 44..68 must NOT become 2044..2068), hire_date/termination_date '3-Jan-19' -> 2019 and "
             "'..-..-9x' -> 199x (every date is in the past); termination_date mostly empty; employee ids with leading zeros",
             cols, nl="\n")
    c.header()
    c.rows()
    return c


CASES = [c01_invoices_us, c02_bank_de, c03_payroll_uk, c04_ga, c05_region_subtotals, c06_fuel_brands, c07_lubricants,
         c08_customers_us, c09_billing_us, c10_card_fr, c11_treasury, c12_swiss, c13_japan, c14_sap, c15_inventory,
         c16_used_range, c17_crm, c18_summe_de, c19_quickbooks, c20_stripe, c21_tpv_es, c22_budget, c23_timesheet_au,
         c24_orders_us, c25_ar_aging_ie, c26_vendors, c27_pageviews_quoted, c28_powerbi, c29_fatture_it, c30_tableau,
         c31_hr]


def describe_bytes(c):
    enc = {"utf-8": "UTF-8", "cp1252": "Windows-1252", "utf-16-le": "UTF-16LE"}[c.enc]
    if c.bom or c.enc == "utf-16-le":
        enc += "+BOM"
    delim = {",": "comma", ";": "semicolon", "\t": "tab"}[c.delim]
    nl = {"\r\n": "CRLF", "\n": "LF"}[c.nl]
    return f"{enc}, {delim}, {nl}"


def main():
    os.makedirs(FILES, exist_ok=True)
    expect = []
    readme = ["# export-probe: realistic export-style CSV files with ground truth", "",
              "Regenerate with `python make.py` (seeded, standard library only). Ground truth comes from the generator's",
              "own values, never from parsing the files.", "",
              "## expect.json conventions", "",
              "* `rows`: number of real data rows (header, preamble, footer notes, blank/`,,,,` lines, subtotal and",
              "  totals rows excluded).",
              "* `columns`: keyed by header text exactly as in the file (decoded). Only columns listed are checked; e.g.",
              "  the unnamed first column of the QuickBooks file and the `,,` stale-used-range columns are not listed.",
              "* Cell keys are 0-based indexes among data rows. `null` = missing (N/A, -, NULL, empty); for text",
              "  columns an empty cell is `null` and a loader may equally store ''.",
              "* number: the numeric value (money symbols/codes stripped, (x) and x- negative). percent:",
              "  `{fraction, as_written}`; a loader may store either but must say which. date: YYYY-MM-DD.",
              "  timestamp: YYYY-MM-DD HH:MM:SS (no timezone conversion).",
              "* `sums`: exact sum over data rows of each checked numeric column (missing cells skipped). For",
              "  `Payment Amount` in file 11 the sum mixes currencies and is only a checksum.", "",
              "## Files", "",
              "| file | bytes | rows | quirks |", "|---|---|---|---|"]
    for k, fn in enumerate(CASES):
        rng = random.Random(SEED * 100 + k)
        c = fn(rng)
        c.selfcheck()
        with open(os.path.join(FILES, c.file), "wb") as fh:
            fh.write(c.bytes())
        expect.append(c.expect(random.Random(SEED * 1000 + k)))
        readme.append(f"| {c.file} | {describe_bytes(c)} | {c.n} | {c.what.replace('|', '/')} |")
    with open(os.path.join(HERE, "expect.json"), "w", encoding="utf-8") as fh:
        json.dump(expect, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    readme += ["", "## Genuinely ambiguous spots (what a careful loader should do)", "", AMBIG]
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(readme) + "\n")
    print(f"wrote {len(expect)} files to {FILES}")


AMBIG = """\
* 08_customer_master_us.csv: every date is MM/01/YYYY, so both MM/DD and DD/MM parse. Expected = month-first
  because of $, US states, ZIPs and US phone numbers. A loader without locale evidence should at least warn
  (or let the user choose) rather than silently pick day-first.
* 09_subscription_billing.csv: Billing Period Start alone is ambiguous; the other date columns in the same file
  are provably month-first. Expected = decide the date order per file (or per export), not per column.
* 03_payroll_uk_q1.csv: Pay Period Start alone is ambiguous (always the 1st); Pay Date in the same file proves
  day-first. Expected = day-first.
* 06_forecourt_sales_by_brand.csv: the last line says Brand='Total' like 12 real rows; it is a totals row because
  Period End is empty and its numbers equal the column sums. 07_lubricant_sell_through.csv: the last rows say
  Brand='Total' and are real data (numbers do not equal the sum of the rows above). A loader should drop a
  trailing 'Total' row only when its numbers match the sums (or at least warn, never silently).
* 15_erp_inventory_snapshot.csv: '-' in Reserved is treated as missing (NULL). In an Excel accounting format a
  lone '-' means zero; the sums are the same either way, only those cells differ (NULL vs 0).
* 28_powerbi_export_data.csv: 'Order Date' is a datetime that is always 12:00:00 AM; expected as a date. A
  TIMESTAMP at midnight holds the same information and is acceptable if reported.
* 31_hr_employee_roster.csv: two-digit years. Expected = every date in the past (birth 1944-1999); the usual
  POSIX pivot (00-68 -> 20xx) gets birth_date 44..68 wrong.
* 11_treasury_payments_multiccy.csv: a single amount column carries five currencies; the number is
  unambiguous but the currency lives in the string (and in the Currency column). A loader that drops the
  symbol must keep the Currency column; summing Payment Amount is meaningless except as a checksum.
* 23_timesheets_au.csv: '$' with day-first dates (Australia). '$' is not evidence of US date order when
  the dates themselves prove day-first.
* 20/24 timestamps carry no zone; 'created (UTC)' says UTC in the header only. Expected values are the wall
  clock as written, no conversion.
"""

if __name__ == "__main__":
    main()
