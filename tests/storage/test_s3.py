"""S3-specific behaviour against the real server: configuration sources, sync to a local cache, fetch."""

from __future__ import annotations

import os

import pytest

from kernelgen.storage import S3Config, S3Store, StoreError, fetch, open_output, open_store


def test_open_store_from_environment(s3_env):
    bucket = s3_env.new_bucket()
    store = open_store(f"s3://{bucket}/p")
    store.write_text("x.txt", "via env")
    assert open_store(f"s3://{bucket}").read_text("p/x.txt") == "via env"


def test_credentials_from_a_mounted_secret_dir(s3_env, tmp_path, monkeypatch):
    bucket = s3_env.new_bucket()
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "AWS_ACCESS_KEY_ID").write_text(s3_env.access_key + "\n")
    (secret / "AWS_SECRET_ACCESS_KEY").write_text(s3_env.secret_key)
    # The environment's credentials are wrong: only the secret directory can make this work.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "wrong")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wrong")
    with pytest.raises(StoreError):
        open_store(f"s3://{bucket}").write_text("x", "y")
    monkeypatch.setenv("KERNELGEN_S3_SECRET_DIR", str(secret))
    open_store(f"s3://{bucket}").write_text("x", "y")
    monkeypatch.delenv("KERNELGEN_S3_SECRET_DIR")
    store = open_store(f"s3://{bucket}", secret_dir=secret)
    assert store.read_text("x") == "y"


def test_secret_dir_without_keys_is_an_error(tmp_path):
    with pytest.raises(StoreError, match="must contain AWS_ACCESS_KEY_ID"):
        S3Config.resolve(endpoint="http://127.0.0.1:1", secret_dir=tmp_path)


def test_spec_output_block_sets_endpoint(s3_server, monkeypatch):
    from kernelgen.specs.common import Output

    for name in ("KERNELGEN_S3_ENDPOINT", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.secret_key)
    bucket = s3_server.new_bucket()
    out = Output(uri=f"s3://{bucket}/runs", endpoint=s3_server.endpoint, region="us-east-1")
    store = open_output(out)
    store.write_text("ok", "1")
    assert store.uri == f"s3://{bucket}/runs" and store.exists("ok")


def test_wrong_endpoint_is_a_store_error(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "a")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "b")
    store = S3Store("s3://bucket/p", S3Config(endpoint="http://127.0.0.1:9", region="us-east-1", max_attempts=1))
    with pytest.raises(StoreError, match="S3 head"):
        store.exists("x")


def test_sync_prefix_to_local_cache_fetches_only_changes(s3_server, tmp_path):
    bucket = s3_server.new_bucket()
    store = S3Store(f"s3://{bucket}/models", s3_server.config())
    store.write_text("smol/config.json", "{}")
    store.write_bytes("smol/weights/model.gguf", b"W" * 1000)
    store.write_text("smolx/other.txt", "not part of smol/")
    cache = tmp_path / "cache"

    path = store.local_dir("smol", cache)
    assert path == cache
    files = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())
    assert files == [".kernelgen-sync.json", "config.json", "weights/model.gguf"]
    weights = cache / "weights" / "model.gguf"
    inode_before = weights.stat().st_ino

    store.write_text("smol/config.json", '{"v": 2}')
    store.delete("smol/weights/model.gguf")
    store.write_text("smol/tokenizer.json", "tok")
    store.write_bytes("smol/weights/model.gguf", b"W" * 1000)  # same content, new ETag? no: ETag is the MD5
    store.local_dir("smol", cache)
    assert (cache / "config.json").read_text() == '{"v": 2}'
    assert (cache / "tokenizer.json").read_text() == "tok"
    assert weights.stat().st_ino == inode_before  # unchanged content was not fetched again

    store.delete("smol/tokenizer.json")
    store.local_dir("smol", cache)
    assert not (cache / "tokenizer.json").exists()


def test_fetch_object_and_prefix(s3_env, tmp_path):
    bucket = s3_env.new_bucket()
    store = open_store(f"s3://{bucket}")
    store.write_bytes("m/model.gguf", b"gguf")
    store.write_text("m/README.md", "r")
    one = fetch(f"s3://{bucket}/m/model.gguf", cache_dir=tmp_path / "one")
    assert one.is_file() and one.read_bytes() == b"gguf"
    many = fetch(f"s3://{bucket}/m", cache_dir=tmp_path / "many")
    assert (many / "README.md").read_text() == "r" and (many / "model.gguf").is_file()
    with pytest.raises(StoreError, match="not found"):
        fetch(f"s3://{bucket}/nothing-here", cache_dir=tmp_path / "none")
    assert fetch(str(tmp_path / "one")) == tmp_path / "one"
    with pytest.raises(StoreError):
        fetch(str(tmp_path / "absent"))
    assert os.environ["KERNELGEN_S3_ENDPOINT"] == s3_env.endpoint


def test_dev_server_with_sidecar_metadata(tmp_path):
    """The mode used where the file system has no user xattrs: metadata lives in a sidecar directory."""
    from kernelgen.storage.devserver import S3DevServer, find_versitygw

    if find_versitygw() is None:
        pytest.skip("versitygw S3 server not built: run `bash hack/s3/build.sh`")
    with S3DevServer(root=tmp_path / "s3", sidecar=True) as server:
        store = S3Store(f"s3://{server.new_bucket()}/p", server.config())
        store.write_text("a/b.json", '{"x": 1}')
        assert store.list() == ["a/b.json"] and store.read_json("a/b.json") == {"x": 1}
        assert any((tmp_path / "s3" / "meta").rglob("*"))  # metadata went to the sidecar
    assert server.proc is None
