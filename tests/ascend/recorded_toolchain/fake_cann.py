#!/usr/bin/env python3
"""RECORDED TOOLCHAIN (a boundary double for tests; NOT the CANN toolkit): stands in for `msopgen`, `cmake` and the
binding compiler. It appends {tool, argv, cwd, env} to $FAKE_CANN_RECORD and produces the files the real tools
would (project skeleton, presets, the custom_opp_*.run installer) with canned outputs. The shared objects it
produces are REAL ELF files built by the host g++, so the symbol-origin check reads real dynamic symbol tables.

Knobs: FAKE_CANN_SLEEP=<s> (binary step sleeps, with a child process, to test group kills; the child's pid goes to
$FAKE_CANN_RECORD.child). A kernel containing FAKE_COMPILE_ERROR fails the binary step with a canned bisheng
error; a pybind.cpp containing FAKE_SMUGGLE defines the aclnn symbols in the extension itself.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

tool = Path(sys.argv[0]).name
argv = sys.argv[1:]
with open(os.environ["FAKE_CANN_RECORD"], "a") as rec:
    rec.write(json.dumps({"tool": tool, "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}) + "\n")


def arg(flag):
    return argv[argv.index(flag) + 1]


def cc_shared(out, source):
    src = Path(out).with_suffix(".c")
    src.write_text(source)
    subprocess.check_call(["gcc", "-shared", "-fPIC", "-o", str(out), str(src)])
    src.unlink()


if tool == "msopgen":
    op = json.loads(Path(arg("-i")).read_text())[0]["op"]
    proj = Path(arg("-out"))
    for sub in ("op_host", "op_kernel", "cmake"):
        (proj / sub).mkdir(parents=True, exist_ok=True)
    (proj / "op_host" / "CMakeLists.txt").write_text("# generated\n")
    (proj / "op_host" / "stub_generated.cpp").write_text("// stub\n")
    (proj / "op_kernel" / "stub_generated.cpp").write_text("// stub\n")
    (proj / "CMakePresets.json").write_text(json.dumps({"version": 1, "configurePresets": [{"name": "default",
        "cacheVariables": {"vendor_name": {"type": "STRING", "value": "customize"},
                           "ASCEND_CANN_PACKAGE_PATH": {"type": "PATH", "value": "/usr/local/Ascend/latest"},
                           "ASCEND_COMPUTE_UNIT": {"type": "STRING", "value": "ascend910b"}}}]}))
    print(f"Generation completed: {op}")
elif tool == "cmake" and "--build" not in argv:
    Path("build_out").mkdir(exist_ok=True)
    print("-- Configuring done\n-- Generating done")
elif tool == "cmake" and "binary" in argv:
    if os.environ.get("FAKE_CANN_SLEEP"):
        child = subprocess.Popen(["sleep", "300"])
        Path(os.environ["FAKE_CANN_RECORD"] + ".child").write_text(str(child.pid))
        time.sleep(float(os.environ["FAKE_CANN_SLEEP"]))
    for k in Path("op_kernel").glob("*.cpp"):
        if "FAKE_COMPILE_ERROR" in k.read_text():
            print(f"{k.resolve()}:37:38: error: use of undeclared identifier 'tileLen'\n1 error generated.")
            sys.exit(1)
    print("[100%] Built target binary")
elif tool == "cmake" and "package" in argv:
    presets = json.loads(Path("CMakePresets.json").read_text())
    vendor = presets["configurePresets"][0]["cacheVariables"]["vendor_name"]["value"]
    op = json.loads(Path("../op.json").read_text())[0]["op"]
    stage = Path("build_out/_stage/vendors") / vendor
    (stage / "op_api" / "lib").mkdir(parents=True, exist_ok=True)
    kdir = stage / "op_impl" / "ai_core" / "tbe" / "kernel" / "ascend910b" / op
    kdir.mkdir(parents=True, exist_ok=True)
    (kdir / f"{op}_1a2b.o").write_bytes(b"\x7fELF-fake-kernel")
    cc_shared(stage / "op_api" / "lib" / "libcust_opapi.so",
              f"int aclnn{op}GetWorkspaceSize(void) {{ return 0; }}\nint aclnn{op}(void) {{ return 0; }}\n")
    run = Path("build_out/custom_opp_ubuntu_x86_64.run")
    run.write_text("#!/bin/bash\nfor a in \"$@\"; do case $a in --install-path=*) D=${a#--install-path=};; esac; done\n"
                   f"mkdir -p \"$D\" && cp -r {Path('build_out/_stage').resolve()}/vendors \"$D\"/\n")
    print("CPack: - package: custom_opp_ubuntu_x86_64.run generated.")
elif tool == "fake-cxx":
    out = arg("-o")
    pyb = next(a for a in argv if a.endswith("pybind.cpp"))
    text = Path(pyb).read_text()
    body = "int PyInit_kernel_gen_ops(void) { return 0; }\n"
    if "FAKE_SMUGGLE" in text:
        import re
        op = re.search(r"aclnn(\w+?)\b", text.split("EXEC_NPU_CMD(")[1]).group(1)
        body += f"int aclnn{op}GetWorkspaceSize(void) {{ return 0; }}\nint aclnn{op}(void) {{ return 0; }}\n"
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    cc_shared(out, body)
else:
    print(f"fake_cann: unexpected call {tool} {argv}", file=sys.stderr)
    sys.exit(2)
