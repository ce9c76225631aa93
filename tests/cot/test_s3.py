"""Sources read from, and the dataset written to, a real S3 server (versitygw) through kernelgen.storage."""
import json

import pytest
from .conftest import FIXTURES, spec_doc
from kernelgen.cot import pipeline
from kernelgen.cot.context import Options
from kernelgen.specs import load_spec
from kernelgen.storage import open_store
from scripted import ScriptedEngine

pytestmark = pytest.mark.s3


def upload(store, local, prefix):
    for p in sorted(local.rglob("*")):
        if p.is_file():
            store.upload_file(f"{prefix}/{p.relative_to(local).as_posix()}", p)


def test_build_from_and_to_s3_resumes_from_the_stored_cache(s3_env, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))          # the S3 sync cache lives under ~/.cache
    bucket = s3_env.new_bucket()
    root = open_store(f"s3://{bucket}")
    for name in ("docs", "general", "benchrun", "bench_suite"):
        upload(root, FIXTURES / name, f"src/{name}")
    doc = spec_doc(f"s3://{bucket}/out", stages=["docs", "general", "debug"])
    src = doc["spec"]["sources"]
    src["docs"] = [{"uri": f"s3://{bucket}/src/docs"}]
    src["general"] = [{"uri": f"s3://{bucket}/src/general"}]
    src["benchRecords"] = [{"uri": f"s3://{bucket}/src/benchrun"}]
    doc["spec"]["decontamination"]["suiteUri"] = f"s3://{bucket}/src/bench_suite"
    res = load_spec(doc)
    eng = ScriptedEngine()
    s = pipeline.run(res, Options(), engine_factory=lambda: eng)
    assert s["by_kind"]["general"] > 0 and s["by_kind"]["doc_qa"] > 0 and s["by_kind"]["debug_api"] > 0
    out = open_store(f"s3://{bucket}/out/cot-test")   # <output.uri>/<metadata.name>
    assert out.exists("dataset/canonical.jsonl") and out.exists("dataset/dpo.parquet") and out.exists("manifest.json")
    stats = json.loads(out.read_text("stats.json"))
    assert stats["decontamination"]["by_reason"] == {"text_ngram": 1, "blocklist": 1, "name": 2}   # the alpaca leak: its heading names the op
    # the finished shard folded its teacher cache's part objects (one per answer) into one object
    cache_key = "shards/shard-0000/teacher-cache.jsonl"
    assert out.exists(cache_key) and not out.list(cache_key + ".parts/")
    assert len(out.read_text(cache_key).splitlines()) == s["teacher"]["calls"]
    # a rebuild of the shard (its stats removed, as after a kill) answers everything from the S3 cache
    out.delete("shards/shard-0000/stats.json")
    s2 = pipeline.run(res, Options(), engine_factory=lambda: pytest.fail("model loaded although all was cached"))
    assert s2["records"] == s["records"] and s2["teacher"]["calls"] == 0 and s2["teacher"]["cached"] > 0
