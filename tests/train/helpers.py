"""Helpers shared by the training tests."""
from __future__ import annotations

from pathlib import Path

import yaml

DATA = Path(__file__).parent / "data"
SYSTEM = "You write AscendC kernels. Think in <think></think> first."
QA = [("Which queue holds kernel inputs?", "Inputs are staged in local memory.", "TQue<TPosition::VECIN>."),
      ("How do I get this core's index?", "Each AI core has an index.", "Call GetBlockIdx()."),
      ("Which call copies GM to UB?", "Global to unified buffer is a copy.", "DataCopy(local, global, n)."),
      ("What does Adds do?", "It adds a scalar to every element.", "Adds(dst, src, scalar, n).")]


def cot_records(n: int):
    """CoTBuild canonical records (kernel kind), some with a rejected answer for DPO exports."""
    from kernelgen.cot.records import CoTRecord

    out = []
    for i in range(n):
        q, think, answer = QA[i % len(QA)]
        out.append(CoTRecord(kind="kernel", source="test://qa", prompt=q if i < len(QA) else f"{q} ({i})",
                             reasoning=think, answer=answer, lang="en", system=SYSTEM,
                             rejected={"reasoning": "Not sure.", "answer": "I do not know."}))
    return out


def write_spec(path: Path, name: str, spec: dict) -> Path:
    path.write_text(yaml.safe_dump({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "TrainRun",
                                    "metadata": {"name": name}, "spec": spec}))
    return path


def load_run(path: Path):
    from kernelgen.specs import TrainRun, load_spec

    return load_spec(path, expect=TrainRun)
