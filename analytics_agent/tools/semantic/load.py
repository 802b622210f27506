"""Which semantic model a database gets: the user's file next to it, else the bundled one for the sample
tables (applied only where it fits without a problem), else the inferred relationships alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from analytics_agent.errors import SemanticModelError
from analytics_agent.resources import seeds_dir

if TYPE_CHECKING:  # the model, its checker and the YAML reader are imported by the functions that use them
    import duckdb

    from analytics_agent.db.relationships import Relationship
    from analytics_agent.tools.aggregate.refs import Catalog
    from analytics_agent.tools.semantics import Semantics


def semantic_path_for(db_path: Path) -> Path:
    """``analytics.duckdb`` -> ``analytics.semantic.yaml`` beside it."""
    return db_path.with_name(f"{db_path.stem}.semantic.yaml")


def bundled_semantic_path() -> Path:
    return seeds_dir() / "semantic.yaml"


def load_semantics(
    cur: duckdb.DuckDBPyConnection, catalog: Catalog, path: Path | None
) -> tuple[Semantics, list[SemanticModelError]]:
    """The checked model and the user's file's problems (each one line with file:line)."""
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.tools.semantics import Semantics

    inferred = read_relationships(cur)
    if path is not None and path.is_file():
        from analytics_agent.tools.semantic.check import check_semantic
        from analytics_agent.tools.semantic.model import read_semantic

        try:
            file = read_semantic(path)
        except SemanticModelError as exc:
            return Semantics(relationships=inferred), [exc]
        if file.tables or file.problems:
            return check_semantic(file, catalog, inferred, cur)
        # a file that only sets the zone (``load --timezone``) keeps what the database had without one
        own, problems = check_semantic(file, catalog, inferred, cur)
        return replace(_shipped_or_inferred(cur, catalog, inferred), timezone=own.timezone), problems
    return _shipped_or_inferred(cur, catalog, inferred), []


def _shipped_or_inferred(
    cur: duckdb.DuckDBPyConnection, catalog: Catalog, inferred: list[Relationship]
) -> Semantics:
    from analytics_agent.db.seed import SAMPLE_TABLES
    from analytics_agent.tools.semantics import Semantics

    if not set(SAMPLE_TABLES) <= set(catalog):
        # the shipped model is of the sample tables: a database without them is not the sample one, and
        # reading and checking the model (YAML, the checker: ~0.2 s of a command's start) would find so
        return Semantics(relationships=inferred)
    from analytics_agent.tools.semantic.check import check_semantic
    from analytics_agent.tools.semantic.model import read_semantic

    bundled = read_semantic(bundled_semantic_path())
    semantics, problems = check_semantic(bundled, catalog, inferred, cur)
    if problems or not bundled.tables or any(t.name not in catalog for t in bundled.tables):
        return Semantics(relationships=inferred)  # not the sample database: not ours to complain about
    return semantics
