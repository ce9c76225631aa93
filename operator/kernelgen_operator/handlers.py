"""kopf wiring: every trigger ends in the same idempotent `Reconciler.reconcile` of one run.

Triggers: create / resume / update (spec) of a run; watch events of child Jobs (labelled kernelgen.ai/run); events
of a run others reference (to wake the runs that wait for it); and an operator-wide resync loop that re-reconciles
unfinished runs every `timer_interval` seconds and finished ones when their TTL is due. The resync loop replaces
`kopf.timer` on purpose: kopf puts a finalizer on every object that has a timer or daemon, and this operator uses
none (garbage collection removes children; a run can always be deleted, even with the operator down).

Reconciles run on a thread pool (the Kubernetes client is synchronous) under a per-run lock, so two triggers for
the same run never interleave their writes.

Run with `python -m kernelgen_operator` (or `kopf run -m kernelgen_operator.handlers --standalone -A`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

import kopf
from kubernetes import client as kube_client
from kubernetes import config as kube_config
from kubernetes.client.rest import ApiException

from kernelgen_operator import metrics
from kernelgen_operator.children import LABEL_RUN
from kernelgen_operator.config import load_config
from kernelgen_operator.kube import GROUP, PLURALS, VERSION, Kube
from kernelgen_operator.reconcile import Reconciler

log = logging.getLogger("kernelgen_operator")
CONFIG = load_config()
KIND_OF_PLURAL = {v: k for k, v in PLURALS.items()}
JOB_EVENT_DEBOUNCE = 0.2  # seconds


class _Runtime:
    """Process-wide state: the API client, the thread pool, per-run locks, resync bookkeeping."""

    def __init__(self) -> None:
        self.reconciler: Reconciler | None = None
        self.pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._locks: dict[tuple[str, str, str], threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.due: dict[tuple[str, str, str], float] = {}   # run -> monotonic time of its next reconcile
        # (ns, kind, name) of a referenced run -> (kind, name) of the runs in that namespace waiting for it
        self.waiters: dict[tuple[str, str, str], set[tuple[str, str]]] = {}
        self.resync_task: asyncio.Task | None = None
        self.running: set[tuple[str, str, str]] = set()  # touched only from the event loop
        self.dirty: set[tuple[str, str, str]] = set()
        self.last_done: dict[tuple[str, str, str], float] = {}   # run -> monotonic end of its last reconcile

    def lock(self, key: tuple[str, str, str]) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def forget(self, key: tuple[str, str, str]) -> None:
        with self._locks_guard:
            self._locks.pop(key, None)
        self.due.pop(key, None)
        self.last_done.pop(key, None)


RT = _Runtime()


def _reconcile_sync(kind: str, ns: str, name: str) -> None:
    assert RT.reconciler is not None
    key = (kind, ns, name)
    with RT.lock(key):
        out = RT.reconciler.reconcile(kind, ns, name)
    RT.last_done[key] = time.monotonic()
    if out.action in ("gone", "ttl-deleted"):
        RT.forget(key)
        return
    if out.requeue_after is not None:
        RT.due[key] = time.monotonic() + out.requeue_after
    for dep in out.waiting_on:
        RT.waiters.setdefault(dep, set()).add((kind, name))
    log.debug("reconciled %s %s/%s: %s", kind, ns, name, out.action)


async def reconcile(kind: str, ns: str, name: str) -> None:
    """Reconcile a run; triggers that arrive while it is already being reconciled coalesce into one more pass."""
    key = (kind, ns, name)
    if key in RT.running:
        RT.dirty.add(key)
        return
    RT.running.add(key)
    loop = asyncio.get_running_loop()
    try:
        while True:
            RT.dirty.discard(key)
            await loop.run_in_executor(RT.pool, _reconcile_sync, kind, ns, name)
            if key not in RT.dirty:
                break
    except ApiException as e:
        # Conflicts, throttling, a restarting apiserver: retry soon; the reconcile is idempotent.
        RT.due[key] = time.monotonic() + 2
        raise kopf.TemporaryError(f"API error {e.status}: {e.reason}", delay=2) from e
    finally:
        RT.running.discard(key)


# ------------------------------------------------------------------------------------------------------ startup

@kopf.on.login()
def _login(**kwargs: Any) -> Any:
    """In-cluster service account, else the kubeconfig that KUBECONFIG names now (kopf's default login goes through
    the client library, which read KUBECONFIG once, when it was first imported)."""
    info = kopf.login_with_service_account(**kwargs)
    if info is not None:
        return dataclasses.replace(info, server=in_cluster_server(os.environ) or info.server)
    return kopf.login_with_kubeconfig(**kwargs)


def in_cluster_server(env: Mapping[str, str]) -> str | None:
    """The API server as every in-cluster client finds it (client-go, the Python client): the service address the
    kubelet puts in each pod's environment. kopf's own login names kubernetes.default.svc instead, which needs cluster
    DNS: a hostNetwork pod (chart value operator.hostNetwork) resolves names with the node's resolver."""
    host, port = env.get("KUBERNETES_SERVICE_HOST"), env.get("KUBERNETES_SERVICE_PORT")
    if not host or not port:
        return None
    return f"https://[{host}]:{port}" if ":" in host else f"https://{host}:{port}"


@kopf.on.startup()
async def _startup(settings: kopf.OperatorSettings, **_: Any) -> None:
    # The configuration as the environment says when the operator starts, not when this module was first imported
    # (a process may import it earlier: a test, a tool).
    global CONFIG
    CONFIG = load_config()
    settings.persistence.progress_storage = kopf.AnnotationsProgressStorage(prefix=GROUP)
    settings.persistence.diffbase_storage = kopf.AnnotationsDiffBaseStorage(
        prefix=GROUP, key="last-handled-configuration")
    settings.posting.level = logging.WARNING
    settings.watching.server_timeout = int(os.environ.get("KERNELGEN_WATCH_TIMEOUT", "300"))
    settings.watching.client_timeout = settings.watching.server_timeout + 30
    settings.networking.request_timeout = 60
    settings.execution.max_workers = CONFIG.workers
    try:
        kube_config.load_incluster_config()
    except kube_config.ConfigException:
        # KUBECONFIG read now: the client library reads it once, when first imported (maybe before it was set)
        kube_config.load_kube_config(config_file=os.environ.get("KUBECONFIG") or None)
    api_cfg = kube_client.Configuration.get_default_copy()
    api_cfg.connection_pool_maxsize = CONFIG.workers + 4  # one connection per reconcile thread (default: 5 x cores)
    RT.reconciler = Reconciler(Kube(kube_client.ApiClient(api_cfg)), CONFIG)
    RT.pool = concurrent.futures.ThreadPoolExecutor(max_workers=CONFIG.workers, thread_name_prefix="reconcile")
    if CONFIG.metrics_port:
        metrics.serve(CONFIG.metrics_port)
    RT.resync_task = asyncio.get_running_loop().create_task(_resync_loop())


@kopf.on.cleanup()
async def _cleanup(**_: Any) -> None:
    if RT.resync_task is not None:
        RT.resync_task.cancel()
    if RT.pool is not None:
        RT.pool.shutdown(wait=False, cancel_futures=True)


async def _resync_loop() -> None:
    """Level-triggered safety net: unfinished runs every timer_interval, others when a requeue is due."""
    last_full = time.monotonic()
    limit = asyncio.Semaphore(resync_concurrency(CONFIG.workers))
    while True:
        await asyncio.sleep(0.2)
        now = time.monotonic()
        keys = {k for k, t in list(RT.due.items()) if t <= now}
        if now - last_full >= CONFIG.timer_interval:
            last_full = now
            keys |= stale_runs(metrics.STORE.snapshot(), RT.last_done, now, CONFIG.timer_interval)
        for key in keys:
            RT.due.pop(key, None)
        if keys:
            results = await asyncio.gather(*(_bounded(limit, k) for k in keys), return_exceptions=True)
            for key, r in zip(keys, results):
                if isinstance(r, BaseException):
                    log.warning("resync of %s %s/%s failed: %s", *key, r)
                    RT.due[key] = time.monotonic() + 5


def resync_concurrency(workers: int) -> int:
    """Reconciles the safety net may have in the pool at once: a quarter of it, so that a resync of many runs never
    queues ahead of the event-driven reconciles of new runs (the pool is first in, first out)."""
    return max(1, workers // 4)


def stale_runs(states: Any, last_done: dict[tuple[str, str, str], float], now: float,
               interval: float) -> set[tuple[str, str, str]]:
    """The runs the periodic resync must look at: unfinished (or with a TTL due) and not reconciled within the last
    interval. A run its own events keep reconciling needs no safety net; resyncing every unfinished run each
    interval made the safety net the operator's main load at 1000 runs."""
    return {(s.kind, s.namespace, s.name) for s in states
            if (not s.terminal or s.ttl_due is not None)
            and now - last_done.get((s.kind, s.namespace, s.name), float("-inf")) >= interval}


async def _bounded(limit: asyncio.Semaphore, key: tuple) -> None:
    # The reconcile coroutine is created under the semaphore: created up front, the ones still waiting when the
    # operator stops (the gather cancelled) would never be awaited.
    async with limit:
        await reconcile(*key)


# ------------------------------------------------------------------------------------------------------ runs

def _register(plural: str) -> None:
    kind = KIND_OF_PLURAL[plural]

    async def on_change(name: str, namespace: str, **_: Any) -> None:
        await reconcile(kind, namespace, name)

    async def on_event(event: dict[str, Any], body: Any, **_: Any) -> None:
        meta = body.get("metadata") or {}
        key = (kind, meta.get("namespace", ""), meta.get("name", ""))
        if event.get("type") == "DELETED":
            metrics.STORE.remove(*key)
            RT.forget(key)
            return
        metrics.STORE.put(metrics.state_from_body(kind, dict(body)))
        waiting = RT.waiters.get((key[1], kind, key[2]))
        conds = (body.get("status") or {}).get("conditions") or []
        if waiting and any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True" for c in conds):
            for wkind, wname in list(waiting):   # runs that reference this one (kernelgen.specs.refs)
                RT.due[(wkind, key[1], wname)] = 0.0
            RT.waiters.pop((key[1], kind, key[2]), None)

    kopf.on.create(GROUP, VERSION, plural, id="reconcile-create")(on_change)
    kopf.on.resume(GROUP, VERSION, plural, id="reconcile-resume")(on_change)
    kopf.on.update(GROUP, VERSION, plural, id="reconcile-update", field="spec")(on_change)
    kopf.on.event(GROUP, VERSION, plural, id="observe")(on_event)


for _plural in PLURALS.values():
    _register(_plural)


@kopf.on.event("batch", "v1", "jobs", labels={LABEL_RUN: kopf.PRESENT})
async def child_job_event(body: Any, **_: Any) -> None:
    meta = body.get("metadata") or {}
    for ref in meta.get("ownerReferences") or []:
        if ref.get("controller") and ref.get("apiVersion") == f"{GROUP}/{VERSION}" and ref.get("kind") in PLURALS:
            # Debounced: a Job emits a burst of events (pods active, ready, succeeded, conditions); the resync loop
            # folds a burst into one reconcile of the run a moment later instead of one per event.
            key = (ref["kind"], meta["namespace"], ref["name"])
            due = time.monotonic() + JOB_EVENT_DEBOUNCE
            RT.due[key] = min(RT.due.get(key, due), due)
