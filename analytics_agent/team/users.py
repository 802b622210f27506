"""Personal tokens: sign-in for a small team without an identity provider.

``users add NAME`` makes a random token, shows it once and keeps only its SHA-256 in a file beside the
database (``sales.duckdb`` → ``sales.users.json``, mode 0600). A fast hash is enough here: the tokens are
32 random bytes, so there is nothing to guess that a slow password hash would protect. A presented token
is hashed and compared with every stored hash in constant time (``hmac.compare_digest``, no early exit).
The server reads the file again when it changes, so ``users remove`` takes a token away at once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from analytics_agent.errors import ConfigError, SignInError
from analytics_agent.team.principal import Principal

TOKEN_PREFIX = "aat_"
"""Marks our personal tokens (as ``ghp_`` marks GitHub's): a secret scanner can find a leaked one."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
_VERSION = 1


@dataclass(frozen=True)
class User:
    name: str
    groups: tuple[str, ...]
    token_sha256: str
    created: str


def users_file(db_path: Path) -> Path:
    """Where a database's personal tokens live: beside it, named after it."""
    return db_path.with_name(f"{db_path.stem}.users.json")


def check_name(value: str, what: str) -> str:
    if not _NAME.fullmatch(value):
        raise ConfigError(
            f"{what} {value!r} is not allowed: use 1-64 letters, digits, '.', '_', '@' or '-', "
            "starting with a letter or digit"
        )
    return value


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def read_users(path: Path) -> list[User]:
    """The users in ``path`` (none when it does not exist); a damaged file is a one-line error."""
    from analytics_agent import bounded_json
    from analytics_agent.small_files import read_small

    try:  # a regular file only, read bounded: a FIFO here hung `users` and the team server
        text = read_small(path)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ConfigError(f"cannot read the users file {path}: {exc.strerror or exc}") from None
    try:
        data = bounded_json.loads(text)
        return [User(u["name"], tuple(u["groups"]), u["token_sha256"], u["created"]) for u in data["users"]]
    except (ValueError, KeyError, TypeError):
        raise ConfigError(
            f"the users file {path} is damaged (not the JSON `users add` writes); restore it or remove it "
            "and add the users again"
        ) from None


def _write_users(path: Path, users: list[User]) -> None:
    """Atomically, readable by the owner only: the file is written under a new name with mode 0600 and
    moved into place, so a reader sees the old list or the new one, never half of one."""
    data = {
        "version": _VERSION,
        "users": [
            {"name": u.name, "groups": list(u.groups), "token_sha256": u.token_sha256, "created": u.created}
            for u in users
        ],
    }
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    handle = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.write("\n")
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


@contextmanager
def _changing(path: Path) -> Iterator[None]:
    """One change of the users file at a time, across processes: two ``users add`` run at once each read
    the list, and the second write dropped the first one's user. An exclusive ``flock`` on a lock file
    beside it (never on the file itself, which is replaced, not rewritten) serialises read-change-write."""
    import fcntl

    lock = path.with_name(f".{path.name}.lock")
    try:
        handle = os.open(lock, os.O_WRONLY | os.O_CREAT, 0o600)
    except OSError as exc:
        raise ConfigError(f"cannot change the users file {path}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing lets go of the lock


def add_user(path: Path, name: str, groups: tuple[str, ...] = ()) -> str:
    """Store a new user and return their token: the only time it exists outside the user's hands."""
    check_name(name, "user name")
    for group in groups:
        check_name(group, "group name")
    with _changing(path):
        return _add(path, name, groups)


def _add(path: Path, name: str, groups: tuple[str, ...]) -> str:
    users = read_users(path)
    if any(u.name == name for u in users):
        raise ConfigError(
            f"user {name!r} already exists; to give them a new token: users remove {name}, then users add"
        )
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    _write_users(path, [*users, User(name, tuple(dict.fromkeys(groups)), digest(token), created)])
    return token


def remove_user(path: Path, name: str) -> None:
    from analytics_agent.suggest import did_you_mean

    with _changing(path):
        users = read_users(path)
        kept = [u for u in users if u.name != name]
        if len(kept) == len(users):
            known = [u.name for u in users]
            raise ConfigError(f"no user {name!r} in {path}{did_you_mean(name, known)}")
        _write_users(path, kept)


def find_user(users: list[User], token: str) -> User | None:
    """The user whose token this is: every stored hash is compared, in constant time each."""
    presented = digest(token)
    found = None
    for user in users:
        if hmac.compare_digest(presented, user.token_sha256):
            found = user
    return found


class PersonalTokens:
    """Verifies personal tokens against the users file, read again whenever it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._users: list[User] = []

    def verify(self, token: str) -> Principal:
        user = find_user(self._current_users(), token)
        if user is None:
            raise SignInError("unknown or revoked personal token")
        return Principal(name=user.name, groups=user.groups)

    def _current_users(self) -> list[User]:
        try:
            stat = self.path.stat()
            seen: tuple[int, int, int] | None = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        except FileNotFoundError:
            seen = None
        with self._lock:
            if seen is None:
                self._users = []
            elif seen != self._seen:
                self._users = read_users(self.path)
            self._seen = seen
            return self._users
