"""Tell connected clients that the tools or the tables changed, in both protocol eras.

Clients on the handshake protocol (2024-11-05 .. 2025-11-25, what most desktop clients speak) get
``notifications/tools/list_changed`` on their connection; we remember each connection's session when its
``notifications/initialized`` arrives. Clients on 2026-07-28 only receive change events on a
``subscriptions/listen`` stream they opened, which the SDK's ``ListenHandler`` serves from our bus.
"""

from __future__ import annotations

import collections
import logging
from typing import Any

import mcp_types as types
from mcp.server import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ResourcesListChanged,
    ToolsListChanged,
)

log = logging.getLogger(__name__)
# Sessions of closed connections cannot be told apart (a send to one is dropped quietly), so keep the
# most recent ones only: enough for every client one person runs at once.
MAX_SESSIONS = 64


class Notifier:
    def __init__(self) -> None:
        self.bus = InMemorySubscriptionBus()
        self.listen_handler = ListenHandler(self.bus)
        self._sessions: collections.deque[ServerSession] = collections.deque(maxlen=MAX_SESSIONS)

    async def on_initialized(self, ctx: ServerRequestContext[Any], params: types.NotificationParams) -> None:
        self._sessions.append(ctx.session)

    async def tools_changed(self) -> None:
        log.info("the tools changed; telling clients")
        await self.bus.publish(ToolsListChanged())
        for session in list(self._sessions):
            await session.send_tool_list_changed()

    async def resources_changed(self) -> None:
        await self.bus.publish(ResourcesListChanged())
        for session in list(self._sessions):
            await session.send_resource_list_changed()
