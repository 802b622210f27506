"""Ground truth for the fourth held-out set: plain DuckDB over the CSVs beside this file.

Run: python tests/data/heldout_v4/truth.py   (prints each id and its rows)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from heldout_truth import main  # noqa: E402  (a script run by hand, beside its data)

if __name__ == "__main__":
    main(HERE, expected=36, most_rows=None)
