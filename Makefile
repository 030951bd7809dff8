# gunbai: two commands on a fresh machine: `make build` and `make test`.
# Each sets up .venv (when missing or when pyproject.toml changed) and installs gunbai into it.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GUNBAI := $(VENV)/bin/gunbai
STAMP  := $(VENV)/.installed
DATA   ?= source_data
OUT    ?= build
# The real VASSAL 3.7.26 engine with its load checker (../shared/vassal/README.md).
VASSAL_DIR ?= $(firstword $(wildcard ../shared/vassal /work/shared/vassal))
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build test verify counters cards sheets lint schema bench clean distclean vassal-check

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
	$(GUNBAI) schema --data $(DATA)

bench: setup
	$(PY) benchmarks/bench_build.py
	$(PY) benchmarks/bench_counters.py
	$(PY) benchmarks/bench_engine.py
	$(PY) benchmarks/bench_games.py
	$(PY) benchmarks/bench_geometry.py
	$(PY) benchmarks/bench_lint.py

# Open every module under $(OUT) in VASSAL 3.7.26, then each with every predefined setup stored
# in it, then with each extension beside it; exit 0 only when every run is clean.
vassal-check: build
	@test -n "$(VASSAL_DIR)" -a -x "$(VASSAL_DIR)/vassal-check-all" || \
	  { echo "vassal-check: VASSAL checker not found; set VASSAL_DIR=/path/to/shared/vassal" >&2; exit 1; }
	$(SUDO) $(VASSAL_DIR)/install-deps.sh
	scripts/vassal-check-build $(VASSAL_DIR) $(OUT)

clean:
	rm -rf $(OUT)

distclean: clean
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
