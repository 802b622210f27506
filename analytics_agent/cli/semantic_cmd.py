"""``semantic init`` and ``semantic check``: the database's semantic file (registered by ``app.py``)."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from analytics_agent.cli.context import db_option, db_path, open_workspace

semantic_app = typer.Typer(
    help="The semantic model: named metrics, dimensions and relationships in <db>.semantic.yaml.",
    no_args_is_help=True,
)
OutputOpt = Annotated[
    Optional[Path], typer.Option("--output", "-o", help="Where to write (default: <db>.semantic.yaml).")
]


@semantic_app.command("init")
def init(
    output: OutputOpt = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing file (kept as .bak).")
    ] = False,
    timezone: Annotated[
        Optional[str],
        typer.Option("--timezone", help="The business time zone to write, e.g. America/New_York."),
    ] = None,
) -> None:
    """Write a starting file from the data: what one row is, time columns and zone, relationships,
    dimensions, a measure per numeric column. For the sample database, its shipped model."""
    import shlex

    from analytics_agent.tools.semantic.load import semantic_path_for

    path = output or semantic_path_for(db_path())
    zone = _zone_to_keep(path, force=force, timezone=timezone)
    with open_workspace() as ws:
        text, zone, what = _starting_file(ws, zone)
    _write_keeping_backup(path, text)
    # -o elsewhere than <db>.semantic.yaml: `semantic check` must be told where it is, too
    where = (
        f" {shlex.quote(str(path))}" if output is not None and path != semantic_path_for(db_path()) else ""
    )
    typer.echo(f"Wrote {path}: {what}. Edit it, then: analytics-agent {db_option()}semantic check{where}")
    if zone:
        typer.echo(f"Business time zone: {zone[0]} ({zone[1]})")


Zone = Optional[tuple[str, str]]  # (zone key, where it came from)


def _zone_to_keep(path: Path, *, force: bool, timezone: Optional[str]) -> Zone:
    """The zone to write: --timezone, else the one a previous file held. Refuses to replace a file without
    --force, unless that file only sets a zone (a draft ``semantic init --timezone`` may redo)."""
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.tools.aggregate.time import check_zone
    from analytics_agent.tools.semantic.model import read_semantic

    kept = None
    if path.is_file() and not path.is_symlink():
        try:
            kept = read_semantic(path)
        except SemanticModelError:
            kept = None  # a broken file is only replaced with --force, below
    only_zone = kept is not None and not kept.tables and not kept.problems and kept.timezone is not None
    if path.exists() and not force and not only_zone:
        raise SemanticModelError("already exists; edit it, or add --force to write a new one", path=str(path))
    if timezone:
        return check_zone(timezone).key, "given with --timezone"
    if kept is not None and kept.timezone:
        return check_zone(kept.timezone).key, f"kept from the previous {path.name}"
    return None


def _starting_file(ws: Any, zone: Zone) -> tuple[str, Zone, str]:
    """(the file's text, the zone it sets, what it was drawn from) for the workspace's own tables."""
    from analytics_agent.db.catalog import get_profile, table_names
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.tools.aggregate.tool import read_catalog
    from analytics_agent.tools.semantic.describe import not_additive, row_key
    from analytics_agent.tools.semantic.load import bundled_semantic_path
    from analytics_agent.tools.semantic.starter import propose_zone, starter_yaml
    from analytics_agent.tools.semantic.zone_detect import zone_samples
    from analytics_agent.tools.semantics import Semantics

    cur = ws.cursor()
    # the tables `tables` lists: a view may select without end (range(1e13)), and profiling it hung init
    listed = set(table_names(cur)) - set(ws.linked_tables)
    catalog = {t: c for t, c in read_catalog(cur).items() if t in listed}
    if _bundled_applies(cur, catalog):
        text = _from_bundled(bundled_semantic_path().read_text(encoding="utf-8"), zone)
        return text, zone, "the sample database's shipped model, to edit"
    relationships = [r for r in read_relationships(cur) if r.table in catalog and r.target in catalog]
    semantics = Semantics(relationships=relationships)
    keys = {t: k for t in catalog if (k := row_key(cur, t, catalog[t], semantics))}
    zone = zone or propose_zone(zone_samples(cur, catalog))
    profiles = {t: get_profile(cur, t) for t in catalog}
    skipped = {t: not_additive(cur, t, catalog[t]) for t in catalog}
    text = starter_yaml(catalog, relationships, profiles, keys=keys, zone=zone, not_measures=skipped)
    return text, zone, f"{len(catalog)} tables"


def _write_keeping_backup(path: Path, text: str) -> None:
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.paths import refuse_symlink, write_file

    try:
        refuse_symlink(path)  # before the backup: never read or copy what a planted link points at
        if path.exists():
            backup = path.with_name(path.name + ".bak")
            write_file(backup, path.read_text(encoding="utf-8"))
            typer.echo(f"Replaced {path}; the previous file is kept as {backup}")
        write_file(path, text)
    except OSError as exc:
        raise SemanticModelError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None


def _bundled_applies(cur: Any, catalog: dict[str, dict[str, str]]) -> bool:
    """The shipped model is what the sample database uses when it has no file of its own: start from it
    rather than hide it behind a file that lacks its metrics. Only where it fits without a problem, as the
    tools apply it (``semantic.load``): a database of your own with an ``orders`` and a ``customers``
    table of other columns gets a starter drawn from its data, not a file of warnings."""
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.tools.semantic.check import check_semantic
    from analytics_agent.tools.semantic.load import bundled_semantic_path
    from analytics_agent.tools.semantic.model import read_semantic

    bundled = read_semantic(bundled_semantic_path())
    if not (
        bundled.tables
        and all(t.name in catalog for t in bundled.tables)
        and any(m.table in catalog for m in bundled.metrics)
    ):
        return False
    return not check_semantic(bundled, catalog, read_relationships(cur), cur)[1]


def _from_bundled(text: str, zone: tuple[str, str] | None) -> str:
    head = "# Started from the sample database's shipped semantic model: edit it; it now replaces the shipped one.\n"
    return head + (f"timezone: {zone[0]}  # {zone[1]}\n" if zone else "") + text


@semantic_app.command("check")
def check(
    path: Annotated[Optional[Path], typer.Argument(help="Default: <db>.semantic.yaml.")] = None,
) -> None:
    """Check the semantic file against the database: one line per mistake; exit 1 if any."""
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.tools.aggregate.tool import read_catalog
    from analytics_agent.tools.semantic.check import check_semantic
    from analytics_agent.tools.semantic.load import semantic_path_for
    from analytics_agent.tools.semantic.model import read_semantic

    path = path or semantic_path_for(db_path())
    if not path.is_file():
        raise SemanticModelError(
            f"no such file; write a starting one with: analytics-agent {db_option()}semantic init",
            path=str(path),
        )
    with open_workspace(semantic_warnings=False) as ws:
        cur = ws.cursor()
        semantics, problems = check_semantic(
            read_semantic(path), read_catalog(cur), read_relationships(cur), cur
        )
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    links = len(semantics.relationships)
    count = f"{len(problems)} problem{'' if len(problems) == 1 else 's'}"
    typer.echo(f"{path}: {len(semantics.metrics)} metrics, {links} relationships, {count}")
    if problems:
        raise typer.Exit(1)
