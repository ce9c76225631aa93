"""A real OpenAI-compatible server for the `openai` engine tests: llama-cpp-python's server on the SmolLM2 GGUF.
Built once by hack/llama-server/build.sh (cached wheel)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def available() -> tuple[bool, str]:
    try:
        import llama_cpp.server  # noqa: F401
    except Exception as e:  # noqa: BLE001 - any import failure means no server
        return False, f"llama-cpp-python server not installed (run hack/llama-server/build.sh): {e}"
    return True, ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, gguf: Path, port: int | None = None, log_path: Path | None = None):
        self.gguf, self.port = gguf, port or free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, timeout: float = 180.0) -> LlamaServer:
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(self.gguf), "--model_alias", "smollm2",
             "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", "4096", "--n_threads", "2"],
            stdout=log, stderr=log, start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama server exited with {self.proc.returncode}")
            # uvicorn binds the port only after the model is loaded, so an accepted connection means ready.
            # (Polling /models instead can starve: the server holds one lock for every endpoint, and clients
            # retrying long generations may already be queued on it.)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=2).close()
                return self
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("llama server did not come up")

    def stop(self) -> None:
        """SIGKILL the server's process group (we started it in its own session)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None
