"""What may enter the audit trail: a value with its secrets masked and its size bounded. Pure.

A tool call's arguments and SQL come from a model or a user and may carry anything: a DSN with its
password, a bearer token pasted into a question, an API key, 50 MB of text, JSON nested a thousand deep.
``scrubbed`` returns a JSON-able copy that holds none of the secrets and has a bounded size, whatever
went in:

* the process's known secrets (``known_secrets``: the values of its secret-named environment
  variables, such as ``OPENAI_API_KEY`` or ``PGPASSWORD``) are masked wherever they appear
  (``providers.redaction.mask``);
* a URL's password or secret query parameter goes as ``db.linked.spec.redact_dsn`` hides it in
  ``sources list``; ``password=…``, ``token: …`` and the like (any name ``spec.secret_name`` calls
  secret) keep their name and lose their value; so do ``Bearer …`` / ``Basic …`` credentials and the
  well-known key shapes (``sk-…``, ``AKIA…``, ``ghp_…``, JSON Web Tokens);
* the value of a mapping key with a secret name is masked whole;
* strings are cut at ``MAX_TEXT`` characters (saying how long they were), containers at ``MAX_ITEMS``
  items and ``MAX_DEPTH`` levels.

Control characters are not touched here: the writer escapes them (``json.dumps`` with ASCII output).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from analytics_agent.db.linked.spec import redact_dsn, secret_name
from analytics_agent.providers.redaction import MASK, mask, reply_secrets

MAX_TEXT = 2_000
MAX_ITEMS = 50
MAX_DEPTH = 6

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s'\"<>]+")
_AUTH_SCHEME = re.compile(r"\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{6,}", re.IGNORECASE)
# name=value or name: value (also quoted, as in JSON text or a libpq string) where the name is secret-like
_NAMED = re.compile(
    r"""(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,63})(?P<sep>["']?\s*[=:]\s*)(?P<value>'[^']*'|"[^"]*"|[^\s,;&'"}]+)"""
)
_TOKEN_SHAPES = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}"
    r"|xox[abpr]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
)


def known_secrets(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The values of the environment's secret-named variables (``OPENAI_API_KEY``, ``PGPASSWORD``,
    ``AWS_SECRET_ACCESS_KEY``…), longest first; short placeholders (``none``) are left out."""
    env = os.environ if environ is None else environ
    return reply_secrets(value for name, value in env.items() if secret_name(name))


def scrub_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every secret it holds masked, then cut to ``MAX_TEXT`` characters.

    Only the start of a long text is scrubbed (four times what is kept, so a secret that begins before the
    cut is whole when it is masked): the patterns then cost the same for 10 MB as for 8 kB."""
    total = len(text)
    text = mask(text[: 4 * MAX_TEXT], tuple(secrets))
    text = _URL.sub(lambda m: redact_dsn(m.group(0)), text)
    text = _AUTH_SCHEME.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    text = _NAMED.sub(_masked_pair, text)
    text = _TOKEN_SHAPES.sub(MASK, text)
    if total <= MAX_TEXT and len(text) <= MAX_TEXT:
        return text
    return f"{text[:MAX_TEXT]}… [cut: {total:,} characters in all]"


def _masked_pair(match: re.Match[str]) -> str:
    name, sep, value = match.group("name", "sep", "value")
    if not secret_name(name):  # its value may hold a pair of its own: ``where: "password=…"``
        return f"{name}{sep}{_NAMED.sub(_masked_pair, value)}"
    return match.group(0) if value.strip("'\"") == MASK else f"{name}{sep}{MASK}"


def clip(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [cut: {len(text):,} characters in all]"


def scrubbed(value: Any, secrets: Iterable[str] = (), *, depth: int = 0) -> Any:
    """A JSON-able copy of ``value`` with secrets masked and its size bounded (see the module's docstring)."""
    hidden = tuple(secrets)
    if isinstance(value, str):
        return scrub_text(value, hidden)
    if value is None or isinstance(value, bool | int | float):
        return value
    if depth >= MAX_DEPTH:
        return f"[nested deeper than {MAX_DEPTH} levels; cut]"
    if isinstance(value, Mapping):
        items = list(value.items())
        kept = {
            scrub_text(str(key), hidden)[:200]: MASK
            if secret_name(str(key))
            else scrubbed(item, hidden, depth=depth + 1)
            for key, item in items[:MAX_ITEMS]
        }
        if len(items) > MAX_ITEMS:
            kept["…"] = f"[cut: {len(items):,} keys in all]"
        return kept
    if isinstance(value, list | tuple):
        shown = [scrubbed(item, hidden, depth=depth + 1) for item in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            shown.append(f"[cut: {len(value):,} items in all]")
        return shown
    return scrub_text(repr(value), hidden)
