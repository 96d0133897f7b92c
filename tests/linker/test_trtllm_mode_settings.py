"""TensorRT-LLM's EAGLE-3 and MTP modes set where the config readers did not look (session 17,
PLUG; the shapes of round 41 05 and round 42 20).

EAGLE-3 on the PyTorch backend runs ``Eagle3OneModelWorker`` (``eagle3_one_model`` true, its
default) or the two-model ``ModelDrafter``; MTP runs ``MTPEagleWorker`` or, with
``use_mtp_vanilla``, ``MTPWorker``. A keyword set in a Python call (a multi-line
``EagleDecodingConfig(...)``'s own line ``eagle3_one_model=True,``), a parametrized test's id
(``test_eagle3[eagle3_one_model=False-...]``) and a test named for the mode
(``test_eagle3_one_model_gsm8k``) each say which mode ran. Our own lines, as a PR body, an
issue form and a CI report paste them; near misses: the field's declaration, a line comparing
both settings, a PR adding the mode as a feature.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.trtllm_config import trtllm_spec_flags
from spectrace.assemblers.trtllm_words import eagle_model_count
from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "run.py", line 1, in <module>',
    "RuntimeError: probe",
]


def _call(setting: str, cls: str = "EagleDecodingConfig") -> list[str]:
    """A PR body with the LLM API call over several lines and a measured table."""
    return [
        "NVIDIA/TensorRT-LLM · pull request #61001 · merged",
        "# [TRTLLM-9000][feat] Combine SA with EAGLE3",
        "",
        "dev · description · 2026-03-03",
        "```python",
        f"spec_config = {cls}(max_draft_len=4,",
        "                   speculative_model=eagle_dir,",
        f"                   {setting},",
        "                   use_sa_spec=True)",
        "llm = LLM(model=target_dir, speculative_config=spec_config)",
        "```",
        "## Benchmark",
        "Measured on 1x H100: 412 tok/s with SA vs 371 tok/s without.",
        "",
        *_PROBE,
    ]


@pytest.mark.parametrize(
    ("setting", "worker"),
    [("eagle3_one_model=True", "Eagle3OneModelWorker"), ("eagle3_one_model=False", "ModelDrafter"),
     ("eagle3_one_model = False", "ModelDrafter")],
)  # fmt: skip
def test_a_keyword_on_the_calls_own_line_is_the_setting(
    tmp_path: Path, setting: str, worker: str
) -> None:
    """At base the call's first line gave the method and the mode stayed a condition."""
    path = crash_path(run(tmp_path, _call(setting)))
    assert (path.value, path.worker_class) == ("other", worker), path


def test_use_mtp_vanilla_as_a_keyword_is_the_vanilla_worker(tmp_path: Path) -> None:
    lines = _call("use_mtp_vanilla=True", cls="MTPDecodingConfig")
    lines[6] = "                   num_nextn_predict_layers=3,"
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MTPWorker"), path


def _report(*body: str) -> list[str]:
    return ["NVIDIA/TensorRT-LLM · issue #61002 · open · labels: bug, Speculative Decoding",
            "# [Bug]: Long draft lengths lose accuracy", "", "qa · description · 2026-02-05",
            *body, "", *_PROBE]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "worker"),
    [
        (("Run `test_eagle3_one_model_gsm8k()` in `tests/integration/defs/accuracy/"
          "test_llm_api_autodeploy.py` with `max_draft_len=20`.", "Test fails with accuracy ~50%."),
         "Eagle3OneModelWorker"),
        (("FAILED accuracy/test_llm_api_autodeploy.py::TestLlama3_1_8B::test_eagle3_one_model_gsm8k"
          " - AssertionError: accuracy 51.3 below 70.0",), "Eagle3OneModelWorker"),
        (("The eagle3 test `TestLlama3_1_8BInstruct::test_eagle3[eagle3_one_model=False-"
          "overlap_scheduler=False]` hangs on B200 after the first batch.",), "ModelDrafter"),
        (("FAILED accuracy/test_llm_api_pytorch.py::TestQwen3_8B::test_eagle3[enable_chunked_prefill="
          "True-eagle3_one_model=True] - AssertionError: gsm8k 81.0 below 86.5",), "Eagle3OneModelWorker"),
    ],
)  # fmt: skip
def test_a_test_named_or_parametrized_for_the_mode_ran_that_mode(
    tmp_path: Path, body: tuple[str, ...], worker: str
) -> None:
    path = crash_path(run(tmp_path, _report(*body)))
    assert (path.value, path.worker_class) == ("other", worker), path


def test_a_report_naming_both_settings_keeps_the_condition(tmp_path: Path) -> None:
    """Both modes' tests on one line: neither is the run's mode."""
    lines = _report("The eagle3 tests `test_eagle3[eagle3_one_model=True]` and "
                    "`test_eagle3[eagle3_one_model=False]` both lose accuracy at draft length 20.")  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "Eagle3OneModelWorker|ModelDrafter")


@pytest.mark.parametrize(
    "line",
    [
        "    eagle3_one_model: bool = True",  # the field's declaration
        "if spec_config.eagle3_one_model == True:",  # a comparison
        "eagle3_one_model=True-overlap_scheduler=True] and eagle3_one_model=False-overlap",  # both
    ],
)
def test_declarations_comparisons_and_both_settings_set_nothing(line: str) -> None:
    assert "speculative_config.one_model" not in trtllm_spec_flags(line)


def test_a_feature_adding_the_mode_names_no_run_mode() -> None:
    assert eagle_model_count("[feat] Add test_eagle3_two_model_gsm8k for AutoDeploy") is None
    assert eagle_model_count("Run test_eagle3_two_model_gsm8k on H100") is False


@pytest.mark.parametrize(
    ("param", "worker"), [("mtp=vanilla", "MTPWorker"), ("mtp=eagle", "MTPEagleWorker")]
)
def test_the_mtp_tests_parameter_in_a_failing_id_sets_vanilla(param: str, worker: str) -> None:
    """``[mtp=vanilla-...]`` builds MTPDecodingConfig(use_mtp_vanilla=True); ``mtp=eagle``
    leaves it False (MTPEagleWorker on a one-module checkpoint: still the module condition)."""
    line = (f"FAILED accuracy/test_llm_api_pytorch.py::TestDeepSeekV3Lite::test_fp8_block_scales"
            f"[{param}-fp8kv=True-attention_dp=False-cuda_graph=True] - gsm8k 61.2 < 63.0")  # fmt: skip
    assert trtllm_spec_flags(line)["speculative_config.mtp_vanilla"] is (worker == "MTPWorker")


def test_an_mtp_vanilla_test_failing_in_a_report_is_the_vanilla_worker(tmp_path: Path) -> None:
    lines = _report("`accuracy/test_llm_api_pytorch.py::TestDeepSeekV3Lite::test_fp8_block_scales"
                    "[mtp=vanilla-fp8kv=True-attention_dp=False-cuda_graph=True]` fails with MTP: "
                    "gsm8k 61.2 below the 63.0 threshold on H200.")  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "MTPWorker"), path
