"""Question files are held like a model's SQL: a file received from someone else cannot read outside its
folder, run anything ``run_sql`` refuses, or run unbounded (issue 24, vulnerabilities 1, 2 and 5)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import duckdb
import pytest
from bounded_run import GIB, run_capped

from analytics_agent.db.linked.spec import parse_source
from analytics_agent.errors import EvalFileError
from analytics_agent.evaluation.cases import Case, read_question_file
from analytics_agent.evaluation.dataset import build_database
from analytics_agent.evaluation.runner import prepare
from analytics_agent.workspace.workspace import Workspace


def _db(path: Path) -> Path:
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE orders AS SELECT i AS id, i * 10 AS amount FROM range(5) t(i)")
        conn.execute("CREATE TABLE dropped AS SELECT 'secret-row' AS s")
        conn.execute("DROP TABLE dropped")
        conn.execute("CHECKPOINT")
    return path


@pytest.mark.parametrize(
    ("sql", "refusal"),
    [
        ("SELECT content FROM read_blob('{db}')", "may not call read_blob"),
        (
            "SELECT * FROM postgres_query('src', 'SELECT pg_read_file(''/etc/passwd'')')",
            "may not call postgres_query",
        ),
        ("SELECT * FROM '{csv}'", "reads tables, not files"),
        ("SELECT 1; SELECT 2", "exactly one statement"),
    ],
)
def test_a_cases_sql_passes_run_sqls_parse_tree_check_with_a_source_linked(
    tmp_path: Path, sql: str, refusal: str
) -> None:
    db = _db(tmp_path / "shop.duckdb")
    csv = tmp_path / "visits.csv"
    csv.write_text("region,visits\nNorth,1\n")
    source = parse_source("visits", {"type": "files", "path": str(csv)})
    case = Case(id="a", question="q", sql=sql.format(db=db, csv=csv))
    with Workspace.open(db, sources=[source]) as workspace, pytest.raises(EvalFileError) as info:
        prepare(workspace, [case])
    assert refusal in str(info.value)
    assert str(info.value).startswith("case 'a': its sql failed")


def test_a_cases_sql_still_reads_tables_and_linked_sources(tmp_path: Path) -> None:
    db = _db(tmp_path / "shop.duckdb")
    csv = tmp_path / "visits.csv"
    csv.write_text("region,visits\nNorth,7\n")
    source = parse_source("visits", {"type": "files", "path": str(csv)})
    cases = [
        Case(id="a", question="q", sql="SELECT sum(amount) FROM orders"),
        Case(id="b", question="q", sql="SELECT sum(visits) FROM visits"),
    ]
    with Workspace.open(db, sources=[source]) as workspace:
        assert [p.expected for p in prepare(workspace, cases)] == [[100], [7]]


def test_a_cases_sql_stops_at_the_tool_time_limit(tmp_path: Path) -> None:
    """``range(1e13)`` ran past 90 s; with a small injected limit it is stopped and named."""
    db = _db(tmp_path / "shop.duckdb")
    case = Case(id="slow", question="q", sql="SELECT count(*) FROM range(10000000000000)")
    with Workspace.open(db, timeout_s=0.2) as workspace, pytest.raises(EvalFileError) as info:
        prepare(workspace, [case])
    assert "took longer than 0.2 s and was stopped" in str(info.value)


def test_a_cases_sql_returning_200m_rows_is_refused_within_bounded_memory(tmp_path: Path) -> None:
    """Every row used to be fetched into Python: a MemoryError at 5.1 GB. Now the fetch stops after the
    cap, in a child held to 3 GB."""
    db = _db(tmp_path / "shop.duckdb")
    result = run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.errors import EvalFileError
        from analytics_agent.evaluation.cases import Case
        from analytics_agent.evaluation.runner import prepare
        from analytics_agent.workspace.workspace import Workspace
        case = Case(id="big", question="q", sql="SELECT i FROM range(200000000) t(i)")
        with Workspace.open(Path({str(db)!r})) as workspace:
            try:
                prepare(workspace, [case])
            except EvalFileError as exc:
                print("refused:", exc)
        """,
        memory_bytes=3 * GIB,
    )
    assert "refused: case 'big': its sql failed: it returns more than 200 rows" in result.stdout, (
        result.stderr
    )


def test_a_cut_value_is_refused_not_used_as_an_expected_value(tmp_path: Path) -> None:
    db = _db(tmp_path / "shop.duckdb")
    case = Case(id="long", question="q", sql="SELECT repeat('x', 5000)")
    with Workspace.open(db) as workspace, pytest.raises(EvalFileError, match="value too long to check"):
        prepare(workspace, [case])


def _question_file(folder: Path, load: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "q.yaml"
    path.write_text(f"load: [{load}]\ncases:\n  - {{id: a, question: q, expect: [1]}}\n")
    return path


HOW = ["absolute", "dotdot", "symlink", "symlinked folder", "glob over a link", "glob in a linked folder"]
HOW += ["glob through ..", "glob that is absolute", "member of a linked zip"]


def _plant(folder: Path, secret: Path, how: str) -> str:
    """Lay out ``folder`` so that its question file's ``load:`` reaches ``secret`` one way; the entry."""
    load = {"absolute": str(secret), "dotdot": "../home/credentials.csv"}.get(how, "")
    if how in ("symlink", "glob over a link"):
        (folder / "d").mkdir()
        (folder / "d" / "a.csv").write_text("n\n1\n")
        os.symlink(secret, folder / "d" / "x.csv")
        load = "d/x.csv" if how == "symlink" else "{path: 'd/*.csv'}"
    elif how in ("symlinked folder", "glob in a linked folder"):
        os.symlink(secret.parent, folder / "data")
        load = "data/credentials.csv" if how == "symlinked folder" else "'data/*.csv'"
    elif how == "glob through ..":
        load = "'../h*/*.csv'"
    elif how == "glob that is absolute":
        load = repr(str(secret.parent / "*.csv"))
    elif how == "member of a linked zip":
        with zipfile.ZipFile(secret.parent / "keys.zip", "w") as archive:
            archive.write(secret, "credentials.csv")
        os.symlink(secret.parent / "keys.zip", folder / "data.zip")
        load = "data.zip:credentials.csv"
    return load


@pytest.mark.parametrize("how", HOW)
def test_load_paths_stay_inside_the_question_files_folder(tmp_path: Path, how: str) -> None:
    """``d/*.csv`` loaded ``d/x.csv``, a link to a credentials file, because only the pattern was
    checked: the secret reached the model, the report and the stored run. Every match is checked now."""
    secret = tmp_path / "home" / "credentials.csv"
    secret.parent.mkdir()
    secret.write_text("key,value\naws_secret,hunter2\n")
    folder = tmp_path / "downloads"
    folder.mkdir()
    load = _plant(folder, secret, how)
    question_file = read_question_file(_question_file(folder, load))
    with pytest.raises(EvalFileError, match="outside the question file's folder") as info:
        build_database(question_file, tmp_path / "fresh.duckdb")
    assert "\n" not in str(info.value) and "hunter2" not in str(info.value)
    assert not (tmp_path / "fresh.duckdb").exists()


HIDDEN = {
    "a hidden folder": "'.aws/credentials'",
    "through ./ and ..": "'./d/../.aws/credentials'",
    "a link to a hidden file": "d/x.csv",
    "a glob over a hidden folder": "'.aws/*'",
    "a glob matching a link to one": "'d/*.csv'",
    "a hidden file": "'.env'",
}


@pytest.mark.parametrize("how", list(HIDDEN))
def test_load_paths_never_reach_hidden_files_in_the_folder(tmp_path: Path, how: str) -> None:
    """A question file saved in a home or project folder loaded ``.aws/credentials`` (or ``.env``,
    ``.ssh/id_rsa``) beside it: inside the folder, so allowed, and sent to the model as table values.
    Hidden files and folders are refused however they are reached."""
    folder = tmp_path / "home"
    (folder / ".aws").mkdir(parents=True)
    (folder / ".aws" / "credentials").write_text("key,value\naws_secret,hunter2\n")
    (folder / ".env").write_text("key,value\ntoken,hunter2\n")
    (folder / "d").mkdir()
    (folder / "d" / "a.csv").write_text("n\n1\n")
    os.symlink(folder / ".aws" / "credentials", folder / "d" / "x.csv")
    question_file = read_question_file(_question_file(folder, HIDDEN[how]))
    with pytest.raises(EvalFileError, match="hidden file or inside a hidden folder") as info:
        build_database(question_file, tmp_path / "fresh.duckdb")
    assert "\n" not in str(info.value) and "hunter2" not in str(info.value)
    assert not (tmp_path / "fresh.duckdb").exists()


def test_a_glob_inside_the_folder_loads_every_match_under_the_patterns_table(tmp_path: Path) -> None:
    folder = tmp_path / "q"
    (folder / "d").mkdir(parents=True)
    (folder / "d" / "sales-1.csv").write_text("n\n1\n2\n")
    (folder / "d" / "sales-2.csv").write_text("n\n30\n")
    (folder / "d" / "other.txt").write_text("not loaded\n")
    question_file = read_question_file(_question_file(folder, "'d/sales-*.csv'"))
    assert build_database(question_file, tmp_path / "fresh.duckdb") == ["sales"]
    with duckdb.connect(str(tmp_path / "fresh.duckdb")) as conn:
        assert conn.execute("SELECT sum(n), count(*) FROM sales").fetchone() == (33, 3)


def test_a_glob_matching_nothing_is_one_line(tmp_path: Path) -> None:
    question_file = read_question_file(_question_file(tmp_path / "q", "'d/*.csv'"))
    with pytest.raises(EvalFileError, match=r"load: no files match 'd/\*\.csv'"):
        build_database(question_file, tmp_path / "fresh.duckdb")


def test_load_naming_a_duckdb_database_is_one_line(tmp_path: Path) -> None:
    _db(tmp_path / "mine.duckdb")
    question_file = read_question_file(_question_file(tmp_path, "mine.duckdb"))
    with pytest.raises(EvalFileError, match=r"mine\.duckdb is a DuckDB database, not a data file"):
        build_database(question_file, tmp_path / "fresh.duckdb")


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(9)
)


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("bomb.yaml", BOMB + "cases:\n  - {id: a, question: q, expect: [1]}\n", "expands to more than"),
        ("deep.yaml", "- {id: a, question: q, expect: " + "[" * 50_000 + "]" * 50_000 + "}\n", "nest deeper"),
        (
            "alias-list.yaml",
            "x: &s "
            + "x" * 1_000_000
            + "\ncases:\n  - {id: a, question: q, expect: ["
            + ", ".join(["*s"] * 450_000)
            + "]}\n",
            "more than 16 MB of text",
        ),
        (
            "alias-case.yaml",
            "x: &s "
            + "x" * 1_000_000
            + "\nc: &c {id: a, question: *s, expect: [1]}\ncases: ["
            + ", ".join(["*c"] * 300_000)
            + "]\n",
            "more than 16 MB of text",
        ),
        (
            "alias-nested.yaml",
            "x: &s " + "x" * 1_000_000 + "\ny: &t [*s, *s, *s]\ncases:\n  - {id: a, question: q, "
            "expect: [" + ", ".join(["*t"] * 100_000) + "]}\n",
            "more than 16 MB of text",
        ),
        # a plain number past Python's 4,300 digits: internal error (ValueError) before
        (
            "long-int.yaml",
            "cases:\n  - {id: a, question: q, expect: [" + "1" * 5000 + "]}\n",
            "a number is longer",
        ),
        (
            "long-hex.yaml",
            "cases:\n  - {id: a, question: q, expect: [0x" + "f" * 5000 + "]}\n",
            "a number is longer",
        ),
        (
            "long-base60.yaml",
            "cases:\n  - {id: a, question: q, expect: [" + ":".join(["1"] * 3000) + "]}\n",
            "a number is",
        ),
        (
            "deep.jsonl",
            '{"id": "a", "question": "q", "expect": ' + "[" * 50_000 + "]" * 50_000 + "}\n",
            "nests",
        ),
    ],
)
def test_hostile_question_files_are_one_line_within_bounded_memory(
    tmp_path: Path, name: str, text: str, why: str
) -> None:
    """A 530-byte file took 116 s and 5.9 GB; 50k-deep ``expect:`` raised RecursionError; a 1 MB string
    aliased 450,000 times passed the value bound. Read in a child held to 1 GB, they are refused in one
    line."""
    path = tmp_path / name
    path.write_text(text)
    result = run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.errors import EvalFileError
        from analytics_agent.evaluation.cases import read_question_file
        try:
            read_question_file(Path({str(path)!r}))
        except EvalFileError as exc:
            print("refused:", exc)
        """,
        memory_bytes=1 * GIB,
    )
    assert result.stdout.startswith("refused: "), result.stderr[-2000:]
    assert why in result.stdout and result.stdout.count("\n") == 1


RUN = {"results": [{"id": "a", "model": "m", "passed": True, "grounded": True, "answer": "hunter2"}]}


def test_stored_runs_are_readable_by_the_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stored run holds the questions, answers and values of the data; it was created 0644 in a 0755
    folder, so any local user could read what a question file loaded."""
    from analytics_agent.evaluation.store import load_run, save_run

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old = os.umask(0o022)
    try:
        path = save_run(RUN)
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert load_run("last")[1] == RUN


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"results": [{"id": "a", "model": "m", "passed": true, "grounded": true, "x": '
        + '{"a": ' * 100_000
        + "1"
        + "}" * 100_000
        + "}]}",
        '{"results": ' + "[" * 70 + "]" * 70 + "}",
    ],
    ids=["array", "object", "just past the bound"],
)
def test_a_run_file_nested_deep_is_one_line_for_compare(tmp_path: Path, text: str) -> None:
    """``eval --compare`` on a 100,000-deep JSON file raised RecursionError (an internal error)."""
    from analytics_agent.evaluation.store import load_run

    path = tmp_path / "run.json"
    path.write_text(text)
    with pytest.raises(EvalFileError, match="nests more than 64 levels deep") as info:
        load_run(str(path))
    assert "\n" not in str(info.value)
