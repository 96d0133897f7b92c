"""KNOW's never-wrong cases: knowledge that must not name another engine's class (an SGLang
fork on Ascend NPUs is not vllm-ascend; another engine's image, a tag in a question). Our own
lines, in the shapes such threads use."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import crash_path, run

PROBE = [
    "Traceback (most recent call last):",
    '  File "probe.py", line 1, in <module>',
    "RuntimeError: the server died",
]
_ASCEND_CLASSES = ("MtpProposer", "AscendEagleProposer", "AscendEagleSpeculator", "AscendMTPSpeculator")


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the WorkerPath
    return crash_path(run(tmp_path, [*lines, *PROBE]))


def _names_ascend(path) -> bool:  # noqa: ANN001
    said = f"{path.worker_class} {path.conditional}"
    return path.framework == "vllm_ascend" or any(c in said for c in _ASCEND_CLASSES)


def test_an_sglang_fork_on_ascend_is_not_vllm_ascend(tmp_path: Path) -> None:
    """A fork's PR (its tracker names no framework) adapting MTP on NPU: the CANN toolkit is
    sourced, but the shell sets SGLang's own variables: SGLang's EAGLE workers, never the
    plugin's proposers."""
    lines = [
        "npu-team/sglang · pull request #88 · merged",
        "# Support MTP for GLM-4.7 on NPU",
        "",
        "hana · description · 2026-02-12",
        "Adapt MTP speculative decoding for the model on Ascend NPU.",
        "```shell",
        "source /usr/local/Ascend/ascend-toolkit/set_env.sh",
        "export SGLANG_NPU_USE_MULTI_STREAM=1",
        "export HCCL_BUFFSIZE=512",
        "```",
    ]
    path = _path(tmp_path, lines)
    assert not _names_ascend(path), path
    assert path.framework == "sglang"
    assert not any("vllm-ascend" in m for m in path.missing)


def test_a_vllm_ascend_run_keeps_the_plugin(tmp_path: Path) -> None:
    """The same platform with vLLM's launch and no SGLang variable stays the plugin's."""
    lines = [
        "vllm-project/vllm-ascend · issue #6001 · open",
        "# [Bug] MTP crash on 910B",
        "",
        "ivan · description · 2026-02-12",
        "source /usr/local/Ascend/ascend-toolkit/set_env.sh",
        "The server crashes at the first request with MTP.",
    ]
    assert _path(tmp_path, lines).framework == "vllm_ascend"


def test_another_engine_s_image_gives_no_release(tmp_path: Path) -> None:
    """A vLLM run whose text also names an SGLang image it compared against: the SGLang tag
    is no release of the vLLM run, and no SGLang worker is named."""
    lines = [
        "# [Bug]: eagle3 acceptance lower than on SGLang",
        "For comparison lmsysorg/sglang-rocm:v0.5.16-rocm700-mi30x gets 3.1 accepted tokens.",
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        '\'{"method": "eagle3", "model": "org/llama3-eagle3", "num_speculative_tokens": 3}\'',
    ]
    path = _path(tmp_path, lines)
    assert "EAGLEWorker" not in f"{path.worker_class} {path.conditional}"
    assert path.framework == "vllm"


def test_an_sglang_image_after_a_vllm_launch_is_no_vllm_release(tmp_path: Path) -> None:
    """The vLLM launch first, then a sentence naming the SGLang image compared with: its tag
    (0.5.x) must not be read as a vLLM release (which would place the run in V0)."""
    lines = [
        "# [Bug]: MTP slower than on SGLang",
        "vllm serve deepseek-ai/DeepSeek-V3 --tp 8 --speculative-config "
        '\'{"method": "mtp", "num_speculative_tokens": 1}\'',
        "On the same node lmsysorg/sglang-rocm:v0.5.17-rocm700-mi30x decodes 20% faster.",
    ]
    path = _path(tmp_path, lines)
    said = f"{path.worker_class} {path.conditional}"
    assert path.framework == "vllm"
    assert "EAGLEWorker" not in said and "MultiStepWorker" not in said and "SpecDecodeWorker" not in said


def test_a_feature_pr_adding_two_model_eagle3_decides_no_mode(tmp_path: Path) -> None:
    """A TensorRT-LLM feature PR whose title adds the two-model mode for a new target, over a
    CI failure of an unrelated test: the mode is what the change adds, not what a run chose,
    so no class is decided from the title's words."""
    lines = [
        "NVIDIA/TensorRT-LLM · pull request #14001 · open · Python",
        "# [TRTLLM-9876][feat] Eagle3 two-model support for Gemma3",
        "",
        "kai · description · 2025-12-02",
        "Lets Gemma3 targets run with a separate Eagle3 draft model.",
    ]
    path = _path(tmp_path, lines)
    assert path.worker_class != "ModelDrafter", path


def test_an_sglang_nightly_named_beside_a_vllm_run_in_words(tmp_path: Path) -> None:
    """A vLLM run told in words, compared with a dated SGLang nightly image: the image names
    the framework only where nothing else does, so no SGLang worker is given."""
    lines = [
        "# [Performance]: MTP on vLLM is slower than SGLang on GB200",
        "",
        "omar · description · 2026-08-25",
        "Our vLLM deployment of DeepSeek-V3 with MTP decodes 20% slower than "
        "lmsysorg/sglang:nightly-dev-cu13-20260801-1a2b3c4d on the same node.",
    ]
    path = _path(tmp_path, lines)
    assert "EAGLEWorker" not in f"{path.worker_class} {path.conditional}", path


def test_works_on_an_old_image_fails_on_a_new_release(tmp_path: Path) -> None:
    """'Fine with <old image>, but crashes with vY': the failing release is the run's, not the
    image's (which would give the v1 worker of an old era)."""
    lines = [
        "sgl-project/sglang · issue #29001 · open · Python",
        "# [Bug] NEXTN illegal memory access",
        "",
        "tom · description · 2026-08-02",
        "Fine with `lmsysorg/sglang:v0.5.3-cu126`, but crashes with v0.5.15 (launch below).",
        "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 "
        "--speculative-algorithm NEXTN --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4",
    ]
    path = _path(tmp_path, lines)
    assert path.worker_class != "EAGLEWorker", path
    assert (path.value, path.worker_class) == ("v2", "EAGLEWorkerV2"), path


def test_mtp_on_a_model_sglang_runs_as_multi_layer_eagle_names_no_eagle_worker(tmp_path: Path) -> None:
    """MiMo-V2's EAGLE/MTP runs on the multi-layer EAGLE workers without the flag being
    written (ServerArgs turns it on for the architecture): the word MTP over it must not give
    the plain EAGLE workers' condition."""
    lines = [
        "sgl-project/sglang · issue #31002 · open · Python",
        "# [Bug] MiMo-V2-Flash MTP accept length drops to 1.0 after upgrade",
        "",
        "uma · description · 2026-06-11",
        "We serve MiMo-V2-Flash with MTP on 8xH200; since the upgrade the accept length is 1.0.",
    ]
    path = _path(tmp_path, lines)
    said = f"{path.worker_class} {path.conditional}"
    assert "MultiLayer" in said or ("EAGLEWorker" not in said), path
