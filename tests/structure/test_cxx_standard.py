"""The C++ standard of every object the harness builds comes from the installed torch (kernelgen.bench.torch_cxx):
no other module of the data plane names one (a new torch once needed C++20 while the build said C++17)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWNER = ROOT / "jobs" / "kernelgen" / "bench" / "torch_cxx.py"
STD = re.compile(r"""["'][^"'\n]*-std=(?:c|gnu)\+\+\d\w*""")


def test_only_torch_cxx_names_a_cxx_standard():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in (ROOT / "jobs" / "kernelgen").rglob("*.py") if p != OWNER
             for n, line in enumerate(p.read_text().splitlines(), 1) if STD.search(line)]
    assert not found, found


def test_the_pattern_catches_a_hard_coded_flag():
    assert STD.search('cmd = ["g++", "-std=c++17", "-c"]') and STD.search("f'-std=gnu++20'")
    assert not STD.search("flags = [binding_std_flag(), '-O2']")
