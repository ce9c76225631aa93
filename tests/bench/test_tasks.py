from __future__ import annotations

import shutil

import pytest

from kernelgen.bench.tasks import (builtin_suite_dir, camel_to_snake, case_row, load_suite, parse_cases,
                                   select_cases, TaskError)

from .helpers import FIXTURE_TASKS, make_task

needs_fixtures = pytest.mark.skipif(not FIXTURE_TASKS.is_dir(), reason=f"shared fixtures absent: {FIXTURE_TASKS}")


@needs_fixtures
def test_fixture_suite_loads_all_13_tasks_without_error():
    s = load_suite(FIXTURE_TASKS)
    assert s.errors == []
    assert len(s.tasks) == 13
    ids = {t.task_id for t in s.tasks}
    assert {"level1/Math/Sqrt", "level3/GMM/BasicMatmul", "level2/Foreach/ForeachAbs"} <= ids
    mm = s.by_id()["level3/GMM/BasicMatmul"]
    assert mm.kernel_name == "basic_matmul" and mm.level == 3 and mm.category == "GMM"
    assert set(mm.question_files) == {"op_host/basic_matmul.cpp", "op_kernel/basic_matmul.cpp"}
    assert mm.answer_dir is not None and (mm.answer_dir / "op_kernel" / "basic_matmul.cpp").is_file()


@needs_fixtures
def test_rows_are_typed_like_pandas_read_csv():
    s = load_suite(FIXTURE_TASKS).by_id()
    mm = s["level3/GMM/BasicMatmul"]
    row = case_row(mm, mm.cases[0])
    assert row == {"m": 128, "k": 1280, "n": 640, "dtype": "float16"}
    sqrt = s["level1/Math/Sqrt"]
    assert case_row(sqrt, sqrt.cases[0])["shape"] == "[48, 128, 512]"      # list cells stay text for eval()
    ar = s["level1/TensorCreation/Arange"]                                  # "1" and "2.0" in one column
    assert isinstance(case_row(ar, ar.cases[0])["start"], float)
    fa = s["level2/Foreach/ForeachAbs"]                                      # all-integral float column -> int
    assert case_row(fa, fa.cases[0])["scale"] == 1 and isinstance(case_row(fa, fa.cases[0])["scale"], int)
    rms = s["level2/Norm/RmsNorm"]
    assert case_row(rms, rms.cases[0])["epsilon"] == pytest.approx(1e-6)
    assert rms.cases[0].values["normalized_shape"] == [256]                 # parsed literal for prompts/filters


@needs_fixtures
def test_filters_by_level_category_and_name():
    assert {t.level for t in load_suite(FIXTURE_TASKS, levels=[2]).tasks} == {2}
    assert [t.op_name for t in load_suite(FIXTURE_TASKS, categories=["math"]).tasks] == [
        "AddCustom", "ClipByValue", "Sqrt"]
    assert [t.task_id for t in load_suite(FIXTURE_TASKS, names=["sqrt", "level3/GMM/BasicMatmul"]).tasks] == [
        "level1/Math/Sqrt", "level3/GMM/BasicMatmul"]
    assert len(load_suite(FIXTURE_TASKS, limit=4).tasks) == 4


def test_malformed_tasks_are_reported_and_the_rest_loads(tmp_path):
    make_task(tmp_path, "Good", "good")
    bad_csv = make_task(tmp_path, "BadCsv", "bad_csv", csv="case_id;shape;dtype\n0;[4];float32\n1;[5]\n")
    no_module = make_task(tmp_path, "NoModule", "no_module")
    (no_module / "validation" / "module.py").unlink()
    dup = make_task(tmp_path, "Dup", "dup", csv="case_id;shape;dtype\n0;[4];float32\n0;[5];float32\n", level=2)
    no_stub = make_task(tmp_path, "NoStub", "no_stub", level=3)
    shutil.rmtree(no_stub / "question" / "op_kernel")
    no_model_new = make_task(tmp_path, "NoModelNew", "no_model_new", level=2, category="Act")
    (no_model_new / "validation" / "module.py").write_text("class Model:\n    pass\n")
    broken = make_task(tmp_path, "Broken", "broken", level=2, category="Act")
    (broken / "validation" / "prepare_inputs.py").write_text("def get_inputs(row, device=None:\n    pass\n")
    s = load_suite(tmp_path)
    assert [t.op_name for t in s.tasks] == ["Good"]
    errs = {e.task_dir.name: str(e) for e in s.errors}
    assert "module.py: does not define class ModelNew" in errs.pop("NoModelNew")
    assert "prepare_inputs.py: line 1: syntax error" in errs.pop("Broken")
    s.errors = [e for e in s.errors if e.task_dir.name not in ("NoModelNew", "Broken")]
    by_task = {e.task_dir.name: e for e in s.errors}
    assert set(by_task) == {"BadCsv", "NoModule", "Dup", "NoStub"}
    assert by_task["BadCsv"].path == bad_csv / "validation" / "test_cases.csv"
    assert "line 3: 2 cells, header has 3 columns" in by_task["BadCsv"].problem
    assert by_task["NoModule"].path.name == "module.py" and "missing" in by_task["NoModule"].problem
    assert "duplicate case_id 0" in by_task["Dup"].problem
    assert "kernel stub" in by_task["NoStub"].problem
    assert str(dup / "validation" / "test_cases.csv") in str(by_task["Dup"])


def test_csv_header_must_start_with_case_id(tmp_path):
    p = tmp_path / "test_cases.csv"
    p.write_text("shape,dtype\n[4],float32\n")
    with pytest.raises(TaskError, match="first column must be 'case_id'"):
        parse_cases(p)


def test_static_and_dynamic_case_selection(tmp_path):
    make_task(tmp_path, "Add", "add", csv="case_id;shape;dtype\n3;[4];float32\n1;[5];float16\n2;[6];float32\n")
    t = load_suite(tmp_path).tasks[0]
    assert [c.case_id for c in select_cases(t, "static")] == [1]
    assert [c.case_id for c in select_cases(t, "static", 2)] == [1, 2]
    assert [c.case_id for c in select_cases(t, "dynamic")] == [1, 2, 3]
    assert [c.case_id for c in select_cases(t, "dynamic", 2)] == [1, 2]
    with pytest.raises(ValueError):
        select_cases(t, "sometimes")


def test_builtin_suite_resolves_and_loads():
    s = load_suite("builtin")
    assert s.root == builtin_suite_dir() and s.name == "builtin"
    assert s.errors == [], [str(e) for e in s.errors]
    assert len(s.tasks) >= 1


@pytest.mark.parametrize("op,kernel", [("TopKV3", "top_kv3"), ("GeGluV2", "ge_glu_v2"), ("AddCustom", "add_custom"),
                                       ("MulSigmoidMulAddCustom", "mul_sigmoid_mul_add_custom"), ("Abs", "abs")])
def test_camel_to_snake(op, kernel):
    assert camel_to_snake(op) == kernel
