"""Team server under load: many signed-in clients of several users at once (issue 35's benchmark).

A real ``analytics-agent mcp --http --auth users --access FILE --audit FILE`` process on a loopback port
serves the 12-table database of ``tests/normalized_db.py``. Five users in three groups see different
tables (and sales and ops users miss some columns of theirs); each of ``clients`` sessions of the official
MCP client (Streamable HTTP, a bearer token) loops over a mix of ``tools/list``, ``list_tables``,
``describe_table`` and ``aggregate`` on the user's own tables, with one call in ten a probe that names a
table the user may not see.

Reported: p50/p99 latency of every request, requests per second, errors; checked: no answer to a user
names a table or column that user may not see (``leaks``: every answer's text against the hidden names,
worked out here from the bench's own copy of the policy, not from the server's code), and the audit
trail holds exactly one line per tool call, under the right user and client. ``tools/list`` is not a
call and leaves no line (docs/audit.md). A call the server's rate limit turns away (5 calls a second per
user, 60 at once) is counted as refused, not as an error, and its client waits the time it was told.

``python -m tests.bench.bench_team --seconds 60`` (or ``python -m tests.bench --only team``);
``tests/mcp_server/test_team_load.py`` runs the same checks on 3 users x 4 clients x 10 calls.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.common import ROOT, Result

POLICY = """\
groups:
  sales:
    tables: [customers, orders, order_lines, products, categories]
    hidden_columns:
      customers: [email, phone, tax_id]
  finance:
    tables: [payments, orders, shippers, regions]
    run_sql: true
  ops:
    tables: [employees, offices, regions, inventory, suppliers]
    hidden_columns:
      employees: [salary, birth_date]
users:
  eve:
    tables: [products]
"""
GRANTS: dict[str, tuple[set[str], dict[str, set[str]]]] = {
    "sales": (
        {"customers", "orders", "order_lines", "products", "categories"},
        {"customers": {"email", "phone", "tax_id"}},
    ),
    "finance": ({"payments", "orders", "shippers", "regions"}, {}),
    "ops": (
        {"employees", "offices", "regions", "inventory", "suppliers"},
        {"employees": {"salary", "birth_date"}},
    ),
}
"""POLICY as the bench reads it: the ground truth every answer is checked against."""
USER_TABLES = {"eve": {"products"}}
USERS = (("ana", "sales"), ("cho", "finance"), ("eve", "ops"), ("ben", "sales"), ("dev", "finance"))
"""In this order, so that any first three cover the three groups."""
NOBODY = "zed"
"""Signed in, in no group: sees no table. Words in the tool text shown to zed are the tools' own
vocabulary (``description``…), not leaks, and are left out of the check (said in the notes)."""


WORD = r"[A-Za-z_][A-Za-z0-9_]*"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    unanswered: int = 0
    """Requests that raised instead of being answered (also in ``errors``)."""
    leaks: list[str] = field(default_factory=list)
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(user, client) -> tool calls sent: each must leave one audit line."""


@dataclass(frozen=True)
class Seat:
    """One client session: whose token it sends and what that user may and may not see."""

    user: str
    client: str
    token: str
    columns: dict[str, list[str]]
    """The visible tables and their visible columns."""
    groupable: dict[str, list[str]]
    hidden_tables: tuple[str, ...]
    hidden: frozenset[str]
    """Names this user must never read: hidden ones, less those that are also words of data they see."""
    unchecked: frozenset[str] = frozenset()
    """Hidden names that are also words in the values of a column they see (``phone``, a channel), so an
    answer holding one says nothing: not checked, and listed in the report."""


def visible_columns(user: str, group: str, all_columns: dict[str, list[str]]) -> dict[str, list[str]]:
    tables, hidden = GRANTS.get(group, (set(), {}))
    tables = tables | USER_TABLES.get(user, set())
    return {
        t: [c for c in cols if c not in hidden.get(t, set())]
        for t, cols in all_columns.items()
        if t in tables
    }


def hidden_names(visible: dict[str, list[str]], all_columns: dict[str, list[str]]) -> set[str]:
    """Every table and column name of the database this user must never read in an answer."""
    shown = set(visible) | {c for cols in visible.values() for c in cols}
    every = set(all_columns) | {c for cols in all_columns.values() for c in cols}
    return every - shown


def leaked(text: str, hidden: frozenset[str], allowed: str = "") -> list[str]:
    words = set(re.findall(WORD, text))
    return sorted(n for n in hidden & words if n != allowed)


def describe_database(db: Path) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, set[str]]]:
    """Each table's columns, its text columns of at most 20 values (fit to group by), and the words in
    each ``table.column``'s text values."""
    import duckdb

    from tests.normalized_db import TABLES

    columns: dict[str, list[str]] = {}
    groupable: dict[str, list[str]] = {}
    words: dict[str, set[str]] = {}
    with duckdb.connect(str(db), read_only=True) as conn:
        for table in TABLES:  # the database's own tables (the profiles' tables are not the users')
            rows = conn.execute(f'DESCRIBE "{table}"').fetchall()
            columns[table] = [r[0] for r in rows]
            groupable[table] = [
                name
                for name, kind, *_ in rows
                if kind == "VARCHAR"
                and conn.execute(f'SELECT count(DISTINCT "{name}") FROM "{table}"').fetchone()[0] <= 20
            ]
            for name, *_ in rows:
                values = conn.execute(f'SELECT DISTINCT "{name}"::VARCHAR FROM "{table}"').fetchall()
                words[f"{table}.{name}"] = set(re.findall(WORD, " ".join(str(v[0]) for v in values)))
    return columns, groupable, words


def _cli(*args: str, db: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's code, wherever the venv points
    done = subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{args} failed: {done.stderr[-500:]}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def team_server(db: Path, access: Path, audit: Path, log: Path) -> Iterator[str]:
    """The server in its own process until the block ends, then stopped with SIGTERM (it finishes the
    calls running and writes their audit lines before it exits)."""
    import httpx

    port = free_port()
    argv = [sys.executable, "-m", "analytics_agent", "--db", str(db), "--allow-sql", "mcp", "--http"]
    argv += ["--port", str(port), "--auth", "users", "--access", str(access), "--audit", str(audit)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("w") as err:
        server = subprocess.Popen(argv, stdout=err, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60  # a safety net for a server that never starts
            while True:
                if server.poll() is not None:
                    raise RuntimeError(f"the server stopped: {log.read_text()[-800:]}")
                try:
                    if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not get ready: {log.read_text()[-800:]}")
                time.sleep(0.1)
            yield f"{url}/mcp"
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def seats(folder: Path, users: int, clients: int) -> tuple[Path, Path, list[Seat], str, frozenset[str]]:
    """The database, the policy, one Seat per client, the nobody user's token and every name."""
    from tests.normalized_db import build_normalized_db

    db = build_normalized_db(folder / "team.duckdb")
    access = folder / "access.yaml"
    access.write_text(POLICY)
    all_columns, groupable, words = describe_database(db)
    tokens = {}
    for name, group in (*USERS[:users], (NOBODY, "")):
        extra = ("--group", group) if group else ()
        tokens[name] = _cli("users", "add", name, *extra, db=db).strip()
    out = []
    for i in range(clients):
        user, group = USERS[i % users]
        visible = visible_columns(user, group, all_columns)
        hidden = hidden_names(visible, all_columns)
        data = set().union(*(words[f"{t}.{c}"] for t, cols in visible.items() for c in cols))
        out.append(
            Seat(
                user=user,
                client=f"bench-{i}",
                token=tokens[user],
                columns=visible,
                groupable={t: [c for c in groupable[t] if c in visible[t]] for t in visible},
                hidden_tables=tuple(sorted(set(all_columns) - set(visible))),
                hidden=frozenset(hidden - data),
                unchecked=frozenset(hidden & data),
            )
        )
    every = frozenset(hidden_names({}, all_columns))
    return db, access, out, tokens[NOBODY], every


def session(url: str, seat: Seat) -> Any:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import Implementation

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {seat.token}"}, timeout=120)
    me = Implementation(name=seat.client, version="1")
    return Client(streamable_http_client(url, http_client=http), client_info=me)


def tool_text(tools: Any) -> str:
    return json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools.tools])


async def vocabulary(url: str, token: str, every: frozenset[str]) -> frozenset[str]:
    """The database's names that the tool list of a user who sees no table still contains."""
    nobody = Seat(NOBODY, "bench-nobody", token, {}, {}, (), every)
    async with session(url, nobody) as client:
        text = tool_text(await client.list_tools())
    return frozenset(leaked(text, every))


def next_call(seat: Seat, rng: random.Random) -> tuple[str, dict[str, Any], str]:
    """(tool, arguments, the one hidden name the call itself names: a probe's)."""
    roll = rng.random()
    if roll < 0.1 and seat.hidden_tables:
        return "describe_table", {"table": rng.choice(seat.hidden_tables)}, "probe"
    table = rng.choice(sorted(seat.columns))
    if roll < 0.3:
        return "list_tables", {}, ""
    if roll < 0.55:
        return "describe_table", {"table": table}, ""
    by = seat.groupable.get(table) or []
    return "aggregate", {"table": table, **({"group_by": [rng.choice(by)]} if by else {})}, ""


async def one_client(url: str, seat: Seat, stats: Stats, *, until: float, calls: int, seed: int) -> None:
    """Loop until ``until`` (monotonic) or for ``calls`` requests, recording each one in ``stats``."""
    rng = random.Random(seed)
    done = 0
    async with session(url, seat) as client:
        while (calls and done < calls) or (not calls and time.monotonic() < until):
            done += 1
            if rng.random() < 0.15:
                await _list_tools(client, seat, stats)
            else:
                await _call(client, seat, stats, *next_call(seat, rng))


async def _list_tools(client: Any, seat: Seat, stats: Stats) -> None:
    started = time.perf_counter()
    try:
        text = tool_text(await client.list_tools())
    except Exception as exc:  # a failed request is counted, whatever it raised
        stats.unanswered += 1
        stats.errors.append(f"{seat.client} tools/list: {type(exc).__name__}: {exc}"[:300])
        return
    stats.latencies.append(time.perf_counter() - started)
    stats.kinds["tools/list"] += 1
    stats.leaks += [f"{seat.user} tools/list: {n}" for n in leaked(text, seat.hidden)]


async def _call(
    client: Any, seat: Seat, stats: Stats, tool: str, arguments: dict[str, Any], probe: str
) -> None:
    """One tool call: a probe must be an error naming nothing hidden but the table it probed; any other
    call must be answered; a rate-limit refusal waits the time it was told."""
    import anyio

    stats.calls[(seat.user, seat.client)] += 1
    started = time.perf_counter()
    try:
        answer = await client.call_tool(tool, arguments)
    except Exception as exc:  # a failed request is counted, whatever it raised
        stats.unanswered += 1
        stats.errors.append(f"{seat.client} {tool}: {type(exc).__name__}: {exc}"[:300])
        return
    stats.latencies.append(time.perf_counter() - started)
    text = " ".join(getattr(c, "text", "") for c in answer.content)
    wait = re.search(r"rate limit: .*call again in ([0-9.]+) s", text)
    if answer.is_error and wait:
        stats.refused += 1
        await anyio.sleep(float(wait.group(1)))
        return
    stats.kinds[f"{tool} probe" if probe else tool] += 1
    allowed = arguments["table"] if probe else ""
    stats.leaks += [f"{seat.user} {tool}{arguments}: {n}" for n in leaked(text, seat.hidden, allowed)]
    if bool(answer.is_error) != bool(probe):
        stats.errors.append(f"{seat.client} {tool} {arguments}: {text[:200]}")


def audit_problems(audit: Path, stats: Stats) -> tuple[int, list[str]]:
    """The trail's tool-call lines, and each way it differs from one line per call under the right user."""
    lines = []
    for path in sorted(audit.parent.glob(audit.name + "*"), reverse=True):  # .1 (older) before the file
        lines += [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    calls = [x for x in lines if x.get("kind") == "tools/call"]
    found = Counter((x["user"], x["client"]) for x in calls)
    problems = [
        f"{who}: {found.get(who, 0)} audit lines for {sent} calls"
        for who, sent in stats.calls.items()
        if found.get(who, 0) != sent
    ]
    problems += [
        f"{who}: {n} audit lines of no call sent" for who, n in found.items() if who not in stats.calls
    ]
    return len(calls), problems


def percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if q < 100 else max(values)


async def drive(url: str, all_seats: list[Seat], *, seconds: float, calls: int) -> tuple[Stats, float]:
    import anyio

    stats = Stats()
    started = time.monotonic()
    until = started + seconds
    async with anyio.create_task_group() as tasks:
        for i, seat in enumerate(all_seats):
            tasks.start_soon(lambda s=seat, n=i: one_client(url, s, stats, until=until, calls=calls, seed=n))
    return stats, time.monotonic() - started


@dataclass
class Measured:
    stats: Stats
    seconds: float
    audit_lines: int
    audit_problems: list[str]
    seats: list[Seat]
    vocabulary: frozenset[str]
    """Names left out of every check: the tool text of a user who sees no table holds them."""


def measure(folder: Path, *, users: int, clients: int, seconds: float = 0.0, calls: int = 0) -> Measured:
    """Build the team in ``folder``, serve it, drive ``clients`` sessions, stop the server and read its trail."""
    import anyio

    db, access, all_seats, nobody_token, every = seats(folder, users, clients)
    audit, log = folder / "team.audit.jsonl", folder / "server.log"
    with team_server(db, access, audit, log) as url:
        skip = anyio.run(vocabulary, url, nobody_token, every)
        all_seats = [_without(s, skip) for s in all_seats]
        stats, took = anyio.run(lambda: drive(url, all_seats, seconds=seconds, calls=calls))
    lines, problems = audit_problems(audit, stats)
    return Measured(stats, took, lines, problems, all_seats, skip)


def run(*, seconds: float = 60.0, users: int = 5, clients: int = 50, calls: int = 0) -> Result:
    """``calls`` > 0: each client makes that many requests instead of looping for ``seconds``."""
    result = Result(
        "team server: signed-in clients at once",
        ["users x clients", "seconds", "requests", "rps", "p50_ms", "p99_ms", "errors", "refused", "leaks",
         "audit lines / tool calls"],
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        m = measure(Path(tmp), users=users, clients=clients, seconds=seconds, calls=calls)
    stats = m.stats
    ms = [x * 1000 for x in stats.latencies]
    sent = sum(stats.calls.values())
    total = len(stats.latencies) + stats.unanswered
    result.rows.append(
        [f"{users} x {clients}", f"{m.seconds:.1f}", total, f"{total / m.seconds:.1f}",
         f"{percentile(ms, 50):.1f}", f"{percentile(ms, 99):.1f}", len(stats.errors), stats.refused,
         len(stats.leaks), f"{m.audit_lines} / {sent}"]
    )  # fmt: skip
    result.summary.update(
        {"errors": stats.errors[:20], "leaks": stats.leaks[:20], "audit problems": m.audit_problems[:20]}
    )
    result.summary["by kind"] = dict(stats.kinds)
    result.notes.append(
        f"not checked (the tool text of a user who sees no table names them): {sorted(m.vocabulary)}"
    )
    for seat in {s.user: s for s in m.seats}.values():
        result.notes.append(f"{seat.user}: {len(seat.hidden)} hidden names checked; also words of data "
                            f"they see, so not checked: {sorted(seat.unchecked)}")  # fmt: skip
    result.notes.append(f"load average at the end: {os.getloadavg()}")
    return result


def _without(seat: Seat, skip: frozenset[str]) -> Seat:
    from dataclasses import replace

    return replace(seat, hidden=seat.hidden - skip)


def main(argv: list[str] | None = None) -> int:
    from tests.bench.common import print_table

    parser = argparse.ArgumentParser(
        prog="python -m tests.bench.bench_team", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=5, choices=range(1, len(USERS) + 1))
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args(argv)
    result = run(seconds=args.seconds, users=args.users, clients=args.clients)
    print_table(result)
    print(json.dumps(result.summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
