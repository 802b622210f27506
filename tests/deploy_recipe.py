"""The deployment recipe as shipped (deploy/Dockerfile, deploy/analytics-agent.service), read the way Docker
and systemd read it, and turned into the commands the tests run: the tests start the image's own entry
command and make its database with the image's own line, so the recipe cannot drift from what is tested."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
UNIT = ROOT / "deploy" / "analytics-agent.service"


def instructions(text: str | None = None) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments): comments dropped, continued lines joined."""
    text = DOCKERFILE.read_text(encoding="utf-8") if text is None else text
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, arguments = line.strip().partition(" ")
            found.append((keyword.upper(), arguments.strip()))
    return found


def entry_command() -> list[str]:
    """The image's ENTRYPOINT, in the exec (JSON) form Docker runs without a shell."""
    [arguments] = [a for k, a in instructions() if k == "ENTRYPOINT"]
    return json.loads(arguments)


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, arguments in instructions():
        if keyword == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(arguments))
    return env


def database_maker() -> str:
    """The Python code of the one RUN line that makes the server's (empty) database."""
    [code] = [
        shlex.split(a)[2] for k, a in instructions() if k == "RUN" and shlex.split(a)[:2] == ["python", "-c"]
    ]
    return code


def unit_values(key: str) -> list[str]:
    """Every value of ``key`` in the unit file (systemd reads a key given twice as two values)."""
    pattern = re.compile(rf"^{re.escape(key)}=(.*)$", re.M)
    return pattern.findall(UNIT.read_text(encoding="utf-8"))


def option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def as_test_runs(argv: list[str], *, database: Path, port: int) -> list[str]:
    """The entry command as a test runs it: this interpreter for the installed ``analytics-agent`` script,
    the test's database file and a loopback port for the image's; every other word as shipped."""
    assert argv[0] == "analytics-agent", argv
    replaced = {"--db": str(database), "--host": "127.0.0.1", "--port": str(port)}
    out = [sys.executable, "-m", "analytics_agent"]
    words = iter(argv[1:])
    for word in words:
        out.append(word)
        if word in replaced:
            next(words)
            out.append(replaced[word])
    return out


def make_database(path: Path) -> None:
    """The empty database, made by the image's own line with the test's path for the image's."""
    import subprocess

    code = database_maker().replace(option(entry_command(), "--db"), str(path))
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
