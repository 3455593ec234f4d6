# Two commands: `make run` (install and start the app) and `make test` (install and run every test).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= $(or $(KUNKEN_HOST),0.0.0.0)
PORT ?= $(or $(KUNKEN_PORT),8000)
# The compiled message catalogs (.mo, not in git), one per translations/<lang>/LC_MESSAGES/messages.po.
CATALOGS := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))

.PHONY: run test lint browser bench i18n catalogs lock

# The app runs on the pinned versions of requirements.lock (the ranges are in requirements.txt).
$(VENV)/.runtime: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	touch $@

# The tests run on the same runtime pins plus the tools of requirements-dev.lock.
$(VENV)/.dev: $(VENV)/.runtime requirements-dev.lock
	$(PY) -m pip install --quiet -r requirements-dev.lock
	touch $@

# The app reads the compiled catalogs; each is rebuilt when its .po is newer.
catalogs: $(CATALOGS)

translations/%/LC_MESSAGES/messages.mo: translations/%/LC_MESSAGES/messages.po | $(VENV)/.runtime
	$(VENV)/bin/pybabel compile --domain messages --locale $* --input-file $< --output-file $@

run: $(VENV)/.runtime catalogs
	$(PY) app.py --host $(HOST) --port $(PORT)

# The browser tests drive Debian's Chromium, the keypad's grammar runs under Node (tests/js/) and the Nu HTML
# Checker under Java (tests/vnu.py fetches its pinned jar once); the https tests put Caddy in front (its root
# certificate trusted with certutil) and check the systemd unit (systemd-analyze); docs/hosting.md's commands run
# sqlite3; install them when missing.
browser: $(VENV)/.dev
	@command -v chromium >/dev/null && command -v pdftotext >/dev/null && command -v node >/dev/null && \
	  command -v java >/dev/null && command -v caddy >/dev/null && command -v certutil >/dev/null && \
	  command -v systemd-analyze >/dev/null && command -v sqlite3 >/dev/null || \
	  { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium poppler-utils nodejs default-jre-headless \
	      caddy libnss3-tools systemd sqlite3; }
	@$(PY) tests/vnu.py fetch >/dev/null

# ruff (lint, import order, format) and mypy (--strict, pyproject.toml) fail the test run on a finding.
# Neither keeps a cache in the clone.
lint: $(VENV)/.dev
	$(VENV)/bin/ruff check --no-cache .
	$(VENV)/bin/ruff format --no-cache --check .
	$(VENV)/bin/mypy --cache-dir=/dev/null kunken_scorer app.py

# One worker per CPU (at most 4), each test file whole on one worker: its browser and servers are its own.
test: $(VENV)/.dev catalogs browser lint
	$(PY) -m pytest --numprocesses=auto --maxprocesses=4 --dist=loadfile

# wrk models the polling phones (Debian: apt-get install -y wrk); the club-night table is bench_club.py's.
bench: $(VENV)/.dev catalogs browser
	@command -v wrk >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get install -y -qq wrk; }
	$(PY) benchmarks/bench_core.py
	$(PY) benchmarks/bench_web.py
	$(PY) benchmarks/bench_club.py
	$(PY) benchmarks/bench_live.py
	@test -x .lighthouse/node_modules/.bin/lighthouse || npm install --silent --no-audit --no-fund --prefix .lighthouse lighthouse@12.8.2
	$(PY) benchmarks/bench_lighthouse.py

# Refresh the message catalogs after changing user-visible strings, then translate the new entries.
i18n: $(VENV)/.dev
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext -k _l -k N_ -k M_ -k P_:1,2 -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations -l ru --no-fuzzy-matching --width=120

# Re-pin the locks after changing a range in requirements*.txt (and pyproject.toml): pip-tools' pip-compile,
# resolved for this Python (CI's is 3.11). Pins that still fit stay; `make lock LOCK_ARGS=--upgrade` moves
# every pin to the newest version its range allows. The dev lock keeps the runtime lock's pins.
PIP_COMPILE = CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --strip-extras --generate-hashes \
	--allow-unsafe --no-emit-index-url --no-emit-find-links $(LOCK_ARGS)

$(VENV)/.pip-tools:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "pip-tools>=7.5,<8"
	touch $@

lock: $(VENV)/.pip-tools
	$(PIP_COMPILE) --output-file requirements.lock requirements.txt
	$(PIP_COMPILE) --constraint requirements.lock --output-file requirements-dev.lock requirements-dev.txt
