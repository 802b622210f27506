"""Run the benchmarks: ``python -m tests.bench`` or ``python tests/bench/run.py``.

Options: ``--quick`` (fewer runs, smaller sizes), ``--sizes 100k,1m,10m`` (scale), ``--only NAME[,NAME]``
(overhead, scale, load, tokens, startup, imports, parallel, loop, mcp, grounding, forms; and sources and
team, only when named), ``--big`` (load a >= 1 GB CSV), ``--source-rows 100m`` (sources), ``--json OUT``.
Each benchmark prints a table; all results go to one JSON file (tests/bench/results/ by default).
The default run takes about five minutes on 2 cores once the cached databases exist (building them the
first time adds about half a minute).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``tests.bench`` importable from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.common import Result, print_table, write_results
from tests.bench.data import parse_sizes

NAMES = (
    "tokens",
    "startup",
    "imports",
    "loop",
    "parallel",
    "overhead",
    "scale",
    "load",
    "mcp",
    "grounding",
    "forms",
)
EXTRA = ("sources", "team")  # run only when named: several GB of Parquet the first time; 60 s of load


def _bench(name: str, args: argparse.Namespace) -> Result:
    quick = args.quick
    if name == "overhead":
        from tests.bench import bench_overhead

        return bench_overhead.run(size=args.overhead_size, max_runs=9 if quick else 51)
    if name == "scale":
        from tests.bench import bench_scale

        return bench_scale.run(sizes=args.sizes, runs=1 if quick else 3)
    if name == "tokens":
        from tests.bench import bench_tokens

        return bench_tokens.run()
    if name == "startup":
        from tests.bench import bench_startup

        return bench_startup.run(runs=5 if quick else 11)
    if name == "imports":
        from tests.bench import bench_imports

        return bench_imports.run(runs=1 if quick else 3)
    if name == "parallel":
        from tests.bench import bench_parallel

        return bench_parallel.run(runs=2 if quick else 3)
    if name == "loop":
        from tests.bench import bench_loop

        return bench_loop.run(questions=20 if quick else 100)
    if name == "load":
        from tests.bench import bench_load

        return bench_load.run(big=args.big, quick=quick, extra=tuple(args.load_csv or ()))
    if name == "forms":
        from tests.bench import bench_forms

        quick_sizes = ("100k", "1m")
        return bench_forms.run(
            size=args.overhead_size, sizes=quick_sizes if quick else tuple(args.sizes), runs=3 if quick else 7
        )
    if name == "mcp":
        from tests.bench import bench_mcp

        return bench_mcp.run(calls=51 if quick else 301, starts=3 if quick else 7)
    if name == "grounding":
        from tests.bench import bench_grounding

        return bench_grounding.run(samples=100 if quick else 300)
    if name == "sources":
        from tests.bench import bench_sources

        return bench_sources.run(rows=parse_count(args.source_rows), runs=2 if quick else 3)
    if name == "team":
        from tests.bench import bench_team

        return bench_team.run(seconds=10 if quick else 60)
    raise SystemExit(f"unknown benchmark {name!r}; choose from {', '.join(NAMES + EXTRA)}")


def parse_count(text: str) -> int:
    """ "100m" -> 100_000_000, "10k" -> 10_000."""
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1].lower(), 1)
    return int(float(text.rstrip("kKmM")) * scale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and sizes 100k,1m")
    parser.add_argument("--sizes", help="scale sizes, e.g. 100k,1m,10m (default 100k,1m,10m)")
    parser.add_argument("--overhead-size", default=None, help="table size for overhead (default 10m)")
    parser.add_argument("--only", help=f"comma-separated subset of {', '.join(NAMES)}")
    parser.add_argument("--big", action="store_true", help="load benchmark on a >= 1 GB CSV")
    parser.add_argument("--load-csv", type=Path, action="append", help="also load this CSV (repeatable)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--source-rows", default="100m", help="rows of the sources benchmark (default 100m)")
    args = parser.parse_args(argv)
    args.sizes = parse_sizes(args.sizes or ("100k,1m" if args.quick else "100k,1m,10m"))
    args.overhead_size = parse_sizes(args.overhead_size or ("1m" if args.quick else "10m"))[0]
    names = [n.strip() for n in args.only.split(",")] if args.only else list(NAMES)
    results = []
    started = time.perf_counter()
    for name in names:
        t0 = time.perf_counter()
        result = _bench(name, args)
        result.summary["benchmark seconds"] = round(time.perf_counter() - t0, 1)
        print_table(result)
        results.append(result)
    out = write_results(results, args.json, args={k: str(v) for k, v in vars(args).items()})
    print(f"\nall done in {time.perf_counter() - started:.0f} s; results in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
