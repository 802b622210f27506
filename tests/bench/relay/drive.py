"""Ask each held-out question through the real ``analytics-agent ask --json`` against the relay server.

Builds ``<dir>/bench.duckdb`` with ``analytics-agent load`` (one table per data file), then asks the
questions one at a time, writing ``<dir>/answers/<id>.json`` (stdout), ``<id>.stderr.txt`` (the trace)
and ``<dir>/status.txt``. Questions already answered are skipped, so a stopped run can be resumed.

    python -m tests.bench.relay.drive --dir /tmp/relay --port 8765
    python -m tests.bench.relay.drive --dir /tmp/relay4 --port 8765 --set tests/data/heldout_v4
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve()
SETS = HERE.parents[2] / "data"
DATA = SETS / "heldout_v3"  # the default question set
DATA_SUFFIXES = (".csv", ".csv.gz")


def table_name(file_name: str) -> str:
    """The table a data file becomes: its stem (before the first dot), non-alphanumerics as ``_``."""
    return re.sub(r"[^0-9A-Za-z]", "_", file_name.split(".", 1)[0])


def set_files(data: Path) -> dict[str, str]:
    """{table: file name} for every data file of a question set's folder (e.g. tests/data/heldout_v4)."""
    files = sorted(p.name for p in data.iterdir() if p.name.endswith(DATA_SUFFIXES))
    if not files:
        sys.exit(f"no data files ({', '.join(DATA_SUFFIXES)}) in {data}")
    return {table_name(name): name for name in files}


FILES = set_files(DATA)  # heldout_v3's: superstore, seattle_weather, us_marriages_divorces


def resolve_set(set_dir: Path | None, questions: Path | None, data: Path | None) -> tuple[Path, Path]:
    """(questions.yaml, data folder) from --set (a folder with questions.yaml and its data files), with
    --questions / --data overriding either; the default set is heldout_v3."""
    folder = set_dir if set_dir is not None else DATA
    if not folder.is_dir() and not folder.is_absolute() and (SETS / folder).is_dir():
        folder = SETS / folder  # "--set heldout_v4"
    return (questions or folder / "questions.yaml", data or folder)


def add_set_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--set",
        dest="set_dir",
        type=Path,
        default=None,
        help="question set folder: questions.yaml and its data files (default tests/data/heldout_v3)",
    )
    parser.add_argument("--questions", type=Path, default=None, help="default: <set>/questions.yaml")
    parser.add_argument("--data", type=Path, default=None, help="folder of the data files (default: <set>)")


def cli() -> list[str]:
    found = shutil.which("analytics-agent")
    return [found] if found else [sys.executable, "-m", "analytics_agent"]


def build_database(db: Path, data: Path) -> None:
    """Each data file as its own table, loaded by our real loader (skipped when the file exists)."""
    if db.exists():
        return
    # a file that needs an option to load right names it there, as the loader's refusal named it to a user
    listed = data / "load_options.yaml"
    options = yaml.safe_load(listed.read_text()) if listed.exists() else {}
    for table, name in set_files(data).items():
        done = subprocess.run(
            [*cli(), "--db", str(db), "load", str(data / name), "--table", table, *options.get(name, [])],
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
    add_set_arguments(parser)
    parser.add_argument("--only", nargs="*", default=None, help="question ids (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="ask only the first N questions")
    parser.add_argument("--timeout", type=float, default=960.0, help="seconds one model request may take")
    args = parser.parse_args(argv)

    root: Path = args.dir
    answers = root / "answers"
    answers.mkdir(parents=True, exist_ok=True)
    questions_file, data = resolve_set(args.set_dir, args.questions, args.data)
    db = root / "bench.duckdb"
    marker = root / "set.txt"  # which data bench.duckdb holds: a folder is used for one set only
    if marker.exists() and marker.read_text().strip() != str(data.resolve()):
        sys.exit(f"{root} was built for {marker.read_text().strip()}; use another --dir for {data}")
    build_database(db, data)
    marker.write_text(f"{data.resolve()}\n")
    questions: list[dict[str, Any]] = yaml.safe_load(questions_file.read_text())
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
