"""The metrics docs list exactly the metrics the operator exports (they lagged behind the code once)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _exported() -> set[str]:
    src = (REPO / "operator" / "kernelgen_operator" / "metrics.py").read_text()
    # every metric family is created with its full name as the first string argument
    return set(re.findall(r'(?:Counter|Histogram|GaugeMetricFamily)\(\s*"(kernelgen_[a-z0-9_]+)"', src))


def test_docs_list_every_exported_metric_and_no_other():
    exported = _exported()
    assert len(exported) >= 20, exported  # the pattern still finds them
    table = set(re.findall(r"^\| `(kernelgen_[a-z0-9_]+)` \|", (REPO / "docs" / "metrics.md").read_text(), re.M))
    assert table == exported, {"undocumented": exported - table, "not exported": table - exported}
    readme = (REPO / "operator" / "kernelgen_operator" / "README.md").read_text()
    assert {m for m in exported if f"`{m}`" not in readme} == set()
