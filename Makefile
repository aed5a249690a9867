# Entry points (README.md): `make run` serves the app with demo data, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 8000
ROOT := $(abspath .)
BACKEND := $(ROOT)/backend
FRONTEND := $(ROOT)/frontend
VAR := $(ROOT)/var
REPORTS := $(VAR)/reports
UV_VERSION := 0.13.9
# uv: the machine's if present, else a private copy installed from PyPI into .tools/
UV := $(shell command -v uv 2>/dev/null || echo $(ROOT)/.tools/bin/uv)
MANAGE := cd $(BACKEND) && $(UV) run --frozen python manage.py

.PHONY: countries fonts help install install-backend install-frontend build run serve test test-backend test-frontend \
        test-e2e test-deps lint lint-backend lint-frontend types types-check messages check-deploy schemathesis bench bench-1m bench-tryton pg-role pg-backup-role backup clean audit pictures pictures-update pdf-pictures-update

help:
	@echo "make run     install everything, load demo data, serve on http://127.0.0.1:$(PORT)"
	@echo "make test    lint + backend tests + frontend unit tests + end-to-end tests"
	@echo "make lint | make types | make messages | make bench | make bench-1m | make bench-tryton | make pg-role"

$(ROOT)/.tools/bin/uv:
	python3 -m venv $(ROOT)/.tools
	$(ROOT)/.tools/bin/pip install --quiet "uv==$(UV_VERSION)"

install-backend: $(if $(shell command -v uv 2>/dev/null),,$(ROOT)/.tools/bin/uv)
	cd $(BACKEND) && $(UV) sync --frozen --quiet

# package.json pins rollup and unrs-resolver (overrides) to releases whose native builds for every
# platform the registry serves, so the lock file is complete and `npm ci` installs it as it is.
$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

install-frontend: $(FRONTEND)/node_modules/.package-lock.json

# The font the company documents embed (docs/decisions.md, "Documents embed their font"): Noto Sans SC
# regular and bold from the npm package pinned in frontend/package-lock.json, copied beside the backend
# (settings.DOCUMENT_FONT_DIR); not committed, like the built web app.
FONT_PACKAGE := $(FRONTEND)/node_modules/@expo-google-fonts/noto-sans-sc
DOCUMENT_FONTS := $(BACKEND)/fonts/NotoSansSC-Regular.ttf $(BACKEND)/fonts/NotoSansSC-Bold.ttf
$(BACKEND)/fonts/NotoSansSC-Regular.ttf: $(FRONTEND)/node_modules/.package-lock.json
	@mkdir -p $(@D) && cp $(FONT_PACKAGE)/400Regular/NotoSansSC_400Regular.ttf $@
$(BACKEND)/fonts/NotoSansSC-Bold.ttf: $(FRONTEND)/node_modules/.package-lock.json
	@mkdir -p $(@D) && cp $(FONT_PACKAGE)/700Bold/NotoSansSC_700Bold.ttf $@
fonts: $(DOCUMENT_FONTS)

install: install-backend install-frontend fonts

build: install-frontend
	cd $(FRONTEND) && npm run build --silent

# The built web app, rebuilt only when a source, the config or the lock file is newer than it (make bench).
DIST_STAMP := $(FRONTEND)/dist/.vite/manifest.json
DIST_SOURCES := $(shell find $(FRONTEND)/src $(FRONTEND)/public -type f 2>/dev/null) $(FRONTEND)/index.html \
	$(FRONTEND)/trace.html $(FRONTEND)/vite.config.ts $(FRONTEND)/package-lock.json
$(DIST_STAMP): $(DIST_SOURCES) | install-frontend
	cd $(FRONTEND) && npm run build --silent

# One process serves the API and the built web app. The database is created and filled with demo data
# only when it is new; an existing one is never wiped.
run: install build
	@mkdir -p $(VAR)
	$(MANAGE) migrate --no-input -v0
	$(MANAGE) load_demo --if-empty
	$(MANAGE) collectstatic --no-input -v0
	@echo ""
	@echo "  CartonTrace is running on http://127.0.0.1:$(PORT)"
	@$(MANAGE) demo_sign_ins
	@echo ""
	cd $(BACKEND) && exec $(UV) run --frozen gunicorn config.wsgi:application --bind 127.0.0.1:$(PORT) \
		--workers 1 --threads 8 --access-logfile - --log-level warning

# The backend's and the frontend's checks are two targets, so `make -j2 lint` (as `make test` runs it) checks
# both at once: mypy, ESLint and tsc each keep one core busy.
lint: lint-backend lint-frontend

lint-backend: install-backend
	cd $(BACKEND) && $(UV) run --frozen ruff check . && $(UV) run --frozen ruff format --check .
	cd $(BACKEND) && $(UV) run --frozen mypy
	$(MANAGE) makemigrations --check --dry-run -v0

lint-frontend: install-frontend
	cd $(FRONTEND) && npm run lint --silent && npm run typecheck --silent

# Dependency audit of the locked dependencies (docs/operations.md, "Auditing dependencies"): pip-audit and
# npm audit when advisory data is reachable; says SKIPPED plainly when it is not.
audit:
	bash scripts/audit.sh

# The OpenAPI schema and the TypeScript types generated from it (committed; CI fails when stale).
# Generated without DATABASE_URL: an integer field's default bounds follow the database's integer size,
# and the committed schema must not depend on which database the generating machine has.
types: install
	cd $(BACKEND) && env -u DATABASE_URL SPECTACULAR_QUIET=0 $(UV) run --frozen python manage.py spectacular --file openapi.yaml \
		--validate --fail-on-warn
	cd $(FRONTEND) && npm run gen:types --silent

types-check: types
	@git diff --quiet -- backend/openapi.yaml frontend/src/api/schema.d.ts || \
		(echo "The OpenAPI schema or the generated API types are stale: run 'make types' and commit." && \
		 git --no-pager diff --stat -- backend/openapi.yaml frontend/src/api/schema.d.ts && exit 1)

# Server messages in Chinese (docs/architecture.md, "Translations"): collect the marked strings of the code
# into the zh_Hans catalogue, then compile it. New or changed entries come out untranslated or fuzzy:
# translate them in django.po, run this again, commit the .po and the .mo (the backend tests check both).
messages: install-backend
	$(MANAGE) makemessages -l zh_Hans --no-obsolete
	$(MANAGE) compilemessages -l zh_Hans --ignore=.venv
	@cd $(BACKEND) && msgfmt --statistics -o /dev/null locale/zh_Hans/LC_MESSAGES/django.po

# Country names, boxes and boundaries shipped in the backend (docs/duediligence.md, "Plot in its declared
# country"): copied from the pinned world-atlas package (Natural Earth); the outputs are committed.
countries: install-frontend
	cd $(ROOT) && python3 backend/apps/eudr/data/build_countries.py

check-deploy: install-backend fonts
	cd $(BACKEND) && DJANGO_ENV=production DJANGO_SECRET_KEY=check-deploy-$$(python3 -c 'import secrets;print(secrets.token_hex(32))') \
		FIELD_ENCRYPTION_KEYS=$$(python3 -c 'import base64,os;print(base64.urlsafe_b64encode(os.urandom(32)).decode())') \
		DJANGO_ALLOWED_HOSTS=example.com DATABASE_URL=postgres://check-deploy@127.0.0.1:5432/check REDIS_URL=redis://127.0.0.1:6379/0 \
		$(UV) run --frozen python manage.py check --deploy --fail-level WARNING

# The backend suite runs in BACKEND_WORKERS processes (pytest-xdist; each its own test database), a test
# file per process so a file's fixtures and servers stay together; BACKEND_WORKERS=0 runs it in one.
BACKEND_WORKERS ?= 2
test-backend: test-deps install-backend fonts
	@mkdir -p $(REPORTS)
	cd $(BACKEND) && $(UV) run --frozen pytest -q -p no:cacheprovider --junitxml=$(REPORTS)/backend.xml \
		$(if $(filter-out 0 1,$(BACKEND_WORKERS)),-n $(BACKEND_WORKERS) --dist loadfile) $(PYTEST_ARGS)

test-frontend: install-frontend
	@mkdir -p $(REPORTS)
	cd $(FRONTEND) && npx vitest run --reporter=default --reporter=junit --outputFile.junit=$(REPORTS)/vitest.xml

test-e2e: test-deps build install-backend fonts
	@mkdir -p $(REPORTS)
	cd $(FRONTEND) && PLAYWRIGHT_JUNIT_OUTPUT_NAME=$(REPORTS)/e2e.xml npx playwright test

# Pictures (docs/accessibility.md, "Pictures"): the first view of every route (frontend/e2e/pictures.spec.ts,
# also part of `make test`) against a demo server on a fixed day of its own, and the first page of every
# PDF (backend apps/common/tests/test_pdf_pictures.py, also in `make test-backend`). A picture that changes
# fails until its baseline is made again on purpose: `make pictures-update` / `make pdf-pictures-update`
# write the new baselines (only the route pictures that differ); look at them (git status, git diff
# --stat) before committing them.
pictures: test-deps build install-backend fonts
	cd $(FRONTEND) && E2E_PICTURES_ONLY=1 npx playwright test --project=pictures $(PLAYWRIGHT_ARGS)

pictures-update: test-deps build install-backend fonts
	cd $(FRONTEND) && E2E_PICTURES_ONLY=1 npx playwright test --project=pictures --update-snapshots=changed $(PLAYWRIGHT_ARGS)

pdf-pictures-update: install-backend fonts
	cd $(BACKEND) && PDF_PICTURES_UPDATE=1 $(UV) run --frozen pytest -q -p no:cacheprovider apps/common/tests/test_pdf_pictures.py

schemathesis: build install-backend fonts
	@mkdir -p $(REPORTS)
	bash scripts/schemathesis.sh

# What the tests need from the machine (Debian packages, installed only when missing): Chromium, CJK fonts,
# GNU gettext. So `make test` works by itself on a fresh Debian machine.
test-deps:
	@bash scripts/test-deps.sh

# Every check and suite runs even when one fails; the last line adds them up, `total: N passed, N failed`
# (scripts/test-all.sh, scripts/test-totals.py), and make fails when N failed is not 0.
test: test-deps install
	@MAKE="$(MAKE)" bash scripts/test-all.sh

# Speed and size budgets (docs/design.md section 10, docs/performance.md), each figure beside its reference
# measured in the same run and its goal: the API benchmarks (pytest-benchmark), the JavaScript before the
# first page from the build manifest, then against a demo server of its own (scripts/bench-server-figures.sh
# on BENCH_PORT, waited for as long as it is starting, stopped and its database dropped at the end): the
# bytes a first visit transfers in Chromium, and the public trace's rate against a static file's. Every
# part runs even when one fails; the target fails when one did. The frontend is rebuilt only when stale.
# The demo server starts first and loads its data while the API benchmarks run.
BENCH_PORT ?= 8797
bench: install-backend fonts $(DIST_STAMP)
	@BENCH_PORT=$(BENCH_PORT) bash scripts/bench-server-figures.sh bash -c 'status=0; \
	  (cd $(BACKEND) && $(UV) run --frozen pytest -q -p no:cacheprovider bench --benchmark-only \
		--benchmark-columns=median,mean,min,max,rounds $(PYTEST_ARGS)) || status=1; \
	  (cd $(FRONTEND) && node scripts/bundle-budget.mjs) || status=1; \
	  exit $$status'

# The list benchmarks over 10,000 and then over 1,000,000 products instead of 100,000 (optional: building
# a million takes minutes), and how each figure grew between the two (scripts/bench-growth.py): the products
# page and search, each against its SQL, and the SQL's growth against its goal.
bench-1m: install-backend fonts
	@out=$$(mktemp -d); status=0; \
	for rows in 10000 1000000; do \
	  (cd $(BACKEND) && BENCH_ROWS=$$rows $(UV) run --frozen pytest -q -p no:cacheprovider bench/test_bench_lists.py \
		--benchmark-only --benchmark-columns=median,mean,min,max,rounds --benchmark-json=$$out/$$rows.json \
		$(PYTEST_ARGS)) || status=1; \
	done; \
	if [ $$status = 0 ]; then python3 scripts/bench-growth.py $$out/10000.json 10000 $$out/1000000.json 1000000 \
	  || status=1; fi; \
	rm -rf "$$out"; exit $$status

# The products search against Tryton 8's on the same 100,000 products, 8 clients each (optional: it
# installs Tryton into .tools/tryton-venv from scripts/tryton/requirements.txt). Needs DATABASE_URL, an
# ordinary role with CREATEDB (make pg-role). scripts/bench-tryton.sh; docs/performance.md, under
# "make bench itself".
bench-tryton: install-backend fonts $(DIST_STAMP)
	@bash scripts/bench-tryton.sh

# An ordinary (non-superuser, no BYPASSRLS) PostgreSQL role for the app and its tests: row-level
# security does not apply to superusers. DATABASE_URL=postgres://cartontrace@127.0.0.1:5432/cartontrace
pg-role:
	psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q -c "DO \$$\$$ BEGIN \
	  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cartontrace') THEN \
	    CREATE ROLE cartontrace LOGIN CREATEDB NOSUPERUSER NOBYPASSRLS; END IF; END \$$\$$;"
	psql -h 127.0.0.1 -U postgres -q -tc "SELECT 1 FROM pg_database WHERE datname = 'cartontrace'" | grep -q 1 || \
	  psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE cartontrace OWNER cartontrace"

# Backups (docs/operations.md, "Backups"): a role that reads every tenant's rows, and a backup with it.
pg-backup-role:
	psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q -c "DO \$$\$$ BEGIN \
	  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cartontrace_backup') THEN \
	    CREATE ROLE cartontrace_backup LOGIN BYPASSRLS NOSUPERUSER; END IF; END \$$\$$;" \
	  -c "GRANT pg_read_all_data TO cartontrace_backup"

backup: install-backend
	$(MANAGE) backup_create $(or $(BACKUP_DIR),$(VAR)/backups/$$(date +%Y%m%dT%H%M%S))

clean:
	rm -rf $(FRONTEND)/dist $(REPORTS)
