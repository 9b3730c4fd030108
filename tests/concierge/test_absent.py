def test_a_field_asked_of_a_newly_named_place_is_not_read_with_the_question_before():
    # "gym hrs?" after the buffet's hours was answered with the buffet's hours again.
    from frontdesk.assistants.concierge.absent import leans_on_previous

    assert not leans_on_previous("gym hrs?")
    assert leans_on_previous("and the spa?")
    assert leans_on_previous("what about sunday?")
