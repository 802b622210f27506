"""A real HTTP server on 127.0.0.1 (ephemeral port) whose replies come from a function: the one loopback
peer the end-to-end tests talk to, whatever protocol the function speaks."""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = Callable[[str, dict[str, str], bytes], tuple[int, dict[str, str], bytes | Iterable[bytes]]]
"""``answer(path, headers, body) -> (status, headers, body)`` for each POST. A body that is an iterable
of chunks is streamed as it is produced (chunked encoding), so a test can play an endless or a trickling
reply; the stream stops when the client hangs up."""


class LoopbackServer:
    def __init__(self, answer: Answer) -> None:
        self.headers: list[dict[str, str]] = []  # of every request, in order
        seen = self.headers

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real endpoints do

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                seen.append(dict(self.headers))
                status, headers, content = answer(self.path, dict(self.headers), body)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                try:
                    self._send_body(content)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up: that is what the test wants

            def _send_body(self, content: bytes | Iterable[bytes]) -> None:
                if isinstance(content, bytes):
                    self.send_header("content-length", str(len(content)))
                    self.end_headers()
                    self.wfile.write(content)
                    return
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for chunk in content:
                    if chunk:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True  # a handler still streaming or silent never holds up close()
        self._httpd.block_on_close = False
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_request(conn: socket.socket) -> bytes:
    """One whole HTTP/1.1 request (headers and Content-Length body) from a raw socket, for tests whose
    server must close or break a connection in ways ``http.server`` cannot."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))  # type: ignore[union-attr]
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def wait_listening(port: int, proc: subprocess.Popen, timeout: float = 600, host: str = "127.0.0.1") -> None:
    """Until a server process accepts a connection on ``port`` (its readiness), or exits. The bound only
    ends a broken run: on a loaded machine starting the HTTP stack took more than the 30 s once allowed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read() if proc.stderr else ''}")
        with socket.socket() as probe:
            if probe.connect_ex((host, port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("server did not start listening")
