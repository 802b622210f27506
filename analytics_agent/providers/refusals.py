"""What a server's refusal says about our request. Pure functions of the status and the server's words.

* ``is_request_rejection``: the server could not take the request as sent. Every 4xx but 408/409/429,
  and a 500 whose body is a request validation error or a "no tool support" refusal: llama-cpp-python answers a body its pydantic model
  refuses with HTTP 500 (``... validation error ... Input should be a valid string``), llama.cpp's server
  with ``Expected 'content' to be a string or an array``, vLLM with mistral-common's validation errors
  (vllm-project/vllm#16774). Sending the same body again cannot help, so it is never retried.
* ``refuses_tools``: the endpoint or this model cannot do native tool calling at all; the text protocol
  (``providers.text_mode``) can still serve it. The messages, as the servers word them:

  - Ollama: ``registry.ollama.ai/library/gemma3:4b does not support tools`` (400; ollama/ollama#14795)
  - llama.cpp server: ``tools param requires --jinja flag``; older builds ``Unsupported param: tools``
  - vLLM: ``"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set``
    (vllm-project/vllm#9986)
  - Bedrock: ``This model doesn't support tool use.`` (ValidationException; the streaming-only variant is
    handled by the Bedrock provider, which falls back to Converse)
  - OpenRouter: ``No endpoints found that support tool use`` (404)
"""

from __future__ import annotations

import re

from analytics_agent.errors import ProviderError

_VALIDATION = re.compile(
    r"validation error|Input should be|Field required|Extra inputs are not permitted|"
    r"Expected '\w+' to be|Missing '\w+'|must contain either|must contain 'content'|"
    r"Invalid (assistant|user|tool|system) message|InvalidMessageStructure|"
    r"Not the same number of function calls and responses",
    re.IGNORECASE,
)
# One entry of a pydantic/FastAPI error list as str() prints it: {'type': 'string_type', 'loc': (...), 'msg': '...'
_PYDANTIC_ENTRY = re.compile(
    r"""\{'type': '(?P<type>\w+)', 'loc': \((?P<loc>[^)]*)\), 'msg': (?P<q>['"])(?P<msg>.*?)(?P=q)"""
)
_UNION_NOISE = ("literal_error", "missing")
"""Errors pydantic lists for the union members a message did not mean to be (wrong role, absent fields)."""
_NO_TOOLS = re.compile(
    r"(does not|doesn't|do not|don't) support (tools|tool use|tool calling|function calling)|"
    r"tools param requires --jinja|Unsupported param: tools|"
    r"tool choice requires --enable-auto-tool-choice|"
    r"No endpoints found that support tool use",
    re.IGNORECASE,
)


def is_request_rejection(status: int, message: str) -> bool:
    """Whether a failed response refuses the request itself (so retrying the same body is pointless).

    Args:
        status: the HTTP status.
        message: the server's own error text (``error.message`` or the body).
    """
    if 400 <= status < 500:
        return status not in (408, 409, 429)
    return status == 500 and bool(_VALIDATION.search(message) or _NO_TOOLS.search(message))


def refuses_tools(error: ProviderError) -> bool:
    """Whether ``error`` says the model or server has no native tool calling (so text mode may serve)."""
    if error.status is not None and error.status >= 500 and error.status != 500:
        return False  # an outage, whatever its page says
    return bool(_NO_TOOLS.search(str(error)))


def brief_validation(message: str) -> str:
    """A pydantic error list (``7 validation errors: {'type': ..., 'loc': ..., 'msg': ...} ...``) reduced to
    the one entry that names the problem; any other message unchanged.

    llama-cpp-python validates each message against a union of message types, so most entries only say
    "this is not a tool message"; the telling one is the entry that is not a literal/missing mismatch.
    """
    entries = list(_PYDANTIC_ENTRY.finditer(message))
    if not entries:
        return message
    telling = next((e for e in entries if e["type"] not in _UNION_NOISE), entries[0])
    where = ".".join(part.strip(" '\"") for part in telling["loc"].split(",") if part.strip())
    more = f" (and {len(entries) - 1} more validation errors)" if len(entries) > 1 else ""
    return f"request refused: {where}: {telling['msg']}{more}"
