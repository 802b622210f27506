"""Who is asking: the one fact about sign-in that the rest of the product sees.

The HTTP edge turns a verified token into a ``Principal`` and sets it for the request; the access policy,
the audit trail and fairness read it with ``current()``. A process with no sign-in (stdio, the CLI, the
Python API) runs as ``LOCAL``, which the policy treats as the owner of the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Principal:
    name: str
    groups: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    client: str = ""
    """The client's own name (``clientInfo.name`` or the token's ``client_id``), for the audit trail."""
    local: bool = False
    """True only for a process without sign-in: its user owns the database and sees all of it."""


LOCAL = Principal(name="local", local=True)
_current: ContextVar[Principal] = ContextVar("analytics_agent_principal", default=LOCAL)


def current() -> Principal:
    return _current.get()


@contextmanager
def acting_as(principal: Principal) -> Iterator[Principal]:
    """Run the body as ``principal``; the previous one is back afterwards, whatever happens."""
    token = _current.set(principal)
    try:
        yield principal
    finally:
        _current.reset(token)
