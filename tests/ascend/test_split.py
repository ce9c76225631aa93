"""Compile on a CPU node, execute on an NPU node: builds handed over through a real (local) artifact store."""
from __future__ import annotations

from kernelgen.bench.backends.ascend.split import compile_all
from kernelgen.bench.model import Verdict
from kernelgen.storage import open_store

from .ascend_support import reference, task_named


def test_compile_phase_publishes_and_execute_phase_fetches(recorded, sample_suite, tmp_path):
    store = open_store(tmp_path / "artifacts")
    task = task_named(sample_suite, "AddCustom")
    broken = reference(task, 1)
    k = f"op_kernel/{task.kernel_name}.cpp"
    broken.files = {**broken.files, k: broken.files[k] + "\n// FAKE_COMPILE_ERROR\n"}
    cpu = recorded.backend(phase="compile", artifacts=store)
    work = [(task, reference(task, 0), task.cases), (task, broken, task.cases), (task, reference(task, 2), task.cases)]
    out = compile_all(cpu, work, tmp_path / "wd", timeout_s=120, workers=2)
    assert (out.built + out.cached, out.failed, out.infra) == (2, 1, 0)
    assert out.built == 1      # samples 0 and 2 are identical: one build
    keys = sorted(store.list(""))
    assert sum(k.endswith(".tar.gz") for k in keys) == 1 and sum(k.endswith(".json") for k in keys) == 2

    npu = recorded.backend(phase="execute", artifacts=store, cache_dir=tmp_path / "npu-cache")
    n_calls = len(recorded.calls())
    ws = npu.prepare(task, reference(task, 0), tmp_path / "npu-ws")
    res = npu.compile(ws, 120)
    assert res.ok and res.cached and len(recorded.calls()) == n_calls       # nothing compiled on the NPU node
    lay = npu.layout(ws)
    assert lay.extension.is_file() and lay.opapi_lib(npu.meta(ws)["vendor"]).is_file()
    assert npu.runtime_env(ws).env["KERNELGEN_CUST_OPAPI_LIB"].startswith(str(tmp_path / "npu-cache"))
    bad = npu.compile(npu.prepare(task, broken, tmp_path / "npu-bad"), 120)
    assert not bad.ok and bad.verdict == Verdict.COMPILE_ERROR and "tileLen" in bad.log


def test_execute_phase_without_the_build_is_an_infra_failure(recorded, sample_suite, tmp_path):
    task = task_named(sample_suite, "Sqrt")
    npu = recorded.backend(phase="execute", artifacts=open_store(tmp_path / "empty"))
    res = npu.compile(npu.prepare(task, reference(task), tmp_path / "ws"), 120)
    assert res.verdict == Verdict.INFRA_ERROR and "compile phase pending" in res.log
    assert recorded.calls() == []


def test_compile_stage_builds_one_shard_of_a_spec(recorded, sample_suite, tmp_path):
    from kernelgen.bench.backends.ascend.split import compile_stage
    from kernelgen.specs import load_spec
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "split"},
                      "spec": {"suite": {"uri": str(sample_suite.root), "names": ["AddCustom", "Sqrt", "Gelu"]},
                               "candidates": {"source": "reference"}, "output": {"uri": str(tmp_path / "runs")}}})
    store = open_store(tmp_path / "artifacts")
    be = recorded.backend(phase="compile", artifacts=store)
    got = [compile_stage(spec, shard=i, shards=2, backend=be) for i in range(2)]
    assert sum(o.built + o.cached + o.failed for o in got) == 3 and all(o.infra == 0 for o in got)
    assert len([k for k in store.list("") if k.endswith(".json")]) == 3
    assert [c["argv"][0] for c in recorded.calls() if c["tool"] == "msopgen"] == ["gen"] * 3


def test_compile_phase_never_runs_cases(recorded, sample_suite, tmp_path):
    import pytest
    task = task_named(sample_suite, "Sqrt")
    be = recorded.backend(phase="compile", artifacts=open_store(tmp_path / "a"))
    ws = be.prepare(task, reference(task), tmp_path / "ws")
    with pytest.raises(RuntimeError, match="execute phase"):
        be.runtime_env(ws)
