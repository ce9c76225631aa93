"""Runs a BenchRun with the test-only stand-in backend double (used by test_resume in a killable subprocess)."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import PyStandInBackend  # noqa: E402

from kernelgen.bench.run import run  # noqa: E402
from kernelgen.specs import load_spec  # noqa: E402

if __name__ == "__main__":
    spec = load_spec(json.loads(Path(sys.argv[1]).read_text()))
    sys.exit(run(spec, backend=PyStandInBackend()).exit_code)
