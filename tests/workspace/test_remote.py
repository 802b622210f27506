"""The remote runner's edges, with the SDK's own result types: whatever the server answers, the model reads
a result (never an exception), and nothing it sent is dropped unseen."""

from __future__ import annotations

import pytest

pytest.importorskip("mcp")

import mcp_types as types

from analytics_agent.workspace.remote import RemoteExecutor, read_token


class Portal:
    """Runs the call in place (the real one runs it on the client's event loop thread)."""

    def call(self, function, *args):
        return function(*args)


class Client:
    def __init__(self, answer) -> None:
        self.answer = answer
        self.calls = []

    def call_tool(self, name, arguments):
        self.calls.append((name, arguments))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_rows_are_counted_from_the_structured_table_and_json_text_arguments_are_decoded():
    table = {"columns": ["city", "orders"], "rows": [["Pune", 3], ["Delhi", 5]]}
    client = Client(types.CallToolResult(content=[types.TextContent(text="{...}")], structured_content=table))
    outcome = RemoteExecutor(Portal(), client).execute("city_ranking", '{"period": "2026-10"}')
    assert (outcome.is_error, outcome.rows, outcome.text) == (False, 2, "{...}")
    assert client.calls == [("city_ranking", {"period": "2026-10"})]


def test_content_that_is_not_text_is_an_error_the_model_reads_not_a_silent_gap():
    picture = types.ImageContent(data="aGk=", mime_type="image/png")
    outcome = RemoteExecutor(Portal(), Client(types.CallToolResult(content=[picture]))).execute("chart", {})
    assert (
        outcome.is_error
        and outcome.text == "Error: the team server answered chart with image content, not text"
    )


def test_a_server_that_goes_away_or_bad_arguments_never_raise():
    gone = RemoteExecutor(Portal(), Client(ConnectionError("connection reset"))).execute("list_tables", {})
    assert (
        gone.is_error and gone.text == "Error: the team server did not answer list_tables: connection reset"
    )
    client = Client(types.CallToolResult(content=[]))
    bad = RemoteExecutor(Portal(), client).execute("aggregate", "{not json")
    assert bad.is_error and "not JSON" in bad.text and client.calls == []


def test_the_token_comes_from_the_file_before_the_environment(tmp_path):
    token_file = tmp_path / "alice.token"
    token_file.write_text("aat_from-file\n")
    assert read_token(str(token_file), {"ANALYTICS_AGENT_TOKEN": "aat_from-env"}) == "aat_from-file"
    assert read_token(None, {"ANALYTICS_AGENT_TOKEN": " aat_from-env "}) == "aat_from-env"
    (tmp_path / "empty.token").write_text("\n")
    with pytest.raises(Exception, match="is empty"):
        read_token(str(tmp_path / "empty.token"), {})
