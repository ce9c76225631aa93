"""Run status: conditions (the truth), the phase derived from them, and child Job -> stage status."""

from __future__ import annotations

import datetime as dt
from typing import Any

CONDITION_TYPES = ("Suspended", "Running", "Complete", "Failed")


def now_utc() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)


def fmt_time(t: dt.datetime | None) -> str | None:
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") if t else None


def parse_time(s: str | None) -> dt.datetime | None:
    if not s:
        return None
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def get_condition(conditions: list[dict[str, Any]], ctype: str) -> dict[str, Any] | None:
    return next((c for c in conditions if c.get("type") == ctype), None)


def is_true(conditions: list[dict[str, Any]], ctype: str) -> bool:
    c = get_condition(conditions, ctype)
    return bool(c) and c.get("status") == "True"


def set_condition(conditions: list[dict[str, Any]], ctype: str, status: bool, reason: str, message: str,
                  generation: int | None, now: dt.datetime) -> list[dict[str, Any]]:
    """Return a new list with ctype set; lastTransitionTime changes only when the status flips."""
    sval = "True" if status else "False"
    out = []
    found = False
    for c in conditions:
        if c.get("type") == ctype:
            found = True
            ltt = c.get("lastTransitionTime") if c.get("status") == sval else fmt_time(now)
            c = {"type": ctype, "status": sval, "reason": reason, "message": message,
                 "lastTransitionTime": ltt or fmt_time(now)}
            if generation is not None:
                c["observedGeneration"] = generation
        out.append(c)
    if not found:
        c = {"type": ctype, "status": sval, "reason": reason, "message": message, "lastTransitionTime": fmt_time(now)}
        if generation is not None:
            c["observedGeneration"] = generation
        out.append(c)
    return out


def derive_phase(conditions: list[dict[str, Any]]) -> str:
    """Phase is a summary of the conditions, never stored independently of them."""
    if is_true(conditions, "Failed"):
        return "Failed"
    if is_true(conditions, "Complete"):
        return "Succeeded"
    if is_true(conditions, "Suspended"):
        return "Suspended"
    if is_true(conditions, "Running"):
        return "Running"
    return "Pending"


def is_terminal(conditions: list[dict[str, Any]]) -> bool:
    return is_true(conditions, "Complete") or is_true(conditions, "Failed")


# ------------------------------------------------------------------------------------------------- child Jobs

def job_condition(job: dict[str, Any], ctype: str) -> dict[str, Any] | None:
    for c in (job.get("status") or {}).get("conditions") or []:
        if c.get("type") == ctype and c.get("status") == "True":
            return c
    return None


def _count_indexes(spec: str | None) -> int:
    """Number of indexes in a Job's compressed index list such as '0,2-4'."""
    n = 0
    for part in (spec or "").split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-")
            n += int(b) - int(a) + 1
        else:
            n += 1
    return n


def job_state(job: dict[str, Any], allowed_failed_indexes: int = 0) -> tuple[str, str, str]:
    """(state, reason, message) with state one of Complete, Failed, Active.

    FailureTarget/SuccessCriteriaMet come before the final condition (the Job controller waits for pods to terminate);
    acting on them is safe because the decision is already made.
    """
    for ctype in ("Complete", "SuccessCriteriaMet"):
        c = job_condition(job, ctype)
        if c:
            return "Complete", c.get("reason", ""), c.get("message", "")
    for ctype in ("Failed", "FailureTarget"):
        c = job_condition(job, ctype)
        if c:
            st = job.get("status") or {}
            completions = (job.get("spec") or {}).get("completions") or 1
            failed_idx = _count_indexes(st.get("failedIndexes"))
            done_idx = _count_indexes(st.get("completedIndexes"))
            if (allowed_failed_indexes and c.get("reason") == "FailedIndexes"
                    and failed_idx <= allowed_failed_indexes and failed_idx + done_idx >= completions):
                return "Complete", "FailedIndexesTolerated", f"{failed_idx} shard(s) failed (allowed)"
            return "Failed", c.get("reason", ""), c.get("message", "")
    return "Active", "", ""


def stage_status(stage: str, job: dict[str, Any]) -> dict[str, Any]:
    st = job.get("status") or {}
    out = {
        "name": stage,
        "jobName": job["metadata"]["name"],
        "active": st.get("active", 0) or 0,
        "ready": st.get("ready", 0) or 0,
        "succeeded": st.get("succeeded", 0) or 0,
        "failed": st.get("failed", 0) or 0,
    }
    if st.get("startTime"):
        out["startTime"] = st["startTime"]
    if st.get("completionTime"):
        out["completionTime"] = st["completionTime"]
    return out


# ------------------------------------------------------------------------------------------------- pending pods

# Container waiting reasons that do not clear by themselves (a missing image or Secret, a bad image name); plain
# ContainerCreating or PodInitializing are progress, not trouble.
STUCK_WAITING_REASONS = frozenset({"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull",
                                   "CreateContainerConfigError", "CreateContainerError", "RunContainerError"})


def pod_pending_reason(pod: dict[str, Any]) -> tuple[str, str] | None:
    """(reason, message) when a pod is stuck before running: unschedulable (the scheduler's reason) or a container
    that cannot be created (the kubelet's); None for a pod that is running, finished, or just being set up."""
    if pod["metadata"].get("deletionTimestamp"):
        return None
    st = pod.get("status") or {}
    if st.get("phase") != "Pending":
        return None
    for c in st.get("conditions") or []:
        if c.get("type") == "PodScheduled" and c.get("status") == "False":
            return c.get("reason") or "Unschedulable", c.get("message") or ""
    for cs in (st.get("initContainerStatuses") or []) + (st.get("containerStatuses") or []):
        waiting = (cs.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") in STUCK_WAITING_REASONS:
            return waiting["reason"], f"container {cs.get('name')}: {waiting.get('message', '')}".rstrip(": ")
    return None


def pending_summary(pods: list[dict[str, Any]]) -> tuple[int, str, str, bool]:
    """(pending count, the first pod's reason, its message, whether any pod ever started) of one Job's pods."""
    stuck = [r for r in (pod_pending_reason(p) for p in pods) if r is not None]
    started = any((p.get("status") or {}).get("phase") not in (None, "Pending") for p in pods)
    if not stuck:
        return 0, "", "", started
    return len(stuck), stuck[0][0], stuck[0][1], started


# Pod template fields that come from the operator's configuration and decide where (and whether) a pod can start.
PLACEMENT_FIELDS = ("nodeSelector", "tolerations", "affinity", "runtimeClassName", "priorityClassName",
                    "serviceAccountName", "imagePullSecrets")


def placement(job: dict[str, Any]) -> dict[str, Any]:
    pod = ((job.get("spec") or {}).get("template") or {}).get("spec") or {}
    c = (pod.get("containers") or [{}])[0]
    return {**{k: pod.get(k) or None for k in PLACEMENT_FIELDS}, "image": c.get("image"),
            "imagePullPolicy": c.get("imagePullPolicy")}
