"""Ground truth for the sixth held-out set: the tables truth_tables.sql writes by hand from the exports.

Run: python tests/data/heldout_v6_exports/truth.py   (prints each id and its rows)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from heldout_truth import main  # noqa: E402  (a script run by hand, beside its data)

if __name__ == "__main__":
    main(HERE, expected=15, most_rows=3)
