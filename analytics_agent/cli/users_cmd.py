"""``users add | list | remove``: personal tokens for a team server without an identity provider.

A thin door onto ``team/users.py``: the token is printed once, on stdout alone (so ``> alice.token`` keeps
it); everything else goes to stderr.
"""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import json
from typing import Annotated, Optional

import typer

from analytics_agent.cli.context import db_path
from analytics_agent.cli.global_options import JsonFlag

users_app = typer.Typer(
    help="Personal tokens for `mcp --http --auth users`: who may use the team server.", no_args_is_help=True
)
_NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The user's name, e.g. alice.")]


@users_app.command("add")
def add(
    name: _NameArg,
    group: Annotated[
        Optional[list[str]], typer.Option("--group", help="A group the user belongs to; repeat for more.")
    ] = None,
) -> None:
    """Add a user and print their new token, once: only its hash is stored."""
    from analytics_agent.team.users import add_user, users_file

    path = users_file(db_path())
    token = add_user(path, name, tuple(group or ()))
    typer.echo(token)
    typer.echo(
        f"added {name} to {path}; the token above is shown only this once: give it to {name}, who sends it "
        "as Authorization: Bearer TOKEN",
        err=True,
    )


@users_app.command("list")
def list_users(as_json: JsonFlag = False) -> None:
    """The users who may sign in (names and groups; tokens are never stored)."""
    from analytics_agent.present.tables import table
    from analytics_agent.team.users import read_users, users_file

    path = users_file(db_path())
    users = read_users(path)
    if as_json:
        rows = [{"name": u.name, "groups": list(u.groups), "created": u.created} for u in users]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not users:
        typer.echo(f"No users yet ({path}); add one with `analytics-agent users add NAME`.")
        return
    typer.echo(
        table(["user", "groups", "created"], [(u.name, ", ".join(u.groups), u.created) for u in users])
    )


@users_app.command("remove")
def remove(name: _NameArg) -> None:
    """Remove a user: their token stops working at once, even on a running server."""
    from analytics_agent.team.users import remove_user, users_file

    path = users_file(db_path())
    remove_user(path, name)
    typer.echo(f"removed {name} from {path}", err=True)
