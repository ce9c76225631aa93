"""Throughput of durable JSONL appends (the BenchRun records path) on a local disk and on a local versitygw S3.

    python benchmarks/storage_append.py [--records 500]

Prints records/s for flush_every=1 (every record durable at once) and batched flushes. Needs hack/s3/build.sh.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from kernelgen.storage import LocalStore, S3Store
from kernelgen.storage.devserver import S3DevServer


def measure(store, n: int, flush_every: int) -> float:
    record = {"task": "t", "case": 0, "sample": 0, "verdict": "ok", "sha256": "0" * 64, "timings_ms": [1.0] * 10}
    t0 = time.perf_counter()
    with store.appender(f"records-{flush_every}.jsonl", flush_every=flush_every) as out:
        for i in range(n):
            out.append({**record, "sample": i})
    elapsed = time.perf_counter() - t0
    assert sum(1 for _ in store.iter_jsonl(f"records-{flush_every}.jsonl")) == n
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d, S3DevServer() as s3:
        stores = {
            "local": LocalStore(d),
            "s3 (versitygw, 127.0.0.1)": S3Store(f"s3://{s3.new_bucket()}/bench", s3.config()),
        }
        print(f"{'store':28} {'flush_every':>11} {'records/s':>10}")
        for name, store in stores.items():
            for flush_every in (1, 10, 100):
                print(f"{name:28} {flush_every:>11} {measure(store, args.records, flush_every):>10.0f}")


if __name__ == "__main__":
    main()
