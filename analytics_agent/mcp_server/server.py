"""The MCP server object: the SDK's low-level ``Server`` wired to a ``LiveWorkspace``.

The low-level server advertises the registry's own JSON Schemas exactly and validates nothing; the
executor validates every call as it does for every provider. Tool calls run in worker threads (DuckDB
blocks), so the event loop keeps serving while a query runs. A watcher in the server's lifespan closes
the database when idle (so ``load`` from another terminal gets in) and, when the file changed, tells
clients that the tools and tables changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import anyio
import mcp_types as types
from mcp.server import NotificationOptions, Server, ServerRequestContext
from mcp.server.models import InitializationOptions
from mcp.shared.exceptions import MCPError

from analytics_agent.agent.prompt import resolve_today, system_prompt
from analytics_agent.db.catalog import list_tables
from analytics_agent.mcp_server import render
from analytics_agent.mcp_server.gate import Busy, CallGate, client_name, who
from analytics_agent.mcp_server.notify import Notifier
from analytics_agent.mcp_server.signin import ActAsSignedIn
from analytics_agent.mcp_server.wire import INSTRUCTIONS, SERVER_NAME, server_version
from analytics_agent.team import audit
from analytics_agent.team.principal import current
from analytics_agent.tools.executor import ToolOutcome
from analytics_agent.workspace.live import LiveWorkspace

log = logging.getLogger(__name__)
CATALOG_READS = frozenset({"list_tables", "describe_table"})
"""Tools that read the catalog and stored profiles, never a table's rows: quick, so never queued."""
DEFAULT_POLL_S = 0.5


class _Server(Server[dict[str, Any]]):
    """Advertises ``listChanged`` for tools and resources on every transport (the HTTP session manager
    asks the server for its options instead of taking them from the caller)."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        changes = notification_options or NotificationOptions(tools_changed=True, resources_changed=True)
        return super().create_initialization_options(changes, experimental_capabilities, extensions)


class Handlers:
    """The request handlers, over one live workspace."""

    def __init__(
        self,
        live: LiveWorkspace,
        *,
        timezone: str | None = None,
        gate: CallGate | None = None,
        trail: audit.AuditLog | None = None,
    ) -> None:
        self.live = live
        self.timezone = timezone
        self.gate = gate or CallGate()
        self.trail = trail
        self._listed: tuple[object, types.ListToolsResult] | None = None

    async def list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        registry = self.live.registry
        if self._listed is None or self._listed[0] is not registry:  # rendered once per registry
            self._listed = (registry, render.list_tools_result(registry))
        return self._listed[1]

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name, arguments = params.name, params.arguments
        try:
            outcome = await self._run(ctx, "tools/call", name, arguments, quick=name in CATALOG_READS)
        except Busy as exc:
            return types.CallToolResult(content=[types.TextContent(text=str(exc))], is_error=True)
        tool = self.live.registry.get(params.name)
        return render.call_result(outcome, structured=tool is not None and tool.returns == "rows")

    async def list_resources(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
        return render.resources_result(self.live.tables)

    async def list_resource_templates(
        self, ctx: ServerRequestContext[Any], params: Any
    ) -> types.ListResourceTemplatesResult:
        return render.resource_templates_result()

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        """The same JSON the ``list_tables`` and ``describe_table`` tools return."""
        uri = str(params.uri)
        table = render.table_from_uri(uri)
        if uri == render.TABLES_URI:
            name, arguments = "list_tables", {}
        elif table is not None and table in self.live.tables:
            name, arguments = "describe_table", {"table": table}
        else:
            known = ", ".join(self.live.tables)
            raise MCPError(types.INVALID_PARAMS, f"no resource {uri!r}; tables: {known}")
        try:
            outcome = await self._run(ctx, "resources/read", name, arguments, quick=True)
        except Busy as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from None
        if outcome.is_error:
            raise MCPError(types.INTERNAL_ERROR, outcome.text)
        return render.resource_result(uri, outcome.text)

    async def _run(
        self, ctx: Any, kind: str, name: str, arguments: dict[str, Any] | None, *, quick: bool
    ) -> ToolOutcome:
        """One call in its caller's turn, and its line in the audit trail however it ends.

        Raises:
            Busy: the gate turned the call away (recorded as refused).
        """
        principal = current()
        started = time.perf_counter()
        try:
            outcome = await self.gate.run(
                who(principal, ctx), lambda: self.live.execute(name, arguments), quick=quick
            )
        except Busy as exc:
            self._record(ctx, kind, name, arguments, started, reason=str(exc))
            raise
        self._record(ctx, kind, name, arguments, started, outcome=outcome)
        return outcome

    def _record(
        self,
        ctx: Any,
        kind: str,
        name: str,
        arguments: dict[str, Any] | None,
        started: float,
        *,
        outcome: ToolOutcome | None = None,
        reason: str = "",
    ) -> None:
        if self.trail is None:
            return
        duration_ms = (time.perf_counter() - started) * 1000
        if outcome is None:
            call = audit.Call(name, arguments, audit.REFUSED, duration_ms, reason=reason, kind=kind)
        else:
            call = audit.Call(
                name,
                arguments,
                audit.ERROR if outcome.is_error else audit.OK,
                duration_ms,
                sql=outcome.sql,
                rows=outcome.rows,
                bytes=len(outcome.text.encode("utf-8", "replace")),
                reason=outcome.text if outcome.is_error else "",
                kind=kind,
            )
        principal = current()
        if not principal.client:
            principal = replace(principal, client=client_name(ctx))
        self.trail.write(call, principal)

    async def list_prompts(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return render.prompts_result()

    async def get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name != render.PROMPT_NAME:
            raise MCPError(types.INVALID_PARAMS, f"no prompt {params.name!r}; prompts: {render.PROMPT_NAME}")
        guidance = await anyio.to_thread.run_sync(self._guidance)
        return render.prompt_result(guidance, params.arguments)

    def _guidance(self) -> str:
        today, zone = resolve_today(timezone=self.timezone, today=None)
        with self.live.use() as ws:
            cursor = ws.cursor()
            try:
                tables = list_tables(cursor, self.live.visible())  # only what the asker sees
            finally:
                cursor.close()
        return system_prompt(tables, today=today, timezone=zone, charts=False)


def build_server(
    live: LiveWorkspace,
    *,
    timezone: str | None = None,
    poll_s: float = DEFAULT_POLL_S,
    gate: CallGate | None = None,
    trail: audit.AuditLog | None = None,
) -> Server[dict[str, Any]]:
    """The server for ``live``; any transport (stdio, Streamable HTTP, the SDK's in-memory client) runs it.

    ``gate`` (fair turns, limits; shared with the HTTP app's shutdown) and ``trail`` (the audit trail, one
    line per tool call or resource read) are the caller's when given."""
    handlers = Handlers(live, timezone=timezone, gate=gate, trail=trail)
    notifier = Notifier()

    @asynccontextmanager
    async def lifespan(_: Server[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_watch, live, notifier, poll_s)
            yield {}
            tasks.cancel_scope.cancel()

    server = _Server(
        SERVER_NAME,
        version=server_version(),
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
        on_list_prompts=handlers.list_prompts,
        on_get_prompt=handlers.get_prompt,
        on_subscriptions_listen=notifier.listen_handler,
    )
    server.add_notification_handler(
        "notifications/initialized", types.NotificationParams, notifier.on_initialized
    )
    server.middleware.append(ActAsSignedIn())  # every handler runs as the request's signed-in principal
    return server


async def _watch(live: LiveWorkspace, notifier: Notifier, poll_s: float) -> None:
    """Let go of the idle database, and tell clients when another process changed it."""
    while True:
        await anyio.sleep(poll_s)
        try:
            change = await anyio.to_thread.run_sync(live.tick)
            if change.tools:
                await notifier.tools_changed()
            if change.tables:
                await notifier.resources_changed()
        except Exception:  # a watcher that dies would lock the user out of their file; log and go on
            log.exception("checking the database for changes failed")
