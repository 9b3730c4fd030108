"""Loading a casino folder: a bad file stops the load with an error naming file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from frontdesk.assistants.casino_host.content import (
    DATA_ROOT,
    CasinoContent,
    ContentError,
    WeeklyHours,
    load_catalog,
)


@pytest.fixture
def bellagio(tmp_path: Path) -> Path:
    """A writable copy of the shipped Bellagio folder."""
    return Path(shutil.copytree(DATA_ROOT / "bellagio", tmp_path / "bellagio"))


def edit(folder: Path, name: str, change) -> None:
    """Apply `change` to the parsed YAML of `folder/name` and write it back."""
    path = folder / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def by_id(items: list[dict], item_id: str) -> dict:
    return next(item for item in items if item["id"] == item_id)


def test_the_unedited_copy_loads(bellagio):
    assert len(load_catalog(bellagio).items()) >= 60


def test_a_missing_weekday_names_the_file_item_and_field(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "picasso")["hours"].pop("mon-tue"))
    with pytest.raises(ContentError) as raised:
        load_catalog(bellagio)
    message = str(raised.value)
    assert "bellagio/dining.yaml" in message and "(picasso)" in message
    assert "hours" in message and "no hours for mon, tue" in message


def test_a_malformed_period_is_refused(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "noodles")["hours"].update(
        {"fri-sat": "11am-2am"}))  # fmt: skip
    with pytest.raises(ContentError, match=r"dining\.yaml: item \d+ \(noodles\): hours.*11am-2am"):
        load_catalog(bellagio)


def test_a_promotion_ending_before_it_starts_is_refused(bellagio):
    edit(bellagio, "promotions.yaml", lambda d: by_id(d, "host_dining_credit").update(
        {"valid_until": "2026-01-01"}))  # fmt: skip
    with pytest.raises(ContentError, match=r"promotions\.yaml.*host_dining_credit.*valid_until"):
        load_catalog(bellagio)


def test_a_promotion_without_redemption_instruction_is_refused(bellagio):
    edit(bellagio, "promotions.yaml", lambda d: by_id(d, "host_dining_credit").pop(
        "redemption_instruction"))  # fmt: skip
    with pytest.raises(ContentError, match=r"host_dining_credit\): redemption_instruction"):
        load_catalog(bellagio)


def test_a_misspelt_field_is_refused_not_ignored(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "picasso").update({"dresscode": "Formal"}))
    with pytest.raises(ContentError, match=r"\(picasso\): dresscode: Extra inputs"):
        load_catalog(bellagio)


def test_a_price_note_that_disagrees_with_the_numbers_is_refused(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "noodles").update({"price_to_usd": 30}))
    with pytest.raises(ContentError, match=r"\(noodles\).*\$38 is outside"):
        load_catalog(bellagio)


def test_a_venue_in_the_wrong_category_file_is_refused(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "noodles").update({"category": "spa"}))
    with pytest.raises(ContentError, match=r"\(noodles\): category: 'spa' in dining\.yaml"):
        load_catalog(bellagio)


def test_duplicate_ids_across_files_are_refused(bellagio):
    edit(bellagio, "spa.yaml", lambda d: by_id(d, "salon_bellagio").update({"id": "noodles"}))
    with pytest.raises(ContentError, match="id 'noodles' is used by a Venue and a Venue"):
        load_catalog(bellagio)


def test_an_event_at_an_unknown_venue_is_refused(bellagio):
    edit(bellagio, "events.yaml", lambda d: by_id(d, "o_by_cirque_du_soleil").update(
        {"venue_id": "mohegan_sun_arena"}))  # fmt: skip
    with pytest.raises(ContentError, match="venue_id 'mohegan_sun_arena' is not a venue"):
        load_catalog(bellagio)


def test_a_regulation_of_another_state_is_refused(bellagio):
    edit(bellagio, "regulations.yaml", lambda d: by_id(d, "smoking_rules").update({"state": "CT"}))
    with pytest.raises(ContentError, match="smoking_rules': state 'CT' is not the casino's"):
        load_catalog(bellagio)


def test_the_gaming_age_rule_must_match_casino_yaml(bellagio):
    edit(
        bellagio, "regulations.yaml", lambda d: by_id(d, "gaming_age_rule").update({"min_age": 18})
    )
    with pytest.raises(ContentError, match="min_age 18 differs"):
        load_catalog(bellagio)


def test_casino_yaml_is_checked_too(bellagio):
    edit(bellagio, "casino.yaml", lambda d: d.update({"timezone": "Pacific/Vegas"}))
    with pytest.raises(ContentError, match=r"bellagio/casino\.yaml: timezone: .*IANA"):
        load_catalog(bellagio)


def test_the_casino_id_must_be_its_folder(tmp_path):
    folder = Path(shutil.copytree(DATA_ROOT / "bellagio", tmp_path / "bellagio_copy"))
    with pytest.raises(ContentError, match="must match its folder 'bellagio_copy'"):
        load_catalog(folder)


def test_broken_yaml_and_unknown_files_are_refused(bellagio):
    (bellagio / "spa.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"bellagio/spa\.yaml: not valid YAML"):
        load_catalog(bellagio)
    (bellagio / "spa.yaml").unlink()
    (bellagio / "restaurants.yaml").write_text("[]\n", encoding="utf-8")
    with pytest.raises(ContentError, match="unknown file.*restaurants.yaml"):
        load_catalog(bellagio)


def test_a_casino_folder_without_casino_yaml_fails_the_registry(tmp_path):
    shutil.copytree(DATA_ROOT / "bellagio", tmp_path / "bellagio")
    (tmp_path / "foxwoods").mkdir()
    with pytest.raises(ContentError, match="foxwoods: no casino.yaml"):
        CasinoContent.load(tmp_path)


def test_inactive_items_leave_lookups_but_stay_in_the_file(bellagio):
    edit(bellagio, "dining.yaml", lambda d: by_id(d, "noodles").update({"active": False}))
    catalog = load_catalog(bellagio)
    assert "noodles" not in {venue.id for venue in catalog.venues("dining")}
    assert "noodles" in {venue.id for venue in catalog.all_venues}
    with pytest.raises(KeyError, match="no active venue 'noodles' at Bellagio"):
        catalog.venue("noodles")


@pytest.mark.parametrize(
    ("hours", "error"),
    [
        ({"mon-sun": "09:00-17:00", "mon": "closed"}, "mon given as closed and as open"),
        ({"daily": ["09:00-14:00", "13:00-18:00"]}, "opening periods overlap"),
        ({"daily": "09:00-25:00"}, "not a time of day"),
        ({"dialy": "09:00-17:00"}, "'dialy' is not a day"),
        ({"daily": ["24h", "09:00-10:00"]}, "'24h' cannot be combined"),
    ],
)
def test_weekly_hours_refuse_contradictions(hours, error):
    with pytest.raises(ValueError, match=error):
        WeeklyHours.model_validate(hours)


def test_weekly_hours_accumulate_overlapping_keys_and_wrap_the_week():
    hours = WeeklyHours.model_validate(
        {"daily": "07:00-11:00 breakfast", "sun-thu": "17:00-22:00", "fri-sat": "17:00-01:00"}
    )
    assert [r.text() for r in hours.sun] == ["7:00 AM-11:00 AM (breakfast)", "5:00 PM-10:00 PM"]
    assert hours.fri[1].past_midnight and not hours.thu[1].past_midnight
    assert hours.text() == (
        "Sun-Thu 7:00 AM-11:00 AM (breakfast) and 5:00 PM-10:00 PM; "
        "Fri-Sat 7:00 AM-11:00 AM (breakfast) and 5:00 PM-1:00 AM"
    )
