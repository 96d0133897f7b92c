"""TensorRT-LLM runs read from the tree's own history (session 28, TRT).

Three mechanisms, each with paraphrases in other shapes and near misses in the same words:
- A two-model request (``eagle3_one_model: false``, ``mtp_eagle_one_model: false``) runs
  ModelDrafter only before 1.3.0rc25: from it the config validators set it back to one-model
  (PR #17366), so a release or day after it names the one-model worker, and an open one both.
- A frame in ``eagle3.py`` / ``mtp.py`` (files several workers share) names the classes whose
  own method it runs (rules/paths/trtllm_shared.toml); the run's decoding_type picks one.
- The engine-only families' C++ buffers, modules, algorithm and kernels (Lookahead, Medusa,
  ReDrafter's explicit draft tokens) run only under that family's decoding layer.
All lines are our own, in the shapes issue reports paste.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.assemblers.trtllm_modes import eagle_mode, mtp_mode, two_model_ran
from tests.real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, run

_SITE = "/opt/venv/lib/python3.12/site-packages/tensorrt_llm"


def _yaml_report(head: list[str], switch: str) -> list[str]:
    return [
        *head,
        "trtllm-serve /data/llama-70b --backend pytorch --extra_llm_api_options /cfg/opts.yml",
        "/cfg/opts.yml:",
        "speculative_config:",
        "  decoding_type: Eagle",
        "  max_draft_len: 4",
        "  speculative_model_dir: /data/llama-70b-eagle3-head",
        f"  {switch}",
        "Traceback (most recent call last):",
        f'  File "{_SITE}/_torch/pyexecutor/resource_manager.py", line 512, in prepare_resources',
        "    self.grow(blocks)",
        "RuntimeError: out of memory while growing the KV pool",
    ]


@pytest.mark.parametrize(
    ("head", "value", "classes"),
    [
        (["Two-model EAGLE OOM on TensorRT-LLM 1.3.0rc27"], "other", "Eagle3OneModelWorker"),
        (["Hit this after moving to tensorrt_llm==1.4.0rc1"], "other", "Eagle3OneModelWorker"),
        (["Two-model EAGLE OOM on TensorRT-LLM 1.2.0"], "other", "ModelDrafter"),
        (["Same failure on tensorrt_llm==1.3.0rc24"], "other", "ModelDrafter"),
        (["someone · issue · 2025-11-04", "Two-model EAGLE OOM"], "other", "ModelDrafter"),
        (["someone · issue · 2026-08-05", "Two-model EAGLE OOM"], "other", "ModelDrafter"),
        (["someone · issue · 2026-10-28", "Two-model EAGLE OOM"], "unknown",
         "ModelDrafter|Eagle3OneModelWorker"),
        (["Two-model EAGLE OOM"], "unknown", "ModelDrafter|Eagle3OneModelWorker"),
    ],
)  # fmt: skip
def test_a_two_model_request_runs_two_model_only_before_the_validator_resets_it(
    tmp_path: Path, head: list[str], value: str, classes: str
) -> None:
    """At base every one of these decided ModelDrafter, wrong from 1.3.0rc25 on."""
    path = crash_path(run(tmp_path, _yaml_report(head, "eagle3_one_model: false")))
    assert_verdict(path, value, classes)


def test_a_python_keyword_asking_two_model_reads_alike(tmp_path: Path) -> None:
    lines = [
        "Repro on 1.3.0rc28 with the LLM API:",
        "from tensorrt_llm.llmapi import EagleDecodingConfig",
        "cfg = EagleDecodingConfig(max_draft_len=3,",
        "                          speculative_model='/w/draft',",
        "                          eagle3_one_model=False,",
        "                          )",
        "Traceback (most recent call last):",
        '  File "/w/repro.py", line 9, in <module>',
        "    llm.generate(prompts)",
        "ValueError: prompt too long for the draft window",
    ]
    lines[0] = "Repro on TensorRT-LLM 1.3.0rc28 with the LLM API:"
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "Eagle3OneModelWorker")


def test_the_release_rules_as_functions() -> None:
    assert two_model_ran("1.3.0rc24") == (True, "")
    assert two_model_ran("1.3.0rc25")[0] is False
    assert two_model_ran(None, "1.3.0rc22.post1") == (True, "")
    assert two_model_ran(None, "1.4.0rc0") == (None, "")
    assert two_model_ran(None, "1.3.0rc25", "2026-08-11") == (True, "")  # written before the merge
    assert two_model_ran(None, None, "2026-08-12") == (None, "")
    assert eagle_mode(False, None, "1.3.0rc29")[0] == "EAGLE3_ONE_MODEL"
    assert eagle_mode(False, "tensorrt", "1.3.0rc29") == (None, None, "")  # the engine's EAGLE
    mode, condition = mtp_mode(None, False)
    assert mode is None and condition is not None
    assert "MTPEagleWorker" in condition and "ModelDrafter" in condition and "MTPWorker" in condition


def test_a_fallback_warning_shows_no_two_model_run() -> None:
    """The deprecation warning of 1.3 shows a two-model run; one saying the request falls back
    to one-model shows the opposite and sets nothing."""
    assert trtllm_spec_flags(
        "[TRT-LLM] [W] Eagle3 2-model is deprecated and will be removed in release 1.4."
    ) == {"speculative_config.method": "eagle", "speculative_config.one_model": False}
    assert trtllm_spec_flags(
        "[TRT-LLM] [W] Eagle3 2-model is deprecated; falling back to one-model."
    ) == {}


def _frames(*frames: tuple[str, int, str], head: list[str] | None = None) -> list[str]:
    lines = [*(head or []), "Traceback (most recent call last):",
             f'  File "{_SITE}/_torch/pyexecutor/py_executor.py", line 1288, in _executor_loop',
             "    outputs = self._forward_step(batch)"]  # fmt: skip
    for name, line, function in frames:
        lines += [f'  File "{_SITE}/_torch/{name}", line {line}, in {function}', "    step()"]
    return [*lines, "RuntimeError: CUDA error: device-side assert triggered"]


_ONE_MODEL = ("speculative/eagle3.py", 455, "sample_and_accept_draft_tokens")
_DRAFTER = ("speculative/eagle3.py", 388, "forward")


@pytest.mark.parametrize(
    ("frames", "config", "value", "classes"),
    [
        ((_DRAFTER, _ONE_MODEL), ["decoding_type: Eagle"], "other", "Eagle3OneModelWorker"),
        ((_DRAFTER,), ["decoding_type: Eagle3", "max_draft_len: 3"], "other", "Eagle3OneModelWorker"),
        ((_DRAFTER, _ONE_MODEL), ["decoding_type: MTP", "num_nextn_predict_layers: 3"], "other",
         "MTPEagleWorker"),
        ((("speculative/eagle3.py", 610, "draft_decoder"),), [], "unknown",
         "Eagle3OneModelWorker|MTPEagleWorker|Eagle3OneModelDynamicTreeWorker"),
        ((("speculative/mtp.py", 1210, "update_mtp_hidden_states"),), [], "other", "MTPWorker"),
        ((("speculative/mtp.py", 702, "forward"), ("speculative/mtp.py", 811,
          "sample_and_accept_draft_tokens")), [], "unknown", "MTPWorker|MTPEagleWorker"),
    ],
)  # fmt: skip
def test_a_frame_in_a_shared_file_names_the_workers_that_run_its_function(
    tmp_path: Path, frames: tuple, config: list[str], value: str, classes: str
) -> None:
    """At base each of these was unknown, or a condition the frame settles."""
    head = ["speculative_config:", *(f"  {c}" for c in config)] if config else []
    assert_verdict(crash_path(run(tmp_path, _frames(*frames, head=head))), value, classes)


def test_the_dynamic_tree_keeps_an_eagle3_frame_open(tmp_path: Path) -> None:
    """Its worker subclasses the one-model worker and runs the same methods: no decision."""
    head = ["speculative_config:", "  decoding_type: Eagle", "  use_dynamic_tree: true"]
    path = crash_path(run(tmp_path, _frames(_DRAFTER, head=head)))
    assert path.worker_class != "Eagle3OneModelWorker" or path.value == "unknown", path


def test_a_metadata_method_of_eagle3_py_names_no_worker(tmp_path: Path) -> None:
    """``prepare`` runs in both styles' metadata (the two-model Eagle3SpecMetadata too)."""
    path = crash_path(run(tmp_path, _frames(("speculative/eagle3.py", 140, "prepare"))))
    assert path.worker_class is None and not path.conditional, path


def test_a_sentence_naming_the_shared_methods_is_no_frame(tmp_path: Path) -> None:
    lines = [
        "# Design: folding the MTP Eagle worker into eagle3.py",
        "The one-model worker's forward and sample_and_accept_draft_tokens move into one class;",
        "update_mtp_hidden_states stays with the vanilla worker in mtp.py. No behaviour change.",
    ]
    assert_no_path(tmp_path, lines)


def _native(*symbols: str, head: list[str] | None = None) -> list[str]:
    out = [*(head or []), "terminate called after throwing an instance of "
           "'tensorrt_llm::common::TllmException'",
           "  what():  [TensorRT-LLM][ERROR] Assertion failed: window exceeds the prompt"]
    for n, symbol in enumerate(("tensorrt_llm::common::throwRuntimeError(char const*, int)", *symbols), 1):
        out.append(f"{n}       0x7f00{n:02d}a0c31b2 {symbol} + {40 * n}")
    return out


@pytest.mark.parametrize(
    ("symbols", "layer"),
    [
        (("tensorrt_llm::runtime::LookaheadRuntimeBuffers::setFromInputs(int, int)",),
         "LookaheadDecodingLayer"),
        (("tensorrt_llm::layers::LookaheadAlgorithm::update(tensorrt_llm::runtime::ITensor&)",),
         "LookaheadDecodingLayer"),
        (("tensorrt_llm::runtime::ExplicitDraftTokensBuffers::setFromInputs(int, int)",),
         "ExplicitDraftTokensLayer"),
        (("tensorrt_llm::runtime::MedusaModule::setMedusaChoices(int)",), "MedusaDecodingLayer"),
    ],
)  # fmt: skip
def test_an_engine_only_familys_native_class_names_its_decoding_layer(
    tmp_path: Path, symbols: tuple[str, ...], layer: str
) -> None:
    """At base these were unknown: only the layer itself had a row naming a worker."""
    assert_verdict(crash_path(run(tmp_path, _native(*symbols))), "other", layer)


def test_a_file_of_the_family_in_the_assertion_names_the_layer(tmp_path: Path) -> None:
    lines = ["[TensorRT-LLM][ERROR] Assertion failed: pool overflow "
             "(/src/trt/cpp/tensorrt_llm/layers/lookaheadPoolManager.cpp:77)", *PROBE[:0]]
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE])), "other", "LookaheadDecodingLayer")


def test_the_engine_eagles_kernels_name_no_layer(tmp_path: Path) -> None:
    """The PyTorch backend's EAGLE-3 shares the word: a speculative kernel alone decides nothing."""
    symbols = ("tensorrt_llm::kernels::speculative_decoding::invokeAcceptDraftTokens(int, int)",)
    path = crash_path(run(tmp_path, _native(*symbols)))
    assert path.worker_class is None, path


def test_a_pr_naming_the_familys_classes_shows_no_run(tmp_path: Path) -> None:
    lines = [
        "NVIDIA/TensorRT-LLM · pull request #70001 · open",
        "# [None][fix] Guard LookaheadRuntimeBuffers against an empty window",
        "",
        "dev · description · 2026-05-02",
        "## Description",
        "tensorrt_llm::runtime::LookaheadRuntimeBuffers::setFromInputs assumed a non-empty window;",
        "this adds a check in LookaheadAlgorithm before it indexes the pool.",
        "## Test Coverage",
        "Unit test added in cpp/tests/unit_tests/layers/lookaheadAlgorithmTest.cpp.",
    ]
    assert_no_path(tmp_path, lines)


def _api_call(call: str) -> list[str]:
    return [
        "Notebook on tensorrt_llm 1.2.0rc8, two L40S.",
        f'llm = LLM(model="/w/base-14b", tensor_parallel_size=2, {call})',
        "Traceback (most recent call last):",
        f'  File "{_SITE}/_torch/speculative/eagle3.py", line 377, in forward',
        "    token = self.draft_decoder(logits, draft_model)",
        f'  File "{_SITE}/_torch/speculative/eagle3.py", line 468, in draft_decoder',
        "    ids = d2t[ids] + ids",
        "IndexError: index out of range in self",
    ]


@pytest.mark.parametrize(
    "call",
    ['speculative_config=Eagle3DecodingConfig(max_draft_len=2, speculative_model="/w/head")',
     'speculative_config=EagleDecodingConfig(speculative_model_dir="/w/head", max_draft_len=4)'],
)  # fmt: skip
def test_the_llm_apis_config_class_is_tensorrt_llms_not_a_vllm_keyword(tmp_path: Path, call: str) -> None:
    """At base the vLLM keyword reader took ``speculative_model=`` as a draft-model run and the
    verdict was the draft-target condition."""
    assert_verdict(crash_path(run(tmp_path, _api_call(call))), "other", "Eagle3OneModelWorker")


def test_vllms_own_llm_call_keeps_its_reading(tmp_path: Path) -> None:
    lines = [
        "vllm 0.6.3 offline script:",
        'llm = LLM(model="/w/base-8b", speculative_model="/w/small-1b", num_speculative_tokens=4)',
        "Traceback (most recent call last):",
        '  File "/w/run.py", line 9, in <module>',
        "    llm.generate(prompts)",
        "RuntimeError: draft and target vocab sizes differ",
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.framework != "trtllm", path


@pytest.mark.parametrize("switch", ["eagle3_one_model: true", "max_draft_len: 3"])
def test_the_autodeploy_backend_leaves_the_eagle_style_open(tmp_path: Path, switch: str) -> None:
    """AutoDeploy drafted with the two-model drafter before its own one-model path: at base a
    one-model default decided Eagle3OneModelWorker for it."""
    lines = _yaml_report(["AutoDeploy EAGLE run on TensorRT-LLM 1.1.0"], switch)
    lines[1] = lines[1].replace("--backend pytorch", "--backend _autodeploy")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "ModelDrafter|Eagle3OneModelWorker")
