# Two commands: `make run` (the service under gunicorn) and `make test`.
# The first Python >= 3.11 on PATH (PYTHON=… to choose one).
PYTHON ?= $(shell for p in python3 python3.14 python3.13 python3.12 python3.11; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
# `make run` listens on loopback only; HOST=0.0.0.0 (the Procfile reads it too) to be reached
# from other machines
HOST   ?= 127.0.0.1
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: run test venv service-venv redis-server chromium openapi bench load wrk node clients

# The service's own packages (`make run`), reinstalled when pyproject.toml changes; the venv
# created if missing.  uv installs (pip installs uv into the venv first): the same packages
# from PyPI as pip, in 11 s instead of pip's 32 s on a clean clone (pip resolves, unpacks
# and compiles serially).
UV_RANGE := uv>=0.9,<1
$(STAMP): pyproject.toml
	@test -x $(PY) || { test -n "$(PYTHON)" || { echo "referee needs Python 3.11 or newer on PATH (or PYTHON=/path/to/python3)" >&2; exit 1; }; \
		$(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -q --disable-pip-version-check '$(UV_RANGE)'
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -e .
	@touch $(STAMP)

# The same venv with the `test` extra on top (pytest, schemathesis, the client generator,
# mypy, playwright…: 3× the service's size), for `make test` and the tools of the docs.
$(TEST_STAMP): pyproject.toml $(STAMP)
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -e '.[test]'
	@touch $(TEST_STAMP)

service-venv: $(STAMP)
venv: $(TEST_STAMP)

# The web command of the Procfile (gunicorn) on $(HOST):$(PORT), plus an RQ worker when
# REDIS_URL is set.  Only the service's packages: no test tools.
run: service-venv
	@web="$$(sed -n 's/^web: //p' Procfile)"; worker="$$(sed -n 's/^worker: //p' Procfile)"; \
	export PATH="$(CURDIR)/$(VENV)/bin:$$PATH" PORT="$(PORT)" HOST="$(HOST)"; \
	if [ -n "$${REDIS_URL:-}" ]; then \
		sh -c "exec $$worker" & wpid=$$!; trap 'kill $$wpid 2>/dev/null' EXIT INT TERM; \
		echo "rq workers started under workers.supervise (pid $$wpid; restarted if they exit) on $$REDIS_URL"; \
	fi; \
	echo "referee: http://$(HOST):$(PORT)  (interactive docs: http://$(HOST):$(PORT)/docs)"; \
	sh -c "$$web"

# The tests start their own redis-server (tests/conftest.py): make sure one is installed.
redis-server:
	@if ! command -v redis-server >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing redis-server (the tests start a private one)"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q redis-server; \
		else \
			echo "make test needs redis-server; install it: sudo apt-get install -y redis-server" >&2; \
			exit 1; \
		fi; \
	fi

# tests/clients generate a TypeScript client from openapi.yaml (package.json: @hey-api/openapi-ts,
# typescript, zod): node and npm from apt when missing (as root, like redis-server), then
# `npm ci` from the committed package-lock.json whenever it changes (node_modules/.installed).
node:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing nodejs and npm (tests/clients generate a TypeScript client)"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
		else \
			echo "make test needs node >= 18.18 and npm: sudo apt-get install -y nodejs npm" >&2; \
			exit 1; \
		fi; \
	fi

NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json | node
	npm ci --prefer-offline --no-audit --no-fund
	@touch $(NODE_STAMP)

# tests/console drive the scorekeeper's console in Debian's chromium through Playwright
# (which uses /usr/bin/chromium as it is: no `playwright install`).
chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing chromium (tests/console drive the console in it)"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
		else \
			echo "make test needs chromium for tests/console: sudo apt-get install -y chromium" >&2; \
			exit 1; \
		fi; \
	fi

# The suite on every core (pytest-xdist; auto: a worker per core and one for the modules that
# wait on real processes; TEST_WORKERS=0: in one process, =N: N workers;
# --dist load, each module handed out whole: tests/scheduling.py).  Nothing is skipped
# (tests/no_skips.py).  REFEREE_TEST_SIZE sizes the long random runs (tests/size.py):
# quick (the default: a quarter of each) or full (what .ci/run runs).
TEST_WORKERS ?= auto
# Python may cache compiled modules (PYTHONDONTWRITEBYTECODE unset for the run): the suite
# starts a few hundred interpreters (servers, workers, tools), each compiling what is not cached.
# The venv and `npm ci` side by side (neither asks apt for anything the other does).
test: redis-server chromium
	@$(MAKE) --no-print-directory -j2 venv $(NODE_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n $(TEST_WORKERS) --dist load --durations=25

# Generate both clients from openapi.yaml as tests/clients does, to read them:
# build/clients/python/referee_client and build/clients/typescript (docs/clients.md).
clients: venv $(NODE_STAMP)
	rm -rf build/clients && mkdir -p build/clients
	$(VENV)/bin/openapi-python-client generate --path openapi.yaml --meta none \
		--config tests/clients/python_client.yaml --output-path build/clients/python/referee_client
	REFEREE_OPENAPI=openapi.yaml REFEREE_TS_OUT=build/clients/typescript \
		node_modules/.bin/openapi-ts --file tests/clients/openapi-ts.config.mjs

# Regenerate the committed API contract after changing routes, envelopes or engine shapes.
openapi: service-venv
	$(PY) -m service.openapi > openapi.yaml

# The contract of a release (docs/api.md, "The breaking-change gate"): openapi.yaml, made
# current, kept as contract/openapi-<info.version>.yaml (an older baseline removed).
# tests/compat/test_breaking.py fails `make test` on a change that breaks a client of it
# unless info.version's major moved.  Run it at a release, and after merging a contract
# change that is meant to ship in the release being prepared.
.PHONY: contract-baseline
contract-baseline: openapi
	@v="$$($(PY) -c 'from service.version import CONTRACT_VERSION; print(CONTRACT_VERSION)')"; \
	mkdir -p contract; find contract -maxdepth 1 -name 'openapi-*.yaml' ! -name "openapi-$$v.yaml" -print -delete; \
	cp openapi.yaml "contract/openapi-$$v.yaml"; echo "contract/openapi-$$v.yaml: the baseline of tests/compat"

# Every performance figure (issue 7): HTTP against a no-op floor under gunicorn, engines,
# evaluations on RQ; writes bench/results/latest.{json,md,png}.  A few minutes.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): pyproject.toml $(TEST_STAMP)
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -e '.[test,bench]'
	@touch $(BENCH_STAMP)

bench: venv redis-server $(BENCH_STAMP)
	@if ! command -v wrk >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing wrk (the HTTP load generator)"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; \
		else \
			echo "wrk is missing (sudo apt-get install -y wrk): using the Python loader" >&2; \
		fi; \
	fi
	@if ! command -v valgrind >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "installing valgrind (python -m bench.instructions counts instructions with it)"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q valgrind; \
	fi
	$(PY) -m bench

# The load generator of `make load` (issue 6); root installs it, others are told how.
wrk:
	@if ! command -v wrk >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing wrk (the HTTP load generator)"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; \
		else \
			echo "make load needs wrk: sudo apt-get install -y wrk" >&2; exit 1; \
		fi; \
	fi

# 60 s of legal-actions + apply for the three games against gunicorn (2 workers) on
# loopback: 0 errors, p50/p99, worker RSS before/after (growth < 10%).  LOAD_SECONDS=… to change.
LOAD_SECONDS ?= 60
load: venv wrk
	$(PY) -m bench.load --seconds $(LOAD_SECONDS)

# Re-extract the translatable texts (N_ marks) into the .pot and merge them into each .po
# (docs/i18n.md); then translate the new/fuzzy entries in service/translations/ru/.
.PHONY: translations
translations: service-venv
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ --no-default-keywords --no-location \
		--sort-output --omit-header -o service/translations/messages.pot service schemas
	$(VENV)/bin/pybabel update -i service/translations/messages.pot -d service/translations \
		--ignore-obsolete --width=100
