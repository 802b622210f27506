"""``--log-format json``: one JSON object a line on stderr, for a log collector (``mcp --http``).

Each line holds ``ts`` (UTC), ``level``, ``logger`` and ``message``, and ``error`` (the traceback) when
there is one; ASCII JSON, so a newline or an escape sequence in a message stays inside its line.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys

FORMATS = ("text", "json")
TEXT_FORMAT = "%(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=True, default=str)


def configure(log_format: str) -> None:
    """Logs to stderr in ``log_format``: warnings and worse, or what ``-v`` set up already, reformatted."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format=TEXT_FORMAT)
    if log_format == "json":
        for handler in root.handlers:
            handler.setFormatter(JsonFormatter())
