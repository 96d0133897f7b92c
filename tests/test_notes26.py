"""Runs told by a saved file's own path, an untagged vLLM build, a release regression of one
framework (session 26, NOTES; the shapes of R75 15, R77 19 and R80 13). Lines are our own, in
the shapes those files and reports take.

- A log saved in a lab's or CI's repository is a run's output; its header names the path, and
  the lab names the file or folder after the arm it ran: the path's one family word is the
  run's family, the commit's day (or the day the path carries) bounds the release. A notes
  file's path, an arm "without" the family, and a dump saying speculation was off are not.
- ``0.1.devN+g<sha>`` is setuptools-scm's version for a clone with no tag: no release.
- "vLLM 0.28.0 accepts fewer ... than vLLM 0.27.1" compares two releases of the run's own
  framework, not another engine, so the line still names the run's framework.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

from spectrace.assemblers.saved_file import saved_file

# a boot failure past the launcher: the scheduler started and ran out of memory sizing its pools
# (a launcher that refused its arguments built no worker at all: tests/test_lead30.py)
_SGLANG_BOOT_FAILURE = [
    "[2026-07-02 10:11:12] Loading the tokenizer from /models/target.",
    "[2026-07-02 10:12:40] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/opt/sgl/python/sglang/srt/managers/scheduler.py", line 3012, in run_scheduler_process',
    "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)",
    '  File "/opt/sgl/python/sglang/srt/model_executor/model_runner.py", line 1904, in init_memory_pool',
    "    raise RuntimeError(",
    "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
]


@pytest.mark.parametrize("header", [
    "somelab/rig-3090-notes · sweeps/2026-07/arm-b-ngram-dense/server.bootfail.log · commit 0c1d2e3 (2026-07-02)",
    "otherlab/ci-dumps · out/qwen_dense_ngram_k4.log (commit 9f8e7d6c, 2026-07-02)",
    "thirdlab/bench · logs/night_20260702/ngram/sglang_server.out",
])  # fmt: skip
def test_a_saved_logs_path_names_the_run_family(tmp_path: Path, header: str) -> None:
    path = crash_path(run(tmp_path, [header, "", *_SGLANG_BOOT_FAILURE]))
    assert_verdict(path, "other", "NGRAMWorker")


@pytest.mark.parametrize("header", [
    # a notes file is about its subject, not a run's output
    "somelab/rig-3090-notes · docs/ngram-tuning-notes.md · commit 0c1d2e3 (2026-07-02)",
    # an arm without the family, or one set against it
    "somelab/rig-3090-notes · sweeps/2026-07/arm-a-no-ngram/server.bootfail.log · commit 0c1d2e3 (2026-07-02)",
    "somelab/rig-3090-notes · sweeps/2026-07/ngram_vs_baseline/server.log · commit 0c1d2e3 (2026-07-02)",
    # two families in one path: which arm this file is, is not said
    "somelab/rig-3090-notes · sweeps/eagle3-then-ngram/server.log · commit 0c1d2e3 (2026-07-02)",
    # the repository's name is the project's, not the file's
    "somelab/ngram-rig · sweeps/2026-07/arm-b-dense/server.bootfail.log · commit 0c1d2e3 (2026-07-02)",
    # the control arm of a sweep whose folder names the family
    "somelab/rig-3090-notes · sweeps/2026-07/arm-b-ngram-dense/ctl.server.log · commit 0c1d2e3 (2026-07-02)",
])  # fmt: skip
def test_a_path_that_labels_no_arm_gives_no_family(tmp_path: Path, header: str) -> None:
    assert_no_path(tmp_path, [header, "", *_SGLANG_BOOT_FAILURE])


def test_a_dump_saying_speculation_was_off_outranks_the_folder(tmp_path: Path) -> None:
    lines = [
        "ci-owner/sglang-nightly · bench/mi300/r1_fp8_online_mtp_test/sglang_server.log",
        "",
        "[2026-03-04 05:06:07] server_args=ServerArgs(model_path='/models/r1', tp_size=8, "
        "speculative_algorithm=None, speculative_num_steps=None, disable_radix_cache=False)",
        "[2026-03-04 05:08:00] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2900, in run_scheduler_process',
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)",
        "RuntimeError: HIP error: out of memory",
    ]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.value == "none" or (path.worker_class is None and not path.conditional), path


def test_another_engines_log_named_for_the_family_names_no_class(tmp_path: Path) -> None:
    """A llama.cpp server's log saved as ``..._mtp_server.log``: the path gives the family, but
    no line puts the run on vLLM or SGLang."""
    lines = [
        "someone/notebook-runs · out/llama_mtp_server.log",
        "",
        "llama_model_loader: loaded meta data with 41 key-value pairs and 733 tensors from /content/m.gguf",
        "srv    load_model: initializing the draft context for speculative decoding",
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:88: CUDA error",
        "CUDA error: out of memory",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_the_header_forms_and_their_days() -> None:
    one = saved_file("a/b · x/20251023/r1_mtp.log")
    assert one is not None and one.output and one.families() == {"MTP"}
    assert str(one.run_day()) == "2025-10-23"  # the cron folder's day
    two = saved_file("a/b · notes/mtp.md (commit 1234567, 2026-01-02)")
    assert two is not None and not two.output and str(two.run_day()) == "2026-01-02"
    assert saved_file("vllm-project/vllm · issue #123 · open") is None


def _vllm_log(version: str, day: str, method: str = "eagle3") -> list[str]:
    return [
        f"somebody · comment · {day}",
        "```",
        f"(APIServer pid=7) INFO 10-01 09:00:00 [api_utils.py:300]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version {version}",
        "(APIServer pid=7) INFO 10-01 09:00:00 [api_utils.py:260] non-default args: {'model': '/m/t', "
        f"'speculative_config': {{'method': '{method}', 'model': '/m/d', 'num_speculative_tokens': 3}}}}",
        "(EngineCore pid=9) ERROR 10-01 09:01:00 [core.py:900] EngineCore failed to start.",
        "(EngineCore pid=9) ERROR 10-01 09:01:00 [core.py:900] Traceback (most recent call last):",
        '(EngineCore pid=9) ERROR 10-01 09:01:00 [core.py:900]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 800, in run_engine_core',
        "(EngineCore pid=9) ERROR 10-01 09:01:00 [core.py:900] torch.OutOfMemoryError: CUDA out of memory.",
        "```",
    ]  # fmt: skip


@pytest.mark.parametrize("version", ["0.1.dev1+g6804e1b81", "0.1.dev2277+gc0ffee12.d20261001"])
def test_an_untagged_build_is_no_release(tmp_path: Path, version: str) -> None:
    """Read as release 0.1 it decided the V1 class; the day (autumn 2026) leaves MRV2 open."""
    path = crash_path(run(tmp_path, _vllm_log(version, "2026-10-01")))
    assert_verdict(path, "unknown", "EagleProposer|EagleSpeculator")


def test_a_tagged_dev_build_keeps_its_release(tmp_path: Path) -> None:
    """0.11.1.dev3 is a build of 0.11: the V1 runner, whatever the day."""
    path = crash_path(run(tmp_path, _vllm_log("0.11.1.dev3+g1234abcd", "2026-10-01")))
    assert_verdict(path, "v1" if path.value == "v1" else "other", "EagleProposer")


def test_a_crash_building_the_engine_config_built_no_worker(tmp_path: Path) -> None:
    """The API server failed in ``create_engine_config``, before any engine core started: the
    ngram run was asked for, none ran (session 31's judgment: a run stopped before its engine)."""
    lines = _vllm_log("0.11.1", "2025-12-01", "ngram")[:4] + [
        "(APIServer pid=7) Traceback (most recent call last):",
        '(APIServer pid=7)   File "/opt/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1500, in create_engine_config',
        "(APIServer pid=7)     model_config = self.create_model_config()",
        "(APIServer pid=7) ModuleNotFoundError: No module named 'some_quant_backend'",
    ]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path
    assert "configured ngram" in " ".join(path.missing), path.missing


@pytest.mark.parametrize("sentence", [
    "On our A100 box, vLLM 0.11.0 accepts fewer EAGLE3 tokens per step than vLLM 0.10.2 did.",
    "Same rig, same prompts: EAGLE3 on vLLM 0.11.0 decodes 18% slower compared to vLLM 0.10.2.",
])  # fmt: skip
def test_one_frameworks_releases_side_by_side_name_it(tmp_path: Path, sentence: str) -> None:
    lines = [
        "some-org/serving-lab · issue #12 · open",
        "# EAGLE3 acceptance regression after the upgrade",
        "",
        "ana · description · 2025-11-20",
        sentence,
        "| release | acceptance length | decode tok/s |",
        "|---|---:|---:|",
        "| 0.10.2 | 2.9 | 141.0 |",
        "| 0.11.0 | 2.4 | 118.5 |",
    ]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class == "EagleProposer" or "EagleProposer" in (path.conditional or ""), path


def test_releases_side_by_side_in_a_guide_show_no_run(tmp_path: Path) -> None:
    """The same two releases in an upgrade guide's sentence: no run, so no path."""
    lines = [
        "some-org/serving-lab · docs/upgrade-guide.md",
        "",
        "# Upgrade guide",
        "Moving from vLLM 0.10.2 to vLLM 0.11.0 changes how EAGLE3 drafts are loaded than before.",
        "Set the new key in your config before you restart the server.",
    ]  # fmt: skip
    assert_no_path(tmp_path, lines)
