"""sim backend plumbing that needs no compiler run: workspace preparation, content hashing, registry lookup,
source pre-processing and the generated kernel-side tiling struct / DTYPE combinations."""
import json
from pathlib import Path

import pytest

from kernelgen.bench.backends import get_backend
from kernelgen.bench.backends.sim import (SIM_PYTHON, SimBackend, dtype_combos, host_sources, preprocess_kernel, tiling_header,
                                          tiling_keys)
from kernelgen.bench.model import Backend, Candidate

from .conftest import REPO, load

TASK = REPO / "tests" / "sim" / "data" / "level1" / "Sync" / "SyncRoll"


def test_registry_returns_sim_backend(tmp_path):
    be = get_backend("sim", cache_dir=tmp_path)
    assert isinstance(be, SimBackend) and isinstance(be, Backend)
    assert be.name == "sim"


def test_kernel_only_candidate_gets_question_host_and_rewritten_pybind(tmp_path):
    task = load(TASK)
    be = SimBackend(cache_dir=tmp_path / "cache")
    kernel = "#include \"kernel_operator.h\"\n// candidate\n"
    ws = be.prepare(task, Candidate(task.task_id, 0, {"op_kernel/sync_roll.cpp": kernel}, "test"), tmp_path / "ws")
    src = ws.root / "src"
    assert (src / "op_kernel" / "sync_roll.cpp").read_text() == kernel
    assert (src / "op_host" / "sync_roll.cpp").read_text() == task.question_files["op_host/sync_roll.cpp"]
    pybind = (src / "pybind.cpp").read_text()
    assert "aclnnSyncRoll" in pybind and "aclnnCustomOp" not in pybind
    assert '"sync_roll"' in pybind and "custom_pybind_api" not in pybind
    rt = be.runtime_env(ws)
    assert rt.device == "cpu" and SIM_PYTHON in rt.python_path and be.build_dir(ws) in rt.python_path
    # the content hash follows the candidate
    ws2 = be.prepare(task, Candidate(task.task_id, 0, {"op_kernel/sync_roll.cpp": kernel + " "}, "test"), tmp_path / "ws2")
    ws3 = be.prepare(task, Candidate(task.task_id, 1, {"op_kernel/sync_roll.cpp": kernel}, "other"), tmp_path / "ws3")
    assert ws2.content_sha256 != ws.content_sha256 and ws3.content_sha256 == ws.content_sha256


def test_preprocess_renames_entry_and_strips_bisheng_syntax():
    src = ('extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR y) {}\n'
           "void launch() { sqrt<<<8, nullptr, stream>>>(x, y); }\n"
           "__forceinline__ [aicore] void f() {}\n")
    out = preprocess_kernel(src, "sqrt")
    assert "void ascsim_entry_sqrt(GM_ADDR x" in out and 'extern "C"' not in out
    assert "<<<" not in out and "[aicore]" not in out
    # no space between extern and "C": the entry still loses its C linkage (one per dtype combination must link)
    out = preprocess_kernel('extern"C" __global__ __aicore__ void sqrt(GM_ADDR x) {}', "sqrt")
    assert out.startswith("__global__ __aicore__ void ascsim_entry_sqrt(GM_ADDR x)") and '"C"' not in out


def test_tiling_keys_literals_only():
    assert tiling_keys(["if (TILING_KEY_IS(1)) {} else if (TILING_KEY_IS(20UL)) {}"]) == [1, 20]
    assert tiling_keys(["if (TILING_KEY_IS(KEY_HALF)) {}"]) == []
    # TILING_KEY_LIST(k1, k2) selects either key: both get a kernel
    assert tiling_keys(["if (TILING_KEY_LIST(3, 7)) {} else if (TILING_KEY_IS(1)) {}"]) == [1, 3, 7]
    assert tiling_keys(["if (TILING_KEY_LIST(3, K)) {}"]) == []


def test_generated_tiling_struct_and_dtype_columns():
    dump = {"tiling": {"Op": "T"}, "classes": {"Sub": [{"name": "a", "type": "uint64_t", "count": 1, "struct": False}],
                                               "T": [{"name": "n", "type": "uint32_t", "count": 1, "struct": False},
                                                     {"name": "v", "type": "float", "count": 4, "struct": False},
                                                     {"name": "s", "type": "Sub", "count": 1, "struct": True}]}}
    h = tiling_header(dump, "Op")
    assert "struct alignas(8) T {" in h and "float v[4];" in h and "Sub s;" in h
    assert h.index("struct alignas(8) Sub") < h.index("struct alignas(8) T")
    assert "using ascsim_default_tiling_t = T;" in h
    assert "UseREGISTER_TILING_DEFAULT" in tiling_header({"tiling": {}, "classes": {}}, "Op")   # no class: the fix is named
    opdef = {"inputs": [{"name": "x", "dtypes": [1, 0, 1]}], "outputs": [{"name": "y", "dtypes": [1, 0, 1]},
                                                                          {"name": "x", "dtypes": [1, 0, 1]}]}
    combos = dtype_combos(opdef)
    assert [cols for _, cols in combos] == [[0, 2], [1]]
    assert combos[0][0]["DTYPE_X"] == "half" and combos[1][0]["DTYPE_Y"] == "float"
    assert combos[0][0]["DTYPE_X_REF"] == "half"   # an output named like an input gets the _REF suffix


def test_host_sources_follow_the_cmake_fragment(tmp_path):
    host = tmp_path / "op_host"
    host.mkdir()
    for n in ("op.cpp", "op_def.cpp", "op_l0.cpp", "aclnn_op.cpp"):
        (host / n).write_text("")
    cmake = tmp_path / "CMakeLists.txt"
    assert host_sources(host, cmake) == sorted(host.glob("*.cpp"))           # no fragment: everything
    cmake.write_text("target_sources(optiling PRIVATE\n  op_host/op.cpp\n)\n# target_sources(opapi PRIVATE op_host/aclnn_op.cpp)\n"
                     "target_sources(op_host_aclnnInner PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/op_host/op_def.cpp)\n")
    assert [p.name for p in host_sources(host, cmake)] == ["op.cpp", "op_def.cpp"]   # what the build names
    cmake.write_text("target_sources(optiling PRIVATE op_host/custom_op.cpp)\n")   # a template's placeholder
    assert host_sources(host, cmake) == sorted(host.glob("*.cpp"))


@pytest.mark.parametrize("inputs,outputs,expected", [
    (["x", "y"], ["z"], False),            # an ordinary op
    (["x1", "x2", "gamma"], ["x1", "rstd"], True),   # an output named like an input: CANN's Ref (in-place) form
    (["x"], [], True),                     # no output at all: the op's only effect is on its inputs
    ([], [], False),
])
def test_opdef_declares_inplace(tmp_path, inputs, outputs, expected):
    from kernelgen.bench.backends.sim import declares_inplace
    f = tmp_path / "opdef.json"
    f.write_text(json.dumps({"ops": {"Op": {"inputs": [{"name": n} for n in inputs],
                                            "outputs": [{"name": n} for n in outputs]}}}))
    assert declares_inplace(f, "Op") is expected
    assert declares_inplace(f, "Other") is False


@pytest.mark.parametrize("text", ["", "[]", '{"ops": {"Op": {"inputs": 3}}}', '{"ops": {"Op": null}}'])
def test_opdef_declares_inplace_reads_hostile_dumps_as_no(tmp_path, text):
    from kernelgen.bench.backends.sim import declares_inplace
    f = tmp_path / "opdef.json"
    f.write_text(text)
    assert declares_inplace(f, "Op") is False


def test_the_kernel_tu_names_every_data_type_an_orig_dtype_macro_can_hold():
    """ORIG_DTYPE_<NAME> is the ge::DataType number; kernels compare it with DT_* (DT_INT4 in quant kernels)."""
    import re

    from kernelgen.bench.backends.sim import kernel_tu
    tu = kernel_tu("Op", "op", "op.cpp", {}, [0], [], 0)
    defined = dict(re.findall(r"#define (DT_\w+) (\d+)", tu))
    header = (REPO / "sim" / "include" / "ascsim" / "host" / "ge_types.h").read_text()
    ge = dict(re.findall(r"\b(DT_\w+) = (\d+)", header.split("enum DataType")[1].split("};")[0]))
    for name in ("DT_FLOAT", "DT_FLOAT16", "DT_BF16", "DT_INT4", "DT_DOUBLE", "DT_COMPLEX64", "DT_BOOL", "DT_UINT64"):
        assert defined[name] == ge[name], name


def test_the_kernel_tu_defines_format_macros_per_column():
    """FORMAT_<ARG> (the docs' third per-argument macro) is the column's ge::Format number, ND where the OpDef names
    none, and the TU names the formats a kernel compares it with (`#if FORMAT_X1 == FORMAT_FRACTAL_NZ`)."""
    import re

    from kernelgen.bench.backends.sim import dtype_combos, kernel_tu
    header = (REPO / "sim" / "include" / "ascsim" / "host" / "ge_types.h").read_text()
    ge = dict(re.findall(r"\b(FORMAT_\w+) = (\d+)", header.split("enum Format")[1].split("};")[0]))
    opdef = {"inputs": [{"name": "x1", "dtypes": [1, 1], "formats": [2, 29]}, {"name": "bias", "dtypes": [0, 0]}],
             "outputs": [{"name": "y", "dtypes": [1, 1], "formats": [2, 2]}]}
    combos = dtype_combos(opdef)
    assert [(m["FORMAT_X1"], m["FORMAT_BIAS"], m["FORMAT_Y"], cols) for m, cols in combos] == [
        (ge["FORMAT_ND"], ge["FORMAT_ND"], ge["FORMAT_ND"], [0]), (ge["FORMAT_FRACTAL_NZ"], ge["FORMAT_ND"], ge["FORMAT_ND"], [1])]
    tu = kernel_tu("Op", "op", "op.cpp", combos[1][0], combos[1][1], [], 0)
    defined = dict(re.findall(r"#define (FORMAT_\w+) (\d+)", tu))
    for name in ("FORMAT_ND", "FORMAT_FRACTAL_NZ", "FORMAT_NCHW", "FORMAT_NC1HWC0"):
        assert defined[name] == ge[name], name
    assert defined["FORMAT_X1"] == defined["FORMAT_FRACTAL_NZ"] != defined["FORMAT_ND"]
