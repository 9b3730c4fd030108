"""The compliance gate's learned layer (issue 33): its flags decide like a pattern of their
layer, a pattern's own id wins, the gate fails closed when the layer fails, and (with the
embedded model) the shipped weights are current and catch a risk worded without its keywords.
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import numpy as np
import pytest

from frontdesk.assistants.casino_host.compliance import check, evaluate
from frontdesk.assistants.casino_host.compliance.learned import (
    LEARNED_LAYERS,
    SHIPPED_WEIGHTS,
    LearnedLayer,
)
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.conversation.nodes import gate as gate_node
from frontdesk.assistants.casino_host.conversation.state import turn_state
from frontdesk.assistants.casino_host.profile import GuestProfile, OfferHistory
from frontdesk.guardrails.mlp import Mlp
from frontdesk.guardrails.multilabel import MultiLabelDetector

NOW = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)
CHASING = "used the rent money on blackjack last night, gotta win it back before friday"


def test_a_learned_flag_decides_like_a_pattern_of_its_layer():
    assert check(CHASING).outcome == "pass"  # no pattern knows these words
    result = check(CHASING, learned=("responsible_gaming",))
    assert (result.outcome, result.layer) == ("safety", "responsible_gaming")
    assert result.pattern_id == "learned_responsible_gaming"
    assert result.escalate == "P1" and result.responsible_gaming
    assert "1-800" in (result.reply or "")  # the helpline, as the pattern's reply gives


def test_a_patterns_own_id_wins_over_the_learned_flag_of_its_layer():
    result = check("I think I have a gambling problem", learned=("responsible_gaming",))
    assert result.pattern_id != "learned_responsible_gaming"
    assert [hit.layer for hit in result.hits].count("responsible_gaming") >= 1
    assert "learned_responsible_gaming" not in result.pattern_ids


def test_learned_flags_keep_the_gates_priority():
    result = check("hola", learned=("patron_privacy", "self_harm"))
    assert result.layer == "self_harm" and result.escalate == "P0"
    assert result.pattern_ids == ("learned_self_harm", "learned_patron_privacy")


def test_a_learned_age_flag_on_an_age_annotation_asks_for_the_age():
    text = "dinner for me and my 19 year old, and can she play the slots after"
    annotated = check("dinner for me and my kid")
    assert annotated.outcome == "annotate"
    assert check(text, learned=("age_verify",)).outcome == "safety"


def test_an_unknown_learned_layer_fails_closed():
    result = check("hello", learned=("not_a_layer",))
    assert result.outcome == "blocked" and result.layer == "error"


class _Embeddings:
    def __init__(self, fail: bool = False):
        self.fail = fail

    def embed_query(self, text: str) -> list[float]:
        if self.fail:
            raise RuntimeError("the embedding model is gone")
        return [1.0, 0.0] if "rent" in text else [0.0, 1.0]


def _layer(fail: bool = False) -> LearnedLayer:
    """A detector over two dimensions: the first is responsible gaming, the rest benign."""
    labels = LEARNED_LAYERS
    output = np.zeros((len(labels), 2))
    output[labels.index("responsible_gaming"), 0] = 10.0
    detector = MultiLabelDetector(
        labels, Mlp(np.eye(2), np.zeros(2), output, np.full(len(labels), -5.0)),
        np.zeros(len(labels)), "fake-2", "digest",
    )  # fmt: skip
    return LearnedLayer(_Embeddings(fail), detector)


def _gate(text: str, layer: LearnedLayer) -> dict:
    content = CasinoContent.load()
    ctx = CasinoHostContext(
        services=SimpleNamespace(settings=None, learned_gate=layer),  # type: ignore[arg-type]
        catalog=content.catalog("mohegan_sun"),
        profile=GuestProfile(guest_uuid="g", created_at=NOW),
        offers=OfferHistory(),
        now=NOW,
    )
    state = turn_state(text, now=NOW, casino_id="mohegan_sun", guest_uuid="g")
    return gate_node.compliance_gate(state, SimpleNamespace(context=ctx))


def test_the_gate_node_runs_the_learned_layer_on_the_message():
    flagged = _gate(CHASING, _layer())
    assert flagged["compliance_outcome"] == "safety"
    assert flagged["guardrail_hits"] == [
        {"layer": "responsible_gaming", "pattern_id": "learned_responsible_gaming"}
    ]
    assert _gate("what time is the buffet", _layer())["compliance_outcome"] == "pass"


def test_the_gate_fails_closed_when_the_learned_layer_fails():
    update = _gate("what time is the buffet", _layer(fail=True))
    assert update["compliance_outcome"] == "blocked"
    assert update["speaker"] == "compliance_gate"


def test_evaluate_reports_the_gate_beyond_the_embedding():
    rows = [{"text": CHASING, "label": "responsible_gaming"},
            {"text": "what time is the buffet", "label": "benign"}]  # fmt: skip
    report = evaluate(rows, learned=_layer())
    assert report["layers"]["responsible_gaming"]["recall"] == 1.0
    assert report["benign"]["false_positives"] == 0
    assert report["embedding_ms"]["p95"] >= 0 and report["latency_ms"]["p95"] >= 0
    assert evaluate(rows)["embedding_ms"] is None
    assert evaluate(rows)["layers"]["responsible_gaming"]["recall"] == 0.0


@pytest.mark.model
def test_the_shipped_weights_are_current_and_catch_a_risk_without_its_keywords(tmp_path):
    from frontdesk.assistants.casino_host.build import load_learned_layer
    from frontdesk.config import get_settings
    from frontdesk.runtime import Models

    models = Models(get_settings())  # the installed embedded model
    layer = load_learned_layer(models.embeddings, tmp_path / "guard")
    assert layer is not None
    # Loaded from the shipped file: nothing was trained (a stale file would train here).
    assert not list((tmp_path / "guard").glob("*.npz")), (
        "shipped weights are stale: run `frontdesk casino_host gate train`"
    )
    assert list(SHIPPED_WEIGHTS.glob("*.npz"))
    assert "responsible_gaming" in layer.flags(CHASING)
    assert layer.flags("can my 12-year-old eat at the buffet with us tonight?") == ()
