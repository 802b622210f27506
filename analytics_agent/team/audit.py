"""The audit trail: one JSON line per request, appended to a private file rotated by size.

A line holds when (``ts``, UTC), who (``user``, ``groups``, ``client``), what (``tool``, ``arguments``,
``sql``), how much (``rows``, ``bytes`` of the answer), how long (``duration_ms``) and how it ended
(``outcome``: ``ok``, ``error`` — the tool answered with an error the model reads — or ``refused`` —
the server turned the call away: busy, over the rate limit, shutting down — with its ``reason``).

What goes in is scrubbed first (``scrub``: no known secret, no password in a URL, no bearer token, every
text cut at 2,000 characters), then written as ASCII JSON: newlines, ANSI escapes and every other
control character (and everything beyond ASCII) are ``\\u`` escapes inside their string, so one request
is always one line and a reader's terminal never runs what a caller sent. A line longer than
``MAX_LINE_BYTES`` keeps its small fields and says what it dropped.

The file is opened append-only (``O_APPEND``) and 0600; each line is one locked write (a thread lock,
and ``flock`` on a lock file beside it for other processes), so concurrent writers never tear or
interleave a line. Before a line that would take the file past ``max_bytes`` the file becomes
``<name>.1`` (older ones ``.2`` … up to ``backups``, the oldest dropped) and a new one starts.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from analytics_agent.paths import open_private_log
from analytics_agent.team.principal import Principal
from analytics_agent.team.scrub import clip, known_secrets, scrub_text, scrubbed

MAX_LINE_BYTES = 16_384
DEFAULT_MAX_BYTES = 50 * 1024 * 1024
DEFAULT_BACKUPS = 5
OK, ERROR, REFUSED = "ok", "error", "refused"


@dataclass(frozen=True)
class Call:
    """What the front door knows about one request once it has ended."""

    tool: str
    arguments: Any
    outcome: str
    duration_ms: float
    sql: str = ""
    rows: int = 0
    bytes: int = 0
    reason: str = ""
    """For an error or a refusal: its first line, as the caller was told."""
    kind: str = "tools/call"


def record(
    call: Call, principal: Principal, *, now: dt.datetime, secrets: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The JSON-able line for ``call`` made by ``principal`` (pure): scrubbed and bounded."""
    line: dict[str, Any] = {
        "ts": now.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "user": clip(principal.name, 200),
        "groups": [clip(g, 200) for g in principal.groups[:20]],
        "client": clip(principal.client, 200),
        "kind": call.kind,
        "tool": clip(call.tool, 200),
        "arguments": scrubbed(call.arguments, secrets),
        "sql": scrub_text(call.sql, secrets),
        "rows": call.rows,
        "bytes": call.bytes,
        "duration_ms": round(call.duration_ms, 1),
        "outcome": call.outcome,
    }
    if call.reason:
        line["reason"] = scrub_text(
            call.reason.strip().splitlines()[0] if call.reason.strip() else "", secrets
        )
    return line


def encode(line: dict[str, Any]) -> bytes:
    """One line of printable ASCII ending in a newline, at most ``MAX_LINE_BYTES`` long (pure)."""
    text = json.dumps(line, ensure_ascii=True, separators=(",", ":"), default=str)
    if len(text) >= MAX_LINE_BYTES:
        dropped = {k: v for k, v in line.items() if k not in ("arguments", "sql", "reason")}
        dropped["cut"] = f"arguments, sql and reason dropped: the line was {len(text):,} bytes"
        text = json.dumps(dropped, ensure_ascii=True, separators=(",", ":"), default=str)
        if len(text) >= MAX_LINE_BYTES:  # only a principal's absurd names could get here; keep the facts
            text = json.dumps({k: line[k] for k in ("ts", "kind", "outcome", "duration_ms")})
    return text.encode("ascii") + b"\n"


class AuditLog:
    """Appends audit lines to ``path``; safe to share between threads and processes.

    Args:
        path: the JSON Lines file (created 0600, its folder 0700).
        max_bytes: rotate before a line would take the file past this size.
        backups: rotated files kept (``path.1`` newest … ``path.N``).
        secrets: values never to write (read once); the environment's secret-named variables by default.
        clock: the time each line is stamped with.
        warn: told once when the file cannot be written; calls go on without the trail.
    """

    def __init__(
        self,
        path: Path,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        backups: int = DEFAULT_BACKUPS,
        secrets: tuple[str, ...] | None = None,
        clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.backups = max(1, backups)
        self._secrets = known_secrets() if secrets is None else secrets
        self._clock = clock
        self._warn = warn or (lambda message: None)
        self._lock = threading.Lock()
        self._file: IO[str] | None = None
        self._failed = False
        self._open()

    def write(self, call: Call, principal: Principal) -> None:
        """Append the line for ``call``; never raises (a full disk is warned about once)."""
        data = encode(record(call, principal, now=self._clock(), secrets=self._secrets))
        with self._lock, self._locked_across_processes():
            try:
                self._follow_rotation()
                if self._file is None:
                    return
                if self._size() + len(data) > self.max_bytes and self._size() > 0:
                    self._rotate()
                    if self._file is None:
                        return
                self._file.write(data.decode("ascii"))
                self._file.flush()
            except OSError as exc:
                self._fail(exc)

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None

    def _open(self) -> None:
        try:
            self._file = open_private_log(self.path)
        except OSError as exc:
            self._fail(exc)

    def _size(self) -> int:
        assert self._file is not None
        return os.fstat(self._file.fileno()).st_size

    def _follow_rotation(self) -> None:
        """Another process rotated the file: write to the new one, not to the renamed ``.1``."""
        if self._file is None:
            return
        try:
            on_disk = os.stat(self.path).st_ino
        except FileNotFoundError:
            on_disk = -1
        if on_disk != os.fstat(self._file.fileno()).st_ino:
            self._file.close()
            self._open()

    def _rotate(self) -> None:
        assert self._file is not None
        self._file.close()
        for n in range(self.backups - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{n}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{n + 1}"))
        os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))
        self._open()

    @contextlib.contextmanager
    def _locked_across_processes(self) -> Iterator[None]:
        try:
            import fcntl
        except ImportError:  # Windows: the thread lock alone (one server process per file)
            yield
            return
        try:
            fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _fail(self, exc: OSError) -> None:
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()
        if not self._failed:
            self._failed = True
            self._warn(
                f"cannot write the audit trail {self.path}: {exc.strerror or exc}; going on without it"
            )
