"""The task's binding compiles beside the host and kernel steps of a sim build: a kernel error is still reported as the
kernel's, the build returns only once the binding compile has ended, and the task's next candidate finds the binding
object in the cache."""
from kernelgen.bench.backends.sim import SimBackend
from kernelgen.bench.model import Candidate, CompileErrorClass, Verdict

from .conftest import BUILTIN_TASKS, answer_files, load


def test_kernel_error_is_the_kernels_and_the_binding_is_cached_for_the_next_candidate(tmp_path):
    task = load(BUILTIN_TASKS / "level1" / "Math" / "Mul")
    be = SimBackend(cache_dir=tmp_path / "cache")
    files = answer_files(task)
    broken = dict(files)
    broken["op_kernel/mul.cpp"] = files["op_kernel/mul.cpp"] + "\nint probe = undeclared_probe_name;\n"
    ws = be.prepare(task, Candidate(task.task_id, 0, broken, "broken"), tmp_path / "broken")

    res = be.compile(ws, timeout_s=600)

    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR and res.error_class == CompileErrorClass.SCOPE
    assert "undeclared_probe_name" in res.log and "[pybind]" not in res.log
    objs = tmp_path / "cache" / "objs"
    bindings = sorted(objs.glob("pybind-*.o"))
    assert len(bindings) == 1, "the binding compile ended (and was published) before compile() returned"
    staged = ws.root / "build" / "objs-binding"
    assert not staged.exists() or not any(staged.iterdir()), "nothing left half-written in the workspace"

    ok = be.prepare(task, Candidate(task.task_id, 1, files, "fixed"), tmp_path / "fixed")
    inode = bindings[0].stat().st_ino   # a rebuilt object is published by rename: a new inode
    assert be.compile(ok, timeout_s=600).ok
    assert sorted(objs.glob("pybind-*.o")) == bindings and bindings[0].stat().st_ino == inode
