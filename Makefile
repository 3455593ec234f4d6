# Two commands: `make run` (install and start the app) and `make test` (install and run every test).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test browser bench i18n

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(PY) app.py --host $(HOST) --port $(PORT)

# The browser tests drive Debian's Chromium; install it when it is missing.
browser:
	@command -v chromium >/dev/null && command -v pdftotext >/dev/null || \
	  { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium poppler-utils; }

test: $(VENV)/.dev browser
	$(PY) -m pytest

# wrk models the polling phones (Debian: apt-get install -y wrk); the club-night table is bench_club.py's.
bench: $(VENV)/.dev browser
	@command -v wrk >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get install -y -qq wrk; }
	$(PY) benchmarks/bench_core.py
	$(PY) benchmarks/bench_web.py
	$(PY) benchmarks/bench_club.py

# Refresh the message catalogs after changing user-visible strings, then translate the new entries.
i18n: $(VENV)/.dev
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext -k _l -k N_ -k M_ -k P_:1,2 -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations -l ru --no-fuzzy-matching
