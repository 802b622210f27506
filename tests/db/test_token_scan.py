"""The scan before the token recount (``settle.token_scan``): it may only ever say "no token here" when
DuckDB's own reading of the file finds none, and when it says so the second reading of the file is
skipped. The truth is DuckDB's: every field read as text, compared with the tokens."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import DEFAULT_NULL_TOKENS, LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle import token_notes
from analytics_agent.db.load.settle.token_scan import (
    Recount,
    _in_head,
    may_hold_tokens,
    recount_for,
    scan_pattern,
)

REAL = [t for t in DEFAULT_NULL_TOKENS if t]


def _scan(path: Path, delimiter: str, quote: str = '"', encoding: str | None = None) -> bool:
    recount = recount_for("unused", [], [path], delimiter, quote, encoding)
    with duckdb.connect() as conn:
        return may_hold_tokens(conn, recount, REAL)


def _duckdb_sees_a_token(path: Path, delimiter: str, width: int) -> bool:
    with duckdb.connect() as conn:
        names = [f"c{i}" for i in range(width)]
        cells = " OR ".join(f"{n} IN (SELECT unnest(?::VARCHAR[]))" for n in names)
        row = conn.execute(
            f"SELECT count(*) FILTER (WHERE {cells}) FROM read_csv(?, delim = ?, quote = '\"', header = false, "
            "auto_detect = false, columns = ?, nullstr = [''], strict_mode = false, null_padding = true)",
            [*([REAL] * width), str(path), delimiter, {n: "VARCHAR" for n in names}],
        ).fetchone()
    assert row is not None
    return bool(row[0])


_NEAR = ["NANCY", "N/A/B", "-5", "a-b", " NA", "NA ", "nullable", "Nonetheless", "x", "", "42", "N\\A"]


def _field(rng: random.Random, delimiter: str) -> str:
    value = rng.choice(_NEAR + REAL if rng.random() < 0.02 else _NEAR)
    if delimiter in value or rng.random() < 0.2:
        return '"' + value.replace('"', '""') + '"'
    return value


@pytest.mark.parametrize("delimiter", [",", "\t", "|", ";"])
def test_the_scan_never_says_no_token_where_duckdb_reads_one(tmp_path: Path, delimiter: str) -> None:
    rng = random.Random(f"token-scan-{delimiter}")
    said_no = said_yes = 0
    for k in range(60):
        width = rng.randint(1, 5)
        end = rng.choice(["\n", "\r\n"])
        lines = [
            delimiter.join(_field(rng, delimiter) for _ in range(width)) for _ in range(rng.randint(1, 12))
        ]
        path = tmp_path / f"f{k}.csv"
        path.write_bytes((end.join(lines) + (end if rng.random() < 0.5 else "")).encode())
        truth = _duckdb_sees_a_token(path, delimiter, width)
        scanned = _scan(path, delimiter)
        assert scanned or not truth, path.read_bytes()
        said_no += not scanned
        said_yes += scanned
    assert said_no and said_yes  # both answers were put to the test


@pytest.mark.parametrize("delimiter", [",", "\t", "|", ";"])
def test_the_first_block_check_answers_as_duckdbs_scan_of_the_same_bytes(
    tmp_path: Path, delimiter: str
) -> None:
    """``_in_head`` (Python, the token then the edge before it) and the scan's RE2 pattern read the same
    loose rule: on files inside the first block they answer alike, both ways."""
    rng = random.Random(f"first-block-{delimiter}")
    answers = set()
    with duckdb.connect() as conn:
        for k in range(80):
            lines = [
                delimiter.join(_field(rng, delimiter) for _ in range(rng.randint(1, 5)))
                for _ in range(rng.randint(1, 12))
            ]
            text = "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")
            path = tmp_path / f"h{k}.csv"
            path.write_text(text, encoding="utf-8")
            recount = recount_for("unused", [], [path], delimiter, '"', None)
            pattern = scan_pattern(REAL, recount.boundaries)
            re2 = conn.execute("SELECT regexp_matches(?, ?)", [text, pattern]).fetchone()
            assert re2 is not None
            assert _in_head(path, REAL, recount.boundaries) == re2[0], text
            answers.add(re2[0])
    assert answers == {True, False}


@pytest.mark.parametrize(
    "text",
    [
        "a,b\nNA,1\n",  # the first field of a line
        "a,b\n1,NA",  # the last field, no line end
        'a,b\n1,"N/A"\n',  # quoted: DuckDB reads quoted tokens as missing too
        "a,b\r\n-,1\r\n",  # Windows line ends
        "NULL",  # the whole file
        "\ufeffNA,1\nx,2\n",  # the first field of a file with a byte-order mark (DuckDB drops the mark)
    ],
)
def test_a_token_in_any_place_is_found(tmp_path: Path, text: str) -> None:
    path = tmp_path / "f.csv"
    path.write_text(text, encoding="utf-8")
    assert _duckdb_sees_a_token(path, ",", text.split("\n")[-2 if text.endswith("\n") else -1].count(",") + 1)
    assert _scan(path, ",") is True


def test_bytes_that_are_not_what_duckdb_reads_are_not_scanned(tmp_path: Path) -> None:
    utf16 = tmp_path / "f.csv"
    utf16.write_text("a,b\nNA,1\n", encoding="utf-16")
    assert recount_for("s", [], [utf16], ",", '"', "utf-16").files == ()  # DuckDB decodes it: no scan
    assert _scan(utf16, ",", encoding="utf-16") is True
    packed = tmp_path / "f.csv.gz"
    packed.write_bytes(b"\x1f\x8b")
    assert recount_for("s", [], [packed], ",", '"', None).files == ()
    not_utf8 = tmp_path / "g.csv"
    not_utf8.write_bytes(b"a,b\n\xff\xfe,1\n")
    assert _scan(not_utf8, ",") is True  # read_text refuses it: the recount decides


def test_a_token_holding_a_boundary_character_is_left_to_the_recount() -> None:
    assert scan_pattern(["a,b"], ",\n\r") is None
    assert scan_pattern(['"x"'], ',"\n\r') is None
    assert scan_pattern(["NA"], ",\n\r") == "(?:^|[,\\n\\r])(?:\\QNA\\E)(?:[,\\n\\r]|$)"
    with duckdb.connect() as conn:
        assert may_hold_tokens(conn, Recount("s", []), ["NA"]) is True  # no files: cannot tell
        # delimiters RE2 would read as a class's operators (']', '^', '-', '\\') stay literal edges
        for edge in "]^-\\":
            pattern = scan_pattern(["NA"], edge + "\n\r")
            found = [
                conn.execute("SELECT regexp_matches(?, ?)", [t, pattern]).fetchone()[0]
                for t in (f"a{edge}NA{edge}b", f"a{edge}NAb", "aNA\nb", "a-NA-b" if edge != "-" else "a]NA]b")
            ]
            assert found == [True, False, False, False], edge


def test_a_file_of_empty_fields_and_no_token_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    real_counts = token_notes.token_counts

    def counting(conn, recount, names, real, *, whole):  # type: ignore[no-untyped-def]
        calls.append(list(names))
        return real_counts(conn, recount, names, real, whole=whole)

    monkeypatch.setattr(token_notes, "token_counts", counting)
    no_token = tmp_path / "a.csv"
    no_token.write_text("id,name,code\n1,NANCY,\n2,,x-y\n3, NA,z\n")
    notes = load_files(tmp_path / "a.duckdb", [str(no_token)], LoadOptions(table="a")).notes
    assert calls == [] and not any("read as missing" in n for n in notes)
    with_token = tmp_path / "b.csv"
    with_token.write_text("id,name,code\n1,NANCY,\n2,,NA\n3,x,z\n")
    notes = load_files(tmp_path / "b.duckdb", [str(with_token)], LoadOptions(table="b")).notes
    assert calls and "code: 1 value 'NA' read as missing (NULL); add --null '' to keep them as text" in notes


def test_a_token_in_the_first_block_needs_no_scan_of_the_whole_file(tmp_path: Path) -> None:
    """The file's first block shows the token: DuckDB is not asked to read the whole file (a connection
    that cannot be used would fail the call); a token only past the first block is still found by it."""
    early = tmp_path / "early.csv"
    early.write_text("id,code\n1,NULL\n" + "".join(f"{i},c{i}\n" for i in range(2, 20_000)))
    recount = recount_for("unused", [], [early], ",", '"', None)
    assert may_hold_tokens(object(), recount, REAL)  # type: ignore[arg-type]
    late = tmp_path / "late.csv"
    late.write_text("id,code\n" + "".join(f"{i},c{i}\n" for i in range(2, 20_000)) + "20000,NULL\n")
    assert late.stat().st_size > 1 << 16
    with duckdb.connect() as conn:
        assert may_hold_tokens(conn, recount_for("unused", [], [late], ",", '"', None), REAL)
        assert not may_hold_tokens(conn, recount_for("unused", [], [late], ",", '"', None), ["NA"])
