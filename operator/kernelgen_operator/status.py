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
