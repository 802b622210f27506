"""``OpenAIProvider``: any OpenAI-compatible ``/chat/completions`` endpoint over httpx.

Works with OpenAI, Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter and the like. Mapping lives
in ``wire`` (pure), the URL and its secrets in ``endpoint``, retries in ``http``; this class only sends,
streams and maps failures. The API key is sent per request (never stored in the client's default
headers) and is scrubbed from every error message; ``repr`` never shows it.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

import httpx

from analytics_agent.conversation import Conversation, ModelResponse
from analytics_agent.errors import (
    ConfigError,
    EmptyStreamError,
    ProviderError,
    ProviderResponseError,
    ProviderTimeoutError,
)
from analytics_agent.providers.base import TextSink, ToolPayloads
from analytics_agent.providers.http import (
    RETRYABLE_ERRORS,
    RetryPolicy,
    Sender,
    backoff_delay,
    is_local_host,
    parse_json,
    redacted,
    snippet,
)
from analytics_agent.providers.limits import (
    Deadline,
    ReplyLimits,
    bounded_chunks,
    bounded_lines,
    read_bounded,
)
from analytics_agent.providers.openai.endpoint import (
    basic_auth,
    chat_completions_url,
    display_host,
    request_secrets,
    without_userinfo,
)
from analytics_agent.providers.openai.sse import iter_events
from analytics_agent.providers.openai.stream import StreamAssembler
from analytics_agent.providers.openai.wire import (
    DEFAULT_MAX_TOKENS,
    RequestOptions,
    conversation_call_ids,
    max_tokens_field_for,
    parse_response,
    render_request,
)
from analytics_agent.providers.redaction import StreamRedactor, checked_reply
from analytics_agent.providers.reply_json import reading_reply

log = logging.getLogger(__name__)

# A timeout this close to the request deadline was the deadline cutting the read short, whatever the hint.
_DEADLINE_SLACK_S = 1.0


class OpenAIProvider:
    """An OpenAI-compatible chat-completions endpoint.

    Args:
        base_url: e.g. ``https://api.openai.com/v1`` or ``http://localhost:11434/v1``; a trailing
            ``/chat/completions`` is tolerated.
        model: the model name the server knows.
        api_key: sent as ``Authorization: Bearer``; omit for local servers.
        client: used as is (transport, proxy, CA bundle); otherwise one is made with the timeouts.
        stream: stream the reply (text reaches ``on_text`` as it arrives).
        connect_timeout: seconds to establish a connection.
        read_timeout: seconds to wait for the next bytes of a reply.
        max_retries: retries after the first attempt, for transient failures.
        max_retry_wait: longest server-requested wait honoured; beyond it the call fails at once.
        sleep: how to wait between attempts (injected by tests).
        extra_headers: added to every request (e.g. OpenRouter's ``HTTP-Referer``).
        max_tokens: the output-token cap sent with each request (``max_completion_tokens`` to OpenAI's
            own API, ``max_tokens`` elsewhere: llama-cpp-python and Ollama ignore the newer name); None
            or 0 sends none. Without a cap a local model can write for many minutes.
        options: optional request settings (temperature, strict tools, ...); a ``max_tokens`` set
            there wins over ``max_tokens``.
        limits: bounds on each reply: its size, one stream event's size, the request's deadline.
        on_stream_refused: told (with the reason) when the server closes a stream before any event;
            the request then goes again unstreamed, as do all later ones. Returns what the notice adds
            (e.g. where the choice is remembered).
    """

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        client: httpx.Client | None = None,
        stream: bool = False,
        connect_timeout: float = 10.0,
        read_timeout: float = 120.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        extra_headers: Mapping[str, object] | None = None,
        options: RequestOptions | None = None,
        limits: ReplyLimits | None = None,
        on_stream_refused: Callable[[str], str] | None = None,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError(
                "no model name given for the OpenAI-compatible provider; pass one, e.g. gpt-4o-mini"
            )
        self.model = model
        full_url = chat_completions_url(base_url)
        # Credentials in the URL travel as a header, so the URL itself (logged by httpx at -v) has none.
        self.url = without_userinfo(full_url)
        self._basic_auth = basic_auth(full_url)
        self.host = display_host(self.url)
        self.where = f"OpenAI-compatible server at {self.host}"
        self.stream = stream
        self.stream_refused = False
        """Set once the server closed a stream before any event; later requests are not streamed."""
        self._on_stream_refused = on_stream_refused
        self._refusal_notice = ""
        options = options or RequestOptions()
        if options.max_tokens is None and max_tokens:
            options = replace(options, max_tokens=max_tokens, max_tokens_field=max_tokens_field_for(self.url))
        self.options = options
        self.local = is_local_host(urlsplit(self.url).hostname or "")
        """A server on this machine or network: a read timeout there is not retried (see ``Sender``)."""
        self._api_key = api_key or None
        self._extra_headers = {str(k): str(v) for k, v in (extra_headers or {}).items()}
        self.limits = limits or ReplyLimits()
        self._secrets = request_secrets(self._api_key, self._extra_headers, full_url) + (
            (self._basic_auth, self._basic_auth.removeprefix("Basic ")) if self._basic_auth else ()
        )
        self._owns_client = client is None
        self._client = client or httpx.Client(
            timeout=httpx.Timeout(read_timeout, connect=connect_timeout), follow_redirects=False
        )
        self._policy = RetryPolicy(max_retries=max(0, max_retries), max_wait=max_retry_wait)
        self._sleep = sleep

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"OpenAIProvider(url={self.url!r}, model={self.model!r}, stream={self.stream}, api_key={key})"

    def complete(
        self, conversation: Conversation, tools: ToolPayloads, *, on_text: TextSink | None = None
    ) -> ModelResponse:
        """Ask the model for its next turn. See ``providers.base`` for the guarantees.

        The whole request, retries included, ends by ``limits.deadline_s``; the reply is read in
        bounded chunks (``providers.limits``); text the server echoes a secret in never leaves.
        """
        body = render_request(self.model, conversation, tools, stream=self.stream, options=self.options)
        taken = conversation_call_ids(conversation)
        deadline = Deadline(self.limits.deadline_s, where=self.where)
        sender = Sender(
            self._client,
            where=self.where,
            policy=self._policy,
            sleep=deadline.sleeper(self._sleep),
            retry_read_timeouts=not self.local,
            timeout_hint=self._timeout_hint(),
        )
        build = lambda: self._request(body, deadline)  # noqa: E731 - one fresh request per attempt
        try:
            result = None
            fell_back = False
            if self.stream:
                shown = StreamRedactor(self._secrets, on_text) if on_text is not None else None
                try:
                    result = self._complete_streamed(build, sender, deadline, taken, shown)
                except EmptyStreamError as exc:
                    self._stop_streaming(str(exc))
                    fell_back = True
                    body = render_request(self.model, conversation, tools, stream=False, options=self.options)
                    build = lambda: self._request(body, deadline)  # noqa: E731
            if result is None:
                # After an empty stream the server may close the connection it kept alive (llama-cpp-python
                # does, right after its 200): the unstreamed request must not die on it.
                response, _ = sender.send_counted(build, stream=True, reopen_dropped=fell_back)
                try:
                    result = self._read_reply(response, deadline, taken)
                except httpx.HTTPError as exc:  # headers came, then the body broke off: one line
                    raise sender.no_response(exc, 0) from None
                finally:
                    response.close()
                if self.stream_refused and on_text is not None and result.turn.text:
                    shown = StreamRedactor(self._secrets, on_text)
                    shown.feed(result.turn.text)
                    shown.flush()
                if self._refusal_notice:
                    notice = "; ".join(n for n in (result.notice, self._refusal_notice) if n)
                    result, self._refusal_notice = replace(result, notice=notice), ""
            return checked_reply(result, secrets=self._secrets, where=self.where)
        except ProviderError as exc:
            if isinstance(exc, ProviderTimeoutError) and deadline.remaining() < _DEADLINE_SLACK_S:
                exc = deadline.error()  # the read timeout was cut to the deadline: the deadline ended it
            raise redacted(exc, self._secrets) from None

    def _timeout_hint(self) -> str:
        """What to change when the server takes too long: the read timeout, or a shorter reply."""
        read = self._client.timeout.read
        limit = f" (now {read:g} s)" if read is not None else ""
        cap = self.options.max_tokens
        shorter = f"lower --max-tokens (now {cap})" if cap else "set --max-tokens (no cap is sent now)"
        if self.local:
            return (
                "a local server works on one request at a time, so the same request was not sent again; "
                f"raise --read-timeout{limit} or {shorter}"
            )
        return f"raise --read-timeout{limit}, {shorter}, or try again"

    def _stop_streaming(self, reason: str) -> None:
        """The server cannot stream this request: ask without streaming from now on, and say so once."""
        log.info("%s; asking without streaming from now on", reason)
        self.stream = False
        self.stream_refused = True
        remembered = self._on_stream_refused(reason) if self._on_stream_refused is not None else ""
        self._refusal_notice = f"{reason}; asked again without streaming{remembered}"

    def secrets(self) -> tuple[str, ...]:
        """What must never be shown or written: the key, URL credentials, secret-looking headers."""
        return self._secrets

    def close(self) -> None:
        """Close the HTTP client if this provider made it (an injected one belongs to its owner)."""
        if self._owns_client:
            self._client.close()

    def __enter__(self) -> OpenAIProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals -------------------------------------------------------------------------------

    def _request(self, body: dict[str, Any], deadline: Deadline) -> httpx.Request:
        deadline.check()  # no new attempt after the deadline
        headers = {
            "Content-Type": "application/json",
            "Accept": "text/event-stream" if body.get("stream") else "application/json",
            **self._extra_headers,
        }
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        elif self._basic_auth:
            headers["Authorization"] = self._basic_auth
        return self._client.build_request(
            "POST",
            self.url,
            headers=headers,
            content=json.dumps(body).encode(),
            timeout=_clamped(self._client.timeout, deadline),
        )

    def _read_reply(self, response: httpx.Response, deadline: Deadline, taken: set[str]) -> ModelResponse:
        """A whole JSON reply, read in bounded chunks."""
        with deadline.cut_off(_socket(response)):
            raw = read_bounded(response.iter_bytes(), limit=self.limits.max_reply_bytes, deadline=deadline)
        text = raw.decode(response.encoding or "utf-8", errors="replace")
        payload = parse_json(text)
        if payload is None:
            raise ProviderResponseError(
                f"{self.where} returned {response.status_code} with a body that is not JSON: {snippet(text)}",
                status=response.status_code,
            )
        with reading_reply(self.where):
            return parse_response(payload, taken_ids=taken, where=self.where)

    def _complete_streamed(
        self,
        build: Callable[[], httpx.Request],
        sender: Sender,
        deadline: Deadline,
        taken: set[str],
        shown: StreamRedactor | None,
    ) -> ModelResponse:
        """Stream one reply; restart only while nothing has arrived (text may already be on screen)."""
        retries = 0
        while True:
            response, retries = sender.send_counted(build, stream=True, retries_done=retries)
            assembler = StreamAssembler(taken_ids=taken, where=self.where)
            try:
                with deadline.cut_off(_socket(response)):
                    return self._assemble(response, deadline, taken, assembler, shown)
            except RETRYABLE_ERRORS as exc:
                if assembler.received or sender.gives_up_on(exc, retries):
                    raise sender.no_response(exc, retries) from None
                delay = backoff_delay(retries, self._policy, sender.rand())
                log.info("%s: stream failed before any data (%s); retrying in %.2f s", self.where, exc, delay)
            except httpx.HTTPError as exc:
                raise sender.no_response(exc, retries) from None
            finally:
                response.close()
            sender.sleep(delay)
            retries += 1

    def _assemble(
        self,
        response: httpx.Response,
        deadline: Deadline,
        taken: set[str],
        assembler: StreamAssembler,
        shown: StreamRedactor | None,
    ) -> ModelResponse:
        kind = response.headers.get("content-type", "").lower()
        if "json" in kind:  # a server that ignored ``stream: true`` and sent one JSON body
            result = self._read_reply(response, deadline, taken)
            if shown is not None and result.turn.text:
                shown.feed(result.turn.text)
                shown.flush()
            return result
        with reading_reply(self.where):
            for event in iter_events(self._lines(response, kind, deadline)):
                text = assembler.feed_event(event)
                if text and shown is not None:
                    shown.feed(text)
                if assembler.done:
                    break
            if shown is not None:
                shown.flush()
            return assembler.finish()

    def _lines(self, response: httpx.Response, kind: str, deadline: Deadline) -> Iterator[str]:
        """The event-stream lines; a body of another type must at least look like one (not a proxy page)."""
        chunks = bounded_chunks(response.iter_bytes(), limit=self.limits.max_reply_bytes, deadline=deadline)
        if not kind or "event-stream" in kind:
            yield from bounded_lines(chunks, max_event_bytes=self.limits.max_event_bytes, deadline=deadline)
            return
        text = b"".join(chunks).decode(response.encoding or "utf-8", errors="replace")
        if not re.search(r"^data:", text, re.MULTILINE):
            raise ProviderResponseError(
                f"{self.where} returned {response.status_code} ({kind}) instead of an event stream: "
                f"{snippet(text)}",
                status=response.status_code,
            )
        yield from text.splitlines()


def _socket(response: httpx.Response) -> Any:
    """The response's socket (to shut down at the deadline), when the transport has one."""
    stream = response.extensions.get("network_stream")
    return stream.get_extra_info("socket") if stream is not None else None


def _clamped(timeout: httpx.Timeout, deadline: Deadline) -> httpx.Timeout:
    """The client's timeouts, none longer than what is left of the deadline."""
    return httpx.Timeout(
        connect=deadline.clamp(timeout.connect),
        read=deadline.clamp(timeout.read),
        write=deadline.clamp(timeout.write),
        pool=deadline.clamp(timeout.pool),
    )
