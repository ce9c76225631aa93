"""Undefined-symbol check of compiled candidate objects: what a kernel may call, and what host code may not.

A kernel runs on the AI Core: it may call the simulator runtime (anything the runtime object or the kernel
objects themselves define), a short list of libc/libm functions and the C++ runtime support the simulator's
headers need. Anything else (dlsym, fopen, socket, syscall, the Python C API, torch) would be host-side
compute or an escape hatch, which the device compiler's toolchain would never resolve: allow-list.
Host objects (tiling, OpDef) are ordinary C++, so they get a deny-list of the symbols that reach outside a
tiling function: dynamic loading, processes, sockets, tracing, the Python C API, torch.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

_MATH = ("sqrt cbrt exp exp2 expm1 log log2 log10 log1p pow sin cos tan asin acos atan atan2 sinh cosh tanh asinh "
         "acosh atanh erf erfc fabs floor ceil round trunc fmod fmin fmax hypot lgamma tgamma rint nearbyint lround "
         "llround lrint llrint copysign frexp ldexp modf remainder remquo fma nextafter nexttoward scalbn ilogb logb "
         "fdim sincos").split()
LIBC_ALLOWED = frozenset(
    [n + s for n in _MATH for s in ("", "f", "l")] +
    "memcpy memset memmove memcmp strlen strcmp strncmp snprintf vsnprintf printf puts putchar abort __assert_fail "
    "__stack_chk_fail __dso_handle __cxa_atexit __cxa_thread_atexit __cxa_thread_atexit_impl __cxa_guard_acquire "
    "__cxa_guard_release __cxa_guard_abort __gxx_personality_v0 _Unwind_Resume __tls_get_addr _GLOBAL_OFFSET_TABLE_ "
    "__cxa_begin_catch __cxa_end_catch __cxa_rethrow __cxa_allocate_exception __cxa_free_exception __cxa_throw "
    "__cxa_call_unexpected __cxa_pure_virtual __dynamic_cast __errno_location".split())
# C++ runtime support pulled in by the simulator's headers (strings in diagnostics, iostream init: a static
# ios_base::Init up to GCC 12, a reference to std::ios_base_library_init() from GCC 13 on; new/delete,
# std::nothrow: std::stable_sort's temporary buffer in the sort APIs)
CXX_ALLOWED = re.compile(r"_ZNK?St7__cxx1112basic_string|_ZSt\d+__throw_|_ZNSt8ios_base4Init|"
                         r"_ZSt21ios_base_library_initv$|_Zn[wa]m|_Zd[la]Pv|"
                         r"_ZSt7nothrow$|"
                         r"_ZT[VIS]N?St|_ZT[VIS]N?10__cxxabiv|_ZNSt9exception|_ZNKSt9exception|_ZSt9terminate|"
                         r"_ZNSt\d+(?:logic_error|runtime_error|out_of_range|invalid_argument|length_error|bad_alloc)|"
                         r"_ZNK?\d+ascsim_k\d+(?:_aic)?")   # the other core's copy of the kernel (same build)
HOST_DENIED = re.compile(r"^(?:dl\w+|_?Py\w+|system|popen|fork|vfork|clone\d?|exec\w*|posix_spawn\w*|socket|"
                         r"connect|bind|listen|accept\d?|sendto|recvfrom|ptrace|syscall|process_vm_\w+|mprotect|"
                         r"pthread_create|kill|tgkill|prctl|unshare|setns|mount|chroot|"
                         r"_ZN2at\w*|_ZNK2at\w*|_ZN3c10\w*|_ZNK3c10\w*|_ZN5torch\w*|_ZN8pybind11\w*)$")


@functools.lru_cache(maxsize=1)
def nm() -> str | None:
    return shutil.which("nm")


def _symbols(objs: list[Path], *flags: str) -> dict[Path, set[str]]:
    """One nm run over several objects (a build step's cost matters): object -> its symbols."""
    out = subprocess.run([nm(), "-A", *flags, "--format=posix", *map(str, objs)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    found: dict[Path, set[str]] = {o: set() for o in objs}
    for line in out.splitlines():   # "<file>: <symbol> <type> [value size]"
        head, _, rest = line.partition(": ")
        if rest:
            found.setdefault(Path(head), set()).add(rest.split()[0])
    return found


@functools.lru_cache(maxsize=64)
def _defined_cached(obj: Path, stamp: tuple) -> frozenset[str]:
    return frozenset(_symbols([obj], "--defined-only")[obj])


def kernel_violations(kernel_objs: list[Path], runtime_obj: Path) -> list[str]:
    """Undefined symbols of the kernel objects that are neither the simulator's nor allow-listed."""
    if nm() is None or not kernel_objs:
        return []
    st = runtime_obj.stat()
    known = set(_defined_cached(runtime_obj, (st.st_size, st.st_mtime_ns)))
    for syms in _symbols(kernel_objs, "--defined-only").values():
        known |= syms
    bad = set()
    for syms in _symbols(kernel_objs, "-u").values():
        bad |= {s for s in syms - known if s not in LIBC_ALLOWED and not CXX_ALLOWED.match(s)}
    return sorted(bad)


def host_violations(host_objs: list[Path]) -> list[str]:
    if nm() is None or not host_objs:
        return []
    return sorted({s for syms in _symbols(host_objs, "-u").values() for s in syms if HOST_DENIED.match(s)})


def demangle(names: list[str]) -> list[str]:
    filt = shutil.which("c++filt")
    if not filt or not names:
        return names
    out = subprocess.run([filt], input="\n".join(names), capture_output=True, text=True, timeout=30).stdout
    return out.splitlines() or names
