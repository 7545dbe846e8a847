# The README's two commands: `make run` and `make test`. Both work on a fresh Debian
# machine with Python 3.11: they create .venv and install what they need.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/judge run

test: $(STAMP)
	$(VENV)/bin/ruff check judge tests benchmarks
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check judge tests benchmarks
	$(VENV)/bin/ruff format --check judge tests benchmarks

format: $(STAMP)
	$(VENV)/bin/ruff format judge tests benchmarks
	$(VENV)/bin/ruff check --fix judge tests benchmarks

bench: $(STAMP)
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
