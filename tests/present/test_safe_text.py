"""Control characters are shown, escaped, never obeyed; ordinary text passes untouched."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from analytics_agent.present.safe_text import escape_control
from analytics_agent.present.tables import table


def test_escape_sequences_c0_and_c1_controls_are_escaped_but_newline_and_tab_kept():
    text = "a\x1b]0;title\x07b\x1b[2J\x9b31m\x7f\r\x00\n\tz ₹ é"
    assert (
        escape_control(text) == "a\\u001b]0;title\\u0007b\\u001b[2J\\u009b31m\\u007f\\u000d\\u0000\n\tz ₹ é"
    )


@given(st.text())
def test_the_result_has_no_control_character_and_a_json_string_stays_json(text):
    escaped = escape_control(text)
    assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in escaped)
    encoded = json.dumps({"v": text}, ensure_ascii=False)
    assert json.loads(escape_control(encoded)) == {"v": text}


def test_table_cells_and_headers_are_escaped_and_stay_aligned():
    out = table(["na\x1bme", "n"], [["\x1b[31mred", 1], ["ok", 22]], right=(1,))
    assert out.splitlines() == [  # widths count the escaped text, 13 characters for "\u001b[31mred"
        "na\\u001bme      n",
        "-------------  --",
        "\\u001b[31mred   1",
        "ok             22",
    ]
