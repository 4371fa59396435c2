# Two commands for a fresh machine: `make run` and `make test`.
# Both create their own virtual environment in .venv and install the project into it.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install lint typecheck pytest system-deps bench screenshots clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	touch $@

install: $(STAMP)

# The store is made explicitly, once (serve refuses a lost or emptied one, never replaces it).
# `make run` installs the software, so like any installer it seals what it installed
# (serve refuses files that differ from the seal: croupier verify-install lists them).
run: install
	$(BIN)/croupier store init --if-missing
	$(BIN)/croupier verify-install --seal
	$(BIN)/croupier serve --host $(HOST) --port $(PORT)

# Debian packages the tests drive for real: Chromium (browser tests through Playwright),
# rng-tools5's rngtest, ent and dieharder (the lab tools fed by `croupier rng stream`,
# `certify run` and `certify external`), PostgreSQL's
# server (the store's second backend: tests start a throwaway cluster with its initdb and
# pg_ctl from /usr/lib/postgresql/*/bin; pg_ctlcluster, on PATH, says it is installed).
SYSTEM_TOOLS := chromium:chromium rngtest:rng-tools5 ent:ent dieharder:dieharder pg_ctlcluster:postgresql
system-deps:
	@missing=""; for pair in $(SYSTEM_TOOLS); do \
	  command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing Debian packages:$$missing"; \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q $$missing; fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

# The packages' byte-code is written first (compileall writes it even where the
# environment sets PYTHONDONTWRITEBYTECODE): the tests start croupier as a process
# hundreds of times (the kill tests alone 240), and each start would otherwise compile
# every module it imports from source again, about 0.2 s apiece.
PACKAGES := firmware_bridge rng games kiosk_ui certification
pytest: install system-deps
	$(BIN)/python -m compileall -q $(PACKAGES)
	$(BIN)/pytest -n 2 --dist worksteal --durations=15

test: lint typecheck pytest

bench: install
	$(BIN)/python -m bench

# docs/screenshots/: every table at 1920x1080 and 1080x1920, and the lobby (docs/kiosk.md).
screenshots: install system-deps
	$(BIN)/python tests/kiosk_ui/browser/make_screenshots.py --out docs/screenshots

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
