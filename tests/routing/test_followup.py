import pytest

from frontdesk.routing.followup import is_follow_up


@pytest.mark.parametrize(
    "text, expected",
    [
        ("and on sundays?", True),
        ("what time does it close on saturday?", True),
        ("do they take reservations for a party of ten people", True),
        ("what time does the buffet close on saturday night", False),
    ],
)
def test_is_follow_up(text, expected):
    assert is_follow_up(text) is expected
