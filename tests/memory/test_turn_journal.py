"""The turn journal in threads.sqlite: a question is kept from before the turn runs until it
ends, and one left by an earlier server run is a question never answered."""

from frontdesk.memory.threads import ThreadStore


def test_a_turn_in_progress_is_not_unanswered_until_its_server_run_is_gone(tmp_path):
    path = tmp_path / "threads.sqlite"
    first_run = ThreadStore(path)
    first_run.begin_turn_sync("concierge", "t1", "Is the pool heated?")
    assert first_run.unanswered_sync("concierge", "t1") is None  # still being answered
    first_run.close()  # the process died: the row was never removed

    restarted = ThreadStore(path)
    assert restarted.unanswered_sync("concierge", "t1") == "Is the pool heated?"
    assert restarted.unanswered_sync("concierge", "t2") is None
    assert restarted.unanswered_sync("telecom", "t1") is None

    # Asked again: the new turn supersedes the cut-off one, and ends.
    turn = restarted.begin_turn_sync("concierge", "t1", "Is the pool heated?")
    restarted.end_turn_sync(turn)
    restarted.close()
    assert ThreadStore(path).unanswered_sync("concierge", "t1") is None


def test_a_turn_that_ended_leaves_nothing(tmp_path):
    path = tmp_path / "threads.sqlite"
    store = ThreadStore(path)
    turn = store.begin_turn_sync("analyst", "acme:1", "How many invoices?")
    store.end_turn_sync(turn)
    store.close()
    assert ThreadStore(path).unanswered_sync("analyst", "acme:1") is None
