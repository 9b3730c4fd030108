"""Facts computed from the content at a fixed now: hours, events, offers, tenant scoping."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from frontdesk.assistants.casino_host.content import (
    CasinoContent,
    CasinoScopeError,
    UnknownCasinoError,
    UnknownItemError,
)

EASTERN = ZoneInfo("America/New_York")
PACIFIC = ZoneInfo("America/Los_Angeles")
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=EASTERN)  # a Wednesday


@pytest.fixture(scope="module")
def content() -> CasinoContent:
    return CasinoContent.load()


@pytest.fixture(scope="module")
def mohegan(content):
    return content.catalog("mohegan_sun")


@pytest.fixture(scope="module")
def bellagio(content):
    return content.catalog("bellagio")


# -- tenant scoping ---------------------------------------------------------------------------


@pytest.mark.parametrize("casino_id", [None, "", "  "])
def test_a_lookup_without_a_casino_id_raises(content, casino_id):
    with pytest.raises(CasinoScopeError, match="casino_id"):
        content.catalog(casino_id)


def test_an_unknown_casino_raises_and_names_the_loaded_ones(content):
    with pytest.raises(UnknownCasinoError, match="'foxwoods'.*bellagio, mohegan_sun"):
        content.catalog("foxwoods")


def test_one_casinos_venue_is_unknown_to_the_other(bellagio, mohegan):
    assert mohegan.venue("michael_jordans_steak_house").name == "Michael Jordan's Steak House"
    with pytest.raises(UnknownItemError, match="no active venue 'michael_jordans_steak_house'"):
        bellagio.venue("michael_jordans_steak_house")
    with pytest.raises(ValueError, match="not a venue category"):
        mohegan.venues("promotions")


# -- hours ------------------------------------------------------------------------------------


def test_a_closed_day_has_no_periods(mohegan):
    monday = mohegan.hours_on("beauty_and_essex", date(2026, 11, 30))
    assert monday.closed and monday.periods == ()
    assert not mohegan.is_open("beauty_and_essex", datetime(2026, 11, 30, 19, 0, tzinfo=EASTERN))
    assert not mohegan.hours_on("beauty_and_essex", date(2026, 12, 4)).closed  # Friday


def test_a_venue_open_past_midnight_closes_on_the_next_date(mohegan):
    friday = mohegan.hours_on("bobbys_burgers", date(2026, 11, 27))
    (period,) = friday.periods
    assert period.opens == datetime(2026, 11, 27, 11, 0, tzinfo=EASTERN)
    assert period.closes == datetime(2026, 11, 28, 1, 0, tzinfo=EASTERN)
    # Saturday 00:30 is Friday's service; 01:30 is closed until Saturday 11:00.
    assert mohegan.is_open("bobbys_burgers", datetime(2026, 11, 28, 0, 30, tzinfo=EASTERN))
    assert not mohegan.is_open("bobbys_burgers", datetime(2026, 11, 28, 1, 30, tzinfo=EASTERN))
    assert mohegan.is_open("bobbys_burgers", datetime(2026, 11, 28, 11, 0, tzinfo=EASTERN))
    # Thursday closes at 11 PM: Friday 00:30 is closed.
    assert not mohegan.is_open("bobbys_burgers", datetime(2026, 11, 27, 0, 30, tzinfo=EASTERN))


def test_is_open_reads_the_moment_on_the_casinos_clock(mohegan, bellagio):
    # 05:30 UTC is 00:30 in Connecticut (Friday's late service) and 21:30 in Las Vegas.
    moment = datetime(2026, 11, 28, 5, 30, tzinfo=UTC)
    assert mohegan.is_open("bobbys_burgers", moment)
    assert bellagio.is_open("fountains_of_bellagio", moment)
    # The fountains stop at midnight Las Vegas time: 08:10 UTC is 00:10.
    assert not bellagio.is_open("fountains_of_bellagio", datetime(2026, 11, 28, 8, 10, tzinfo=UTC))


def test_a_day_with_two_services_has_a_gap(mohegan):
    sunday = mohegan.hours_on("michael_jordans_steak_house", date(2026, 11, 29))
    assert [p.label for p in sunday.periods] == ["brunch", None]
    assert mohegan.is_open(
        "michael_jordans_steak_house", datetime(2026, 11, 29, 12, tzinfo=EASTERN)
    )
    assert not mohegan.is_open(
        "michael_jordans_steak_house", datetime(2026, 11, 29, 16, tzinfo=EASTERN)
    )


def test_seasonal_venues_close_outside_their_months(mohegan, bellagio):
    assert not mohegan.hours_on("the_grille_at_mohegan_sun_golf_club", date(2026, 11, 25)).closed
    assert mohegan.hours_on("the_grille_at_mohegan_sun_golf_club", date(2026, 12, 2)).closed
    assert bellagio.hours_on("pool_cafe", date(2026, 11, 25)).closed
    assert not bellagio.hours_on("pool_cafe", date(2027, 6, 2)).closed


def test_round_the_clock_and_no_regular_hours(mohegan):
    assert mohegan.hours_on("casino_of_the_earth", date(2026, 11, 25)).round_the_clock
    assert mohegan.is_open("casino_of_the_earth", datetime(2026, 11, 25, 3, 0, tzinfo=EASTERN))
    # Concessions open on Arena event nights only: no weekly hours to compute from.
    assert mohegan.hours_on("mohegan_sun_arena_concessions", date(2026, 11, 25)) is None
    assert mohegan.is_open("mohegan_sun_arena_concessions", NOW) is None


def test_naive_times_are_refused(mohegan):
    with pytest.raises(ValueError, match="timezone-aware"):
        mohegan.is_open("bobbys_burgers", datetime(2026, 11, 28, 0, 30))


def test_business_hours_for_escalation_replies(mohegan, bellagio):
    assert mohegan.in_business_hours(NOW)
    assert not mohegan.in_business_hours(datetime(2026, 11, 28, 19, 0, tzinfo=EASTERN))  # Sat
    assert not bellagio.in_business_hours(datetime(2026, 11, 25, 6, 0, tzinfo=PACIFIC))


# -- events -----------------------------------------------------------------------------------


def test_events_between_dates_lists_showtimes_in_order(mohegan):
    showings = mohegan.events_between(date(2026, 11, 27), date(2026, 11, 29))
    assert [s.starts_at for s in showings] == sorted(s.starts_at for s in showings)
    named = {(s.event.id, s.starts_at.isoformat()) for s in showings}
    assert ("comedy_headliners_weekend", "2026-11-27T20:00:00-05:00") in named
    assert ("holiday_pops_spectacular", "2026-11-28T19:30:00-05:00") in named
    assert ("daily_poker_tournaments", "2026-11-28T11:00:00-05:00") in named
    assert all(s.event.id != "motown_revue" for s in showings)  # December 3
    assert len([s for s in showings if s.event.id == "daily_poker_tournaments"]) == 4


def test_the_window_includes_its_start_and_excludes_its_end(mohegan):
    start = datetime(2026, 11, 28, 19, 30, tzinfo=EASTERN)
    end = datetime(2026, 11, 28, 21, 30, tzinfo=EASTERN)
    ids = [s.event.id for s in mohegan.events_between(start, end)]
    assert ids == ["holiday_pops_spectacular"]
    with pytest.raises(ValueError, match="end is before start"):
        mohegan.events_between(end, start)


def test_a_resident_show_recurs_weekly_except_on_dark_dates(bellagio):
    def o_shows(day: date) -> list[str]:
        return [
            s.starts_at.strftime("%H:%M")
            for s in bellagio.events_between(day, date.fromordinal(day.toordinal() + 1))
            if s.event.id == "o_by_cirque_du_soleil"
        ]

    assert o_shows(date(2026, 12, 23)) == ["19:00", "21:30"]  # Wednesday
    assert o_shows(date(2026, 12, 21)) == []  # Monday: dark day of the week
    assert o_shows(date(2026, 12, 24)) == []  # Thursday, a dark date


def test_exhibitions_count_when_they_overlap_the_window(bellagio):
    ids = {s.event.id for s in bellagio.events_between(date(2026, 11, 25), date(2026, 11, 27))}
    assert "conservatory_autumn_display" in ids
    assert "conservatory_holiday_display" not in ids
    new_year = bellagio.events_between(
        datetime(2026, 12, 31, 22, 0, tzinfo=PACIFIC), datetime(2027, 1, 1, 2, 0, tzinfo=PACIFIC)
    )
    runs = {s.event.id: s for s in new_year if s.ends_at is not None}
    assert {"new_years_eve_at_bellagio", "conservatory_holiday_display"} <= set(runs)
    assert runs["new_years_eve_at_bellagio"].ends_at == datetime(2027, 1, 1, 0, 0, tzinfo=PACIFIC)


# -- offers -----------------------------------------------------------------------------------


def test_active_promotions_at_a_fixed_now(mohegan):
    active = {p.id for p in mohegan.active_promotions(NOW)}
    assert {"host_free_play_welcome", "host_welcome_dining_credit", "vip_evening_package"} <= active
    assert "summer_sizzle_free_play" not in active  # ended 2026-08-31
    assert "fall_harvest_dining_credit" not in active  # ended 2026-10-31
    assert "winter_getaway_hotel_offer" not in active  # starts 2027-01-04


def test_validity_ends_with_the_last_local_day(mohegan):
    last_evening = datetime(2027, 1, 1, 3, 0, tzinfo=UTC)  # 10 PM on Dec 31 in Connecticut
    after_midnight = datetime(2027, 1, 1, 5, 30, tzinfo=UTC)  # 00:30 on Jan 1
    assert "new_member_welcome_free_play" in {p.id for p in mohegan.active_promotions(last_evening)}
    assert "new_member_welcome_free_play" not in {
        p.id for p in mohegan.active_promotions(after_midnight)
    }


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (25, {"host_free_play_welcome", "stay_and_play_hotel_package"}),  # a package's part
        (25.01, {"host_free_play_welcome", "stay_and_play_hotel_package"}),
        (Decimal("24.99"), {"host_free_play_welcome", "stay_and_play_hotel_package"}),
        (25.02, set()),
        (30, set()),  # the $30 summer free play has expired
        (100, {"vip_evening_package"}),
    ],
)
def test_promotions_match_by_value_within_a_cent(mohegan, claim, expected):
    assert {p.id for p in mohegan.promotions_matching(claim, NOW)} == expected


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("We'd love to welcome you with $25 in free play", {"host_free_play_welcome",
                                                              "stay_and_play_hotel_package"}),
        ("a $25 dining credit", set()),  # a real $25 offer is free play, not dining
        ("$50 off your hotel stay", {"midweek_hotel_savings"}),
        ("a $50 dining credit with Stay and Play", {"stay_and_play_hotel_package"}),
        ("use promo code HOST50", {"midweek_hotel_savings"}),
        ("the Summer Sizzle Free Play", set()),  # named, but expired
        ("$1,000 in free play", set()),
        ("a free meal on us", set()),
    ],
)  # fmt: skip
def test_promotions_match_by_text(mohegan, claim, expected):
    assert {p.id for p in mohegan.promotions_matching(claim, NOW)} == expected


def test_the_best_match_is_the_named_offer(mohegan):
    assert mohegan.promotion_matching("Stay and Play: $25 free play", NOW).id == (
        "stay_and_play_hotel_package"
    )
    assert mohegan.promotion_matching("$7 off", NOW) is None
    with pytest.raises(TypeError, match="text or a number"):
        mohegan.promotions_matching(True, NOW)


def test_offers_are_matched_per_casino(bellagio, mohegan):
    # STAYPLAY is Mohegan Sun's code; Bellagio's active offers do not know it.
    assert mohegan.promotions_matching("STAYPLAY", NOW)
    assert bellagio.promotions_matching("STAYPLAY", NOW) == []
