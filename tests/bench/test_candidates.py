from __future__ import annotations

import json

import pytest

from kernelgen.bench.candidates import (CandidateSourceError, candidate_sha256, directory_candidates,
                                        jsonl_candidates, reference_candidates)
from kernelgen.bench.tasks import load_suite

from .helpers import make_task

KI = "<think>x</think><kernel_impl>\n```cpp\nK();\n```\n</kernel_impl>"


@pytest.fixture
def tasks(tmp_path):
    make_task(tmp_path / "s", "Add", "add")
    make_task(tmp_path / "s", "Mul", "mul", with_answer=False)
    return load_suite(tmp_path / "s").tasks


def test_reference_answers_and_missing_ones(tasks):
    cands, warnings = reference_candidates(tasks)
    assert [c.task_id for c in cands] == ["level1/Math/Add"]
    assert "op_kernel/add.cpp" in cands[0].files and cands[0].origin == "reference"
    assert any("Mul" in w and "no answer/0" in w for w in warnings)


def test_jsonl_records_and_raw_responses(tasks, tmp_path):
    p = tmp_path / "c.jsonl"
    lines = [{"task_id": "level1/Math/Add", "sample": 0, "files": {"op_kernel/add.cpp": "A();\n"}},
             {"task_id": "Mul", "sample": 1, "response": KI},
             {"task_id": "Mul", "sample": 2, "response": "no code"},
             {"task_id": "Nope", "sample": 0, "response": KI}]
    p.write_text("".join(json.dumps(x) + "\n" for x in lines) + '{"task_id": "Add", "sam')   # killed writer
    cands, warnings = jsonl_candidates(p, tasks)
    by = {(c.task_id, c.sample): c for c in cands}
    assert by[("level1/Math/Add", 0)].files == {"op_kernel/add.cpp": "A();\n"}
    assert by[("level1/Math/Mul", 1)].files == {"op_kernel/mul.cpp": "K();\n"}
    assert "no <kernel_impl>" in by[("level1/Math/Mul", 2)].parse_error
    assert any("Nope" in w for w in warnings) and any("incomplete last line" in w for w in warnings)
    with pytest.raises(CandidateSourceError):
        jsonl_candidates(tmp_path / "missing.jsonl", tasks)


def test_directory_of_files_and_responses(tasks, tmp_path):
    root = tmp_path / "d"
    (root / "Add" / "sample0" / "op_kernel").mkdir(parents=True)
    (root / "Add" / "sample0" / "op_kernel" / "add.cpp").write_text("D();\n")
    (root / "level1" / "Math" / "Mul").mkdir(parents=True)
    (root / "level1" / "Math" / "Mul" / "3.txt").write_text(KI)
    cands, _ = directory_candidates(root, tasks)
    by = {(c.task_id, c.sample): c for c in cands}
    assert by[("level1/Math/Add", 0)].files == {"op_kernel/add.cpp": "D();\n"}
    assert by[("level1/Math/Mul", 3)].files == {"op_kernel/mul.cpp": "K();\n"}


def test_candidate_hash_depends_on_paths_and_content():
    a = candidate_sha256({"op_kernel/a.cpp": "x"})
    assert a == candidate_sha256({"op_kernel/a.cpp": "x"})
    assert a != candidate_sha256({"op_kernel/b.cpp": "x"}) and a != candidate_sha256({"op_kernel/a.cpp": "y"})
