"""The scripted teacher (scripted.py) behind an OpenAI-compatible HTTP endpoint, for runs that reach their teacher
the way a real deployment does (`teacher.engine: openai`): the CLI and the operator's pods. Only the model is a
stand-in; the request/response path is the real `openai` engine's."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .scripted import ScriptedEngine


class ScriptedTeacherServer:
    """`with ScriptedTeacherServer() as url:` serves /v1/chat/completions and /v1/models on `host` (pods of the
    test cluster's real node reach it on the node's address)."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.engine = ScriptedEngine()
        self.requests = 0
        engine, outer = self.engine, self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:   # quiet
                pass

            def _send(self, code: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:  # noqa: N802
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": "not found"})
                    return
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                user = req["messages"][-1]["content"]
                outer.requests += 1
                text = engine._answer(user)
                self._send(200, {"id": f"s{outer.requests}", "object": "chat.completion", "model": "scripted",
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": text}}],
                                 "usage": {"prompt_tokens": len(user) // 4, "completion_tokens": len(text) // 4}})

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.url = f"http://{host}:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        return self.url

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
