"""What `frontdesk eval SUITE --assistant NAME` runs a suite against, built from the plug-in.

The core's suites come from what every plug-in may have (knowledge, a router, a service):
retrieval, routing, guardrails and answers. Anything else is the plug-in's own
(`AssistantPlugin.eval_targets`: telecom's NO_CONTEXT gate and tool calls, the analyst's SQL).
"""

from __future__ import annotations

import inspect
from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, EvalTarget
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError
from frontdesk.runtime import Models

CORE_SUITES = ("retrieval", "routing", "guardrails", "answers")


class SuiteUnavailableError(FrontdeskError):
    """The assistant does not offer the suite."""


def suites_of(plugin: AssistantPlugin) -> list[str]:
    """The suites an assistant can be measured on."""
    core = [
        suite
        for suite in CORE_SUITES
        if suite in ("guardrails", "answers")
        or (suite == "retrieval" and plugin.open_knowledge is not None)
        or (suite == "routing" and plugin.build_router is not None)
    ]
    return core + [suite for suite in plugin.eval_targets if suite not in core]


def default_dataset(plugin: AssistantPlugin, suite: str) -> Path | None:
    return plugin.eval_dir / f"{suite}.jsonl" if plugin.eval_dir is not None else None


async def build_target(
    plugin: AssistantPlugin, suite: str, settings: Settings, models: Models, dataset: Path
) -> EvalTarget:
    """The target for `suite` (raises `SuiteUnavailableError` naming the ones there are)."""
    if suite in plugin.eval_targets:
        built = plugin.eval_targets[suite](settings, models)
        return await built if inspect.isawaitable(built) else built
    if suite not in suites_of(plugin):
        raise SuiteUnavailableError(
            f"the {plugin.name} assistant has no '{suite}' suite; it has: "
            f"{', '.join(suites_of(plugin))}"
        )
    if suite == "guardrails":
        from frontdesk.guardrails import guard_for

        guard = guard_for(models.embeddings)  # the rules, then the learned layer
        return EvalTarget(lambda text: guard.check(text).flagged)
    if suite == "retrieval":
        knowledge, _ = plugin.open_knowledge(settings, models)
        return EvalTarget(knowledge.retriever.search, {"top_k": plugin.retrieval_top_k})
    if suite == "routing":
        return await _routing_target(plugin, settings, models, dataset)
    return await _answers_target(plugin, settings, models)


async def _routing_target(
    plugin: AssistantPlugin, settings: Settings, models: Models, dataset: Path
) -> EvalTarget:
    knowledge, _ = plugin.open_knowledge(settings, models)
    router = plugin.build_router(
        settings, models, knowledge, use_llm=settings.router_llm != "never"
    )
    if router.llm_route is None:
        return EvalTarget(lambda text: _label(router.classify(text)))
    # The LLM router is async and the suite calls synchronously: route every row first
    # (the suite's latency figures then cover only the lookup).
    from frontdesk.eval.datasets import load_dataset

    routed = {c.text: await router.route(c.text) for c in load_dataset("routing", dataset)}
    return EvalTarget(lambda text: _label(routed[text]))


async def _answers_target(
    plugin: AssistantPlugin, settings: Settings, models: Models
) -> EvalTarget:
    from frontdesk.assistants.registry import load_services

    service = (await load_services(settings, models, [plugin.name]))[plugin.name]
    return EvalTarget(service.ask, close=service.aclose)


def _label(decision) -> tuple[str, float]:
    return decision.label, decision.confidence


async def run_suite(plugin: AssistantPlugin, suite: str, settings: Settings, dataset: Path):
    """Build the target, run the suite, release the target."""
    from frontdesk.eval.harness import evaluate

    built = await build_target(plugin, suite, settings, Models(settings), dataset)
    try:
        if built.run is not None:
            result = built.run(dataset)
            return await result if inspect.isawaitable(result) else result
        return await evaluate(suite, dataset, built.target, **built.options)
    finally:
        if built.close is not None:
            closed = built.close()
            if inspect.isawaitable(closed):
                await closed
