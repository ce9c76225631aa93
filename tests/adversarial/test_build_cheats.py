"""Cheats at build time (issue 15, classes 2, 3, 5 and 8) against the real `sim` backend and evaluator.

The built-in Absolute task's reference host code is reused so the host objects really compile; the cheats add
one file each. Every build here stops right after the op-definition dump (no kernel source), so a test costs a
few host compiles (cached by content after the first run).
"""
from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from kernelgen.bench.candidates import invalid_files, jsonl_candidates
from kernelgen.bench.evaluate import EvalSettings, Evaluator, plan
from kernelgen.bench.model import Candidate, Verdict
from kernelgen.bench.records import RecordLog
from kernelgen.bench.tasks import load_suite

from ..bench.helpers import PyStandInBackend, make_task

SUITE = load_suite("builtin")
ABSOLUTE = next(t for t in SUITE.tasks if t.op_name == "Absolute")


@pytest.fixture(scope="module")
def sim():
    from kernelgen.bench.backends import BackendUnavailable, get_backend
    try:
        backend = get_backend("sim")
    except BackendUnavailable as e:
        pytest.skip(f"sim backend unavailable: {e}")
    ok, why = backend.available()
    if not ok:
        pytest.skip(why)
    return backend


def _host_only(extra: dict[str, str]) -> Candidate:
    host = {k: p.read_text() for k, p in ((p.relative_to(ABSOLUTE.answer_dir).as_posix(), p)
                                           for p in ABSOLUTE.answer_dir.rglob("*") if p.is_file())
            if k.startswith("op_host/")}
    return Candidate(task_id=ABSOLUTE.task_id, sample=0, files={**host, **extra}, origin="test:cheat")


@pytest.mark.slow
def test_include_of_the_answer_by_absolute_path_fails(sim, tmp_path):
    answer = next(p for p in ABSOLUTE.answer_dir.rglob("*.cpp") if "op_kernel" in p.parts)
    cand = _host_only({"op_host/steal.cpp": f'#include "{answer}"\n'})
    res = sim.compile(sim.prepare(ABSOLUTE, cand, tmp_path / "ws"), 600)
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR
    assert "No such file" in res.log or "not found" in res.log.lower(), res.log[-800:]


@pytest.mark.slow
def test_op_definition_dump_cannot_touch_the_host(sim, tmp_path):
    """Candidate host code runs at build time (static constructors in the op-definition dump): it must not write
    the host file system or the build cache; and a tampered cached build of it is never loaded."""
    tag = uuid.uuid4().hex[:8]
    marker = tmp_path / f"marker-{tag}"
    poison = sim.cache / "objs" / f"poison-{tag}.o"
    evil = f"""
#include <cstdio>
namespace {{
int evil() {{
    const char* paths[] = {{"{marker}", "{poison}", "/usr/poison-{tag}"}};
    for (const char* p : paths) {{ if (FILE* f = std::fopen(p, "w")) {{ std::fputs("x", f); std::fclose(f); }} }}
    return 0;
}}
const int kEvil = evil();
}}
"""
    ws = sim.prepare(ABSOLUTE, _host_only({"op_host/evil.cpp": evil}), tmp_path / "ws")
    # a tampered "cached" build of this very candidate must never be loaded (it would come back ok)
    planted = sim.build_dir(ws)
    planted.mkdir(parents=True, exist_ok=True)
    from kernelgen.bench.backends.sim import EXT_SUFFIX, MODULE
    (planted / f"{MODULE}{EXT_SUFFIX}").write_bytes(b"not what was built")
    (planted / "manifest.json").write_text(json.dumps({"files": {f"{MODULE}{EXT_SUFFIX}": "0" * 64}}))
    try:
        res = sim.compile(ws, 600)
    finally:
        shutil.rmtree(planted, ignore_errors=True)
    assert not res.ok and not res.cached, res.log[-800:]
    assert "op_kernel" in res.log, res.log[-800:]      # it got past the op-definition dump, then stopped
    assert not marker.exists() and not poison.exists() and not Path(f"/usr/poison-{tag}").exists()


@pytest.mark.slow
def test_host_code_reaching_outside_is_refused_before_it_runs(sim, tmp_path):
    marker = tmp_path / "ran"
    evil = f"""
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>
namespace {{
int evil() {{
    if (FILE* f = std::fopen("{marker}", "w")) std::fclose(f);
    if (fork() == 0) {{ setsid(); _exit(0); }}
    return socket(AF_INET, SOCK_STREAM, 0);
}}
const int kEvil = evil();
}}
"""
    res = sim.compile(sim.prepare(ABSOLUTE, _host_only({"op_host/evil.cpp": evil}), tmp_path / "ws"), 600)
    assert not res.ok and "socket" in res.log and "fork" in res.log, res.log[-800:]
    assert not marker.exists()


@pytest.mark.slow
def test_kernel_calling_the_host_is_refused(sim, tmp_path):
    """Host-side compute from a kernel: any call outside the AscendC runtime and a little libm fails the build."""
    files = {k: p.read_text() for k, p in ((p.relative_to(ABSOLUTE.answer_dir).as_posix(), p)
                                            for p in ABSOLUTE.answer_dir.rglob("*") if p.is_file())}
    kernel = next(k for k in files if k.startswith("op_kernel/") and k.endswith(".cpp"))
    files[kernel] = ('#include <dlfcn.h>\nnamespace { void* host_hook() { return dlsym(RTLD_DEFAULT, "PyRun_SimpleString"); }\n'
                     'void* const kHook = host_hook(); }\n' + files[kernel])
    cand = Candidate(task_id=ABSOLUTE.task_id, sample=0, files=files, origin="test:cheat")
    res = sim.compile(sim.prepare(ABSOLUTE, cand, tmp_path / "ws"), 600)
    assert not res.ok and "dlsym" in res.log, res.log[-800:]


# Class 8: device-code restrictions hidden from a plain syntax scan (the lint itself: tests/sim/test_kernel_lint.py).
LINT_EVASIONS = {
    "macro-hidden new": ("#define MAKE(T) new T\nnamespace { int* lint_probe() { return MAKE(int); } }\n", "('new')"),
    "std through a namespace alias": ("#include <vector>\nnamespace s = std;\n"
                                      "namespace { int lint_probe() { s::vector<int> v(4); return int(v.size()); } }\n",
                                      "std::vector"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LINT_EVASIONS))
def test_lint_evasion_fails_the_build(sim, tmp_path, name):
    prefix, needle = LINT_EVASIONS[name]
    files = {k: p.read_text() for k, p in ((p.relative_to(ABSOLUTE.answer_dir).as_posix(), p)
                                            for p in ABSOLUTE.answer_dir.rglob("*") if p.is_file())}
    kernel = next(k for k in files if k.startswith("op_kernel/") and k.endswith(".cpp"))
    files[kernel] = prefix + files[kernel]
    cand = Candidate(task_id=ABSOLUTE.task_id, sample=0, files=files, origin="test:cheat")
    res = sim.compile(sim.prepare(ABSOLUTE, cand, tmp_path / "ws"), 600)
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR and needle in res.log, res.log[-1500:]


def test_cache_artefacts_are_verified(tmp_path):
    from kernelgen.bench.backends.sim import build_verified, publish, publish_build, verified
    src = tmp_path / "src"
    src.mkdir()
    (src / "lib.so").write_bytes(b"\x7fELF built")
    out = tmp_path / "cache" / "build"
    out.parent.mkdir()
    publish_build(src, out)
    assert build_verified(out)
    (out / "lib.so").write_bytes(b"\x7fELF poisoned")
    assert not build_verified(out)
    (out / "lib.so").write_bytes(b"\x7fELF built")
    (out / "extra.so").write_bytes(b"")
    assert not build_verified(out)                    # nothing may be added either
    obj = publish(src / "lib.so", tmp_path / "cache" / "x.o")
    assert verified(obj)
    obj.write_bytes(b"other")
    assert not verified(obj)


@pytest.mark.parametrize("key", ["../../escape.cpp", "/tmp/abs.cpp", "op_kernel/../../x.cpp", "op_kernel/./a.cpp",
                                 "op_kernel//a.cpp", "op_kernel\\..\\a.cpp", "stand_in/x.py", "op_kernel/.hidden",
                                 "op_host/", "op_kernel/a\0.cpp"])
def test_unsafe_file_keys_are_refused(key):
    assert invalid_files({"op_kernel/add.cpp": "// k\n", key: "x"})


def test_path_traversal_from_jsonl_is_a_parse_error_and_writes_nothing(tmp_path):
    suite = tmp_path / "suite"
    make_task(suite, "Add", "add")
    tasks = load_suite(suite).tasks
    escape = tmp_path / "escaped.cpp"
    rel = "op_kernel/" + "../" * 12 + str(escape).lstrip("/")
    lines = [{"task_id": "Add", "sample": 0, "files": {"op_kernel/add.cpp": "// k\n", rel: "pwned"}},
             {"task_id": "Add", "sample": 1, "files": {"op_kernel/add.cpp": "// k\n", str(escape): "pwned"}}]
    jl = tmp_path / "c.jsonl"
    jl.write_text("".join(json.dumps(x) + "\n" for x in lines))
    cands, _ = jsonl_candidates(jl, tasks)
    log = RecordLog(tmp_path / "records.jsonl")
    settings = EvalSettings(seed=1, workers=1)
    Evaluator(PyStandInBackend(), settings, log, run="t", workdir=tmp_path / "work").run_all(plan(tasks, cands, settings))
    recs = list(log.load().values())
    assert recs and all(r.verdict == Verdict.PARSE_ERROR.value for r in recs)
    assert not escape.exists()
