"""Whether a reading of a file's bytes makes words shaped as its script's words are. Greek, Hebrew, Arabic
and Cyrillic Windows text all sit in the same upper half of the byte table, so each file reads as each
script's letters; only in its own does every word look like a word: Greek's ``ς`` and Hebrew's final
letters (``ך ם ן ף ץ``) last in a word, Arabic letters with no Latin ``é`` among them, a capital only
first or in a word of capitals, a vowel in every word of three letters (Greek read as Cyrillic is
``ЗмеспмзнЯб``, Hebrew read as Greek ``ϊΰψικ``, French from an old Mac read as Windows-1252
``RŽfŽrence``). Pure."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple


class Script(NamedTuple):
    letters: str
    """A character class of the script's letters (ASCII ones included for Latin)."""
    cased: bool
    vowels: str = ""
    """Lower-case vowels a word of three letters or more holds one of (empty: no such rule)."""
    finals: str = ""
    """Letters written only last in a word."""
    marks: str = ""
    """A character class of the points and vowel signs written after a letter."""
    after_vowel: str = ""
    """Letters written only after a vowel (Greek's ``ϊ`` and ``ΰ`` part a vowel from the one before)."""
    not_first: str = ""
    """Lower-case letters no word begins with."""
    not_last: str = ""
    """Lower-case letters no word ends with."""


LATIN = Script("A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f", cased=True)
GREEK = Script("\u0386\u0388-\u03ce", cased=True, vowels="αεηιουωάέήίόύώϊϋΐΰ", finals="ς", after_vowel="ϊϋΐΰ")
CYRILLIC = Script("\u0400-\u04ff", cased=True, vowels="аеёиоуыэюяіїєўъ", not_first="ъьы", not_last="ъ")
"""Bulgarian's ``ъ`` is a vowel; no word begins with ``ъ``, ``ь`` or ``ы``, nor ends in ``ъ`` (Hebrew's
``ת`` read as Cyrillic: ``ъашйк`` for ``תאריך``)."""
HEBREW = Script("\u05d0-\u05ea", cased=False, finals="ךםןףץ", marks="\u0591-\u05c7")
ARABIC = Script("\u0621-\u064a\u066e-\u06d3\u06d5", cased=False, finals="ة", marks="\u064b-\u065f\u0670")
"""Arabic's ``ة`` ends a word (before an ending it is written ``ت``); the Persian and Urdu letters of
Windows-1256 are its letters too. A Persian word's zero-width non-joiner is no break in it."""

_TOKEN = re.compile(rb"[^\s!-@\[-`{-~]*[\x80-\xff][^\s!-@\[-`{-~]*")
"""A run of letters and symbols holding a byte past ASCII: ASCII punctuation, digits and blanks end a word
in every single-byte encoding alike, a symbol past ASCII (``Ž`` read for Mac Roman's ``é``, ``™``) is
part of it."""
_APOSTROPHES = re.compile("[\u2018\u2019\u05f3\u05f4\u200c]")
"""Inside a word, what parts it (``l’été``, Hebrew's ``בש״ח``, a Persian word's non-joiner)."""
_FEWEST_WORDS = 3
_MOST_WORDS = 2000


def words(head: bytes) -> list[bytes]:
    """The different words of ``head`` (a file's first block) holding a byte past ASCII, as bytes: each
    reading decodes these, not the whole block (a 64 KB block read seven ways took 0.3 s). Pure."""
    return list(dict.fromkeys(_TOKEN.findall(head)))[:_MOST_WORDS]


def read_words(found: list[bytes], codec: str) -> list[str] | None:
    """``found`` (``words``) read in ``codec``, symbols at their edges cut, one for one; None when a byte
    is not of ``codec``. Pure."""
    try:
        return [_edges(w.decode(codec)) for w in found]
    except UnicodeDecodeError:
        return None


def counted(read: list[str], fewest_letters: int) -> list[int]:
    """Where ``read`` (``read_words``) holds words past ASCII of two letters or more: the words one reading
    is judged by, and every other reading of the same bytes too; none when there are fewer than three or
    fewer than ``fewest_letters`` letters past ASCII among them (one byte over and over says no
    script). Pure."""
    at = [i for i, w in enumerate(read) if not w.isascii() and sum(c.isalpha() for c in w) >= 2]
    if len(at) < _FEWEST_WORDS or len({c for i in at for c in read[i] if not c.isascii()}) < fewest_letters:
        return []
    return at


def looks(read: list[str], at: list[int], script: Script) -> float:
    """The share of the words of ``read`` at ``at`` that make sense as ``script``'s: shaped as its words
    are, or ASCII words with symbols at their edges (Windows-1252's ``Office™``, which Mac Roman reads
    ``Officeô``). Pure."""
    if not at:
        return 0.0
    shape = _shape(script)
    return sum(_sensible(read[i], shape) for i in at) / len(at)


def _sensible(word: str, shape: Callable[[str], bool]) -> bool:
    if word.isascii():
        return bool(word)
    return all(shape(p) for p in _APOSTROPHES.split(word) if p)


def _edges(token: str) -> str:
    """``token`` without the symbols at its edges (``«Crédit»``, ``₪``, ``“``). Pure."""
    start, end = 0, len(token)
    while start < end and not token[start].isalpha():
        start += 1
    while end > start and not token[end - 1].isalpha():
        end -= 1
    return token[start:end]


_SHAPES: dict[Script, Callable[[str], bool]] = {}


def _shape(script: Script) -> Callable[[str], bool]:
    """A test of one word (apostrophes aside) against ``script``'s shape, its patterns built once."""
    if script in _SHAPES:
        return _SHAPES[script]
    marks = re.compile(f"(?<=[{script.letters}])[{script.marks}]+") if script.marks else None
    only = re.compile(f"[{script.letters}]+")

    def shaped(word: str) -> bool:
        if marks is not None:
            word = marks.sub("", word)
        if not only.fullmatch(word):
            return False
        if script.cased and not (
            word.islower() or word.isupper() or (word[0].isupper() and word[1:].islower())
        ):
            return False
        if script.finals and any(c in script.finals for c in word[:-1]):
            return False
        lowered = word.lower()
        if lowered[0] in script.not_first or lowered[-1] in script.not_last:
            return False
        if script.after_vowel and any(
            c in script.after_vowel and (i == 0 or lowered[i - 1] not in script.vowels)
            for i, c in enumerate(lowered)
        ):
            return False
        return not (script.vowels and len(word) >= 3 and not any(c in script.vowels for c in lowered))

    _SHAPES[script] = shaped
    return shaped
