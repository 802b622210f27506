"""Deterministic sample data for the analytics agent: a small Indian retailer.

Writes four CSV files (UTF-8, LF line endings, header row) into an output
directory (default: the directory of this script):

* ``products.csv``    product_id,name,category,list_price
* ``customers.csv``   customer_id,name,city,signup_day,segment
* ``orders.csv``      order_id,customer_id,city,day,status,amount,channel
* ``order_items.csv`` order_id,product_id,quantity,unit_price

Usage::

    python seeds/generate.py [--out DIR] [--orders N] [--seed S] [--customers M]

or, from Python, ``generate(out_dir, orders=N, seed=S)``.  The same arguments
always give byte-identical files: only ``random.Random(seed).random()`` and
integer / IEEE float arithmetic (+ - * /) feed the output, no libm functions.

Invariants (checked by ``tests/test_seeds.py`` for the committed default data):

* Orders fall on days 2026-01-01 .. 2026-10-31 in 10 cities, busier at
  weekends and during the October festival season (Navratri / Dussehra on
  2026-10-20 and the run-up to Diwali on 2026-11-08).
* ``amount`` is whole rupees and equals ``sum(quantity * unit_price)`` of the
  order's 1-4 items.  Every item's product and every order's customer exist;
  a customer's ``signup_day`` is never after their first order, and most of a
  customer's orders are in their home city.
* ``status`` is delivered / cancelled / returned / in_transit; ``in_transit``
  only occurs in the last ten days of the range.
* The five reference orders below are always present verbatim, and they are
  the only Pune and Mumbai orders on 2026-10-24 (other cities do have orders
  that day)::

      A-1040 Pune   2026-10-24 delivered  1299
      A-1041 Pune   2026-10-24 cancelled   799
      A-1042 Delhi  2026-10-18 delivered  2499
      A-1043 Pune   2026-10-24 in_transit 3499
      A-1044 Mumbai 2026-10-24 delivered   599

Order ids: ``--orders N`` counts all orders, the five reference ones
included.  For N <= 260,000 every id has the short form ``^[A-Z]-\\d{4}$``
(26 x 10,000 possible ids); generated ids are a fixed permutation of that
space that skips A-1040..A-1044 and A-9999 (kept unused as the example of an
unknown order id).  For N > 260,000 the generated ids use the
longer form ``^[A-Z]-\\d{8}$`` (e.g. ``K-06180339``), which is still unique
and can never collide with the five 4-digit reference ids.

Customers: 8,000 for the default 42,000 orders; for larger N the count grows
proportionally (N * 8,000 / 42,000) unless ``--customers`` is given.  Ids are
``C-00001`` onwards in signup order (wider than five digits only when there
are more than 99,999 customers).

Rows are streamed to disk day by day, so memory stays small even for 10M
orders (only the customer pools are kept, in compact arrays).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import math
import random
import sys
import time
from array import array
from bisect import bisect_right
from itertools import accumulate
from pathlib import Path

DEFAULT_SEED = 20261024
DEFAULT_ORDERS = 42_000
BASE_CUSTOMERS = 8_000

FIRST_DAY = dt.date(2026, 1, 1)
LAST_DAY = dt.date(2026, 10, 31)
SIGNUP_START = dt.date(2024, 1, 1)
NEW_SEGMENT_FROM = dt.date(2026, 8, 1)

# City, relative size (share of customers and orders).
CITIES = (
    ("Mumbai", 17),
    ("Delhi", 16),
    ("Bengaluru", 15),
    ("Hyderabad", 10),
    ("Pune", 9),
    ("Chennai", 9),
    ("Kolkata", 8),
    ("Ahmedabad", 7),
    ("Jaipur", 5),
    ("Lucknow", 4),
)
CITY_NAMES = tuple(name for name, _ in CITIES)
CITY_INDEX = {name: i for i, name in enumerate(CITY_NAMES)}

CATEGORIES = ("Electronics", "Fashion", "Home & Kitchen", "Grocery", "Beauty", "Books", "Sports")

# product_id, name, category, list price (INR), popularity, festive multiplier
PRODUCTS = (
    ("P-001", "Wireless Earbuds", "Electronics", 1299, 9, 1.6),
    ("P-002", "Smartwatch", "Electronics", 3499, 6, 1.8),
    ("P-003", "Power Bank 10000mAh", "Electronics", 999, 8, 1.3),
    ("P-004", "USB-C Fast Charger", "Electronics", 649, 8, 1.2),
    ("P-005", "Bluetooth Speaker", "Electronics", 1999, 5, 1.8),
    ("P-006", "Wireless Keyboard and Mouse", "Electronics", 1149, 3, 1.2),
    ("P-007", "Noise Cancelling Headphones", "Electronics", 4999, 2, 2.0),
    ("P-008", "Budget Smartphone", "Electronics", 8999, 2, 2.2),
    ("P-009", "Pen Drive 64GB", "Electronics", 449, 6, 1.0),
    ("P-010", "Cotton Kurta", "Fashion", 799, 12, 1.8),
    ("P-011", "Denim Jeans", "Fashion", 1499, 8, 1.4),
    ("P-012", "Printed T-Shirt", "Fashion", 499, 12, 1.1),
    ("P-013", "Banarasi Silk Saree", "Fashion", 3999, 3, 2.5),
    ("P-014", "Linen Shirt", "Fashion", 1199, 6, 1.4),
    ("P-015", "Leather Wallet", "Fashion", 699, 5, 1.5),
    ("P-016", "Kolhapuri Chappals", "Fashion", 899, 5, 1.6),
    ("P-017", "Cotton Socks Pack of 3", "Fashion", 299, 7, 1.0),
    ("P-018", "Embroidered Dupatta", "Fashion", 649, 4, 2.0),
    ("P-019", "Non-Stick Tawa", "Home & Kitchen", 649, 6, 1.1),
    ("P-020", "Pressure Cooker 3L", "Home & Kitchen", 1899, 5, 1.3),
    ("P-021", "Mixer Grinder 750W", "Home & Kitchen", 3299, 3, 1.6),
    ("P-022", "Steel Water Bottle 1L", "Home & Kitchen", 449, 9, 1.0),
    ("P-023", "Cotton Bedsheet Set", "Home & Kitchen", 999, 5, 1.5),
    ("P-024", "Brass Diya Set", "Home & Kitchen", 449, 2, 6.0),
    ("P-025", "LED String Lights", "Home & Kitchen", 349, 3, 5.0),
    ("P-026", "Ceramic Dinner Set", "Home & Kitchen", 2799, 2, 1.8),
    ("P-027", "Storage Container Set", "Home & Kitchen", 549, 6, 1.2),
    ("P-028", "Basmati Rice 5kg", "Grocery", 749, 14, 1.2),
    ("P-029", "Toor Dal 1kg", "Grocery", 179, 16, 1.0),
    ("P-030", "Sunflower Oil 1L", "Grocery", 165, 16, 1.1),
    ("P-031", "Assam Tea 500g", "Grocery", 285, 12, 1.0),
    ("P-032", "Filter Coffee Powder 500g", "Grocery", 340, 8, 1.0),
    ("P-033", "Whole Wheat Atta 10kg", "Grocery", 495, 12, 1.0),
    ("P-034", "Dry Fruits Gift Box", "Grocery", 899, 2, 7.0),
    ("P-035", "Garam Masala 200g", "Grocery", 149, 9, 1.2),
    ("P-036", "Desi Ghee 1L", "Grocery", 649, 8, 1.6),
    ("P-037", "Organic Jaggery 1kg", "Grocery", 95, 7, 1.3),
    ("P-038", "Vitamin C Face Serum", "Beauty", 599, 7, 1.2),
    ("P-039", "Herbal Shampoo 340ml", "Beauty", 299, 9, 1.0),
    ("P-040", "Aloe Vera Gel", "Beauty", 199, 8, 1.0),
    ("P-041", "Sunscreen SPF 50", "Beauty", 449, 7, 0.9),
    ("P-042", "Ayurvedic Hair Oil", "Beauty", 249, 8, 1.0),
    ("P-043", "Beard Trimmer", "Beauty", 1399, 3, 1.5),
    ("P-044", "Eau de Parfum 100ml", "Beauty", 1099, 3, 2.2),
    ("P-045", "Matte Lipstick", "Beauty", 399, 6, 1.6),
    ("P-046", "Wings of Fire", "Books", 299, 4, 1.0),
    ("P-047", "The White Tiger", "Books", 399, 3, 1.0),
    ("P-048", "Malgudi Days", "Books", 250, 3, 1.0),
    ("P-049", "Godaan (Hindi)", "Books", 225, 2, 1.0),
    ("P-050", "Ponniyin Selvan Part 1", "Books", 450, 2, 1.0),
    ("P-051", "Indian Polity for Civil Services", "Books", 795, 4, 0.8),
    ("P-052", "Panchatantra Stories for Children", "Books", 199, 4, 1.3),
    ("P-053", "NCERT Physics Class 12", "Books", 330, 3, 0.7),
    ("P-054", "Running Shoes", "Sports", 2499, 5, 1.3),
    ("P-055", "Yoga Mat", "Sports", 699, 6, 1.0),
    ("P-056", "Kashmir Willow Cricket Bat", "Sports", 1799, 3, 1.1),
    ("P-057", "Badminton Racket", "Sports", 1299, 3, 1.0),
    ("P-058", "Football Size 5", "Sports", 599, 3, 1.0),
    ("P-059", "Dumbbell Set 10kg", "Sports", 1499, 2, 1.0),
    ("P-060", "Skipping Rope", "Sports", 249, 4, 0.9),
    ("P-061", "Cycling Helmet", "Sports", 1199, 2, 1.0),
)
PRODUCT_INDEX = {p[0]: i for i, p in enumerate(PRODUCTS)}

# Quantity distributions (cumulative thresholds for 1, 2, 3, ...) per category.
QTY_BY_CATEGORY = {
    "Grocery": (0.50, 0.80, 0.92, 0.97),
    "Beauty": (0.78, 0.95),
    "Books": (0.86, 0.97),
    "Fashion": (0.80, 0.96),
    "Electronics": (0.93,),
    "Home & Kitchen": (0.90,),
    "Sports": (0.91,),
}
DISCOUNT_PERCENTS = (5, 10, 10, 15, 20, 25)
LINES_THRESHOLDS = (0.52, 0.80, 0.94)  # 1, 2, 3 or 4 items per order

STATUSES = ("delivered", "cancelled", "returned", "in_transit")
CHANNELS = ("web", "app", "store")
SEGMENTS = ("new", "regular", "premium")

# (order_id, customer city rank, city, day, status, amount, channel, product)
REFERENCE_ORDERS = (
    ("A-1040", 0, "Pune", "2026-10-24", "delivered", 1299, "app", "P-001"),
    ("A-1041", 1, "Pune", "2026-10-24", "cancelled", 799, "web", "P-010"),
    ("A-1042", 0, "Delhi", "2026-10-18", "delivered", 2499, "store", "P-054"),
    ("A-1043", 2, "Pune", "2026-10-24", "in_transit", 3499, "app", "P-002"),
    ("A-1044", 0, "Mumbai", "2026-10-24", "delivered", 599, "web", "P-038"),
)
EXCLUSIVE_DAY = dt.date(2026, 10, 24)
EXCLUSIVE_CITIES = ("Pune", "Mumbai")  # only reference orders there that day

SHORT_ID_SPACE = 26 * 10_000
UNUSED_ID_NUMBER = 9999  # A-9999

LONG_ID_SPACE = 26 * 100_000_000
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

FIRST_NAMES = (
    "Aarav", "Vivaan", "Aditya", "Arjun", "Rohan", "Rahul", "Amit", "Vikram", "Siddharth",
    "Karan", "Nikhil", "Pranav", "Rajesh", "Suresh", "Manoj", "Anil", "Deepak", "Harsh",
    "Ishaan", "Kabir", "Yash", "Varun", "Sanjay", "Abhishek", "Gaurav", "Farhan", "Imran",
    "Joseph", "Aanya", "Diya", "Ananya", "Priya", "Sneha", "Pooja", "Neha", "Kavya",
    "Aishwarya", "Meera", "Riya", "Shreya", "Divya", "Lakshmi", "Sunita", "Anjali",
    "Nandini", "Isha", "Tanvi", "Radhika", "Swati", "Kiran", "Fatima", "Sana", "Zoya",
    "Maria", "Bhavna", "Geeta", "Madhuri", "Revathi", "Pallavi", "Aditi",
)  # fmt: skip
COMMON_SURNAMES = (
    "Sharma", "Singh", "Gupta", "Kumar", "Verma", "Jain", "Khan", "Agarwal", "Mehta",
    "Nair", "Menon", "Das", "Iyer", "Pillai", "Chopra", "Bhatt", "Saxena", "Thomas",
)  # fmt: skip
REGIONAL_SURNAMES = {
    "Mumbai": ("Patil", "Deshmukh", "Shinde", "Sawant", "Naik", "Kamath", "Shah", "Fernandes"),
    "Delhi": ("Malhotra", "Kapoor", "Arora", "Khanna", "Bhatia", "Sethi", "Chauhan", "Ahuja"),
    "Bengaluru": ("Gowda", "Hegde", "Shetty", "Rao", "Murthy", "Bhat", "Kulkarni", "Prasad"),
    "Hyderabad": ("Reddy", "Rao", "Naidu", "Goud", "Chowdary", "Varma", "Ali", "Qureshi"),
    "Pune": ("Kulkarni", "Deshpande", "Joshi", "Gokhale", "Jadhav", "Pawar", "Bhosale", "Apte"),
    "Chennai": ("Krishnan", "Subramanian", "Raman", "Venkatesan", "Srinivasan", "Murugan"),
    "Kolkata": ("Banerjee", "Chatterjee", "Mukherjee", "Bose", "Ghosh", "Sen", "Dutta", "Roy"),
    "Ahmedabad": ("Patel", "Shah", "Desai", "Parikh", "Modi", "Trivedi", "Solanki", "Pandya"),
    "Jaipur": ("Rathore", "Shekhawat", "Meena", "Sisodia", "Choudhary", "Khandelwal"),
    "Lucknow": ("Srivastava", "Mishra", "Tiwari", "Shukla", "Tripathi", "Pandey", "Siddiqui"),
}


def _days(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def _bump(day: dt.date, center: dt.date, amplitude: float, width: float) -> float:
    """Lorentzian bump (pure arithmetic, so identical on every platform)."""
    x = (day - center).days / width
    return amplitude / (1.0 + x * x)


def _cumulative(weights: list[float]) -> list[float]:
    """Thresholds in [0, 1) for choosing index i with bisect_right(th, random())."""
    total = sum(weights)
    return [c / total for c in accumulate(weights)][:-1]


def _apportion(total: int, weights: list[float]) -> list[int]:
    """Split ``total`` into integer parts proportional to ``weights`` (largest remainder)."""
    wsum = sum(weights)
    exact = [total * w / wsum for w in weights]
    counts = [int(e) for e in exact]
    rest = total - sum(counts)
    by_fraction = sorted(range(len(weights)), key=lambda i: (counts[i] - exact[i], i))
    for i in by_fraction[:rest]:
        counts[i] += 1
    return counts


def _order_day_weight(day: dt.date, noise: float) -> float:
    weekday = (0.92, 0.88, 0.90, 0.94, 1.02, 1.30, 1.24)[day.weekday()]
    trend = 1.0 + 0.15 * (day - FIRST_DAY).days / (LAST_DAY - FIRST_DAY).days
    season = 1.0
    season += _bump(day, dt.date(2026, 1, 24), 0.12, 3.0)  # Republic Day sale
    season += _bump(day, dt.date(2026, 3, 4), 0.15, 2.0)  # Holi
    season += _bump(day, dt.date(2026, 8, 15), 0.18, 3.0)  # Independence Day sale
    season += _bump(day, dt.date(2026, 8, 28), 0.12, 2.0)  # Raksha Bandhan
    season += _bump(day, dt.date(2026, 10, 20), 0.90, 5.0)  # Navratri / Dussehra
    ramp_start = dt.date(2026, 10, 12)
    if day >= ramp_start:  # run-up to Dhanteras / Diwali (2026-11-06 / 11-08)
        season += 0.9 * (day - ramp_start).days / (LAST_DAY - ramp_start).days
    payday = 1.06 if day.day <= 3 else 1.0
    return weekday * trend * season * payday * (0.92 + 0.16 * noise)


def _signup_day_weight(day: dt.date) -> float:
    growth = 1.0 + 1.2 * (day - SIGNUP_START).days / (LAST_DAY - SIGNUP_START).days
    weekend = 1.1 if day.weekday() >= 5 else 1.0
    return growth * weekend * (1.0 + _bump(day, dt.date(2026, 10, 20), 0.6, 8.0))


def _status_thresholds(day: dt.date) -> list[float]:
    age = (LAST_DAY - day).days
    cancelled = 0.08
    in_transit = 0.85 * (10 - age) / 10 if age < 10 else 0.0
    returned = 0.055 * min(1.0, age / 21)
    delivered = 1.0 - cancelled - returned - in_transit
    return _cumulative([delivered, cancelled, returned, in_transit])


def _customer_count(orders: int) -> int:
    return max(BASE_CUSTOMERS, (orders * BASE_CUSTOMERS + DEFAULT_ORDERS // 2) // DEFAULT_ORDERS)


def _open(path: Path):
    return open(path, "w", newline="", encoding="utf-8", buffering=1 << 20)


def _writer(fh):
    return csv.writer(fh, lineterminator="\n")


def _write_products(path: Path) -> int:
    with _open(path) as fh:
        w = _writer(fh)
        w.writerow(("product_id", "name", "category", "list_price"))
        w.writerows(p[:4] for p in PRODUCTS)
    return len(PRODUCTS)


class _CustomerPools:
    """Customers in signup order, per city and overall, with order-frequency weights."""

    def __init__(self, n_cities: int) -> None:
        self.city_ids = [array("l") for _ in range(n_cities)]
        self.city_cum = [array("d") for _ in range(n_cities)]
        self.all_ids = array("l")
        self.all_cum = array("d")
        # For each order day: eligible prefix lengths (per city..., overall).
        self.eligible: dict[dt.date, tuple[int, ...]] = {}

    def add(self, number: int, city: int, weight: float) -> None:
        cum = self.city_cum[city]
        cum.append((cum[-1] if cum else 0.0) + weight)
        self.city_ids[city].append(number)
        self.all_cum.append((self.all_cum[-1] if self.all_cum else 0.0) + weight)
        self.all_ids.append(number)

    def snapshot(self, day: dt.date) -> None:
        self.eligible[day] = (*(len(ids) for ids in self.city_ids), len(self.all_ids))


def _write_customers(path: Path, n_customers: int, rng: random.Random) -> tuple[_CustomerPools, str]:
    rnd = rng.random
    n_cities = len(CITIES)
    if n_customers < n_cities:
        raise ValueError(f"need at least {n_cities} customers (one per city)")
    city_th = _cumulative([float(w) for _, w in CITIES])
    regional = [REGIONAL_SURNAMES[c] for c in CITY_NAMES]
    width = max(5, len(str(n_customers)))
    id_fmt = f"C-{{:0{width}d}}"
    pools = _CustomerPools(n_cities)
    signup_days = _days(SIGNUP_START, LAST_DAY)
    counts = _apportion(n_customers, [_signup_day_weight(d) for d in signup_days])
    number = 0
    with _open(path) as fh:
        w = _writer(fh)
        w.writerow(("customer_id", "name", "city", "signup_day", "segment"))
        for day, count in zip(signup_days, counts, strict=True):
            day_str = day.isoformat()
            is_new = day >= NEW_SEGMENT_FROM
            rows = []
            for _ in range(count):
                # The first customers cover every city, so no city's pool is ever empty.
                city = number if number < n_cities else bisect_right(city_th, rnd())
                number += 1
                first = FIRST_NAMES[int(rnd() * len(FIRST_NAMES))]
                surnames = regional[city] if rnd() < 0.6 else COMMON_SURNAMES
                last = surnames[int(rnd() * len(surnames))]
                if is_new:
                    segment, factor = "new", 1.3
                elif rnd() < 0.14:
                    segment, factor = "premium", 2.5
                else:
                    segment, factor = "regular", 1.0
                h = rnd()
                pools.add(number, city, factor * (0.1 + 4.0 * h * h * h * h))
                rows.append((id_fmt.format(number), f"{first} {last}", CITY_NAMES[city], day_str, segment))
            w.writerows(rows)
            if day >= FIRST_DAY:
                pools.snapshot(day)
    return pools, id_fmt


def _id_permutation(space: int) -> int:
    """A multiplier coprime to ``space`` near space / golden ratio, so ids look shuffled."""
    m = int(space * 0.6180339887) | 1
    while math.gcd(m, space) != 1:
        m += 2
    return m


def generate(
    out_dir: str | Path | None = None,
    *,
    orders: int = DEFAULT_ORDERS,
    seed: int = DEFAULT_SEED,
    customers: int | None = None,
) -> dict[str, int]:
    """Write the four CSV files into ``out_dir``; return row counts per file."""
    out = Path(out_dir) if out_dir is not None else Path(__file__).resolve().parent
    n_ref = len(REFERENCE_ORDERS)
    if orders < n_ref:
        raise ValueError(f"--orders must be at least {n_ref} (the reference orders)")
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    rnd = rng.random

    n_products = _write_products(out / "products.csv")
    n_customers = customers if customers is not None else _customer_count(orders)
    pools, id_fmt = _write_customers(out / "customers.csv", n_customers, rng)

    # --- per-day plan -----------------------------------------------------------------
    order_days = _days(FIRST_DAY, LAST_DAY)
    city_weights = [float(w) for _, w in CITIES]
    excluded_share = sum(city_weights[CITY_INDEX[c]] for c in EXCLUSIVE_CITIES) / sum(city_weights)
    day_weights = []
    for day in order_days:
        weight = _order_day_weight(day, rnd())
        if day == EXCLUSIVE_DAY:  # other cities keep their usual volume that day
            weight *= 1.0 - excluded_share
        day_weights.append(weight)
    n_generated = orders - n_ref
    day_counts = _apportion(n_generated, day_weights)

    city_th_all = _cumulative(city_weights)
    city_th_excl = _cumulative(
        [0.0 if CITY_NAMES[i] in EXCLUSIVE_CITIES else w for i, w in enumerate(city_weights)]
    )
    lines_th = LINES_THRESHOLDS
    prod_th_normal = _cumulative([float(p[4]) for p in PRODUCTS])
    prod_th_festive = _cumulative([p[4] * p[5] for p in PRODUCTS])
    product_ids = [p[0] for p in PRODUCTS]
    list_prices = [p[3] for p in PRODUCTS]
    disc_prices = [tuple(lp - lp * d // 100 for d in DISCOUNT_PERCENTS) for lp in list_prices]
    n_disc = len(DISCOUNT_PERCENTS)
    qty_th = [QTY_BY_CATEGORY[p[2]] for p in PRODUCTS]
    festive_from = dt.date(2026, 9, 28)

    refs_by_day: dict[str, list[tuple]] = {}
    for ref in REFERENCE_ORDERS:
        refs_by_day.setdefault(ref[3], []).append(ref)

    # --- order ids ----------------------------------------------------------------------
    short_ids = orders < SHORT_ID_SPACE  # one short id is kept unused (A-9999)
    space = SHORT_ID_SPACE if short_ids else LONG_ID_SPACE
    block = 10_000 if short_ids else 100_000_000
    digit_fmt = "{:04d}" if short_ids else "{:08d}"
    mult = _id_permutation(space)
    offset = 1234
    # A-9999 stays unused: it is the documented example of an order id that does not exist.
    reserved = (
        {LETTERS.index(r[0][0]) * block + int(r[0][2:]) for r in REFERENCE_ORDERS} | {UNUSED_ID_NUMBER}
        if short_ids
        else set()
    )
    seq = 0

    # --- stream orders and items --------------------------------------------------------
    city_ids = pools.city_ids
    city_cum = pools.city_cum
    all_ids = pools.all_ids
    all_cum = pools.all_cum
    n_cities = len(CITIES)
    n_items = 0
    with _open(out / "orders.csv") as fo, _open(out / "order_items.csv") as fi:
        wo, wi = _writer(fo), _writer(fi)
        wo.writerow(("order_id", "customer_id", "city", "day", "status", "amount", "channel"))
        wi.writerow(("order_id", "product_id", "quantity", "unit_price"))
        for day, n_day in zip(order_days, day_counts, strict=True):
            day_str = day.isoformat()
            eligible = pools.eligible[day]
            n_all = eligible[n_cities]
            status_th = _status_thresholds(day)
            weekend = day.weekday() >= 5
            channel_th = (0.31, 0.74) if weekend else (0.35, 0.82)  # web, app, store
            festive = day >= festive_from
            prod_th = prod_th_festive if festive else prod_th_normal
            disc_p = 0.30 if festive else 0.12
            city_th = city_th_excl if day == EXCLUSIVE_DAY else city_th_all
            order_rows = []
            item_rows = []

            for ref in refs_by_day.get(day_str, ()):
                oid, rank, city_name, _, status, amount, channel, pid = ref
                c = CITY_INDEX[city_name]
                ids = city_ids[c]
                number = ids[min(rank, eligible[c] - 1)]
                lp = list_prices[PRODUCT_INDEX[pid]]
                assert lp == amount, (oid, pid)
                order_rows.append((oid, id_fmt.format(number), city_name, day_str, status, amount, channel))
                item_rows.append((oid, pid, 1, lp))

            for _ in range(n_day):
                k = (seq * mult + offset) % space
                seq += 1
                while k in reserved:
                    k = (seq * mult + offset) % space
                    seq += 1
                oid = LETTERS[k // block] + "-" + digit_fmt.format(k % block)

                c = bisect_right(city_th, rnd())
                if rnd() < 0.92:  # usually a customer from the same city
                    n_elig = eligible[c]
                    cum = city_cum[c]
                    ids = city_ids[c]
                else:
                    n_elig = n_all
                    cum = all_cum
                    ids = all_ids
                j = bisect_right(cum, rnd() * cum[n_elig - 1], 0, n_elig)
                number = ids[j if j < n_elig else n_elig - 1]

                status = STATUSES[bisect_right(status_th, rnd())]
                channel = CHANNELS[bisect_right(channel_th, rnd())]

                n_lines = bisect_right(lines_th, rnd()) + 1
                chosen: list[int] = []
                amount = 0
                while len(chosen) < n_lines:
                    p = bisect_right(prod_th, rnd())
                    if p in chosen:
                        continue
                    chosen.append(p)
                    qty = bisect_right(qty_th[p], rnd()) + 1
                    price = disc_prices[p][int(rnd() * n_disc)] if rnd() < disc_p else list_prices[p]
                    amount += qty * price
                    item_rows.append((oid, product_ids[p], qty, price))

                order_rows.append(
                    (oid, id_fmt.format(number), CITY_NAMES[c], day_str, status, amount, channel)
                )

            wo.writerows(order_rows)
            wi.writerows(item_rows)
            n_items += len(item_rows)

    return {
        "products": n_products,
        "customers": n_customers,
        "orders": orders,
        "order_items": n_items,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="output directory (default: seeds/)")
    parser.add_argument("--orders", type=int, default=DEFAULT_ORDERS, help="total orders (default 42000)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default 20261024)")
    parser.add_argument(
        "--customers", type=int, default=None, help="customers (default: scales with --orders)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        counts = generate(args.out, orders=args.orders, seed=args.seed, customers=args.customers)
    except ValueError as exc:
        parser.error(str(exc))
    elapsed = time.perf_counter() - start
    summary = ", ".join(f"{name}={n}" for name, n in counts.items())
    print(f"{summary} in {elapsed:.2f}s ({counts['orders'] / elapsed:,.0f} orders/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
