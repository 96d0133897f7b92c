"""A crash's date bounds the release it ran (release_dates.newest_at), from the shipped
published.toml; a malformed table is a one-line RuleError."""

from __future__ import annotations

from datetime import date

import pytest
from packaging.version import Version

from spectrace.assemblers.release_dates import bound, newest_at, parse_days, published, read_table
from spectrace.errors import RuleError


@pytest.mark.parametrize(
    ("framework", "day", "newest"),
    [
        ("vllm", date(2026, 9, 21), "0.31.0"),  # 0.30.0 came out the next day
        ("vllm", date(2026, 9, 22), "0.32.0"),  # the day 0.30.0 came out
        ("vllm_ascend", date(2026, 9, 2), "0.27.1rc1"),  # 0.23.0.post1 between is no cut
        ("vllm_ascend", date(2026, 9, 3), "0.29.0rc1"),  # 0.28.0rc1 and 0.29.0rc1 share a day
        ("trtllm", date(2026, 9, 28), "1.4.0rc0"),
        ("trtllm", date(2026, 9, 29), "1.4.0rc1"),
    ],
)
def test_a_day_bounds_the_release_by_the_second_cut_after_it(framework, day, newest):
    """Main's code of a day ships by the second release cut after it (the first may have
    been branched before the day)."""
    assert newest_at(framework, day) == Version(newest)
    assert dict(published(framework))[Version(newest)] > day


def test_no_bound_before_the_table_or_near_its_end():
    """A clock never set (1970) or a day after the newest releases bounds nothing."""
    assert newest_at("vllm", date(1970, 1, 1)) is None
    newest_day = published("vllm")[-1][1]
    assert newest_at("vllm", newest_day) is None
    assert newest_at("no-such-framework", date(2026, 1, 1)) is None


def test_sglang_reads_its_era_table():
    assert newest_at("sglang", date(2025, 6, 1)) is not None
    assert published("sglang")[0][0] == Version("0.3.0")


def test_a_late_patch_of_an_old_line_does_not_lower_the_bound():
    rows = parse_days(
        {
            "1.0.0": date(2026, 1, 1),
            "1.1.0": date(2026, 2, 1),
            "1.0.1": date(2026, 2, 10),
            "1.0.0.post1": date(2026, 2, 12),
            "1.2.0rc0": date(2026, 3, 1),
            "1.2.0rc1": date(2026, 3, 1),
            "1.2.0": date(2026, 4, 1),
        },
        "t",
    )
    assert bound(rows, date(2026, 2, 5)) == Version("1.2.0")  # 1.0.1 / posts are no cut
    assert bound(rows, date(2026, 1, 15)) == Version("1.2.0rc1")  # one day's rcs are one cut


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"0.11.0": "2025-10-02"}, "'0.11.0' needs a date like"),
        ({"eleven": date(2025, 10, 2)}, "'eleven' is not a release"),
        (["0.11.0"], "must be a table"),
    ],
)
def test_malformed_rows_are_one_line_errors(raw, needle):
    with pytest.raises(RuleError) as err:
        parse_days(raw, "published.toml: [vllm]")
    assert needle in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("published.toml: [vllm]")


def test_broken_toml_is_one_line_naming_the_file():
    with pytest.raises(RuleError) as err:
        read_table('[vllm]\n"0.11.0" = \n"0.12.0" = 2025-11-01\n', "paths/published.toml")
    assert str(err.value).startswith("paths/published.toml: ") and "\n" not in str(err.value)
