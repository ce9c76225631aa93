from pathlib import Path

import pytest
from .conftest import FIXTURES, REPO
from kernelgen.cot.decontam import Decontaminator, builtin_suite, snake

SUITE = FIXTURES / "bench_suite"
OPS = FIXTURES / "ops_repo"
NKB = REPO.parent / "shared" / "fixtures" / "npukernelbench-sample"


@pytest.fixture(scope="module")
def dec():
    return Decontaminator(SUITE, blocklist=["FIXTURE-BENCH-CANARY"])


def test_snake_case():
    assert snake("AddLayerNorm") == "add_layer_norm" and snake("LeakyClip") == "leaky_clip"


def test_name_blocklist_from_task_names_and_answer_entry_points(dec):
    assert dec.check_names(["leaky_clip"]).task == "level1/Math/LeakyClip"
    assert dec.check_names(["aclnnSoftShrink"]).task == "level1/Activation/SoftShrink"
    assert dec.check_names(["KernelSoftShrink"]).reason == "name"          # class defined by the answer
    assert dec.check_names(["Init", "Process", "scaled_add"]) is None       # generic names never block
    assert dec.check_names(["leaky_clip_v2"]).task == "level1/Math/LeakyClip"  # a revised op is the same op
    assert dec.check_names(["SoftShrinkV3"]).reason == "name" and dec.check_names(["leaky_clipper"]) is None


def test_code_layers(dec):
    verbatim = (SUITE / "tasks/level1/Activation/SoftShrink/answer/0/op_kernel/soft_shrink.cpp").read_text()
    hit = dec.check_code(verbatim.replace("soft_shrink", "my_op").replace("KernelSoftShrink", "MyOp"))
    assert hit.reason == "ngram" and hit.score > 0.5
    renamed = dec.check_code((OPS / "math/row_scale/op_kernel/row_scale.cpp").read_text())
    assert renamed.reason == "similarity" and renamed.task == "level1/Activation/SoftShrink"
    clean = (OPS / "math/scaled_add/op_kernel/scaled_add_impl.h").read_text()
    assert dec.check_code(clean, path="math/scaled_add/op_kernel/scaled_add_impl.h") is None


def test_text_layers(dec):
    desc = (SUITE / "tasks/level1/Math/LeakyClip/api_desc.md").read_text()
    body = desc.split("\n", 1)[1]                # without its "# aclnnLeakyClip" heading: the prose alone
    assert dec.check_text("Please implement:\n" + body).reason == "text_ngram"
    assert dec.check_text("Please implement:\n" + desc).reason == "name"       # the heading names the API
    assert dec.check_text("mentions fixture-bench-canary-3 here").reason == "blocklist"
    assert dec.check_text("A leaky slope and a ceiling are common in activation functions.") is None
    assert dec.check_text("x", names=["aclnnLeakyClip"]).reason == "name"


def test_builtin_suite_loads_when_present():
    root = builtin_suite()
    if not (root / "tasks").is_dir():
        pytest.skip("built-in suite not present")
    d = Decontaminator(root)
    assert len(d.tasks) > 0
    t = d.tasks[0]
    answer = next((root / "tasks" / t.task_id).glob("answer/*/op_kernel/*.cpp"))
    assert d.check_code(answer.read_text()) is not None


@pytest.mark.skipif(not NKB.is_dir(), reason="../shared/fixtures/npukernelbench-sample absent")
def test_npukernelbench_sample_answers_are_caught_and_our_kernels_are_not():
    d = Decontaminator(NKB)
    assert len(d.tasks) >= 10
    for t in d.tasks[:5]:
        files = sorted((Path(NKB) / ("tasks" if (NKB / "tasks").is_dir() else "") / t.task_id).glob("answer/*/op_kernel/*.cpp"))
        if files:
            assert d.check_code(files[0].read_text()) is not None, t.task_id
    assert d.check_code((OPS / "math/scaled_add/op_kernel/scaled_add_impl.h").read_text()) is None
