"""The `vllm` perplexity scorer against a real HTTP server on loopback speaking vLLM's completions protocol (a
TEST DOUBLE for vLLM, which cannot run here): requests go out concurrently, a 503 with Retry-After is retried,
scores come back in input order, and a text that keeps failing raises instead of being scored."""
from __future__ import annotations

import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kernelgen.cot.scorers import VllmScorer
from kernelgen.generate.openai_engine import RequestFailed


class _Server(BaseHTTPRequestHandler):
    """Echoed log-probs: every token of prompt `text` gets -len(text)/10; the first request is refused once."""
    lock = threading.Lock()
    active = peak = requests = 0
    refuse_first = True
    always_fail = ""

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        cls = type(self)
        with cls.lock:
            cls.requests += 1
            first = cls.requests == 1
            cls.active += 1
            cls.peak = max(cls.peak, cls.active)
        try:
            time.sleep(0.2)   # long enough for concurrent requests to overlap
            assert body["echo"] is True and body["max_tokens"] == 1 and self.path == "/v1/completions"
            if (first and cls.refuse_first) or body["prompt"] == cls.always_fail:
                self.send_response(503)
                self.send_header("Retry-After", "0")
                self.end_headers()
                return
            lp = -len(body["prompt"]) / 10
            out = json.dumps({"choices": [{"text": body["prompt"], "logprobs": {"token_logprobs": [None, lp, lp]}}]})
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out.encode())
        finally:
            with cls.lock:
                cls.active -= 1

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _Server.active = _Server.peak = _Server.requests = 0
    _Server.refuse_first, _Server.always_fail = True, ""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Server)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


def test_scores_are_concurrent_retried_and_in_order(server):
    texts = [f"text number {i}" + "x" * i for i in range(12)]
    scorer = VllmScorer(server, "teacher", concurrency=4, retries=3)
    t0 = time.monotonic()
    got = scorer.scores(texts)
    took = time.monotonic() - t0
    scorer.close()
    assert got == [pytest.approx(math.exp(len(t) / 10)) for t in texts]    # perplexity = exp(-mean log-prob)
    assert _Server.requests == len(texts) + 1                                # the refused request was sent again
    assert _Server.peak >= 3 and took < 12 * 0.2                              # not one at a time


def test_a_text_that_keeps_failing_raises(server):
    _Server.refuse_first, _Server.always_fail = False, "broken"
    scorer = VllmScorer(server, "teacher", concurrency=2, retries=1)
    with pytest.raises(RequestFailed, match="HTTP 503"):
        scorer.scores(["fine", "broken", "fine too"])
    scorer.close()
