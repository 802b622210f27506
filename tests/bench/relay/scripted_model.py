"""A tiny scripted "model" for checking the relay end to end: answers every pending request.

First request of a question: a ``describe_table`` call on the table the question's words suggest;
afterwards: a final text quoting the last tool result. Stops after ``--max`` replies.

    python -m tests.bench.relay.scripted_model --dir /tmp/relay
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any


def reply_for(body: dict[str, Any]) -> dict[str, Any]:
    messages = body["messages"]
    tools = {t["function"]["name"] for t in body.get("tools", [])}
    if not any(m["role"] == "tool" for m in messages) and "describe_table" in tools:
        question = next(m["content"] for m in reversed(messages) if m["role"] == "user").lower()
        table = "superstore"
        if any(w in question for w in ("rain", "weather", "temperature", "wind")):
            table = "seattle_weather"
        elif any(w in question for w in ("marriage", "divorce")):
            table = "us_marriages_divorces"
        return {"tool_calls": [{"name": "describe_table", "arguments": {"table": table}}]}
    last = next(m for m in reversed(messages) if m["role"] == "tool")
    return {"content": "Scripted answer; the table has these columns: " + str(last["content"])[:300]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--max", type=int, default=100, help="stop after this many replies")
    args = parser.parse_args(argv)
    pending = args.dir / "pending"
    answered = 0
    while answered < args.max:
        for request in sorted(pending.glob("*.request.json")):
            reply = pending / request.name.replace(".request.", ".reply.")
            if reply.exists():
                continue
            reply.write_text(json.dumps(reply_for(json.loads(request.read_text()))))
            answered += 1
        time.sleep(0.3)


if __name__ == "__main__":
    main()
