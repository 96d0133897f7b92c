"""Vendor builds of vLLM as releases, and speculative JSON pasted with escaped quotes (issue 11,
round 35): Intel's LLM Scaler images lead their tag with the vLLM release they are based on,
and a ``--speculative-config`` copied out of a YAML or JSON string keeps its ``\\"``. Every case
is our own text, with other models, methods and releases than the study excerpt."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread

from spectrace.assemblers.image_tags import image_release, image_tags


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("docker pull intel/llm-scaler-vllm:0.14.0-b8", "0.14.0"),
        ("    image: intel/llm-scaler-vllm:0.26.0-b2.1", "0.26.0"),
        ("export DOCKER_IMAGE=docker.io/intel/llm-scaler-vllm:0.10.2-b6", "0.10.2"),
    ],
)
def test_an_llm_scaler_tag_is_its_vllm_release(text: str, release: str) -> None:
    assert image_release(text, "vllm") == release


@pytest.mark.parametrize(
    "text",
    [
        "docker pull intel/llm-scaler-vllm:1.4",  # a product release, not vLLM's
        "docker pull intel/llm-scaler-vllm:latest",
        "public.ecr.aws/q9t5s3a7/vllm-ci-postmerge-repo:0123abcd4567ef890123abcd4567ef8901234567",
    ],
)
def test_a_vendor_tag_without_a_vllm_release_names_the_engine_only(text: str) -> None:
    (tag,) = image_tags(text)
    assert (tag.engine, tag.release) == ("vllm", None)


ESCAPED = '--speculative-config \'{\\"method\\":\\"ngram\\",\\"num_speculative_tokens\\":4,\\"prompt_lookup_max\\":3}\''


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the WorkerPath
    return crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))


def test_escaped_json_on_an_llm_scaler_image_is_the_runs_method(tmp_path: Path) -> None:
    path = _path(tmp_path, thread(
        VLLM_REPO, "[Bug]: server slows down on Arc B60", "2026-03-02",
        "    image: intel/llm-scaler-vllm:0.14.0-b8", "      --dtype=float16", f"      {ESCAPED}"))  # fmt: skip
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path


def test_escaped_json_in_a_serve_command(tmp_path: Path) -> None:
    escaped = ESCAPED.replace("ngram", "eagle3").replace(',\\"prompt_lookup_max\\":3', "")
    path = _path(tmp_path, thread(
        VLLM_REPO, "[Bug]: accept rate drops after warm-up", "2025-11-20",
        "Collecting environment information...", "vLLM Version                 : 0.11.1",
        f"vllm serve org/m --speculative-config {escaped.split(' ', 1)[1]}"))  # fmt: skip
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
