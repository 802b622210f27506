"""``mcp --log-format json``: one JSON object a line, whatever a message holds; anything else is one line."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from analytics_agent.cli.app import main
from analytics_agent.cli.log_format import JsonFormatter


def test_a_json_log_line_keeps_a_newline_and_an_escape_inside_and_carries_the_traceback():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "x.y", logging.ERROR, __file__, 1, "a\nb \x1b[31m %s", ("c",), sys.exc_info()
        )
    line = JsonFormatter().format(record)
    parsed = json.loads(line)
    assert "\n" not in line and "\x1b" not in line
    assert (parsed["level"], parsed["logger"], parsed["message"]) == ("error", "x.y", "a\nb \x1b[31m c")
    assert parsed["error"].endswith("ValueError: boom") and parsed["ts"].endswith("+00:00")


def test_an_unknown_log_format_is_one_line_naming_both(sample_db, capsys, monkeypatch):
    pytest.importorskip("mcp")
    monkeypatch.setattr(
        sys, "argv", ["analytics-agent", "--db", str(sample_db), "mcp", "--log-format", "yaml"]
    )
    with pytest.raises(SystemExit) as info:
        main()
    err = capsys.readouterr().err
    assert info.value.code != 0 and err.strip() == "error: --log-format must be text or json, not 'yaml'"
