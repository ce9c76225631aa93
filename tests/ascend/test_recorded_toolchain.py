"""compile() end to end through the RECORDED TOOLCHAIN (boundary double for msopgen/cmake/the binding compiler:
it records argv/env and emits canned outputs; the shared objects it makes are real ELF files)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from kernelgen.bench.model import CompileErrorClass, Verdict

from .ascend_support import reference, task_named


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"     # a killed process not yet reaped is a zombie


def _build(recorded, suite, op="AddCustom", tmp=None, mutate=None, **kw):
    task = task_named(suite, op)
    cand = reference(task)
    if mutate:
        cand.files = mutate(dict(cand.files), task)
    be = recorded.backend(**kw)
    ws = be.prepare(task, cand, recorded.root / "ws" / op)
    return be, ws, be.compile(ws, 120)


def test_recorded_toolchain_build_runs_the_planned_commands_in_order(recorded, sample_suite, monkeypatch):
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", "/usr/local/Ascend/opp/vendors/customize")   # must not leak
    be, ws, res = _build(recorded, sample_suite)
    assert res.ok, res.log
    calls = recorded.calls()
    assert [c["tool"] for c in calls] == ["msopgen", "cmake", "cmake", "cmake", "fake-cxx"]
    m = be.meta(ws)
    lay = be.layout(ws)
    assert calls[0]["argv"][:2] == ["gen", "-i"] and "ai_core-Ascend910B2" in calls[0]["argv"]
    assert json.loads(lay.op_json.read_text())[0]["op"] == m["op_unique"]
    assert calls[1]["argv"] == ["-S", ".", "-B", "build_out", "--preset=default"]
    assert calls[2]["argv"][-3:-1] == ["binary", "-j"] and calls[3]["argv"][-3:-1] == ["package", "-j"]
    for c in calls:
        assert "ASCEND_CUSTOM_OPP_PATH" not in c["env"]
        assert c["env"]["ASCEND_HOME_PATH"] == str(recorded.root / "cann")
    # candidate sources replaced the generated stubs; presets carry the private vendor name
    assert sorted(p.name for p in (lay.proj / "op_kernel").iterdir()) == [f"{m['kernel_unique']}.cpp"]
    assert not (lay.proj / "op_host" / "stub_generated.cpp").exists()
    cv = json.loads((lay.proj / "CMakePresets.json").read_text())["configurePresets"][0]["cacheVariables"]
    assert cv["vendor_name"]["value"] == m["vendor"] and cv["ASCEND_COMPUTE_UNIT"]["value"] == "ascend910b"
    assert cv["ASCEND_CANN_PACKAGE_PATH"]["value"] == str(recorded.root / "cann")
    # installed privately, symbols verified from the candidate's own library
    assert lay.opapi_lib(m["vendor"]).is_file() and str(lay.opapi_lib(m["vendor"])).startswith(str(lay.root))
    sym = json.loads((lay.root / "symbols.json").read_text())
    assert sym["symbols"] == [f"aclnn{m['op_unique']}GetWorkspaceSize", f"aclnn{m['op_unique']}"]
    rt = be.runtime_env(ws)
    assert rt.env["ASCEND_CUSTOM_OPP_PATH"] == str(lay.vendor_dir(m["vendor"]))
    assert rt.env["KERNELGEN_CUST_OPAPI_LIB"] == str(lay.opapi_lib(m["vendor"]))
    assert rt.env["ASCEND_RT_VISIBLE_DEVICES"] == "0" and rt.device == "npu:0" and rt.python_path == [lay.out]


def test_same_content_is_built_once(recorded, sample_suite):
    be, ws, first = _build(recorded, sample_suite)
    n = len(recorded.calls())
    again = be.compile(be.prepare(ws.task, ws.candidate, recorded.root / "ws2"), 120)
    assert first.ok and again.ok and again.cached and not first.cached
    assert len(recorded.calls()) == n


def test_two_candidates_get_distinct_op_names_and_vendors(recorded, sample_suite):
    task = task_named(sample_suite, "AddCustom")
    be = recorded.backend()
    a = reference(task, 0)
    b = reference(task, 1)
    b.files = {**b.files, f"op_kernel/{task.kernel_name}.cpp": b.files[f"op_kernel/{task.kernel_name}.cpp"] + "\n// v2\n"}
    ma = be.meta(be.prepare(task, a, recorded.root / "a"))
    mb = be.meta(be.prepare(task, b, recorded.root / "b"))
    assert ma["op_unique"] != mb["op_unique"] and ma["vendor"] != mb["vendor"]


def test_bisheng_error_is_a_classified_compile_error(recorded, sample_suite):
    def broken(files, task):
        k = f"op_kernel/{task.kernel_name}.cpp"
        return {**files, k: files[k] + "\n// FAKE_COMPILE_ERROR\n"}
    _be, _ws, res = _build(recorded, sample_suite, mutate=broken)
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR
    assert res.error_class == CompileErrorClass.SCOPE
    assert "use of undeclared identifier 'tileLen'" in res.log
    assert [c["tool"] for c in recorded.calls()] == ["msopgen", "cmake", "cmake"]   # stopped at the failing step


def test_extension_defining_the_aclnn_symbol_is_a_load_error(recorded, sample_suite, monkeypatch):
    orig = type(recorded.backend()).prepare

    def prepare(self, task, cand, wd):
        ws = orig(self, task, cand, wd)
        p = ws.root / "src" / "pybind.cpp"
        p.write_text(p.read_text() + "\n// FAKE_SMUGGLE\n")
        return ws
    monkeypatch.setattr(type(recorded.backend()), "prepare", prepare)
    _be, _ws, res = _build(recorded, sample_suite)
    assert not res.ok and res.verdict == Verdict.LOAD_ERROR
    assert "defines aclnn" in res.log and "itself" in res.log


def test_missing_opdef_is_a_scope_compile_error_without_running_tools(recorded, sample_suite):
    def no_opdef(files, task):
        return {k: v.replace("public OpDef", "public NotAnOpDef") if k.startswith("op_host/") else v
                for k, v in files.items()}
    _be, _ws, res = _build(recorded, sample_suite, mutate=no_opdef)
    assert res.verdict == Verdict.COMPILE_ERROR and res.error_class == CompileErrorClass.SCOPE
    assert recorded.calls() == []


def test_compile_timeout_kills_the_whole_process_group(recorded, sample_suite):
    be = recorded.backend(toolchain=recorded.toolchain(extra_env={"FAKE_CANN_SLEEP": "60"}))
    task = task_named(sample_suite, "AddCustom")
    ws = be.prepare(task, reference(task), recorded.root / "ws")
    t0 = time.monotonic()
    res = be.compile(ws, 4)
    assert res.verdict == Verdict.TIMEOUT and time.monotonic() - t0 < 30
    child = int(Path(str(recorded.record) + ".child").read_text())
    time.sleep(0.2)
    assert not _alive(child)    # the grandchild went down with its process group
    assert not (be.layout(ws).root / "result.json").exists()   # a timeout is not cached
