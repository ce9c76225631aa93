"""Kubernetes Events on a run's transitions, so that `kubectl describe brun X` tells what happened and why.

Events are derived from the difference between the stored status and the one just written (`transitions`, a pure
function): a stage started or finished, a retry, the run waiting on a dependency, suspended or resumed, pods stuck
Pending, and the run's end with its reason. Posting is best effort (an Event that cannot be written never fails a
reconcile) and behaves like client-go's recorder: a repeat of the same event on the same run bumps `count` and
`lastTimestamp` of one Event instead of creating another, and each run has a token bucket (burst 25, then one per
5 minutes) so a flapping run cannot flood the API server.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from kubernetes.client.rest import ApiException

from kernelgen_operator.kube import Kube

from kernelgen_operator.status import fmt_time, get_condition, is_true

log = logging.getLogger("kernelgen_operator")

COMPONENT = "kernelgen-operator"
BURST, REFILL_SECONDS = 25, 300.0


@dataclass(frozen=True)
class Event:
    type: str      # Normal or Warning
    reason: str    # CamelCase, e.g. StageStarted, PodsPending, BackoffLimitExceeded
    message: str


def _newly_true(old: list[dict[str, Any]], new: list[dict[str, Any]], ctype: str) -> dict[str, Any] | None:
    c = get_condition(new, ctype)
    if c and c.get("status") == "True" and not is_true(old, ctype):
        return c
    return None


def transitions(old: dict[str, Any], new: dict[str, Any]) -> list[Event]:
    """The Events that the change from status `old` to status `new` is worth (in the order they happened)."""
    oc, nc = old.get("conditions") or [], new.get("conditions") or []
    out: list[Event] = []
    if c := _newly_true(oc, nc, "Waiting"):
        out.append(Event("Normal", "WaitingForDependency", c.get("message", "")))
    if _newly_true(oc, nc, "Suspended"):
        out.append(Event("Normal", "Suspended", "spec.suspend is true: active pods removed"))
    resumed = get_condition(nc, "Suspended")
    if is_true(oc, "Suspended") and resumed and resumed.get("status") == "False":
        out.append(Event("Normal", "Resumed", "spec.suspend is false: the run continues"))
    old_stages = {s.get("name"): s for s in old.get("stages") or []}
    for s in new.get("stages") or []:
        before = old_stages.get(s.get("name")) or {}
        if s.get("jobName") != before.get("jobName"):
            retried = bool(before.get("jobName"))
            out.append(Event("Warning" if retried else "Normal", "StageRetried" if retried else "StageStarted",
                             f"stage {s['name']}: Job {s['jobName']}"
                             + (f" replaces {before['jobName']} (restart {new.get('restarts', 0)})" if retried else "")))
        elif s.get("completionTime") and not before.get("completionTime"):
            out.append(Event("Normal", "StageCompleted", f"stage {s['name']}: Job {s['jobName']} completed"))
    pending = get_condition(nc, "PodsPending")
    was = get_condition(oc, "PodsPending") or {}
    if pending and pending.get("status") == "True" and (was.get("status") != "True"
                                                          or was.get("reason") != pending.get("reason")):
        out.append(Event("Warning", "PodsPending", f"{pending.get('reason')}: {pending.get('message', '')}"))
    if c := _newly_true(oc, nc, "Complete"):
        out.append(Event("Normal", "Succeeded", c.get("message", "")))
    if c := _newly_true(oc, nc, "Failed"):
        out.append(Event("Warning", c.get("reason") or "Failed", c.get("message", "")))
    return out


class EventRecorder:
    """Posts core/v1 Events about runs, aggregated and rate-limited per run (thread-safe)."""

    def __init__(self, kube: Kube):
        self.kube = kube
        self.instance = os.environ.get("POD_NAME") or socket.gethostname()
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str, str, str], tuple[str, int]] = {}  # (uid, type, reason, message) -> name, count
        self._tokens: dict[str, tuple[float, float]] = {}  # uid -> (tokens, monotonic time of the last refill)

    def _allow(self, uid: str) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._tokens.get(uid, (float(BURST), now))
            tokens = min(float(BURST), tokens + (now - last) / REFILL_SECONDS)
            if tokens < 1:
                self._tokens[uid] = (tokens, now)
                return False
            self._tokens[uid] = (tokens - 1, now)
            return True

    def post(self, body: dict[str, Any], event: Event) -> None:
        meta = body["metadata"]
        uid = meta["uid"]
        if not self._allow(uid):
            log.debug("event %s on %s/%s dropped by the rate limit", event.reason, meta["namespace"], meta["name"])
            return
        key = (uid, event.type, event.reason, event.message)
        now = fmt_time(dt.datetime.now(dt.timezone.utc))
        with self._lock:
            seen = self._seen.get(key)
        try:
            if seen is not None:
                name, count = seen
                try:
                    self.kube.patch_event(meta["namespace"], name, {"count": count + 1, "lastTimestamp": now})
                    with self._lock:
                        self._seen[key] = (name, count + 1)
                    return
                except ApiException as e:
                    if e.status != 404:  # expired (events live an hour by default): create a new one
                        raise
            name = f"{meta['name']}.{time.time_ns():x}"  # client-go's naming
            self.kube.create_event(meta["namespace"], {
                "metadata": {"name": name, "namespace": meta["namespace"]},
                "involvedObject": {"apiVersion": body.get("apiVersion"), "kind": body.get("kind"),
                                   "name": meta["name"], "namespace": meta["namespace"], "uid": uid},
                "type": event.type, "reason": event.reason, "message": event.message[:1024],
                "source": {"component": COMPONENT}, "reportingComponent": f"kernelgen.ai/{COMPONENT}",
                "reportingInstance": self.instance, "firstTimestamp": now, "lastTimestamp": now, "count": 1,
            })
            with self._lock:
                self._seen[key] = (name, 1)
        except ApiException as e:
            log.warning("could not post event %s on %s/%s: %s %s", event.reason, meta["namespace"], meta["name"],
                        e.status, e.reason)

    def forget(self, uid: str) -> None:
        with self._lock:
            self._tokens.pop(uid, None)
            for k in [k for k in self._seen if k[0] == uid]:
                del self._seen[k]
