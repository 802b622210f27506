"""Which encoding a file that is not UTF-8 was saved in, read from its words: every byte of a Polish
(cp1250) or Russian (cp1251) file reads as Windows-1252 too, as the wrong letters (``Op³ata``,
``Äàòà``), and a Japanese (Shift-JIS) one holds bytes Windows-1252 lacks. An encoding is named when its
reading gives more of the file's words past ASCII as its language's words than Windows-1252's reading
does. Pure."""

from __future__ import annotations

import functools
import re

from analytics_agent.db.load.read.alphabets import TURKISH_ONLY, baltic, fit, one_language, turkish

PEEK_BYTES = 1 << 16
"""The first block of a file a load looks at (``peek``)."""


_OTHERS = (("cp932", "Japanese"), ("cp1250", "Central European"), ("cp1251", "Cyrillic"))
"""Encodings Windows saves text in besides Windows-1252, each named when a file's bytes read as its text
(Japanese as Windows' Shift-JIS, cp932: its ㈱ and full-width minus are not Shift-JIS's). Central European
text saved as ISO-8859-2 reads as Windows-1250 too, but for a few letters: ``_central`` names the one whose
reading makes its words."""


def fitting(head: bytes, than: float = 0.0) -> str:
    """The ``--encoding`` options whose encoding reads ``head`` as text of its language better than
    ``than`` (the share Windows-1252 reads so), likeliest first, as a refusal names them. Pure."""
    fits = better_encodings(head, than)
    if not fits:
        return "give --encoding with the encoding it was saved in"
    return f"add {' or '.join(fits)} (or --encoding with the encoding it was saved in)"


_MARGIN = 0.2
"""How much more of a file another encoding must read as its language's words than Windows-1252 does
(German and French read alike in Windows-1252 and Central European: a tie is Excel's own)."""


def better_encodings(head: bytes, than: float | None = None) -> list[str]:
    """``--encoding CODEC if it is LANGUAGE`` for each of ``_OTHERS`` that reads ``head`` (a character cut
    at its end aside) as text of its language, more of it than ``than`` (None: than Windows-1252 reads
    it) by ``_MARGIN``, likeliest first; first of all the script ``_script`` reads it as. Pure."""
    base = share(head, "cp1252") if than is None else than
    scored = []
    wide = _wide(head)
    script = wide[0] if wide else _script(head)
    for codec, what in _OTHERS:
        if codec == "cp1251" and script is not None:
            continue  # Greek and Hebrew bytes read as Cyrillic letters too
        if codec == "cp1250" and _central(head) == "iso8859-2":
            codec, what = "iso8859-2", "Central European (ISO-8859-2)"
        score = share(head, codec)
        if score >= 0.5 and (
            score >= base + _MARGIN or (codec in ("cp1250", "iso8859-2") and one_language(head, codec))
        ):
            scored.append((score, f"--encoding {codec} if it is {what}"))
    found = [f"--encoding {codec} if it is {what}" for codec, what in wide or ([script] if script else [])]
    return found + [option for _, option in sorted(scored, key=lambda s: -s[0]) if option not in found]


def _wide(head: bytes, few: bool = False) -> list[tuple[str, str]]:
    """``wide.wide_readings`` of ``head`` when a byte past 0xA0 is there (each such encoding writes its
    letters with one), else none. Pure."""
    if max(head, default=0) <= 0xA0:
        return []
    from analytics_agent.db.load.read.wide import wide_readings  # past ASCII, not UTF-8 only

    return wide_readings(head, cut=len(head) >= PEEK_BYTES, few=few)


_SCRIPTS = {
    "cp1253": "Greek",
    "cp1254": "Turkish",
    "cp1257": "Baltic",
    "cp1255": "Hebrew",
    "cp1256": "Arabic",
    "cp874": "Thai",
    "gb18030": "Chinese",
    "big5": "Chinese (Big5)",
    "cp949": "Korean",
    "euc_jp": "Japanese (EUC)",
    "koi8_r": "Cyrillic (KOI8-R)",
    "mac_roman": "Western text saved on an old Mac (Mac Roman)",
}
"""Encodings of scripts the word check above cannot tell apart (Greek and Hebrew bytes read as Cyrillic
words, Korean and Chinese as anything), named from charset-normalizer's reading of the letters' and
characters' frequencies. Its guesses among Latin encodings are not taken: German in Windows-1252 reads
as Central European to it, where the word check is right."""
_CANDIDATES = [
    "cp1252",
    "cp1250",
    "cp1251",
    "cp932",
    *(c for c in _SCRIPTS if c not in ("cp1257", "mac_roman")),
]
"""charset-normalizer's choices; Baltic and Mac Roman are named by their letters alone (``alphabets.baltic``,
``_mac_roman``), as Turkish is too."""


def _script(head: bytes) -> tuple[str, str] | None:
    """The encoding of ``_SCRIPTS`` charset-normalizer reads ``head`` in, with its language (Turkish,
    Baltic, Greek, Hebrew, Arabic and Mac Roman by their letters); None for any other reading. Pure."""
    for codec, fits in (("cp1254", turkish), ("cp1257", baltic), ("mac_roman", _mac_roman)):
        if fits(head):
            return codec, _SCRIPTS[codec]
    if lettered := _by_letters(head):
        return lettered, _SCRIPTS[lettered]
    if few := _wide(head, few=True):  # a name or two in Chinese or Korean: too few for their frequencies
        return few[0]
    from charset_normalizer import from_bytes  # a file that is not UTF-8 only: 30 ms to import

    try:
        best = from_bytes(head, cp_isolation=_CANDIDATES).best()
    except Exception:  # a hint only: a library failing on odd bytes must not fail the load
        return None
    if best is None or best.encoding not in _SCRIPTS:
        return None
    if best.encoding == "cp1254" and not TURKISH_ONLY & set(head.decode("cp1252", errors="replace")):
        return None  # read alike: Windows-1252's own reading stands
    return best.encoding, _SCRIPTS[best.encoding]


@functools.lru_cache(maxsize=2)
def _words(head: bytes) -> list[bytes]:
    """``letters.words`` of ``head``, found once for the Mac and the script checks of one file."""
    from analytics_agent.db.load.read.letters import words  # a file past ASCII that is not UTF-8 only

    return words(head)


_LETTERED = ("cp1253", "cp1255", "cp1256")
"""Greek, Hebrew and Arabic: each named when its reading alone makes words shaped as the script's
(``read.letters``); charset-normalizer read a Hebrew statement as Cyrillic (2026-12-08)."""
_READINGS = (*_LETTERED, "cp1251", "cp1252", "cp1250", "mac_roman")
_SHAPE_MARGIN = 0.1
"""How much more of a file's words one reading must make well-shaped than any other reading."""


def _by_letters(head: bytes) -> str | None:
    """The one of ``_LETTERED`` whose reading of ``head`` makes well-shaped words of its script, near all
    of them and a tenth more than any other reading makes of the same bytes; None when no one reading
    does. Their letters sit at 0xC0-0xFF: a file without such a byte is none of them. Pure."""
    if max(head, default=0) < 0xC0:
        return None
    found = _words(head)
    for codec in _LETTERED:
        if _ahead(found, codec, _FEWEST_LETTERS):
            return codec
    return None


def _mac_roman(head: bytes) -> bool:
    """Whether ``head`` is Western text an old Mac saved (Mac Roman, old Mac Excel's CSV): its accented
    small letters sit at 0x87-0x9F (``é`` 0x8E, ``è`` 0x8F), which Windows-1252 reads as symbols and
    capitals inside words (``RŽfŽrence``, ``Pointe™``) and Windows-1256 as Arabic letters among Latin
    ones. Named when the Mac reading is one language's words and every Windows reading makes a tenth less
    of them words; a Windows-1252 file's curly apostrophe (``don’t``, Mac ``donít``) and ``™``
    (``Office™``, Mac ``Officeô``) make words both ways, and it stays Windows-1252. A French file's
    ``é`` alone is enough: ``Libellé`` and ``Référence`` are no words in any Windows reading. Pure."""
    return bool(_MAC_SMALL.search(head)) and _ahead(_words(head), "mac_roman", 1)


_MAC_SMALL = re.compile(rb"[\x87-\x9f]")
"""Mac Roman's accented small letters: an old Mac's Western text holds some."""
_SHAPED = 0.97
"""The share of a file's words its own reading makes well-shaped (a name or two of another script aside)."""
_ONE_LANGUAGE = 0.9
_FEWEST_LETTERS = 3
"""Letters past ASCII a script's words must show between them (one byte over and over says none)."""


def _ahead(found: list[bytes], codec: str, fewest_letters: int) -> bool:
    """Whether ``codec`` reads near all of ``found`` (a file's words past ASCII, at least three) as
    well-shaped words, and a margin more of them than any other of ``_READINGS`` does. Pure."""
    from analytics_agent.db.load.read import letters  # a file past ASCII that is not UTF-8 only

    read = letters.read_words(found, codec)
    at = letters.counted(read, fewest_letters) if read is not None else []
    best = _looks(found, codec, at)
    if best < _SHAPED:
        return False
    return all(best >= _looks(found, other, at) + _SHAPE_MARGIN for other in _READINGS if other != codec)


def _looks(found: list[bytes], codec: str, at: list[int]) -> float:
    """The share of the words of ``found`` at ``at`` that ``codec`` reads as words of its script, for a
    Latin one times the share of letters of its likeliest language (``fit``, when there are enough and
    they are not near all one language's); 0 when a byte is not of ``codec``. Pure."""
    from analytics_agent.db.load.read import letters

    read = letters.read_words(found, codec)
    if read is None or not at:
        return 0.0
    script = _SCRIPT_LETTERS.get(codec)
    if script is not None:
        return letters.looks(read, at, getattr(letters, script))
    return _latin_looks(read, at)


def _latin_looks(read: list[str], at: list[int]) -> float:
    """The share of the words of ``read`` at ``at`` that are Latin words, times the share of their letters
    that are of their likeliest language (``fit``) when there are enough and they are not near all one
    language's. Pure."""
    from analytics_agent.db.load.read import letters

    if not at:
        return 0.0
    shaped = letters.looks(read, at, letters.LATIN)
    language = fit(" ".join(read[i] for i in at))
    # too few letters to say a language: the words alone; a German shop named 'Café' is German still
    return shaped if not language or language >= _ONE_LANGUAGE else shaped * language


_SCRIPT_LETTERS = {"cp1251": "CYRILLIC", "cp1253": "GREEK", "cp1255": "HEBREW", "cp1256": "ARABIC"}


def decodes(head: bytes, codec: str) -> bool:
    """Whether every byte of ``head`` reads in ``codec``. Pure."""
    try:
        head.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def share(head: bytes, codec: str) -> float:
    """``_native_share`` of ``head`` (a file's first block) read with ``codec``; 0 when a byte is not of
    it. Pure."""
    try:
        text = head.decode(codec)
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 2 or len(head) < PEEK_BYTES:  # only a whole block can cut a character
            return 0.0
        text = head[: exc.start].decode(codec)
    return _native_share(text, codec)


_FEWEST_WORDS, _FEWEST_LETTERS = 3, 4
"""Words past ASCII (of two letters or more) a file must hold for its text to say a language, and
letters past ASCII among them."""
_WORD_PAST_ASCII = re.compile(r"\w*[^\x00-\x7f]+\w*(?:[^\x00-\x7f\s]+\w+)*")
"""A word holding a character past ASCII, symbols inside it included (Polish ``Op³ata`` read as
Windows-1252)."""


_KANA_RUN = re.compile("[\uff66-\uff9f]{2,}")
"""Half-width katakana, two or more in a row."""
_FEWEST_WIDE = 8
"""Full-width Japanese characters (kana, kanji) a file must hold for its half-width katakana to count."""


def _native_share(text: str, codec: str) -> float:
    """The share of ``text``'s words past ASCII that read as its language's. For Shift-JIS: characters
    of kana, kanji and full-width forms (Polish read as Shift-JIS is half-width katakana). For Cyrillic:
    words of Cyrillic letters alone (``opйration`` is a French word read as Cyrillic). For the others:
    words of letters, some of them ASCII (``wodę``, ``Größe``; ``Äàòà`` is a Russian word read as
    Windows-1252, ``Op³ata`` a Polish one). Pure."""
    if codec == "cp932":
        wide = [c for c in text if not c.isascii()]
        japanese = sum(
            1
            for c in wide
            if "\u3000" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff" or "\uff01" <= c <= "\uff5e"
        )
        # half-width katakana in words (a Japanese bank's ``ATM ｼﾊﾗｲ``) beside full-width Japanese: one
        # alone between ASCII letters is a Polish or Czech letter read so (``Opｳata``), and Russian or
        # Greek in capitals reads as nothing but half-width katakana (``ОПЛАТА`` as ``ﾎﾏﾋﾀﾒﾀ``)
        if japanese >= _FEWEST_WIDE:
            japanese += sum(map(len, _KANA_RUN.findall(text)))
        return japanese / len(wide) if wide else 0.0
    # a symbol at a word's edge is punctuation (Spanish ``¿Qué``); inside it, it is part of the word
    words = [w.strip("".join(c for c in w if not c.isalpha())) for w in _WORD_PAST_ASCII.findall(text)]
    words = [w for w in words if not w.isascii() and sum(c.isalpha() for c in w) >= 2]
    if len(words) < _FEWEST_WORDS:  # '\xff\xff' in a column of lists is no Cyrillic word, nor '€' ('Ђ')
        return 0.0
    if codec == "cp1251":
        native = [w for w in words if all("\u0400" <= c <= "\u04ff" for c in w)]
    else:
        native = [
            w
            for w in words
            if w.isalpha()
            and any(c.isascii() for c in w)
            and all(c.isascii() or "\u00c0" <= c <= "\u024f" for c in w)
        ]
    if len({c for w in native for c in w if not c.isascii()}) < _FEWEST_LETTERS:
        return 0.0  # one byte over and over ('\xfd' as 'эээ' or 'ýýý') says no language
    return len(native) / len(words)


_APART = re.compile(rb"[\xa1\xa5\xa6\xa9\xab\xac\xae\xb1\xb5\xb6\xb7\xb9\xbb\xbc\xbe]")
"""The bytes ISO-8859-2 reads otherwise than Windows-1250 above 0x9f: its ``ą ś ź Ą Ś Ź š ť ž Š Ť Ž ľ Ľ``
where Windows-1250 has ``± ¶ Ľ ˇ ¦ ¬ ą » ľ © « ®`` and ``µ``. Every other byte there reads alike: Hungarian's
``ő ű``, Romanian's ``ş ţ``, Polish ``ł ę ć ń ó ż`` and Czech ``č ř ě ů``."""
_WINDOWS_1250_ONLY = re.compile(rb"[\x80-\x9f]")
"""Bytes ISO-8859-2 holds control characters at, Windows-1250 letters and punctuation (``š``, ``„``)."""


def _central(head: bytes) -> str:
    """Which Central European encoding reads ``head``: ``iso8859-2`` (Unix, older web and mail exports)
    when the words holding a byte the two read apart make well-shaped words of one language a margin
    more often in its reading than in Windows-1250's (ISO ``Łódź``, ``Košice`` read in Windows-1250
    are ``ŁódĽ`` and ``Koąice``); else ``cp1250``, as when both read those words alike well (Slovak
    ``podľa`` is ``podža`` in ISO-8859-2) or a byte only Windows-1250 has text at is there. Pure."""
    if _WINDOWS_1250_ONLY.search(head) or not _APART.search(head):
        return "cp1250"
    found = [w for w in _words(head) if _APART.search(w)]
    # symbols at a word's edge are kept: Croatian 'Šibenik' is '©ibenik' in Windows-1250, no word; its
    # '«Kraków»' is no word in either reading ('ŤKrakówť')
    iso, windows = ([w.decode(codec) for w in found] for codec in ("iso8859-2", "cp1250"))
    # a word either reading makes of two letters or more ('µ' or '±' alone is no word in either), but
    # a unit after the micro sign ('µg', ISO-8859-2's 'ľg') says nothing: either is written
    at = [
        i
        for i in range(len(found))
        if any(sum(c.isalpha() for c in r[i]) >= 2 for r in (iso, windows)) and windows[i][0] != "µ"
    ]
    return "iso8859-2" if _latin_looks(iso, at) >= _latin_looks(windows, at) + _SHAPE_MARGIN else "cp1250"


def central_misread(head: bytes, given: str) -> tuple[str, str, str] | None:
    """For ``head`` read with ``given`` (a Python codec name), Windows-1250 or ISO-8859-2: the other one
    when it is the one that reads the file's words (``_central``; ISO-8859-2 reads Windows-1250's ``š``
    and ``„`` as control characters), with a word as the other reads it and as ``given`` does; else
    None. Pure."""
    other = {"cp1250": "iso8859-2", "iso8859-2": "cp1250"}.get(given)
    if other is None or (other == "cp1250" and not decodes(head, other)):
        return None
    if other == "iso8859-2" and _central(head) != other:
        return None
    from analytics_agent.db.load.read import letters  # a Central European file only

    apart = _APART if other == "iso8859-2" else _WINDOWS_1250_ONLY
    for word in (w for w in _words(head) if apart.search(w)):
        right, wrong = word.decode(other), word.decode(given)
        if letters.looks([right], [0], letters.LATIN) and not letters.looks([wrong], [0], letters.LATIN):
            return other, right, wrong
    return None
