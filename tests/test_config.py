"""Settings: precedence, checks with one-line messages, and secrets that never show."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from analytics_agent.config import (
    OPENAI_URL,
    Secret,
    config_path,
    load_config_file,
    resolve_settings,
)
from analytics_agent.errors import ConfigError
from analytics_agent.workspace.provider_factory import make_provider


def test_flags_beat_env_which_beats_the_config_file() -> None:
    file = {"model": "from-file", "base_url": "http://localhost:1/v1", "max_steps": 5}
    env = {"LLM_MODEL": "from-env", "OPENAI_BASE_URL": "http://127.0.0.1:2/v1"}
    settings = resolve_settings({"model": "from-flag", "max_steps": None}, env=env, file=file)
    assert settings.model == "from-flag"
    assert settings.base_url == "http://127.0.0.1:2/v1"
    assert settings.max_steps == 5
    assert resolve_settings({}, env=env, file=file).model == "from-env"
    assert resolve_settings({}, env={}, file=file).model == "from-file"


def test_llm_variables_win_over_openai_variables_and_analytics_agent_model_over_llm_model() -> None:
    env = {
        "LLM_BASE_URL": "http://localhost:8080/v1",
        "OPENAI_BASE_URL": "http://localhost:9090/v1",
        "LLM_API_KEY": "k-llm",
        "OPENAI_API_KEY": "k-openai",
        "ANALYTICS_AGENT_MODEL": "a",
        "LLM_MODEL": "b",
    }
    settings = resolve_settings({}, env=env, file={})
    assert settings.base_url == "http://localhost:8080/v1"
    assert settings.api_key == Secret("k-llm")
    assert settings.model == "a"


def test_defaults_when_nothing_is_configured() -> None:
    settings = resolve_settings({}, env={}, file={})
    assert settings.model is None
    assert settings.provider == "openai"
    assert settings.base_url == OPENAI_URL
    assert (settings.max_steps, settings.max_tokens_budget) == (8, 100_000)


def test_openai_url_without_a_key_is_one_clear_line_but_a_local_server_needs_none() -> None:
    with pytest.raises(ConfigError, match=r"needs an API key.*--api-key"):
        resolve_settings({"model": "gpt-4o-mini"}, env={}, file={})
    local = resolve_settings({"model": "qwen3", "base_url": "http://localhost:11434/v1"}, env={}, file={})
    assert local.api_key is None


def test_pasted_chat_completions_path_and_trailing_slash_are_trimmed() -> None:
    settings = resolve_settings(
        {"model": "m", "base_url": "http://127.0.0.1:8000/v1/chat/completions/"}, env={}, file={}
    )
    assert settings.base_url == "http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"provider": "gemini"}, "--provider must be one of openai, bedrock"),
        ({"base_url": "localhost:11434"}, "--base-url must be an http"),
        ({"max_steps": 0}, "--max-steps must be at least 1"),
        ({"max_tokens_budget": -5}, "--max-tokens-budget must be a whole number"),
        ({"read_timeout": 0}, "--read-timeout must be a number of seconds"),
        ({"today": "24/10/2026"}, "--today must be a date as YYYY-MM-DD"),
        ({"timezone": "Mars/Olympus"}, "--timezone 'Mars/Olympus' is not a known time zone"),
    ],
)
def test_bad_settings_give_one_line_naming_the_setting(flags: dict, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        resolve_settings(flags, env={}, file={})
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_today_and_timezone_are_parsed() -> None:
    settings = resolve_settings({"today": "2026-10-25", "timezone": "Asia/Kolkata"}, env={}, file={})
    assert settings.today == dt.date(2026, 10, 25)
    assert settings.timezone == "Asia/Kolkata"


def test_api_key_never_appears_in_the_settings_repr() -> None:
    settings = resolve_settings({"model": "m", "api_key": "sk-very-secret-123"}, env={}, file={})
    assert "sk-very-secret-123" not in repr(settings)
    assert "sk-very-secret-123" not in f"{settings.api_key}"
    assert settings.secrets == ("sk-very-secret-123",)


def test_config_file_is_read_from_the_user_config_dir(isolated_user_env: Path) -> None:
    path = config_path()
    assert str(path).startswith(str(isolated_user_env))
    path.parent.mkdir(parents=True)
    path.write_text(
        'model = "llama3.2"\nbase_url = "http://localhost:11434/v1"\ntools_dir = ["~/t"]\nmax_steps = 4\n',
        encoding="utf-8",
    )
    assert load_config_file()["model"] == "llama3.2"
    settings = resolve_settings({}, env={})
    assert (settings.model, settings.max_steps) == ("llama3.2", 4)
    assert settings.tools_dirs == (isolated_user_env / "t",)


def test_missing_config_file_is_empty(tmp_path: Path) -> None:
    assert load_config_file(tmp_path / "none.toml") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("model = ", "not valid TOML"),
        ('modle = "x"', "unknown key 'modle'; did you mean 'model'?"),
        ('max_steps = "8"', "max_steps must be an integer, not '8'"),
        ("max_steps = true", "max_steps must be an integer"),
    ],
)
def test_bad_config_file_names_the_file_and_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_provider_factory_refuses_without_a_model_and_points_to_the_demo() -> None:
    with pytest.raises(ConfigError, match="analytics-agent demo"):
        make_provider(resolve_settings({}, env={}, file={}))


def test_a_bad_base_url_is_named_without_its_credentials() -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_settings(
            {"base_url": "ftp://alice:pa55word-9f8e@example.com/v1", "model": "m"}, env={}, file={}
        )
    assert "pa55word-9f8e" not in str(caught.value) and "example.com" in str(caught.value)


def test_url_credentials_are_among_the_settings_secrets() -> None:
    settings = resolve_settings({"base_url": "http://alice:pa55word-9f8e@localhost:8080/v1"}, env={}, file={})
    assert "pa55word-9f8e" in settings.secrets


def test_the_output_cap_comes_from_flag_env_or_file_and_reaches_the_provider() -> None:
    local = {"model": "m", "base_url": "http://127.0.0.1:8080/v1", "tool_mode": "native"}
    env = {"ANALYTICS_AGENT_MAX_TOKENS": " 1024 "}
    assert resolve_settings(local, env={}, file={"max_tokens": 2048}).max_tokens == 2048
    assert resolve_settings(local, env=env, file={"max_tokens": 2048}).max_tokens == 1024
    assert resolve_settings({**local, "max_tokens": 0}, env=env, file={}).max_tokens == 0
    unset = resolve_settings(local, env={}, file={})
    assert make_provider(unset).options.max_tokens == 4096  # type: ignore[attr-defined]
    chosen = resolve_settings(local, env=env, file={})
    assert make_provider(chosen).options.max_tokens == 1024  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "env, file, message",
    [
        ({"ANALYTICS_AGENT_MAX_TOKENS": "lots"}, {}, "ANALYTICS_AGENT_MAX_TOKENS must be a whole number"),
        ({}, {"max_tokens": -1}, "--max-tokens must be a whole number"),
    ],
)
def test_a_bad_output_cap_is_one_line_naming_where_it_came_from(env: dict, file: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        resolve_settings({"model": "m", "base_url": "http://127.0.0.1:1/v1"}, env=env, file=file)
