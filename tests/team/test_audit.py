"""The audit trail's writer: one escaped, scrubbed, bounded JSON line per request, whatever the caller sent,
and no torn or interleaved line while many threads and processes write and rotate the same file."""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from analytics_agent.team.audit import ERROR, MAX_LINE_BYTES, OK, AuditLog, Call
from analytics_agent.team.principal import Principal

ALICE = Principal("alice", groups=("sales",), client="claude-code")
NOON = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)
ROOT = Path(__file__).resolve().parents[2]


def _log(path: Path, **options) -> AuditLog:
    return AuditLog(path, secrets=options.pop("secrets", ()), clock=lambda: NOON, **options)


def _lines(path: Path) -> list[bytes]:
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return data.split(b"\n")[:-1]


HOSTILE = [
    'Pune\n{"user":"root","outcome":"ok"}',
    "\r\n\r\nforged line",
    "\x1b[2J\x1b[31mred\x1b]0;title\x07",
    "nul\x00bell\x07backspace\x08del\x7f",
    "c1\x85\x9b31m and \u2028 line separator \u2029",
    '"}, "user": "admin", "x": {"',
    "lone surrogate \udc80 and emoji \U0001f600",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_argument_stays_inside_one_escaped_line_and_reads_back_unchanged(tmp_path, value):
    path = tmp_path / "audit.jsonl"
    log = _log(path)
    log.write(Call("sales_summary", {"city": value, value: 1}, OK, 3.0), ALICE)
    log.write(Call("list_tables", {}, OK, 1.0), ALICE)
    lines = _lines(path)
    assert len(lines) == 2
    assert all(0x20 <= byte <= 0x7E for byte in lines[0])  # no control byte, nothing beyond ASCII
    first = json.loads(lines[0])
    assert first["arguments"] == {"city": value, value: 1}
    assert (first["user"], first["tool"], first["outcome"]) == ("alice", "sales_summary", "ok")


def test_huge_and_deeply_nested_arguments_make_one_line_of_bounded_size(tmp_path):
    path = tmp_path / "audit.jsonl"
    log = _log(path)
    deep: dict = {}
    node = deep
    for _ in range(2_000):
        node["a"] = {}
        node = node["a"]
    log.write(Call("aggregate", {"expr": "x" * 10_000_000}, OK, 1.0, sql="SELECT " + "1," * 500_000), ALICE)
    log.write(Call("aggregate", deep, OK, 1.0), ALICE)
    log.write(Call("aggregate", {f"k{i}": "v" * 1_900 for i in range(500)}, ERROR, 1.0), ALICE)
    lines = _lines(path)
    assert len(lines) == 3
    assert all(len(line) < MAX_LINE_BYTES for line in lines)
    huge, nested, wide = (json.loads(line) for line in lines)
    assert huge["arguments"]["expr"].endswith("[cut: 10,000,000 characters in all]")
    assert "nested deeper than" in json.dumps(nested["arguments"])
    assert "arguments" not in wide and wide["cut"].startswith("arguments, sql and reason dropped")
    assert wide["outcome"] == "error" and wide["user"] == "alice"


def test_secrets_in_arguments_sql_and_reasons_never_reach_the_file(tmp_path):
    env_key = "sk-env-key-0123456789abcdef"
    path = tmp_path / "audit.jsonl"
    log = _log(path, secrets=(env_key,))
    dsn_password, bearer, api_key, jwt = (
        "hunter2-pg-pass",
        "tok_9f8e7d6c5b4a",
        "sk-proj-AbCdEf0123456789xyz",
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"),
    )
    arguments = {
        "question": f"use postgresql://bob:{dsn_password}@db.internal:5432/sales please",
        "header": f"Authorization: Bearer {bearer}",
        "note": f"my key is {api_key} and {env_key}",
        "api_key": "plain-value-in-a-secret-field",
        "nested": [{"password": "p@ss-in-a-list"}, f"host=db password={dsn_password} user=bob"],
        "jwt": jwt,
        "where": f"note = 'password={dsn_password}x' AND city = \"token: {bearer}y\"",
    }
    sql = f"SELECT * FROM read_csv('https://x.example/a.csv?token=qwertyuiop123') -- {api_key}"
    log.write(
        Call("run_sql", arguments, ERROR, 5.0, sql=sql, reason=f"refused: bearer {bearer}\nsecond line"),
        ALICE,
    )
    data = path.read_bytes().decode()
    for secret in (dsn_password, bearer, api_key, env_key, "plain-value-in-a-secret-field", "p@ss-in-a-list",
                   "qwertyuiop123", jwt):  # fmt: skip
        assert secret not in data
    line = json.loads(data)
    assert "postgresql://bob:***@db.internal:5432/sales" in line["arguments"]["question"]  # the rest stays
    assert line["reason"] == "refused: bearer ***"  # its first line only


def test_the_secrets_of_the_environment_are_masked_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("PGPASSWORD", "pg-environment-secret")
    monkeypatch.setenv("HOME_CITY", "Pune-not-a-secret")
    path = tmp_path / "audit.jsonl"
    AuditLog(path).write(Call("q", {"text": "pg-environment-secret and Pune-not-a-secret"}, OK, 1.0), ALICE)
    data = path.read_text()
    assert "pg-environment-secret" not in data and "Pune-not-a-secret" in data


def test_the_file_is_private_and_only_appended_to(tmp_path):
    path = tmp_path / "trail" / "audit.jsonl"
    path.parent.mkdir()
    path.write_text('{"earlier":"line"}\n')
    os.chmod(path, 0o644)
    log = _log(path)
    log.write(Call("list_tables", {}, OK, 1.0), ALICE)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _lines(path)[0] == b'{"earlier":"line"}'
    assert os.fstat(log._file.fileno()) and os.O_APPEND & _open_flags(log)


def _open_flags(log: AuditLog) -> int:
    import fcntl

    return fcntl.fcntl(log._file.fileno(), fcntl.F_GETFL)


def test_a_symlink_in_place_of_the_trail_is_refused_and_calls_go_on(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("")
    path = tmp_path / "audit.jsonl"
    path.symlink_to(target)
    warnings: list[str] = []
    log = _log(path, warn=warnings.append)
    log.write(Call("list_tables", {}, OK, 1.0), ALICE)
    assert target.read_text() == ""
    assert len(warnings) == 1 and "cannot write the audit trail" in warnings[0]


def _check_rotated(path: Path, max_bytes: int, expected: set[str]) -> None:
    seen: list[str] = []
    files = [path, *sorted(path.parent.glob(path.name + ".[0-9]*"))]
    for file in files:
        assert file.stat().st_size <= max_bytes
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
        for line in _lines(file):
            seen.append(json.loads(line)["arguments"]["id"])  # a torn line would not parse
    assert len(seen) == len(expected) and set(seen) == expected
    assert len(files) > 3  # it did rotate, many times


def test_rotation_under_many_threads_loses_tears_and_interleaves_no_line(tmp_path):
    path = tmp_path / "audit.jsonl"
    max_bytes = 8_000
    log = _log(path, max_bytes=max_bytes, backups=1_000)
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        start.wait()
        for i in range(150):
            log.write(Call("aggregate", {"id": f"{n}-{i}", "pad": "x" * (i % 97)}, OK, 1.0), ALICE)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _check_rotated(path, max_bytes, {f"{n}-{i}" for n in range(8) for i in range(150)})


WRITER = """
import sys, time
from pathlib import Path
from analytics_agent.team.audit import AuditLog, Call
from analytics_agent.team.principal import Principal
log = AuditLog(Path(sys.argv[1]), max_bytes=6000, backups=1000, secrets=())
while not Path(sys.argv[3]).exists():  # all start writing together
    time.sleep(0.001)
for i in range(600):
    log.write(Call("aggregate", {"id": f"{sys.argv[2]}-{i}", "pad": "y" * (i % 61)}, "ok", 1.0), Principal("p"))
"""


def test_rotation_by_several_processes_at_once_keeps_every_line_whole(tmp_path):
    path = tmp_path / "audit.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(n), str(go)], env=env)
        for n in range(3)
    ]
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    _check_rotated(path, 6000, {f"{n}-{i}" for n in range(3) for i in range(600)})
