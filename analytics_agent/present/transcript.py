"""Every question as JSON Lines: the question, each reply, each tool call with its SQL, timings, usage.

Default file: ``paths.data_dir() / "transcripts" / "<YYYY-MM-DD>.jsonl"`` (one file a day, appended).
Credentials never reach it: settings keep keys out of events, and every line is scrubbed of the known
secrets before it is written, as a second guard.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from analytics_agent.agent.events import (
    Event,
    Finished,
    QuestionAsked,
    RequestSent,
    ResponseReceived,
    StepFailed,
    ToolFinished,
)
from analytics_agent.errors import ConfigError
from analytics_agent.paths import data_dir

REDACTED = "[redacted]"


def default_transcript_path(today: dt.date | None = None) -> Path:
    return data_dir() / "transcripts" / f"{(today or dt.date.today()).isoformat()}.jsonl"


def event_record(event: Event) -> dict[str, Any] | None:
    """The JSON-able record of one event (pure)."""
    if isinstance(event, QuestionAsked):
        return {
            "type": "question",
            "question": event.question,
            "provider": event.provider,
            "model": event.model,
            "system": event.system,
        }
    if isinstance(event, RequestSent):
        return {"type": "request", "step": event.step, "messages": event.messages}
    if isinstance(event, ResponseReceived):
        return {
            "type": "response",
            "step": event.step,
            "stop": event.stop,
            "text": event.text,
            "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in event.tool_calls],
            "usage": event.usage.as_dict(),
            "duration_ms": round(event.duration_ms, 1),
            **({"notice": event.notice} if event.notice else {}),
        }
    if isinstance(event, ToolFinished):
        record = event.record
        return {
            "type": "tool",
            **record.as_dict(),
            "arguments_text": record.arguments,
            "sql": record.sql,
            "truncated": record.truncated,
            "content": event.content,
            **({"repaired_from": record.repaired_from} if record.repaired_from else {}),
        }
    if isinstance(event, StepFailed):
        return {"type": "step_failed", "step": event.step, "reason": event.reason}
    if isinstance(event, Finished):
        result = event.result
        return {
            "type": "answer",
            "answer": result.answer,
            "steps": result.steps,
            "stop": result.stop,
            "tool_calls": len(result.tool_calls),
            "usage": result.usage.as_dict(),
            "unverified_numbers": list(result.unverified_numbers),
        }
    return None


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret and len(secret) >= 4:  # a one-letter "secret" would shred the whole line
            text = text.replace(secret, REDACTED)
    return text


class Transcript:
    """An event sink appending one JSON line per event; a new ``question_id`` per question.

    Raises:
        ConfigError: the file cannot be created or opened (names the path).
    """

    def __init__(self, path: Path, *, secrets: Iterable[str] = ()) -> None:
        self.path = path
        self._secrets = tuple(secrets)
        self._question_id = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write the transcript {path}: {exc.strerror or exc}") from None

    def __call__(self, event: Event) -> None:
        record = event_record(event)
        if record is None:
            return
        if isinstance(event, QuestionAsked):
            self._question_id = uuid.uuid4().hex[:12]
        self.write(record)

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (with time and question id) and flush, so a crash loses nothing."""
        stamped = {
            "ts": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "question_id": self._question_id,
        }
        line = json.dumps({**stamped, **record}, ensure_ascii=False, default=str)
        self._file.write(redact(line, self._secrets) + "\n")
        self._file.flush()

    def error(self, message: str) -> None:
        """Record why a question ended without an answer (a provider error, an interrupt)."""
        self.write({"type": "error", "message": message})

    def close(self) -> None:
        self._file.close()
