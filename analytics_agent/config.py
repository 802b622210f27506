"""Settings for asking a model: flags > environment > config file > defaults.

Config file: ``paths.config_dir() / "config.toml"`` (``~/.config/analytics-agent/config.toml`` on Linux),
read with the standard library's ``tomllib``. Keys (all optional, top level):

    provider = "openai"              # openai | bedrock
    base_url = "http://localhost:11434/v1"
    model = "qwen3:8b"
    api_key = "sk-..."               # prefer the environment for secrets
    region = "us-east-1"             # bedrock
    profile = "default"              # bedrock (an AWS profile name)
    timezone = "Asia/Kolkata"        # IANA name; "yesterday" resolves in this zone
    max_steps = 8                    # model requests per question
    max_tokens_budget = 100000       # input tokens per question
    max_tokens = 4096                # output tokens per reply (bedrock: only when set; 0: no cap)
    connect_timeout = 10.0           # seconds [default: the provider's own]
    read_timeout = 120.0             # seconds [default: the provider's own; 120 openai, 3600 bedrock]
    request_deadline = 900.0         # seconds for one model request, retries included
    max_retries = 3                  # retries of transient failures [default: the provider's own]
    tools_dir = ["~/my-tools"]       # folders of extra .sql tools (a string or a list)
    tool_mode = "auto"               # native | text | auto: how tools are offered (see README)

Environment: ``LLM_BASE_URL`` / ``LLM_API_KEY`` / ``LLM_MODEL`` (this tool's own, checked first), then
``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``; ``ANALYTICS_AGENT_MODEL`` names the model before ``LLM_MODEL``;
``ANALYTICS_AGENT_MAX_TOKENS`` sets ``max_tokens``.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from analytics_agent.errors import ConfigError
from analytics_agent.paths import config_path
from analytics_agent.suggest import did_you_mean
from analytics_agent.zones import business_zone_from as business_zone_from  # its old home
from analytics_agent.zones import check_timezone

PROVIDERS = ("openai", "bedrock")
TOOL_MODES = ("native", "text", "auto")
"""native: the server's tool calling; text: tools in the prompt, calls in the reply text; auto: native
until the server says the model has no tool calling, then text (remembered per endpoint and model)."""
OPENAI_URL = "https://api.openai.com/v1"
# Hosted endpoints that always want a key: a missing one is a configuration error, not a 401 later.
_KEY_REQUIRED_HOSTS = ("api.openai.com", "openrouter.ai")
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")

_KEY_TYPES: dict[str, tuple[type, ...]] = {
    "provider": (str,),
    "base_url": (str,),
    "model": (str,),
    "api_key": (str,),
    "region": (str,),
    "profile": (str,),
    "timezone": (str,),
    "max_steps": (int,),
    "max_tokens_budget": (int,),
    "max_tokens": (int,),
    "connect_timeout": (int, float),
    "read_timeout": (int, float),
    "request_deadline": (int, float),
    "max_retries": (int,),
    "tools_dir": (str, list),
    "tool_mode": (str,),
}
KNOWN_KEYS = tuple(_KEY_TYPES)

_ENV: dict[str, tuple[str, ...]] = {
    "base_url": ("LLM_BASE_URL", "OPENAI_BASE_URL"),
    "api_key": ("LLM_API_KEY", "OPENAI_API_KEY"),
    "model": ("ANALYTICS_AGENT_MODEL", "LLM_MODEL"),
    "max_tokens": ("ANALYTICS_AGENT_MAX_TOKENS",),
}
_ENV_INTS = ("max_tokens",)

_DEFAULTS: dict[str, Any] = {
    "provider": "openai",
    "max_steps": 8,
    "max_tokens_budget": 100_000,
    "tool_mode": "auto",
}


class Secret:
    """A credential that never shows itself in a repr, an f-string or a log line."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class Settings:
    """Everything needed to reach a model and bound a question. ``model`` is None when none is configured."""

    provider: str = "openai"
    model: str | None = None
    base_url: str = OPENAI_URL
    api_key: Secret | None = field(default=None, repr=False)
    region: str | None = None
    profile: str | None = None
    timezone: str | None = None
    today: dt.date | None = None
    max_steps: int = 8
    max_tokens_budget: int = 100_000
    max_tokens: int | None = None
    """Output tokens per reply. None: the provider's default (4096 openai, the model's own bedrock); 0: none."""
    connect_timeout: float | None = None
    """None: the provider's own default (each provider knows what suits its endpoint)."""
    read_timeout: float | None = None
    request_deadline: float | None = None
    """None: the default of ``providers.limits`` (900 s)."""
    max_retries: int | None = None
    tools_dirs: tuple[Path, ...] = ()
    tool_mode: str = "auto"

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never be written anywhere (the transcript redacts them)."""
        password = urlsplit(self.base_url).password  # http://user:password@host/v1
        return tuple(s for s in (self.api_key.reveal() if self.api_key else "", password) if s)


def load_config_file(path: Path | None = None) -> dict[str, Any]:
    """The config file as a dict of known, type-checked keys ({} when there is no file).

    Raises:
        ConfigError: naming the file and the problem (TOML syntax, unknown key, wrong type).
    """
    path = path or config_path()
    if not path.exists():  # the usual case: no file, no TOML parser to import
        return {}
    import tomllib

    from analytics_agent.small_files import read_small_text

    try:
        data = tomllib.loads(read_small_text(path))
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise ConfigError(f"{path}: not valid TOML: values nest too deeply") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    for key, value in data.items():
        if key not in _KEY_TYPES:
            raise ConfigError(
                f"{path}: unknown key {key!r}{did_you_mean(key, KNOWN_KEYS)}; known keys: {', '.join(KNOWN_KEYS)}"
            )
        allowed = _KEY_TYPES[key]
        if not isinstance(value, allowed) or isinstance(value, bool):
            wanted = " or ".join(_TYPE_WORDS[t] for t in allowed)
            raise ConfigError(f"{path}: {key} must be {wanted}, not {value!r}")
    return data


_TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", list: "a list of strings"}


def resolve_settings(
    flags: Mapping[str, Any],
    *,
    env: Mapping[str, str] | None = None,
    file: Mapping[str, Any] | None = None,
) -> Settings:
    """Merge flags (None = not given), environment and config file over the defaults, then check them.

    Args:
        flags: keys as in the config file plus ``today`` (a YYYY-MM-DD string); None means "not given".
        env: the environment (``os.environ`` when omitted).
        file: the config file's dict (``load_config_file()`` when omitted).

    Raises:
        ConfigError: one line saying which setting is wrong and what to write instead.
    """
    env = os.environ if env is None else env
    file = load_config_file() if file is None else file
    merged: dict[str, Any] = dict(_DEFAULTS)
    merged.update({k: v for k, v in file.items() if v is not None})
    for key, names in _ENV.items():
        value = next((env[n] for n in names if env.get(n, "").strip()), None)
        if value is not None:
            merged[key] = _env_int(names, value) if key in _ENV_INTS else value.strip()
    merged.update({k: v for k, v in flags.items() if v is not None})
    return _check(merged)


def _check(values: dict[str, Any]) -> Settings:
    provider = str(values["provider"]).lower()
    if provider not in PROVIDERS:
        raise ConfigError(f"--provider must be one of {', '.join(PROVIDERS)}, not {values['provider']!r}")
    base_url = normalise_base_url(values.get("base_url") or OPENAI_URL)
    api_key = values.get("api_key") or None
    model = (values.get("model") or "").strip() or None
    if provider == "openai" and model and not api_key and needs_key(base_url):
        raise ConfigError(
            f"{base_url} needs an API key: pass --api-key or set OPENAI_API_KEY (local servers need none)"
        )
    timezone = values.get("timezone") or None
    if timezone:
        check_timezone(timezone)
    return Settings(
        provider=provider,
        model=model,
        base_url=base_url,
        api_key=Secret(api_key) if api_key else None,
        region=values.get("region"),
        profile=values.get("profile"),
        timezone=timezone,
        today=_parse_today(values.get("today")),
        max_steps=_positive_int("max_steps", values["max_steps"]),
        max_tokens_budget=_positive_int("max_tokens_budget", values["max_tokens_budget"]),
        max_tokens=_optional(_non_negative_int, "max_tokens", values),
        connect_timeout=_optional(_positive_float, "connect_timeout", values),
        read_timeout=_optional(_positive_float, "read_timeout", values),
        request_deadline=_optional(_positive_float, "request_deadline", values),
        max_retries=_optional(_non_negative_int, "max_retries", values),
        tools_dirs=_tools_dirs(values.get("tools_dir")),
        tool_mode=_tool_mode(values["tool_mode"]),
    )


def _env_int(names: tuple[str, ...], value: str) -> int:
    try:
        return int(value.strip())
    except ValueError:
        raise ConfigError(f"{names[0]} must be a whole number, not {value.strip()!r}") from None


def _tool_mode(value: Any) -> str:
    mode = str(value).strip().lower()
    if mode not in TOOL_MODES:
        raise ConfigError(f"--tool-mode must be one of {', '.join(TOOL_MODES)}, not {value!r}")
    return mode


def normalise_base_url(url: str) -> str:
    """``http(s)://host[:port]/path`` without a trailing slash or a pasted ``/chat/completions``."""
    text = str(url).strip().rstrip("/")
    if text.endswith("/chat/completions"):
        text = text[: -len("/chat/completions")]
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        shown = parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1]).geturl()  # never user:password@
        raise ConfigError(
            f"--base-url must be an http(s) URL such as http://localhost:11434/v1, not {shown!r}"
        )
    return text


def needs_key(base_url: str) -> bool:
    host = (urlsplit(base_url).hostname or "").lower()
    if host in _LOCAL_HOSTS:
        return False
    return any(host == h or host.endswith("." + h) for h in _KEY_REQUIRED_HOSTS)


def _parse_today(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise ConfigError(f"--today must be a date as YYYY-MM-DD, not {value!r}") from None


def _optional(check: Any, name: str, values: dict[str, Any]) -> Any:
    value = values.get(name)
    return None if value is None else check(name, value)


def _positive_int(name: str, value: Any) -> int:
    number = _non_negative_int(name, value)
    if number < 1:
        raise ConfigError(f"{_flag(name)} must be at least 1, not {value!r}")
    return number


def _non_negative_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{_flag(name)} must be a whole number ≥ 0, not {value!r}")
    return value


MAX_SECONDS = 1_000_000.0
"""The longest timeout or deadline (11.6 days): ``inf`` or 1e10 s overflowed the timer thread that enforces
a deadline (a traceback on every ask), and ``nan`` compares false with everything, so no bound held."""


def _positive_float(name: str, value: Any) -> float:
    ok = not isinstance(value, bool) and isinstance(value, int | float) and 0 < value <= MAX_SECONDS
    if not ok:  # nan fails every comparison, so it is refused here too
        raise ConfigError(
            f"{_flag(name)} must be a number of seconds > 0 and at most {MAX_SECONDS:,.0f}, not {value!r}"
        )
    return float(value)


def _tools_dirs(value: Any) -> tuple[Path, ...]:
    if not value:
        return ()
    items = [value] if isinstance(value, str) else value
    if not all(isinstance(v, str) for v in items):
        raise ConfigError(f"tools_dir must be a folder path or a list of them, not {value!r}")
    return tuple(Path(v).expanduser() for v in items)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")
