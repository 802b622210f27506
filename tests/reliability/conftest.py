"""Fixtures shared by the reliability tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from loopback import LoopbackServer


@pytest.fixture
def serve() -> Iterator:
    servers: list[LoopbackServer] = []

    def start(answer) -> LoopbackServer:
        servers.append(LoopbackServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.close()
