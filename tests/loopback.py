"""A real HTTP server on 127.0.0.1 (ephemeral port) whose replies come from a function: the one loopback
peer the end-to-end tests talk to, whatever protocol the function speaks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = Callable[[str, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]
"""``answer(path, headers, body) -> (status, headers, body)`` for each POST."""


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
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> LoopbackServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
