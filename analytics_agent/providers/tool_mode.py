"""``--tool-mode native|text|auto``: which way a provider offers the tools, and the remembered choice.

* ``native``: the server's own tool calling (``tools`` in the request), as is.
* ``text``: ``TextToolsProvider``, the tools in the prompt and the calls in the reply text.
* ``auto`` (the default): native, until the server says the model cannot call tools (``refusals``); then
  the same request goes again in text mode, the session stays in text mode, and the choice is remembered
  for this endpoint and model in ``ToolModeMemory``, so the next question does not pay for the failed
  request. A remembered choice is forgotten when ``--tool-mode native`` is used for that endpoint and model,
  and ``analytics-agent modes forget`` forgets any (``modes list`` shows them).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from analytics_agent import bounded_json
from analytics_agent.conversation import Conversation, ModelResponse
from analytics_agent.errors import ConfigError, ProviderError
from analytics_agent.providers.base import Provider, TextSink, ToolPayloads
from analytics_agent.providers.refusals import refuses_tools
from analytics_agent.providers.text.mode import TextToolsProvider
from analytics_agent.small_files import read_small

log = logging.getLogger(__name__)

ToolMode = Literal["native", "text", "auto"]
TOOL_MODES: tuple[str, ...] = ("native", "text", "auto")
SWITCH_NOTICE = (
    "the server does not support tool calling for this model ({reason}); using the text protocol, "
    "remembered for {key} (--tool-mode native to try native again)"
)


class ToolModeMemory:
    """The tool mode chosen per endpoint and model: a small JSON file in the data folder.

    A file that cannot be read or written only costs the memory (logged); it never fails a question.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def get(self, key: str) -> str | None:
        entry = self._load().get(key)
        return entry.get("mode") if isinstance(entry, dict) else None

    def remember(self, key: str, mode: str, reason: str) -> None:
        entries = self._load()
        entries[key] = {
            "mode": mode,
            "reason": reason,
            "since": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        self._save(entries)

    def forget(self, key: str) -> None:
        entries = self._load()
        if entries.pop(key, None) is not None:
            self._save(entries)

    def entries(self) -> dict[str, dict[str, Any]]:
        """Every remembered choice: key -> {mode, reason, since} (``analytics-agent modes list``)."""
        return {k: v for k, v in self._load().items() if isinstance(v, dict)}

    def forget_matching(self, text: str = "") -> dict[str, dict[str, Any]]:
        """Forget every choice whose key contains ``text`` (all of them for ""); the choices forgotten."""
        entries = self.entries()
        gone = {k: v for k, v in entries.items() if text in k}
        if gone:
            self._save({k: v for k, v in entries.items() if k not in gone})
        return gone

    def _load(self) -> dict[str, Any]:
        try:
            data = bounded_json.loads(read_small(self.path))  # no FIFO wait, no RecursionError
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s (%s); starting without remembered tool modes", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, entries: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tool_modes.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(entries, out, indent=1, sort_keys=True)
            os.replace(tmp, self.path)  # readers see the old file or the new one, never half of one
        except OSError as exc:
            log.warning("cannot remember the tool mode in %s: %s", self.path, exc)


class AutoToolMode:
    """Native tool calling first; text mode from the first "no tool support" refusal on.

    Args:
        inner: the provider.
        key: names the endpoint and model in the memory (e.g. ``http://host:11434/v1 qwen3:8b``).
        memory: where the choice is remembered; None to remember nothing.
    """

    def __init__(self, inner: Provider, *, key: str, memory: ToolModeMemory | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.key = key
        self.memory = memory
        self.text: TextToolsProvider | None = None

    def complete(
        self, conversation: Conversation, tools: ToolPayloads, *, on_text: TextSink | None = None
    ) -> ModelResponse:
        if self.text is not None:
            return self.text.complete(conversation, tools, on_text=on_text)
        try:
            return self.inner.complete(conversation, tools, on_text=on_text)
        except ProviderError as exc:
            if not len(tools) or not refuses_tools(exc):
                raise
            reason = str(exc)
        log.info("%s: no native tool calling (%s); switching to the text protocol", self.key, reason)
        if self.memory is not None:
            self.memory.remember(self.key, "text", reason)
        self.text = TextToolsProvider(self.inner, notice=SWITCH_NOTICE.format(reason=reason, key=self.key))
        return self.text.complete(conversation, tools, on_text=on_text)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


def with_tool_mode(inner: Provider, mode: str, *, key: str, memory: ToolModeMemory | None = None) -> Provider:
    """``inner`` offering tools the way ``mode`` says (see the module docstring).

    Raises:
        ConfigError: an unknown mode.
    """
    if mode == "native":
        if memory is not None:
            memory.forget(key)
        return inner
    if mode == "text":
        return TextToolsProvider(inner)
    if mode != "auto":
        raise ConfigError(f"unknown tool mode {mode!r}; use one of {', '.join(TOOL_MODES)}")
    if memory is not None and memory.get(key) == "text":
        return TextToolsProvider(inner)
    return AutoToolMode(inner, key=key, memory=memory)
