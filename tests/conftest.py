"""Fixtures shared by every test area.

`s3_server` (session): a real versitygw S3 server on 127.0.0.1 (a free port, a temporary directory), built by
hack/s3/build.sh. Skips with the reason when the binary has not been built. Use:

    def test_x(s3_server):
        bucket = s3_server.new_bucket()               # fresh and empty
        store = S3Store(f"s3://{bucket}/p", s3_server.config())
        env = s3_server.env()                         # KERNELGEN_S3_ENDPOINT, AWS_* for subprocesses

`s3_env` (function): s3_server plus those variables set in os.environ for the test, so `open_store("s3://...")`
finds the server the way a job pod would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT / ".." / "shared"


@pytest.fixture(scope="session")
def s3_server():
    from kernelgen.storage.devserver import S3DevServer, find_versitygw

    if find_versitygw() is None:
        pytest.skip("versitygw S3 server not built: run `bash hack/s3/build.sh` (make services does)")
    server = S3DevServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3_env(s3_server, monkeypatch):
    for name, value in s3_server.env().items():
        monkeypatch.setenv(name, value)
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                 "KERNELGEN_S3_SECRET_DIR"):
        monkeypatch.delenv(name, raising=False)
    return s3_server
