"""`python -m kernelgen_operator [--namespace NS ...]`: run the operator (standalone, no peering)."""

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
    args = ap.parse_args(argv)
    kopf.configure(verbose=args.verbose, log_prefix=False)
    if not args.verbose:
        # One INFO line per handler call is noise at scale; failures are still logged (WARNING and up).
        import logging

        logging.getLogger("kopf.objects").setLevel(logging.WARNING)
    import kernelgen_operator.handlers  # noqa: F401 - registers the handlers

    asyncio.run(kopf.operator(
        standalone=True,
        clusterwide=not args.namespace,
        # A collection even when empty: kopf iterates it (None crashed the namespace observer when cluster-wide).
        namespaces=tuple(args.namespace),
        liveness_endpoint=args.liveness or None,
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
