"""Ctrl-C while the product is busy ends the process at once with one line (issue 24).

Before: Ctrl-C during 40 slow parallel tool calls printed "internal error (ResourceInUseException)"
(the workspace closed its connection while the calls' cursors still ran) and the process then waited
for those queries, which the stopped watchdog no longer interrupted: it did not exit. ``eval --jobs``
waited for every question still with the model, up to the request deadline each.

Each test runs the real CLI against a loopback server and sends SIGINT once the process shows it is
busy (its CPU time climbing while the tool calls run; the server holding every parallel question). The
timeouts are only a safety net so a regression fails instead of hanging; nothing asserts on time.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from loopback import LoopbackServer

CLI = [sys.executable, "-m", "analytics_agent"]
SAFETY_S = 120  # a broken build runs its queries for hours; a fixed one exits in well under a second
ENDLESS = "SELECT sum(i * {n}) FROM range(10000000000000) t(i)"  # 1e13 rows: runs until interrupted


def _chat(message: dict) -> bytes:
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    return json.dumps({"choices": [choice]}).encode()


def _start(args: list[str], server: LoopbackServer, home: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "LLM_BASE_URL": server.url + "/v1",
        "LLM_MODEL": "m",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
    }
    return subprocess.Popen(
        [*CLI, *args], cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime of all its threads


def _one_line_interrupted(proc: subprocess.Popen) -> None:
    try:
        _, err = proc.communicate(timeout=SAFETY_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"still running {SAFETY_S} s after Ctrl-C; stderr: {err[-800:]}") from None
    assert proc.returncode == 130, err[-1500:]
    assert "Traceback" not in err and "internal error" not in err, err[-1500:]
    assert err.splitlines()[-1] == "interrupted"


def test_ctrl_c_during_forty_slow_parallel_tool_calls_exits_at_once(sample_db, tmp_path):
    calls = [
        {"id": f"c{n}", "type": "function",
         "function": {"name": "run_sql", "arguments": json.dumps({"query": ENDLESS.format(n=n)})}}
        for n in range(40)
    ]  # fmt: skip
    reply = _chat({"role": "assistant", "content": None, "tool_calls": calls})
    with LoopbackServer(
        lambda path, headers, body: (200, {"content-type": "application/json"}, reply)
    ) as srv:
        proc = _start(
            ["--db", str(sample_db), "--allow-sql", "ask", "How did Pune do?", "--max-retries", "0"],
            srv,
            tmp_path,
        )
        assert proc.stderr is not None
        lines = []
        for line in proc.stderr:  # the trace says when the reply with its 40 calls arrived
            lines.append(line)
            if "40 tool calls" in line:
                break
        assert lines and "40 tool calls" in lines[-1], lines
        # busy: the calls' queries burn CPU (100 ticks = 1 s of CPU on Linux's USER_HZ)
        start = _cpu_ticks(proc.pid)
        done = threading.Event()
        while not done.wait(0.02) and _cpu_ticks(proc.pid) < start + 100:
            pass
        proc.send_signal(signal.SIGINT)
        _one_line_interrupted(proc)


def test_ctrl_c_during_eval_jobs_exits_without_waiting_for_the_model(sample_db, tmp_path):
    questions = tmp_path / "questions.yaml"
    questions.write_text(
        "".join(f"- id: q{n}\n  question: How many orders on day {n}?\n  expect: [{n}]\n" for n in range(8))
    )
    held = threading.Semaphore(0)
    release = threading.Event()

    def answer(path, headers, body):  # every question stays with the "model" until the test ends
        held.release()
        release.wait(SAFETY_S * 2)
        return 500, {"content-type": "application/json"}, b"{}"

    with LoopbackServer(answer) as srv:
        try:
            proc = _start(
                ["--db", str(sample_db), "eval", str(questions), "--jobs", "4", "--max-retries", "0"],
                srv,
                tmp_path,
            )
            for _ in range(4):  # busy: all four jobs are waiting on the model
                assert held.acquire(timeout=SAFETY_S)
            proc.send_signal(signal.SIGINT)
            _one_line_interrupted(proc)
        finally:
            release.set()
