"""Where a load writes: the table's name and whether it creates, replaces or appends. Pure."""

from __future__ import annotations

from collections.abc import Container, Sequence

from analytics_agent.db.load.names import safe_identifier, table_name_from_path
from analytics_agent.db.load.options import LoadOptions, Mode
from analytics_agent.errors import LoadError


def write_mode(mode: Mode, table: str, existing: list[str]) -> Mode:
    """``create`` when ``--replace``/``--append`` names a table that is not there (the summary then says
    what happened); a name close to an existing table is taken for a typo and refused, since replacing
    or appending was meant to change that table, not to make a new one beside it."""
    if mode == "create" or table.lower() in {name.lower() for name in existing}:
        return mode
    from analytics_agent.suggest import did_you_mean

    hint = did_you_mean(table, existing)
    if hint:
        raise LoadError(
            f"no table {table!r} to {'replace' if mode == 'replace' else 'append to'}{hint} "
            f"(to create {table!r} as a new table, leave out --{mode})"
        )
    return "create"


def target_table(options: LoadOptions, patterns: Sequence[str], reserved: Container[str]) -> str:
    """The table a load writes: ``--table`` made safe, or the first file's (or archive member's) name."""
    if options.table is not None:
        name = safe_identifier(options.table, reserved=reserved, prefix="t")
    else:  # archive.zip:member.csv is named after its member
        name = table_name_from_path(patterns[0].rsplit(".zip:", 1)[-1], reserved=reserved)
    if name.startswith("_"):
        raise LoadError(f"table names starting with '_' are reserved; choose another --table than {name!r}")
    return name
