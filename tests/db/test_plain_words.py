"""The plain-string tests run before the load's big case-blind regexes (``settle.plain_words``) only
spare a compile: each checked function answers as its regex alone did, on strings built from the
regex itself (every alternative, in several cases, after white space and a ``#``, with the letters a
case-blind match takes past ASCII), and every word of each list is needed (drop one and a string the
regex matches is refused)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import duckdb
import pytest

from analytics_agent.db import profile_scan, relationships_base
from analytics_agent.db.load import names
from analytics_agent.db.load.read import peek
from analytics_agent.db.load.settle import (
    balance_labels,
    balance_runs,
    columns,
    compact_dates,
    footer,
    total_labels,
)
from analytics_agent.db.load.settle.plain_words import lowered, may_hold, may_start
from tests.regex_examples import examples


def _label_old(value: Any) -> str:
    text = str(value).strip(" :")
    if re.fullmatch(r"(\w ){2,}\w", text):
        text = text.replace(" ", "")
    return text


_TOTAL = examples(total_labels.TOTAL_LABEL) + examples(total_labels.SUBTOTAL)
_CASES: list[tuple[Any, str, Callable[[str], bool], Callable[[str], bool], list[str]]] = [
    (
        total_labels,
        "_WORDS",
        total_labels.is_total_label,
        lambda v: bool(
            re.fullmatch(total_labels.TOTAL_LABEL, v.strip(" :"))
            or re.fullmatch(total_labels.SUBTOTAL, v.strip(" :"))
        ),
        _TOTAL,
    ),
    (
        footer,
        "_NOTE_STARTS",
        footer.is_note_start,
        lambda v: re.match(footer._NOTE_START, v) is not None,
        examples(footer._NOTE_START),
    ),
    (
        footer,
        "_BALANCE_STARTS",
        footer.is_balance_line,
        lambda v: re.match(footer._BALANCE_LINE, v) is not None,
        examples(footer._BALANCE_LINE),
    ),
    (
        footer,
        "_SHARE_STARTS",
        footer.is_share_line,
        lambda v: re.match(footer._SHARE_LINE, v) is not None,
        examples(footer._SHARE_LINE),
    ),
    (
        balance_labels,
        "_OPENING_WORDS",
        balance_labels.is_opening,
        lambda v: re.fullmatch(balance_labels.OPENING, v) is not None,
        examples(balance_labels.OPENING),
    ),
    (
        balance_runs,
        "_WORDS",
        balance_runs._said,
        lambda v: re.fullmatch(balance_runs._LABEL_PY, v.strip(" :")) is not None,
        examples(balance_labels.OPENING) + examples(balance_labels.CLOSING) + examples(balance_runs._DAILY),
    ),
]
_IDS = [attr for _, attr, *_ in _CASES]
_PLAIN = [
    "T",
    "42",
    "1) a",
    "12",
    "East",
    "2024-01-31",
    "Saldo",
    "  ",
    "",
    "#",
    "(c)",
    "(12)",
    "12)x",
    "Totally",
]


@pytest.mark.parametrize(("module", "attr", "check", "regex", "strings"), _CASES, ids=_IDS)
def test_each_check_answers_as_its_regex(
    module: Any, attr: str, check: Callable[[str], bool], regex: Callable[[str], bool], strings: list[str]
) -> None:
    matched = [s for s in strings if regex(s)]
    assert len(matched) >= len(getattr(module, attr))  # the strings do reach the regex's alternatives
    assert [s for s in [*strings, *_PLAIN] if check(s) != regex(s)] == []


@pytest.mark.parametrize(("module", "attr", "check", "regex", "strings"), _CASES, ids=_IDS)
def test_every_word_of_a_list_is_needed(
    module: Any,
    attr: str,
    check: Callable[[str], bool],
    regex: Callable[[str], bool],
    strings: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other side: the strings above would catch a word dropped from the list."""
    words = getattr(module, attr)
    matched = [s for s in strings if regex(s)]
    for word in words:
        monkeypatch.setattr(module, attr, tuple(w for w in words if w != word))
        assert any(not check(s) for s in matched), f"{word!r} dropped from {attr}: no string refused"
    monkeypatch.setattr(module, attr, words)


def test_the_spaced_out_label_reads_as_before() -> None:
    strings = [*examples(r"(\w ){2,}\w"), "S A L D O", " S A L D O :", "a b", "ab c d", "Saldo Anterior"]
    assert all(balance_labels.label_of(s) == _label_old(s) for s in strings)
    assert balance_labels.label_of("S A L D O") == "SALDO"


def test_white_space_the_regex_skips_is_stripped_too() -> None:
    """``may_start`` strips what ``^\\s*`` skips: every code point ``\\s`` matches."""
    spaces = [chr(c) for c in range(0x110000) if re.match(r"\s", chr(c))]
    assert all(may_start(f"{s}saldo", ("saldo",)) for s in spaces)
    assert len(spaces) > 20


def test_only_ascii_text_is_tested_plainly() -> None:
    assert lowered("Total") == "total" and lowered("Toſal") is None
    assert may_hold("ſumme", ("sum",)) and re.fullmatch(total_labels.TOTAL_LABEL, "ſumme")
    assert not may_hold("Net amount", ("sum",)) and may_start("Kontostand", ("konto",))


def _type_names() -> list[str]:
    """DuckDB's own type names and a few types as it writes them, each also with one and two line breaks
    after it (which a regex's ``$`` tells apart)."""
    with duckdb.connect() as conn:
        names = [str(r[0]) for r in conn.execute("SELECT DISTINCT type_name FROM duckdb_types()").fetchall()]
        described = conn.execute(
            "SELECT 1.5::DECIMAL(18,3), now()::TIMESTAMPTZ, [1], {'a': 1}, 'x'::BLOB, 1::UTINYINT, uuid()"
        ).description
    kinds = [k.upper() for k in names] + [str(d[1]) for d in described or []]
    return kinds + [f"{k}\n" for k in kinds] + [f"{k}\n\n" for k in kinds] + ["DECIMAL\nX", "TIME X", "XDATE"]


def test_the_key_types_are_the_regexs() -> None:
    old = re.compile(r"^(VARCHAR|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|UUID)$")
    kinds = _type_names()
    assert [k for k in kinds if relationships_base.KEY_TYPES.match(k) != bool(old.match(k))] == []
    assert sum(bool(old.match(k)) for k in kinds) >= 12


def test_every_name_duckdb_gives_a_header_cell_ends_in_a_digit() -> None:
    """The plain test before ``peek._RENAMED`` (and ``column\\d+`` in ``dialect``)."""
    matched = [s for s in examples(peek._RENAMED) if re.fullmatch(peek._RENAMED, s)]
    assert {"column7", "x_7"} <= set(matched) and all(s[-1:].isdecimal() for s in matched)
    assert peek.header_cells("a,b_1\n1,2\n", ["a", "b_1"], ",", '"') == ("a", "b_1")


def test_the_profiles_orderable_types_are_the_regexs() -> None:
    """``profile_scan._orderable`` against the regex it stood for, over DuckDB's own type names."""
    old = re.compile(
        r"^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL.*|BIGNUM|DATE|TIME.*|TIMESTAMP.*"
        r"|INTERVAL|VARCHAR|BOOLEAN|UUID)$"
    )
    kinds = _type_names()
    assert [k for k in kinds if profile_scan._orderable(k) != bool(old.match(k))] == []
    assert profile_scan._orderable("DECIMAL(18,3)") and not profile_scan._orderable("INTEGER[]")


_NAMES = [
    "customerID", "OrderDate", "order_date", "Booking Date", "Datum", "date_key", "DateID", "HTTPServer",
    "Café Straße", "備考", "2024 sales", "a__b", "ABC", "abcDef", "x1Y", "Fecha", "dt", "DT_created", "İstanbul",
    "\u212aelvin", "data", "update", "validated", "DATE", "", "_", "Sales 2024-*.csv.gz", "exports\\a[b].csv",
    "dir/sub/Orders {1}.csv", "dir\\sub\\x.tsv", "ſtart", "ÀBC", "naïveDate",
    "Abschlussdatum", "boekdatum", "BOEKDATUM", "Buchungsdatum_Nr",
]  # fmt: skip


def _old_safe_identifier(text: str, reserved: tuple[str, ...] = (), prefix: str = "c") -> str:
    """``names.safe_identifier`` as it was (its camelCase regex on every name)."""
    camel = r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])"
    snake = re.sub(r"[\W_]+", "_", re.sub(camel, "_", names._without_accents(text)).lower()).strip("_")
    if not snake:
        snake = prefix
    elif snake[0].isdigit():
        snake = f"{prefix}_{snake}"
    snake = snake[: names.MAX_NAME_LENGTH].rstrip("_")
    return snake + "_" if snake in reserved else snake


def test_names_are_made_as_before() -> None:
    assert [n for n in _NAMES if names.safe_identifier(n) != _old_safe_identifier(n)] == []
    assert names.safe_identifier("customerID") == "customer_id" and names.safe_identifier("abc") == "abc"
    assert [p for p in _NAMES if names.table_name_from_path(p) != _old_table_name(p)] == []


def _old_table_name(path: str) -> str:
    """``names.table_name_from_path`` as it was (a regex split and a regex for glob characters)."""
    name = re.split(r"[/\\]", path)[-1]
    lowered = name.lower()
    stripped = True
    while stripped:
        stripped = False
        for suffix in names._DATA_SUFFIXES:
            if lowered.endswith(suffix) and len(lowered) > len(suffix):
                name, lowered = name[: -len(suffix)], lowered[: -len(suffix)]
                stripped = True
    return names.safe_identifier(re.sub(r"[*?\[\]{}]", " ", name), prefix="t")


def test_date_named_columns_as_before() -> None:
    def old(original: str) -> bool:
        words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", original)}
        compound = any(len(w) > 7 and w.endswith("datum") for w in words)
        return bool(words & compact_dates._DATE_WORDS or compound) and not words & compact_dates._KEY_WORDS

    assert [n for n in _NAMES if compact_dates.date_named(n) != old(n)] == []
    assert sum(map(old, _NAMES)) >= 6  # the names reach both answers


def test_the_debit_credit_marks_as_before() -> None:
    texts = [*examples(columns._MARKED), "49,633.80 CR", "12 dr.\n13", "1 Db", "Andorra", "x CR", "1 cR", ""]
    found = [t for t in texts if re.search(columns._MARKED, t)]
    assert (
        len(found) >= 10
        and [t for t in texts if columns._marked(t) != bool(re.search(columns._MARKED, t))] == []
    )


def test_the_subtotal_labels_asked_in_python_as_duckdb_reads_them() -> None:
    """``group_sums`` reads a table's first values and asks them here, where a query compiled the big
    RE2 pattern for each column (8 ms of CPU a load of weather.csv): the answers are DuckDB's own."""
    strings = [
        *examples(total_labels._SUBTOTAL_PY),
        *("Total1", "1Total", "Subtotal_North", "North_Total", "Итого по группе «Север»", "Mart Toplamı"),
        *("Genel Toplam", "Summa period", "Totally", "subtotaling", "Tammikuu yhteensä", "Ocak toplami"),
        *(
            "total",
            " Total ",
            "TOTAL:",
            "Totaal",
            "x",
            "",
            "Total\nNorth",
            "Saldo",
            "12 total",
            "Gesamt-Summe",
        ),
    ]
    with duckdb.connect() as conn:
        duck = conn.execute(
            "SELECT list(coalesce(regexp_full_match(s, ?), false) ORDER BY i) FROM "
            "(SELECT unnest(?::VARCHAR[]) AS s, generate_subscripts(?::VARCHAR[], 1) AS i)",
            [total_labels.SUBTOTAL_SQL, strings, strings],
        ).fetchone()[0]
    ours = [total_labels.holds_subtotal_sql_label([s]) for s in strings]
    assert sum(duck) >= 20 and len(strings) - sum(duck) >= 6  # both answers are reached
    assert [s for s, a, b in zip(strings, ours, duck, strict=True) if b and not a] == []  # never a miss
    # Python folds a Turkish İ or ı to i, where RE2 folds no case: asked again in SQL (``_checked``)
    assert [
        s for s, a, b in zip(strings, ours, duck, strict=True) if a and not b and not set(s) & set("İı")
    ] == []
