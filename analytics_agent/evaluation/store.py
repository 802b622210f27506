"""Every run is kept as one JSON file in ``<data dir>/evals/``, so a later run can be compared with it."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from analytics_agent import bounded_json
from analytics_agent.errors import EvalFileError
from analytics_agent.paths import data_dir
from analytics_agent.small_files import read_small

LAST = "last"
MAX_RUN_BYTES = 128 * 1024 * 1024
"""A stored run holds each answer once: thousands of questions are a few MB."""


def runs_dir() -> Path:
    return data_dir() / "evals"


def save_run(run: dict[str, Any], *, now: dt.datetime | None = None) -> Path:
    """Write ``run`` to a new file named by its time (never overwriting one); returns its path.

    Raises:
        EvalFileError: the folder or file cannot be written.
    """
    stamp = (now or dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = runs_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)  # a run holds questions, answers and the data's values: the owner's only
        for n in range(1000):
            path = folder / (f"{stamp}.json" if n == 0 else f"{stamp}-{n}.json")
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # EXCL: never through a link
                with open(fd, "w", encoding="utf-8") as fh:
                    json.dump(run, fh, ensure_ascii=False, indent=1)
                return path
            except FileExistsError:
                continue
    except OSError as exc:
        raise EvalFileError(f"cannot save the run in {folder}: {exc.strerror or exc}") from None
    raise EvalFileError(f"cannot save the run in {folder}: too many runs in the same second")


def load_run(reference: str) -> tuple[Path, dict[str, Any]]:
    """A stored run: ``last`` (the newest in the runs folder) or a path to a run's JSON (``--json`` output
    works too).

    Raises:
        EvalFileError: no such run, or not a run's JSON.
    """
    path = _newest() if reference == LAST else Path(reference).expanduser()
    try:
        data = bounded_json.loads(read_small(path, MAX_RUN_BYTES))  # a FIFO or /dev/zero: one line
    except FileNotFoundError:
        raise EvalFileError(f"--compare: no such run file {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise EvalFileError(f"--compare: {path} is not a run's JSON: {exc}") from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list) or not all(
        isinstance(r, dict) and {"id", "model", "passed", "grounded"} <= set(r) for r in results
    ):
        raise EvalFileError(f"--compare: {path} is not a run's JSON (no results with id, model, passed)")
    return path, data


def _newest() -> Path:
    runs = sorted(runs_dir().glob("*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    if not runs:
        raise EvalFileError(f"--compare last: no stored run yet in {runs_dir()}")
    return runs[-1]
