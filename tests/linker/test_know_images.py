"""Engine images as releases (rules/paths/images.toml), TensorRT-LLM's one-/two-model EAGLE-3
words and container args listed before their command: every case is our own text, in the
shapes reports use (another model, another release, another registry than any study excerpt)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.image_tags import image_release, image_tags
from spectrace.assemblers.trtllm_words import eagle_model_count

PROBE = [
    "Traceback (most recent call last):",
    '  File "probe.py", line 1, in <module>',
    "RuntimeError: the server died",
]


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the WorkerPath
    return crash_path(run(tmp_path, [*lines, *PROBE]))


@pytest.mark.parametrize(
    ("text", "engine", "release", "day", "floor"),
    [
        ("docker pull lmsysorg/sglang-rocm:v0.5.15-rocm700-mi35x", "sglang", "0.5.15", None, False),
        ("FROM rocm/sgl-dev:v0.5.16-rocm720-mi30x-20260801", "sglang", "0.5.16", date(2026, 8, 1), True),
        ("image: mirror.example.cn/hub/lmsysorg/sglang:v0.5.14-cu129", "sglang", "0.5.14", None, False),
        ("rocm/sgl-dev:20250812", "sglang", None, date(2025, 8, 12), False),
        ("image: vllm/vllm-openai-rocm:v0.23.1", "vllm", "0.23.1", None, False),
        ("docker run rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715", "vllm", "0.9.1", date(2025, 7, 15), False),
        ("nvcr.io/nvidia/tensorrt-llm/release:1.1.0rc3", "trtllm", "1.1.0rc3", None, False),
        ("nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.6.1", "vllm", None, None, False),
        ("Bump the SGLang image to v0.5.18-rocm720-mi35x-20260820", "sglang", "0.5.18", date(2026, 8, 20), True),
        ("Update vLLM image from v0.22.0-cu130 (old) to v0.23.0", "vllm", "0.23.0", None, False),
    ],
)
def test_an_image_tag_gives_its_engine_release_and_build_day(
    text: str, engine: str, release: str | None, day: date | None, floor: bool
) -> None:
    (tag,) = image_tags(text)
    assert (tag.engine, tag.release, tag.day, tag.floor) == (engine, release, day, floor)


@pytest.mark.parametrize(
    "text",
    [
        "FROM rocm/sgl-dev:vllm20250114",  # a base image named after another program's day
        "docker run voipmonitor/sglang:cu130",  # someone's own image: not in the table
        "pip install sglang-router==0.2.1",  # not an image
        "we use the sglang image for everything",  # no tag
    ],
)
def test_what_is_no_engine_release(text: str) -> None:
    assert all(t.release is None for t in image_tags(text))
    assert image_release(text, "sglang") is None and image_release(text, "vllm") is None


def test_a_vllm_image_release_places_a_v0_run_s_draft_model(tmp_path: Path) -> None:
    """A V0-era draft-model launch whose only release line is AMD's image tag."""
    lines = [
        "# [Bug]: draft model decode is slow on MI300X",
        "Image: rocm/vllm:rocm6.2_mi300_ubuntu20.04_py3.9_vllm_0.6.4",
        "python -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-v0.1 "
        "--speculative-model JackFram/llama-160m --num-speculative-tokens 3",
    ]
    assert_verdict(_path(tmp_path, lines), "other", "MultiStepWorker")


def test_a_dated_sglang_rocm_nightly_places_eagle_on_v2(tmp_path: Path) -> None:
    """A ROCm nightly tagged after a v2-only release: main on that day is past it."""
    lines = [
        "# [Bug] EAGLE3 on MI325X hangs after warm-up",
        "Image: rocm/sgl-dev:v0.5.15-rocm700-mi30x-20260812",
        "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.3-70B-Instruct "
        "--speculative-algorithm EAGLE3 --speculative-draft-model-path org/llama3.3-eagle3 --tp 8",
    ]
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_release_tag_of_the_rocm_sglang_image_places_the_launch(tmp_path: Path) -> None:
    lines = [
        "# NEXTN crash on MI355X",
        "docker run lmsysorg/sglang-rocm:v0.5.14-rocm720-mi35x python3 -m sglang.launch_server "
        "--model-path zai-org/GLM-4.6 --speculative-algorithm NEXTN --tp 8",
    ]
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_dated_nightly_of_a_shared_era_decides_nothing_alone(tmp_path: Path) -> None:
    """A nightly named after 0.5.9 (v1 and v2 both exist there): no era is taken from it."""
    lines = [
        "# EAGLE draft crash on MI300X",
        "Image: rocm/sgl-dev:v0.5.9-rocm700-mi30x-20260301",
        "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE --speculative-draft-model-path org/eagle-8b",
    ]
    path = _path(tmp_path, lines)
    assert path.value == "unknown" or path.worker_class in ("EAGLEWorker", "EAGLEWorkerV2")
    assert not any("nightly image" in e.reason for e in path.evidence)


@pytest.mark.parametrize(
    ("text", "one"),
    [
        ("# [fix] eagle3 two model disaggregated test hangs", False),
        ("Llama 4 with the Eagle3-one-model setup", True),
        ("the two-model Eagle3 flow on 1.1", False),
        ("single-model EAGLE path in trtllm-serve", True),
        ("we serve one model per node", None),  # ordinary prose
        ("eagle3_one_model: false", None),  # a key with its value: the YAML reader's
        ("one-model and two-model runs both fail", None),  # both named
    ],
)
def test_trtllm_eagle_model_count_words(text: str, one: bool | None) -> None:
    assert eagle_model_count(text) is one


@pytest.mark.parametrize(
    ("words", "cls"),
    [
        ("the two-model Eagle3 setup", "ModelDrafter"),
        ("the Eagle3 one-model path", "Eagle3OneModelWorker"),
    ],
)
def test_trtllm_model_count_words_name_the_class(tmp_path: Path, words: str, cls: str) -> None:
    lines = [
        "NVIDIA/TensorRT-LLM · issue #9901 · open",
        f"# [Bug] trtllm-serve returns garbage with {words}",
        "",
        "dana · description · 2025-11-03",
        f"On TensorRT-LLM 1.1.0 with {words}, trtllm-serve returns garbage after a few requests.",
    ]
    assert_verdict(_path(tmp_path, lines), "other", cls)


def test_container_args_before_their_command_are_the_launch(tmp_path: Path) -> None:
    """A pod spec listing ``args:`` before ``command:``: the flags follow the entry point."""
    lines = [
        "# [Bug]: drafts rejected after upgrade",
        "Image `vllm/vllm-openai:v0.6.3`, pod spec:",
        "```",
        "      containers:",
        "      - args:",
        "        - --model",
        "        - Qwen/Qwen2-7B-Instruct",
        "        - --speculative_model",
        "        - Qwen/Qwen2-0.5B-Instruct",
        "        - --num_speculative_tokens",
        '        - "4"',
        "        command:",
        "        - python3",
        "        - -m",
        "        - vllm.entrypoints.openai.api_server",
        "```",
    ]
    path = _path(tmp_path, lines)
    assert_verdict(path, "other", "MultiStepWorker")
    assert any("vLLM config" in e.reason for e in path.evidence)


def test_flags_listed_as_an_ordered_list_are_the_launch_s(tmp_path: Path) -> None:
    """SGLang's speculative flags written as numbered benchmark settings, without the launch
    prefix, on a day before 0.5.4 (only the v1 worker existed)."""
    lines = [
        "sgl-project/sglang · pull request #7001 · open",
        "# speed up EAGLE draft extend",
        "",
        "joe · description · 2025-06-20",
        "Qwen2-72B with an EAGLE draft on H100 TP4:",
        "1.--speculative-num-steps 3 --speculative-eagle-topk 2 --speculative-num-draft-tokens 6",
        "throughput: 1.2 req/s",
        "2) --speculative-num-steps 5 --speculative-eagle-topk 1 --speculative-num-draft-tokens 6",
        "throughput: 1.4 req/s",
    ]
    assert_verdict(_path(tmp_path, lines), "v1", "EAGLEWorker")


def test_the_sglang_dev_image_is_a_build_of_main(tmp_path: Path) -> None:
    """``lmsysorg/sglang:dev`` is rebuilt from main: at least the release published a month
    before the post, which from 0.5.13 on leaves only the v2 worker."""
    lines = [
        "# [Bug] EAGLE3 accept length drops with long prompts",
        "",
        "lena · description · 2026-08-20",
        "docker run --gpus all lmsysorg/sglang:dev python3 -m sglang.launch_server "
        "--model-path Qwen/Qwen3-32B --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path org/qwen3-32b-eagle3",
    ]
    path = _path(tmp_path, lines)
    assert_verdict(path, "v2", "EAGLEWorkerV2")
    assert any("a build of main" in e.reason for e in path.evidence)


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("Bump from `vllm/vllm-openai:v0.19.1` to `vllm/vllm-openai:v0.21.2`.", "0.21.2"),
        ("vllm/vllm-openai-rocm:v0.20.0 -> vllm/vllm-openai-rocm:v0.22.1", "0.22.1"),
        ("we tried vllm/vllm-openai:v0.19.1 and vllm/vllm-openai:v0.21.2", None),  # which ran?
    ],
)
def test_of_two_vllm_images_the_one_a_bump_moves_to(text: str, release: str | None) -> None:
    assert image_release(text, "vllm") == release


def test_a_recipe_bump_to_a_dated_sglang_nightly_names_the_framework(tmp_path: Path) -> None:
    """A benchmark repository's PR moving its MTP recipe to an SGLang ROCm nightly tagged after
    a v2-only release: the image names SGLang where the tracker and words name no framework."""
    lines = [
        "bench-org/serving-bench · pull request #4410 · merged · Python",
        "# [AMD] Bump qwen3.5-fp8-mi300x-mtp image to rocm/sgl-dev:v0.5.18-rocm720-mi30x-20260830",
        "",
        "pat · description · 2026-09-01",
        "Moves the MTP recipe to the new nightly; the sweep on MI300X passed (run 8812).",
    ]
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")


def test_a_recipe_moved_from_a_vllm_image_to_an_sglang_image_runs_sglang(tmp_path: Path) -> None:
    """The title names both images ("from <vLLM image> to <SGLang image>"): the vLLM image in a
    sentence is no launch of vLLM, so the SGLang release stays the run's (a result line shows the
    run: the same recipe move with no result is a config change, no run, since session 17)."""
    lines = [
        "bench-org/serving-bench · pull request #5120 · merged · Python",
        "# Switch qwen3-235b-h100 MTP recipe from vllm/vllm-openai:v0.21.0 to lmsysorg/sglang:v0.5.18",
        "",
        "ria · description · 2026-09-12",
        "```",
        "--speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 3",
        "```",
        "Sweep passed on 8x H100: gsm8k 0.93, 1.7x at concurrency 32.",
    ]
    assert_verdict(_path(tmp_path, lines), "v2", "EAGLEWorkerV2")
