"""The house rules players read (kiosk_ui/web/house_rules.toml) and the casino's clock."""

from __future__ import annotations

import pytest

from games import catalog
from games.core.errors import PaytableError
from kiosk_ui.settings import SettingsError, parse
from kiosk_ui.web.house_rules import parse_rules, rules_for, variants

# The families this session's text covers; a family added later writes its own lines.
FAMILIES = [
    "baccarat",
    "blackjack",
    "caribbean_stud",
    "craps",
    "holdem",
    "let_it_ride",
    "pai_gow",
    "poker_room",
    "roulette",
    "sicbo",
    "three_card",
    "video_poker",
    "war",
]
# Words of the variants' engineering notes that a player's text never needs.
ENGINEERING = ("page", "Standard", "README", "reading", "gap ", "engine", "configurable", "cents")


def test_every_variant_of_these_families_has_rules_written_for_players() -> None:
    for family in FAMILIES:
        for v in catalog.families()[family].VARIANTS:
            lines = rules_for(v.id)
            assert lines, f"{v.id}: no house rules"
            for line in lines:
                for word in ENGINEERING:
                    assert word not in line, f"{v.id}: {word!r} in {line!r}"
    assert variants() <= set(catalog.variants()), "house rules for a variant that is gone"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"spec": 2, "rules": {}}, "spec must be 1"),
        ({"spec": 1, "rules": {"x": []}}, "list of non-empty strings"),
        ({"spec": 1, "rules": {"x": ["ok", ""]}}, "list of non-empty strings"),
        ({"spec": 1, "rules": {"x": "one line"}}, "list of non-empty strings"),
    ],
)
def test_a_malformed_rules_file_is_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(PaytableError, match=message):
        parse_rules(data, "t.toml")


def test_the_casino_time_zone_is_checked_when_settings_load(tmp_path: object) -> None:
    base = {"store": {"dir": "s"}, "lobby": {"time_zone": "Europe/Lisbon"}}
    assert parse(base, source="t").time_zone == "Europe/Lisbon"
    with pytest.raises(SettingsError, match="unknown time zone 'Mars/Olympus'"):
        parse({**base, "lobby": {"time_zone": "Mars/Olympus"}}, source="t")
