"""CI runs every test it can: .ci/run installs each program a test needs, a missing one fails the test
under CI=true instead of skipping it, and pytest prints the reason for every skip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tests.required as required

ROOT = Path(__file__).resolve().parents[2]
CI_RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_ci_installs_every_debian_package_a_test_needs() -> None:
    packages = {required.RSVG, required.POSTGRESQL}
    installed = set(re.findall(r"^\s*apt_install ([\w.+-]+)", CI_RUN, re.M))
    assert packages <= installed, f".ci/run does not install {sorted(packages - installed)}"


def test_ci_installs_node_and_the_openid_provider_the_sign_in_tests_run() -> None:
    assert re.search(rf"^\s*apt_install {required.NODE} npm\b", CI_RUN, re.M)
    assert re.search(rf"npm install --prefix \"\$oidc_home\" .*{re.escape(required.OIDC_PROVIDER)}", CI_RUN)
    assert 'oidc_home="${XDG_CACHE_HOME:-$HOME/.cache}/analytics-agent/oidc-provider"' in CI_RUN
    assert str(required.oidc_provider_home()).endswith("analytics-agent/oidc-provider")


def test_ci_prints_why_each_test_was_skipped() -> None:
    assert re.search(r'^export PYTEST_ADDOPTS="[^"]*-rs\b', CI_RUN, re.M)


def test_a_missing_program_skips_on_a_developers_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(
        pytest.skip.Exception, match=r"rsvg-convert not found \(Debian package librsvg2-bin\)"
    ):
        required.program("rsvg-convert", required.RSVG)


def test_a_missing_program_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(pytest.fail.Exception, match=r"rsvg-convert not found .*\.ci/run installs it"):
        required.program("rsvg-convert", required.RSVG)


def test_a_program_that_is_there_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = tmp_path / "rsvg-convert"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(0o755)
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert required.program("rsvg-convert", required.RSVG) == str(tool)


def test_a_missing_openid_provider_skips_here_and_fails_under_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # an empty cache: .ci/run never ran here
    monkeypatch.delenv("CI", raising=False)
    if required.shutil.which("node") is None:
        pytest.skip("node not found (Debian package nodejs)")
    with pytest.raises(
        pytest.skip.Exception, match=r"oidc-provider@9\.13\.3 not installed in .*npm install --prefix"
    ):
        required.oidc_provider()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(
        pytest.fail.Exception, match=r"oidc-provider@9\.13\.3 not installed .*\.ci/run installs it"
    ):
        required.oidc_provider()
