"""Regenerate the TPC-H CSVs beside this file (not needed to run the questions).

Needs duckdb 1.5.5 and the tpch extension shipped as a wheel, in a venv of its own:
    python3 -m venv /tmp/tpchvenv
    /tmp/tpchvenv/bin/pip install duckdb==1.5.5 duckdb-extension-tpch==1.5.5
    /tmp/tpchvenv/bin/python tests/data/heldout_v5_tpch/generate.py
dbgen is deterministic: the same scale factor gives the same rows.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import duckdb
import duckdb_extension_tpch

HERE = Path(__file__).resolve().parent
SF = 0.01
TABLES = ("region", "nation", "customer", "supplier", "part", "partsupp", "orders", "lineitem")
GZIPPED = {"partsupp", "orders", "lineitem"}  # the big ones, to keep the folder small
ORDER = {
    "region": "r_regionkey",
    "nation": "n_nationkey",
    "customer": "c_custkey",
    "supplier": "s_suppkey",
    "part": "p_partkey",
    "partsupp": "ps_partkey, ps_suppkey",
    "orders": "o_orderkey",
    "lineitem": "l_orderkey, l_linenumber",
}


def main() -> None:
    ext = (
        Path(duckdb_extension_tpch.__file__).parent
        / "extensions"
        / f"v{duckdb.__version__}"
        / "tpch.duckdb_extension"
    )
    con = duckdb.connect()
    con.execute(f"LOAD '{ext.as_posix()}'")
    con.execute(f"CALL dbgen(sf={SF})")
    for t in TABLES:
        tmp = HERE / f"{t}.tmp.csv"
        order = ORDER[t]
        con.execute(f"COPY (FROM {t} ORDER BY {order}) TO '{tmp.as_posix()}' (HEADER, DELIMITER ',')")
        if t in GZIPPED:
            out = HERE / f"{t}.csv.gz"
            # mtime=0 and no file name in the header: the same rows give the same bytes
            with (
                open(tmp, "rb") as src,
                open(out, "wb") as raw,
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz,
            ):
                gz.write(src.read())
            tmp.unlink()
        else:
            out = HERE / f"{t}.csv"
            os.replace(tmp, out)
        print(out.name, con.execute(f"SELECT count(*) FROM {t}").fetchone()[0], out.stat().st_size)


if __name__ == "__main__":
    main()
