"""Fixtures for the ascend backend tests. The CANN toolkit and NPUs cannot exist here: builds use the RECORDED
TOOLCHAIN (tests/ascend/recorded_toolchain/fake_cann.py), a boundary double that records every call."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from kernelgen.bench.backends.ascend import AscendBackend
from kernelgen.bench.backends.ascend.toolchain import Toolchain

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO / ".." / "shared"
SAMPLE = SHARED / "fixtures" / "npukernelbench-sample" / "tasks"
FAKE = Path(__file__).resolve().parent / "recorded_toolchain" / "fake_cann.py"


@pytest.fixture
def sample_suite():
    if not SAMPLE.is_dir():
        pytest.skip(f"NPUKernelBench sample fixtures not present at {SAMPLE} (../shared is absent)")
    from kernelgen.bench.tasks import load_suite
    return load_suite(str(SAMPLE))


class Recorded:
    """The recorded toolchain of one test: its bin dir, its record file and a backend wired to it."""

    def __init__(self, root: Path):
        self.root = root
        self.bin = root / "bin"
        self.bin.mkdir(parents=True)
        for name in ("msopgen", "cmake", "fake-cxx"):
            (self.bin / name).symlink_to(FAKE)
        self.record = root / "calls.jsonl"
        self.record.touch()
        (root / "cann" / "include").mkdir(parents=True)
        (root / "cann" / "version.cfg").write_text("version=8.3.RC1\n")
        (root / "torch_npu" / "include").mkdir(parents=True)
        (root / "torch_npu" / "version.py").write_text("__version__ = '2.7.1'\n")

    def toolchain(self, **kw) -> Toolchain:
        return Toolchain(ascend_home=str(self.root / "cann"), soc="Ascend910B2", msopgen=str(self.bin / "msopgen"),
                         cmake=str(self.bin / "cmake"), cxx=str(self.bin / "fake-cxx"), jobs=2,
                         torch_npu_dir=str(self.root / "torch_npu"),
                         extra_env={"FAKE_CANN_RECORD": str(self.record), **kw.pop("extra_env", {})}, **kw)

    def backend(self, **kw) -> AscendBackend:
        kw.setdefault("cache_dir", self.root / "cache")
        kw.setdefault("state_dir", self.root / "state")
        return AscendBackend(toolchain=kw.pop("toolchain", None) or self.toolchain(), **kw)

    def calls(self) -> list[dict]:
        return [json.loads(x) for x in self.record.read_text().splitlines() if x.strip()]


@pytest.fixture
def recorded(tmp_path) -> Recorded:
    return Recorded(tmp_path / "recorded")


def task_named(suite, op: str):
    return next(t for t in suite.tasks if t.op_name == op)


def reference(task, sample: int = 0):
    """The task's reference answer as a candidate, exactly as `--candidates reference` loads it."""
    from dataclasses import replace

    from kernelgen.bench.candidates import reference_candidates
    cands, _ = reference_candidates([task])
    return replace(cands[0], sample=sample)
