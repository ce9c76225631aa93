from __future__ import annotations

import pytest

from kernelgen.storage import LocalStore, S3Store, Store, open_store


@pytest.fixture(params=["local", "file-uri", "s3"])
def store(request, tmp_path) -> Store:
    """The same tests over a bare local path, a file:// URI and a real S3 server (a fresh bucket, under a prefix)."""
    if request.param == "local":
        return open_store(str(tmp_path / "root"))
    if request.param == "file-uri":
        return open_store((tmp_path / "root").as_uri())
    s3 = request.getfixturevalue("s3_server")
    return S3Store(f"s3://{s3.new_bucket()}/runs/r1", s3.config())


__all__ = ["LocalStore", "S3Store"]
