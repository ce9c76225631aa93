"""Durable JSONL appends, the run manifest, and resuming a killed run, on local paths and the real S3 server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from kernelgen.storage import (
    LocalStore,
    build_manifest,
    open_store,
    sha256_bytes,
    verify_manifest,
    write_manifest,
)


def test_append_and_continue(store):
    assert list(store.iter_jsonl("records.jsonl")) == []
    with store.appender("records.jsonl") as out:
        out.append({"id": 1, "text": "line\nbreak é"})
        out.append({"id": 2})
    with store.appender("records.jsonl", flush_every=10) as out:  # batched: durable at flush/close
        out.extend({"id": i} for i in (3, 4, 5))
    assert [r["id"] for r in store.iter_jsonl("records.jsonl")] == [1, 2, 3, 4, 5]
    assert next(iter(store.iter_jsonl("records.jsonl")))["text"] == "line\nbreak é"


def test_s3_appends_are_immutable_part_objects(s3_server):
    from kernelgen.storage import S3Store

    store = S3Store(f"s3://{s3_server.new_bucket()}/run", s3_server.config())
    with store.appender("r.jsonl") as out:
        out.append({"a": 1})
        out.append({"a": 2})
    with store.appender("r.jsonl", flush_every=100) as out:
        out.extend([{"a": 3}, {"a": 4}])
    assert store.list() == [
        "r.jsonl.parts/0000000000.jsonl",
        "r.jsonl.parts/0000000001.jsonl",
        "r.jsonl.parts/0000000002.jsonl",
    ]
    assert store.read_text("r.jsonl.parts/0000000002.jsonl") == '{"a":3}\n{"a":4}\n'


def test_s3_parts_read_in_order_and_compact_into_one_object(s3_server):
    from kernelgen.storage import S3Store
    from kernelgen.storage.jsonl import compact

    store = S3Store(f"s3://{s3_server.new_bucket()}/run", s3_server.config())
    with store.appender("r.jsonl") as out:       # 40 parts: read 16 at a time, yielded in write order
        out.extend({"a": i} for i in range(40))
    assert [r["a"] for r in store.iter_jsonl("r.jsonl")] == list(range(40))
    assert compact(store, "r.jsonl") == 40
    assert store.list() == ["r.jsonl"]
    with store.appender("r.jsonl") as out:       # a resumed writer continues after the folded object
        out.append({"a": 40})
    assert [r["a"] for r in store.iter_jsonl("r.jsonl")] == list(range(41))
    assert compact(store, "r.jsonl") == 1 and compact(store, "r.jsonl") == 0
    assert [r["a"] for r in store.iter_jsonl("r.jsonl")] == list(range(41))


def test_local_torn_tail_is_ignored_and_repaired(tmp_path):
    store = LocalStore(tmp_path)
    with store.appender("r.jsonl") as out:
        out.append({"i": 0})
    with open(tmp_path / "r.jsonl", "ab") as f:  # what a writer killed mid-line leaves
        f.write(b'{"i": 1, "trunc')
    assert list(store.iter_jsonl("r.jsonl")) == [{"i": 0}]
    with store.appender("r.jsonl") as out:
        out.append({"i": 1})
    assert (tmp_path / "r.jsonl").read_text() == '{"i":0}\n{"i":1}\n'


def test_a_long_torn_tail_is_cut_back_to_the_last_whole_line(tmp_path):
    """The repair reads back from the end a block at a time: a torn line longer than a block is cut whole."""
    store = LocalStore(tmp_path)
    with store.appender("r.jsonl") as out:
        out.append({"i": 0, "pad": "x" * 70_000})
    with open(tmp_path / "r.jsonl", "ab") as f:
        f.write(b'{"i": 1, "pad": "' + b"y" * 200_000)
    with store.appender("r.jsonl") as out:
        out.append({"i": 1})
    assert [r["i"] for r in store.iter_jsonl("r.jsonl")] == [0, 1]


def test_threads_share_one_appender(store):
    """The evaluator's workers append to one log: every record arrives whole, once."""
    import threading

    out = store.appender("r.jsonl")
    threads = [threading.Thread(target=lambda t=t: [out.append({"t": t, "i": i}) for i in range(20)])
               for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    out.close()
    got = sorted((r["t"], r["i"]) for r in store.iter_jsonl("r.jsonl"))
    assert got == [(t, i) for t in range(4) for i in range(20)]


WRITER = textwrap.dedent(
    """
    import sys, time
    from kernelgen.storage import open_store
    store = open_store(sys.argv[1])
    done = {r["task"] for r in store.iter_jsonl("records.jsonl")}
    todo = [i for i in range(12) if i not in done]
    with store.appender("records.jsonl") as out:
        for i in todo:
            time.sleep(0.02)  # the work
            out.append({"task": i, "result": i * i})
            print(i, flush=True)
    """
)


def _run_writer(uri: str, env: dict[str, str], kill_after: int | None) -> list[int]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, uri], stdout=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    seen = []
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(int(line))
        if kill_after is not None and len(seen) == kill_after:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    return seen


@pytest.mark.parametrize("backend", ["local", "s3"])
def test_run_killed_twice_resumes_to_the_same_records(backend, tmp_path, request):
    if backend == "s3":
        s3 = request.getfixturevalue("s3_env")  # endpoint and credentials in the environment, as in a job pod
        uri = f"s3://{s3.new_bucket()}/run"
    else:
        uri = str(tmp_path / "run")
    env = dict(os.environ)
    first = _run_writer(uri, env, kill_after=4)
    second = _run_writer(uri, env, kill_after=3)
    third = _run_writer(uri, env, kill_after=None)
    assert first == [0, 1, 2, 3]
    assert second[0] >= 4 and third[-1] == 11  # each restart skipped what was durable
    records = list(open_store(uri).iter_jsonl("records.jsonl"))
    assert records == [{"task": i, "result": i * i} for i in range(12)]


def test_manifest_hashes_and_verification(store):
    store.write_text("summary.json", '{"pass": 1}')
    store.write_bytes("records/part-0.jsonl", b"x" * 100)
    manifest = build_manifest(store, extra={"kind": "BenchRun", "name": "br1"})
    assert manifest["kind"] == "BenchRun" and manifest["root"] == store.uri
    assert manifest["files"] == {
        "records/part-0.jsonl": {"sha256": sha256_bytes(b"x" * 100), "size": 100},
        "summary.json": {"sha256": sha256_bytes(b'{"pass": 1}'), "size": 11},
    }
    uri = write_manifest(store, extra={"kind": "BenchRun"})
    assert uri == store.url("manifest.json")
    assert "manifest.json" not in store.read_json("manifest.json")["files"]
    assert verify_manifest(store) == []
    store.write_text("summary.json", '{"pass": 0}')
    store.delete("records/part-0.jsonl")
    assert verify_manifest(store) == ["records/part-0.jsonl: missing", "summary.json: sha256 mismatch"]
