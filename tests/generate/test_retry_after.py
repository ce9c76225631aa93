"""The OpenAI-compatible engine waits as long as a server's Retry-After asks (a real HTTP server on loopback)."""
from __future__ import annotations

import json
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kernelgen.generate.engine import Prompt, SamplingParams
from kernelgen.generate.openai_engine import OpenAIEngine, retry_after_seconds


class _Throttling(BaseHTTPRequestHandler):
    """Answers 429 with Retry-After to the first `busy` requests, then a completion."""
    busy = 1
    retry_after = "1"
    seen: list[float] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("content-length", 0)))
        type(self).seen.append(time.monotonic())
        if len(self.seen) <= self.busy:
            self.send_response(429)
            self.send_header("Retry-After", self.retry_after)
            self.end_headers()
            return
        body = json.dumps({"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def throttling_server():
    _Throttling.seen = []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Throttling)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()


@pytest.mark.parametrize("header", ["1", "date"])
def test_retry_after_is_the_minimum_wait(throttling_server, header):
    _Throttling.retry_after = "1" if header == "1" else formatdate(time.time() + 2, usegmt=True)
    eng = OpenAIEngine(f"http://127.0.0.1:{throttling_server.server_port}", "m", retries=3, backoff_s=0.01)
    c = next(iter(eng.generate([Prompt("t", [{"role": "user", "content": "x"}], [0])], SamplingParams(max_tokens=4))))
    eng.close()
    assert c.ok and c.content == "ok"
    assert len(_Throttling.seen) == 2
    # backoff alone would retry after ~10 ms; the header asks for >= 1 s (an HTTP date has 1 s resolution)
    assert _Throttling.seen[1] - _Throttling.seen[0] >= 0.95


def test_retry_after_parsing():
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds(None) == 0.0 and retry_after_seconds("soon") == 0.0
    assert 8 <= retry_after_seconds(formatdate(time.time() + 10, usegmt=True)) <= 10
    assert retry_after_seconds(formatdate(time.time() - 10, usegmt=True)) == 0.0
