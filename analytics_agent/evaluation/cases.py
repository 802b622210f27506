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

A YAML file may instead be a mapping that also names its own data, so it runs anywhere without setup::

    load:                                    # loaded into a fresh database before the run
      - ../tests/data/real/flights.csv       # relative to the question file; table name from the file
      - {path: exports/a.csv, table: airlines}
      - {path: exports/b.csv, skip: 3, drop_totals: true}  # any option of `load`, named as in Python
    timezone: America/New_York               # the business zone aggregate buckets timestamps in
    cases:
      - id: ...
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError, field_validator

from analytics_agent.bounded_yaml import YamlTooLarge, check_yaml_bounds, read_bounded
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


class DataFile(BaseModel):
    """One file of a question file's ``load`` list; ``path`` is relative to the question file. The other
    keys are the options of ``analytics-agent load``, named as ``Workspace.load`` names them
    (``skip_bad_rows: true``, ``types: {amount: VARCHAR}``, ``date_format: [day=%d/%m/%Y]``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    path: str = Field(min_length=1)
    table: str | None = None
    delimiter: str | None = None
    header: bool | None = None
    date_format: str | list[str] | None = None
    types: dict[str, str] | None = None
    thousands: str | None = None
    decimal: str | None = None
    encoding: str | None = None
    null: list[str] | None = None
    skip_bad_rows: bool = False
    allow_empty: bool = False
    pad_short_rows: bool = False
    comment: str | None = None
    skip: int | None = Field(default=None, ge=0)
    quote: str | None = None
    escape: str | None = None
    newline: str | None = None
    max_line_size: int | None = Field(default=None, gt=0)
    drop_totals: bool = False
    negative: str | None = None
    keep_label_rows: bool = False
    plain_header: bool = False
    keep_blank_labels: bool = False

    def load_options(self) -> dict[str, Any]:
        """The options given, as ``db.load.options.load_options`` takes them (the table apart)."""
        return {k: v for k, v in self.model_dump(exclude={"path", "table"}, exclude_defaults=True).items()}


class DataSpec(BaseModel):
    """What a question file runs on when it names its own data (empty ``load``: the user's database)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    load: list[DataFile] = Field(default_factory=list)
    timezone: str = "UTC"

    @field_validator("load", mode="before")
    @classmethod
    def _paths_or_mappings(cls, value: Any) -> Any:
        items = [value] if isinstance(value, str) else value
        return [{"path": v} if isinstance(v, str) else v for v in items] if isinstance(items, list) else items

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}; use an IANA name like America/New_York") from None
        return value


@dataclass(frozen=True)
class QuestionFile:
    path: Path
    cases: list[Case]
    data: DataSpec = field(default_factory=DataSpec)
    sql_lines: dict[str, int] = field(default_factory=dict)
    """The line of each case's ``sql`` by case id, for errors that name where to fix it."""

    def data_paths(self) -> list[tuple[list[str], str | None]]:
        """The files to load, resolved against the question file's folder, with their table names.

        A question file may come from anyone, so what it loads stays inside its own folder, symlinks
        resolved (an absolute path, ``..`` or a link out of it would hand any file the user can read to
        the model and the stored run): globs are expanded here and every match is checked. The bundled
        sets' folder is the package's data folder.

        Raises:
            EvalFileError: a path or a glob's match leads outside that folder, or a glob matches nothing.
        """
        from analytics_agent.evaluation.load_paths import default_table, files_inside

        root = _data_root(self.path)
        return [
            (files_inside(self.path, root, entry.path), entry.table or default_table(entry.path))
            for entry in self.data.load
        ]


def _data_root(path: Path) -> Path:
    folder = path.parent.resolve()
    bundled = evals_dir().resolve()
    return bundled.parent if folder == bundled else folder


def bundled_file() -> Path:
    return evals_dir() / BUNDLED_SET


def bundled_sets() -> list[str]:
    """The names of the shipped question sets (``retail``, ``real_exports``)."""
    return sorted(p.stem for p in evals_dir().glob("*.yaml"))


def resolve_question_file(file: Path | None) -> Path:
    """The file to run: ``file`` itself, the bundled set of that name (``real_exports``, which works
    from an installed package too), or the default set."""
    if file is None:
        return bundled_file()
    if not file.exists() and not file.suffix and file.name == str(file):
        bundled = evals_dir() / f"{file.name}.yaml"
        if bundled.is_file():
            return bundled
        known = ", ".join(bundled_sets())
        hint = did_you_mean(file.name, bundled_sets())
        raise EvalFileError(f"{file}: no such question file, nor a bundled set ({known}){hint}")
    return file


def load_cases(path: Path) -> list[Case]:
    """The cases of a ``.jsonl``, ``.yaml`` or ``.yml`` file (see ``read_question_file``)."""
    return read_question_file(path).cases


def read_question_file(path: Path) -> QuestionFile:
    """The cases of a ``.jsonl``, ``.yaml`` or ``.yml`` file, and the data it names (YAML only).

    Raises:
        EvalFileError: naming the file, the line and what to fix (unreadable, bad syntax, an unknown or
            wrong key, a duplicate id, a case that says nothing about the answer, no cases at all).
    """
    try:
        text = read_bounded(path)
    except YamlTooLarge as exc:
        raise EvalFileError(f"{path}: not loaded: {exc}") from None
    except FileNotFoundError:
        raise EvalFileError(f"{path}: no such question file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalFileError(f"{path}: cannot be read: {exc}") from None
    suffix = path.suffix.lower()
    header: dict[str, Any] = {}
    if suffix == ".jsonl":
        items = _jsonl_items(path, text)
        sql_lines = [line for line, _ in items]
    elif suffix in (".yaml", ".yml"):
        items, header, sql_lines = _yaml_items(path, text)
    else:
        raise EvalFileError(f"{path}: a question file is .jsonl, .yaml or .yml, not {suffix or 'no suffix'}")
    data = _data_spec(path, header)
    cases = [_case(path, line, item) for line, item in items]
    if not cases:
        raise EvalFileError(f"{path}: holds no cases")
    _check_unique(path, cases, [line for line, _ in items])
    found = {case.id: line for case, line in zip(cases, sql_lines, strict=True) if case.sql}
    return QuestionFile(path, cases, data, sql_lines=found)


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
        except RecursionError:  # json's decoder recurses once per bracket
            raise EvalFileError(f"{path}:{number}: nests deeper than a question needs; not loaded") from None
    return items


def _yaml_items(path: Path, text: str) -> tuple[list[tuple[int, Any]], dict[str, Any], list[int]]:
    """The list items with the line each starts on, the other top-level keys when the cases are under a
    ``cases:`` key, and the line of each item's ``sql`` (its start when it has none)."""
    try:
        check_yaml_bounds(text)
    except YamlTooLarge as exc:
        where = f":{exc.line}" if exc.line else ""
        raise EvalFileError(f"{path}{where}: not loaded: {exc}") from None
    try:
        fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # safe_load's semantics, in C when it can
        data = yaml.load(text, Loader=fast)
        root = yaml.compose(text, Loader=fast)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise EvalFileError(f"{path}{where}: not valid YAML: {problem}") from None
    header: dict[str, Any] = {}
    if isinstance(data, dict) and "cases" in data:
        header = {k: v for k, v in data.items() if k != "cases"}
        data = data["cases"]
        root = next(v for k, v in root.value if k.value == "cases") if root is not None else None
    if data is None:
        return [], header, []
    if not isinstance(data, list):
        raise EvalFileError(
            f"{path}: expected a list of cases (each starting with '- id: ...'), or a mapping with "
            "'cases' (and optionally 'load' and 'timezone')"
        )
    nodes = root.value if root is not None else []
    lines = [node.start_mark.line + 1 for node in nodes]
    return list(zip(lines, data, strict=True)), header, [_key_line(node, "sql") for node in nodes]


def _key_line(node: Any, key: str) -> int:
    """The line a mapping node's ``key`` value starts on (the node's own line when it has no such key)."""
    if isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            if getattr(name, "value", None) == key:
                # a block scalar (``sql: |``) starts on the indicator's line; its text on the next
                block = isinstance(value, yaml.ScalarNode) and value.style in ("|", ">")
                return int(value.start_mark.line) + 1 + int(block)
    return int(node.start_mark.line) + 1


def _data_spec(path: Path, header: dict[str, Any]) -> DataSpec:
    try:
        return DataSpec.model_validate(header)
    except ValidationError as exc:
        errors = exc.errors()
        error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        where = ".".join(str(p) for p in error["loc"]) or "file"
        if error["type"] == "extra_forbidden" and len(error["loc"]) == 1:
            hint = did_you_mean(where, ["cases", "load", "timezone"])
            raise EvalFileError(f"{path}: unknown top-level key {where!r}{hint}") from None
        if error["type"] == "extra_forbidden":
            entry, key = ".".join(str(p) for p in error["loc"][:-1]), str(error["loc"][-1])
            known = [k for k in DataFile.model_fields if k != "path"]
            hint = did_you_mean(key.replace("-", "_"), known) or (
                " (an entry is a path, or a path with table and the options of load, named as in Python: "
                "skip_bad_rows, drop_totals, ...)"
            )
            if key.replace("-", "_") in known:
                hint = f"; write it {key.replace('-', '_')!r}"
            raise EvalFileError(f"{path}: {entry}: unknown key {key!r}{hint}") from None
        message = error["msg"].removeprefix("Value error, ")
        raise EvalFileError(f"{path}: {where}: {message}") from None


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
