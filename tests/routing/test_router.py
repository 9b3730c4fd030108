import pytest

from frontdesk.routing.classifier import EmbeddingIntentClassifier, Example, load_examples
from frontdesk.routing.router import IntentRouter, fast_paths_for

EXAMPLES = [
    Example("what time does the pool open", "hours"),
    Example("pool opening hours", "hours"),
    Example("when does the spa close", "hours"),
    Example("book a massage for me", "action"),
    Example("reserve a table tonight", "action"),
    Example("cancel my room booking", "action"),
]


@pytest.fixture
def classifier(hash_embeddings, tmp_path):
    return EmbeddingIntentClassifier(
        hash_embeddings, EXAMPLES, cache_dir=tmp_path, embeddings_id="hash"
    )


def test_classifier_votes_for_the_nearest_label(classifier):
    prediction = classifier.predict("when does the pool close")
    assert prediction.label == "hours"
    assert 0.5 < prediction.confidence <= 1.0
    assert classifier.predict("please reserve a massage").label == "action"


def test_example_vectors_are_cached_on_disk(classifier, hash_embeddings, tmp_path):
    cached = list(tmp_path.glob("intent-examples-*.npy"))
    assert len(cached) == 1

    class Exploding:
        def embed_documents(self, texts):
            raise AssertionError("examples should come from the cache")

        def embed_query(self, text):
            return hash_embeddings.embed_query(text)

    again = EmbeddingIntentClassifier(
        Exploding(), EXAMPLES, cache_dir=tmp_path, embeddings_id="hash"
    )
    assert again.predict("pool opening hours").label == "hours"


def test_classifier_needs_examples(hash_embeddings):
    with pytest.raises(ValueError, match="at least one"):
        EmbeddingIntentClassifier(hash_embeddings, [])


def test_bad_example_file_names_the_line(tmp_path):
    path = tmp_path / "examples.jsonl"
    path.write_text('{"text": "hi", "label": "greeting"}\n{"text": "no label"}\n')
    with pytest.raises(ValueError, match="examples.jsonl:2"):
        load_examples(path)


async def test_fast_path_wins_without_the_classifier(classifier):
    router = IntentRouter(
        classifier, fast_paths=fast_paths_for("greeting", [r"(hi|hello)( there)?"])
    )
    decision = await router.route("  HELLO there!! ")
    assert (decision.label, decision.confidence, decision.method) == ("greeting", 1.0, "fast_path")


async def test_llm_consulted_only_when_the_classifier_is_unsure(classifier):
    asked = []

    async def llm(text):
        asked.append(text)
        return "action", 0.9

    router = IntentRouter(classifier, llm_route=llm, mode="auto", min_confidence=0.99)
    assert (await router.route("zzz unrelated words")).method == "llm"
    router.min_confidence = 0.0
    assert (await router.route("pool opening hours")).method == "classifier"
    assert asked == ["zzz unrelated words"]


async def test_llm_failure_or_unknown_label_keeps_the_classifier_answer(classifier):
    async def broken(text):
        raise TimeoutError("slow")

    async def confused(text):
        return "weather", 0.9

    for llm in (broken, confused):
        router = IntentRouter(classifier, llm_route=llm, mode="always")
        decision = await router.route("when does the spa close")
        assert (decision.label, decision.method) == ("hours", "classifier")


def test_domain_evidence_is_the_best_similarity_to_the_domain_texts(hash_embeddings):
    import numpy as np

    domain = np.asarray(hash_embeddings.embed_documents(["pool opening hours", "spa massage prices"]))
    classifier = EmbeddingIntentClassifier(
        hash_embeddings, EXAMPLES, domain_vectors=domain, domain_weight=3.0
    )
    query = np.asarray([hash_embeddings.embed_query("pool opening hours")])
    features = classifier._features(query / np.linalg.norm(query), ["pool opening hours"])
    assert features.shape == (1, query.shape[1] + 1)
    assert features[0, -1] == pytest.approx(3.0)  # identical to a domain text: cosine 1 x weight
    unrelated = np.asarray([hash_embeddings.embed_query("zebra quantum")])
    assert classifier._features(unrelated / np.linalg.norm(unrelated), ["zebra quantum"])[0, -1] < 1.5
    assert classifier.predict("when does the pool close").label == "hours"


def test_lexical_features_are_appended_and_weighted(hash_embeddings):
    import numpy as np

    from frontdesk.routing.keywords import KeywordCounts

    keywords = KeywordCounts([["pool", "swim"], ["spa"]])
    assert keywords.counts("Swimming pool, spa and pools") == [3, 1]
    classifier = EmbeddingIntentClassifier(
        hash_embeddings, EXAMPLES, lexical=keywords, lexical_weight=0.5
    )
    query = np.asarray([hash_embeddings.embed_query("pool")])
    features = classifier._features(query / np.linalg.norm(query), ["pool pool"])
    assert features.shape == (1, query.shape[1] + 3)
    lexical = features[0, -3:]
    assert lexical == pytest.approx(np.array([2, 0, 1]) / np.sqrt(5) * 0.5)


async def test_lazy_llm_route_binds_the_chat_model_only_when_called():
    from frontdesk.routing.router import lazy_llm_route

    class Models:
        loads = 0

        @property
        def chat(self):
            Models.loads += 1
            return "model"

    async def route(llm, text):
        return f"{llm}:{text}", 0.9

    models = Models()
    assert lazy_llm_route(models, route, enabled=False) is None
    bound = lazy_llm_route(models, route, enabled=True)
    assert Models.loads == 0
    assert await bound("hi") == ("model:hi", 0.9) and Models.loads == 1
