"""compliance_gate (items 6-12): every regex layer and the learned layer on the guest's
message, before any model.

A blocked or safety turn ends here with the gate's own reply (D2); every hit's side effects
are recorded: the escalation request, the permanent responsible-gaming flag, the security
alert. A message holding numeric PII is replaced in the conversation by its redacted text, so
the number never reaches a model, the checkpoint or the transcript.
"""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from frontdesk.agentkit.streaming import message_text
from frontdesk.assistants.casino_host.compliance import check, failed_closed
from frontdesk.assistants.casino_host.compliance.language import language_hint
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.nodes.common import guest_message, reply
from frontdesk.assistants.casino_host.conversation.routing import COMPLIANCE_GATE

logger = logging.getLogger(__name__)


def compliance_gate(state: dict[str, Any], runtime: Runtime[CasinoHostContext]) -> dict[str, Any]:
    ctx = runtime.context
    message = guest_message(state.get("messages") or [])
    text = message_text(message) if message is not None else ""
    casino = ctx.catalog.casino
    language = ctx.view.language or state.get("language")
    learned_layer = ctx.services.learned_gate
    try:
        learned = learned_layer.flags(text) if learned_layer is not None else ()
    except Exception as exc:  # noqa: BLE001 - the gate fails closed (D9)
        logger.error("compliance gate: the learned layer failed (%s)", type(exc).__name__)
        result = failed_closed(text, language_hint(language))
    else:
        result = check(
            text,
            language=language,
            minimum_age=casino.gaming_age_minimum,
            state_helpline=casino.state_helpline,
            learned=learned,
        )
    update: dict[str, Any] = {
        "compliance_outcome": result.outcome,
        "guardrail_hits": [{"layer": h.layer, "pattern_id": h.pattern_id} for h in result.hits],
        "escalation_triggered": result.escalate,
        "responsible_gaming": result.responsible_gaming,
        "security_alert": result.security_alert,
        "language": result.language,
    }
    if result.escalate:
        update["escalation_request"] = {
            "severity": result.escalate,
            "reason": f"compliance:{result.layer}",
            "source": COMPLIANCE_GATE,
        }
    # PII redacted, and an MMS kept as its text only: no number and no media URL reaches a
    # model, the checkpoint or the transcript (items 12, G22).
    if message is not None and (
        result.redacted_text != text or not isinstance(message.content, str)
    ):
        update["messages"] = [HumanMessage(content=result.redacted_text, id=message.id)]
    if result.ends_turn and result.reply:
        answered = reply(state, result.reply, COMPLIANCE_GATE)
        update["messages"] = [*update.get("messages", []), *answered["messages"]]
        update["speaker"] = COMPLIANCE_GATE
    return update
