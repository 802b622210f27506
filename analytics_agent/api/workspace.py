"""``aa.open()``: one database, its tools and a model, driven from Python.

The database file is opened (sandboxed, read-only) for each call and let go after it, as the MCP server
does (``workspace.live``), so ``load`` here or ``analytics-agent load`` in a terminal can write between
calls, and the tools are rebuilt when the file changed.
"""

from __future__ import annotations

import builtins
import json
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analytics_agent.api.pythonic import python_words, speaks_python
from analytics_agent.api.results import Answer, Loaded, Result
from analytics_agent.errors import ConfigError, DatabaseError, LoadError, ToolError
from analytics_agent.workspace.live import LiveWorkspace
from analytics_agent.workspace.workspace import Workspace as CoreWorkspace

if TYPE_CHECKING:
    from analytics_agent.agent.events import AgentResult
    from analytics_agent.db.load.run import LoadSummary
    from analytics_agent.present.results import ResultLog
    from analytics_agent.workspace.remote import RemoteWorkspace

NO_MODEL = (
    "no model configured: pass model= (and base_url= for a local server, e.g. "
    "model='qwen3:8b', base_url='http://localhost:11434/v1') or set ANALYTICS_AGENT_MODEL and "
    "OPENAI_BASE_URL/OPENAI_API_KEY"
)


@speaks_python
def open(
    path: str | Path | None = None,
    *,
    timezone: str | None = None,
    tools_dir: str | Path | Iterable[str | Path] = (),
    allow_sql: bool = False,
    sources: bool = True,
) -> Workspace:
    """Open a database as the command line's ``--db`` does (created on first use).

    Args:
        path: the DuckDB file; None means the default database (``ANALYTICS_AGENT_DB``, else the one in
            the data folder, which holds the sample data).
        timezone: the business time zone ``aggregate`` buckets timestamps in (default: the config file's
            ``timezone``, else the machine's).
        tools_dir: folders of your own ``.sql`` tools, as ``--tools-dir``.
        allow_sql: give ``run_sql`` (one read-only SELECT), as ``--allow-sql``.
        sources: include the data sources configured in ``sources.toml`` (``--no-sources`` is False).

    Raises:
        DatabaseError: the file cannot be opened or created.
        ConfigError: the time zone is not an IANA name.
    """
    return Workspace(path, timezone=timezone, tools_dir=tools_dir, allow_sql=allow_sql, sources=sources)


class Workspace:
    """One database with its tools; see ``analytics_agent.open``."""

    @speaks_python
    def __init__(
        self,
        path: str | Path | None = None,
        *,
        timezone: str | None = None,
        tools_dir: str | Path | Iterable[str | Path] = (),
        allow_sql: bool = False,
        sources: bool = True,
    ) -> None:
        from analytics_agent.db.linked.store import read_sources
        from analytics_agent.paths import builtin_db_path, default_db_path

        self.path = Path(path).expanduser() if path is not None else default_db_path()
        if self.path.is_dir():
            raise DatabaseError(f"{self.path} is a folder; open() takes a database file path")
        self._sample = self.path.absolute() == builtin_db_path().absolute()
        self.timezone = business_zone(timezone)
        folders = [tools_dir] if isinstance(tools_dir, str | Path) else list(tools_dir)
        self._live = LiveWorkspace(
            self.path,
            tool_dirs=tuple(Path(f).expanduser() for f in folders),
            allow_sql=allow_sql,
            sources=read_sources() if sources else (),
            sample_data=self._sample,
            timezone=self.timezone,
        )
        self.created = self._live.created
        """True when this call created the database file."""
        self._live.close()  # hold the file only while working: a terminal may load into it meanwhile
        for problem in self._live.problems:
            warnings.warn(python_words(str(problem)), stacklevel=2)

    # --- data ---------------------------------------------------------------------------------------

    @speaks_python
    def tables(self) -> Result:
        """The tables, with their row and column counts (the ``list_tables`` tool)."""
        return self.call("list_tables", {})

    @speaks_python
    def describe(self, table: str) -> Result:
        """One table's columns: type, nulls, range and common values (the ``describe_table`` tool)."""
        return self.call("describe_table", {"table": table})

    @speaks_python
    def tools(self) -> list[str]:
        """The names of the tools a model can call on this database."""
        with self._using() as ws:
            return list(ws.registry.names)

    @speaks_python
    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> Result:
        """Run one tool with no model, as ``analytics-agent tools call``: the same validation, sandbox and
        limits. Raises ToolError with the message a model would read when the call fails."""
        args: Any = dict(arguments) if isinstance(arguments, Mapping) else arguments
        with self._using() as ws:
            outcome = ws.executor.execute(name, args)
        if outcome.is_error:  # the model reads "Error: ..."; an exception's message needs no label
            raise ToolError(outcome.text.removeprefix("Error: "))
        return Result.from_text(
            name,
            outcome.arguments,
            outcome.text,
            sql=outcome.sql,
            params=outcome.params,
            truncated=outcome.truncated,
        )

    @speaks_python
    def load(
        self,
        *paths: str | Path,
        table: str | None = None,
        replace: bool = False,
        append: bool = False,
        delimiter: str | None = None,
        header: bool | None = None,
        date_format: str | Sequence[str] | None = None,
        types: Mapping[str, str] | None = None,
        thousands: str | None = None,
        decimal: str | None = None,
        encoding: str | None = None,
        null: Iterable[str] | None = None,
        skip_bad_rows: bool = False,
        allow_empty: bool = False,
        pad_short_rows: bool = False,
        comment: str | None = None,
        skip: int | None = None,
        quote: str | None = None,
        escape: str | None = None,
        newline: str | None = None,
        max_line_size: int | None = None,
        drop_totals: bool = False,
        negative: str | None = None,
        keep_label_rows: bool = False,
        plain_header: bool = False,
        keep_blank_labels: bool = False,
        timezone: str | None = None,
    ) -> Loaded:
        """Load CSV or Parquet files into one table, all or nothing, as ``analytics-agent load`` (the same
        options, named as the flags; ``date_format`` may also be a list of ``COLUMN=FORMAT`` items).
        Returns what was stored: the table, its rows and columns, and the notes the command line prints
        (odd values, renamed columns, skipped records).

        ``timezone`` sets the database's business time zone (kept in its semantic file, as ``load
        --timezone``): days and months of zoned timestamps are counted in it from then on.

        Raises:
            LoadError: the file cannot be loaded as it is (the database is unchanged); the message says
                which option reads it.
        """
        flags = {k: v for k, v in locals().items() if k not in ("self", "paths", "timezone", "types")}
        from analytics_agent.db.load.options import load_options
        from analytics_agent.db.load.run import load_files
        from analytics_agent.tools.semantic.zone_file import load_with_zone

        if not paths:
            raise LoadError("load() needs at least one file path")

        def run() -> LoadSummary:
            options = load_options(**flags, types=dict(types or {}))
            self._live.close()  # a write needs the file to itself
            return load_files(self.path, [str(p) for p in paths], options, sample_data=self._sample)

        summary, unset = load_with_zone(self.path, timezone, run, flag="timezone")
        if unset is not None:
            raise unset
        return Loaded.of(summary, words=python_words)

    # --- asking -------------------------------------------------------------------------------------

    @speaks_python
    def ask(
        self,
        question: str,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        provider: str | None = None,
        region: str | None = None,
        profile: str | None = None,
        today: str | None = None,
        max_steps: int | None = None,
        max_tokens_budget: int | None = None,
        max_tokens: int | None = None,
        read_timeout: float | None = None,
        request_deadline: float | None = None,
        max_retries: int | None = None,
        tool_mode: str | None = None,
        transcript: str | Path | None = None,
        progress: Callable[[str], None] | bool | None = None,
    ) -> Answer:
        """Ask one question, as ``analytics-agent ask``: the same settings (arguments win over the
        environment, which wins over the config file), loop, limits and number check.

        ``transcript``: a JSON Lines file to record the question in (none by default).

        ``progress``: each step as it happens, in the command line's trace lines (``[step 1] asking ...``,
        then one line per tool call with its arguments, rows and time). A function gets each line
        (``progress=print``, or a notebook widget's append); True prints them to stderr, which a notebook
        shows under the cell as they come.

        Raises:
            ConfigError: no model configured, or a setting is wrong.
            ProviderError: the endpoint failed (its subclasses say how).
            DatabaseError: the database has no table to answer from.
        """
        settings = model_settings({
            "model": model,
            "base_url": base_url,
            "api_key": api_key,
            "provider": provider,
            "region": region,
            "profile": profile,
            "timezone": self.timezone,
            "today": today,
            "max_steps": max_steps,
            "max_tokens_budget": max_tokens_budget,
            "max_tokens": max_tokens,
            "read_timeout": read_timeout,
            "request_deadline": request_deadline,
            "max_retries": max_retries,
            "tool_mode": tool_mode,
        })  # fmt: skip
        with self._using() as ws:
            if not self._live.tables:
                raise DatabaseError(f"{self.path} has no tables yet; load one first: ws.load('FILE.csv')")
            return _ask_once(ws, question, settings, transcript, _progress_line(progress))

    # --- lifetime -----------------------------------------------------------------------------------

    def close(self) -> None:
        self._live.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<analytics_agent.Workspace {self.path}>"

    @contextmanager
    def _using(self) -> Iterator[CoreWorkspace]:
        """The open workspace for one operation; the file is let go when it ends."""
        try:
            with self._live.use() as ws:
                yield ws
        finally:
            self._live.close()


def business_zone(flag: str | None) -> str:
    """The argument, the config file's ``timezone``, else the machine's zone, else UTC (as the CLI)."""
    from analytics_agent.config import load_config_file
    from analytics_agent.zones import business_zone_from, local_zone_name

    configured = None
    if not flag:
        try:
            configured = load_config_file().get("timezone")
        except ConfigError as exc:
            warnings.warn(f"{exc} (config file ignored)", stacklevel=3)
    return business_zone_from(flag, configured, local_zone_name())


def _progress_line(progress: Callable[[str], None] | bool | None) -> Callable[[str], None] | None:
    if progress is None or progress is False:
        return None
    if progress is True:
        return lambda line: print(python_words(line), file=sys.stderr, flush=True)
    if not callable(progress):
        raise ConfigError(f"progress must be a function that takes one line, or True; got {progress!r}")
    report = progress
    return lambda line: report(python_words(line))


def model_settings(flags: dict[str, Any]) -> Any:
    """The settings an ask runs with (arguments over the environment over the config file); no model is
    a ConfigError. Shared by a local workspace's ``ask`` and a team server's."""
    from analytics_agent.config import resolve_settings

    settings = resolve_settings(flags)
    if not settings.model:
        raise ConfigError(NO_MODEL)
    return settings


def _ask_once(
    ws: CoreWorkspace | RemoteWorkspace,
    question: str,
    settings: Any,
    transcript: str | Path | None,
    progress: Callable[[str], None] | None,
) -> Answer:
    """One question through a provider and wiring of its own, both closed whatever happens."""
    from analytics_agent.workspace.provider_factory import make_provider
    from analytics_agent.workspace.session import build

    model_provider = make_provider(settings, stream=False)
    writer = _transcript(transcript, settings, model_provider)
    wiring = build(ws, model_provider, settings, trace=progress, transcript=writer, stream_to=None)
    try:
        result = wiring.agent.ask(question)
    finally:
        wiring.close()
        close = getattr(model_provider, "close", None)
        if callable(close):
            close()
    return _answer(result, wiring.results)


def _answer(result: AgentResult, log: ResultLog) -> Answer:
    """What ``ask`` returns: the answer, each call's result as the model read it, and the run's facts."""
    from analytics_agent.present.trace import answer_caveat

    calls = [
        Result.from_text(
            c.name, _arguments(c.arguments), c.content, sql=c.sql, params=c.params, truncated=c.truncated
        )
        for c in log.calls
    ]
    return Answer(
        text=_answer_text(result),
        calls=calls,
        unverified_numbers=list(result.unverified_numbers),
        usage=result.usage.as_dict(),
        steps=result.steps,
        stop=result.stop,
        errors=[r.error for r in result.tool_calls if r.is_error and r.error],
        caveat=answer_caveat(result),
    )


def _answer_text(result: AgentResult) -> str:
    """The answer in the API's words where the words are ours: a stop sentence (``max_steps=``), or the
    note under a cut-off answer; the model's own text is left as it wrote it."""
    from analytics_agent.agent.loop import CUT_OFF_NOTE

    if result.stop != "answer":
        return python_words(result.answer)
    if result.answer.endswith(CUT_OFF_NOTE):
        return result.answer.removesuffix(CUT_OFF_NOTE) + python_words(CUT_OFF_NOTE)
    return result.answer


def _arguments(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _transcript(path: str | Path | None, settings: Any, model_provider: Any) -> Any:
    if path is None:
        return None
    from analytics_agent.present.transcript import Transcript

    provider_secrets = getattr(model_provider, "secrets", None) or tuple

    def secrets() -> builtins.tuple[str, ...]:
        return (*settings.secrets, *provider_secrets())

    return Transcript(
        Path(path).expanduser(), secrets=secrets, warn=lambda message: warnings.warn(message, stacklevel=4)
    )
