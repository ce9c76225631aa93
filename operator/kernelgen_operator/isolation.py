"""Security settings of the runs' pods, and the exceptions the candidate jail needs in evaluate pods.

Every pod: non-root, no privilege escalation, every capability dropped, read-only root file system, seccomp
RuntimeDefault, no service-account token. BenchRun ``evaluate`` pods run candidate code, each case and build inside
the harness's own jail (``kernelgen.bench.jail``: user, mount, PID, network, IPC and UTS namespaces, a fresh
``/proc``, a pivoted root). An unprivileged process can build that jail only where:

- seccomp lets it call ``unshare`` (with CLONE_NEWUSER and the other namespace flags), ``mount``, ``umount2`` and
  ``pivot_root``: the container runtimes' default profile allows them only with CAP_SYS_ADMIN, so the pod gets a
  Localhost profile that adds them (``evaluate_seccomp_profile``) or, when none is installed, Unconfined;
- AppArmor lets it mount (the runtimes' default profile denies every mount): Localhost
  (``evaluate_apparmor_profile``) or Unconfined;
- the kernel lets it mount a new ``proc`` in its user namespace, which it refuses while any proc mount of the
  container hides a path (the runtime masks /proc/kcore, /proc/keys, ... and makes /proc/sys read-only):
  ``procMount: Unmasked``, which Kubernetes allows only in a user-namespaced pod (``hostUsers: false``).

No capability is added: the jail gets its privileges in its own user namespace, and candidate code runs there
with none. Details and the node requirements: docs/security.md ("Pods").
"""

from __future__ import annotations

from typing import Any

from kernelgen_operator.config import OperatorConfig


def runs_candidate_code(kind: str, stage: str) -> bool:
    """The only stage that compiles and runs generated kernels (CoT's compile check is -fsyntax-only)."""
    return kind == "BenchRun" and stage == "evaluate"


def container_security_context(cfg: OperatorConfig, candidate: bool) -> dict[str, Any]:
    sc: dict[str, Any] = {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True, "runAsNonRoot": True,
                          "capabilities": {"drop": ["ALL"]}}
    if candidate and jail_enabled(cfg):
        sc["seccompProfile"] = _profile(cfg.evaluate_seccomp_profile)
        sc["appArmorProfile"] = _profile(cfg.evaluate_apparmor_profile)
        sc["procMount"] = "Unmasked"
    return sc


def pod_security_fields(cfg: OperatorConfig, candidate: bool) -> dict[str, Any]:
    """Pod-level fields: the pod securityContext, and hostUsers: false where the jail needs it."""
    out: dict[str, Any] = {
        "automountServiceAccountToken": False,   # no pod of a run talks to the API
        "securityContext": {"runAsNonRoot": True, "runAsUser": cfg.run_as_user, "runAsGroup": cfg.run_as_user,
                            "fsGroup": cfg.run_as_user, "seccompProfile": {"type": "RuntimeDefault"}},
    }
    if candidate and jail_enabled(cfg):
        out["hostUsers"] = False
    return out


def jail_enabled(cfg: OperatorConfig) -> bool:
    """hostUsers: false is invalid with hostNetwork (the test cluster's real node): the jail cannot be built there,
    and every case then fails closed as an infrastructure error instead of running unjailed."""
    return cfg.evaluate_jail and not cfg.host_network


def _profile(localhost: str | None) -> dict[str, str]:
    return {"type": "Localhost", "localhostProfile": localhost} if localhost else {"type": "Unconfined"}
