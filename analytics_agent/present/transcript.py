"""Every question as JSON Lines: the question, each reply, each tool call with its SQL, timings, usage.

Default file: ``paths.data_dir() / "transcripts" / "<YYYY-MM-DD>.jsonl"`` (one file a day, appended).
Credentials never reach it: settings keep keys out of events, and every line is scrubbed of the known
secrets (read afresh per line: a provider's resolved credentials may change) before it is written.

Bounded: each text field keeps at most ``MAX_FIELD_CHARS`` characters (a 50 MB argument is recorded
as its start and its size), and a tool call's arguments are stored once. Private: created 0600.
A transcript that cannot be opened or written (a full disk) is warned about once and then skipped:
it never stops an answer.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import uuid
from collections.abc import Callable, Iterable
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
from analytics_agent.paths import data_dir, open_private_log
from analytics_agent.present.trace import answer_caveat

REDACTED = "[redacted]"
MAX_FIELD_CHARS = 20_000
Secrets = Iterable[str] | Callable[[], Iterable[str]]


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
            **record.as_dict(),  # the arguments once: parsed, or as sent when they are not JSON
            "sql": record.sql,
            "truncated": record.truncated,
            **({"content": event.content} if event.content != record.error else {}),
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
            "caveat": answer_caveat(result),
        }
    return None


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        if secret and len(secret) >= 4:  # a one-letter "secret" would shred the whole line
            text = text.replace(secret, REDACTED)
    return text


def clip(value: Any) -> Any:
    """``value`` with every string longer than ``MAX_FIELD_CHARS`` cut, saying how long it was (pure)."""
    if isinstance(value, str):
        if len(value) <= MAX_FIELD_CHARS:
            return value
        return f"{value[:MAX_FIELD_CHARS]}… [cut: {len(value):,} characters in all]"
    if isinstance(value, dict):
        return {key: clip(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clip(item) for item in value]
    return value


class Transcript:
    """An event sink appending one JSON line per event; a new ``question_id`` per question.

    Args:
        path: the JSON Lines file (appended; created 0600).
        secrets: values never to write, or a function returning them (asked per line).
        warn: told once, in one line, when the file cannot be opened or written; the transcript is
            then skipped and the question goes on.
    """

    def __init__(
        self, path: Path, *, secrets: Secrets = (), warn: Callable[[str], None] | None = None
    ) -> None:
        self.path = path
        self._secrets = secrets if callable(secrets) else tuple(secrets)
        self._warn = warn or (lambda message: None)
        self._question_id = ""
        self._file: IO[str] | None = None
        try:
            self._file = open_private_log(path)
        except OSError as exc:
            self._fail(exc)

    @property
    def working(self) -> bool:
        """False once the file could not be opened or written."""
        return self._file is not None

    def __call__(self, event: Event) -> None:
        record = event_record(event)
        if record is None:
            return
        if isinstance(event, QuestionAsked):
            self._question_id = uuid.uuid4().hex[:12]
        self.write(record)

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (with time and question id) and flush, so a crash loses nothing."""
        if self._file is None:
            return
        stamped = {
            "ts": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "question_id": self._question_id,
        }
        line = json.dumps(clip({**stamped, **record}), ensure_ascii=False, default=str)
        secrets = self._secrets() if callable(self._secrets) else self._secrets
        try:
            self._file.write(redact(line, secrets) + "\n")
            self._file.flush()
        except OSError as exc:
            self._fail(exc)

    def error(self, message: str) -> None:
        """Record why a question ended without an answer (a provider error, an interrupt)."""
        self.write({"type": "error", "message": message})

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:  # the last flush can meet a full disk too
                self._fail(exc)
            self._file = None

    def _fail(self, exc: OSError) -> None:
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):  # its buffer cannot be written either; the warning says so
                file.close()
        self._warn(f"cannot write the transcript {self.path}: {exc.strerror or exc}; going on without it")
