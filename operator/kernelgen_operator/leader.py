"""Leader election on a coordination.k8s.io/v1 Lease, so the operator can run as several replicas with one active.

The algorithm is client-go's: a candidate takes the Lease when it is free, or when its record (holder, renewTime)
has not changed for leaseDurationSeconds *as measured on the candidate's own clock* (no comparison of timestamps
between machines); the leader renews it every retry period and gives up, stopping the operator, when it could not
renew for renew_deadline. Updates carry the resourceVersion they read, so two candidates never both win.

While waiting, a standby answers the liveness endpoint itself (the chart's probes would otherwise restart it) and
hands the port to kopf when it becomes the leader.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from kubernetes import client
from kubernetes import config as kube_config
from kubernetes.client.rest import ApiException

log = logging.getLogger("kernelgen_operator")


@dataclass(frozen=True)
class ElectionConfig:
    namespace: str
    name: str = "kernelgen-operator"
    identity: str = ""
    lease_duration: float = 15.0
    renew_deadline: float = 10.0
    retry_period: float = 2.0


def default_identity() -> str:
    return os.environ.get("POD_NAME") or f"{socket.gethostname()}_{uuid.uuid4().hex[:8]}"


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class LeaseLock:
    """One candidate's view of the Lease (synchronous API calls; run them in a thread)."""

    def __init__(self, api: client.CoordinationV1Api, cfg: ElectionConfig):
        self.api, self.cfg = api, cfg
        self._observed: tuple[Any, Any] | None = None   # (holder, renewTime) last seen
        self._observed_at = 0.0                         # monotonic time it was first seen

    def _spec(self, acquire_time: str | None, transitions: int) -> dict[str, Any]:
        return {"holderIdentity": self.cfg.identity, "leaseDurationSeconds": int(round(self.cfg.lease_duration)),
                "acquireTime": acquire_time or _now(), "renewTime": _now(), "leaseTransitions": transitions}

    def try_acquire_or_renew(self) -> bool:
        """True when this candidate holds the Lease after the call."""
        c = self.cfg
        try:
            lease = self.api.read_namespaced_lease(c.name, c.namespace, _preload_content=False)
        except ApiException as e:
            if e.status != 404:
                raise
            try:
                self.api.create_namespaced_lease(c.namespace, {"metadata": {"name": c.name},
                                                               "spec": self._spec(None, 0)})
                return True
            except ApiException as e2:
                if e2.status == 409:
                    return False
                raise
        import json

        obj = json.loads(lease.data)
        spec = obj.get("spec") or {}
        holder = spec.get("holderIdentity")
        record = (holder, spec.get("renewTime"))
        now = time.monotonic()
        if record != self._observed:
            self._observed, self._observed_at = record, now
        mine = holder == c.identity
        expired = now - self._observed_at >= float(spec.get("leaseDurationSeconds") or c.lease_duration)
        if holder and not mine and not expired:
            return False
        transitions = int(spec.get("leaseTransitions") or 0) + (0 if mine else 1)
        body = {"metadata": {"name": c.name, "resourceVersion": obj["metadata"]["resourceVersion"]},
                "spec": self._spec(spec.get("acquireTime") if mine else None, transitions)}
        try:
            self.api.replace_namespaced_lease(c.name, c.namespace, body)
        except ApiException as e:
            if e.status == 409:  # someone else wrote first
                return False
            raise
        self._observed, self._observed_at = (c.identity, body["spec"]["renewTime"]), time.monotonic()
        return True


async def _standby_health(endpoint: str | None) -> Callable[[], Awaitable[None]]:
    """Answer the liveness endpoint while waiting; returns the coroutine function that frees the port."""
    if not endpoint:
        async def nothing() -> None:
            return None
        return nothing
    from aiohttp import web

    url = urlparse(endpoint)
    async def standby(_: web.Request) -> web.Response:
        return web.json_response({"leader": False})

    app = web.Application()
    app.router.add_get(url.path or "/", standby)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, url.hostname, url.port, reuse_address=True).start()
    return runner.cleanup


async def run_elected(cfg: ElectionConfig, operator: Callable[[asyncio.Event], Awaitable[None]],
                      liveness_endpoint: str | None = None) -> int:
    """Wait for the Lease, then run `operator(stop_flag)` while renewing it; the process exits (1) when it loses it."""
    try:
        kube_config.load_incluster_config()
    except kube_config.ConfigException:
        kube_config.load_kube_config()
    lock = LeaseLock(client.CoordinationV1Api(), cfg)
    free_port = await _standby_health(liveness_endpoint)
    log.warning("leader election: %s waits for Lease %s/%s", cfg.identity, cfg.namespace, cfg.name)
    while True:
        try:
            if await asyncio.to_thread(lock.try_acquire_or_renew):
                break
        except ApiException as e:
            log.warning("leader election: %s %s", e.status, e.reason)
        await asyncio.sleep(cfg.retry_period)
    await free_port()
    log.warning("leader election: %s is the leader", cfg.identity)

    stop = asyncio.Event()

    async def renew() -> None:
        last_ok = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(cfg.retry_period)
            try:
                if await asyncio.to_thread(lock.try_acquire_or_renew):
                    last_ok = time.monotonic()
                    continue
                log.error("leader election: the Lease was taken over")
            except Exception as e:  # noqa: BLE001 - any failure counts against the renew deadline
                log.warning("leader election: renew failed: %s", e)
                if time.monotonic() - last_ok < cfg.renew_deadline:
                    continue
            # As client-go does: exit at once, so a replaced leader never writes next to its successor; the
            # Deployment restarts the process as a candidate.
            log.error("leader election: %s lost the Lease; exiting", cfg.identity)
            logging.shutdown()
            os._exit(1)

    renewer = asyncio.get_running_loop().create_task(renew())
    try:
        await operator(stop)
    finally:
        stop.set()
        renewer.cancel()
    return 0
