"""What a vLLM draft checkpoint's name says about the class that drafted (issue 11, rounds 25-26).

``SpeculativeConfig.__post_init__`` takes the method from the draft's name when the config
gives none (``dspark`` / ``dflash`` / ``eagle3`` in the name), and the model runner v2 builds
``DFlash2Speculator`` under method ``dflash`` for a DFlash2 draft. A maintainer reading
``{"model": "...speculator.dspark"}`` names the DSpark speculator, never the draft-model
proposer; one reading "DFlash2" names DFlash2's class, never plain DFlash's. Our own lines, in
the shapes the real threads had.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run
from test_never_wrong import VLLM_REPO, thread

from spectrace.assemblers.vllm_methods import infer, marked
from spectrace.assemblers.vllm_runner import named_variant, runner_table
from spectrace.dialects.base import LogLine

_CRASH = ["Traceback (most recent call last):",
          '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 880, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def _serve(config: str, release: str | None = None) -> list[str]:
    lines = [f"vllm serve acme/Orbit-355B --tensor-parallel-size 8 --speculative-config '{config}'"]
    if release:
        lines.append(f"INFO 09-01 10:00:00 [api_server.py:1911] vLLM API server version {release}")
    return lines


_PYSPY_MRV2 = ['Thread 4242 (active): "MainThread"',
               "    capture (vllm/v1/worker/gpu/cudagraph_utils.py:210)",
               "    capture_graphs (vllm/v1/worker/gpu/model_runner.py:480)",
               "    run_busy_loop (vllm/v1/engine/core.py:900)"]  # fmt: skip
# a hang finding is no crash: the real-log measure appends this probe to read the run's path
_PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
          "RuntimeError: spectrace probe"]  # fmt: skip
_DSPARK = '{"model": "acme/Orbit-355B-speculator.dspark", "num_speculative_tokens": 5}'
_DFLASH2 = '{"method": "dflash", "model": "acme/Orbit-355B-DFlash2", "num_speculative_tokens": 7}'

# name -> (thread lines, (value, class) decided or ("unknown", "A|B") a condition naming each)
CASES = {
    "a method-less config whose draft is a speculators DSpark checkpoint -> DSparkSpeculator": (thread(
        VLLM_REPO, "[Bug]: nightly ablation hangs at step 300", "2026-09-01",
        "For DSpark speculative decoding, add:", "```", *_serve(_DSPARK), *_CRASH, "```",
    ), ("other", "DSparkSpeculator")),
    "the same on a release with DSpark (0.27.0) -> DSparkSpeculator": (thread(
        VLLM_REPO, "[Bug]: nightly ablation hangs at step 300", "2026-09-01",
        "```", *_serve(_DSPARK, "0.27.0"), *_CRASH, "```",
    ), ("other", "DSparkSpeculator")),
    "a DFlash2 draft under method dflash -> DFlash2Speculator": (thread(
        VLLM_REPO, "[Bug]: EngineDeadError at depth 7", "2026-09-20",
        "```", *_serve(_DFLASH2), *_CRASH, "```",
    ), ("other", "DFlash2Speculator")),
    "a DFlash2 draft on 0.30.0 (MRV2 for every model) -> DFlash2Speculator": (thread(
        VLLM_REPO, "[Bug]: EngineDeadError at depth 7", "2026-10-20",
        "```", *_serve(_DFLASH2, "0.30.0"), *_CRASH, "```",
    ), ("other", "DFlash2Speculator")),
    "DFlash2 named in the report beside a plain dflash config -> DFlash2Speculator": (thread(
        VLLM_REPO, "[Bug]: EngineDeadError at depth 7", "2026-09-20",
        "The server dies in DFlash2 standard rejection sampling after ~300 requests.",
        "```", *_serve('{"method": "dflash", "model": "acme/Orbit-355B-DF", "num_speculative_tokens": 7}'),
        *_CRASH, "```",
    ), ("other", "DFlash2Speculator")),
    "DFlash2 in a vLLM report's words with the release -> DFlash2Speculator": (thread(
        VLLM_REPO, "[Bug]: EngineDeadError with DFlash2 speculative decoding", "2026-09-10",
        "vLLM Version: 0.30.0",
        "The server dies after a few hundred requests when running DFlash2 speculative decoding.",
        "```", *_CRASH, "```",
    ), ("other", "DFlash2Speculator")),
    "a py-spy dump through vLLM's runner v2 and DFlash2 in a fork's title -> DFlash2Speculator": (thread(
        "acme/sparkring", "Server hangs at startup with DFlash2 depth 7", "2026-09-12",
        "py-spy dump of the engine core:", "```", *_PYSPY_MRV2, "```", *_PROBE,
    ), ("other", "DFlash2Speculator")),
    "a py-spy dump through vLLM's runner v2 and MTP in the title, 0.30.0 -> MTPSpeculator": (thread(
        "acme/sparkring", "Server hangs at startup with MTP on vLLM 0.30.0", "2026-10-12",
        "py-spy dump of the engine core:", "```", *_PYSPY_MRV2, "```", *_PROBE,
    ), ("other", "MTPSpeculator")),
    "DFlash in words over a frame of DFlash2's package, late 2026 -> DFlash2 or its subclass": (thread(
        "acme/sparkring", "Hang at depth 7 with DFlash", "2026-11-12",
        "py-spy dump of the engine core:", "```", 'Thread 4242 (active): "MainThread"',
        "    propose (vllm/v1/worker/gpu/spec_decode/dflash2/speculator.py:210)",
        *_PYSPY_MRV2[2:], "```", *_PROBE,
    ), ("unknown", "DFlash2Speculator|LiLiCorrSpeculator")),
    "a DFlash2 draft on vllm-ascend, the runner not said -> the plugin's two DFlash2 classes": (thread(
        "vllm-project/vllm-ascend", "[Bug]: EngineDeadError at depth 7", "2026-10-10",
        "vllm-ascend version: v0.29.0rc1", "```", *_serve(_DFLASH2), *_CRASH, "```",
    ), ("unknown", "AscendDflash2Proposer|AscendDFlash2Speculator")),
    "a DFlash2 draft on vllm-ascend's model runner v2 -> AscendDFlash2Speculator": (thread(
        "vllm-project/vllm-ascend", "[Bug]: EngineDeadError at depth 7", "2026-10-10",
        "vllm-ascend version: v0.29.0rc1", "```", "export VLLM_USE_V2_MODEL_RUNNER=1",
        *_serve(_DFLASH2), *_CRASH, "```",
    ), ("other", "AscendDFlash2Speculator")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_draft_s_name_names_the_class(tmp_path: Path, name: str) -> None:
    lines, (value, classes) = CASES[name]
    assert_verdict(crash_path(run(tmp_path, lines, name="thread.md")), value, classes)


# name -> (thread lines, classes that must not be decided)
NEVER = {
    "a DSpark checkpoint on 0.20.0 (no DSpark yet) is no draft-model run": (thread(
        VLLM_REPO, "[Bug]: start-up fails", "2026-05-01",
        "```", *_serve(_DSPARK, "0.20.0"), *_CRASH, "```",
    ), ("DraftModelProposer", "DSparkSpeculator")),
    "a dotted import path as the draft on 0.25.0 is the user's class (custom_class)": (thread(
        VLLM_REPO, "[Bug]: custom proposer crashes", "2026-07-01",
        "```", *_serve('{"model": "acme_spec.proposers.TreeProposer", "num_speculative_tokens": 4}',
                       "0.25.0"), *_CRASH, "```",
    ), ("DraftModelProposer", "EagleProposer")),
    "a DFlash2 draft on 0.26.0 (before DFlash2) is neither DFlash class": (thread(
        VLLM_REPO, "[Bug]: start-up fails", "2026-08-01",
        "```", *_serve(_DFLASH2, "0.26.0"), *_CRASH, "```",
    ), ("DFlash2Speculator", "DFlashProposer", "DFlashSpeculator")),
    "a DFlash2 draft with the V1 runner forced is no DFlash2Speculator": (thread(
        VLLM_REPO, "[Bug]: start-up fails", "2026-09-20",
        "```", "export VLLM_USE_V2_MODEL_RUNNER=0", *_serve(_DFLASH2), *_CRASH, "```",
    ), ("DFlash2Speculator",)),
    "'DFlash2 works fine' beside a crashing DFlash run names no DFlash2": (thread(
        VLLM_REPO, "[Bug]: EngineDeadError at depth 7", "2026-09-20",
        "DFlash2 works fine on the same box; only the DFlash draft crashes.",
        "```", *_serve('{"method": "dflash", "model": "acme/Orbit-355B-DF", "num_speculative_tokens": 7}'),
        *_CRASH, "```",
    ), ("DFlash2Speculator",)),
    "a py-spy dump through SGLang's own files with DFlash2 words is no vLLM class": (thread(
        "acme/sparkring", "Server hangs at startup with DFlash2 depth 7", "2026-09-12",
        "py-spy dump of the scheduler:", "```", 'Thread 4242 (active): "MainThread"',
        "    forward_batch_generation (sglang/srt/speculative/dflash_worker_v2.py:210)",
        "    event_loop_normal (sglang/srt/managers/scheduler.py:900)", "```", *_PROBE,
    ), ("DFlash2Speculator", "DFlashSpeculator", "DFlashProposer")),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_a_name_vllm_cannot_run_decides_nothing_wrong(tmp_path: Path, name: str) -> None:
    lines, banned = NEVER[name]
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.worker_class not in banned, path


def test_only_methods_that_came_with_their_name_rule_are_marked() -> None:
    """``dspark`` / ``dflash`` came with their name rules: an older release cannot load such a
    checkpoint. EAGLE heads ran on V0 before the ``eagle-`` rule, so their names stay open."""
    assert marked("acme/Orbit-speculator.dspark") == ("dspark", "0.25.0")
    assert marked("z-lab/Orbit-8B-DFlash-b16") == ("dflash", "0.20.0")
    assert marked("yuhuili/EAGLE-LLaMA3-Instruct-8B") is None
    assert marked("meta-llama/Llama-3.2-1B") is None
    assert marked("acme_spec.proposers.TreeProposer") == ("custom_class", "0.22.0")
    eagle = infer("yuhuili/EAGLE-LLaMA3-Instruct-8B", None)
    assert eagle is not None and eagle.worker is None and eagle.condition


def _line(text: str) -> LogLine:
    return LogLine(source="t", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("--speculative-config '{\"method\": \"dflash\", \"model\": \"acme/M-DFlash2\"}'", True),
        ("EngineDeadError during DFlash2 standard rejection sampling", True),
        ("We could try DFlash2 next week.", False),
        ("It works fine without DFlash2.", False),
        ("DFlash20 is a different thing", False),
        ("DFlash2 is faster than DFlash on this box.", False),
        ("Compared with DFlash2 the acceptance drops.", False),
        ("EngineDeadError with DFlash2.", True),
        ('  File "/opt/vllm/model_executor/models/qwen3_dflash2.py", line 3, in forward', False),
    ],
)
def test_what_names_a_draft_variant(text: str, named: bool) -> None:
    assert (named_variant([_line(text)]) is not None) == named


def test_the_variant_table_reads_vllm_s_dispatch() -> None:
    (row,) = runner_table().variants
    assert (row.method, row.cls, str(row.first)) == ("dflash", "DFlash2Speculator", "0.28.0")
