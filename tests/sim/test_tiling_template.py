"""Tiling template programming and standard C++ TilingData (tests/sim/data's ScaleTemplate, our own task).

The kernel entry is a function template over the element type (the dtype of input 0), a mode and a sign; the host
fills a plain C++ TilingData struct (GetTilingData<T>) and packs the template arguments into the tiling key with
GET_TPL_TILING_KEY; the kernel registers the struct with REGISTER_TILING_DEFAULT. The build instantiates the entry
once per combination ASCENDC_TPL_SEL selects (per dtype column), and the key picks the instantiation at launch.
The key layout itself is checked against the documented encoding in tests/sim/cpp/tpl_key_test.cpp."""
import pytest

from kernelgen.bench.backends import sim_tpl
from kernelgen.bench.backends.build_sandbox import BuildError
from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, REPO, answer_files, load, run_cpp_driver

CPP = REPO / "tests" / "sim" / "cpp"
TASK = DATA_TASKS / "level1" / "Template" / "ScaleTemplate"
KERNEL = "op_kernel/scale_template.cpp"


def test_tiling_keys_follow_the_documented_layout():
    run_cpp_driver(CPP / "tpl_key_test.cpp")


def test_each_selected_combination_runs_and_an_unselected_key_has_no_kernel(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2, 3, 4])
    # float32 and float16 columns, both modes, both signs (the sign-flipped mode 3 is its own selection group)
    for case in (0, 1, 2, 3):
        assert results[case].verdict == Verdict.OK, (case, results[case].message[-600:])
    # mode 1 with negate is left out of ASCENDC_TPL_SEL: the key has no kernel, as on the device
    assert results[4].verdict == Verdict.RUNTIME_ERROR, results[4].message[-600:]
    assert "no ASCENDC_TPL_SEL combination for this key" in results[4].message


def test_a_kernel_that_ignores_a_template_argument_is_wrong(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("float sign = NEGATE ? -1.0f : 1.0f;", "float sign = 1.0f;")
    res, rt = runner.build(task, files, tag="ignores-negate")
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 2])
    assert results[0].verdict == Verdict.OK and results[2].verdict == Verdict.VALUE_MISMATCH, results[2].message


def test_get_tiling_data_without_a_registered_struct_names_the_fix(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("    REGISTER_TILING_DEFAULT(ScaleTemplateTilingData);\n", "")
    res, _ = runner.build(task, files, tag="no-default-tiling")
    assert not res.ok and "UseREGISTER_TILING_DEFAULT" in res.log, res.log[-3000:]


MIX = DATA_TASKS / "level3" / "Mix" / "MatmulRelu"
MIX_KEY_HEADER = """#include "ascendc/host_api/tiling/template_argument.h"
ASCENDC_TPL_ARGS_DECL(MatmulRelu, ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_BOOL_DECL(RELU, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_MIX_AIC_1_2),
                                     ASCENDC_TPL_DATATYPE_SEL(D_T, ASCENDC_TPL_INPUT(0)), ASCENDC_TPL_BOOL_SEL(RELU, 1)));
"""


def test_a_mixed_cube_kernel_written_as_a_tiling_template_runs_its_selected_instantiation(runner):
    # the AIC and AIV builds of each instantiation register under its key (MIX_AIC_1_2 from ASCENDC_TPL_KERNEL_TYPE_SEL)
    task = load(MIX)
    files = answer_files(task)
    kernel, host = "op_kernel/matmul_relu.cpp", "op_host/matmul_relu.cpp"
    files["op_kernel/matmul_relu_tiling_key.h"] = MIX_KEY_HEADER
    entry = 'extern "C" __global__ __aicore__ void matmul_relu('
    assert entry in files[kernel] and "MatmulReluKernel<DTYPE_A> op;" in files[kernel]
    files[kernel] = (files[kernel].replace(entry, "template <typename T, int RELU>\n__global__ __aicore__ void matmul_relu(")
                     .replace("MatmulReluKernel<DTYPE_A> op;", "static_assert(RELU == 1);\n    MatmulReluKernel<T> op;")
                     .replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "matmul_relu_tiling_key.h"'))
    files[host] = (files[host].replace('#include "register/op_def_registry.h"',
                                       '#include "register/op_def_registry.h"\n#include "../op_kernel/matmul_relu_tiling_key.h"')
                   .replace("    context->SetBlockDim(",
                            "    context->SetTilingKey(GET_TPL_TILING_KEY(context->GetInputDesc(0)->GetDataType(), 1));\n"
                            "    context->SetBlockDim(", 1))
    res, rt = runner.build(task, files, tag="tiling-template-mix")
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1])
    assert all(r.verdict == Verdict.OK for r in results.values()), {k: r.message[-400:] for k, r in results.items()}


def test_a_malformed_declaration_from_host_code_is_a_compile_error_naming_it():
    # the dump is printed by a process that runs candidate host code: what it says is checked before it becomes C++
    good = {"params": [{"name": "M", "kind": 2, "offset": 0}], "instances": [{"args": [3], "key": 0, "kernel_type": -1}],
            "error": ""}
    assert sim_tpl.declaration({"tpl": {"Op": good}}, "Op") is good
    for bad in ({"tpl": {"Op": {**good, "instances": [{"args": ["0); abort(); //"], "key": 0, "kernel_type": -1}]}}},
                {"tpl": {"Op": {**good, "params": [{"name": "M", "kind": 2, "offset": 99}]}}},
                {"tpl": {"Op": []}}, {"tpl": []}, {"tpl": {"Op": {**good, "instances": []}}}):
        with pytest.raises(BuildError) as e:
            sim_tpl.declaration(bad, "Op")
        assert e.value.verdict.value == "compile_error", e.value.log
