"""``chat`` at a real terminal (a pty): after a provider error the spinner is gone before the prompt, and
a question typed while the answer was running is shown after the prompt and asked, not lost."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from loopback import LoopbackServer

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class Screen:
    """The child's terminal: what it wrote so far, and keystrokes sent to it."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.text = ""

    def read_until(self, needle: str, *, start: int = 0, limit_s: float = 60) -> int:
        """Read until ``needle`` appears after ``start``; its position. Fails if it has not come within
        ``limit_s`` (a guard against hanging, not a speed check)."""
        give_up = time.monotonic() + limit_s
        while (found := self.text.find(needle, start)) < 0:
            ready, _, _ = select.select([self.master], [], [], max(0.0, give_up - time.monotonic()))
            assert ready, f"{needle!r} never appeared; screen so far: {self.text[-600:]!r}"
            self.text += os.read(self.master, 65536).decode("utf-8", "replace")
        return found

    def read_for(self, seconds: float) -> None:
        """Whatever the child writes in the next ``seconds`` (a spinner would draw several frames)."""
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            self.text += os.read(self.master, 65536).decode("utf-8", "replace")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())


def test_after_a_provider_error_the_prompt_is_clean_and_the_typed_ahead_question_is_asked(
    sample_db: Path, tmp_path: Path
) -> None:
    asked = threading.Event()
    release = threading.Event()
    questions: list[str] = []

    def answer(path: str, headers: dict[str, str], body: bytes):
        request = json.loads(body)
        questions.append([m for m in request["messages"] if m["role"] == "user"][-1]["content"])
        if len(questions) == 1:
            asked.set()
            release.wait(60)
            return 400, {"content-type": "application/json"}, b'{"error": {"message": "model is loading"}}'
        reply = {"choices": [{"message": {"role": "assistant", "content": "fine"}, "finish_reason": "stop"}]}
        return 200, {"content-type": "application/json"}, json.dumps(reply).encode()

    server = LoopbackServer(answer)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "analytics_agent", "--db", str(sample_db), "chat", "--base-url",
         server.url + "/v1", "--model", "m1", "--api-key", "k", "--no-stream", "--max-retries", "0",
         "--transcript", str(tmp_path / "t.jsonl")],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    screen = Screen(master)
    try:
        screen.read_until("> ")
        screen.type("how many orders?\n")
        assert asked.wait(60)
        screen.read_until("waiting for openai:m1")  # the spinner is drawing
        screen.type("and by city")  # typed ahead, no Enter yet
        release.set()
        error_at = screen.read_until("model is loading")
        prompt_at = screen.read_until("> ", start=error_at)
        screen.read_for(1.0)  # ten spinner frames, if it were still turning
        after_prompt = screen.text[prompt_at:]
        assert not any(frame in after_prompt for frame in FRAMES), after_prompt
        assert "waiting for" not in after_prompt
        screen.read_until("and by city", start=prompt_at, limit_s=10)  # shown after the prompt, editable
        screen.type("?\n")
        screen.read_until("fine", start=prompt_at)
        assert questions[-1] == "and by city?"
        screen.type("/exit\n")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        server.close()
