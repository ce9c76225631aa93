"""`ascend` backend: build a candidate with the CANN toolkit (msopgen project, CMake presets, bisheng via the
project's build) into a PRIVATE vendor directory under a unique op name, build the task's pybind.cpp against
torch_npu, verify the aclnn symbols come from the candidate's own libcust_opapi.so, and run cases on an NPU.

NOT RUN ON HARDWARE: everything here is exercised in tests/ascend with a recorded toolchain (a shim that records
argv/env and emits canned outputs) and with real ELF objects built by g++; it has never run against a real CANN
toolkit or NPU. See docs/ascend.md ("Running on an NPU cluster").

Module map: opdef (OpDef parse, unique names, msopgen JSON), toolchain (the command plan and its runner), tool
(harness-side steps), elfcheck (symbol origin), devices (canary, quarantine), timing (NPU timing protocol),
split (compile on CPU nodes / execute on NPU nodes through the artifact store).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ...errors import classify_compile_error, classify_runtime_error, clip_log
from ...model import (
    Backend,
    Candidate,
    CaseResult,
    CompileErrorClass,
    CompileResult,
    RuntimeEnv,
    Task,
    TestCase,
    Verdict,
    Workspace,
    updates_inputs,
)
from . import opdef as od
from .artifacts import RESULT, fetch_artifact, load_result, publish_artifact, result_json
from .devices import DeviceHealth
from .elfcheck import SymbolOriginError, verify_symbol_origin
from .toolchain import BuildLayout, Step, StepFailed, Toolchain, plan, run_step

LOG_LIMIT = 20000


def cache_root() -> Path:
    return Path(os.environ.get("KERNELGEN_ASCEND_CACHE", Path.home() / ".cache" / "kernelgen" / "ascend-builds"))


def _sha(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()


def _read_version(*candidates: Path, key: str = "version") -> str:
    for p in candidates:
        try:
            for line in p.read_text(errors="replace").splitlines():
                m = re.match(rf"\s*(?:__)?{key}(?:__)?\s*[=:]\s*['\"]?([^'\"\s]+)", line, re.IGNORECASE)
                if m:
                    return m.group(1)
        except OSError:
            continue
    return "unknown"


class AscendBackend(Backend):
    """prepare -> compile (CANN, cached by content hash) -> runtime_env (one NPU); see the module docstring."""

    name = "ascend"

    def __init__(self, cache_dir: str | Path | None = None, toolchain: Toolchain | None = None,
                 device: int | str | None = None, phase: str | None = None, artifacts: Any = None,
                 state_dir: str | Path | None = None, canary_cmd: list[str] | None = None, **_: object):
        self.cache = Path(cache_dir) if cache_dir else cache_root()
        self.tc = toolchain or Toolchain()
        self.device = int(device if device is not None else os.environ.get("KERNELGEN_NPU_DEVICE", "0"))
        self.phase = phase or os.environ.get("KERNELGEN_ASCEND_PHASE", "all")      # all | compile | execute
        if self.phase not in ("all", "compile", "execute"):
            raise ValueError(f"phase must be all, compile or execute (got {self.phase!r})")
        art = artifacts if artifacts is not None else os.environ.get("KERNELGEN_ASCEND_ARTIFACTS")
        if isinstance(art, (str, Path)):
            from kernelgen.storage import open_store
            art = open_store(art)
        self.artifacts = art
        self.health = DeviceHealth(Path(state_dir or os.environ.get("KERNELGEN_ASCEND_STATE", self.cache / "devices")),
                                   canary_cmd=canary_cmd, env_fn=self._device_env)

    # -- Backend protocol ------------------------------------------------------------------------------------
    def versions(self) -> dict[str, str]:
        home = Path(self.tc.ascend_home)
        return {
            "backend": "ascend", "soc": self.tc.soc,
            "cann": _read_version(home / "version.cfg", home / "ascend_toolkit_install.info",
                                  *home.glob("*-linux/ascend_toolkit_install.info")),
            "torch_npu": _read_version(Path(self.tc.torch_npu_dir) / "version.py"),
            "driver": _read_version(Path("/usr/local/Ascend/driver/version.info")),
        }

    def available(self) -> tuple[bool, str]:
        missing = []
        if self.phase != "execute":
            for tool in (self.tc.msopgen, self.tc.cmake, self.tc.cxx):
                if shutil.which(tool) is None:
                    missing.append(f"{tool} not found on PATH")
            if not (Path(self.tc.ascend_home) / "include").is_dir():
                missing.append(f"CANN toolkit not found at ASCEND_HOME_PATH={self.tc.ascend_home}")
            if self.tc.torch_npu_dir.startswith("$"):
                missing.append("torch_npu is not installed (its headers are needed for the binding)")
        if self.phase != "compile":
            if not Path(f"/dev/davinci{self.device}").exists():
                missing.append(f"no NPU device /dev/davinci{self.device}")
            if self.health.quarantined(self.device):
                missing.append(f"npu:{self.device} is quarantined: {self.health.quarantined(self.device)}")
        return (not missing, "; ".join(missing) or "ok")

    def prepare(self, task: Task, candidate: Candidate, workdir: Path) -> Workspace:
        workdir = Path(workdir)
        files = dict(candidate.files)
        if not any(k.startswith("op_host/") for k in files):
            files.update({k: v for k, v in task.question_files.items() if k.startswith("op_host/")})
        pybind = (task.validation_dir / "pybind.cpp").read_text()
        digest = _sha("ascend-1", self.tc.soc, self.versions()["cann"], self.versions()["torch_npu"], task.op_name,
                      task.kernel_name, pybind, *(f"{k}\n{files[k]}" for k in sorted(files)))
        op_u, kernel_u = od.unique_names(task.op_name, task.kernel_name, digest)
        vendor = f"kg_{digest[:10]}"
        meta: dict[str, Any] = {"op": task.op_name, "kernel": task.kernel_name, "op_unique": op_u,
                                "kernel_unique": kernel_u, "vendor": vendor, "error": ""}
        out: dict[str, str] = {}
        try:
            for rel, text in files.items():
                if rel.startswith("op_host/"):
                    text = od.rename_host(text, task.op_name, op_u)
                    if rel == f"op_host/{task.kernel_name}.cpp":
                        rel = f"op_host/{kernel_u}.cpp"
                elif rel == f"op_kernel/{task.kernel_name}.cpp":
                    text = od.rename_kernel_entry(text, task.kernel_name, kernel_u)
                    rel = f"op_kernel/{kernel_u}.cpp"
                out[rel] = text
            desc = od.parse_opdef({k: v for k, v in out.items() if k.startswith("op_host/")}, op_u)
            meta["op_json"] = desc.msopgen_json()
            meta["inplace_op"] = updates_inputs({p.name for p in desc.inputs}, {p.name for p in desc.outputs})
        except od.OpDefError as e:
            meta["error"] = f"error: {e}"
        # the template's placeholder, and bindings that name the op's real aclnn entry (aclnnIsFinite) alike
        pybind = re.sub(rf"\baclnn(?:CustomOp|{re.escape(task.op_name)})\b", f"aclnn{op_u}", pybind)
        out["pybind.cpp"] = pybind.replace("custom_pybind_api", task.kernel_name)
        src = workdir / "src"
        if src.exists():
            shutil.rmtree(src)
        for rel, text in out.items():
            p = src / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / "meta.json").write_text(json.dumps(meta, indent=1))
        return Workspace(root=workdir, task=task, candidate=candidate, content_sha256=digest)

    def meta(self, ws: Workspace) -> dict[str, Any]:
        return json.loads((ws.root / "meta.json").read_text())

    def layout(self, ws: Workspace) -> BuildLayout:
        return BuildLayout(self.cache / ws.content_sha256[:24])

    def steps(self, ws: Workspace) -> list[Step]:
        m = self.meta(ws)
        return plan(self.tc, self.layout(ws), m["op_unique"], m["kernel_unique"], m["vendor"])

    def compile(self, ws: Workspace, timeout_s: float) -> CompileResult:
        t0 = time.monotonic()
        lay = self.layout(ws)
        if self.phase == "execute":
            return fetch_artifact(self.artifacts, ws, lay, t0)
        lay.root.parent.mkdir(parents=True, exist_ok=True)
        with open(lay.root.parent / f"{lay.root.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)     # one build per content hash; the others wait and reuse it
            cached = self.cached_result(lay)
            if cached is not None:
                cached.cached, cached.seconds = True, time.monotonic() - t0
                res = cached
            else:
                res = self._build(ws, lay, t0 + timeout_s)
                res.seconds = time.monotonic() - t0
                if res.verdict not in (Verdict.TIMEOUT, Verdict.INFRA_ERROR):   # deterministic outcomes only
                    lay.root.mkdir(parents=True, exist_ok=True)
                    (lay.root / RESULT).write_text(json.dumps(result_json(res)))
        if self.artifacts is not None and self.phase == "compile":
            publish_artifact(self.artifacts, ws, lay, res)
        return res

    def runtime_env(self, ws: Workspace) -> RuntimeEnv:
        if self.phase == "compile":
            raise RuntimeError("KERNELGEN_ASCEND_PHASE=compile builds only; cases run in the execute phase "
                               "(use `python -m kernelgen.bench.backends.ascend.split compile` on CPU nodes)")
        why = self.health.quarantined(self.device)
        if why:
            raise RuntimeError(f"npu:{self.device} is quarantined ({why}); not running candidates on it")
        m = self.meta(ws)
        lay = self.layout(ws)
        vendor = lay.vendor_dir(m["vendor"])
        env = self._device_env()
        env.update({
            "ASCEND_CUSTOM_OPP_PATH": str(vendor),
            "KERNELGEN_CUST_OPAPI_LIB": str(lay.opapi_lib(m["vendor"])),
            "TASK_QUEUE_ENABLE": "0",      # the helper launches on the current stream directly
            "LD_LIBRARY_PATH": os.pathsep.join(p for p in (str(vendor / "op_api" / "lib"),
                                                           f"{self.tc.ascend_home}/lib64",
                                                           os.environ.get("LD_LIBRARY_PATH", "")) if p),
        })
        return RuntimeEnv(env=env, python_path=[lay.out], device="npu:0", inplace_op=bool(m.get("inplace_op")))

    # -- hooks the evaluator calls when present ----------------------------------------------------------------
    def after_case(self, ws: Workspace, case: TestCase, res: CaseResult) -> CaseResult:
        """Typed verdict from the NPU error text; on a device fault or timeout, canary the device and quarantine
        it if the canary fails (the case then becomes an infrastructure failure, retried elsewhere)."""
        if res.verdict in (Verdict.OK,) or res.verdict.executed:
            return res
        text = "\n".join([res.message, *res.diagnostics])
        fault = classify_runtime_error(text)
        suspect = res.verdict == Verdict.TIMEOUT
        if fault is not None:
            res.verdict = fault.verdict
            res.diagnostics = [*res.diagnostics, f"npu fault: {fault.kind.value}" +
                               (f" (code {fault.code})" if fault.code else "")]
            suspect = suspect or fault.device_suspect
        if suspect:
            ok, why = self.health.check(self.device)
            if not ok:
                return CaseResult(verdict=Verdict.INFRA_ERROR, message=f"npu:{self.device} quarantined after "
                                  f"{res.verdict.value}: {why}", diagnostics=res.diagnostics, seconds=res.seconds)
        return res

    # -- internals ---------------------------------------------------------------------------------------------
    def _device_env(self) -> dict[str, str]:
        return {"ASCEND_RT_VISIBLE_DEVICES": str(self.device)}

    def cached_result(self, lay: BuildLayout) -> CompileResult | None:
        return load_result(lay)

    def _build(self, ws: Workspace, lay: BuildLayout, deadline: float) -> CompileResult:
        m = self.meta(ws)
        if m["error"]:
            return CompileResult(ok=False, seconds=0, log=m["error"], error_class=CompileErrorClass.SCOPE,
                                 verdict=Verdict.COMPILE_ERROR)
        if lay.root.exists():
            shutil.rmtree(lay.root)
        shutil.copytree(ws.root / "src", lay.src)
        lay.op_json.write_text(m["op_json"])
        logs: list[str] = []
        for step in self.steps(ws):
            try:
                logs.append(f"$ {step.shell()}\n{run_step(step, deadline)}")
            except StepFailed as e:
                log = clip_log("\n".join(logs) + "\n" + e.log, LOG_LIMIT)
                cls = classify_compile_error(e.log) if e.verdict == Verdict.COMPILE_ERROR else None
                return CompileResult(ok=False, seconds=0, log=log, error_class=cls, verdict=e.verdict)
        log = clip_log("\n".join(logs), LOG_LIMIT)
        problems = self._artifact_problems(lay, m)
        if problems:
            return CompileResult(ok=False, seconds=0, log=log + "\nerror: " + "; ".join(problems),
                                 error_class=CompileErrorClass.OTHER, verdict=Verdict.COMPILE_ERROR)
        try:
            report = verify_symbol_origin(m["op_unique"], lay.opapi_lib(m["vendor"]), lay.extension)
        except SymbolOriginError as e:
            return CompileResult(ok=False, seconds=0, log=log + f"\nerror: symbol origin: {e}",
                                 verdict=Verdict.LOAD_ERROR)
        (lay.root / "symbols.json").write_text(json.dumps(report, indent=1))
        return CompileResult(ok=True, seconds=0, log=log)

    @staticmethod
    def _artifact_problems(lay: BuildLayout, m: dict) -> list[str]:
        """NPUKernelBench's compile criterion: extension, libcust_opapi.so and the kernel binary all exist."""
        out = []
        if not lay.extension.is_file():
            out.append(f"{lay.extension.name} was not built")
        if not lay.opapi_lib(m["vendor"]).is_file():
            out.append("libcust_opapi.so missing from the private vendor directory")
        vendor = lay.vendor_dir(m["vendor"])
        if not any(vendor.glob(f"op_impl/**/{m['op_unique']}*.o")):
            out.append(f"no kernel binary {m['op_unique']}*.o under {vendor}/op_impl")
        return out


def create_backend(**opts: Any) -> AscendBackend:
    return AscendBackend(**opts)
