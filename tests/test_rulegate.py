"""A rule's literal gate only skips texts its regex could never match (crash-storm speed-up)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from spectrace.assemblers.crash import Frame
from spectrace.path_frames import frame_signature, frame_signatures
from spectrace.rulegate import GateIndex, gate_literals
from spectrace.ruleset import RuleSet

RULES = RuleSet.load()
PATTERNS = [r.pattern for r in (*RULES.crash, *RULES.benign)]
# pieces of the rules' own texts, so drawn lines often hold (part of) a literal
PIECES = sorted({lit for p in PATTERNS for lit in p.gate or ()} | {"Error", ": ", " ", "0", "("})


def test_alternation_gates_on_each_arm() -> None:
    assert set(gate_literals(r"(?:CUDA|HIP) out of memory|OutOfMemoryError") or ()) == {
        " out of memory",
        "OutOfMemoryError",
    }


def test_a_pattern_without_a_safe_literal_has_no_gate() -> None:
    assert gate_literals(r"(?i)killed") is None
    assert gate_literals(r"foo|\d+") is None
    assert gate_literals(r"(?:abc)?\d") is None
    assert gate_literals(r"x(?i:abc)") == ("x",)


def test_most_builtin_rules_have_a_gate() -> None:
    assert sum(p.gate is not None for p in PATTERNS) >= len(PATTERNS) - 2


def test_user_patterns_are_never_gated(tmp_path: object) -> None:
    """``regex`` syntax that ``re`` reads as literals (fuzzy ``{e<=1}``) must not become a gate."""
    d = tmp_path / "rules"  # type: ignore[operator]
    d.mkdir()
    (d / "mine.toml").write_text(
        '[[crash]]\nid = "fuzzy"\npattern = "(?:CUDA){e<=1} boom"\nliterals = ["boom"]\n'
    )
    rule = next(r for r in RuleSet.load([d]).crash if r.id == "fuzzy")
    assert rule.pattern.gate is None
    assert rule.pattern.search("CUDB boom") is not None


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=8).map("".join))
def test_gated_search_finds_what_the_regex_finds(text: str) -> None:
    for pattern in PATTERNS:
        expected = pattern.compiled.search(text)
        got = pattern.search(text)
        assert (got is None) == (expected is None), (pattern.text, text)


def test_gates_agree_with_the_regexes_on_every_sample_log_line() -> None:
    root = Path(__file__).resolve().parent.parent / "sample_logs"
    lines = {
        line
        for log in root.glob("*/*.log")
        for line in log.read_text("utf-8", errors="replace").splitlines()
    }
    assert len(lines) > 500
    matched = 0
    for pattern in PATTERNS:
        for line in lines:
            expected = pattern.compiled.search(line) is not None
            assert (pattern.search(line) is not None) == expected, (pattern.text, line)
            matched += expected
    assert matched > 50


def test_frame_signature_index_keeps_the_first_match() -> None:
    for sig in frame_signatures():
        frame = Frame("/site/pkg/" + sig.name, 1, sig.function or "f")
        found = frame_signature(frame)
        first = next(
            s
            for s in frame_signatures()
            if ("/site/pkg/" + sig.name).endswith("/" + s.name)
            and (s.function is None or s.function == frame.function)
        )
        assert found is first
    assert frame_signature(Frame("C:\\sglang\\speculative\\eagle_worker.py", 1, "f")) is not None
    assert frame_signature(Frame("/x/not_eagle_worker.py", 1, "f")) is None


GATES = [p.gate for p in PATTERNS]
INDEX = GateIndex(GATES)


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=8).map("".join))
def test_the_index_names_exactly_the_rules_whose_gate_a_text_holds(text: str) -> None:
    expected = [i for i, g in enumerate(GATES) if g is None or any(lit in text for lit in g)]
    assert INDEX.candidates(text) == expected


def test_overlapping_literals_are_all_found() -> None:
    index = GateIndex([("Error",), ("CUDA error",), (" error",), ("rror: x",), None])
    assert index.candidates("CUDA error: x") == [1, 2, 3, 4]
    assert index.candidates("RuntimeError: x") == [0, 3, 4]
    assert index.candidates("nothing") == [4]
