"""The Store interface, run identically against local paths and a real S3 server (versitygw)."""

from __future__ import annotations

import pytest

from kernelgen.storage import LocalStore, StoreError, open_store, sha256_bytes, sha256_file


def test_write_read_exists_list_delete(store):
    assert store.list() == [] and not store.exists("a.txt")
    store.write_bytes("a.txt", b"\x00\x01bytes")
    store.write_text("dir/b.txt", "héllo")
    store.write_json("dir/sub/c.json", {"x": [1, 2]})
    store.write_text("dirx.txt", "sibling")
    assert store.read_bytes("a.txt") == b"\x00\x01bytes"
    assert store.read_text("dir/b.txt") == "héllo"
    assert store.read_json("dir/sub/c.json") == {"x": [1, 2]}
    assert store.exists("dir/b.txt") and not store.exists("dir")
    assert store.list() == ["a.txt", "dir/b.txt", "dir/sub/c.json", "dirx.txt"]
    assert store.list("dir/") == ["dir/b.txt", "dir/sub/c.json"]
    assert store.list("dir") == ["dir/b.txt", "dir/sub/c.json", "dirx.txt"]  # a string prefix, as S3 lists
    assert store.list("nothing/") == []
    store.write_text("a.txt", "replaced")
    assert store.read_text("a.txt") == "replaced"
    store.delete("a.txt")
    store.delete("a.txt")  # deleting what is gone is fine
    assert not store.exists("a.txt")
    assert store.sha256("dir/b.txt") == sha256_bytes("héllo".encode())


def test_missing_object_names_the_uri(store):
    with pytest.raises(StoreError, match=r"not found: .*/missing\.txt"):
        store.read_bytes("missing.txt")
    with pytest.raises(StoreError, match="not found"):
        store.download_file("missing.txt", "/tmp/never-written-kernelgen")


def test_child_and_url(store):
    child = store.child("shard-0")
    child.write_text("out.txt", "x")
    assert store.list() == ["shard-0/out.txt"]
    assert child.url("out.txt") == store.url("shard-0/out.txt")
    assert store.url("shard-0/out.txt").endswith("/shard-0/out.txt")


def test_upload_and_download_large_file(store, tmp_path):
    # 9 MiB: past boto3's 8 MiB threshold, so S3 takes the multipart path.
    src = tmp_path / "big.bin"
    src.write_bytes(bytes(range(256)) * (9 * 4096))
    store.upload_file("models/big.bin", src)
    dest = store.download_file("models/big.bin", tmp_path / "dl" / "big.bin")
    assert sha256_file(dest) == sha256_file(src)
    assert [p.name for p in dest.parent.iterdir()] == ["big.bin"]  # no temporary files left behind


def test_keys_cannot_escape_the_root(store):
    with pytest.raises(StoreError, match=r"\.\."):
        store.write_text("../escape.txt", "x")


def test_local_failed_write_keeps_old_content(tmp_path):
    store = LocalStore(tmp_path)
    store.write_text("result.json", "old")
    with pytest.raises(FileNotFoundError):
        store.upload_file("result.json", tmp_path / "does-not-exist")
    assert store.read_text("result.json") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["result.json"]


def test_open_store_uris(tmp_path):
    assert open_store(tmp_path).root == tmp_path.resolve()
    assert open_store(tmp_path.as_uri()).root == tmp_path.resolve()
    with pytest.raises(StoreError, match="unsupported URI scheme"):
        open_store("gs://bucket/x")
    with pytest.raises(StoreError, match="no bucket"):
        open_store("s3:///x")
