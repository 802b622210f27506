"""Where an OpenAI-compatible provider sends its requests, and what in that address and its headers is a
secret: the ``/chat/completions`` URL from a base URL, the host shown in messages (never the user-info
part), the ``Basic`` header a ``user:password@`` URL stands for, and the values every error message and
reply is scrubbed of. Pure functions, no I/O."""

from __future__ import annotations

import base64
from urllib.parse import unquote, urlsplit

from analytics_agent.errors import ConfigError

# A header whose name holds one of these carries a credential (Authorization, X-API-Key, a session cookie).
_SECRET_HEADER_WORDS = ("auth", "key", "token", "secret", "cookie")


def chat_completions_url(base_url: str) -> str:
    """``{base_url}/chat/completions``; a base URL that already ends there is kept."""
    url = (base_url or "").strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"base URL {without_userinfo(url)!r} is not an http(s) URL; use e.g. http://localhost:11434/v1"
        )
    if url.endswith("/chat/completions"):
        return url
    return f"{url}/chat/completions"


def display_host(url: str) -> str:
    """``host`` or ``host:port`` for messages; never the user-info part of a URL."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    return f"{host}:{parts.port}" if parts.port else host


def without_userinfo(url: str) -> str:
    """``url`` without its ``user:password@`` part (what messages and ``repr`` may show)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]).geturl()


def basic_auth(url: str) -> str | None:
    """``Basic …`` for the ``user:password@`` part of a URL (as httpx would send it), or None."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return None
    pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
    return "Basic " + base64.b64encode(pair.encode()).decode()


def request_secrets(api_key: str | None, headers: dict[str, str], url: str) -> tuple[str, ...]:
    """Every value sent with a request that must never be shown: the key, the URL's password, credential
    headers (with and without their ``Bearer`` prefix)."""
    found = [api_key] if api_key else []
    password = urlsplit(url).password
    if password:
        found.append(password)
    for name, value in headers.items():
        if any(word in name.lower() for word in _SECRET_HEADER_WORDS) and len(value) >= 8:
            found.append(value)
            found.append(value.removeprefix("Bearer ").strip())
    return tuple(found)
