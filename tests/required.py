"""Programs and services some tests need from the machine (rsvg-convert, PostgreSQL).

On a developer's machine a missing one skips the test, saying which Debian package brings it. Under CI
(``CI=true``) it fails the test instead: .ci/run installs each of them, so a missing one there is a broken
CI script, and a skip would hide it (the chart-to-PNG tests skipped on every CI run that way).
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

# The Debian packages .ci/run installs for these tests (tests/docs/test_ci_installs.py checks it does).
RSVG = "librsvg2-bin"
POSTGRESQL = "postgresql"


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
