"""Personal tokens: ``users add | list | remove`` on a real file beside a real database path, and the
verifier a running server uses, which sees a removal at once."""

from __future__ import annotations

import hashlib
import json
import stat
import sys
from dataclasses import dataclass

import pytest

from analytics_agent.cli.app import main
from analytics_agent.errors import ConfigError, SignInError
from analytics_agent.team import users
from analytics_agent.team.principal import Principal
from analytics_agent.team.users import PersonalTokens, add_user, users_file


@dataclass
class Ran:
    exit_code: int
    stdout: str
    output: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """The real entry point (one-line errors and all), in this process."""

    def run(db, *args) -> Ran:
        monkeypatch.setattr(sys, "argv", ["analytics-agent", "--db", str(db), "users", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return Ran(code, out, out + err)

    return run


def test_add_prints_the_token_once_and_stores_only_its_hash_in_a_private_file(tmp_path, cli):
    db = tmp_path / "team.duckdb"
    added = cli(db, "add", "alice", "--group", "sales", "--group", "finance")
    assert added.exit_code == 0, added.output
    token = added.stdout.strip()
    assert token.startswith("aat_") and len(token) > 40
    path = tmp_path / "team.users.json"
    assert users_file(db) == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert token not in text and token[4:] not in text
    [stored] = json.loads(text)["users"]
    assert stored["token_sha256"] == hashlib.sha256(token.encode()).hexdigest()
    assert stored["groups"] == ["sales", "finance"]
    listed = cli(db, "list")
    assert "alice" in listed.stdout and "sales, finance" in listed.stdout and token not in listed.stdout
    again = cli(db, "add", "alice")
    assert again.exit_code != 0 and "user 'alice' already exists" in again.output


def test_a_removed_users_token_stops_working_on_a_running_verifier(tmp_path, cli):
    db = tmp_path / "team.duckdb"
    alice = cli(db, "add", "alice", "--group", "sales").stdout.strip()
    bob = cli(db, "add", "bob").stdout.strip()
    verifier = PersonalTokens(users_file(db))  # made once, as the server makes it at start
    assert verifier.verify(alice) == Principal(name="alice", groups=("sales",))
    assert verifier.verify(bob).name == "bob"
    removed = cli(db, "remove", "bob")
    assert removed.exit_code == 0, removed.output
    with pytest.raises(SignInError, match="unknown or revoked personal token"):
        verifier.verify(bob)
    assert verifier.verify(alice).name == "alice"
    mistyped = cli(db, "remove", "alise")
    assert (
        mistyped.exit_code != 0
        and "no user 'alise'" in mistyped.output
        and "did you mean 'alice'" in mistyped.output
    )


def test_every_stored_hash_is_compared_in_constant_time(tmp_path, monkeypatch):
    path = tmp_path / "team.users.json"
    first = add_user(path, "alice")
    add_user(path, "bob")
    add_user(path, "carol")
    compared = []
    real = users.hmac.compare_digest
    monkeypatch.setattr(users.hmac, "compare_digest", lambda a, b: compared.append(b) or real(a, b))
    assert PersonalTokens(path).verify(first).name == "alice"
    assert len(compared) == 3  # no early exit on the first user's match


def test_bad_names_and_a_damaged_file_are_one_line_errors(tmp_path, cli):
    db = tmp_path / "team.duckdb"
    bad = cli(db, "add", "al ice")
    assert bad.exit_code != 0 and "user name 'al ice' is not allowed" in bad.output
    path = users_file(db)
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="is damaged"):
        users.read_users(path)
    assert cli(db, "list").exit_code != 0


_ADD_MANY = """
import sys
from pathlib import Path
from analytics_agent.team.users import add_user
for n in range(int(sys.argv[3])):
    add_user(Path(sys.argv[1]), f"{sys.argv[2]}{n}")
"""


def test_users_added_at_once_by_several_processes_are_all_kept(tmp_path):
    """Each `users add` reads the list, adds one and writes it back: without a lock around the three, two
    processes at once lost each other's users (the last write won). Plain child processes of the installed
    package (a spawned multiprocessing child must import this test module, which an installed run cannot)."""
    import subprocess

    path = users_file(tmp_path / "team.duckdb")
    workers = [
        subprocess.Popen([sys.executable, "-c", _ADD_MANY, str(path), f"p{w}u", "6"], stderr=subprocess.PIPE)
        for w in range(6)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    names = {u.name for u in users.read_users(path)}
    assert names == {f"p{w}u{n}" for w in range(6) for n in range(6)}
