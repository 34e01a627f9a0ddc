# The two set-up commands of the README: `make run` and `make test`.
# Each creates .venv with the project's dependencies on first use (needs only python3).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run play test lint bench locales clean

$(STAMP): pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]' -c constraints.txt
	touch $(STAMP)

# The texts: each locales/<lang>/LC_MESSAGES/<domain>.po compiled to the .mo beside it (build
# output, not in git) with Babel, which the venv brings (so these wait for it).
PO := $(wildcard locales/*/LC_MESSAGES/*.po)
MO := $(PO:.po=.mo)

locales: $(MO)

locales/%.mo: locales/%.po | $(STAMP)
	$(VENV)/bin/pybabel -q compile -i $< -o $@

# Without REDIS_URL, tables are kept in an SQLite file (across restarts, nothing to install).
run: $(STAMP) locales
	TAPETE_SQLITE_PATH="$${TAPETE_SQLITE_PATH:-data/tapete.sqlite3}" $(VENV)/bin/tapete

# make play ARGS="piedras piedras=5 idioma=en": the same words as /nueva (and idioma=, semilla=).
play: $(STAMP) locales
	$(VENV)/bin/tapete-terminal $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict engine bot locales
	$(VENV)/bin/lint-imports

# Four workers on two cores: about half the suite waits on sockets, processes and Redis, so
# two more workers fill that time (2,102 tests: 3:19 with two, 2:32 with four, idle 2-core machine;
# 2,192 tests at 7d0fbab: 2:43 with four, now CPU-bound).
test: lint locales
	$(VENV)/bin/pytest -q -n 4 --dist loadgroup

bench: $(STAMP) locales
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) $(MO)
