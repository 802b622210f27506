"""One view of the workspace per kind of reader: the access policy, read again when its file changes,
and a registry built once for each distinct ``Visible`` it gives (readers who see the same share one).

The owner (``LOCAL``, or anyone when no policy file exists) gets the workspace's own registry; a signed-in
reader gets a registry built from the catalog, links, metrics and profiles as they see them, so no tool
has to remember to check. A policy file that goes missing or breaks while the server runs closes the
database to every signed-in reader until it is fixed (said once in the log): a server never falls back
to showing everything because a file could not be read.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from analytics_agent.db.visible import Visible
from analytics_agent.errors import AccessPolicyError
from analytics_agent.team.access import Policy, policy_path_for, read_policy, visible_to
from analytics_agent.team.principal import Principal
from analytics_agent.tools.registry import Registry

log = logging.getLogger(__name__)
Stamp = tuple[int, int, int] | None


class Views:
    """Not thread-safe by itself: ``LiveWorkspace`` calls it under its lock."""

    def __init__(self, db_path: Path, policy_file: Path | None = None) -> None:
        self.file = policy_file if policy_file is not None else policy_path_for(db_path)
        if policy_file is not None and not policy_file.is_file():
            raise AccessPolicyError("no such file (--access names the policy file)", path=str(policy_file))
        self._stamp = _stamp(self.file)
        self.policy: Policy | None = read_policy(self.file) if self._stamp is not None else None
        self._registries: dict[Visible, Registry] = {}
        self._seen: dict[tuple[str, tuple[str, ...], bool], Visible | None] = {}
        self._warned: set[str] = set()
        """Each principal's view, worked out once per catalog and policy (a glob per table and column)."""

    def refresh(self) -> bool:
        """Read the policy again if its file changed since; True if it did (every view is dropped)."""
        stamp = _stamp(self.file)
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        if stamp is None:
            log.warning(
                "%s: the access policy is gone; signed-in users see nothing until it is back", self.file
            )
            self.policy = Policy(str(self.file))  # no entries: default deny
        else:
            try:
                self.policy = read_policy(self.file)
            except AccessPolicyError as exc:
                log.error("%s; signed-in users see nothing until it is fixed", exc)
                self.policy = Policy(str(self.file))
        self.clear()
        return True

    def warn(self, catalog: Mapping[str, Mapping[str, str]], sources: Mapping[str, str]) -> None:
        """Log each glob of the policy that matches nothing, once per server."""
        for line in self.policy.unmatched(catalog, sources) if self.policy is not None else ():
            if line not in self._warned:
                self._warned.add(line)
                log.warning("%s", line)

    def clear(self) -> None:
        """Forget every view: the catalog, the linked sources or the policy changed."""
        self._registries.clear()
        self._seen.clear()

    def visible(
        self, principal: Principal, catalog: Mapping[str, Mapping[str, str]], sources: Mapping[str, str]
    ) -> Visible | None:
        key = (principal.name, principal.groups, principal.local)  # all the policy reads of them
        if key not in self._seen:
            self._seen[key] = visible_to(self.policy, principal, catalog, sources)
        return self._seen[key]

    def cached(self, visible: Visible) -> Registry | None:
        return self._registries.get(visible)

    def registry(self, visible: Visible, build: Callable[[Visible], Registry]) -> Registry:
        if visible not in self._registries:
            self._registries[visible] = build(visible)
        return self._registries[visible]


def _stamp(path: Path) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
