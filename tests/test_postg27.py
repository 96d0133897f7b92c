"""vLLM runs whose drafting class the model or the runner's own records select (session 27, POSTG).

- A draft given as a container path ("/draft") is the host folder the launch's volume option
  mounts there: a Gemma-4 assistant folder makes ``method: mtp`` Gemma4Proposer.
- The model runner v2's own record of a speculator capturing its graphs ("Capturing model for
  DSpark speculator...") names the class that drafted, over a method an architecture line gave.
- MTP told in words beside a Gemma-4 checkpoint's name: the Gemma-4 head's classes join the
  condition (never alone: the MTP run may be another model's).
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_verdict, crash_path, probed_path, roots, run

from spectrace.assemblers.volumes import mounted_from
from spectrace.dialects.base import LogLine


def _launch(mounts: list[str], version: str = "0.22.1") -> list[str]:
    return [f"vLLM version: {version}", "docker run --gpus all --ipc=host \\", *mounts,
            "  my-vllm-image:latest serve /weights \\",
            """  --speculative-config '{"method":"mtp","model":"/draft","num_speculative_tokens":3}' \\""",
            "  --port 8000"]  # fmt: skip


def test_a_mounted_gemma4_assistant_draft_runs_gemma4_proposer(tmp_path: Path) -> None:
    forms = (
        ["  -v /srv/ckpt/gemma-4-31b-it:/weights:ro \\", "  -v /srv/ckpt/gemma-4-31b-it-assistant:/draft:ro \\"],
        ["  --volume=/data/hf/gemma-4-E4B-it:/weights \\", "  --volume=/data/hf/gemma-4-E4B-it-assistant:/draft \\"],
        ["  --mount type=bind,source=/mnt/m/gemma4-26b-a4b-assistant,target=/draft,readonly \\"],
    )
    for i, mounts in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), _launch(mounts)), "other", "Gemma4Proposer")


def test_a_mounted_draft_of_another_model_keeps_the_mtp_proposer(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _launch(["  -v /srv/ckpt/qwen3-next-80b:/draft \\"]))
    assert "Gemma4" not in (path.worker_class or "") + (path.conditional or "")


def test_two_folders_mounted_at_the_draft_path_name_none() -> None:
    lines = [LogLine(source="a", lineno=n, offset=0, text=t, raw=t, dialect="plain", stream="") for n, t in enumerate((
        "docker run -v /a/gemma-4-31b-it-assistant:/draft img", "docker run -v /b/other:/draft img"), 1)]
    assert mounted_from(lines, "/draft") is None
    assert mounted_from(lines[:1], "/draft/") == "/a/gemma-4-31b-it-assistant"
    assert mounted_from(lines[:1], "draft") is None  # a relative path is no container path


_RECORDS = [
    "INFO 05-02 10:00:01 [model.py:600] Resolved architecture: DeepSeekV4MTPModel",
    "(Worker_TP0 pid=11) INFO 05-02 10:00:30 [model_runner.py:280] Loading model from scratch...",
]


def test_the_mrv2_capture_record_names_the_speculator(tmp_path: Path) -> None:
    shapes = (
        "(Worker_TP0 pid=11) INFO 05-02 10:03:10 [speculator.py:98] Capturing model for DSpark speculator...",
        "INFO 05-02 10:03:10 [speculator.py:98] Capturing model for DSpark speculator...",
        "DEBUG 05-02 10:03:10 [v1/worker/gpu/spec_decode/dspark/speculator.py:98] Capturing model for DSpark speculator...",
    )
    for i, record in enumerate(shapes):
        (tmp_path / str(i)).mkdir()
        assert_verdict(probed_path(tmp_path / str(i), [*_RECORDS, record]), "other", "DSparkSpeculator")


def test_a_capture_record_of_a_class_others_derive_from_is_a_condition(tmp_path: Path) -> None:
    record = "INFO 05-02 10:03:10 [speculator.py:98] Capturing model for DFlash speculator..."
    path = probed_path(tmp_path, [*_RECORDS, record])
    assert_verdict(path, "unknown", "DFlashSpeculator|DSparkSpeculator")


def test_the_capture_words_in_a_runbook_name_no_speculator(tmp_path: Path) -> None:
    lines = [*_RECORDS, "After the restart, check that `Capturing model for DSpark speculator...` shows up;",
             "if it never prints, the patch was not applied."]  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "DSparkSpeculator"
    # the runbook's words add nothing: the DeepSeekV4MTPModel record alone, with no release,
    # is already a condition over methods mtp and dspark (session 30, vllm_startup.shared_draft)
    (tmp_path / "alone").mkdir()
    alone = probed_path(tmp_path / "alone", _RECORDS)
    assert (path.worker_class, path.conditional) == (alone.worker_class, alone.conditional)


ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_mtp_in_words_beside_a_gemma4_checkpoint_adds_the_gemma4_head(tmp_path: Path) -> None:
    for i, model in enumerate(("- Model: Gemma-4-31B-it (AWQ, TP=2)", "Serving gemma-4-26b-a4b-it-fp8 here.")):
        (tmp_path / str(i)).mkdir()
        lines = ["# MTP drafting emits garbage after warmup", "vLLM version: 0.25.1", model, *ENGINE]
        path = crash_path(run(tmp_path / str(i), lines))
        assert_verdict(path, "unknown", "Gemma4Proposer|EagleProposer")


def test_the_gemma_family_in_words_alone_adds_no_head(tmp_path: Path) -> None:
    lines = ["# MTP drafting emits garbage after warmup", "vLLM version: 0.25.1",
             "Gemma 4 support landed last week.", *ENGINE]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.conditional and "Gemma4" not in path.conditional


def test_a_pr_naming_the_words_gets_no_path(tmp_path: Path) -> None:
    lines = ["# [Spec Decode] Add DSpark capture logging for the V2 runner (#60001)",
             "This PR makes the speculator log `Capturing model for DSpark speculator...` on capture.",
             "Also tested Gemma-4-31B-it with MTP on the branch: no output changes."]  # fmt: skip
    for crash in roots(run(tmp_path, [*lines, "", *PROBE])):
        assert crash.worker_path is None or crash.worker_path.worker_class != "DSparkSpeculator"


def test_a_capture_record_keeps_the_variant_class_it_names(tmp_path: Path) -> None:
    lines = ["vLLM version: 0.30.0",
             """vllm serve org/Base-8B --speculative-config '{"method":"dflash","model":"org/Base-8B-DFlash2"}'""",
             "INFO 05-02 10:03:10 [speculator.py:98] Capturing model for DFlash2 speculator..."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DFlash2Speculator")
