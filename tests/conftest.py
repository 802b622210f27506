"""Shared fixtures: an isolated user environment and a real seeded DuckDB file per test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from analytics_agent.db.connect import ensure_database
from analytics_agent.workspace.workspace import Workspace

# On CI the property tests draw the same examples every run: a submission is judged by the examples its
# developers saw pass; exploring new ones is what local runs are for (they keep drawing at random).
# Hypothesis's deadline (200 ms an example) and its too_slow health check are wall-clock assertions: on a
# busy machine they fail tests whose code is right. Every profile turns them off; speed lives in tests/bench.
_NO_CLOCK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("steady", **_NO_CLOCK)
settings.register_profile("ci", derandomize=True, **_NO_CLOCK)
settings.load_profile("ci" if os.environ.get("CI") else "steady")

_PROVIDER_ENV = (
    "ANALYTICS_AGENT_DB",
    "ANALYTICS_AGENT_MODEL",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "LLM_BASE_URL",
    "LLM_API_KEY",
    "LLM_MODEL",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
)


@pytest.fixture(autouse=True)
def isolated_user_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty data/config dirs and no provider settings from the developer's shell."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(home / "aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(home / "aws-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for name in _PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seeded once per session; tests get copies, so none can disturb another."""
    path = tmp_path_factory.mktemp("template") / "sample.duckdb"
    ensure_database(path, sample_data=True)
    return path


@pytest.fixture
def sample_db(seeded_template: Path, tmp_path: Path) -> Path:
    """A real DuckDB file in tmp_path holding the bundled sample data."""
    path = tmp_path / "sample.duckdb"
    shutil.copyfile(seeded_template, path)
    return path


@pytest.fixture
def workspace(sample_db: Path):
    """The sample database opened as the tools see it: sandboxed, read-only, with its registry."""
    ws = Workspace.open(sample_db)
    yield ws
    ws.close()
