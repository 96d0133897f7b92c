"""One reading of a vLLM release for every vLLM reader (rc, dev, post tags, a leading 'v')."""

from __future__ import annotations

import pytest

from spectrace.assemblers.vllm_release import base_release, parse_release


@pytest.mark.parametrize(
    ("text", "kept", "base"),
    [
        ("v0.26.1rc1", "0.26.1rc1", "0.26.1"),
        ("0.9.2.dev121+g4c8f64faa", "0.9.2.dev121+g4c8f64faa", "0.9.2"),
        ("0.6.3.post1", "0.6.3.post1", "0.6.3"),
        ("v0.34.0", "0.34.0", "0.34.0"),
        (" 0.20.1 ", "0.20.1", "0.20.1"),
    ],
)
def test_a_release_keeps_or_drops_its_tag(text: str, kept: str, base: str) -> None:
    assert str(parse_release(text)) == kept and str(base_release(text)) == base


@pytest.mark.parametrize("text", ["", None, "0.", "main", "${VLLM_VERSION}", "latest"])
def test_no_release_is_read_from_what_is_not_one(text: object) -> None:
    assert parse_release(text) is None and base_release(text) is None


def test_rc_rows_order_before_their_release() -> None:
    """A table row's rc tag stays: vllm-ascend's v0.28.0rc1 comes before its v0.28.0."""
    first, final = parse_release("v0.28.0rc1"), parse_release("v0.28.0")
    assert first is not None and final is not None and first < final
