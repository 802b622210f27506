"""escape_control: what a terminal would act on is shown, never obeyed; everything else passes unchanged."""

from __future__ import annotations

import pytest

from analytics_agent.present.safe_text import escape_control


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),  # OSC: retitle the window
        (
            "\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\",
            "\\x1b]8;;http://evil/\\x1b\\click\\x1b]8;;\\x1b\\",
        ),
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),  # CSI: clear the screen, cursor home
        ("\x9b2J", "\\x9b2J"),  # C1 CSI: one code point that acts like ESC [
        ("total 100\rtotal 999", "total 100\\rtotal 999"),  # a carriage return overwrites the line
        ("abc\x08\x08\x08xyz", "abc\\x08\\x08\\x08xyz"),
        ("\x7f\x00", "\\x7f\\x00"),
        ("lone \udc80 half", "lone \\udc80 half"),  # valid JSON, unprintable in UTF-8
        ("\u202eevil", "\\u202eevil"),  # bidirectional override (Trojan Source)
    ],
)
def test_every_terminal_control_is_written_as_a_visible_escape(hostile: str, shown: str) -> None:
    out = escape_control(hostile)
    assert out == shown
    assert not any(ord(c) < 0x20 and c not in "\n\t" for c in out)
    out.encode("utf-8")  # printable on any UTF-8 terminal


def test_answers_keep_their_newlines_tabs_and_every_language() -> None:
    answer = "Pune: ₹4,798\n\tDelhi: 3 orders — 東京 ✓ 🙂"
    assert escape_control(answer) is answer  # unchanged, not even copied


def test_one_line_values_escape_newlines_and_tabs_too() -> None:
    assert escape_control("a\nb\tc", newlines=False) == "a\\nb\\tc"


def test_a_windows_line_end_is_a_line_end_but_a_lone_carriage_return_is_shown() -> None:
    assert escape_control("a\r\nb\rc") == "a\nb\\rc"


def test_table_cells_and_headers_are_escaped_and_stay_aligned():
    from analytics_agent.present.tables import table

    out = table(["na\x1bme", "n"], [["\x1b[31mred", 1], ["ok", 22]], right=(1,))
    assert out.splitlines() == [  # widths count the escaped text, 11 characters for "\x1b[31mred"
        "na\\x1bme      n",
        "-----------  --",
        "\\x1b[31mred   1",
        "ok           22",
    ]


@pytest.mark.parametrize("newlines", [True, False])
def test_every_ascii_character_is_judged_alike_by_the_quick_path_and_the_pattern(newlines: bool) -> None:
    """Plain ASCII skips the pattern; each of the 128 characters must still be shown exactly as the
    pattern (the path any non-ASCII text takes) shows it."""
    for code in range(128):
        char = chr(code)
        alone, beside = (
            escape_control(f"a{char}b", newlines=newlines),
            escape_control(f"é{char}b", newlines=newlines),
        )
        assert alone == beside.replace("é", "a", 1), repr(char)
        kept = char.isprintable() or (newlines and char in "\n\t")
        assert (alone == f"a{char}b") == kept, repr(char)
