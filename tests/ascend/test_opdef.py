"""OpDef parsing, unique naming and the msopgen op description on all NPUKernelBench sample tasks."""
from __future__ import annotations

import json
import re

import pytest
from kernelgen.bench.backends.ascend import opdef as od
from kernelgen.bench.backends.ascend.opdef import (
    OpDefError,
    parse_opdef,
    rename_host,
    rename_kernel_entry,
    snake,
)

from .ascend_support import reference


def test_every_sample_task_yields_a_valid_msopgen_description(sample_suite):
    assert len(sample_suite.tasks) == 13
    for task in sample_suite.tasks:
        cand = reference(task)
        host = {k: v for k, v in cand.files.items() if k.startswith("op_host/")}
        desc = parse_opdef(host, task.op_name)
        doc = json.loads(desc.msopgen_json())
        assert doc[0]["op"] == task.op_name and doc[0]["language"] == "cpp"
        assert doc[0]["input_desc"] and doc[0]["output_desc"], task.task_id
        for port in doc[0]["input_desc"] + doc[0]["output_desc"]:
            assert len(port["type"]) == len(port["format"]) > 0, (task.task_id, port)
            assert all(re.fullmatch(r"[a-z0-9]+", t) for t in port["type"]), port
        assert snake(task.op_name) == task.kernel_name


def test_dynamic_ports_and_vector_variables(sample_suite):
    task = next(t for t in sample_suite.tasks if t.op_name == "ForeachAbs")
    desc = parse_opdef({k: v for k, v in reference(task).files.items() if k.startswith("op_host/")}, "ForeachAbs")
    assert desc.inputs[0].param_type == "dynamic"
    assert desc.inputs[0].dtypes == ["float16", "float", "bfloat16"] and desc.inputs[0].formats == ["ND"] * 3


def test_attributes_are_described(sample_suite):
    task = next(t for t in sample_suite.tasks if t.op_name == "MseLoss")
    desc = parse_opdef({k: v for k, v in reference(task).files.items() if k.startswith("op_host/")}, "MseLoss")
    assert desc.attrs == [{"name": "reduction", "param_type": "optional", "type": "string", "default_value": "mean"}]


def test_renaming_leaves_no_trace_of_the_builtin_name(sample_suite):
    for task in sample_suite.tasks:
        files = reference(task).files
        op_u, k_u = od.unique_names(task.op_name, task.kernel_name, "0123456789abcdef")
        assert snake(op_u) == k_u
        for rel, text in files.items():
            if rel.startswith("op_host/"):
                new = rename_host(text, task.op_name, op_u)
                assert not re.search(rf"\b{task.op_name}\b", new), (task.task_id, rel)
        kernel = rename_kernel_entry(files[f"op_kernel/{task.kernel_name}.cpp"], task.kernel_name, k_u)
        assert re.search(rf"void\s+{k_u}\s*\(", kernel) and not re.search(rf"void\s+{task.kernel_name}\s*\(", kernel)


def test_errors_are_reported_not_crashed():
    with pytest.raises(OpDefError, match="no `class Add"):
        parse_opdef("int main() {}", "Add")
    with pytest.raises(OpDefError, match="declares no DataType"):
        parse_opdef('class Add : public OpDef { Add(const char* n) : OpDef(n) { this->Input("x"); '
                    'this->Output("y").DataType({ge::DT_FLOAT}); } };', "Add")
    with pytest.raises(OpDefError, match="kernel entry"):
        rename_kernel_entry("void add(int x) {}", "add", "add_kg1")
