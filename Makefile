# The README's two commands: `make run` and `make test`. Both work on a fresh Debian
# machine with Python 3.11: they create .venv and install what they need.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run demo test lint format bench clean system-packages

# Debian packages the tests need: Dovecot for the real IMAP server of the mail tests,
# systemd for `systemd-analyze verify` of systemd/judge.service.
# Dovecot: the real IMAP server of the mail tests; systemd: systemd-analyze verifies the
# unit file; libcairo2 and DejaVu fonts: Cairo (cairocffi) draws the board pictures.
SYSTEM_PACKAGES := dovecot-imapd dovecot-lmtpd openssl systemd libcairo2 fonts-dejavu-core
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/judge run

demo: $(STAMP)
	$(VENV)/bin/judge demo

system-packages:
	@if ! dpkg -s $(SYSTEM_PACKAGES) >/dev/null 2>&1; then \
		echo "Installing $(SYSTEM_PACKAGES) from Debian's packages"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); \
	fi

# The checks that keep the house straight (docs/ARCHITECTURE.md), then the tests.
# The judge's modules compiled first, as an installed package's are: the tests start
# `judge` in a few hundred processes, and where PYTHONDONTWRITEBYTECODE is set (as on
# our CI machines) each of them compiled every module again (0.15 s of CPU a start).
# The tests run in two processes (pytest-xdist): most of them wait on a judge, Dovecot or
# a relay in a process of its own, and in one process the suite took 12.5 minutes on a
# slow day, 6 in two.
test: $(STAMP) system-packages lint
	$(PY) -m compileall -q judge
	$(PY) -m pytest -q -n 2

# ruff (style and formatting), mypy (types; strict in judge/engine and judge/store) and
# import-linter (the layers: pyproject.toml [tool.importlinter]).
lint: $(STAMP)
	$(VENV)/bin/ruff check judge tests benchmarks
	$(VENV)/bin/ruff format --check judge tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

format: $(STAMP)
	$(VENV)/bin/ruff format judge tests benchmarks
	$(VENV)/bin/ruff check --fix judge tests benchmarks

bench: $(STAMP)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/mail.py
	$(PY) benchmarks/flood.py
	$(PY) benchmarks/idle.py
	$(PY) benchmarks/orders.py
	$(PY) benchmarks/bigmap.py
	$(PY) benchmarks/versus_mila.py

clean:
	rm -rf $(VENV) build *.egg-info
