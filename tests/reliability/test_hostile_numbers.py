"""Every numeric option, on the command line and in the Python API, refuses nan, inf and negatives in one
line (round three: ``--request-deadline inf`` printed a timer thread's traceback on every ask, ``--read-timeout
nan`` a ``ValueError``). The options are found from the commands' own signatures, so a new one is covered."""

from __future__ import annotations

import math
import typing
from pathlib import Path

import pytest
from typer.models import OptionInfo
from typer.testing import CliRunner

import analytics_agent as aa
from analytics_agent.cli.app import app
from analytics_agent.errors import AnalyticsAgentError, ConfigError


def _commands(typer_app, path=()):
    for info in typer_app.registered_commands:
        yield [*path, info.name or info.callback.__name__.replace("_", "-")], info.callback
    for group in typer_app.registered_groups:
        yield from _commands(group.typer_instance, [*path, group.name or group.typer_instance.info.name])


def _numeric_options() -> list[tuple[list[str], str, type]]:
    found = []
    for path, callback in _commands(app):
        for name, hint in typing.get_type_hints(callback, include_extras=True).items():
            if typing.get_origin(hint) is not typing.Annotated:
                continue
            base, *meta = typing.get_args(hint)
            option = next((m for m in meta if isinstance(m, OptionInfo)), None)
            kinds = [k for k in (typing.get_args(base) or (base,)) if k in (int, float)]
            if option is not None and kinds:
                declared = [option.default] if isinstance(option.default, str) else list(option.param_decls)
                flag = next(
                    iter(declared), "--" + name.replace("_", "-")
                )  # typer names it after the parameter
                found.append((path, flag, kinds[0]))
    return found


OPTIONS = _numeric_options()
_CSV = str(Path(__file__).resolve().parents[1] / "data" / "real" / "airlines.csv")  # a file that exists
REQUIRED = {"ask": ["How did Pune do?"], "sources": ["s", "--type", "files", "--path", _CSV]}
"""The arguments a command needs besides the option; a command missing here fails the check below."""


def test_the_options_found_are_the_ones_this_file_runs() -> None:
    floats = sorted({(" ".join(p), f) for p, f, k in OPTIONS if k is float})
    assert ("ask", "--request-deadline") in floats and ("eval", "--fail-under") in floats
    assert {p[0] for p, _, _ in OPTIONS} <= {"ask", "audit", "chat", "eval", "mcp", "sources"}, (
        "add the new command to REQUIRED"
    )


CASES = [
    (path, flag, value)
    for path, flag, kind in OPTIONS
    for value in (["nan", "inf", "-inf", "-1"] if kind is float else ["-1", "nan"])
]


@pytest.mark.parametrize(
    ("path", "flag", "value"), CASES, ids=[f"{' '.join(p)} {f}={v}" for p, f, v in CASES]
)
def test_every_numeric_option_refuses_nan_inf_and_negatives_in_one_line(
    isolated_user_env, path: list[str], flag: str, value: str
) -> None:
    env = {"COLUMNS": "200", "NO_COLOR": "1", "LLM_MODEL": "m", "LLM_BASE_URL": "http://127.0.0.1:9/v1"}
    result = CliRunner().invoke(app, [*path, f"{flag}={value}", *REQUIRED.get(path[0], [])], env=env)
    error = result.exception
    # a usage error is click's (exit 2); one of ours reaches the runner as the error the CLI's edge
    # prints in one line (``edge.guarded``)
    assert error is None or isinstance(error, SystemExit | AnalyticsAgentError), repr(error)
    ours = str(error) if isinstance(error, AnalyticsAgentError) else ""
    said = " ".join((result.stdout + result.stderr + ours).replace("│", " ").split())
    assert result.exit_code in (1, 2), said
    assert flag in said and "Traceback" not in said, said
    assert "\n" not in ours


@pytest.mark.parametrize("name", ["request_deadline", "read_timeout"])
@pytest.mark.parametrize("value", [math.inf, math.nan, -1.0, 1e10])
def test_the_python_api_refuses_the_same_numbers(sample_db: Path, name: str, value: float) -> None:
    with aa.open(sample_db) as ws, pytest.raises(ConfigError) as info:
        ws.ask("How did Pune do?", model="m", base_url="http://127.0.0.1:9/v1", **{name: value})
    assert "must be a number of seconds > 0 and at most 1,000,000" in str(info.value)
    assert "\n" not in str(info.value)
