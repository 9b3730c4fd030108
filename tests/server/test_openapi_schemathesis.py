"""The OpenAPI schema is what the server does: schemathesis, with every check on, against a
real server (uvicorn, every assistant, the scripted model) and every operation in the schema,
the streamed turns included. A bounded number of examples per operation, a fixed seed."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
from tests.server.scripted_server import scripted_server

EXAMPLES_PER_OPERATION = 15
SEED = 20261124
# The analyst's SQL routes answer a body the schema allows (any text as `sql`) with 400 when
# that text is not a query they may run: what the schema cannot say, the server must.
CONFIG = """
[[operations]]
include-path-regex = "^/analyst/sql/"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "429", "5xx"]
"""


def test_schemathesis_finds_no_failure_of_any_check_on_any_operation(tmp_path):
    with scripted_server(
        tmp_path / "data", rate_limit_chat_per_minute="100000", log_level="INFO"
    ) as (url, _process, log):
        operations = [
            (method.upper(), path)
            for path, methods in httpx.get(f"{url}/openapi.json").json()["paths"].items()
            for method in methods
        ]
        config = tmp_path / "schemathesis.toml"
        config.write_text(CONFIG)
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(config),
                "run",
                f"{url}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                str(EXAMPLES_PER_OPERATION),
                "--seed",
                str(SEED),
                # One worker: hypothesis describes filters by parsing their source, and
                # CPython 3.11's `ast` is not safe in two threads at once (it fails with
                # "AST constructor recursion depth mismatch", seen here with 2 workers).
                "--workers",
                "1",
                "--request-timeout",
                "60",
                "--no-color",
                "--report",
                "json",
                "--report-json-path",
                str(tmp_path / "report.json"),
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
        )
        server_log = log.read_text()
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-8000:]
    assert {
        "POST /chat",
        "POST /telecom/chat",
        "POST /internal/chat/stream",
        "POST /analyst/sql/run",
        "POST /analyst/sql/csv",
    } <= {f"{m} {p}" for m, p in operations}
    report = json.loads((tmp_path / "report.json").read_text())
    counts = report["operations"]
    assert counts["total"] == counts["selected"] == counts["tested"] == len(operations), counts
    assert report["failures"] == [] and report["errors"] == [], json.dumps(report)[:3000]
    assert report["test_cases"]["generated"] >= len(operations) * 5
    # Every reference resolves (a skipped part of a schema is only a warning to schemathesis).
    assert "Unresolvable" not in output, output[-3000:]
    # Nothing failed inside a turn either (a streamed turn's failure is a 200 with an error).
    assert "Traceback" not in server_log, server_log[-5000:]
