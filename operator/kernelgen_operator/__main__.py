"""`python -m kernelgen_operator [--namespace NS ...] [--leader-elect]`: run the operator (kopf standalone, no
peering; with --leader-elect only the replica holding the Lease runs, see leader.py)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys


def main(argv: list[str] | None = None) -> int:
    import kopf

    ap = argparse.ArgumentParser(prog="kernelgen_operator")
    ap.add_argument("--namespace", "-n", action="append", default=[], help="watch only these namespaces")
    ap.add_argument("--liveness", default=os.environ.get("KERNELGEN_LIVENESS", ""),
                    help="liveness endpoint, e.g. http://0.0.0.0:8080/healthz")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--leader-elect", action="store_true",
                    help="run only while holding a Lease (several replicas, one active)")
    ap.add_argument("--leader-elect-namespace", default=os.environ.get("POD_NAMESPACE", ""),
                    help="namespace of the Lease (default: $POD_NAMESPACE)")
    ap.add_argument("--leader-elect-name", default="kernelgen-operator", help="name of the Lease")
    ap.add_argument("--lease-duration", type=float, default=15.0, help="seconds a silent leader keeps the Lease")
    ap.add_argument("--renew-deadline", type=float, default=10.0, help="seconds a leader may fail to renew")
    ap.add_argument("--retry-period", type=float, default=2.0, help="seconds between Lease attempts")
    args = ap.parse_args(argv)
    if args.leader_elect and not args.leader_elect_namespace:
        ap.error("--leader-elect needs --leader-elect-namespace or $POD_NAMESPACE")
    kopf.configure(verbose=args.verbose, log_prefix=False)
    if not args.verbose:
        # One INFO line per handler call is noise at scale; failures are still logged (WARNING and up).
        import logging

        logging.getLogger("kopf.objects").setLevel(logging.WARNING)
    import kernelgen_operator.handlers  # noqa: F401 - registers the handlers

    def operator(stop_flag: asyncio.Event | None = None):  # noqa: ANN202 - kopf's coroutine
        return kopf.operator(
            standalone=True,  # no kopf peering: a Lease (--leader-elect) decides which replica runs
            clusterwide=not args.namespace,
            # A collection even when empty: kopf iterates it (None crashed the namespace observer when cluster-wide).
            namespaces=tuple(args.namespace),
            liveness_endpoint=args.liveness or None,
            stop_flag=stop_flag,
        )

    if not args.leader_elect:
        asyncio.run(operator())
        return 0
    from kernelgen_operator.leader import ElectionConfig, default_identity, run_elected

    election = ElectionConfig(namespace=args.leader_elect_namespace, name=args.leader_elect_name,
                              identity=default_identity(), lease_duration=args.lease_duration,
                              renew_deadline=args.renew_deadline, retry_period=args.retry_period)
    return asyncio.run(run_elected(election, operator, args.liveness or None))


if __name__ == "__main__":
    sys.exit(main())
