"""Question files: JSON Lines or YAML, one case per line or list item, checked with one error per mistake.

A case holds the question and what a right answer contains::

    id: sales-pune-day                       # unique in the file
    question: How did Pune do on 2026-10-24?
    sql: SELECT count(*), sum(amount) ...    # every value of its result must appear in the answer
    expect: [4798, "Pune"]                   # numbers and/or strings that must appear
    expect_any: ["no data", "no orders"]     # at least one must appear
    forbid: [99999]                          # none may appear
    no_answer: true                          # the data cannot answer: say so, invent no number
    today: 2026-10-25                        # "yesterday" resolves from this day
    tolerance: 0.01                          # numbers may differ by 1 % (default: their written precision)
    tags: [sales_summary]
    calls: [{tool: sales_summary, arguments: {city: Pune, day: "2026-10-24"}}]  # reference; never sent

Every key but ``id`` and ``question`` is optional, but a case must say something about the answer.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError, field_validator

from analytics_agent.errors import EvalFileError
from analytics_agent.resources import evals_dir
from analytics_agent.suggest import did_you_mean

Value = StrictInt | StrictFloat | str
BUNDLED_SET = "retail.yaml"


class ReferenceCall(BaseModel):
    """A tool call that answers the case (for tests and readers; models never see it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    expect: list[Value] = Field(default_factory=list)
    sql: str | None = None
    expect_any: list[str] = Field(default_factory=list)
    forbid: list[Value] = Field(default_factory=list)
    no_answer: bool = False
    today: dt.date | None = None
    tolerance: float | None = Field(default=None, ge=0, le=1)
    tags: list[str] = Field(default_factory=list)
    calls: list[ReferenceCall] = Field(default_factory=list)

    @field_validator("expect", "forbid", "expect_any", "tags", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str | int | float) and not isinstance(value, bool) else value

    def says_what_is_right(self) -> bool:
        return bool(self.expect or self.sql or self.expect_any or self.forbid or self.no_answer)


def bundled_file() -> Path:
    return evals_dir() / BUNDLED_SET


def load_cases(path: Path) -> list[Case]:
    """The cases of a ``.jsonl``, ``.yaml`` or ``.yml`` file.

    Raises:
        EvalFileError: naming the file, the line and what to fix (unreadable, bad syntax, an unknown or
            wrong key, a duplicate id, a case that says nothing about the answer, no cases at all).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EvalFileError(f"{path}: no such question file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalFileError(f"{path}: cannot be read: {exc}") from None
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        items = _jsonl_items(path, text)
    elif suffix in (".yaml", ".yml"):
        items = _yaml_items(path, text)
    else:
        raise EvalFileError(f"{path}: a question file is .jsonl, .yaml or .yml, not {suffix or 'no suffix'}")
    cases = [_case(path, line, item) for line, item in items]
    if not cases:
        raise EvalFileError(f"{path}: holds no cases")
    _check_unique(path, cases, [line for line, _ in items])
    return cases


def select(cases: list[Case], only: Sequence[str]) -> list[Case]:
    """The cases whose id or one of whose tags is in ``only`` (all of them when it is empty).

    Raises:
        EvalFileError: a name in ``only`` matches no case (with the closest ids and tags).
    """
    if not only:
        return cases
    known = {c.id for c in cases} | {t for c in cases for t in c.tags}
    unknown = [name for name in only if name not in known]
    if unknown:
        hint = did_you_mean(unknown[0], sorted(known))
        raise EvalFileError(f"--only {unknown[0]!r} is no case id or tag in the file{hint}")
    wanted = set(only)
    return [c for c in cases if c.id in wanted or wanted & set(c.tags)]


def _jsonl_items(path: Path, text: str) -> list[tuple[int, Any]]:
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            items.append((number, json.loads(line)))
        except ValueError as exc:
            raise EvalFileError(f"{path}:{number}: not a JSON object: {exc}") from None
    return items


def _yaml_items(path: Path, text: str) -> list[tuple[int, Any]]:
    """The list items with the line each starts on (a top-level ``cases:`` key is accepted too)."""
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise EvalFileError(f"{path}{where}: not valid YAML: {problem}") from None
    if isinstance(data, dict) and set(data) == {"cases"}:
        data = data["cases"]
        root = next(v for k, v in root.value if k.value == "cases") if root is not None else None
    if data is None:
        return []
    if not isinstance(data, list):
        raise EvalFileError(f"{path}: expected a list of cases (each starting with '- id: ...')")
    lines = [node.start_mark.line + 1 for node in root.value] if root is not None else []
    return list(zip(lines, data, strict=True))


def _case(path: Path, line: int, item: Any) -> Case:
    if not isinstance(item, dict):
        raise EvalFileError(f"{path}:{line}: a case is a mapping with id and question, not {item!r}")
    name = f"case {item.get('id')!r}" if item.get("id") else "a case"
    try:
        case = Case.model_validate(item)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "case"
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        raise EvalFileError(f"{path}:{line}: {name}: {where}: {message}") from None
    if not case.says_what_is_right():
        raise EvalFileError(
            f"{path}:{line}: {name} says nothing about a right answer; give sql, expect, expect_any, "
            "forbid or no_answer"
        )
    return case


def _check_unique(path: Path, cases: list[Case], lines: list[int]) -> None:
    seen: dict[str, int] = {}
    for case, line in zip(cases, lines, strict=True):
        if case.id in seen:
            raise EvalFileError(f"{path}:{line}: case id {case.id!r} is also used on line {seen[case.id]}")
        seen[case.id] = line
