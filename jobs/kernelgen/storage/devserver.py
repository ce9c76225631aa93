"""A local versitygw S3 server for tests, demos and benchmarks (no network beyond 127.0.0.1).

The binary is built from the Go module proxy by hack/s3/build.sh into ~/.cache/kernelgen/bin/versitygw-<ver>/.
It serves a temporary directory with the posix backend; metadata goes to extended attributes when the file system
supports them and to a sidecar directory otherwise.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

VERSITYGW_VERSION = "v1.8.0"
REGION = "us-east-1"


def find_versitygw() -> Path | None:
    """The versitygw binary: $KERNELGEN_VERSITYGW, the build cache, or PATH."""
    explicit = os.environ.get("KERNELGEN_VERSITYGW")
    if explicit:
        return Path(explicit) if Path(explicit).is_file() else None
    cache = Path(os.environ.get("KERNELGEN_CACHE", Path.home() / ".cache" / "kernelgen"))
    built = cache / "bin" / f"versitygw-{VERSITYGW_VERSION}" / "versitygw"
    if built.is_file():
        return built
    found = shutil.which("versitygw")
    return Path(found) if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _xattrs_work(path: Path) -> bool:
    try:
        os.setxattr(path, "user.kernelgen-probe", b"1")
        os.removexattr(path, "user.kernelgen-probe")
        return True
    except (OSError, AttributeError):
        return False


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM the server if the process that started it dies (a killed pytest must
    not leave servers running)."""
    try:
        import ctypes
        import signal

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


class S3DevServer:
    """Start with `with S3DevServer() as s3:`; then s3.endpoint, s3.access_key, s3.secret_key, s3.new_bucket()."""

    def __init__(
        self,
        binary: Path | None = None,
        root: Path | None = None,
        startup_timeout: float = 30.0,
        sidecar: bool | None = None,
        host: str = "127.0.0.1",
    ):
        self.binary = binary or find_versitygw()
        if self.binary is None:
            raise FileNotFoundError("versitygw not found: run hack/s3/build.sh (or set KERNELGEN_VERSITYGW)")
        self._own_root = root is None
        self.root = Path(root or tempfile.mkdtemp(prefix="kernelgen-s3-"))
        # host: the address it listens on; pods of the test cluster's real node reach it on the node's address.
        self.host = host
        self.port = _free_port()
        self.endpoint = f"http://{host}:{self.port}"
        self.access_key = "kg" + secrets.token_hex(8)
        self.secret_key = secrets.token_hex(20)
        self.region = REGION
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.root / "versitygw.log"
        self.sidecar = sidecar  # None: only when the file system lacks user xattrs

    def start(self) -> S3DevServer:
        data = self.root / "data"
        data.mkdir(parents=True, exist_ok=True)
        cmd = [
            str(self.binary), "--access", self.access_key, "--secret", self.secret_key,
            "--region", self.region, "--port", f"{self.host}:{self.port}", "--quiet", "posix",
        ]
        if self.sidecar or (self.sidecar is None and not _xattrs_work(data)):
            self.sidecar = True
            sidecar = self.root / "meta"
            sidecar.mkdir(exist_ok=True)
            cmd += ["--sidecar", str(sidecar)]
        cmd.append(str(data))
        log = open(self.log_path, "wb")  # noqa: SIM115 - owned by the process lifetime
        # Own session so that stop() can end the server alone, never anything else.
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent
        )
        log.close()
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"versitygw exited with {self.proc.returncode}: {self.log_path.read_text()[-2000:]}")
            try:
                self.client().list_buckets()
                return
            except Exception as e:  # noqa: BLE001 - not up yet
                last = e
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"versitygw did not become ready in {self.startup_timeout}s: {last}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def client(self) -> Any:
        return self.config().client()

    def config(self) -> Any:
        from kernelgen.storage.s3 import S3Config

        return S3Config(endpoint=self.endpoint, region=self.region, access_key=self.access_key,
                        secret_key=self.secret_key)

    def env(self) -> dict[str, str]:
        """Environment that points kernelgen (and boto3) at this server, e.g. for a subprocess."""
        return {
            "KERNELGEN_S3_ENDPOINT": self.endpoint,
            "AWS_ACCESS_KEY_ID": self.access_key,
            "AWS_SECRET_ACCESS_KEY": self.secret_key,
            "AWS_REGION": self.region,
        }

    def new_bucket(self, prefix: str = "kg") -> str:
        """Create a fresh, empty bucket and return its name."""
        name = f"{prefix}-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def __enter__(self) -> S3DevServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
