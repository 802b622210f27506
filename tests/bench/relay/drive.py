"""Ask each held-out question through the real ``analytics-agent ask --json`` against the relay server.

Builds ``<dir>/bench.duckdb`` with ``analytics-agent load`` (one table per data file), then asks the
questions one at a time, writing ``<dir>/answers/<id>.json`` (stdout), ``<id>.stderr.txt`` (the trace)
and ``<dir>/status.txt``. Questions already answered are skipped, so a stopped run can be resumed.

    python -m tests.bench.relay.drive --dir /tmp/relay --port 8765
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve()
DATA = HERE.parents[2] / "data" / "heldout_v3"
FILES = {
    "superstore": "superstore.csv.gz",
    "seattle_weather": "seattle_weather.csv",
    "us_marriages_divorces": "us_marriages_divorces.csv",
}


def cli() -> list[str]:
    found = shutil.which("analytics-agent")
    return [found] if found else [sys.executable, "-m", "analytics_agent"]


def build_database(db: Path, data: Path) -> None:
    """Each data file as its own table, loaded by our real loader (skipped when the file exists)."""
    if db.exists():
        return
    for table, name in FILES.items():
        done = subprocess.run(
            [*cli(), "--db", str(db), "load", str(data / name), "--table", table],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            db.unlink(missing_ok=True)
            sys.exit(f"loading {name} failed:\n{done.stderr}")
        print(done.stderr.strip() or done.stdout.strip(), file=sys.stderr)


def ask_command(db: Path, port: int, question: str, transcript: Path, timeout: float) -> list[str]:
    return [
        *cli(),
        "--db",
        str(db),
        "ask",
        "--json",
        "--no-stream",
        "--no-chart",
        "--model",
        "relay",
        "--base-url",
        f"http://127.0.0.1:{port}/v1",
        "--api-key",
        "relay-dummy",
        # The "model" is a session reading files: give it the relay's whole wait, and never retry (a
        # retry would put the same request in pending/ twice).
        "--read-timeout",
        str(timeout),
        "--request-deadline",
        str(timeout + 60),
        "--max-retries",
        "0",
        "--transcript",
        str(transcript),
        question,
    ]


def write_status(root: Path, text: str) -> None:
    (root / "status.txt").write_text(f"{time.strftime('%H:%M:%S', time.gmtime())} UTC  {text}\n")
    print(text, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--questions", type=Path, default=DATA / "questions.yaml")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the data files")
    parser.add_argument("--only", nargs="*", default=None, help="question ids (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="ask only the first N questions")
    parser.add_argument("--timeout", type=float, default=960.0, help="seconds one model request may take")
    args = parser.parse_args(argv)

    root: Path = args.dir
    answers = root / "answers"
    answers.mkdir(parents=True, exist_ok=True)
    db = root / "bench.duckdb"
    build_database(db, args.data)
    questions: list[dict[str, Any]] = yaml.safe_load(args.questions.read_text())
    if args.only:
        questions = [q for q in questions if q["id"] in set(args.only)]
    if args.limit is not None:
        questions = questions[: args.limit]
    env = {**os.environ, "NO_COLOR": "1"}
    for index, q in enumerate(questions, 1):
        out = answers / f"{q['id']}.json"
        if out.exists():
            continue
        write_status(root, f"question {index}/{len(questions)} running: {q['id']}")
        started = time.monotonic()
        done = subprocess.run(
            ask_command(db, args.port, q["question"], root / "transcript.jsonl", args.timeout),
            capture_output=True,
            text=True,
            env=env,
        )
        (answers / f"{q['id']}.stderr.txt").write_text(done.stderr)
        try:
            result = json.loads(done.stdout)
        except json.JSONDecodeError:
            result = {
                "error": f"exit {done.returncode}, stdout not JSON",
                "stdout": done.stdout,
                "stop": "error",
            }
        result["_relay"] = {"exit": done.returncode, "seconds": round(time.monotonic() - started, 1)}
        out.write_text(json.dumps(result, indent=2, ensure_ascii=False))
    write_status(root, f"all {len(questions)} questions done; run score.py")


if __name__ == "__main__":
    main()
