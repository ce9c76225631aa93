"""The HTML report's per-task pages: a correct, a wrong and a non-compiling candidate, each shown with what a reader
needs (source, first compiler error, failing case parameters and largest differences); and the report as headless
Chromium renders it from disk (links resolve, no server). Kernels run through the stand-in backend double."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kernelgen.bench.run import run
from kernelgen.specs import load_spec

from .helpers import PyStandInBackend, make_task

CANDIDATES = {0: "// stand-in: args[0] + args[1]\n",
              1: "// stand-in: torch.where(args[0] > 1.5, args[0], args[0] + args[1])\n",
              2: "#error this kernel does not compile\n"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("pages")
    make_task(tmp / "suite", "Add", "add", csv="case_id;shape;dtype\n0;[64, 8];float32\n")
    lines = [json.dumps({"task_id": "level1/Math/Add", "sample": s, "files": {"op_kernel/add.cpp": src}})
             for s, src in CANDIDATES.items()]
    (tmp / "cands.jsonl").write_text("\n".join(lines) + "\n")
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "pages"},
                      "spec": {"suite": {"uri": str(tmp / "suite")},
                               "candidates": {"source": "jsonl", "uri": str(tmp / "cands.jsonl")},
                               "evaluation": {"workers": 1}, "metrics": {"k": [1], "bootstrapSamples": 0},
                               "output": {"uri": str(tmp / "out")}}})
    res = run(spec, backend=PyStandInBackend())
    assert res.exit_code == 0, res.messages
    return tmp / "out" / "pages"


def _task_page(run_dir: Path) -> Path:
    pages = list((run_dir / "tasks").glob("*.html"))
    assert len(pages) == 1
    return pages[0]


def test_each_sample_shows_why_it_failed(run_dir):
    page = _task_page(run_dir).read_text()
    assert "sample 0: <span class='ok'>correct" in page
    # the wrong one: its case's parameters, the verdict and the largest differences the judge found
    s1 = page.split("id='sample-1'")[1].split("<section")[0]
    assert "value_mismatch" in s1 and "shape=[64, 8]" in s1 and "Largest differences" in s1
    rows = re.findall(r"<tr><td>0</td><td>\[(\d+), (\d+)\]</td><td>([-\d.e]+)</td><td>([-\d.e]+)</td>"
                      r"<td>([\d.e-]+)</td></tr>", s1)
    assert 1 <= len(rows) <= 5
    assert all(abs(float(exp) - float(got)) > 1e-3 for _, _, exp, got, _ in rows)
    diffs = [float(d) for *_, d in rows]
    assert diffs == sorted(diffs, reverse=True)              # largest first
    assert "torch.where(args[0] &gt; 1.5" in s1            # the candidate's source, escaped
    # the one that does not compile: its first compiler error and error class
    s2 = page.split("id='sample-2'")[1]
    assert "First compiler errors (syntax)" in s2 and "error: #error" in s2


def test_records_keep_the_case_and_the_differences(run_dir):
    recs = [json.loads(x) for x in (run_dir / "records.jsonl").read_text().splitlines()]
    wrong = next(r for r in recs if r["sample"] == 1)
    assert wrong["case"]["shape"] == "[64, 8]" and wrong["worst"] and wrong["max_abs_err"] > 0
    assert next(r for r in recs if r["sample"] == 0)["case"] == {}   # only failing cases carry their parameters


def test_report_command_prints_the_summary_as_json(run_dir):
    from typer.testing import CliRunner

    from kernelgen.cli.main import app
    r = CliRunner().invoke(app, ["bench", "report", "--run-dir", str(run_dir), "--json"])
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)                        # nothing but the JSON on stdout
    assert printed["metrics"] == json.loads((run_dir / "summary.json").read_text())["metrics"]
    assert printed["metrics"]["verdicts"]["candidates"] == {"ok": 1, "value_mismatch": 1, "compile_error": 1}


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.imgs = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "img":
            self.imgs.append(a.get("src", ""))


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        pytest.skip("Debian's chromium is not installed (make services installs it)")
    return exe


def _dump_dom(exe: str, page: Path, tmp_path: Path) -> str:
    r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
                        "--dump-dom", page.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def test_the_report_renders_in_chromium_and_its_links_resolve(run_dir, tmp_path):
    exe = _chromium()
    dom = _dump_dom(exe, run_dir / "report.html", tmp_path)
    links = _Links()
    links.feed(dom)
    task_links = [h for h in links.hrefs if h.startswith("tasks/")]
    assert task_links and all((run_dir / h).is_file() for h in task_links)
    assert links.imgs and all(src.startswith("data:image/png;base64,") for src in links.imgs)
    page_dom = _dump_dom(exe, run_dir / task_links[0], tmp_path)
    back = _Links()
    back.feed(page_dom)
    assert "level1/Math/Add" in page_dom and "sample 2" in page_dom
    for h in back.hrefs:
        if not h.startswith("#"):
            assert (run_dir / task_links[0]).parent.joinpath(h).resolve().is_file(), h
    shot = tmp_path / "report.png"
    r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
                        f"--screenshot={shot}", "--window-size=1200,2000", (run_dir / "report.html").resolve().as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and shot.is_file(), r.stderr[-2000:]
    from PIL import Image
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours and len(colours) > 50        # text, tables and plots, not a blank page
