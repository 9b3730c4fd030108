"""The telecom assistant's own commands: `frontdesk telecom ...`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)

CALIBRATION_SET = Path(__file__).parent / "data" / "eval" / "no_context_calibration.jsonl"


@app.command("calibrate-gate")
def calibrate_gate_command(
    dataset: Annotated[
        Path | None,
        typer.Option(
            "--dataset", help="JSONL of {question, answerable}; default: calibration set."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole sweep as JSON.")] = False,
) -> None:
    """Sweep the NO_CONTEXT threshold over labelled questions; print the best F1's."""
    from frontdesk.assistants.telecom.service import gate_scores_target, index_stats, open_knowledge
    from frontdesk.config import get_settings
    from frontdesk.errors import FrontdeskError
    from frontdesk.eval.agent_suites import calibrate_gate
    from frontdesk.eval.datasets import load_dataset
    from frontdesk.runtime import Models

    settings = get_settings()
    try:
        cases = load_dataset("no_context", dataset or CALIBRATION_SET)
        knowledge, _ = open_knowledge(settings, Models(settings))
        result = calibrate_gate(cases, gate_scores_target(knowledge))
    except (FrontdeskError, ValueError) as exc:
        console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(1) from None
    if as_json:
        out.print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    chosen = result["chosen"]
    out.print(
        f"threshold {chosen['threshold']:.3f} (best-F1 plateau {result['plateau'][0]:.3f}-"
        f"{result['plateau'][1]:.3f}) on {result['rows']} rows: precision "
        f"{chosen['precision']:.3f}, recall {chosen['recall']:.3f}, F1 {chosen['f1']:.3f}"
    )
    stats = index_stats(settings)
    if stats:
        out.print(f"index similarity percentiles: {json.dumps(stats, sort_keys=True)}")
