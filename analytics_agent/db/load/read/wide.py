"""Which double-byte East Asian encoding a file's bytes are text of: Big5 (Taiwan, Hong Kong), GB18030
(China; GBK and GB2312 are its parts), EUC-KR (Korea, as Windows' cp949) or Shift-JIS (Japan, as Windows'
cp932). Each reads most of the others' bytes too, as other characters of its own (Korean text reads as
Chinese, Big5 as GB18030's rarer ideographs), and a small file holds too few characters for a reading of
their frequencies (charset-normalizer read a Taiwanese bill of 120 Chinese characters as Shift-JIS,
2026-12-08, and the load then named latin-1, which stores every character as two Western letters).

Each encoding sets its most used characters apart in a block of its own, ordered by use: Big5's first
level (5,401 ideographs), GB2312's first level (3,755 ideographs), EUC-KR's 2,350 hangul syllables, and
JIS's kana and first-level kanji. A file's own encoding reads near all its letters as characters of that
block; another reading of the same bytes lands a good part of them elsewhere (Big5 read as GB18030: a
third to a half in GB2312's first level), or not at all (a byte pair it lacks). Pure."""

from __future__ import annotations

import re
from collections import Counter

_READINGS = (
    ("cp949", "Korean"),
    ("cp932", "Japanese"),
    ("big5", "Chinese (Big5)"),
    ("gb18030", "Chinese"),
)
"""The encodings, with the language a refusal names; of two readings alike, the earlier is named first.
Korean, when it reads so, is named alone: EUC-KR's hangul rows (0xB0-0xC8) are rows of GB2312's first level and
nearly all of Big5's, so a Korean file reads as common Chinese characters too, where a Chinese file read
as Korean shows hanja, jamo and byte pairs EUC-KR lacks (GB2312's first level runs on to row 0xD7, Big5's
most used characters sit in rows 0xA4-0xAF and pair with bytes under 0x80)."""

_FREQUENT = {
    "cp949": ("euc_kr", ((0xB0A1, 0xC8FE),)),
    "cp932": ("cp932", ((0x829F, 0x8396), (0x889F, 0x9872))),
    "big5": ("big5", ((0xA440, 0xC67E),)),
    "gb18030": ("gb2312", ((0xB0A1, 0xD7FE),)),
}
"""Each reading's block of most used letters: the codec that writes it and its two-byte ranges."""

_COMMON = 0.9
"""The share of a file's letters past ASCII its own reading finds in its block of most used letters (a
name or two written with a rarer character aside)."""
_MARGIN = 0.2
"""How much less another reading must find so for only one to be named."""
_FEWEST = 4
"""Different letters a reading must make to be named before single-byte ones, as a header of two Chinese
words does (``日期``, ``金額``)."""
_FEWEST_IN_FEW = 2
_WORD = re.compile(r"(?:(?![\x00-\x7f])[^\W\d_]){2}")
"""Two letters past ASCII in a row: a Chinese, Japanese or Korean name or word (``王芳``, ``김민수``),
which any such file writes. Letters each alone between ASCII ones are no such text: Big5 reads a German
file's ``°C``, ``°F``, ``Äp`` (``Äpfel``) and ``Ås`` as four of its most used characters (``蚓``, ``蚌``,
``癥``, ``彎``), GB2312 ``ÖÄ`` as one."""


def wide_readings(head: bytes, *, cut: bool, few: bool = False) -> list[tuple[str, str]]:
    """The double-byte encodings, with their language, whose reading of ``head`` (a file's first block;
    ``cut``: a block that may end inside a character) is letters of that encoding's most used ones,
    likeliest first: the one whose reading finds the most so, and another only when it reads nearly as
    well (a Korean file's Chinese readings are left out, see ``_READINGS``). Empty when no reading does,
    or makes ``_FEWEST`` different letters; with ``few``, two in a row (a name or two) are enough. Pure."""
    scored = []
    for codec, language in _READINGS:
        score = _frequent_share(head, codec, cut, few)
        if score is not None and score >= _COMMON:
            scored.append((score, codec, language))
    if any(codec == "cp949" for _, codec, _ in scored):
        return [_READINGS[0]]
    scored.sort(key=lambda found: -found[0])  # stable: of readings alike, ``_READINGS``' order
    return [(codec, language) for score, codec, language in scored if score >= scored[0][0] - _MARGIN]


def _frequent_share(head: bytes, codec: str, cut: bool, few: bool) -> float | None:
    """The share of ``codec``'s reading of ``head``'s letters past ASCII (counted each time written) that
    lie in its block of most used ones; None when a byte is not of ``codec`` or the reading makes too
    few different letters (``wide_readings``). Pure."""
    text = _read(head, codec, cut)
    if text is None:
        return None
    counts = Counter(text)
    letters = {c: n for c, n in counts.items() if not c.isascii() and (c.isalpha() or _unassigned(c))}
    if len(letters) < (_FEWEST_IN_FEW if few else _FEWEST) or not _WORD.search(text):
        return None
    writer, blocks = _FREQUENT[codec]
    frequent = sum(n for c, n in letters.items() if _in_blocks(c, writer, blocks))
    return frequent / sum(letters.values())


def _unassigned(character: str) -> bool:
    """Whether ``character`` is a private-use one or none at all: what a wrong reading makes of byte pairs
    its encoding keeps for vendors (GB18030 reads Big5's ``金`` and ``否`` so), counted as letters it misread."""
    import unicodedata

    return unicodedata.category(character) in ("Co", "Cn")


def _in_blocks(letter: str, writer: str, blocks: tuple[tuple[int, int], ...]) -> bool:
    try:
        written = letter.encode(writer)
    except UnicodeEncodeError:
        return False
    if len(written) != 2:
        return False
    code = written[0] << 8 | written[1]
    return any(low <= code <= high for low, high in blocks)


def _read(head: bytes, codec: str, cut: bool) -> str | None:
    """``head`` read in ``codec``, a character ``cut`` at its end aside (GB18030 writes some in four
    bytes); None when a byte is not of it."""
    try:
        return head.decode(codec)
    except UnicodeDecodeError as exc:
        if not cut or exc.start < len(head) - 3:
            return None
        return head[: exc.start].decode(codec, errors="replace")
