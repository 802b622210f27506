"""The database a question file runs on: the user's, or a fresh one built from the files it names.

A file that names its data (``load``) must give the same expected values on every machine, so it never
runs on the user's database (which may hold other versions of those tables): its files are loaded, the
same way ``analytics-agent load`` does, into a new database in a temporary folder that is removed after
the run.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import EvalFileError, LoadError
from analytics_agent.evaluation.cases import QuestionFile
from analytics_agent.workspace.workspace import Workspace

OpenDefault = Callable[[], AbstractContextManager[Workspace]]
"""Opens the user's workspace (``--db`` and the global options), for files that name no data."""


@contextmanager
def workspace_for(question_file: QuestionFile, open_default: OpenDefault) -> Iterator[Workspace]:
    """The workspace to run ``question_file`` on.

    Raises:
        EvalFileError: a named file cannot be loaded (naming the question file and the loader's reason).
    """
    if not question_file.data.load:
        with open_default() as workspace:
            yield workspace
        return
    with tempfile.TemporaryDirectory(prefix="analytics-agent-eval-") as folder:
        db_path = Path(folder) / "eval.duckdb"
        build_database(question_file, db_path)
        with Workspace.open(db_path, timezone=question_file.data.timezone) as workspace:
            yield workspace


def build_database(question_file: QuestionFile, db_path: Path) -> list[str]:
    """Load every file the question file names into ``db_path`` (a new, empty database); the tables.

    Raises:
        EvalFileError: a file is missing or the loader refuses it (with the loader's reason).
    """
    tables = []
    entries = question_file.data.load
    for (files, table), entry in zip(question_file.data_paths(), entries, strict=True):
        for path in map(Path, files):
            if _is_duckdb_file(path):
                raise EvalFileError(
                    f"{question_file.path}: load: {path.name} is a DuckDB database, not a data file; a question "
                    "file loads CSV or Parquet files (run it on a database with --db and no load: instead)"
                )
        try:
            summary = load_files(db_path, files, load_options(table=table, **entry.load_options()))
        except LoadError as exc:
            raise EvalFileError(f"{question_file.path}: load: {exc}") from None
        tables.append(summary.table)
    return tables


def _is_duckdb_file(path: Path) -> bool:
    """DuckDB's files carry ``DUCK`` at byte 8: loading one (perhaps the user's own database, open
    elsewhere) as a CSV is never meant."""
    try:
        with path.open("rb") as handle:
            return handle.read(12)[8:12] == b"DUCK"
    except OSError:
        return False  # the loader says why it cannot read it
