"""The whole build with a scripted teacher (the model boundary stubbed; tests/cot/test_e2e_smollm2.py runs the
real SmolLM2 model): stage counts and drops, decontamination, exports, manifest, resume and shards."""
import json

import pyarrow.parquet as pq
import pytest
from .conftest import PLANTED, planted_match, spec_doc
from kernelgen.cot import pipeline
from kernelgen.cot.context import Options
from kernelgen.specs import load_spec
from scripted import ScriptedEngine

# What the tiling unit test asserts for the first scenario; the scripted teacher gets it right for that one only.
RIGHT = {json.dumps({"shapes": [[4096]], "dtypes": ["float"]}, sort_keys=True):
         {"blockDim": 8, "blockLength": 512, "tileLength": 512, "tileNum": 1, "tilingKey": 2}}


def lines(path):
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("cot")
    eng = ScriptedEngine(tiling=RIGHT)
    events = []
    summary = pipeline.run(load_spec(spec_doc(out)), Options(), engine_factory=lambda: eng,
                           progress=lambda *e: events.append(e))
    summary["_progress_events"] = events
    return out / "cot-test", summary, eng   # the build writes under <output.uri>/<metadata.name>


def test_progress_hears_every_teacher_answer(built):
    _, s, _ = built
    events = s["_progress_events"]
    answered = sum(e[1] for e in events)
    asked = sum(e[2] for e in events)
    assert answered == s["teacher"]["calls"] > 0 and asked >= answered
    stages = [e[0] for e in events if e[1:] == (0, 0)]     # each stage announces itself first
    assert sorted(stages) == sorted(st for st in s["stages"] if st != "final") and len(set(stages)) == len(stages)
    assert all(e[0] in stages for e in events)


def test_every_stage_reports_counts_and_drops(built):
    _, s, _ = built
    st = s["stages"]
    assert set(st) == {"docs", "kernel", "project", "general", "debug", "final"}
    assert st["kernel"]["inputs"] == 4 and st["kernel"]["outputs"] == 1
    assert st["kernel"]["dropped"] == {"unresolved_include": 1, "decontam:name": 1, "decontam:similarity": 1}
    assert st["project"]["inputs"] == 3 and st["project"]["outputs"] == 2 and st["project"]["tiling_agree"] == 1
    assert st["general"]["inputs"] == 20
    assert st["general"]["dropped"] == {"unterminated_think_or_no_answer": 1, "language": 1, "length": 1,
                                        "language_mismatch": 1, "perplexity": 1, "decontam:name": 1,
                                        "decontam:blocklist": 1}
    assert st["debug"]["error_clusters"] == 2 and st["debug"]["dropped"] == {"cluster_surplus": 1, "decontam:name": 1}
    assert st["final"]["dropped"]["near_duplicate"] == 1
    assert s["by_kind"]["debug_api"] == 3 and s["by_kind"]["debug_kernel"] == 1 and s["by_kind"]["project"] == 2
    assert s["records"] == sum(s["by_kind"].values()) == st["final"]["outputs"]


def test_each_general_filter_drops_the_record_planted_for_it(built):
    out, _, _ = built
    drops = {(d["item"].rsplit(":", 2)[-2] + ":" + d["item"].rsplit(":", 1)[-1], d["reason"])
             for d in lines(out / "shards/shard-0000/drops.jsonl") if d["stage"] == "general"}
    assert drops == {("alpaca_en.json:3", "unterminated_think_or_no_answer"), ("alpaca_en.json:4", "language"),
                     ("alpaca_en.json:6", "length"), ("r1_zh.jsonl:4", "language_mismatch"),
                     ("alpaca_en.json:5", "perplexity"), ("alpaca_en.json:7", "decontam:name"),
                     ("alpaca_en.json:8", "decontam:blocklist")}


def test_decontamination_removes_the_planted_leaks_and_nothing_else(built):
    out, s, _ = built
    report = lines(out / "decontam_report.jsonl")
    assert planted_match(report) == PLANTED
    assert s["decontamination"]["dropped"] == len(PLANTED)
    canon = (out / "dataset/canonical.jsonl").read_text()
    for leak in ("soft_shrink_notes", "row_scale", "leaky_clip", "LeakyClip", "FIXTURE-BENCH-CANARY"):
        assert leak not in canon


def test_canonical_records_and_trl_exports(built):
    out, s, _ = built
    canon = lines(out / "dataset/canonical.jsonl")
    assert len(canon) == s["records"]
    for r in canon:
        assert r["source"] and r["prompt"] and r["answer"] and "licence" in r and r["provenance"]
    kernel = next(r for r in canon if r["kind"] == "kernel")
    assert kernel["provenance"]["inlined"][-1] == "math/scaled_add/op_kernel/scaled_add_impl.h"
    assert kernel["answer"].startswith("```cpp\n#include \"kernel_operator.h\"")
    proj = [r for r in canon if r["kind"] == "project"]
    assert sorted(r["meta"]["tiling_check"]["status"] for r in proj) == ["agree", "disagree"]
    assert all('"tilingKey"' in r["answer"] for r in proj)          # the asserted summary, not the guess
    msgs = lines(out / "dataset/messages.jsonl")
    assert len(msgs) == len(canon)
    assert all(m["messages"][-1]["role"] == "assistant" and m["messages"][-1]["content"].startswith("<think>\n")
               for m in msgs)
    pc = lines(out / "dataset/prompt-completion.jsonl")
    assert pc[0]["prompt"][-1]["role"] == "user" and pc[0]["completion"][0]["role"] == "assistant"
    dpo = lines(out / "dataset/dpo.jsonl")
    assert len(dpo) == 1 and "scaled_add_impl" not in dpo[0]["rejected"][0]["content"]
    assert dpo[0]["chosen"][0]["content"] != dpo[0]["rejected"][0]["content"]
    for kind in ("messages", "prompt-completion", "dpo"):
        assert pq.read_table(out / f"dataset/{kind}.parquet").num_rows == s["exports"][kind]


def test_manifest_hashes_outputs_and_carries_stats(built):
    out, s, _ = built
    man = json.loads((out / "manifest.json").read_text())
    for key in ("dataset/canonical.jsonl", "dataset/messages.parquet", "decontam_report.jsonl", "stats.json",
                "shards/shard-0000/teacher-cache.jsonl"):
        assert len(man["files"][key]["sha256"]) == 64
    assert man["stats"]["stages"]["kernel"]["dropped"] == s["stages"]["kernel"]["dropped"]


def test_a_killed_build_resumes_without_asking_twice(tmp_path):
    class Dies(ScriptedEngine):
        def __init__(self, after):
            super().__init__()
            self.after = after

        def generate(self, prompts, params):
            for c in super().generate(prompts, params):
                if len(self.asked) > self.after:
                    raise KeyboardInterrupt("killed")
                yield c

    res = load_spec(spec_doc(tmp_path))
    first = Dies(after=7)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(res, Options(), engine_factory=lambda: first)
    second = ScriptedEngine()
    s = pipeline.run(res, Options(), engine_factory=lambda: second)
    assert len(first.asked) == 8 and len(second.asked) > 0
    assert not set(first.asked[:7]) & set(second.asked), "a prompt answered before the kill was asked again"
    assert s["teacher"]["cached"] == 7
    # a third run finds the build done: nothing is asked, the model is never built
    s3 = pipeline.run(res, Options(), engine_factory=lambda: pytest.fail("model loaded for a finished build"))
    assert s3["records"] == s["records"]


def test_shards_partition_the_items(tmp_path, built):
    _, single, _ = built
    res = load_spec(spec_doc(tmp_path, shards=2))
    for i in range(2):
        pipeline.build_shard(res, i, 2, Options(), engine_factory=lambda: ScriptedEngine(tiling=RIGHT))
    merged = pipeline.merge(res)
    assert merged["by_kind"] == single["by_kind"]
    a = lines(tmp_path / "cot-test/shards/shard-0000/records.jsonl")
    b = lines(tmp_path / "cot-test/shards/shard-0001/records.jsonl")
    def items(rs):
        return {(r["kind"], r["prompt"], json.dumps(r["provenance"], sort_keys=True)) for r in rs}
    assert a and b and not items(a) & items(b)


def test_missing_shard_fails_the_merge(tmp_path):
    res = load_spec(spec_doc(tmp_path, shards=2))
    pipeline.build_shard(res, 0, 2, Options(), engine_factory=ScriptedEngine)
    with pytest.raises(RuntimeError, match="shards without output"):
        pipeline.merge(res)


def test_a_changed_spec_rebuilds_the_shard_from_the_cache(tmp_path):
    res = load_spec(spec_doc(tmp_path))
    eng = ScriptedEngine()
    first = pipeline.run(res, Options(), engine_factory=lambda: eng)
    doc = spec_doc(tmp_path)
    doc["spec"]["filters"]["minChars"] = 10_000          # now every general record is too short
    again = pipeline.run(load_spec(doc), Options(), engine_factory=lambda: pytest.fail("all answers are cached"))
    assert "general" not in again["by_kind"] and again["stages"]["general"]["dropped"]["length"] > 0
    assert again["by_kind"]["kernel"] == first["by_kind"]["kernel"]
