"""vLLM and SGLang runs whose evidence is in line shapes the readers skipped (issue 11, session 27).

1. A traceback whose frame lines lost their line numbers (``File ".../eagle.py", in propose``:
   a log shipper's or formatter's trimmed frames, a writer's cut paste) still names the code
   that ran. Such a frame counts under its traceback's head only: lines of that shape in a
   pull request's description, with no traceback around them, start no crash.
2. A stack written as a chain of ``file.py:N`` steps joined by arrows (an operator's report, a
   hand copy of the worker log), on a line of its own or after a lead-in naming it the stack:
   a step whose path only the model runner v2's tree holds in vLLM's tables
   (``autoregressive/cudagraph_utils.py``) puts the run on vLLM's MRV2. Not a sentence citing
   the same steps while it tells of code (a pull request's summary, a code-reading note).
3. journalctl's prefix under another locale ("3月 08 10:20:01 host unit[pid]: ", " 3월 ...",
   "Mär 08 ...", and its short-iso form "2026-03-08T10:20:01+01:00 host unit[pid]: ") is peeled
   like the English one, so the vLLM lines it wraps read as vLLM's
   (their tracebacks' frames included).
4. A JSON log record a logger or shipper wrote (``journalctl -o json``'s MESSAGE, a JSON
   formatter's message / msg, Cloud Logging's textPayload), a time key beside its text, reads as
   the line it carries, like Docker's ``{"log": ...}``; a JSON object with no time key (an API's
   error body) stays as it is.
5. A timeline transcribing vLLM's records (``23:04:43  speculator.py:92  "Capturing ..."``: the
   time, the module tag without level, day and brackets, the message in quotes) names the
   module that logged, like the record's own tag: ``speculator.py`` only MRV2 has, and
   ``gpu_model_runner.py`` only vLLM's V1 runner. Not under a runbook's "you should see".
Our own lines in several shapes; near misses in the same words must not move.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, roots, run

from spectrace.dialects.paste import unjson
from spectrace.worker_path import WorkerPath


def probed_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided path of the text's crashes, a probe appended (as the round measure reads)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    rank = {"unknown": 1}
    return sorted(paths, key=lambda p: (rank.get(p.value, 0), 0 if p.conditional else 1))[0]

# --- 1. frames with no line number ---------------------------------------------------------


def test_trimmed_vllm_frames_through_the_eagle_proposer(tmp_path: Path) -> None:
    tag = "ERROR 11-02 03:14:15 [core.py:710]"
    lines = ["The pod restarted twice overnight; the engine log ends with:", "",
             f"{tag} EngineCore encountered a fatal error.",
             f"{tag} Traceback (most recent call last):",
             f'{tag}   File ".../vllm/v1/engine/core.py", in run_engine_core',
             f'{tag}   File ".../vllm/v1/worker/gpu_model_runner.py", in propose_draft_token_ids',
             f'{tag}   File ".../vllm/v1/spec_decode/eagle.py", in propose',
             f"{tag} RuntimeError: CUDA error: device-side assert triggered"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "EagleProposer")


def test_trimmed_frames_behind_a_compose_prefix(tmp_path: Path) -> None:
    lines = ["api-1  | Traceback (most recent call last):",
             'api-1  |   File "/usr/lib/python3/dist-packages/vllm/v1/worker/gpu_model_runner.py", in execute_model',
             'api-1  |   File "/usr/lib/python3/dist-packages/vllm/v1/spec_decode/ngram_proposer.py", in propose',
             "api-1  | ValueError: the lookup window exceeds the prompt"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "NgramProposer")


def test_trimmed_sglang_frames(tmp_path: Path) -> None:
    lines = ["Decode died after an hour under load (our shipper drops line numbers):",
             "Traceback (most recent call last):",
             '  File "/srv/sglang/python/sglang/srt/managers/scheduler.py", in event_loop_normal',
             '  File "/srv/sglang/python/sglang/srt/speculative/eagle_worker.py", in verify',
             "IndexError: index 8192 is out of bounds for dimension 0 with size 8192"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_trimmed_frames_in_a_refactor_description_start_no_crash(tmp_path: Path) -> None:
    lines = ["acme/serving-patches · pull request #31 · open", "",
             "## Purpose", "",
             "Pass the slot mapping to the drafter explicitly. The call path it touches:", "",
             "```",
             '  File ".../vllm/v1/worker/gpu_model_runner.py", in propose_draft_token_ids',
             '  File ".../vllm/v1/spec_decode/eagle.py", in propose',
             "```", "",
             "## Changes", "",
             "- read the mapping from the argument, not from the batch"]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 2. a call chain printed as the stack, naming a file only MRV2's tree holds ------------

def test_an_arrow_chain_into_mrv2_draft_graph_code_with_mtp_named(tmp_path: Path) -> None:
    lines = ["# GLM-4.7 with MTP dies right after graph capture", "",
             "We serve GLM-4.7 with MTP on 8xH200. The profiling pass finishes, then every rank",
             "dies with an illegal memory access two seconds into the second capture.", "",
             "The stack, as the worker printed it: `gpu_worker.py:790` -> `model_runner.py:988` ->",
             "`speculator.py:131` -> `autoregressive/cudagraph_utils.py:80` -> `input_batch.py:149`."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "MTPSpeculator")


def test_a_chain_with_functions_after_a_dash_lead_in(tmp_path: Path) -> None:
    lines = ["Qwen3 32B + DFlash draft, four replicas. Replica 2 fell over at 03:10 with a launch failure.",
             "Frames, innermost last — gpu_worker.py:811 capture_model -> model_runner.py:1020 "
             "capture_model -> gpu/spec_decode/dflash/speculator.py:77 capture"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DFlashSpeculator")


def test_a_chain_on_its_own_line_keeps_every_mrv2_speculator_open(tmp_path: Path) -> None:
    lines = ["Ops log 2026-08-14: the staging pool crash-looped after the image bump.",
             "Each worker exits in capture with a misaligned address. Backtrace from the container:", "",
             "model_runner.py:1011 => spec_decode/autoregressive/speculator.py:140 => "
             "spec_decode/autoregressive/cudagraph_utils.py:66"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleSpeculator|MTPSpeculator|DFlashSpeculator")


def test_a_pull_request_citing_the_chain_in_a_sentence_gets_no_path(tmp_path: Path) -> None:
    lines = ["acme/glm-serving · pull request #88 · open", "", "## Summary", "",
             "Take the draft buffers out of the capture path (`model_runner.py:1002` →",
             "`autoregressive/cudagraph_utils.py:74`) so the MTP drafter shares one pool.", "",
             "## Test plan", "", "- unit tests for the pool helper"]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_code_reading_note_walking_the_chain_gets_no_path(tmp_path: Path) -> None:
    lines = ["Notes from reading the runner source (nothing run yet):", "",
             "For MTP drafts the capture goes `speculator.py:125` → `autoregressive/cudagraph_utils.py:74` →",
             "`cudagraph_utils.py:493`, so the block table width has to match before the first graph.",
             "If we ever put MTP on GLM we should check that first."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- 3. journald lines under another locale's month -----------------------------------------

_JOURNAL_CRASH = [
    "(EngineCore pid=88) ERROR 03-08 10:20:01 [core.py:710] EngineCore encountered a fatal error.",
    "(EngineCore pid=88) ERROR 03-08 10:20:01 [core.py:710] Traceback (most recent call last):",
    '(EngineCore pid=88) ERROR 03-08 10:20:01 [core.py:710]   File "/opt/venv/lib/python3.12/site-packages/'
    'vllm/v1/worker/gpu_model_runner.py", line 3301, in propose_draft_token_ids',
    '(EngineCore pid=88) ERROR 03-08 10:20:01 [core.py:710]   File "/opt/venv/lib/python3.12/site-packages/'
    'vllm/v1/spec_decode/dflash.py", line 214, in propose',
    "(EngineCore pid=88) ERROR 03-08 10:20:01 [core.py:710] RuntimeError: CUDA error: unspecified launch failure",
]


def test_a_journal_with_a_cjk_month_reads_as_the_log_it_wraps(tmp_path: Path) -> None:
    lines = [f"3月 08 10:20:01 node-7 docker[5150]: {line}" for line in _JOURNAL_CRASH]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "DFlashProposer")


def test_a_journal_with_a_korean_or_german_month(tmp_path: Path) -> None:
    for month in (" 3월", "Mär"):
        lines = [f"{month} 08 10:20:01 gpu-box vllm-api[77]: {line}" for line in _JOURNAL_CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", "DFlashProposer")


def test_a_stack_printed_one_frame_a_line_with_its_code(tmp_path: Path) -> None:
    lines = ["# Boot 3: capture fault again", "",
             "MTP drafting on, four workers; the second capture pass faults on every rank:", "",
             "```text",
             "gpu_worker.py:790                 compile_or_warm_up_model()",
             "  model_runner.py:990             capture_model()",
             "  spec_decode/autoregressive/speculator.py:131   self.graphs.capture(",
             "  spec_decode/autoregressive/cudagraph_utils.py:80   super().capture(make_fn, ...)",
             "  input_batch.py:149              torch.from_numpy(counts).to(device=device)",
             "→ CUDA error: an illegal memory access was encountered",
             "```"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "MTPSpeculator")


def test_one_frame_a_line_with_function_names_only(tmp_path: Path) -> None:
    lines = ["Replica 3 of the DFlash pool aborted during warmup; worker frames from the container log:",
             "model_runner.py:1020   capture_model",
             "gpu/spec_decode/dflash/speculator.py:77   capture",
             "RuntimeError: CUDA error: unspecified launch failure"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DFlashSpeculator")


def test_a_change_list_of_locations_with_prose_gets_no_path(tmp_path: Path) -> None:
    lines = ["acme/glm-serving · pull request #91 · open", "", "## Changes", "",
             "  spec_decode/autoregressive/cudagraph_utils.py:74   take the buffers from the shared pool",
             "  spec_decode/autoregressive/speculator.py:125   keep one graph per MTP draft step", "",
             "## Test plan", "", "- unit tests"]  # fmt: skip
    assert_no_path(tmp_path, lines)



def test_a_journal_in_short_iso_form(tmp_path: Path) -> None:
    lines = [f"2026-03-08T10:20:01+01:00 node-7 serve-spec.sh[5150]: {line}" for line in _JOURNAL_CRASH]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "DFlashProposer")


def test_a_ci_stamp_before_words_and_a_colon_is_no_journal() -> None:
    from spectrace.dialects.wrappers import peel

    assert peel("2026-03-08T10:20:01Z build step: compile kernels").text == "build step: compile kernels"

# --- 4. JSON log records ---------------------------------------------------------------------


def test_json_records_of_a_logger_or_a_shipper_read_as_their_lines(tmp_path: Path) -> None:
    import json

    shapes = (lambda line: {"time": "2026-03-08T10:20:01.5Z", "level": "error", "msg": line},
              lambda line: {"__REALTIME_TIMESTAMP": "1772965201500000", "_HOSTNAME": "node-7",
                            "MESSAGE": line, "SYSLOG_IDENTIFIER": "vllm"},
              lambda line: {"textPayload": line, "timestamp": "2026-03-08T10:20:01.5Z",
                            "severity": "ERROR"})  # fmt: skip
    for shape in shapes:
        lines = [json.dumps(shape(line)) for line in _JOURNAL_CRASH]
        assert_verdict(crash_path(run(tmp_path, lines)), "other", "DFlashProposer")


def test_a_json_object_with_no_time_stays_as_it_is() -> None:
    body = '{"object": "error", "message": "The model does not exist.", "type": "NotFoundError", "code": 404}'
    assert unjson(body) == body
    record = '{"ts": 1772965201.5, "message": "Traceback (most recent call last):"}'
    assert unjson(record) == "Traceback (most recent call last):"


def test_a_line_opening_with_an_arrow_and_no_step_is_read_without_failing() -> None:
    from spectrace.assemblers.vllm_runner import chained_mrv2

    assert chained_mrv2("→ MTP n=2 on both nodes/ranks, then the graph hangs") == []
    assert chained_mrv2("-> see docs/spec.md for the flags") == []


# --- 5. vLLM records as a timeline transcribes them -------------------------------------------


def test_a_timeline_quoting_mrv2s_capture_record(tmp_path: Path) -> None:
    lines = ["# Boot 2 report: GLM with MTP, capture fault", "",
             "Both passes log the speculator capture; the second one dies:", "", "```text",
             '22:59:36  speculator.py:92  "Capturing model for speculator..."   <- first pass, fine',
             '23:04:43  speculator.py:92  "Capturing model for speculator..."   <- second pass',
             "23:04:45  illegal memory access on all four workers", "```"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleSpeculator|MTPSpeculator")


def test_a_digest_of_the_v1_runner_record_with_an_eagle3_draft(tmp_path: Path) -> None:
    lines = ["Replica log digest (EAGLE-3 draft, Llama 3.1 8B):",
             '09:14:02  gpu_model_runner.py:4578  "Model loading took 16.1 GiB memory"',
             "09:20:11  illegal memory access during decode, replica restarted"]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


def test_a_runbooks_expected_record_gets_no_path(tmp_path: Path) -> None:
    lines = ["acme/ops-runbooks · docs/glm-bringup.md", "", "## What a healthy boot prints", "",
             "You should see, per rank:", "",
             '    10:00:01  speculator.py:92  "Capturing model for speculator..."', "",
             "If MTP is enabled and this line never shows, check the compose file."]  # fmt: skip
    assert_no_path(tmp_path, lines)
