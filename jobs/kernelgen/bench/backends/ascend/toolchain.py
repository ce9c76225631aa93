"""The CANN build of one candidate as an explicit list of commands (what `--dry-run` prints and `compile` runs).

    1. msopgen gen -i op.json -c ai_core-<SoC> -lan cpp -out proj      op project skeleton from the CANN toolkit
    2. python -m kernelgen.bench.backends.ascend.tool install-sources   candidate files in, private vendor name,
                                                                         CANN path and compute unit in the presets
    3. cmake -S proj -B proj/build_out --preset=default                 configure (opbuild generates aclnn_<op>.*)
    4. cmake --build proj/build_out --target binary -j N                host libraries + kernel binaries (bisheng)
    5. cmake --build proj/build_out --target package -j N               custom_opp_<os>_<arch>.run
    6. python -m kernelgen.bench.backends.ascend.tool install-opp       runs the .run with --install-path=<private
                                                                         dir>: nothing is installed globally
    7. g++ ... pybind.cpp -> out/kernel_gen_ops<EXT>                    the task's binding against torch/torch_npu,
                                                                         with our helper (no link to cust_opapi)
Then the harness checks the artifacts and the symbol origin (elfcheck). Every command runs in its own process
group under the compile deadline; a timeout kills the whole group. ASCEND_CUSTOM_OPP_PATH is removed from the
build environment (an inherited vendor path must not leak into a candidate's build).
"""
from __future__ import annotations

import importlib.util
import os
import shlex
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from ...model import Verdict
from ...procs import StepTimedOut, run_group
from ...torch_cxx import binding_std_flag

HELPER_DIR = Path(__file__).resolve().parent / "helper"
HARNESS_ROOT = Path(__file__).resolve().parents[4]      # the dir holding the kernelgen package
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
MODULE = "kernel_gen_ops"
DEFAULT_ASCEND_HOME = "/usr/local/Ascend/ascend-toolkit/latest"
_BUILD_ENV_PASS = ("PATH", "HOME", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "PYTHONPATH", "ASCEND_HOME_PATH",
                   "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH", "TOOLCHAIN_HOME", "ASCEND_SLOG_PRINT_TO_STDOUT",
                   "CCACHE_DIR", "CMAKE_CXX_COMPILER_LAUNCHER", "TMPDIR")


def compute_unit(soc: str) -> str:
    """SoC version (msopgen -c ai_core-<SoC>) -> the compute unit the op project's presets name."""
    s = soc.lower()
    if s.startswith("ascend910_93"):
        return "ascend910_93"
    if s.startswith("ascend910b"):
        return "ascend910b"
    return s


@dataclass
class Toolchain:
    """Where the CANN toolkit and its tools are; every field can be set from the environment."""

    ascend_home: str = field(default_factory=lambda: os.environ.get("ASCEND_HOME_PATH", DEFAULT_ASCEND_HOME))
    soc: str = field(default_factory=lambda: os.environ.get("KERNELGEN_ASCEND_SOC", "Ascend910B2"))
    msopgen: str = field(default_factory=lambda: os.environ.get("KERNELGEN_MSOPGEN", "msopgen"))
    cmake: str = field(default_factory=lambda: os.environ.get("KERNELGEN_CMAKE", "cmake"))
    cxx: str = field(default_factory=lambda: os.environ.get("KERNELGEN_ASCEND_CXX", "g++"))
    python: str = sys.executable
    jobs: int = field(default_factory=lambda: int(os.environ.get("KERNELGEN_ASCEND_BUILD_JOBS", "0")) or
                      max(1, os.cpu_count() or 1))
    torch_npu_dir: str = ""
    extra_env: dict[str, str] = field(default_factory=dict)   # added to every build step (e.g. ccache settings)

    def __post_init__(self) -> None:
        if not self.torch_npu_dir:
            self.torch_npu_dir = os.environ.get("KERNELGEN_TORCH_NPU_DIR") or _torch_npu_dir() or "$TORCH_NPU_DIR"

    @property
    def compute_unit(self) -> str:
        return compute_unit(self.soc)

    def build_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {k: os.environ[k] for k in _BUILD_ENV_PASS if k in os.environ}
        env["ASCEND_HOME_PATH"] = self.ascend_home
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HARNESS_ROOT), env.get("PYTHONPATH", "")) if p)
        env.pop("ASCEND_CUSTOM_OPP_PATH", None)
        env.update(self.extra_env)
        env.update(extra or {})
        return env


def _torch_npu_dir() -> str | None:
    spec = importlib.util.find_spec("torch_npu")   # located, never imported
    if spec and spec.submodule_search_locations:
        d = Path(next(iter(spec.submodule_search_locations)))
        if (d / "include").is_dir():                  # the real package, not the simulator's compat shim
            return str(d)
    return None


@dataclass
class Step:
    name: str
    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)   # the step's complete environment

    def shell(self, base_env: dict[str, str] | None = None) -> str:
        """One shell line that reproduces the step (environment shown as a diff from base_env)."""
        base = base_env or {}
        diff = {k: v for k, v in self.env.items() if base.get(k) != v and k not in ("PATH", "HOME", "LANG", "TMPDIR")}
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(diff.items()))
        return f"(cd {shlex.quote(str(self.cwd))} && {'env ' + envs + ' ' if envs else ''}{shlex.join(self.argv)})"


@dataclass
class BuildLayout:
    """Paths of one candidate's build (under the content-addressed cache entry)."""

    root: Path              # the cache entry: everything below is this candidate's only

    @property
    def src(self) -> Path: return self.root / "src"
    @property
    def op_json(self) -> Path: return self.root / "op.json"
    @property
    def proj(self) -> Path: return self.root / "proj"
    @property
    def build_out(self) -> Path: return self.proj / "build_out"
    @property
    def opp(self) -> Path: return self.root / "opp"
    @property
    def out(self) -> Path: return self.root / "out"
    @property
    def extension(self) -> Path: return self.out / f"{MODULE}{EXT_SUFFIX}"

    def vendor_dir(self, vendor: str) -> Path:
        return self.opp / "vendors" / vendor

    def opapi_lib(self, vendor: str) -> Path:
        return self.vendor_dir(vendor) / "op_api" / "lib" / "libcust_opapi.so"


def torch_flags() -> tuple[list[str], list[str]]:
    """(compile flags, link flags) for torch, probed in a subprocess (cached by the sim backend's helper)."""
    from ..sim import torch_build_info
    try:
        t = torch_build_info()
    except Exception:   # noqa: BLE001 - planned with placeholders, available() reports it
        t = {"inc": ["$TORCH_DIR/include"], "lib": ["$TORCH_DIR/lib"], "abi": 1}
    cflags = [f"-D_GLIBCXX_USE_CXX11_ABI={t['abi']}", *(f"-I{d}" for d in t["inc"])]
    lflags = [*(f"-L{d}" for d in t["lib"]), *(f"-Wl,-rpath,{d}" for d in t["lib"])]
    return cflags, lflags


def plan(tc: Toolchain, lay: BuildLayout, op_type: str, kernel: str, vendor: str) -> list[Step]:
    env = tc.build_env({"CMAKE_BUILD_PARALLEL_LEVEL": str(tc.jobs)})
    tool = [tc.python, "-m", "kernelgen.bench.backends.ascend.tool"]
    tcf, tlf = torch_flags()
    npu = tc.torch_npu_dir
    py_inc = sysconfig.get_paths()["include"]
    pybind = [
        tc.cxx, binding_std_flag(), "-O2", "-fPIC", "-shared", "-w", f"-DTORCH_EXTENSION_NAME={MODULE}",
        "-DTORCH_API_INCLUDE_EXTENSION_H", f"-I{HELPER_DIR}", *tcf, f"-I{npu}/include",
        f"-I{npu}/include/third_party/acl/inc", f"-I{tc.ascend_home}/include", f"-I{tc.ascend_home}/include/aclnn",
        f"-I{py_inc}", str(lay.src / "pybind.cpp"), "-o", str(lay.extension), *tlf, f"-L{npu}/lib",
        f"-Wl,-rpath,{npu}/lib", f"-L{tc.ascend_home}/lib64", f"-Wl,-rpath,{tc.ascend_home}/lib64",
        "-ltorch", "-ltorch_cpu", "-lc10", "-ltorch_python", "-ltorch_npu", "-lascendcl", "-lnnopbase", "-ldl",
    ]
    return [
        Step("msopgen", [tc.msopgen, "gen", "-i", str(lay.op_json), "-c", f"ai_core-{tc.soc}", "-lan", "cpp",
                         "-out", str(lay.proj)], lay.root, env),
        Step("install-sources", [*tool, "install-sources", "--src", str(lay.src), "--proj", str(lay.proj),
                                 "--kernel", kernel, "--vendor", vendor, "--cann", tc.ascend_home,
                                 "--compute-unit", tc.compute_unit], lay.root, env),
        Step("configure", [tc.cmake, "-S", ".", "-B", "build_out", "--preset=default"], lay.proj, env),
        Step("build-binary", [tc.cmake, "--build", "build_out", "--target", "binary", "-j", str(tc.jobs)], lay.proj, env),
        Step("build-package", [tc.cmake, "--build", "build_out", "--target", "package", "-j", str(tc.jobs)], lay.proj,
             env),
        Step("install-opp", [*tool, "install-opp", "--build-out", str(lay.build_out), "--install-path", str(lay.opp),
                             "--vendor", vendor], lay.root, env),
        Step("pybind", pybind, lay.root, env),
    ]


class StepFailed(Exception):
    def __init__(self, step: str, log: str, verdict: Verdict = Verdict.COMPILE_ERROR):
        super().__init__(f"{step}: {log[-200:]}")
        self.step, self.log, self.verdict = step, log, verdict


def run_step(step: Step, deadline: float) -> str:
    """Run one step in its own process group; StepFailed on failure, TIMEOUT (whole group killed) past deadline."""
    step.cwd.mkdir(parents=True, exist_ok=True)
    try:
        rc, out = run_group(step.argv, deadline, cwd=step.cwd, env=step.env)
    except StepTimedOut as e:
        msg = f"build step '{step.name}' timed out" if e.started else f"build timed out before {step.name}"
        raise StepFailed(step.name, msg, Verdict.TIMEOUT) from None
    except OSError as e:
        raise StepFailed(step.name, f"[{step.name}] cannot start {step.argv[0]}: {e}", Verdict.INFRA_ERROR) from e
    if rc != 0:
        raise StepFailed(step.name, f"[{step.name}] exit code {rc}\n{out}")
    return out
