"""Untagged and nightly builds of SGLang's main: what release they bound, never one they are not.

A ``0.5.11.dev45+g...`` version is setuptools-scm's for 45 commits past the highest tag (sglang's
tools/get_version_tag.py), so its code lies between the release before 0.5.11 and 0.5.11; a
``lmsysorg/sglang:nightly-dev-...-YYYYMMDD-...`` image is main on that day.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.sglang_version import find_sglang_version, nightly_day

_EAGLE = (
    "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE"
    " --speculative-draft-model-path d --speculative-num-steps 3"
)
_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3/site-packages/torch/nn/modules/module.py", line 1751, in _call_impl',
    "    return forward_call(*args, **kwargs)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def test_a_dev_build_inside_one_rule_reads_as_its_release() -> None:
    """0.5.9.dev3 follows 0.5.8, whose row 0.5.9 shares: the rule is that row's either way."""
    assert find_sglang_version("sglang: 0.5.9.dev3+gabc1234") == (0, 5, 9)
    assert find_sglang_version("sglang: 0.5.4.post2.dev123+g1234567") == (0, 5, 4, 2)


def test_a_dev_build_across_a_rule_change_names_no_release() -> None:
    """0.5.11.dev45 may or may not hold 0.5.11's spec-v2 default; 0.5.13.dev2 may still hold
    the v1 worker: neither is read as the release it precedes."""
    assert find_sglang_version("sglang: 0.5.11.dev45+gabc1234") is None
    assert find_sglang_version("sglang: 0.5.13.dev2+gabc1234") is None
    assert find_sglang_version("sglang==0.5.6rc0") == (0, 5, 6)  # a release candidate is the release


def test_a_dev_build_before_the_default_flip_is_a_condition(tmp_path: Path) -> None:
    """An EAGLE launch on 0.5.11.dev45 with no switch: v2 or v1 by whether the build holds the
    0.5.11 default, a condition (it was decided v2 as if it were 0.5.11)."""
    lines = ["sglang: 0.5.11.dev45+gabc1234", _EAGLE, *_CRASH]
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_nightly_tag_names_its_build_day() -> None:
    assert nightly_day("image: lmsysorg/sglang:nightly-dev-cu13-20260624-b2c8f7a2") == date(2026, 6, 24)
    assert nightly_day("docker pull lmsysorg/sglang:dev") is None
    assert nightly_day("lmsysorg/sglang:v0.5.6-cu129") is None


def test_a_nightly_image_bounds_a_later_post(tmp_path: Path) -> None:
    """A post of Sep 2026 runs a nightly built 2025-09-15: main of that day ships by 0.5.5 at the
    latest, when EAGLE without SGLANG_ENABLE_SPEC_V2 ran v1 EAGLEWorker."""
    lines = [
        "sgl-project/sglang · issue #30000 · open · Python",
        "# [Bug] EAGLE crash on a nightly image",
        "",
        "someone · description · 2026-09-01",
        f"docker run --gpus all lmsysorg/sglang:nightly-dev-20250915-abc1234 {_EAGLE}",
        *_CRASH,
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")
