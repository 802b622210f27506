"""Which languages a Latin-script reading of a file's bytes is the letters of: the letters past ASCII each
language of Windows-1252, Central European (Windows-1250, ISO-8859-2), Turkish and the Baltic encodings
writes, and the checks that tell Turkish and Baltic text from Windows-1252's reading of it. Pure."""

from __future__ import annotations

TURKISH_ONLY = frozenset("ÐðÝýÞþ")
"""The letters Windows-1252 reads where Turkish has ``Ğ ğ İ ı Ş ş``: the only bytes the two differ in."""
_TURKISH = "âçğıîöşûü"
"""The letters past ASCII Turkish writes (``İ`` lowers to ``i`` and a dot above)."""


ALPHABETS = (
    "äöüß",  # German
    "àâæçéèêëîïôœùûüÿ",  # French
    "áéíñóúü",  # Spanish
    "áâãàçéêíóôõú",  # Portuguese
    "àèéìíîòóù",  # Italian
    "àçèéíïòóúü",  # Catalan
    "áèéëïóöü",  # Dutch
    "åäöé",  # Swedish, Finnish
    "åæøé",  # Danish, Norwegian
    "áðéíóúýþæö",  # Icelandic
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "ąćęłńóśźż",  # Polish
    "áéíóöőúüű",  # Hungarian
    "čćđšž",  # Slovenian, Croatian, Bosnian
    "ăâîşţ",  # Romanian
)
"""The letters past ASCII each language of Windows-1252 or Central European (cp1250) writes."""


def one_language(head: bytes, codec: str = "cp1250") -> bool:
    """Whether the Central European reading of ``head`` (``codec``) is one language's letters and the
    Windows-1252 reading is not: a Slovak ``účtu`` reads as ``úètu`` in Windows-1252, letters both, so the
    word check ties, but no language writes ``ú`` beside ``è``, ``ý`` and ``ž``. German reads alike in
    both. Pure."""
    western, central = (fit(head.decode(c, errors="replace")) for c in ("cp1252", codec))
    return central >= 0.97 and central >= western + 0.1


def turkish(head: bytes) -> bool:
    """Whether ``head`` is Turkish in Windows-1254: Windows-1252 reads its ``ş``, ``ı`` and ``ğ`` as
    ``þ``, ``ý`` and ``ð`` (``Açýklama``), and the Turkish reading is Turkish letters alone where the
    other is no language's. charset-normalizer read a Turkish statement as French (2026-12-07); an
    Icelandic file, whose ``ð``, ``ý`` and ``þ`` are its own, fits Icelandic in Windows-1252. Pure."""
    western = head.decode("cp1252", errors="replace")
    if not TURKISH_ONLY & set(western):
        return False
    turkish = fit(head.decode("cp1254", errors="replace"), (_TURKISH,))
    return turkish >= 0.97 and turkish >= fit(western) + 0.1


_BALTIC = ("ąčęėįšųūž", "āčēģīķļņšūž", "äöõüšž", "ąčęėįšųūžāēģīķļņäöõü")
"""The letters past ASCII Lithuanian, Latvian and Estonian write, and all three together: a Baltic
carrier's or shop's file (Omniva's parcels to Tallinn, Rīga and Vilnius) holds names of each country,
which Windows-1252 reads as French, Italian and Icelandic letters at once (``Bçrziòa``, ``Ozoliòð``).
Western text cannot fit it better than its own language: the check below wants the Baltic reading
ahead of the best one of Windows-1252 by a tenth."""


def baltic(head: bytes) -> bool:
    """Whether ``head`` is Lithuanian, Latvian or Estonian in Windows-1257: every byte reads in
    Windows-1252 too, as letters of no one language (SEB's ``MOKËTOJO`` and ``SÀSKAITA`` for ``MOKĖTOJO`` and
    ``SĄSKAITA``), where the Baltic reading is one language's letters. German reads alike in both and
    fits German in Windows-1252. Estonian without ``š`` or ``ž`` (``Lõuna``, ``Pärnu``) reads alike in both:
    Windows-1252's own reading stands, as a load would read it the same. Pure."""
    if not any(_baltic_letter(byte) for byte in set(head.translate(None, _ASCII))):
        return False
    baltic = fit(head.decode("cp1257", errors="replace"), _BALTIC)
    return baltic >= 0.97 and baltic >= fit(head.decode("cp1252", errors="replace")) + 0.1


_ASCII = bytes(range(128))


def _baltic_letter(byte: int) -> bool:
    """Whether Windows-1257 reads ``byte`` as a letter Windows-1252 reads otherwise (``ā``, not ``ä``). Pure."""
    one = bytes((byte,))
    baltic = one.decode("cp1257", errors="replace")
    return baltic.isalpha() and baltic != one.decode("cp1252", errors="replace")


def fit(text: str, alphabets: tuple[str, ...] = ALPHABETS) -> float:
    """The share of ``text``'s letters past ASCII that the language whose alphabet (of ``alphabets``)
    holds most of them writes. Pure."""
    lowered = (c.lower()[0] for c in text if c.isalpha() and not c.isascii())
    letters = [c for c in lowered if not c.isascii()]
    if len(letters) < 8:
        return 0.0
    return max(sum(c in alphabet for c in letters) for alphabet in alphabets) / len(letters)
