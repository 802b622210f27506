"""Which modules one CLI command imports: a real process runs ``main()`` with the given arguments and
writes ``sys.modules`` as it exits. Shared by the light-import test (the set, deterministic) and the
start-up benchmark (the set's import time, ``-X importtime``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

_PROBE = """
import json, sys
out = sys.argv[1]
sys.argv = ["analytics-agent", *sys.argv[2:]]
from analytics_agent.cli.entry import main  # the console script: a plain load or call skips typer
try:
    main()
except SystemExit:
    pass
finally:
    with open(out, "w") as fh:
        json.dump(sorted(sys.modules), fh)
"""


@dataclass
class Imported:
    modules: set[str]
    self_us: dict[str, int] = field(default_factory=dict)
    """Each module's own import time in microseconds (``-X importtime``), when asked for."""

    def under(self, package: str) -> set[str]:
        return {m for m in self.modules if m == package or m.startswith(package + ".")}

    def total_ms(self) -> float:
        return sum(self.self_us.values()) / 1000


def this_checkout() -> str:
    """The checkout whose package this test imports, first on the child's path: in a git worktree the
    editable install would otherwise give the child another checkout's code."""
    import analytics_agent

    here = str(Path(analytics_agent.__file__).resolve().parents[1])
    return os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])


def imported_by(
    args: list[str], *, cwd: Path, importtime: bool = False, stdin: bytes | None = None
) -> Imported:
    """The modules ``analytics-agent ARGS`` imports (it must exit 0), reading ``stdin`` when given."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "modules.json"
        flags = ["-X", "importtime"] if importtime else []
        done = subprocess.run(
            [sys.executable, *flags, "-c", _PROBE, str(out), *args],
            cwd=cwd, env={**os.environ, "COLUMNS": "100", "PYTHONPATH": this_checkout()}, capture_output=True,
            timeout=120,
            **({"input": stdin} if stdin is not None else {}),
        )  # fmt: skip
        stderr = done.stderr.decode(errors="replace")
        if not out.exists():
            raise RuntimeError(f"analytics-agent {' '.join(args)} did not finish: {stderr[-2000:]}")
        modules = set(json.loads(out.read_text(encoding="utf-8")))
    times: dict[str, int] = {}
    for line in stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            own, _cumulative, name = line[len("import time:") :].split("|")
            times[name.strip()] = int(own)
    return Imported(modules, times)
