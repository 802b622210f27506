"""Programs and services some tests need from the machine (rsvg-convert, PostgreSQL, node with the
``oidc-provider`` package).

On a developer's machine a missing one skips the test, saying which Debian package brings it. Under CI
(``CI=true``) it fails the test instead: .ci/run installs each of them, so a missing one there is a broken
CI script, and a skip would hide it (the chart-to-PNG tests skipped on every CI run that way).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

# The Debian packages .ci/run installs for these tests (tests/docs/test_ci_installs.py checks it does).
RSVG = "librsvg2-bin"
POSTGRESQL = "postgresql"
NODE = "nodejs"
# The npm package the sign-in tests run as a real OpenID provider, and the version .ci/run installs into
# the user's cache (outside the clone, as it keeps the peer's wheels); tests never reach the registry.
OIDC_PROVIDER = "oidc-provider@9.13.3"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def missing(what: str, package: str) -> NoReturn:
    """Skip (or, under CI, fail) the calling test: ``what`` is not here, Debian ``package`` brings it."""
    message = f"{what} not found (Debian package {package})"
    if in_ci():
        pytest.fail(f"{message}: .ci/run installs it, so CI must have it", pytrace=False)
    pytest.skip(message)


def program(name: str, package: str) -> str:
    """The path of the program ``name``, or skip/fail as :func:`missing` says."""
    found = shutil.which(name)
    if found is None:
        missing(name, package)
    return found


def oidc_provider_home() -> Path:
    """The folder .ci/run installs ``OIDC_PROVIDER`` into (``npm install --prefix``)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "analytics-agent" / "oidc-provider"


def oidc_provider() -> tuple[str, Path]:
    """``node`` and the folder holding ``node_modules/oidc-provider``, or skip/fail as :func:`missing` says."""
    node = program("node", NODE)
    home = oidc_provider_home()
    if not (home / "node_modules" / "oidc-provider" / "package.json").is_file():
        message = f"{OIDC_PROVIDER} not installed in {home} (npm install --prefix {home} {OIDC_PROVIDER})"
        if in_ci():
            pytest.fail(f"{message}: .ci/run installs it, so CI must have it", pytrace=False)
        pytest.skip(message)
    return node, home
