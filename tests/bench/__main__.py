"""``python -m tests.bench``: see run.py."""

import sys

from tests.bench.run import main

sys.exit(main())
