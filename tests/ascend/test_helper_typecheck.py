"""The binding helper (helper/pytorch_npu_helper.hpp) type-checks with every sample task's pybind.cpp, as the
backend rewrites it, against the real torch headers. The CANN and torch_npu headers are STUBS (boundary double,
tests/ascend/stub_cann_headers): this checks our C++ (overloads for tensors, tensor lists, scalars, attributes,
ConvertTensorToAclScaler, the two-phase call), not CANN. All tasks go into one translation unit (one namespace
each) because parsing torch's headers dominates the time."""
from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from kernelgen.bench.backends.ascend.toolchain import HELPER_DIR
from kernelgen.bench.torch_cxx import binding_std_flag

STUBS = Path(__file__).resolve().parent / "stub_cann_headers"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is needed to type-check the helper")
def test_every_sample_binding_type_checks_against_the_helper(sample_suite, recorded, tmp_path):
    from kernelgen.bench.backends.sim import torch_build_info

    from .ascend_support import reference
    tinfo = torch_build_info()
    be = recorded.backend()
    parts = ["#include <torch/csrc/autograd/custom_function.h>", "#include <torch/library.h>",
             '#include "pytorch_npu_helper.hpp"', "#include <torch/extension.h>", "#include <cmath>",
             "#undef PYBIND11_MODULE",
             "#define PYBIND11_MODULE(name, variable) void module_init(pybind11::module_& variable)"]
    for i, task in enumerate(sample_suite.tasks):
        ws = be.prepare(task, reference(task), tmp_path / f"t{i}")
        text = (ws.root / "src" / "pybind.cpp").read_text()
        op_u = be.meta(ws)["op_unique"]
        assert re.findall(r"EXEC_NPU_CMD\(\s*(\w+)", text) == [f"aclnn{op_u}"], task.task_id
        parts += [f"namespace task{i} {{", f'#line 1 "{task.task_id}/pybind.cpp"', text, "}"]
    tu = tmp_path / "all_bindings.cpp"
    tu.write_text("\n".join(parts) + "\n")
    cmd = ["g++", binding_std_flag(), "-fsyntax-only", "-w", f"-D_GLIBCXX_USE_CXX11_ABI={tinfo['abi']}",
           "-DTORCH_EXTENSION_NAME=kernel_gen_ops", f"-I{HELPER_DIR}", f"-I{STUBS}", *(f"-I{d}" for d in tinfo["inc"]),
           f"-I{sysconfig.get_paths()['include']}", str(tu)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert r.returncode == 0, r.stderr[-4000:]
