"""`sim` backend: compile a candidate against ascsim (our clean-room AscendC CPU simulator) and run it on the CPU.

Build (every compiler runs as a subprocess in its own process group, with a deadline):
  1. each op_host/*.cpp -> object (host tiling, OpDef, tiling-data classes);
  2. link them with the `opdump` driver and run it: the registered OpDef (DataType columns) and tiling classes
     come back as JSON, exactly as the host code defines them;
  3. generate the kernel-side tiling struct and one kernel translation unit per distinct DTYPE_<NAME> combination
     (the kernel source is wrapped in its own namespace, so combinations can share one shared object);
  4. the task's validation/pybind.cpp (placeholders rewritten) -> object, against torch's headers;
  5. link everything with the simulator runtime into `kernel_gen_ops<EXT_SUFFIX>`.
Objects are cached by content hash under ~/.cache/kernelgen/sim-builds (override: KERNELGEN_SIM_CACHE); a
finished build is cached as a whole by the workspace's content hash; kernel_operator.h is precompiled.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import uuid
from pathlib import Path

from ..errors import classify_compile_error
from ..procs import StepTimedOut, run_group
from . import sim_cube
from ..model import Candidate, CompileErrorClass, CompileResult, RuntimeEnv, Task, Verdict, Workspace

REPO_ROOT = Path(__file__).resolve().parents[4]
SIM_ROOT = Path(os.environ.get("ASCSIM_ROOT", REPO_ROOT / "sim"))
SIM_INCLUDE = SIM_ROOT / "include"
SIM_PYTHON = SIM_ROOT / "python"
CXX = os.environ.get("ASCSIM_CXX", "g++")
STD = "-std=c++17"
OPT = os.environ.get("ASCSIM_OPT", "-O3 -fno-trapping-math")   # kernels: vectorised element loops; no-trapping lets the
# compiler if-convert select-style lambdas (LeakyRelu, Max): ~10x faster runs, same IEEE results
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
MODULE = "kernel_gen_ops"
LOG_LIMIT = 20000

# ge::DataType value -> kernel C type (DTYPE_<NAME> macros)
GE_CTYPES = {0: "float", 1: "half", 2: "int8_t", 3: "int32_t", 4: "uint8_t", 6: "int16_t", 7: "uint16_t", 8: "uint32_t",
             9: "int64_t", 10: "uint64_t", 11: "double", 12: "bool", 16: "uint64_t", 27: "bfloat16_t"}


def cache_root() -> Path:
    return Path(os.environ.get("KERNELGEN_SIM_CACHE", Path.home() / ".cache" / "kernelgen" / "sim-builds"))


def _sha(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def _portable(flags: list[str]) -> list[str]:
    """Flags as cache-key material: the checkout's location is not part of an object's content."""
    return [f.replace(str(SIM_ROOT), "<sim>") for f in flags]


@functools.lru_cache(maxsize=1)
def sim_sources_hash() -> str:
    files = sorted(p for p in SIM_ROOT.rglob("*") if p.is_file() and p.suffix in (".h", ".hpp", ".cpp", ".py"))
    return _sha(*(f"{p.relative_to(SIM_ROOT)}\n{p.read_text(errors='replace')}" for p in files))[:16]


@functools.lru_cache(maxsize=None)
def headers_hash(*rel: str) -> str:
    """Hash of the simulator headers one kind of object depends on (so runtime edits keep those objects cached)."""
    files = []
    for r in rel:
        p = SIM_INCLUDE / r
        files += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
    return _sha(*(f"{q.relative_to(SIM_ROOT)}\n{q.read_text(errors='replace')}" for q in files))[:16]


PYBIND_HEADERS = ("pytorch_npu_helper.hpp", "ascsim/bridge.h")
HOST_HEADERS = ("ascsim/host", "register", "tiling", "graph", "platform", "error", "exe_graph")
KERNEL_HEADERS = (".",)


@functools.lru_cache(maxsize=1)
def torch_build_info() -> dict:
    """Torch include/lib dirs and C++ ABI, probed once in a subprocess (the harness never imports torch for this)."""
    spec_dir = None
    import importlib.util
    spec = importlib.util.find_spec("torch")
    if spec and spec.submodule_search_locations:
        spec_dir = Path(list(spec.submodule_search_locations)[0])
    if spec_dir is None:
        raise RuntimeError("torch is not installed")
    key = _sha(str(spec_dir), str((spec_dir / "version.py").stat().st_mtime))[:16]
    f = cache_root() / f"torch-{key}.json"
    if f.exists():
        return json.loads(f.read_text())
    code = ("import json,torch,torch.utils.cpp_extension as c;print(json.dumps({'inc':c.include_paths(),"
            "'lib':c.library_paths(),'abi':int(torch.compiled_with_cxx11_abi()),'version':torch.__version__}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True).stdout
    info = json.loads(out.strip().splitlines()[-1])
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_name(f".{f.name}.{uuid.uuid4().hex}")
    tmp.write_text(json.dumps(info))
    os.replace(tmp, f)
    return info


@functools.lru_cache(maxsize=None)
def compiler_id(cxx: str) -> str:
    """First line of `cxx --version`: part of every cache key, so g++ and clang++ objects never mix."""
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
        return out.splitlines()[0] if out else cxx
    except (OSError, subprocess.SubprocessError):
        return cxx


@functools.lru_cache(maxsize=1)
def cpu_flags() -> tuple[str, ...]:
    """-mf16c where the CPU converts half precision in hardware (same IEEE results as ascsim's software path)."""
    try:
        return ("-mf16c",) if " f16c" in Path("/proc/cpuinfo").read_text() else ()
    except OSError:
        return ()


class BuildError(Exception):
    def __init__(self, log: str, verdict: Verdict = Verdict.COMPILE_ERROR, error_class: CompileErrorClass | None = None):
        super().__init__(log[:200])
        self.log = log
        self.verdict = verdict
        self.error_class = error_class


def _run(cmd: list[str], deadline: float, cwd: Path | None = None, what: str = "") -> str:
    """Run a build step in its own process group; raise BuildError on failure or when the deadline passes."""
    try:
        rc, out = run_group(cmd, deadline, cwd=cwd)
    except StepTimedOut as e:
        raise BuildError(f"build step '{what}' timed out" if e.started else f"build timed out before {what}",
                         Verdict.TIMEOUT) from None
    if rc != 0:
        raise BuildError(f"[{what}] exit code {rc}\n{out}")
    return out


# ----------------------------------------------------------------------------------------- source preparation --
_ENTRY_RX = r'(?:extern\s+"C"\s+)?(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+{name}\s*\('
_LAUNCH_RX = re.compile(r"\b\w+\s*<<<[^;]*?>>>\s*\([^;]*\)\s*;")
_KEY_RX = re.compile(r"TILING_KEY_IS\s*\(\s*([^)]*?)\s*\)")


def preprocess_kernel(text: str, kernel_name: str | None) -> str:
    """Delete bisheng-only syntax ([aicore], <<<>>> launches) and rename the kernel entry (it may clash with libm)."""
    text = text.replace("[aicore]", "")
    text = _LAUNCH_RX.sub(";", text)
    if kernel_name:
        text = re.sub(_ENTRY_RX.format(name=re.escape(kernel_name)), f"__global__ __aicore__ void ascsim_entry_{kernel_name}(", text)
    return text


def tiling_keys(texts: list[str]) -> list[int]:
    """Literal TILING_KEY_IS keys; [] (no check) when a key is not a plain literal."""
    keys = []
    for t in texts:
        for k in _KEY_RX.findall(t):
            k = k.rstrip("uUlL")
            if not re.fullmatch(r"\d+", k):
                return []
            keys.append(int(k))
    return sorted(set(keys))


def tiling_header(dump: dict, op: str) -> str:
    lines = ["// generated by the ascsim build from the host tiling classes", "#pragma once", "#include <cstdint>", ""]
    for cls, fields in dump.get("classes", {}).items():
        lines.append(f"struct alignas(8) {cls} {{")
        for f in fields:
            arr = f"[{f['count']}]" if f["count"] != 1 else ""
            lines.append(f"    {f['type']} {f['name']}{arr};")
        lines.append("} __attribute__((__may_alias__));")
    default = dump.get("tiling", {}).get(op)
    if default:
        lines.append(f"#define ASCSIM_DEFAULT_TILING_STRUCT {default}")
    return "\n".join(lines) + "\n"


def dtype_combos(opdef: dict) -> list[tuple[dict[str, str], list[int]]]:
    """[(macro -> value, [columns])] for every distinct DTYPE_<NAME> combination of the OpDef."""
    ncol = max([len(p["dtypes"]) for p in opdef["inputs"] + opdef["outputs"]] or [1]) or 1
    in_names = {p["name"].upper() for p in opdef["inputs"]}
    combos: dict[str, tuple[dict[str, str], list[int]]] = {}
    for j in range(ncol):
        macros: dict[str, str] = {}
        for kind in ("inputs", "outputs"):
            for p in opdef[kind]:
                if not p["dtypes"]:
                    continue
                dt = p["dtypes"][min(j, len(p["dtypes"]) - 1)]
                name = p["name"].upper()
                if kind == "outputs" and name in in_names:
                    name += "_REF"
                macros[f"DTYPE_{name}"] = GE_CTYPES.get(dt, "uint8_t")
                macros[f"ORIG_DTYPE_{name}"] = str(dt)
        key = json.dumps(macros, sort_keys=True)
        combos.setdefault(key, (macros, []))[1].append(j)
    return list(combos.values())


def kernel_tu(op: str, kernel_name: str, kernel_file: str, macros: dict[str, str], columns: list[int], keys: list[int],
              index: int, core: str = "AIV", ktype: int = 0, aic_idle: bool = False) -> str:
    ns = f"ascsim_k{index}" + ("_aic" if core == "AIC" else "")
    defs = "\n".join(f"#define {k} {v}" for k, v in macros.items())
    keys_init = ", ".join(str(k) for k in keys) or "0"
    return f"""// generated by the ascsim build: dtype combination {index} of {op}
#include "kernel_operator.h"
#include <array>
#include <tuple>
#include <initializer_list>
#include <climits>
#include <cfloat>
#include "ascsim_tiling.h"
#include "ascsim/kernel/entry.h"
{defs}
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_BOOL 12
#define DT_BF16 27
namespace {ns} {{
{sim_cube.core_prologue(core)}#include "{kernel_file}"
}}
namespace {{
void ascsim_launch(uint8_t** a, size_t n) {{ ::ascsim::invoke_entry(&{ns}::ascsim_entry_{kernel_name}, a, n); }}
const int kColumns[] = {{{", ".join(map(str, columns))}}};
const uint64_t kKeys[] = {{{keys_init}}};
{sim_cube.registration(core, op, len(columns), ktype) or f'const int kReg = (::ascsim::register_kernel("{op}", kColumns, {len(columns)}, &ascsim_launch, kKeys, {len(keys)}), 0);'}
{sim_cube.extra_registration(core, op, len(columns), ktype, aic_idle)}
}}
"""


# ----------------------------------------------------------------------------------------------------- backend --
class SimBackend:
    """prepare -> compile -> runtime_env for the CPU simulator."""

    name = "sim"

    def __init__(self, cache_dir: str | Path | None = None, opt: str = OPT, cxx: str | None = None, **_: object):
        self.cache = Path(cache_dir) if cache_dir else cache_root()
        self.opt = opt
        self.cxx = cxx or CXX   # g++ by default; clang++ is supported too (ASCSIM_CXX or cxx=)

    @property
    def cxx_id(self) -> str:
        return compiler_id(self.cxx)

    @property
    def is_clang(self) -> bool:
        return "clang" in self.cxx_id.lower()

    # -- Backend protocol ------------------------------------------------------------------------------------
    def versions(self) -> dict[str, str]:
        v = {"simulator": f"ascsim-{sim_sources_hash()}", "backend": "sim"}
        try:
            v["compiler"] = subprocess.run([self.cxx, "--version"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
        except (OSError, subprocess.SubprocessError, IndexError):
            v["compiler"] = "unavailable"
        try:
            v["torch"] = torch_build_info()["version"]
        except Exception:  # noqa: BLE001 - reported as a version string, availability says why
            v["torch"] = "unavailable"
        return v

    def available(self) -> tuple[bool, str]:
        if shutil.which(self.cxx) is None:
            return False, f"C++ compiler {self.cxx!r} not found"
        if not (SIM_INCLUDE / "kernel_operator.h").exists():
            return False, f"ascsim headers not found under {SIM_INCLUDE}"
        try:
            torch_build_info()
        except Exception as e:  # noqa: BLE001
            return False, f"torch headers unavailable: {e}"
        return True, "ok"

    def prepare(self, task: Task, candidate: Candidate, workdir: Path) -> Workspace:
        workdir = Path(workdir)
        src = workdir / "src"
        if src.exists():
            shutil.rmtree(src)
        files = dict(candidate.files)
        if not any(k.startswith("op_host/") for k in files):
            files.update({k: v for k, v in task.question_files.items() if k.startswith("op_host/")})
        pybind = (task.validation_dir / "pybind.cpp").read_text()
        pybind = pybind.replace("aclnnCustomOp", f"aclnn{task.op_name}").replace("custom_pybind_api", task.kernel_name)
        files["pybind.cpp"] = pybind
        for rel, text in files.items():
            p = src / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        digest = _sha(sim_sources_hash(), self.cxx_id, self.opt, task.op_name, task.kernel_name,
                      *(f"{k}\n{files[k]}" for k in sorted(files)))
        (workdir / "meta.json").write_text(json.dumps({"op": task.op_name, "kernel": task.kernel_name}))
        return Workspace(root=workdir, task=task, candidate=candidate, content_sha256=digest)

    def build_dir(self, ws: Workspace) -> Path:
        return self.cache / ws.content_sha256[:24]

    def compile(self, ws: Workspace, timeout_s: float) -> CompileResult:
        t0 = time.monotonic()
        out = self.build_dir(ws)
        if (out / f"{MODULE}{EXT_SUFFIX}").exists():
            log = (out / "build.log").read_text() if (out / "build.log").exists() else ""
            return CompileResult(ok=True, seconds=time.monotonic() - t0, log=log, cached=True)
        try:
            log = self._build(ws, out, t0 + timeout_s)
        except BuildError as e:
            log = e.log[-LOG_LIMIT:]
            cls = e.error_class or (classify_compile_error(log) if e.verdict == Verdict.COMPILE_ERROR else None)
            return CompileResult(ok=False, seconds=time.monotonic() - t0, log=log, error_class=cls, verdict=e.verdict)
        except OSError as e:
            return CompileResult(ok=False, seconds=time.monotonic() - t0, log=f"{type(e).__name__}: {e}",
                                 verdict=Verdict.INFRA_ERROR)
        return CompileResult(ok=True, seconds=time.monotonic() - t0, log=log[-LOG_LIMIT:], cached=False)

    def runtime_env(self, ws: Workspace) -> RuntimeEnv:
        return RuntimeEnv(env={}, python_path=[self.build_dir(ws), SIM_PYTHON], device="cpu")

    # -- build steps ------------------------------------------------------------------------------------------
    def _obj(self, name: str, key: str, cmd_fn, deadline: float, what: str) -> Path:
        """Content-addressed object cache: cmd_fn(out_path) builds the object when the key is new."""
        objs = self.cache / "objs"
        objs.mkdir(parents=True, exist_ok=True)
        target = objs / f"{name}-{_sha(key, self.cxx_id)[:24]}.o"
        if target.exists():
            return target
        tmp = objs / f".{target.name}.{uuid.uuid4().hex}.tmp.o"
        _run(cmd_fn(tmp), deadline, what=what)
        os.replace(tmp, target)
        return target

    def _runtime_objs(self, deadline: float) -> tuple[Path, Path]:
        flags = [STD, "-O2", "-fPIC", f"-I{SIM_INCLUDE}"]
        key = _sha(sim_sources_hash(), *_portable(flags))
        rt = self._obj("ascsim-runtime", key, lambda o: [self.cxx, *flags, "-c", str(SIM_ROOT / "src" / "runtime.cpp"), "-o", str(o)],
                       deadline, "runtime")
        dump = self._obj("ascsim-opdump", key, lambda o: [self.cxx, *flags, "-c", str(SIM_ROOT / "src" / "opdump.cpp"), "-o", str(o)],
                         deadline, "opdump")
        return rt, dump

    def _pch_dir(self, deadline: float) -> Path | None:
        """Directory holding kernel_operator.h + its precompiled .gch (searched before sim/include); g++ only
        (clang looks a precompiled header up only through -include-pch)."""
        if self.is_clang:
            return None
        flags = self._kernel_flags()
        d = self.cache / f"pch-{_sha(headers_hash(*KERNEL_HEADERS), *flags)[:16]}"
        if (d / "kernel_operator.h.gch").exists():
            return d
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SIM_INCLUDE / "kernel_operator.h", d / "kernel_operator.h")
        tmp = d / f".gch.{uuid.uuid4().hex}.tmp"
        try:
            _run([self.cxx, *flags, f"-I{SIM_INCLUDE}", "-x", "c++-header", str(d / "kernel_operator.h"), "-o", str(tmp)], deadline,
                 what="precompiled header")
        except BuildError:
            return None
        os.replace(tmp, d / "kernel_operator.h.gch")
        return d

    def _kernel_flags(self) -> list[str]:
        return [STD, *self.opt.split(), *cpu_flags(), "-fPIC", "-w", "-D__CCE_KT_TEST__=1", "-DASCENDC_CPU_DEBUG=1"]

    def _build(self, ws: Workspace, out: Path, deadline: float) -> str:
        task = ws.task
        src = ws.root / "src"
        work = ws.root / "build"
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        log: list[str] = []
        rt_obj, dump_obj = self._runtime_objs(deadline)

        # 1. host objects
        host_dir = src / "op_host"
        host_srcs = sorted(host_dir.glob("*.cpp")) if host_dir.exists() else []
        if not host_srcs:
            raise BuildError("error: no op_host/*.cpp in the candidate or the task's question template",
                             error_class=CompileErrorClass.OTHER)
        host_ctx = _sha(*(f"{p.name}\n{p.read_text(errors='replace')}" for p in sorted(host_dir.iterdir()) if p.is_file()))
        hflags = [STD, "-O1", "-fPIC", "-w", f"-I{SIM_INCLUDE}", f"-I{host_dir}"]
        host_objs = []
        for p in host_srcs:
            key = _sha(headers_hash(*HOST_HEADERS), host_ctx, p.name, *hflags[:3])
            host_objs.append(self._obj("host", key, lambda o, p=p: [self.cxx, *hflags, "-c", str(p), "-o", str(o)], deadline,
                                       f"host {p.name}"))

        # 2. registered OpDefs and tiling classes
        dump_exe = work / "opdump"
        _run([self.cxx, "-o", str(dump_exe), str(dump_obj), *map(str, host_objs), str(rt_obj), "-lpthread"], deadline,
             what="link host")
        try:
            dump = json.loads(_run([str(dump_exe)], min(deadline, time.monotonic() + 60), what="host registration").strip().splitlines()[-1])
        except (json.JSONDecodeError, IndexError) as e:
            raise BuildError(f"error: host registration produced no usable op description ({e})")
        opdef = dump["ops"].get(task.op_name)
        if opdef is None:
            raise BuildError(f"error: no OpDef registered for op '{task.op_name}' (OP_ADD({task.op_name}) missing); "
                             f"registered: {sorted(dump['ops'])}", error_class=CompileErrorClass.SCOPE)
        (work / "opdef.json").write_text(json.dumps(dump, indent=1))

        # 3. kernel translation units
        kdir = src / "op_kernel"
        kfiles = sorted(p for p in kdir.rglob("*") if p.is_file()) if kdir.exists() else []
        main_k = kdir / f"{task.kernel_name}.cpp"
        if not main_k.exists():
            raise BuildError(f"error: kernel source op_kernel/{task.kernel_name}.cpp not found", error_class=CompileErrorClass.OTHER)
        kwork = work / "op_kernel"
        texts = []
        for p in kfiles:
            rel = p.relative_to(kdir)
            text = p.read_text(errors="replace")
            texts.append(text)
            dst = kwork / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(preprocess_kernel(text, task.kernel_name if p == main_k else None))
        if f"ascsim_entry_{task.kernel_name}" not in (kwork / main_k.name).read_text():
            raise BuildError(f"error: kernel entry '{task.kernel_name}' not found: expected "
                             f"extern \"C\" __global__ __aicore__ void {task.kernel_name}(GM_ADDR ...)",
                             error_class=CompileErrorClass.SCOPE)
        (work / "ascsim_tiling.h").write_text(tiling_header(dump, task.op_name))
        keys = tiling_keys(texts)
        ktype = sim_cube.kernel_type(texts)
        idle_aic = sim_cube.aic_idle(texts)
        cores = sim_cube.builds_of(ktype, idle_aic)
        kworks = {"AIV": kwork}
        for core in cores:   # one copy of the sources per core type (core-specialised members, see sim_cube)
            kw = kwork if core == "AIV" else work / "op_kernel_aic"
            kworks[core] = kw
            for p in kfiles:
                src_text = (kwork / p.relative_to(kdir)).read_text()
                (kw / p.relative_to(kdir)).parent.mkdir(parents=True, exist_ok=True)
                (kw / p.relative_to(kdir)).write_text(sim_cube.specialize_for_core(src_text, core))
        pch = self._pch_dir(deadline)
        kflags = self._kernel_flags()
        inc = ([f"-I{pch}"] if pch else []) + [f"-I{SIM_INCLUDE}", f"-I{work}", f"-I{kwork}"]
        kernel_objs = []
        kctx = _sha(*(f"{p}\n{p.read_text()}" for kw in kworks.values() for p in sorted(kw.rglob("*")) if p.is_file()),
                    (work / "ascsim_tiling.h").read_text())
        for i, (macros, cols) in enumerate(dtype_combos(opdef)):
          for core in cores:
            tu = work / f"kernel_{i}{'_aic' if core == 'AIC' else ''}.cpp"
            tu.write_text(kernel_tu(task.op_name, task.kernel_name, str(kworks[core] / main_k.name), macros, cols, keys, i,
                                    core, ktype, idle_aic))
            key = _sha(headers_hash(*KERNEL_HEADERS), kctx, tu.read_text(), *kflags)
            kernel_objs.append(self._obj("kernel", key, lambda o, tu=tu: [self.cxx, *kflags, *inc, "-c", str(tu), "-o", str(o)],
                                         deadline, f"kernel combination {i} ({core})"))

        # 4. the task's pybind module
        tinfo = torch_build_info()
        py_inc = sysconfig.get_paths()["include"]
        pflags = [STD, "-O1", "-fPIC", "-w", f"-D_GLIBCXX_USE_CXX11_ABI={tinfo['abi']}", f"-DTORCH_EXTENSION_NAME={MODULE}",
                  "-DTORCH_API_INCLUDE_EXTENSION_H", f"-I{SIM_INCLUDE}", *(f"-I{d}" for d in tinfo["inc"]), f"-I{py_inc}"]
        pyb = src / "pybind.cpp"
        pkey = _sha(headers_hash(*PYBIND_HEADERS), pyb.read_text(), *_portable(pflags))
        pyb_obj = self._obj("pybind", pkey, lambda o: [self.cxx, *pflags, "-c", str(pyb), "-o", str(o)], deadline, "pybind")

        # 5. link the extension, then publish the build directory atomically
        tmp_out = out.parent / f".{out.name}.{uuid.uuid4().hex}.tmp"
        if tmp_out.exists():
            shutil.rmtree(tmp_out)
        tmp_out.mkdir(parents=True)
        libs = [f"-L{d}" for d in tinfo["lib"]] + [f"-Wl,-rpath,{d}" for d in tinfo["lib"]]
        _run([self.cxx, "-shared", "-o", str(tmp_out / f"{MODULE}{EXT_SUFFIX}"), str(pyb_obj), *map(str, host_objs),
              *map(str, kernel_objs), str(rt_obj), *libs, "-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python", "-lpthread"],
             deadline, what="link extension")
        shutil.copy(work / "opdef.json", tmp_out / "opdef.json")
        (tmp_out / "build.log").write_text("\n".join(log))
        if out.exists():
            shutil.rmtree(tmp_out, ignore_errors=True)
        else:
            os.replace(tmp_out, out)
        return "\n".join(log)


def create_backend(**opts: object) -> SimBackend:
    return SimBackend(**opts)
