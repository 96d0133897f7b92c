"""Rule loading: built-ins, user dirs layered by id, bad rules named, user patterns time-boxed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.fatal import FatalMatcher
from spectrace.dialects.detect import LineParser
from spectrace.errors import RuleError
from spectrace.ruleset import RuleSet


def test_builtin_rules_load_with_literals_for_every_line_rule() -> None:
    rules = RuleSet.load()
    ids = [r.id for r in rules.crash]
    assert len(ids) == len(set(ids)) and "nccl_watchdog_timeout" in ids
    assert all(r.literals for r in rules.crash if r.scope != "exception")
    assert "sglang_ignore_import_error" in {r.id for r in rules.benign}


def test_user_rule_replaces_builtin_by_id_and_adds_new(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(
        '[[crash]]\nid = "oom_killed"\nenabled = false\n\n'
        '[[crash]]\nid = "my_fault"\npattern = \'MYFAULT code=(?P<msg>\\d+)\'\nclass = "mine"\nseverity = "fatal"\n'
    )
    rules = RuleSet.load([tmp_path])
    ids = {r.id for r in rules.crash}
    assert "oom_killed" not in ids and "my_fault" in ids
    mine = next(r for r in rules.crash if r.id == "my_fault")
    assert mine.literals == (b"MYFAULT code=",) and mine.pattern.user
    line = LineParser("u").parse(b"[2026-01-01 00:00:00 TP0] MYFAULT code=42", 1, 0)
    crash = FatalMatcher(rules).match_line(line)
    assert crash is not None and (crash.crash_class, crash.message, crash.severity) == (
        "mine",
        "42",
        "fatal",
    )


@pytest.mark.parametrize(
    ("body", "match"),
    [
        (
            '[[crash]]\nid = "bad"\npattern = "(unclosed"\n',
            r"bad\.toml: rule bad: key 'pattern' is not a valid regex",
        ),
        (
            '[[crash]]\nid = "bad2"\npattern = "x"\nseverity = "huge"\n',
            r"rule bad2: key 'severity'",
        ),
        (
            '[[crash]]\nid = "bad3"\npattern = "x"\ncolour = "red"\n',
            r"rule bad3: unknown key 'colour'",
        ),
        ('[[crash]]\npattern = "x"\n', r"has no string key 'id'"),
        ('[[crash]]\nid = "bad4"\npattern = "\\\\d+|x"\n', r"rule bad4: key 'literals' is needed"),
        ("[[crash]\n", r"not valid TOML"),
    ],
)
def test_bad_rules_name_file_rule_and_key(tmp_path: Path, body: str, match: str) -> None:
    (tmp_path / "bad.toml").write_text(body)
    with pytest.raises(RuleError, match=match):
        RuleSet.load([tmp_path])


def test_missing_rules_dir(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="does not exist"):
        RuleSet.load([tmp_path / "nope"])


def test_catastrophic_user_pattern_times_out_and_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "slow.toml").write_text("[[benign]]\nid = \"slow\"\npattern = '(a|aa)+$'\n")
    matcher = FatalMatcher(RuleSet.load([tmp_path]))
    line = LineParser("s").parse(b"a" * 40 + b"! Error", 7, 0)
    assert matcher.benign(line) is None
    assert matcher.issues == ["rule slow timed out on s:7; skipped for that line"]
    for _ in range(5):
        matcher.benign(line)
    assert matcher.issues[-1] == "rule slow timed out 3 times; skipped from here on"
    assert len(matcher.issues) == 4  # no more attempts once dropped
