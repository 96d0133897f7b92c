"""The sglang release a bug report shows, and the worker-path era it puts the run in."""

from __future__ import annotations

import pytest

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.sglang_version import era_of, find_sglang_version
from spectrace.dialects.base import LogLine


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("sglang: 0.5.10.post1", (0, 5, 10, 1)),  # python3 -m sglang.check_env
        ("pip install sglang==0.4.3.post2", (0, 4, 3, 2)),
        ("docker run --gpus all lmsysorg/sglang:v0.5.16-cu129 python3 -m sglang.launch_server",
         (0, 5, 16)),
        ('  File "/work/sglang-0.4.7/python/sglang/srt/managers/scheduler.py", line 2506, in f',
         (0, 4, 7)),
        ('pip install "sglang[all]==0.5.6.post2"', (0, 5, 6, 2)),
        ("Successfully installed flashinfer-python-0.4.1 sglang-0.5.9 torch-2.8.0", (0, 5, 9)),
        ("Collecting sglang-router==0.2.1", None),  # the router is another package
        ("sglang: not installed", None),
        ("Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'x'", None),
    ],
)  # fmt: skip
def test_versions_as_reports_print_them(text: str, version: tuple[int, int, int] | None) -> None:
    assert find_sglang_version(text) == version


@pytest.mark.parametrize(
    ("version", "era"),
    [
        ((0, 4, 7), "0.4.x-0.5.3"), ((0, 5, 3), "0.4.x-0.5.3"),
        ((0, 5, 4), "0.5.4"), ((0, 5, 6), "0.5.5-0.5.6"), ((0, 5, 10), "0.5.7-0.5.10"),
        ((0, 5, 12), "0.5.11-0.5.12"), ((0, 5, 16), "0.5.13+"), ((0, 5, 23), "0.5.17+"),
        ((0, 6, 0), "0.5.17+"),
    ],
)  # fmt: skip
def test_eras(version: tuple[int, int, int], era: str) -> None:
    assert era_of(version) == era


def test_a_printed_version_outranks_a_warning_for_the_era() -> None:
    collector = ConfigCollector()
    for n, text in enumerate(
        [
            "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative "
            "algorithm.",
            "sglang: 0.5.9",
        ],
        1,
    ):
        collector.feed(LogLine("r.log", n, 0, text, text, "plain", ""))
    config = collector.result()
    assert (config.version, config.era, config.engine) == ("0.5.9", "0.5.7-0.5.10", "sglang")
    late = ConfigCollector()
    late.feed(LogLine("r.log", 1, 0, "sglang: 0.5.16", "sglang: 0.5.16", "plain", ""))
    assert late.result().era == "0.5.13+"


@pytest.mark.parametrize(
    ("text", "release"),
    [("- SGLang 0.5.17 (our-venv), flashinfer 0.6.1", (0, 5, 17)),
     ("I run sglang v0.5.10 with this command", (0, 5, 10)),
     ("SGLang version: 0.5.4.post2", (0, 5, 4, 2)),
     ("- SGLang `0.5.19.dev410+gedff717ef` (sha `edff717ef`)", (0, 5, 19)),
     ("sglang-router 0.2.1", None), ("sgl-kernel 0.3.9", None),
     ("/opt/sglang/0.5.1/bin", None)],
)  # fmt: skip
def test_a_release_named_in_prose_or_an_env_list(text: str, release) -> None:
    assert find_sglang_version(text) == release


def _bare_config(*texts: str):
    collector = ConfigCollector()
    for n, text in enumerate(texts, 1):
        collector.feed(LogLine("r.md", n, 0, text, text, "plain", ""))
    return collector.result()


def test_a_bare_release_in_an_sglang_title_bounds_the_era() -> None:
    """``(..., v0.5.16)`` in a report about SGLang names its release: from 0.5.13 no v1 worker
    exists, so the EAGLE the text names runs on EAGLEWorkerV2."""
    config = _bare_config(
        "# SGLang: drafting halves prefix-cache hits (H200, v0.5.16)",
        "Turning on EAGLE speculative decoding drops the hit rate.",
    )
    assert (config.version, config.era, config.engine) == ("0.5.16", "0.5.13+", "sglang")
    assert any(e.worker_class == "EAGLEWorkerV2" for e in config.path_evidence)


@pytest.mark.parametrize(
    "texts",
    [
        # another package's number, two different releases, a text not about sglang
        ("# SGLang: EAGLE slows decode", "flashinfer v0.5.16 is installed"),
        ("# SGLang: EAGLE slows decode (v0.5.16)", "It was fine on v0.5.9."),
        ("# EAGLE slows decode (v0.5.16)", "Turning on EAGLE drops throughput."),
    ],
)
def test_a_bare_release_is_not_read_where_it_may_be_another(texts: tuple[str, ...]) -> None:
    config = _bare_config(*texts)
    assert config.version is None
    assert not any(e.worker_class for e in config.path_evidence)
