"""A plain ``tools call NAME [JSON]`` command line, read and run without typer.

Typer's import and its reading of the command cost a one-call command about a tenth of its CPU, as much as
everything our own code does for a call on a table of your own (docs/performance.md). So, as ``load_args``
does for ``load``, ``quick_call_args`` reads the plain form: the global options ``--db`` and ``-v`` on
either side of the command, ``--timezone`` after it, the tool's name and its JSON arguments. Anything else
(``--help``, ``--sql``, ``--csv``, ``--json``, a chart, another global option, a mistake, a word that
looks like an option) gives None, and typer parses and answers it as always. ``run_call`` is the one body
both ways run, so a call says the same, byte for byte, whichever way it was read
(``tests/cli/test_quick_call.py``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analytics_agent.tools.executor import ToolOutcome

_GLOBAL = {"--db": "db", "-v": "verbose", "--verbose": "verbose"}
_OWN = {"--timezone": "timezone"}


class QuickCall:
    """A plain call: its global options, the tool's name, its arguments (JSON text) and its zone."""

    __slots__ = ("arguments", "db", "name", "timezone", "verbose")

    def __init__(
        self, name: str, arguments: str, *, db: str | None, verbose: bool, timezone: str | None
    ) -> None:
        self.name, self.arguments, self.timezone = name, arguments, timezone
        self.db, self.verbose = db, verbose


def quick_call_args(args: list[str]) -> QuickCall | None:
    """``args`` (the command line after the program name) when it is a plain ``tools call``; None for
    anything else. Values are taken as click takes them: the next word, whatever it starts with, or after
    ``=``; a repeated option's last value wins (a global option given on both sides of the command too)."""
    values: dict[str, str | bool | None] = {"db": None, "verbose": False, "timezone": None}
    words, seen, given = iter(args), list[str](), list[str]()
    for word in words:
        if word in ("-", "--"):  # click reads these as values or as the end of options: typer's
            return None
        if not word.startswith("-"):
            if len(seen) == 2:
                given.append(word)
            elif word == ("tools", "call")[len(seen)]:
                seen.append(word)
            else:
                return None
            continue
        flag, has_inline, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        name = _GLOBAL.get(flag) if len(seen) != 1 else None  # "tools" itself takes no option
        name = name or (_OWN.get(flag) if len(seen) == 2 else None)
        if name is None:
            return None
        if name == "verbose":
            if has_inline:
                return None
            values[name] = True
            continue
        value = inline if has_inline else next(words, None)
        if value is None:
            return None
        values[name] = value
    if len(seen) < 2 or not 1 <= len(given) <= 2:
        return None
    db, timezone = values["db"], values["timezone"]
    return QuickCall(
        given[0],
        given[1] if len(given) > 1 else "{}",
        db=db if isinstance(db, str) else None,
        verbose=values["verbose"] is True,
        timezone=timezone if isinstance(timezone, str) else None,
    )


def call_tool(name: str, arguments: str, timezone: str | None) -> ToolOutcome:
    """Run one tool on the workspace the global options describe (``State``)."""
    from analytics_agent.cli.context import open_workspace

    with open_workspace(timezone) as ws:
        return ws.executor.execute(name, arguments)


def run_call(quick: QuickCall) -> None:
    """A call parsed by ``quick_call_args``: its global options, the call, and what the model would read
    (an error outcome as typer's command says it: the text, exit code 1)."""
    from pathlib import Path

    from analytics_agent.cli.context import State, set_verbose
    from analytics_agent.present.safe_text import escape_control, escape_json_text

    if quick.db is not None:
        State.db = Path(quick.db)
    if quick.verbose:
        set_verbose()
    outcome = call_tool(quick.name, quick.arguments, quick.timezone)
    if outcome.is_error:
        _say(escape_control(outcome.text))  # the model reads it raw; a terminal must not obey it
        sys.exit(1)
    _say(escape_json_text(outcome.text))


def _say(text: str) -> None:
    """One line on stdout, flushed, as click's ``echo`` writes it."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
