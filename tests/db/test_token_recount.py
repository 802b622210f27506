"""The recount of missing-value tokens (``settle.token_notes.token_counts``): each text column's note counts
the values that were one of the tokens (not the empty fields) and names the tokens it held, whatever
their place in the token list and however many tokens were given. The expected counts are computed here
from the rows as written, not taken from the loader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analytics_agent.db.load.options import DEFAULT_NULL_TOKENS, LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle import token_notes
from analytics_agent.db.load.settle.token_notes import SAMPLE_ROWS


def _load(tmp_path: Path, rows: list[list[str]], tokens: tuple[str, ...] | None = None) -> list[str]:
    path = tmp_path / "f.tsv"
    path.write_text("\n".join("\t".join(r) for r in rows) + "\n", encoding="utf-8")
    options = LoadOptions(table="t", null_tokens=tokens)
    return load_files(tmp_path / "t.duckdb", [str(path)], options).notes


def _token_notes(notes: list[str]) -> dict[str, tuple[int, list[str]]]:
    found = {}
    for note in notes:
        match = re.fullmatch(
            r"(\w+): ([\d,]+) values? (?!such as)(.+) read as missing \(NULL\); add --null '' .*", note
        )
        if match:
            found[match[1]] = (int(match[2].replace(",", "")), re.findall(r"'([^']*)'", match[3]))
    return found


def _expected(rows: list[list[str]], column: int, tokens: tuple[str, ...]) -> tuple[int, list[str]]:
    values = [r[column] for r in rows[1:]]
    held = sorted({v for v in values if v in tokens and v})
    return sum(1 for v in values if v in tokens and v), held[:3]


def test_each_column_counts_its_own_tokens_and_names_them_whatever_their_place(tmp_path: Path) -> None:
    # tokens from the start and the end of the default list ('NA' first, 'NaN' and '-' last), empties beside
    cycle_a = ["NA", "x", "", "-", "y", "NaN", "z", "NA"]
    cycle_b = ["q", "", "null", "r", "", "s", "t", "u"]
    rows = [["id", "a", "b", "c"]] + [
        [str(i), cycle_a[i % 8], cycle_b[i % 8], "" if i % 3 else "w"] for i in range(200)
    ]
    found = _token_notes(_load(tmp_path, rows))
    assert found["a"] == _expected(rows, 1, DEFAULT_NULL_TOKENS) == (100, ["-", "NA", "NaN"])
    assert found["b"] == _expected(rows, 2, DEFAULT_NULL_TOKENS) == (25, ["null"])
    assert "c" not in found  # empty fields alone are no token


def test_more_tokens_than_a_bitmask_holds_are_counted_and_named(tmp_path: Path) -> None:
    tokens = tuple(f"t{i}" for i in range(70))
    cycle = ["t69", "v", "t3", "w", "t64", "t69"]
    rows = [["id", "a"]] + [[str(i), cycle[i % 6]] for i in range(60)]
    found = _token_notes(_load(tmp_path, rows, tokens))
    assert found["a"] == _expected(rows, 1, tokens) == (40, ["t3", "t64", "t69"])


def test_a_token_with_a_quote_is_matched_as_written(tmp_path: Path) -> None:
    tokens = ("n'a", "NA")
    rows = [["id", "a"]] + [[str(i), ["n'a", "v", "NA", "w"][i % 4]] for i in range(40)]
    notes = _load(tmp_path, rows, tokens)
    assert any(n.startswith("a: 20 values 'NA', \"n'a\" read as missing") for n in notes), notes


def test_past_the_first_rows_a_column_that_shows_tokens_is_not_read_again_and_the_others_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big table: a column whose first ``SAMPLE_ROWS`` rows show a token is named with those tokens
    ("such as") and the column's own count of missing values, without reading the file to its end for it;
    a column with NULLs and no token in its first rows is read whole (a token past them becomes NULL
    only with a note, counted and named exactly); one of empty fields alone gets no note."""
    monkeypatch.setattr(token_notes, "COUNTED_ROWS", SAMPLE_ROWS)  # a big file's way, on a small one
    reads: list[list[str]] = []
    real_masks = token_notes._masks

    def masks(conn, source, params, columns, real):  # type: ignore[no-untyped-def]
        reads.append(["first rows" if "LIMIT" in source else "whole", *columns])
        return real_masks(conn, source, params, columns, real)

    monkeypatch.setattr(token_notes, "_masks", masks)
    n = SAMPLE_ROWS * 2
    rows = [["id", "early", "late", "clean"]]
    for i in range(n):
        early = (
            "NA" if i % 10 == 0 else ("-" if i > SAMPLE_ROWS and i % 10 == 5 else ("" if i % 9 == 1 else "e"))
        )
        late = "NULL" if i > SAMPLE_ROWS and i % 7 == 0 else ("" if i % 3 else "x")
        rows.append([str(i), early, late, "" if i % 4 else "c"])
    notes = _load(tmp_path, rows)
    early_missing = sum(1 for r in rows[1:] if r[1] in ("NA", "-", ""))
    assert (
        f"early: values such as 'NA' read as missing (NULL), among its {early_missing:,} missing values; "
        "add --null '' to keep them as text"
    ) in notes
    late_count = sum(1 for r in rows[1:] if r[2] == "NULL")
    assert _token_notes(notes)["late"] == (late_count, ["NULL"])
    assert not any(note.startswith("clean:") for note in notes)
    assert reads == [["first rows", "early", "late", "clean"], ["whole", "late", "clean"]]


def test_past_the_first_rows_columns_that_show_the_same_tokens_share_one_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A voter file's forty election columns all show ``NULL`` in their first rows: one line names them,
    in the table's order, instead of one line each; a column that shows other tokens keeps its own."""
    monkeypatch.setattr(token_notes, "COUNTED_ROWS", SAMPLE_ROWS)
    rows = [["id", "e1", "code", "e2", "e3"]]
    for i in range(SAMPLE_ROWS * 2):
        vote = "NULL" if i % 5 == 0 else ("" if i % 5 == 1 else "Y")
        rows.append([str(i), vote, "NA" if i % 6 == 0 else "c", vote, "" if i % 3 else vote])
    notes = [n for n in _load(tmp_path, rows) if "read as missing" in n]
    code_missing = sum(1 for r in rows[1:] if r[2] == "NA")
    assert notes == [
        "e1, e2, e3: values such as 'NULL' read as missing (NULL); add --null '' to keep them as text",
        f"code: values such as 'NA' read as missing (NULL), among its {code_missing:,} missing values; "
        "add --null '' to keep them as text",
    ]


def test_cells_no_file_wrote_are_no_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A short row padded by --pad-short-rows, and a column one of several files lacks, are NULL in every
    reading of the files; only the tokens written count."""
    short = tmp_path / "short.csv"
    short.write_text("id,a,b\n" + "".join(f"{i},NA,x\n" if i % 2 else f"{i},y\n" for i in range(40)))
    notes = load_files(tmp_path / "p.duckdb", [str(short)], LoadOptions(table="p", pad_short_rows=True)).notes
    assert _token_notes(notes)["a"] == (20, ["NA"]) and not any(n.startswith("b:") for n in notes)
    (tmp_path / "one.csv").write_text(
        "id,a,c\n" + "".join(f"{i},v,{'NULL' if i % 4 == 0 else 'w'}\n" for i in range(20))
    )
    (tmp_path / "two.csv").write_text("id,a\n" + "".join(f"{i},v\n" for i in range(20, 50)))
    notes = load_files(
        tmp_path / "m.duckdb", [str(tmp_path / "one.csv"), str(tmp_path / "two.csv")], LoadOptions(table="m")
    ).notes
    assert _token_notes(notes)["c"] == (5, ["NULL"])
