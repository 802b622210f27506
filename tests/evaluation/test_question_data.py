"""A question file that names its data: read, loaded into a fresh database, and refused with one line
when it cannot be used; bundled sets by name."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from eval_models import EvalModel, reference_behaviour
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.errors import EvalFileError
from analytics_agent.evaluation.cases import (
    bundled_file,
    read_question_file,
    resolve_question_file,
)
from analytics_agent.evaluation.dataset import build_database, workspace_for
from analytics_agent.evaluation.runner import prepare
from analytics_agent.resources import evals_dir

VISITS = "region,visits\nNorth,120\nSouth,75\nNorth,30\n"
CASES = """
cases:
  - id: north
    question: How many visits did North get?
    sql: SELECT sum(visits) FROM site_visits WHERE region = 'North'
    calls:
      - tool: aggregate
        arguments: {table: site_visits, metrics: [{fn: sum, column: visits}], filters: [{column: region, op: "=", value: North}]}
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def own_data_file(tmp_path: Path) -> Path:
    """A question file naming a CSV in a folder below its own, loaded under a table name of its own."""
    write(tmp_path / "questions" / "exports", "visits-2026.csv", VISITS)
    header = "load:\n  - {path: exports/visits-2026.csv, table: site_visits}\ntimezone: Asia/Kolkata\n"
    return write(tmp_path / "questions", "visits.yaml", header + CASES)


def test_load_paths_resolve_against_the_question_file_and_keep_their_table_names(own_data_file: Path) -> None:
    question_file = read_question_file(own_data_file)
    assert question_file.data.timezone == "Asia/Kolkata"
    assert question_file.data_paths() == [
        ([str((own_data_file.parent / "exports/visits-2026.csv").resolve())], "site_visits")
    ]
    assert [c.id for c in question_file.cases] == ["north"]


def test_a_plain_list_or_jsonl_names_no_data(tmp_path: Path) -> None:
    plain = read_question_file(write(tmp_path, "q.yaml", "- {id: a, question: one, sql: SELECT 1}\n"))
    assert plain.data.load == [] and plain.data.timezone == "UTC"
    jsonl = read_question_file(
        write(tmp_path, "q.jsonl", json.dumps({"id": "a", "question": "one", "expect": 1}))
    )
    assert jsonl.data.load == []


def test_the_database_holds_exactly_the_named_files(own_data_file: Path, tmp_path: Path) -> None:
    db = tmp_path / "fresh.duckdb"
    assert build_database(read_question_file(own_data_file), db) == ["site_visits"]
    with duckdb.connect(str(db), read_only=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        ]
        total = conn.execute("SELECT sum(visits) FROM site_visits WHERE region = 'North'").fetchone()[0]
    assert tables == ["site_visits"]
    assert total == 120 + 30


def test_the_run_uses_a_fresh_database_removed_afterwards(own_data_file: Path) -> None:
    """(That the file's time zone reaches aggregate is shown by test_real_exports_set: its December count
    agrees with the SQL only in New York time.)"""
    opened = []
    question_file = read_question_file(own_data_file)
    with workspace_for(question_file, lambda: opened.append("user's") or pytest.fail("opened")) as workspace:
        folder = workspace.db_path.parent
        assert [p.expected for p in prepare(workspace, question_file.cases)] == [[150]]
        assert {t.name for t in workspace.registry} >= {"aggregate", "describe_table"}
    assert opened == [] and not folder.exists()  # removed after the run


def test_a_file_naming_no_data_runs_on_the_users_workspace(tmp_path: Path) -> None:
    question_file = read_question_file(write(tmp_path, "q.yaml", "- {id: a, question: one, sql: SELECT 1}\n"))
    sentinel = object()

    class Opened:
        def __enter__(self):
            return sentinel

        def __exit__(self, *exc):
            return None

    with workspace_for(question_file, Opened) as workspace:
        assert workspace is sentinel


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("load: [missing.csv]\n", r"q.yaml: load: no such file: .*missing.csv"),
        ("lod: [a.csv]\n", r"q.yaml: unknown top-level key 'lod'; did you mean 'load'\?"),
        (
            "load: [a.csv]\ntimezone: Mars/Base\n",
            r"timezone: unknown time zone 'Mars/Base'; use an IANA name",
        ),
        ("load: 5\n", r"q.yaml: load: Input should be a valid list"),
        (
            "load: [{file: a.csv}]\n",
            r"q.yaml: load.0: unknown key 'file' \(an entry is a path, or a path with table and the options",
        ),
        ("load: [bad.csv]\n", r"q.yaml: load: bad.csv: line 3 has 1 field where the header has 2"),
    ],
)
def test_data_that_cannot_be_used_is_one_line_naming_the_question_file(
    tmp_path: Path, header: str, message: str
) -> None:
    write(tmp_path, "bad.csv", "a,b\n1,2\nx\n")
    path = write(tmp_path, "q.yaml", header + "cases:\n  - {id: a, question: one, sql: SELECT 1}\n")
    with pytest.raises(EvalFileError, match=message) as info:
        question_file = read_question_file(path)
        build_database(question_file, tmp_path / "fresh.duckdb")
    assert "\n" not in str(info.value)
    assert not (tmp_path / "fresh.duckdb").exists()  # a failed first load leaves no database behind


def test_bundled_sets_are_found_by_name_and_a_typo_gets_the_closest() -> None:
    assert resolve_question_file(None) == bundled_file()
    assert resolve_question_file(Path("real_exports")) == evals_dir() / "real_exports.yaml"
    with pytest.raises(EvalFileError, match=r"real_exprts: no such question file, nor a bundled set \(.*"
                       r"real_exports.*\); did you mean 'real_exports'\?"):  # fmt: skip
        resolve_question_file(Path("real_exprts"))


def test_eval_through_the_cli_answers_from_the_files_own_data(own_data_file: Path, tmp_path: Path) -> None:
    question_file = read_question_file(own_data_file)
    with workspace_for(question_file, pytest.fail) as workspace:
        (prepared,) = prepare(workspace, question_file.cases)
    model = EvalModel(
        {("ref", prepared.case.question): reference_behaviour(prepared.case, prepared.expected)}
    )
    user_db = tmp_path / "mine.duckdb"
    try:
        args = [
            "--db",
            str(user_db),
            "eval",
            str(own_data_file),
            "--base-url",
            model.url,
            "-m",
            "ref",
            "--json",
        ]
        result = CliRunner().invoke(app, [*args, "-q"])
    finally:
        model.close()
    (row,) = json.loads(result.stdout)["results"]
    assert (row["passed"], row["grounded"], row["expected"], row["tool_calls"]) == (True, True, [150], 1)
    assert result.exit_code == 0 and not user_db.exists()


def test_a_load_entry_takes_the_options_of_the_load_command(tmp_path: Path) -> None:
    """An export with a title above its header, $ amounts, a Total row and a semicolon: loaded with the
    options the question file gives, as `analytics-agent load --skip 2 --drop-totals --delimiter ';'`."""
    export = "Visits report\nAll regions\nregion;visits;fee\nNorth;120;$1,200.00\nSouth;75;$750.00\nTotal;195;$1,950.00\n"
    write(tmp_path / "q", "visits.csv", export)
    header = (
        "load:\n  - {path: visits.csv, table: site_visits, skip: 2, drop_totals: true, delimiter: ';',"
        " types: {region: VARCHAR}}\n"
    )
    question_file = read_question_file(write(tmp_path / "q", "q.yaml", header + CASES))
    db = tmp_path / "fresh.duckdb"
    assert build_database(question_file, db) == ["site_visits"]
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT region, visits, fee FROM site_visits ORDER BY region").fetchall()
    assert rows == [("North", 120, 1200.0), ("South", 75, 750.0)]


def test_a_load_entry_with_an_unknown_or_bad_option_is_refused_in_one_line(tmp_path: Path) -> None:
    write(tmp_path / "q", "visits.csv", VISITS)
    misspelt = "load:\n  - {path: visits.csv, skip-bad-rows: true}\n"
    with pytest.raises(EvalFileError) as caught:
        read_question_file(write(tmp_path / "q", "a.yaml", misspelt + CASES))
    assert str(caught.value).endswith("load.0: unknown key 'skip-bad-rows'; write it 'skip_bad_rows'")
    bad = "load:\n  - {path: visits.csv, newline: crlf}\n"
    with pytest.raises(EvalFileError) as caught:
        build_database(
            read_question_file(write(tmp_path / "q", "b.yaml", bad + CASES)), tmp_path / "b.duckdb"
        )
    assert str(caught.value).endswith("load: --newline takes any (each of \\r\\n, \\n and \\r ends a line)")
