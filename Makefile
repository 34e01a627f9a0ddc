# The two set-up commands of the README: `make run` and `make test`.
# Each creates .venv with the project's dependencies on first use (needs only python3).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run play test lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# Without REDIS_URL, tables are kept in an SQLite file (across restarts, nothing to install).
run: $(STAMP)
	TAPETE_SQLITE_PATH="$${TAPETE_SQLITE_PATH:-data/tapete.sqlite3}" $(VENV)/bin/tapete

# make play ARGS="piedras piedras=5 idioma=en": the same words as /nueva (and idioma=, semilla=).
play: $(STAMP)
	$(VENV)/bin/tapete-terminal $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict engine bot locales

test: lint
	$(VENV)/bin/pytest -q

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV)
