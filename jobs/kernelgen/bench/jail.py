"""The sandbox every piece of candidate-influenced work runs in: case runs, compiles, the op-definition dump.

Linux namespaces through libc (no extra package). `enter(spec)`, called in a freshly forked child, makes it:

  C0  the caller: unshares mount, PID, network, IPC and UTS namespaces (plus a user namespace when the harness
      is not root), spawns PID 1 of the new PID namespace (`sleep`, root, with a parent-death signal), forks C2,
      waits for it, kills PID 1 and exits with C2's status. PID 1's death kills every process of the namespace,
      and PID 1 dies with C0 (killing C0's process group on a timeout): nothing a case starts outlives it.
  C2  the sandboxed process (PID 2): builds a new root on a tmpfs holding only the read-only binds of
      `spec["ro"]` (system directories, the interpreter, the toolchain, the candidate's own build), the writable
      binds of `spec["rw"]`, its namespace's /proc, a minimal /dev and a size-limited tmpfs /tmp; pivots into
      it; drops to uid/gid 65534 (nobody) when the harness is root, clears every capability (bounding, ambient,
      effective, permitted), sets no_new_privs, RLIMIT_FSIZE/NPROC, and returns to the caller.

Nothing of the host is visible that `spec` does not name: not the suite (answers, validation files), not the run
directory or its records, not the build cache, not the harness, not the judge's files. There is no network
interface but loopback (down), no host abstract Unix socket, no process of the harness to signal or trace.

Also a script, for work that must exec (compilers): ``python -I jail.py SPEC_JSON -- argv...``; it uses only the
standard library so it starts in milliseconds.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import time
import traceback

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
_SYSCALLS = {"x86_64": {"pivot_root": 155, "capset": 126}, "aarch64": {"pivot_root": 41, "capset": 91}}
NOBODY = 65534
JAIL_SETUP_FAILED = 71
MOUNT_BUSY_RETRIES = 5
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
SLEEP = shutil.which("sleep") or "/bin/sleep"
#: where the new root is assembled (a mount point of the private mount namespace; the host never sees it)
ROOT_MOUNTPOINT = "/tmp/kg-jail-root"
#: system directories every sandboxed process may read (missing ones are skipped)
SYSTEM_RO = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc/ld.so.cache", "/etc/alternatives",
             "/etc/localtime")
DEVICES = ("null", "zero", "full", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True)


class JailError(OSError):
    """The sandbox could not be set up (the case is then an infrastructure failure, never run unsandboxed)."""


def _check(rc: int, what: str) -> None:
    if rc != 0:
        err = ctypes.get_errno()
        raise JailError(err, f"{what}: {os.strerror(err)}")


def _mount(src: str | None, dst: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    for attempt in range(MOUNT_BUSY_RETRIES):
        rc = _libc.mount(enc(src), enc(dst), enc(fstype), ctypes.c_ulong(flags), enc(data))
        # EBUSY (seen once in ~10^4 sandbox set-ups, on the read-only remount of the fresh root, while another
        # test run's sandboxes were being killed): transient, so a few short retries; then it fails closed
        if rc == 0 or ctypes.get_errno() != errno.EBUSY or attempt == MOUNT_BUSY_RETRIES - 1:
            break
        time.sleep(0.02 * (attempt + 1))
    _check(rc, f"mount {src} on {dst}")


def _prctl(option: int, arg: int = 0) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(arg), 0, 0, 0), f"prctl({option})")


def _syscall(name: str, *args) -> int:
    nr = _SYSCALLS.get(platform.machine(), {}).get(name)
    if nr is None:
        raise JailError(0, f"{name}: unknown syscall number on {platform.machine()}")
    return _libc.syscall(nr, *args)


def set_non_dumpable() -> None:
    """For trusted processes: no /proc/<pid>/mem, no ptrace attach from a process without CAP_SYS_PTRACE."""
    _prctl(PR_SET_DUMPABLE, 0)


def available() -> tuple[bool, str]:
    """Whether this kernel lets us build the sandbox (probed in a throw-away child)."""
    pid = os.fork()
    if pid == 0:
        try:
            enter({"ro": [], "rw": [], "tmpfs_mib": 1})
            os._exit(0)
        except BaseException:  # noqa: BLE001
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    ok = os.waitstatus_to_exitcode(status) == 0
    return ok, "namespaces (mount, PID, network, IPC, UTS" + (")" if os.geteuid() == 0 else ", user)")


def _mount_flags_of(path: str) -> int:
    """Flags a bind must keep when remounted read-only (a user namespace may not clear locked ones)."""
    f = os.statvfs(path).f_flag
    out = 0
    for st, ms in ((1, MS_RDONLY), (2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, MS_NOATIME),
                   (2048, MS_NODIRATIME), (4096, MS_RELATIME)):
        if f & st:
            out |= ms
    return out


def _bind(src: str, root: str, *, writable: bool) -> None:
    dst = root + src
    if os.path.isdir(src):
        os.makedirs(dst, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if not os.path.exists(dst):
            open(dst, "w").close()
    _mount(src, dst, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | _mount_flags_of(src)
    _mount(None, dst, None, flags | (0 if writable else MS_RDONLY))


def _plan(spec: dict) -> list[tuple[str, bool]]:
    """(path, writable) binds, parents before children; a path inside another bind of the same kind is dropped."""
    binds: dict[str, bool] = {}
    for p in SYSTEM_RO:
        if os.path.lexists(p) and not os.path.islink(p):
            binds[p] = False
    for key, writable in (("ro", False), ("rw", True)):
        for p in spec.get(key, []):
            p = os.path.realpath(p)
            if os.path.exists(p):
                binds[p] = writable or binds.get(p, False)
    out: list[tuple[str, bool]] = []
    for p in sorted(binds):   # a writable dir inside a read-only one must exist on the host (no mkdir there)
        parent = next((q for q, w in out if p.startswith(q.rstrip("/") + "/")), None)
        if parent is not None and binds[parent] == binds[p]:
            continue
        out.append((p, binds[p]))
    return out


def _build_root(spec: dict) -> None:
    root = ROOT_MOUNTPOINT
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    os.makedirs(root, exist_ok=True)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=0755")
    for p in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):   # merged-/usr symlinks
        if os.path.islink(p):
            os.symlink(os.readlink(p), root + p)
    # /tmp first: host paths below /tmp (a scratch directory) are bound on top of it
    os.makedirs(root + "/tmp", exist_ok=True)
    _mount("tmpfs", root + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={int(spec.get('tmpfs_mib', 256))}m,mode=1777")
    for p, writable in _plan(spec):
        _bind(p, root, writable=writable)
    os.makedirs(root + "/proc", exist_ok=True)
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.makedirs(root + "/dev", exist_ok=True)
    if spec.get("devices"):    # an accelerator's device nodes (real NPU clusters)
        _mount("/dev", root + "/dev", None, MS_BIND | MS_REC)
    else:
        _mount("tmpfs", root + "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")
        for d in DEVICES:
            open(f"{root}/dev/{d}", "w").close()
            _mount(f"/dev/{d}", f"{root}/dev/{d}", None, MS_BIND)
        os.symlink("/proc/self/fd", root + "/dev/fd")
        os.makedirs(root + "/dev/shm")
        _mount("tmpfs", root + "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=1777")
    os.makedirs(root + "/.old", exist_ok=True)
    _check(_syscall("pivot_root", root.encode(), (root + "/.old").encode()), "pivot_root")
    os.chdir("/")
    _check(_libc.umount2(b"/.old", MNT_DETACH), "umount old root")
    os.rmdir("/.old")
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _can_become_nobody() -> bool:
    """Root whose user namespace maps nobody and allows setgroups: the host's, or a container runtime's. Not the
    root of a one-uid namespace such as `unshare -r` makes (the fork server's in a pod that runs as a non-root
    uid): there only the capability drop applies, and the candidate stays that uid (the harness's own outside),
    with no capability, on the sandbox's read-only root."""
    try:
        with open("/proc/self/setgroups") as f:
            if f.read().strip() != "allow":
                return False
        with open("/proc/self/uid_map") as f:
            ranges = [tuple(int(x) for x in line.split()) for line in f if line.strip()]
    except OSError:
        return True   # kernels without these files have no user namespaces
    return any(inside <= NOBODY < inside + count for inside, _, count in ranges)


def _drop_privileges(spec: dict) -> None:
    for cap in range(64):   # the bounding set too: nothing can regain a capability, not even through exec
        if _libc.prctl(PR_CAPBSET_DROP, ctypes.c_ulong(cap), 0, 0, 0) != 0:
            break
    if os.geteuid() == 0 and not spec.get("_userns") and _can_become_nobody():
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)   # a uid change from 0 clears the effective/permitted sets
        nproc = int(spec.get("nproc", 4096))
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    else:
        _libc.prctl(PR_CAP_AMBIENT, ctypes.c_ulong(PR_CAP_AMBIENT_CLEAR_ALL), 0, 0, 0)
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)
        data = (ctypes.c_uint32 * 6)()
        _check(_syscall("capset", header, data), "capset")
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    if spec.get("fsize_mib"):
        b = int(spec["fsize_mib"]) << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (b, b))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _exit_like(code: int) -> None:
    """Leave with the same outcome as a child: its exit code, or death by its signal (re-raised on ourselves)."""
    if code < 0:
        try:
            signal.signal(-code, signal.SIG_DFL)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            os.kill(os.getpid(), -code)
        except OSError:
            pass
        os._exit(128 - code)
    os._exit(code)


def enter(spec: dict) -> None:
    """Turn the calling (freshly forked, single-threaded) process into the sandbox; returns only in C2.

    spec: ro / rw (lists of absolute host paths, bound at the same path), tmpfs_mib (size of /tmp), cwd,
    fsize_mib, nproc, devices (bind the host /dev, for accelerators).
    """
    userns = os.geteuid() != 0
    uid, gid = os.geteuid(), os.getegid()
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | (CLONE_NEWUSER if userns else 0)
    _check(_libc.unshare(flags), "unshare")
    if userns:   # root inside, the harness's own uid outside; capabilities are dropped again in C2
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"0 {uid} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"0 {gid} 1")
        spec = {**spec, "_userns": True}
    init = _init_process()   # dies with C0 (killed on a timeout), and with it the whole namespace
    c2 = os.fork()
    if c2:                                   # C0: outside the PID namespace, only waits
        set_non_dumpable()
        while True:
            try:
                _, status = os.waitpid(c2, 0)
                break
            except InterruptedError:
                continue
        init.kill()                          # PID 1 gone: the kernel kills whatever C2 left behind
        init.wait()
        _exit_like(os.waitstatus_to_exitcode(status))
    _become_sandbox(spec)


def _become_sandbox(spec: dict) -> None:
    """C2's part: inside the namespaces, build the root, then drop everything."""
    try:
        _build_root(spec)
        _drop_privileges(spec)
        os.chdir(spec.get("cwd") or "/tmp")
    except BaseException as e:  # noqa: BLE001
        tb = traceback.extract_tb(e.__traceback__)
        where = ", ".join(f"{f.name}:{f.lineno}" for f in tb[-3:])
        os.write(2, f"kernelgen jail: {type(e).__name__}: {e} (in {where})\n".encode())
        os._exit(JAIL_SETUP_FAILED)


def _init_process() -> subprocess.Popen:
    """PID 1 of a new namespace: a tiny program that only waits (spawned, so the big interpreter is not copied);
    its parent-death signal kills it, and with it the whole namespace, when its parent dies."""
    return subprocess.Popen([SETPRIV, "--pdeathsig", "KILL", "--", SLEEP, "infinity"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)


class PidNamespaceForker:
    """Forks children straight into fresh PID namespaces, for a long-lived root parent (the fork server).

    `enter` makes the forked child unshare and fork again (C0 waits outside, C2 is the sandbox), which costs a
    fork and an exit of a torch-sized process per case. Here the parent itself unshares the PID namespace for
    its next children only (its own PID namespace never changes), spawns the namespace's PID 1, forks the
    child as PID 2, and turns back to its own namespace (setns); the child then calls `enter_as_pid2`. The
    parent must kill the returned PID 1 when the child ends (that kills whatever the child left behind), and
    it dies with the parent (parent-death signal). `create()` returns None where the kernel refuses (no
    CAP_SYS_ADMIN): callers then fork and use `enter`.
    """

    def __init__(self, own_ns_fd: int):
        self.own = own_ns_fd

    @classmethod
    def create(cls) -> "PidNamespaceForker | None":
        try:
            fd = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        forker = cls(fd)
        try:
            forker._unshare()
            forker._restore()
        except OSError:
            os.close(fd)
            return None
        return forker

    def _unshare(self) -> None:
        _check(_libc.unshare(CLONE_NEWPID), "unshare(CLONE_NEWPID)")

    def _restore(self) -> None:
        _check(_libc.setns(self.own, CLONE_NEWPID), "setns(own PID namespace)")

    def fork(self) -> tuple[int, subprocess.Popen | None]:
        """(pid, PID 1) in the parent; (0, None) in the child, which is PID 2 of a namespace of its own."""
        self._unshare()
        try:
            init = _init_process()
            pid = os.fork()
        except BaseException:
            self._restore()
            raise
        if pid == 0:
            return 0, None
        self._restore()
        return pid, init


def enter_as_pid2(spec: dict) -> None:
    """`enter` for a child of `PidNamespaceForker.fork`: already PID 2 of its PID namespace, so it unshares
    the other namespaces itself and becomes the sandbox without another fork. Root only (the forker is)."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
    _become_sandbox(spec)


def main(argv: list[str]) -> None:
    """``jail.py SPEC_JSON -- argv...``: run argv in the sandbox with the environment given in the spec."""
    spec = json.loads(argv[0])
    cmd = argv[argv.index("--") + 1:]
    enter(spec)
    os.execve(cmd[0], cmd, spec.get("env") or {"PATH": "/usr/bin:/bin"})


if __name__ == "__main__":
    main(sys.argv[1:])
