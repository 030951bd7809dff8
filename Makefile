# gunbai: two commands on a fresh machine: `make build` and `make test`.
# Each sets up .venv (when missing or when pyproject.toml changed) and installs gunbai into it.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GUNBAI := $(VENV)/bin/gunbai
STAMP  := $(VENV)/.installed
DATA   ?= source_data
OUT    ?= build

.PHONY: setup build test verify counters cards sheets lint schema bench clean distclean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "gunbai needs Python 3.11 or newer")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

build: setup
	$(GUNBAI) build --data $(DATA) --out $(OUT)

test: setup
	$(PY) -m pytest

verify: setup
	$(GUNBAI) verify --data $(DATA)

counters: setup
	$(GUNBAI) counters --data $(DATA) --out $(OUT)

cards: setup
	$(GUNBAI) cards --data $(DATA) --out $(OUT)

sheets: setup
	$(GUNBAI) sheets --data $(DATA) --out $(OUT)

lint: build
	$(GUNBAI) lint $(wildcard $(OUT)/*/*.vmod) $(wildcard $(OUT)/*/*.vmdx)
	$(VENV)/bin/ruff check pipeline tests

schema: setup
	$(GUNBAI) schema --out $(DATA)/genpei/schema

bench: setup
	$(PY) benchmarks/bench_build.py
	$(PY) benchmarks/bench_counters.py
	$(PY) benchmarks/bench_engine.py
	$(PY) benchmarks/bench_lint.py

clean:
	rm -rf $(OUT)

distclean: clean
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
