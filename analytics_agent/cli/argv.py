"""Which command a command line runs, read before anything heavy is imported. Pure."""

from __future__ import annotations

_TAKES_VALUE = frozenset({"--db", "--tools-dir"})
_FLAGS = frozenset({"-v", "--verbose", "--allow-sql", "--no-sources"})


def command_name(args: list[str]) -> str | None:
    """The command ``args`` run when only global options stand before it; None for anything else
    (``--help``, ``--version``, no command, an unknown option): those get the whole app."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _TAKES_VALUE:
            i += 2
        elif arg in _FLAGS or arg.split("=", 1)[0] in _TAKES_VALUE:
            i += 1
        elif arg.startswith("-"):
            return None
        else:
            return arg
    return None
