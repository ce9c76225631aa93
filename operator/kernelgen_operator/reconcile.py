"""The reconcile of one run: read the run and its child Jobs, create what is missing, write the status.

Level-based and idempotent: everything is recomputed from the API on each call (the run, its Jobs), nothing is kept
in memory between calls, and children have deterministic names. So a reconcile can be interrupted anywhere (the
operator killed between two writes) and the next one, from any trigger, continues where it stopped without ever
creating a second Job for the same stage attempt.

Stage attempts: stage S runs as Job <run>-<S>-r0; when that Job fails in a way that counts, the next reconcile creates
<run>-<S>-r1, and so on. Failed attempts are kept as a record, so the number of restarts is derived from the children
(sum over stages of the highest attempt number) and needs no counter of its own.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import kopf
from kernelgen.specs import SpecError, load_spec
from kernelgen.specs.refs import Reference, overrides, references, status_value
from kernelgen.specs.report import parse_report

from kernelgen_operator import metrics
from kernelgen_operator.children import (
    LABEL_ATTEMPT,
    LABEL_RUN,
    LABEL_STAGE,
    build_job,
    headless_service,
    plan_stages,
    resolved_spec_yaml,
    secret_refs,
    spec_configmap,
    spec_configmap_name,
)
from kernelgen_operator.config import OperatorConfig
from kernelgen_operator.events import Event, EventRecorder, transitions
from kernelgen_operator.kube import Kube
from kernelgen_operator.status import (
    derive_phase,
    fmt_time,
    get_condition,
    is_terminal,
    is_true,
    job_state,
    now_utc,
    parse_time,
    pending_summary,
    placement,
    set_condition,
    stage_status,
)

log = logging.getLogger("kernelgen_operator")


@dataclass
class Outcome:
    action: str                      # what happened, for logs and tests
    requeue_after: float | None = None
    waiting_on: tuple[tuple[str, str, str], ...] = ()  # (namespace, kind, name) of runs this one waits for


def run_document(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The spec document the operator validates, from a run as the API server returns it (the metadata the models
    read; uid, resourceVersion, managedFields... left out)."""
    meta = body.get("metadata") or {}
    return {"apiVersion": body.get("apiVersion"), "kind": kind,
            "metadata": {k: meta.get(k) for k in ("name", "namespace", "labels", "annotations", "generation", "uid")
                         if meta.get(k) is not None},
            "spec": body.get("spec") or {}}


def _owned(obj: dict[str, Any], uid: str) -> bool:
    return any(r.get("uid") == uid and r.get("controller") for r in obj["metadata"].get("ownerReferences") or [])


def _adopt(obj: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    kopf.adopt(obj, owner=body, strict=True)  # controller ownerReference with blockOwnerDeletion, namespace
    return obj


class Reconciler:
    def __init__(self, kube: Kube, cfg: OperatorConfig):
        self.kube = kube
        self.cfg = cfg
        self.events = EventRecorder(kube)
        # run uid -> spec text known to be in its ConfigMap (saves two API calls per reconcile; lost on restart,
        # when the ConfigMap is simply checked again).
        self._confirmed_specs: dict[str, str] = {}

    # ------------------------------------------------------------------------------------------------ entry
    def reconcile(self, kind: str, ns: str, name: str, now: dt.datetime | None = None) -> Outcome:
        t0 = time.perf_counter()
        try:
            out = self._reconcile(kind, ns, name, now or now_utc())
            metrics.RECONCILE_TOTAL.labels(kind=kind, result="ok").inc()
            return out
        except Exception:
            metrics.RECONCILE_TOTAL.labels(kind=kind, result="error").inc()
            raise
        finally:
            metrics.RECONCILE_DURATION.labels(kind=kind).observe(time.perf_counter() - t0)

    def _reconcile(self, kind: str, ns: str, name: str, now: dt.datetime) -> Outcome:
        body = self.kube.get_run(kind, ns, name)
        if body is None:
            metrics.STORE.remove(kind, ns, name)
            return Outcome("gone")
        meta = body["metadata"]
        if meta.get("deletionTimestamp"):
            return Outcome("deleting")
        uid, gen = meta["uid"], meta.get("generation")
        old = body.get("status") or {}
        st = _Status(old, gen, now)

        # Terminal runs: only TTL and making sure nothing is left running.
        if is_terminal(st.conditions):
            jobs = self._children(ns, name, uid)
            self._delete_active(ns, jobs)
            return self._finish_terminal(kind, body, st, now)

        try:
            run = load_spec(run_document(kind, body))
            problems = run.cluster_problems()
        except SpecError as e:
            problems = e.errors
        if problems:
            st.fail("InvalidSpec", "; ".join(problems)[:4000])
            self._write_status(kind, body, st, old)
            return Outcome("invalid-spec")

        spec = run.spec
        if not st.outputs:
            st.outputs = {"uri": run.output_uri()}
        jobs = self._children(ns, name, uid)
        if not jobs:
            # Before the first Job: a missing Secret would leave every pod stuck in CreateContainerConfigError (or,
            # for an optional one, write nowhere), so the run fails now, naming the field and the Secret.
            missing = self._missing_secrets(ns, run)
            if missing:
                st.fail("SecretNotFound", "; ".join(missing))
                self._write_status(kind, body, st, old)
                return Outcome("secret-not-found")

        if spec.shutdown == "Terminate":
            self._delete_active(ns, jobs)
            st.stages = self._stage_statuses(run, jobs)
            st.fail("Terminated", "spec.shutdown is Terminate: active children deleted")
            self._write_status(kind, body, st, old)
            return self._finish_terminal(kind, body, st, now, wrote=True)

        overrides, outcome_wait, blocked = self._resolve_references(run, ns, name, jobs, st)
        if blocked is not None:
            self._write_status(kind, body, st, old)
            return blocked

        self._ensure_spec_configmap(kind, body, run, overrides)
        plans = plan_stages(run)

        if spec.suspend:
            for j in jobs:
                if job_state(j)[0] == "Active" and not (j["spec"].get("suspend")):
                    self.kube.patch_job(ns, j["metadata"]["name"], {"spec": {"suspend": True}})
            st.set("Suspended", True, "Suspended", "spec.suspend is true: active pods removed")
            st.clear_pending()
            st.set("Running", False, "Suspended", "")
            st.start_time = None  # Job semantics: the deadline clock stops and restarts on resume
            st.stages = self._stage_statuses(run, jobs)
            st.base_conditions()
            self._write_status(kind, body, st, old)
            return Outcome("suspended", waiting_on=outcome_wait)
        if is_true(st.conditions, "Suspended"):
            st.set("Suspended", False, "Resumed", "")
        for j in jobs:
            if j["spec"].get("suspend") and job_state(j)[0] == "Active":
                self.kube.patch_job(ns, j["metadata"]["name"], {"spec": {"suspend": False}})

        # Whole-run deadline; each new child Job gets the remaining budget.
        remaining: float | None = None
        if spec.active_deadline_seconds is not None:
            # The clock starts with the first child (startTime) and restarts on resume.
            remaining = spec.active_deadline_seconds - (now - (st.start_time or now)).total_seconds()
            if remaining <= 0:
                self._delete_active(ns, jobs)
                st.stages = self._stage_statuses(run, jobs)
                st.fail("DeadlineExceeded", f"run exceeded activeDeadlineSeconds={spec.active_deadline_seconds}")
                self._write_status(kind, body, st, old)
                return self._finish_terminal(kind, body, st, now, wrote=True)

        action = self._walk_stages(kind, body, run, plans, jobs, st, remaining, now)
        self._write_status(kind, body, st, old)
        if is_terminal(st.conditions):
            return self._finish_terminal(kind, body, st, now, wrote=True)
        requeue = None
        if remaining is not None:
            requeue = max(1.0, remaining)
        return Outcome(action, requeue_after=requeue, waiting_on=outcome_wait)

    # ------------------------------------------------------------------------------------------------ stages
    def _walk_stages(self, kind, body, run, plans, jobs, st: "_Status", remaining, now) -> str:
        ns = body["metadata"]["namespace"]
        by_stage: dict[str, dict[int, dict[str, Any]]] = {}
        for j in jobs:
            labels = j["metadata"].get("labels") or {}
            try:
                by_stage.setdefault(labels[LABEL_STAGE], {})[int(labels[LABEL_ATTEMPT])] = j
            except (KeyError, ValueError):
                continue
        restarts = sum(max(a) for a in by_stage.values() if a)
        st.restarts = restarts
        st.stages = self._stage_statuses(run, jobs)
        n = len(plans)
        for i, plan in enumerate(plans):
            attempts = by_stage.get(plan.name, {})
            if not attempts:
                created = self._create_stage(body, run, plan, 0, remaining)
                if i == 0 and st.start_time is None:  # not when a never-started first Job is recreated
                    metrics.RUNS_STARTED.labels(kind=kind).inc()
                st.current_stage = plan.name
                st.start_running(f"stage {plan.name} ({i + 1}/{n}) started")
                st.progress(i / n * 100, f"{plan.name}: starting", now)
                if created is not None:
                    st.upsert_stage(stage_status(plan.name, created))
                return "created"
            attempt = max(attempts)
            job = attempts[attempt]
            state, reason, message = job_state(job, plan.allowed_failed_indexes)
            if state == "Complete":
                self._observe_stage(kind, plan.name, job, "succeeded", st)
                continue
            st.current_stage = plan.name
            if state == "Active":
                if job["metadata"].get("deletionTimestamp"):
                    return "replacing"  # its deletion event brings the next reconcile, which creates it anew
                done = (job.get("status") or {}).get("succeeded", 0) or 0
                pending, why, detail, started = self._pending(ns, job)
                if pending and not started and self._placement_changed(body, run, plan, attempt, job):
                    self._replace_unstarted(body, plan, job)
                    return "replacing"
                note = f"; {pending} pod(s) pending: {why}" if pending else ""
                st.start_running(f"stage {plan.name} ({i + 1}/{n}): {done}/{plan.completions} done{note}")
                st.progress((i + done / max(plan.completions, 1)) / n * 100,
                            f"{plan.name} {done}/{plan.completions}" + (f", {pending} pending: {why}" if pending
                                                                       else ""), now)
                if pending:
                    st.pending_job = job
                    st.set("PodsPending", True, why, f"{pending} pod(s) of stage {plan.name} (Job "
                                                     f"{job['metadata']['name']}) cannot start: {detail}"[:4000])
                else:
                    st.clear_pending()
                return "running"
            # Failed attempt.
            self._observe_stage(kind, plan.name, job, "failed", st)
            jname = job["metadata"]["name"]
            if reason == "PodFailurePolicy":
                st.fail("PodFailurePolicy", f"stage {plan.name} ({jname}): {message}")
                return "failed"
            if reason == "DeadlineExceeded":
                st.fail("DeadlineExceeded", f"stage {plan.name} ({jname}) hit its share of activeDeadlineSeconds")
                return "failed"
            if restarts < run.spec.backoff_limit:
                created = self._create_stage(body, run, plan, attempt + 1, remaining)
                metrics.RUN_RESTARTS.labels(kind=kind, reason=reason or "Failed").inc()
                st.restarts = restarts + 1
                st.start_running(f"stage {plan.name} retried as attempt {attempt + 1} after {reason}: {message}")
                if created is not None:
                    st.upsert_stage(stage_status(plan.name, created))
                return "restarted"
            st.fail("BackoffLimitExceeded",
                    f"stage {plan.name} failed {attempt + 1} time(s), backoffLimit={run.spec.backoff_limit}; "
                    f"last: {jname}: {reason}: {message}")
            return "failed"
        # Every stage completed.
        st.current_stage = None
        st.progress(100.0, "done", now)
        self._collect_report(kind, ns, plans[-1], by_stage, st)
        missing = _missing_results(kind, st.extra)
        if missing:
            last = by_stage[plans[-1].name]
            st.fail("NoResults", f"stage {plans[-1].name} ({last[max(last)]['metadata']['name']}) completed but "
                                 f"{missing}; its log says why")
            return "no-results"
        st.clear_pending()
        st.set("Running", False, "Completed", "all stages completed")
        st.set("Complete", True, "Succeeded", f"{n} stage(s) completed")
        st.completion_time = now
        if st.outputs and st.outputs.get("uri") and not st.outputs.get("manifestURI"):
            st.outputs = {**st.outputs, "manifestURI": st.outputs["uri"].rstrip("/") + "/manifest.json"}
        return "complete"

    def _pending(self, ns: str, job: dict[str, Any]) -> tuple[int, str, str, bool]:
        """Pods of an active Job that cannot start (pending_summary); the pods are listed only when the Job counts
        some that are not ready, so a healthy running stage costs no extra API call."""
        js = job.get("status") or {}
        if job["spec"].get("suspend"):
            return 0, "", "", True
        if not (js.get("active") or js.get("succeeded") or js.get("failed") or js.get("terminating")):
            # No pod at all: the Job controller may be unable to create them; it says so only in Events.
            refusals = self.kube.failed_creates(ns, job["metadata"]["uid"])
            if refusals:
                last = max(refusals, key=lambda e: e.get("lastTimestamp") or e["metadata"]["creationTimestamp"])
                return job["spec"].get("parallelism") or 1, "FailedCreate", last.get("message", ""), False
            return 0, "", "", False
        if (js.get("active") or 0) <= (js.get("ready") or 0):
            return 0, "", "", True
        return pending_summary(self.kube.job_pods(ns, job["metadata"]["name"]))

    def _placement_changed(self, body, run, plan, attempt: int, job: dict[str, Any]) -> bool:
        """Whether the operator's configuration now places this stage's pods differently (tolerations, node
        selector, image...): a Job's pod template is immutable, so a changed configuration reaches a Job whose pods
        never started only by recreating it."""
        desired = build_job(run, body["metadata"], plan, attempt, self.cfg)
        return placement(desired) != placement(job)

    def _replace_unstarted(self, body, plan, job: dict[str, Any]) -> None:
        ns, jname = body["metadata"]["namespace"], job["metadata"]["name"]
        self.kube.delete_job(ns, jname)
        self.events.post(body, Event("Normal", "StageRecreated", f"stage {plan.name}: Job {jname} had no pod "
                                     "started and the operator's pod placement (tolerations, node selector, image) "
                                     "changed; recreating it"))

    def _create_stage(self, body, run, plan, attempt: int, remaining) -> dict[str, Any] | None:
        ns, uid = body["metadata"]["namespace"], body["metadata"]["uid"]
        if plan.nodes > 1:
            svc = self.kube.create(ns, _adopt(headless_service(run, plan, attempt), body))
            if svc is not None and not _owned(svc, uid):
                raise kopf.TemporaryError(f"Service {svc['metadata']['name']} belongs to another object", delay=5)
        job = _adopt(build_job(run, body["metadata"], plan, attempt, self.cfg, active_deadline_seconds=remaining), body)
        created = self.kube.create(ns, job)
        if created is not None and not _owned(created, uid):
            # A leftover from a deleted run of the same name that garbage collection has not removed yet.
            raise kopf.TemporaryError(f"Job {job['metadata']['name']} belongs to another object", delay=2)
        return created

    def _stage_statuses(self, run, jobs) -> list[dict[str, Any]]:
        latest: dict[str, tuple[int, dict[str, Any]]] = {}
        for j in jobs:
            labels = j["metadata"].get("labels") or {}
            try:
                stage, attempt = labels[LABEL_STAGE], int(labels[LABEL_ATTEMPT])
            except (KeyError, ValueError):
                continue
            if stage not in latest or attempt > latest[stage][0]:
                latest[stage] = (attempt, j)
        order = [p.name for p in plan_stages(run)]
        return [stage_status(s, latest[s][1]) for s in order if s in latest]

    def _observe_stage(self, kind, stage, job, result, st: "_Status") -> None:
        """Stage duration, observed once: when the stage's finish first shows up in the run's status."""
        jname = job["metadata"]["name"]
        if jname in st.old_finished_jobs:
            return
        js = job.get("status") or {}
        start = parse_time(js.get("startTime"))
        end = parse_time(js.get("completionTime"))
        if end is None:
            c = next((c for c in js.get("conditions") or [] if c.get("type") in ("Failed", "FailureTarget")), None)
            end = parse_time(c.get("lastTransitionTime")) if c else None
        if start and end:
            metrics.STAGE_DURATION.labels(kind=kind, stage=stage, result=result).observe(
                max(0.0, (end - start).total_seconds()))

    def _collect_report(self, kind, ns, last_plan, by_stage, st: "_Status") -> None:
        """The report the final stage wrote as its termination message (kernelgen.specs.report), into status."""
        attempts = by_stage.get(last_plan.name) or {}
        if not attempts:
            return
        job = attempts[max(attempts)]
        for pod in self.kube.job_pods(ns, job["metadata"]["name"]):
            if (pod.get("status") or {}).get("phase") != "Succeeded":
                continue
            for cs in pod["status"].get("containerStatuses") or []:
                msg = ((cs.get("state") or {}).get("terminated") or {}).get("message") or ""
                data = parse_report(kind, msg)
                if data is not None:
                    st.outputs = {**(st.outputs or {}), **data.pop("outputs", {})}
                    st.extra.update(data)
                    return

    # ------------------------------------------------------------------------------------------------ helpers
    def _children(self, ns: str, name: str, uid: str) -> list[dict[str, Any]]:
        return [j for j in self.kube.list_jobs(ns, name, LABEL_RUN) if _owned(j, uid)]

    def _delete_active(self, ns: str, jobs: list[dict[str, Any]]) -> None:
        for j in jobs:
            if job_state(j)[0] == "Active" and not j["metadata"].get("deletionTimestamp"):
                self.kube.delete_job(ns, j["metadata"]["name"])

    def _missing_secrets(self, ns: str, run: Any) -> list[str]:
        out = []
        for ref in secret_refs(run):
            keys = self.kube.secret_keys(ns, ref.name)
            if keys is None:
                out.append(f"{ref.field}: Secret {ref.name!r} not found in namespace {ns} (it needs the keys "
                           f"{', '.join(ref.keys)}; create it, then re-create the run)")
            elif not set(ref.keys) <= keys:
                out.append(f"{ref.field}: Secret {ref.name!r} lacks the key(s) "
                           f"{', '.join(k for k in ref.keys if k not in keys)}")
        return out

    def _resolve_references(self, run, ns: str, name: str, jobs, st: "_Status"
                            ) -> tuple[dict[str, Any], tuple[tuple[str, str, str], ...], Outcome | None]:
        """(spec overrides, runs waited for, outcome when the run cannot start) for the run's references to other
        runs (kernelgen.specs.refs). Resolved once: a started run keeps what its spec ConfigMap already holds, so a
        referenced run deleted or replaced later changes nothing."""
        refs = references(run)
        if not refs:
            return {}, (), None
        if jobs:
            kept = self._resolved_before(ns, name, refs)
            if kept is not None:
                return kept, (), None
        waits = tuple((ns, ref.target_kind, dep) for ref, dep in refs)
        changes: dict[str, Any] = {}
        waiting, ready = [], []
        for ref, dep in refs:
            state, value, why = self._dependency(ns, ref, dep)
            if state == "failed":
                st.fail("DependencyFailed", f"{ref.path}: {why}")
                return {}, (), Outcome("dependency-failed")
            if state == "waiting":
                waiting.append(f"{ref.path}: {why}")
            else:
                changes.update(overrides(ref, value))
                ready.append(f"{ref.path} {dep}: {value}")
        if waiting:
            why = "; ".join(waiting)
            st.set("Waiting", True, "DependencyNotReady", why)
            st.set("Running", False, "Waiting", why)
            st.base_conditions()
            return {}, waits, Outcome("waiting", requeue_after=self.cfg.timer_interval, waiting_on=waits)
        st.set("Waiting", False, "DependencyReady", "; ".join(ready))
        return changes, waits, None

    def _resolved_before(self, ns: str, name: str, refs: list[tuple[Reference, str]]) -> dict[str, Any] | None:
        """The overrides a started run was given, read back from its spec ConfigMap (None when unreadable)."""
        import yaml

        cm = self.kube.get_configmap(ns, spec_configmap_name(name))
        try:
            doc = yaml.safe_load(((cm or {}).get("data") or {}).get("spec.yaml") or "")
        except yaml.YAMLError:
            return None
        changes: dict[str, Any] = {}
        for ref, _ in refs:
            node: Any = (doc or {}).get("spec")
            for key in ref.replaces.split("."):
                node = node.get(key) if isinstance(node, dict) else None
            if not isinstance(node, str):
                return None
            changes.update(overrides(ref, node))
        return changes

    def _dependency(self, ns: str, ref: Reference, dep: str) -> tuple[str, str, str]:
        """(state, value, explanation) of a referenced run: state ready (value set), waiting or failed."""
        what = f"{ref.target_kind} {dep}"
        obj = self.kube.get_run(ref.target_kind, ns, dep)
        if obj is None:
            return "waiting", "", f"{what} does not exist yet"
        status = obj.get("status") or {}
        conds = status.get("conditions") or []
        if is_true(conds, "Failed"):
            c = get_condition(conds, "Failed") or {}
            return "failed", "", f"{what} failed: {c.get('reason', '')}"
        if not is_true(conds, "Complete"):
            return "waiting", "", f"waiting for {what} to complete"
        value = status_value(ref, status)
        if value is None:
            return "failed", "", f"{what} completed without status.{'.'.join(ref.status_field)}"
        return "ready", value, ""

    def _ensure_spec_configmap(self, kind, body, run, overrides) -> None:
        ns, name, uid = body["metadata"]["namespace"], body["metadata"]["name"], body["metadata"]["uid"]
        text = resolved_spec_yaml(run, overrides)
        if self._confirmed_specs.get(uid) == text:
            return  # this process already saw the ConfigMap with exactly this content
        cm = self.kube.get_configmap(ns, spec_configmap_name(name))
        if cm is None:
            cm = self.kube.create(ns, _adopt(spec_configmap(kind, name, text), body))
        if cm is None:
            raise kopf.TemporaryError("spec ConfigMap vanished; retrying", delay=1)
        if not _owned(cm, uid):
            raise kopf.TemporaryError(f"ConfigMap {spec_configmap_name(name)} belongs to another object", delay=2)
        if (cm.get("data") or {}).get("spec.yaml") != text:
            self.kube.patch_configmap(ns, spec_configmap_name(name), {"spec.yaml": text})
        self._confirmed_specs[uid] = text

    def _finish_terminal(self, kind, body, st: "_Status", now, wrote: bool = False) -> Outcome:
        self._confirmed_specs.pop(body["metadata"]["uid"], None)
        self.events.forget(body["metadata"]["uid"])
        ttl = (body.get("spec") or {}).get("ttlSecondsAfterFinished")
        if ttl is None or st.completion_time is None:
            return Outcome("finished")
        due = st.completion_time + dt.timedelta(seconds=int(ttl))
        if now >= due:
            m = body["metadata"]
            self.kube.delete_run(kind, m["namespace"], m["name"], m["uid"])
            metrics.STORE.remove(kind, m["namespace"], m["name"])
            return Outcome("ttl-deleted")
        return Outcome("finished", requeue_after=(due - now).total_seconds())

    def _write_status(self, kind: str, body: dict[str, Any], st: "_Status", old: dict[str, Any]) -> None:
        new = st.render()
        m = body["metadata"]
        if not st.old_terminal and is_terminal(st.conditions):
            result = "succeeded" if is_true(st.conditions, "Complete") else (
                "terminated" if (get_condition(st.conditions, "Failed") or {}).get("reason") == "Terminated"
                else "failed")
            metrics.RUNS_FINISHED.labels(kind=kind, result=result).inc()
            started = parse_time(old.get("startTime")) or st.start_time
            if started and st.completion_time:
                metrics.RUN_DURATION.labels(kind=kind, result=result).observe(
                    max(0.0, (st.completion_time - started).total_seconds()))
        if _comparable(new) != _comparable(old):
            # Merge patch: null deletes a key; lists (conditions, stages) are replaced whole.
            patch = {k: new.get(k) for k in set(new) | set(old)}
            self.kube.patch_run_status(kind, m["namespace"], m["name"], patch)
            for event in transitions(old, new):  # after the write: an Event never tells of a state not stored
                self.events.post({**body, "kind": kind}, event)
                if event.reason == "PodsPending" and st.pending_job is not None:   # `kubectl describe job` too
                    self.events.post({**st.pending_job, "apiVersion": "batch/v1", "kind": "Job"}, event)
        metrics.STORE.put(metrics.state_from_body(kind, {**body, "status": new}))


def _missing_results(kind: str, reported: dict[str, Any]) -> str | None:
    """Why a completed BenchRun is not a success: its report stage must hand over results for at least one task."""
    if kind != "BenchRun":
        return None
    results = reported.get("results")
    if not isinstance(results, dict) or not results:
        return "wrote no results to its termination message"
    if not results.get("tasks"):
        return "its results cover no task (no evaluation records were found)"
    return None


def _comparable(status: dict[str, Any]) -> dict[str, Any]:
    s = {k: v for k, v in status.items() if v is not None}
    prog = dict(s.get("progress") or {})
    prog.pop("lastUpdateTime", None)
    if prog:
        s["progress"] = prog
    return json.loads(json.dumps(s, sort_keys=True, default=str))


class _Status:
    """The status being computed, starting from the stored one."""

    def __init__(self, old: dict[str, Any], generation: int | None, now: dt.datetime):
        self.old = old
        self.generation = generation
        self.now = now
        self.conditions: list[dict[str, Any]] = [dict(c) for c in old.get("conditions") or []]
        self.old_terminal = is_terminal(self.conditions)
        self.start_time = parse_time(old.get("startTime"))
        self.completion_time = parse_time(old.get("completionTime"))
        self.restarts = int(old.get("restarts") or 0)
        self.current_stage = old.get("currentStage")
        self.stages: list[dict[str, Any]] = list(old.get("stages") or [])
        self._progress: dict[str, Any] | None = old.get("progress")
        self.outputs: dict[str, Any] | None = old.get("outputs")
        self.extra: dict[str, Any] = {}
        self.pending_job: dict[str, Any] | None = None   # the Job whose pods cannot start (its Events tell it too)
        self.old_finished_jobs = {s.get("jobName") for s in self.stages if s.get("completionTime")}

    def set(self, ctype: str, value: bool, reason: str, message: str) -> None:
        self.conditions = set_condition(self.conditions, ctype, value, reason, message, self.generation, self.now)

    def base_conditions(self) -> None:
        """Every run carries the four main condition types, False until they apply."""
        for ctype, reason in (("Suspended", "NotSuspended"), ("Running", "NotStarted"), ("Complete", "NotComplete"),
                              ("Failed", "NotFailed")):
            if get_condition(self.conditions, ctype) is None:
                self.set(ctype, False, reason, "")

    def start_running(self, message: str) -> None:
        if self.start_time is None:
            self.start_time = self.now
        self.set("Running", True, "StageRunning", message)

    def clear_pending(self) -> None:
        if is_true(self.conditions, "PodsPending"):
            self.set("PodsPending", False, "PodsStarted", "")

    def fail(self, reason: str, message: str) -> None:
        self.clear_pending()
        self.set("Running", False, reason, "")
        self.set("Failed", True, reason, message)
        if self.completion_time is None:
            self.completion_time = self.now

    def progress(self, percent: float, summary: str, now: dt.datetime) -> None:
        old = self._progress or {}
        pct = round(max(0.0, min(100.0, percent)), 1)
        if old.get("summary") == summary and old.get("percent") == pct:
            return
        self._progress = {**old, "percent": pct, "summary": summary, "lastUpdateTime": fmt_time(now)}

    def upsert_stage(self, s: dict[str, Any]) -> None:
        self.stages = [x for x in self.stages if x["name"] != s["name"]] + [s]

    def render(self) -> dict[str, Any]:
        self.base_conditions()
        out: dict[str, Any] = {
            "observedGeneration": self.generation,
            "conditions": self.conditions,
            "phase": derive_phase(self.conditions),
            "startTime": fmt_time(self.start_time),
            "completionTime": fmt_time(self.completion_time),
            "restarts": self.restarts,
            "currentStage": self.current_stage,
            "stages": self.stages,
            "progress": self._progress,
            "outputs": self.outputs,
        }
        for k, v in self.extra.items():
            out[k] = v
        return out
