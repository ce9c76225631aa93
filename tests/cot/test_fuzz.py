"""Malformed C++ and Markdown never abort a build: the parsers take anything, and a file that still cannot be
read is skipped and counted with its reason (issue 22, item 1)."""
import json
import random

import pytest
from .conftest import spec_doc
from corpus import _malformed_cpp, _malformed_md, doc_page, kernel_src, tiling_test, write_corpus
from kernelgen.cot import pipeline
from kernelgen.cot.context import Options
from kernelgen.cot.cpp import defined_names, includes, source_problem
from kernelgen.cot.docs import chunk_page
from kernelgen.cot.tiling_tests import mine_scenarios
from kernelgen.specs import load_spec
from scripted import ScriptedEngine


@pytest.mark.parametrize("seed", range(3))
def test_parsers_accept_any_input(seed):
    rng = random.Random(seed)
    for i in range(12):
        good = tiling_test("Fuzz", rng) if i % 2 else kernel_src("Fuzz", rng)
        src = _malformed_cpp(rng, good).decode("utf-8", "replace")
        for sc in mine_scenarios(src):
            assert all(isinstance(d, list) for d in sc.shapes)
        for _, _, start, end in includes(src):
            assert 0 <= start <= end <= len(src)
        defined_names(src)
        rel, text = doc_page(i, rng)
        chunks = chunk_page(rel, _malformed_md(rng, text).decode("utf-8", "replace"), cap=2000)
        assert len({c.id for c in chunks}) == len(chunks)


def test_conditional_branches_are_not_mistaken_for_a_cut_short_file():
    src = ('#ifdef CPU_DEBUG\nextern "C" void k(\n#else\ntemplate <int M>\nvoid k(\n#endif\n    int a, int b)\n'
           "{\n#if M > 1\n    if (a) {\n#else\n    if (b) {\n#endif\n        return;\n    }\n}\n")
    assert source_problem(src) is None
    assert source_problem(src[:-3]) == "unbalanced"


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    planted = write_corpus(root, ops=24, pages=24, seed=11, bad=0.3)
    doc = spec_doc(root / "out", stages=["docs", "kernel", "project"])
    doc["spec"]["sources"] = {"docs": [{"uri": str(root / "docs")}],
                              "kernels": [{"uri": str(root / "ops"), "includeRoots": ["common/inc"]}],
                              "projects": [{"uri": str(root / "ops"), "includeRoots": ["common/inc"]}]}
    summary = pipeline.run(load_spec(doc), Options(), engine_factory=ScriptedEngine)
    drops = [json.loads(x) for x in (root / "out/cot-test/shards/shard-0000/drops.jsonl").read_text().splitlines()]
    return planted, summary, drops


def test_the_build_finishes_and_accounts_for_every_kernel(fuzzed):
    planted, s, _ = fuzzed
    assert planted["bad_cpp"] and planted["bad_md"] and planted["dangling"]     # the seed plants every kind
    k = s["stages"]["kernel"]
    assert k["inputs"] == 24 and k["outputs"] + sum(k["dropped"].values()) == k["inputs"]
    assert s["records"] > 0


def test_unreadable_tiling_tests_are_counted_with_their_reason(fuzzed):
    planted, s, drops = fuzzed
    bad = {d["item"] for d in drops if d["reason"] == "bad_input:FileNotFoundError"}
    assert bad == set(planted["dangling"])
    assert sum(s["stages"]["project"]["scenario_formats"].values()) > 0


def test_include_cycles_resolve(fuzzed):
    planted, _, drops = fuzzed
    unresolved = {d["item"] for d in drops if d["reason"] == "unresolved_include"}
    assert planted["cycle"] and not unresolved & set(planted["cycle"])


def test_binary_files_are_not_sent_to_the_teacher(fuzzed):
    planted, s, drops = fuzzed
    d = s["stages"]["docs"]
    assert d["inputs"] > 0 and d["outputs"] > 0
    skipped = {x["item"] for x in drops if x["stage"] == "docs" and x["reason"] == "not_text"}
    assert skipped and skipped <= set(planted["bad_md"])            # only planted pages, and binary ones among them
    kernel_reasons = {x["reason"] for x in drops if x["stage"] == "kernel"}
    assert {"not_source:binary", "not_source:unbalanced"} & kernel_reasons
