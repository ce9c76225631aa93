"""What the jail needs inside a pod (docs/security.md, "Pods"): run by a non-root uid, as in the evaluate image, it
builds its sandbox in a user namespace; the kernel then refuses its fresh /proc while a /proc path is overmounted,
as container runtimes do unless the pod asks for ``procMount: Unmasked``. Needs root here, only to stage the uid and
the overmount (the jail itself runs unprivileged)."""
from __future__ import annotations

import os
import traceback  # noqa: F401  imported before the uid drop: the interpreter's files may be unreadable to uid 1000

import pytest

from kernelgen.bench import jail

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="staging another uid and an overmount needs root")
POD_UID = 1000   # the images' USER (images/cpu/Dockerfile)


def _in_child(body) -> tuple[int, str]:
    """Run body(w) in a forked child (w: a pipe it writes its report to; it exits with body's return code);
    (exit code, report). A failure in the setup is reported as such."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os._exit(body(w))
        except BaseException as e:  # noqa: BLE001
            os.write(w, f"setup failed: {e!r}".encode())
            os._exit(1)
    os.close(w)
    out = b""
    while chunk := os.read(r, 4096):
        out += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode()


def _become_pod_user() -> None:
    os.setgroups([])
    os.setresgid(POD_UID, POD_UID, POD_UID)
    os.setresuid(POD_UID, POD_UID, POD_UID)
    jail._prctl(jail.PR_SET_DUMPABLE, 1)   # as after an exec by that uid (a uid change clears it)


def _jail_as_pod_user(mask_proc: bool) -> tuple[int, str]:
    def body(w: int) -> int:
        if mask_proc:   # what runc does with the spec's readonlyPaths: /proc/sys bound read-only over itself
            jail._check(jail._libc.unshare(jail.CLONE_NEWNS), "unshare")
            jail._mount(None, "/", None, jail.MS_REC | jail.MS_PRIVATE)
            jail._mount("/proc/sys", "/proc/sys", None, jail.MS_BIND)
            jail._mount(None, "/proc/sys", None, jail.MS_BIND | jail.MS_REMOUNT | jail.MS_RDONLY)
        _become_pod_user()
        os.dup2(w, 2)
        ok, _ = jail.available()
        os.write(w, b"available" if ok else b"refused")
        return 0

    return _in_child(body)


def test_unprivileged_jail_builds_with_an_unmasked_proc():
    rc, out = _jail_as_pod_user(mask_proc=False)
    assert rc == 0 and out.endswith("available"), out


def test_unprivileged_jail_is_refused_with_a_masked_proc():
    rc, out = _jail_as_pod_user(mask_proc=True)
    assert rc == 0 and out.endswith("refused"), out
    assert "mount proc" in out and "Operation not permitted" in out, out


def _pid2_jail_in_mapped_root_namespace() -> tuple[int, str]:
    """The fork server's path in a pod that runs as uid 1000: `unshare -r` (root of a user namespace that maps only
    uid 1000, setgroups denied), then a run child forked as PID 2 of a fresh PID namespace enters the jail."""
    def body(w: int) -> int:
        _become_pod_user()
        jail._check(jail._libc.unshare(jail.CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
        for name, text in (("setgroups", "deny"), ("uid_map", f"0 {POD_UID} 1"), ("gid_map", f"0 {POD_UID} 1")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        # `unshare -p -f`: the fork server is PID 1 of a PID namespace its user namespace owns
        jail._check(jail._libc.unshare(jail.CLONE_NEWPID), "unshare(CLONE_NEWPID)")
        server = os.fork()
        if server:
            return os.waitstatus_to_exitcode(os.waitpid(server, 0)[1])
        forker = jail.PidNamespaceForker.create()
        assert forker is not None, "no PID namespaces as root of the user namespace"
        child, init = forker.fork()
        if child == 0:
            os.dup2(w, 2)
            jail.enter_as_pid2({"ro": [], "rw": [], "tmpfs_mib": 1})
            with open("/proc/self/status") as f:
                caps = {k: v.strip() for k, v in (ln.split(":", 1) for ln in f) if k.startswith("Cap")}
            os.write(w, f"entered uid={os.getuid()} CapEff={caps['CapEff']} CapBnd={caps['CapBnd']}".encode())
            os._exit(0)
        _, status = os.waitpid(child, 0)
        init.kill()
        os._exit(os.waitstatus_to_exitcode(status))

    return _in_child(body)


def test_jail_builds_for_the_fork_servers_pid2_child_as_root_of_a_one_uid_namespace():
    """Every case in a pod ran into `setgroups: Operation not permitted` (JAIL_SETUP_FAILED) here: the jail took
    the namespace's root for the host's and tried to become nobody, who is not mapped there."""
    rc, out = _pid2_jail_in_mapped_root_namespace()
    assert rc == 0, out
    assert out.startswith("entered uid=0 CapEff=0000000000000000 CapBnd=0000000000000000"), out
