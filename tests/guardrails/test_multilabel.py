"""The multi-label learned classifier: what a fitted detector flags, how its thresholds hold the
benign target, that leave-one-source-out never sees the held source, saved weights and their
staleness, the JSONL loader's errors, and reuse of current weights. Synthetic clusters in 16
dimensions stand in for embeddings, so only the last test needs the real model."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from frontdesk.guardrails import multilabel_eval
from frontdesk.guardrails.classifier import normalise
from frontdesk.guardrails.datasets import DatasetError
from frontdesk.guardrails.guard import weights_file
from frontdesk.guardrails.mlp import Mlp
from frontdesk.guardrails.multilabel import (
    LabelledText,
    LabelSpec,
    MultiLabelDetector,
    label_targets,
    load_labelled_texts,
    load_or_train,
    out_of_fold_scores,
    train,
    validation_folds,
)
from frontdesk.guardrails.multilabel_eval import evaluate, leave_one_source_out_report

DIM = 16
SPEC = LabelSpec(labels=("alpha", "beta"), false_positive_rate=0.05)


def _axis(*weights: tuple[int, float]) -> np.ndarray:
    centre = np.zeros(DIM)
    for axis, weight in weights:
        centre[axis] = weight
    return centre / np.linalg.norm(centre)


# Label clusters on their own axes; benign clusters elsewhere, one of them a look-alike that
# shares alpha's axis but leans mostly on its own.
CENTRES = {
    "alpha": _axis((0, 1.0)),
    "beta": _axis((1, 1.0)),
    "benign": _axis((2, 1.0)),
    "benign-other": _axis((3, 1.0), (4, 1.0)),
    "lookalike": _axis((0, 0.55), (5, 1.0)),
    "benign-third": _axis((6, 1.0)),
    # alpha rows of an odd style, on an axis no other alpha row uses.
    "alpha-odd": _axis((7, 1.0)),
}


def _sample(centre: str, count: int, rng: np.random.Generator, noise: float = 0.12) -> np.ndarray:
    return CENTRES[centre] + rng.normal(0, noise, (count, DIM))


def _dataset(
    seed: int = 0, *, odd: bool = False, single_source: bool = False, lookalike: bool = True
) -> tuple[list[LabelledText], np.ndarray]:
    """Two sources per label and three benign sources (the look-alike among them, unless
    `lookalike` is False); `odd` adds a third alpha source of another style."""
    rng = np.random.default_rng(seed)
    parts = [
        ("alpha", "alpha", "a1", 30),
        ("alpha", "alpha", "a2", 30),
        ("beta", "beta", "b1", 30),
        ("beta", "beta", "b2", 30),
        ("benign", "benign", "n1", 80),
        ("benign", "benign-other", "n2", 80),
        ("benign", "lookalike", "look", 60) if lookalike else ("benign", "benign-third", "n3", 60),
    ]
    if odd:
        parts.append(("alpha", "alpha-odd", "a-odd", 30))
    rows, vectors = [], []
    for label, centre, source, count in parts:
        vectors.append(_sample(centre, count, rng))
        rows += [
            LabelledText(f"{source} {i}", label, "only" if single_source else source)
            for i in range(count)
        ]
    return rows, np.vstack(vectors)


def test_fitted_detector_flags_its_labels_and_not_benign_lookalikes():
    rows, vectors = _dataset()
    detector = train(vectors, rows, SPEC, embeddings_id="fake-16")
    rng = np.random.default_rng(99)  # fresh rows, not the training ones
    assert all(detector.flags(v) == ("alpha",) for v in _sample("alpha", 50, rng))
    assert all(detector.top(v) == "beta" for v in _sample("beta", 50, rng))
    for centre in ("benign", "benign-other", "lookalike"):
        flagged = [detector.flags(v) for v in _sample(centre, 100, rng)]
        assert sum(bool(f) for f in flagged) <= 5, (centre, flagged)
    assert detector.top(_sample("benign", 1, rng)[0]) is None
    # A matrix gives (rows, labels); one vector gives (labels,), the same numbers.
    matrix = _sample("alpha", 4, rng)
    assert detector.scores(matrix).shape == (4, 2)
    assert np.allclose(detector.scores(matrix)[1], detector.scores(matrix[1]))


def test_flags_are_ordered_by_margin_over_each_labels_own_threshold():
    # Hand-set weights: label i scores the (normalised) vector's coordinate i.
    identity = Mlp(np.eye(3), np.zeros(3), np.eye(3), np.zeros(3))
    detector = MultiLabelDetector(("a", "b", "c"), identity, np.array([0.1, 0.0, 0.5]), "x", "d")
    vector = np.array([0.6, 0.4, 0.69])  # margins after normalising: 0.50, 0.40, 0.19
    assert detector.flags(vector) == ("a", "b", "c") and detector.top(vector) == "a"
    vector = np.array([0.2, 0.5, 0.8])  # c scores highest but is nearer its threshold
    assert detector.flags(vector) == ("b", "c", "a") and detector.top(vector) == "b"
    assert detector.flags([0.05, -1.0, 0.1]) == () and detector.top([0.05, -1.0, 0.1]) is None


@pytest.mark.parametrize("single_source", [False, True], ids=["by-source", "k-fold"])
def test_thresholds_keep_benign_share_under_target_on_training_folds(single_source):
    rows, vectors = _dataset(seed=3, single_source=single_source)
    spec = LabelSpec(
        labels=("alpha", "beta"), false_positive_rate=0.02, label_rates=(("beta", 0.1),)
    )
    detector = train(vectors, rows, spec, embeddings_id="fake-16")
    features = normalise(vectors)
    labels = np.array([row.label for row in rows])
    folds = validation_folds([row.source for row in rows])
    assert len(set(folds)) == (5 if single_source else 7)
    all_scores = out_of_fold_scores(features, label_targets(labels, spec), folds)
    for i, label in enumerate(spec.labels):
        scores = all_scores[:, i]
        benign_share = (scores[labels == "benign"] > detector.thresholds[i]).mean()
        assert benign_share <= spec.rate(label)
        # Not a vacuous threshold: most of the label's own out-of-fold rows are over it.
        assert (scores[labels == label] > detector.thresholds[i]).mean() > 0.9


def test_training_is_deterministic_and_needs_every_label():
    rows, vectors = _dataset(single_source=True)
    first = train(vectors, rows, SPEC, embeddings_id="x")
    second = train(vectors.copy(), list(rows), SPEC, embeddings_id="x")
    assert np.array_equal(first.model.hidden_weights, second.model.hidden_weights)
    assert np.array_equal(first.model.output_weights, second.model.output_weights)
    assert np.array_equal(first.thresholds, second.thresholds)
    no_beta = [i for i, row in enumerate(rows) if row.label != "beta"]
    with pytest.raises(ValueError, match="no training rows for \\['beta'\\]"):
        train(vectors[no_beta], [rows[i] for i in no_beta], SPEC, embeddings_id="x")
    with pytest.raises(ValueError, match="undeclared labels \\['gamma'\\]"):
        train(vectors[:1], [LabelledText("t", "gamma", "s")], SPEC, embeddings_id="x")


def test_leave_one_source_out_never_sees_the_held_source(monkeypatch):
    rows, vectors = _dataset(odd=True, lookalike=False)
    seen: list[set[str]] = []
    real_fit = multilabel_eval.fit_labels

    def spy(features, labels, sources, spec):
        seen.append(set(sources))
        return real_fit(features, labels, sources, spec)

    monkeypatch.setattr(multilabel_eval, "fit_labels", spy)
    held_order: list[str] = []
    flags = multilabel_eval.leave_one_source_out_flags(
        vectors, rows, SPEC, progress=held_order.append
    )
    all_sources = {row.source for row in rows}
    assert held_order == sorted(all_sources)
    assert [all_sources - fitted for fitted in seen] == [{source} for source in held_order]

    # The odd alpha source lies where no other alpha row does: unseen, it is missed...
    odd = np.array([row.source == "a-odd" for row in rows])
    assert flags[odd, 0].mean() < 0.2
    # ...but trained on, the detector finds that style.
    detector = train(vectors, rows, SPEC, embeddings_id="fake-16")
    fresh = _sample("alpha-odd", 50, np.random.default_rng(7))
    assert np.mean([detector.top(v) == "alpha" for v in fresh]) > 0.85

    report = leave_one_source_out_report(vectors, rows, SPEC)
    alpha = report.label("alpha")
    assert report.method == "leave-one-source-out" and alpha.rows == 90
    assert alpha.recall == pytest.approx(flags[[r.label == "alpha" for r in rows], 0].mean())
    assert alpha.recall < 0.75 and report.label("beta").recall > 0.9
    benign = np.array([row.label == "benign" for row in rows])
    assert report.benign_rows == int(benign.sum())
    assert report.benign_flag_rate == pytest.approx(flags[benign].any(axis=1).mean())
    assert report.benign_flag_rate >= max(r.benign_flag_rate for r in report.per_label)
    assert "benign (any label)" in multilabel_eval.format_report(report)


def test_leave_one_source_out_needs_two_sources():
    rows, vectors = _dataset(single_source=True)
    with pytest.raises(ValueError, match="at least two sources"):
        leave_one_source_out_report(vectors, rows, SPEC)


def test_evaluate_on_held_out_rows():
    rows, vectors = _dataset()
    detector = train(vectors, rows, SPEC, embeddings_id="fake-16")
    test_rows, test_vectors = _dataset(seed=11)
    report = evaluate(detector, test_vectors, test_rows)
    assert report.method == "held-out"
    assert report.label("alpha").recall >= 0.95 and report.label("beta").recall >= 0.95
    assert report.benign_flag_rate is not None and report.benign_flag_rate <= 0.05
    with pytest.raises(ValueError, match="gamma"):
        evaluate(detector, test_vectors[:1], [LabelledText("t", "gamma", "s")])


def test_weights_round_trip_and_staleness(tmp_path: Path):
    rows, vectors = _dataset()
    detector = train(vectors, rows, SPEC, embeddings_id="fake-16")
    path = tmp_path / "sub" / "w.npz"
    detector.save(path)
    assert [p.name for p in path.parent.iterdir()] == ["w.npz"]  # no temporary left behind
    loaded = MultiLabelDetector.load(path)
    assert loaded.labels == ("alpha", "beta") and loaded.benign == "benign"
    assert np.array_equal(loaded.scores(vectors), detector.scores(vectors))
    assert np.array_equal(loaded.thresholds, detector.thresholds)
    digest = SPEC.digest(rows)
    assert loaded.is_current("fake-16", digest)
    assert not loaded.is_current("fake-16", "another-digest")
    assert not loaded.is_current("other-space", digest)
    # Another declaration is another digest, even over the same rows.
    assert SPEC.digest(rows) != dataclasses.replace(SPEC, false_positive_rate=0.1).digest(rows)
    dataclasses.replace(detector, recipe="multilabel-ovr-v0").save(path)
    assert not MultiLabelDetector.load(path).is_current("fake-16", digest)
    path.write_bytes(b"not a zip file")
    with pytest.raises(ValueError):
        MultiLabelDetector.load(path)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_rows_load_with_source_defaulting_to_the_file_stem(tmp_path: Path):
    path = _write(
        tmp_path / "topics.jsonl",
        [
            json.dumps({"text": "What dose should I take?", "label": "alpha"}),
            "",
            json.dumps({"text": "¿Dónde está el spa?", "label": "benign", "source": "es"}),
        ],
    )
    assert load_labelled_texts(path, SPEC) == [
        LabelledText("What dose should I take?", "alpha", "topics"),
        LabelledText("¿Dónde está el spa?", "benign", "es"),
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("{not json", "not valid JSON"),
        ('["a list"]', "expected an object"),
        ('{"label": "alpha"}', "'text' must be a non-empty string"),
        ('{"text": "hi", "label": 3}', "'label' must be a non-empty string"),
        ('{"text": "hi", "label": "alpha", "source": ""}', "'source' must be"),
        ('{"text": "hi", "label": "gamma"}', "label 'gamma' is not one of"),
    ],
)
def test_a_bad_jsonl_row_names_file_and_line(tmp_path: Path, bad: str, message: str):
    good = json.dumps({"text": "fine", "label": "benign"})
    path = _write(tmp_path / "rows.jsonl", [good, good, bad])
    with pytest.raises(DatasetError, match=f"rows.jsonl:3: {message}"):
        load_labelled_texts(path, SPEC)


class ClusterEmbeddings(Embeddings):
    """Fake embeddings that place a text on its cluster ("alpha 3" -> alpha's axis) with noise
    seeded by the text, and count what they embed."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def _vector(self, text: str) -> list[float]:
        centre = text.split()[0]
        seed = int.from_bytes(text.encode("utf-8")[-8:].rjust(8, b"\0"), "big")
        return _sample(centre, 1, np.random.default_rng(seed))[0].tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def _rows(extra: int = 0) -> list[LabelledText]:
    plan = [
        ("alpha", "alpha", 30),
        ("beta", "beta", 30),
        ("benign", "benign", 40),
        ("benign-other", "benign", 40),
        ("lookalike", "benign", 30),
    ]
    rows = [LabelledText(f"{c} {i}", label, c) for c, label, n in plan for i in range(n)]
    return rows + [LabelledText(f"alpha extra {i}", "alpha", "alpha") for i in range(extra)]


def test_load_or_train_reuses_current_weights_and_retrains_on_changed_data(tmp_path: Path):
    embeddings = ClusterEmbeddings()
    rows = _rows()
    first = load_or_train(embeddings, rows, tmp_path, "topics", spec=SPEC, space="fake-16")
    assert first is not None and len(embeddings.embedded) == len(rows)
    saved = weights_file(tmp_path, "fake-16", "topics")
    assert saved.name == "topics-fake-16.npz" and saved.is_file()
    assert first.flags(embeddings.embed_query("alpha new question")) == ("alpha",)

    embeddings.embedded.clear()
    again = load_or_train(embeddings, rows, tmp_path, "topics", spec=SPEC, space="fake-16")
    assert embeddings.embedded == []  # current weights: nothing embedded, nothing trained
    assert np.array_equal(again.model.output_weights, first.model.output_weights)

    changed = _rows(extra=5)
    retrained = load_or_train(embeddings, changed, tmp_path, "topics", spec=SPEC, space="fake-16")
    assert len(embeddings.embedded) == len(changed)
    assert retrained.data_digest != first.data_digest
    assert MultiLabelDetector.load(saved).data_digest == retrained.data_digest

    embeddings.embedded.clear()
    stricter = dataclasses.replace(SPEC, false_positive_rate=0.0)
    load_or_train(embeddings, changed, tmp_path, "topics", spec=stricter, space="fake-16")
    assert len(embeddings.embedded) == len(changed)  # another declaration retrains too


def test_load_or_train_prefers_shipped_weights_and_survives_a_corrupt_file(tmp_path: Path):
    embeddings = ClusterEmbeddings()
    rows = _rows()
    shipped = tmp_path / "shipped"
    load_or_train(embeddings, rows, shipped, "topics", space="fake-16")  # spec from the rows
    local = tmp_path / "local"
    embeddings.embedded.clear()
    detector = load_or_train(
        embeddings, rows, local, "topics", shipped_dir=shipped, space="fake-16"
    )
    assert detector is not None and detector.labels == ("alpha", "beta")
    assert embeddings.embedded == [] and not local.exists()

    weights_file(shipped, "fake-16", "topics").write_bytes(b"garbage")
    assert load_or_train(embeddings, rows, local, "topics", shipped_dir=shipped, space="fake-16")
    assert len(embeddings.embedded) == len(rows)


def test_load_or_train_without_a_known_vector_space_is_off(tmp_path: Path):
    assert load_or_train(ClusterEmbeddings(), _rows(), tmp_path, "topics") is None
    with pytest.raises(ValueError, match="name must be"):
        load_or_train(ClusterEmbeddings(), _rows(), tmp_path, "../escape", space="fake-16")


@pytest.mark.model
def test_real_embeddings_flag_a_paraphrase(tmp_path: Path):
    from frontdesk.config import Settings
    from frontdesk.embeddings import MiniLMEmbeddings
    from frontdesk.embeddings.minilm import ONNX_MODEL, TOKENIZER
    from frontdesk.model_files import is_verified

    settings = Settings()
    if not all(is_verified(m.path(settings.models_dir), m.sha256) for m in (ONNX_MODEL, TOKENIZER)):
        pytest.skip("MiniLM not installed: frontdesk models install")
    rows = load_labelled_texts(Path(__file__).parent / "data" / "multilabel_topics.jsonl")
    spec = LabelSpec(labels=("medical", "legal"), false_positive_rate=0.0)
    embeddings = MiniLMEmbeddings.from_settings(settings)
    detector = load_or_train(embeddings, rows, tmp_path, "topics-test", spec=spec)
    assert detector is not None
    texts = {
        "Is it safe to give my toddler paracetamol for a fever, and how much?": "medical",
        "My neighbour is suing me over the fence; do I need an attorney?": "legal",
    }
    for text, label in texts.items():
        assert detector.top(embeddings.embed_query(text)) == label, text
    for text in ("What time does the pool open on Sunday?", "Can I change my seat at the show?"):
        assert detector.flags(embeddings.embed_query(text)) == (), text
