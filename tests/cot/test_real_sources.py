"""Issue 22: CoTBuild on inputs shaped like real AscendC repositories and docs (project-written fixtures under
fixtures/real_formats: Chinese comments before includes, a shared helper header, the parameter-object tiling-test
form, multi-line shapes, failure-expecting tests, combined aclnn titles, HTML tables, repeated headings)."""
import json
import shutil
from pathlib import Path

import pytest
from .conftest import FIXTURES, spec_doc
from kernelgen.cot import pipeline
from kernelgen.cot.context import Options
from kernelgen.cot.cpp import includes
from kernelgen.cot.decontam import Decontaminator, doc_api_names
from kernelgen.cot.docs import chunk_page, clean_markdown, load_chunks
from kernelgen.cot.includes import IncludeResolver
from kernelgen.cot.text import detect_language
from kernelgen.cot.tiling_tests import mine_scenarios
from kernelgen.specs import load_spec
from scripted import ScriptedEngine

REAL = FIXTURES / "real_formats"
OPS = REAL / "ops"
UT = OPS / "math/gelu_approx/tests/ut/op_host/test_gelu_approx_tiling.cpp"
SUITE = FIXTURES / "bench_suite"


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def real_spec(out: Path, ops: Path = OPS, **over) -> dict:
    doc = spec_doc(out, stages=["docs", "kernel", "project"])
    doc["spec"]["sources"] = {
        "docs": [{"uri": str(REAL / "docs")}],
        "kernels": [{"uri": str(ops), "includeRoots": ["common/inc", str(REAL / "toolkit/include")]}],
        "projects": [{"uri": str(ops), "includeRoots": ["common/inc"]}],
    }
    doc["spec"].update(over)
    return doc


# ----- item 2: byte offsets vs. characters -------------------------------------------------------------------

def test_include_offsets_index_the_string_after_non_ascii_text():
    src = (OPS / "math/gelu_approx/op_kernel/gelu_approx.cpp").read_text()
    assert not src.isascii()
    for path, _, start, end in includes(src):
        assert src[start:end].startswith("#include") and path in src[start:end]


def test_snippet_keeps_the_kernel_text_exact_around_spliced_headers():
    snip = IncludeResolver(OPS, [OPS / "common/inc"]).resolve(OPS / "math/gelu_approx/op_kernel/gelu_approx.cpp")
    own = snip.own_text
    body_after_includes = own[own.index("using namespace AscendC;"):]
    assert body_after_includes.strip() in snip.text                 # every byte after the includes, unshifted
    assert "近似 GELU：y = x * sigmoid(1.702 * x)。" in snip.text   # the comment before them, intact
    assert snip.text.count("struct GeluApproxKernel {") == 1
    assert snip.inlined == ["math/gelu_approx/op_kernel/gelu_approx_tiling_data.h", "common/inc/vec_helpers.h"]


# ----- item 3 and 1: tiling-test formats, multi-line shapes, negative scenarios ---------------------------------

def test_scenarios_in_every_format():
    scs = {s.name.split(".")[1]: s for s in mine_scenarios(UT.read_text())}
    p = scs["param_object_fp32_two_cores"]
    assert p.format == "param_object" and p.shapes == [[8, 1024], [8, 1024]] and p.dtypes == ["float", "float"]
    assert (p.soc, p.core_num, p.ub_size) == ("Ascend910B", 2, 196608) and p.attrs == {"approximate": "sigmoid"}
    assert p.expected == {"tilingKey": 1, "tilingData": "4096 4096 1", "workspaces": [16777216]}
    sym = scs["param_object_symbolic_dims"]
    assert sym.shapes == [[64, 4096], [64, 4096]] and sym.expected == {"tilingKey": 2}
    assert (sym.core_num, sym.ub_size) == (8, 65536)
    neg = scs["param_object_rejects_fp16"]
    assert neg.expect_failure and neg.dtypes == ["float16", "float16"] and not neg.expected
    old = scs["storage_shape_multiline"]          # the initialiser spread over lines (the ValueError of issue 22)
    assert old.format == "storage_shape" and old.shapes == [[2, 3, 4096], [2, 3, 4096]]
    assert old.expected == {"tiling_key": 1, "blockDim": 4} and old.core_num == 4 and not old.expect_failure
    assert scs["storage_shape_empty_input_fails"].expect_failure
    table = scs["from_table"]
    assert table.format == "none" and not table.informative


def test_strings_and_comments_do_not_confuse_the_structure():
    src = ('TEST(A, b) {\n  string s = "}{ not code";  // } neither\n  /* { */\n'
           '  gert::StorageShape x = {{4,\n 8}, {4, 8}};\n  EXPECT_EQ(t.tileNum, 2);\n}\nTEST(A, c) { }\n')
    a, c = mine_scenarios(src)
    assert a.shapes == [[4, 8]] and a.expected == {"tileNum": 2} and c.name == "A.c"


# ----- item 5: decontamination ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dec():
    return Decontaminator(SUITE)


def test_names_from_an_included_header_do_not_block(dec):
    res = IncludeResolver(OPS, [OPS / "common/inc"])
    gelu = res.resolve(OPS / "math/gelu_approx/op_kernel/gelu_approx.cpp")
    assert "LeakyClip" in gelu.text                                  # the shared helper is inlined ...
    assert dec.check_code(gelu.text, path="math/gelu_approx/op_kernel/gelu_approx.cpp", own_source=gelu.own_text) is None
    assert dec.check_code(gelu.text).reason == "name"                # ... and was the old false positive
    cap = res.resolve(OPS / "math/cap_relu/op_kernel/cap_relu.cpp")
    hit = dec.check_code(cap.text, path="math/cap_relu/op_kernel/cap_relu.cpp", own_source=cap.own_text)
    assert hit.reason == "name" and hit.detail == "LeakyClip"        # it defines the name itself


def test_tiny_code_blocks_never_reach_the_similarity_threshold():
    page = (REAL / "docs/api/DataCopy.md").read_text()
    small = Decontaminator(SUITE, min_grams=0)                        # the old rule: relative to the smaller set
    assert small.check_text(page).reason == "similarity"
    assert Decontaminator(SUITE).check_text(page) is None


def test_host_registration_boilerplate_is_not_similarity(dec):
    """Every op's OpDef chain has the same shape once identifiers are abstracted (on real docs, OpDef API examples
    scored 0.8+ against unrelated answers): host answers take part in the identifier-kept layer only."""
    task = next(t for t in dec.tasks if t.op_name == "SoftShrink")
    assert {f: bool(ba) for f, _, ba in task.code} == {"answer/0/op_kernel/soft_shrink.cpp": True,
                                                         "answer/0/op_host/soft_shrink.cpp": False}
    host = (SUITE / "tasks/level1/Activation/SoftShrink/answer/0/op_host/soft_shrink.cpp").read_text()
    assert dec.check_code(host.replace("SoftShrink", "Renamed")).reason == "ngram"    # a copy is still caught


def test_combined_titles_and_prototypes_name_the_api(dec):
    assert doc_api_names("", ["aclnnLeakyClip&aclnnInplaceLeakyClip"]) == ["aclnnLeakyClip"]
    assert doc_api_names("aclnnStatus aclnnSoftShrinkGetWorkspaceSize(const aclTensor* x);") == ["aclnnSoftShrink"]
    chunks = load_chunks(REAL / "docs", cap=300)
    blocked = {c.path for c in chunks if dec.check_text(c.text, names=[c.title, *c.apis])}
    # Chinese pages (no English api_desc overlap possible), every chunk; the AscendC API page stays
    assert blocked == {"aclnn/aclnnLeakyClip&aclnnInplaceLeakyClip.md", "aclnn/two_phase_calls.md"}
    assert all(dec.check_text(c.text, names=[c.title, *c.apis]) for c in chunks if c.path in blocked)


# ----- item 6: docs --------------------------------------------------------------------------------------------

def test_repeated_headings_get_distinct_chunk_ids():
    chunks = chunk_page("api/DataCopy.md", (REAL / "docs/api/DataCopy.md").read_text(), cap=300)
    ids = [c.id for c in chunks]
    assert len(ids) == len(set(ids)) and "api/DataCopy.md#example~2" in ids


def test_chinese_pages_are_zh_even_when_a_detector_says_otherwise():
    raw = (REAL / "docs/api/DataCopy.md").read_text()
    text, _ = clean_markdown(raw)
    assert detect_language(text)[0] != "zh"                           # mostly code and tables: py3langid misses it
    assert {c.lang for c in load_chunks(REAL / "docs", cap=300)} == {"zh"}


def test_html_tables_and_anchors_become_markdown_and_code_keeps_its_brackets():
    text, _ = clean_markdown((REAL / "docs/api/DataCopy.md").read_text())
    for tag in ("<table", "<a ", "<tr", "<td", "<br", "<p>", "</"):
        assert tag not in text
    assert "| 参数名 | 输入/输出 | 描述 |" in text
    assert "| dst | 输出 | 目的操作数，类型为 LocalTensor 或 GlobalTensor。 |" in text
    assert "const LocalTensor<T>& dst" in text                        # inside the code fence: untouched
    zh, _ = clean_markdown((REAL / "docs/aclnn/aclnnLeakyClip&aclnnInplaceLeakyClip.md").read_text())
    assert "<term>" not in zh and "| 训练系列产品 | √ |" in zh


def test_a_fence_left_open_does_not_turn_the_rest_of_the_page_into_code():
    page = ("# P\n\n## 原型\n\n```cpp\nvoid A();\n\n```cpp\nvoid B(T<int> x);\n```\n\n"
            "## 参数\n\n<table><tr><th>名</th></tr><tr><td>x</td></tr><tr><td>an input tensor in ND format</td></tr></table>\n")
    text, _ = clean_markdown(page)
    assert "<table" not in text and "| x |" in text and "void B(T<int> x);" in text
    assert [c.section for c in chunk_page("p.md", page, cap=2000)] == ["原型", "参数"]


# ----- the whole build over these sources ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("real")
    ops = root / "ops"
    shutil.copytree(OPS, ops)
    # a dangling symlink where a tiling test should be (real checkouts have them): unreadable, skipped, counted
    (ops / "math/gelu_approx/tests/ut/op_host/test_gelu_approx_v2_tiling.cpp").symlink_to(root / "gone.cpp")
    eng = ScriptedEngine()
    doc = real_spec(root / "out", ops)
    doc["spec"]["sources"]["kernels"][0]["compileCheck"] = "report"
    summary = pipeline.run(load_spec(doc), Options(), engine_factory=lambda: eng)
    return root / "out" / "cot-test", summary     # <output.uri>/<metadata.name>


def test_a_bad_file_is_skipped_with_its_reason_and_the_build_goes_on(built):
    out, s = built
    proj = s["stages"]["project"]
    assert proj["dropped"].get("bad_input:FileNotFoundError") == 1
    drops = [d for d in lines(out / "shards/shard-0000/drops.jsonl") if d["reason"].startswith("bad_input")]
    assert drops[0]["item"].endswith("test_gelu_approx_v2_tiling.cpp") and "No such file" in drops[0]["detail"]
    assert s["by_kind"]["project"] == 5


def test_project_yield_per_format_and_negative_records(built):
    out, s = built
    proj = s["stages"]["project"]
    assert proj["scenario_formats"] == {"param_object": 3, "storage_shape": 2, "none": 1}
    assert proj["scenario_fields"]["negative"] == 2 and proj["scenario_fields"]["uninformative_skipped"] == 1
    recs = [r for r in lines(out / "dataset/canonical.jsonl") if r["kind"] == "project"]
    neg = [r for r in recs if r["meta"]["negative"]]
    assert len(neg) == 2 and all(r["meta"]["scenario"]["tiling_result"] == "rejected" for r in neg)
    assert all("rejects this case" in r["answer"] and "```cpp" not in r["answer"] for r in neg)
    pos = next(r for r in recs if r["meta"]["scenario"]["scenario"].endswith("param_object_fp32_two_cores"))
    assert pos["meta"]["scenario"]["tiling"]["workspaces"] == [16777216]


def test_compile_check_reports_a_reason_per_snippet(built):
    out, s = built
    kern = s["stages"]["kernel"]
    # gelu_approx compiles against sim/include; tail_pad finds its toolkit header through the spec's include root
    # and fails on the one no root provides; cap_relu is decontaminated before any compile
    assert kern["compile_check"] == {"ok": 1, "missing_header:ascendc/fixture/not_in_any_toolkit.h": 1}
    assert kern["dropped"] == {"decontam:name": 1}
    by_path = {r["provenance"]["path"]: r for r in lines(out / "dataset/canonical.jsonl") if r["kind"] == "kernel"}
    assert by_path["math/gelu_approx/op_kernel/gelu_approx.cpp"]["meta"]["compile"] == {"ok": True, "reason": ""}


def test_docs_records_are_not_lost_and_ask_in_chinese(built):
    out, s = built
    docs = s["stages"]["docs"]
    kept_chunks = docs["inputs"] - sum(v for k, v in docs["dropped"].items() if k.startswith("decontam"))
    assert docs["dropped"] == {"decontam:name": 2}          # the two aclnn pages; each chunk of them
    assert docs["outputs"] == docs["questions"] == 2 * kept_chunks   # one record per question: no id collisions
    recs = [r for r in lines(out / "dataset/canonical.jsonl") if r["kind"] == "doc_qa"]
    assert recs and {r["lang"] for r in recs} == {"zh"}         # the page py3langid calls "wuu" included


def test_prompts_over_the_teacher_context_are_skipped_with_their_size(tmp_path):
    doc = real_spec(tmp_path / "out", stages=["kernel", "project"])
    doc["spec"]["teacher"]["maxContextTokens"] = 1200
    s = pipeline.run(load_spec(doc), Options(), engine_factory=ScriptedEngine)
    assert s["teacher"]["prompt_limit"] == 1200 - 64 and s["teacher"]["prompt_counter"] == "estimate"
    assert s["stages"]["kernel"]["dropped"]["prompt_too_long"] == 1          # gelu_approx with its headers
    drops = [d for d in lines(tmp_path / "out/cot-test/shards/shard-0000/drops.jsonl") if d["reason"] == "prompt_too_long"]
    assert all("prompt tokens (estimate) > 1136" in d["detail"] for d in drops)
    assert s["stages"]["project"]["dropped"]["prompt_too_long"] == 5
