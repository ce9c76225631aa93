"""The error classifier on REAL error texts collected from public issue threads (tests/ascend/data/real_errors.yaml,
each with its source URL): bisheng/ccec/clang diagnostics -> the paper's compile-error classes, CANN/torch_npu
runtime failures -> typed runtime verdicts."""
from pathlib import Path

import pytest
import yaml
from kernelgen.bench.errors import (
    RuntimeErrorKind,
    classify_compile_error,
    classify_runtime_error,
)
from kernelgen.bench.model import CompileErrorClass, Verdict

DATA = yaml.safe_load((Path(__file__).parent / "data" / "real_errors.yaml").read_text())


def test_corpus_has_at_least_30_sourced_texts():
    items = DATA["compile"] + DATA["runtime"]
    assert len(items) >= 30
    assert len({i["id"] for i in items}) == len(items)
    for i in items:
        assert i["source"].startswith("https://github.com/"), i["id"]
        assert i["text"].strip()


@pytest.mark.parametrize("item", DATA["compile"], ids=lambda i: i["id"])
def test_compile_texts(item):
    assert classify_compile_error(item["text"]) == CompileErrorClass(item["expected"])


@pytest.mark.parametrize("item", DATA["runtime"], ids=lambda i: i["id"])
def test_runtime_texts(item):
    fault = classify_runtime_error(item["text"])
    assert fault is not None
    assert fault.kind == RuntimeErrorKind(item["expected_kind"])
    assert fault.verdict == Verdict(item["expected_verdict"])


def test_device_suspect_only_for_device_faults():
    by_id = {i["id"]: i for i in DATA["runtime"]}
    assert classify_runtime_error(by_id["pto-dsl-90-fftsplus-aicore"]["text"]).device_suspect
    assert classify_runtime_error(by_id["ptoas-864-aicore-timeout"]["text"]).device_suspect
    assert not classify_runtime_error(by_id["vllm-omni-1199-oom"]["text"]).device_suspect
    assert not classify_runtime_error(by_id["vllm-ascend-9258-not-in-libopapi"]["text"]).device_suspect


def test_error_code_is_extracted():
    assert classify_runtime_error("NPU function error: x, error code is 507035").code == 507035
    assert classify_runtime_error("aclrtSynchronizeStream(stream) failed: 507014\n[aicore timeout]").kind == \
        RuntimeErrorKind.AICORE_TIMEOUT


def test_non_npu_text_is_not_a_runtime_fault():
    assert classify_runtime_error("") is None
    assert classify_runtime_error("AssertionError: outputs differ") is None


def test_gpp_behaviour_kept():
    # the sim backend's g++ spellings still classify as before (tests/sim/test_errors.py has the full set)
    assert classify_compile_error("k.cpp:3:5: error: 'x' was not declared in this scope") == CompileErrorClass.SCOPE
    assert classify_compile_error("k.cpp:4:9: error: 'class AscendC::LocalTensor<float>' has no member named "
                                  "'GetData'") == CompileErrorClass.MEMORY_OBJECT
