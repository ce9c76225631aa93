"""The built-in suite: structure, naming conventions, test cases, and the reference models and checkers on CPU."""
from __future__ import annotations

import importlib.util
import math
import re

import pytest
import torch

from kernelgen.bench.tasks import builtin_suite_dir, camel_to_snake, case_row, load_suite

SUITE = load_suite("builtin")
TASKS = sorted(SUITE.tasks, key=lambda t: t.task_id)
IDS = [t.task_id for t in TASKS]
UB_BYTES = 192 * 1024
DTYPE_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "float": 4}
GE_DTYPES = {"ge::DT_FLOAT16": "float16", "ge::DT_FLOAT": "float32", "ge::DT_BF16": "bfloat16"}
API_DESC_SECTIONS = ["## Functional Description", "### Operator Semantics", "### Mathematical Definition",
                     "## Interface Definition", "### Python Interface", "### Inputs", "### Outputs",
                     "## Usage Example", "## Constraints and Notes"]


def _import(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _entry_params(source: str, kernel: str) -> list[str]:
    m = re.search(rf'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+{kernel}\s*\(([^)]*)\)', source)
    assert m, f"no kernel entry named {kernel}"
    return [p.split()[-1] for p in m.group(1).split(",")]


def _opdef(source: str) -> list[tuple[str, str, str]]:
    """(kind, name, dtype list) of every Input/Output/Attr in an OpDef, in order."""
    items = []
    for m in re.finditer(r'this->(Input|Output|Attr)\("(\w+)"\)((?:\s*\.\w+\([^;]*?\))*)\s*;', source):
        dt = re.search(r"\.DataType\(\{([^}]*)\}\)", m.group(3))
        items.append((m.group(1), m.group(2), re.sub(r"\s+", "", dt.group(1)) if dt else ""))
    return items


def _first_float_dtypes(task) -> set[str]:
    host = task.question_files[f"op_host/{task.kernel_name}.cpp"]
    for kind, _, dts in _opdef(host):
        names = {GE_DTYPES.get(d) for d in dts.split(",")}
        if kind == "Input" and None not in names:
            return names
    for kind, _, dts in _opdef(host):
        if kind == "Output":
            return {GE_DTYPES[d] for d in dts.split(",") if d in GE_DTYPES}
    raise AssertionError("no floating-point parameter")


def _innermost_len(row: dict) -> int:
    for key in ("shape", "input_shape"):
        if key in row:
            shape = row[key] if isinstance(row[key], (list, tuple)) else eval(row[key])  # noqa: S307 (CSV literal)
            return int(shape[-1])
    if "embedding_dim" in row:
        return int(row["embedding_dim"])
    return int(row["n"])


def _input_bytes(inputs) -> int:
    return max(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))


def test_suite_loads_without_errors_and_has_the_promised_levels():
    assert not SUITE.errors, [str(e) for e in SUITE.errors]
    levels = [t.level for t in TASKS]
    assert (levels.count(1), levels.count(2), levels.count(3)) == (8, 6, 2)
    assert SUITE.root == builtin_suite_dir()


def test_suite_has_a_cube_matmul_task():
    cube = [t for t in TASKS if "GetCoreNumAic" in t.question_files[f"op_host/{t.kernel_name}.cpp"]]
    assert [t.op_name for t in cube] == ["MatmulHalf"]
    kernel = (cube[0].answer_dir / "op_kernel" / f"{cube[0].kernel_name}.cpp").read_text()
    for api in ("Mmad(", "LoadData(", "Nd2NzParams", "Fixpipe<", "QuePosition::CO1"):
        assert api in kernel


def test_no_overlap_with_the_sample_fixture_ops():
    fixture_ops = {"Equal", "IsFinite", "Arange", "ClipByValue", "AddCustom", "Sqrt", "MseLoss", "ForeachAbs",
                   "RmsNorm", "Tril", "Gelu", "MulSigmoidMulAddCustom", "BasicMatmul"}
    assert not fixture_ops & {t.op_name for t in TASKS}


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_names_follow_the_npukernelbench_conventions(task):
    k, op = task.kernel_name, task.op_name
    assert task.root.name == op and "_" not in op and op[0].isupper()
    assert k == camel_to_snake(op)
    assert set(task.question_files) == {f"op_host/{k}.cpp", f"op_kernel/{k}.cpp"}
    answer = task.answer_dir
    for rel in (f"op_host/{k}.cpp", f"op_host/{k}_tiling.h", f"op_kernel/{k}.cpp", "CMakeLists.txt"):
        assert (answer / rel).is_file(), rel
    cmake = (answer / "CMakeLists.txt").read_text()
    assert f"OP_NAME {op}" in cmake and f"op_kernel/{k}.cpp" in cmake and "--cce-auto-sync=on" in cmake
    pybind = (task.validation_dir / "pybind.cpp").read_text()
    assert re.search(rf"EXEC_NPU_CMD\(aclnn{op},", pybind)
    assert f'm.def("{k}",' in pybind and "PYBIND11_MODULE(kernel_gen_ops" in pybind
    module = (task.validation_dir / "module.py").read_text()
    assert f"kernel_gen_ops.{k}(" in module
    assert task.api_desc.startswith(f"# aclnn{op}\n")
    positions = [task.api_desc.find(s + "\n") for s in API_DESC_SECTIONS]
    assert -1 not in positions and positions == sorted(positions), "api_desc.md sections missing or out of order"
    assert f"def {k}(" in task.api_desc and f"kernel_gen_ops.{k}(" in task.api_desc


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_answer_matches_the_question_templates(task):
    k = task.kernel_name
    stub = task.question_files[f"op_kernel/{k}.cpp"]
    answer_kernel = (task.answer_dir / "op_kernel" / f"{k}.cpp").read_text()
    assert _entry_params(stub, k) == _entry_params(answer_kernel, k)
    assert _entry_params(stub, k)[-2:] == ["workspace", "tiling"]
    body = stub[stub.index("GM_ADDR tiling)"):]
    assert re.fullmatch(r"GM_ADDR tiling\)\s*\{\s*\}\s*", body), "the question stub must not carry an answer"
    host_q = task.question_files[f"op_host/{k}.cpp"]
    host_a = (task.answer_dir / "op_host" / f"{k}.cpp").read_text()
    assert _opdef(host_q) == _opdef(host_a) and _opdef(host_q)
    assert f"OP_ADD({task.op_name});" in host_a
    # The answer really tiles: registered tiling data, saved to the context, an explicit block dim.
    tiling_h = (task.answer_dir / "op_host" / f"{k}_tiling.h").read_text()
    assert f"REGISTER_TILING_DATA_CLASS({task.op_name}, " in tiling_h and "BEGIN_TILING_DATA_DEF" in tiling_h
    for needle in ("SaveToBuffer(", "SetDataSize(", "SetBlockDim(", "PlatformAscendC(", "GetWorkspaceSizes("):
        assert needle in host_a
    for needle in ("GET_TILING_DATA(", "TPipe", "GetBlockIdx()"):
        assert needle in answer_kernel
    if "GetCoreNumAiv" in host_q:
        assert "DataCopyPad(" in answer_kernel and "TQue" in answer_kernel


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_cases_cover_dtypes_tails_and_more_than_one_ub(task):
    assert len(task.cases) >= 3
    assert [c.case_id for c in task.cases] == list(range(len(task.cases)))
    rows = [case_row(task, c) for c in task.cases]
    assert {r["dtype"] for r in rows} == _first_float_dtypes(task), "every declared dtype column is exercised"
    assert any(_innermost_len(r) * DTYPE_BYTES[r["dtype"]] % 32 for r in rows), "no case with a sub-32-byte tail"
    prep = _import(task.validation_dir / "prepare_inputs.py", f"prep_{task.kernel_name}")
    biggest = 0
    for r in rows:
        torch.manual_seed(0)
        biggest = max(biggest, _input_bytes(prep.get_inputs(r, device="cpu")))
    assert biggest > UB_BYTES, f"largest case moves {biggest} bytes, not more than one UB"


def _perturb(out: torch.Tensor) -> torch.Tensor:
    bad = out.clone()
    flat = bad.view(-1)
    i = flat.numel() // 2
    if bad.dtype == torch.bool:
        flat[i] = ~flat[i]
    elif bad.is_floating_point():
        flat[i] = flat[i] * 1.5 + 1.0
    else:
        flat[i] = flat[i] + 1
    return bad


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_reference_model_runs_on_cpu_and_the_checker_is_not_blind(task):
    prep = _import(task.validation_dir / "prepare_inputs.py", f"prep_{task.kernel_name}")
    module = _import(task.validation_dir / "module.py", f"module_{task.kernel_name}")
    check = getattr(prep, "custom_check_precision", None)
    for case in task.cases:
        row = case_row(task, case)
        torch.manual_seed(1234 + case.case_id)
        inputs = prep.get_inputs(row, device="cpu")
        model = module.Model(*prep.get_init_inputs(row, device="cpu"))
        out = model(*inputs)
        outs = out if isinstance(out, tuple) else (out,)
        for o in outs:
            assert isinstance(o, torch.Tensor) and o.numel() > 0
            if o.is_floating_point():
                assert torch.isfinite(o).all(), f"case {case.case_id}: reference produced non-finite values"
        if check is None:
            continue
        assert check(row, out, out)[0] == 1, f"case {case.case_id}: checker rejects the reference itself"
        wrong = tuple(_perturb(o) for o in outs) if isinstance(out, tuple) else _perturb(out)
        assert check(row, out, wrong)[0] == 0, f"case {case.case_id}: checker accepts a wrong element"
        widened = tuple(o.double() for o in outs) if isinstance(out, tuple) else out.double()
        assert check(row, out, widened)[0] == 0, f"case {case.case_id}: checker accepts a different dtype"


def test_readme_lists_every_task():
    readme = (builtin_suite_dir().parent / "README.md").read_text()
    for t in TASKS:
        assert f"| {t.level} | {t.category} | {t.op_name} |" in readme, t.task_id
