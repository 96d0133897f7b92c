"""Run notes and records that quote the engine without a launch line (session 33, RECORDS33).

- A note retells its crash as compact frames, ``File "<path>:<line>  <func>`` (the path and its
  line joined by a colon, the quote never closed), a path often cut to ``.../srt/``: each is a
  frame of the traceback, and SGLang's runtime folder names the framework. A crash through
  SGLang's speculative files in a text no block of which is set apart is the note's run for the
  era join; a troubleshooting page's stack is none.
- SGLang's draft-graph capture record quoted in run notes with no algorithm named: only the
  EAGLE-type workers capture it, so the EAGLE family's worker is the condition.
- Traditional Chinese tells the writer's measurement as Simplified does ("實測", "測得").
- The flag SGLang promoted (NEXTN with a Gemma-4 assistant draft) named beside the worker it
  became (the Frozen-KV MTP draft worker) is one family, not two.
- The writer meeting a failure ("we hit `KeyError: ...`", "I ran into an OOM") tells their run as
  "we got an error" does; "if we hit it" and "if you hit" tell none.
- A launch's shell variable is no reader's blank where the command is a field of a JSON record
  beside the outcome the run gave (a harness's manifest with "status": "ok").
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

from spectrace.assemblers.traceback_record import FRAME, frame_of

# --- compact frames retold in a note -----------------------------------------------------------


def test_a_compact_frame_is_read_as_a_frame() -> None:
    m = FRAME.match('File ".../srt/models/dspark.py:233  write_draft_kv')
    assert m is not None
    frame = frame_of(m)
    assert (frame.file, frame.line, frame.function) == (".../srt/models/dspark.py", 233, "write_draft_kv")
    whole = FRAME.match('  File "/opt/app/x.py", line 12, in main')  # the usual frame, unchanged
    assert whole is not None and frame_of(whole).line == 12 and whole["cline"] is None
    assert FRAME.match('File "notes.md:12 is where it says so"') is None  # no .py: no frame


_NOTE = ["# fp8 KV for the block-drafter draft: notes", "", "## Status", "",
         "Boot reaches ready on both boxes (TP2). The first request dies in the DSpark injector:", "",
         "```",
         'File ".../srt/speculative/dspark_components/dspark_kv_inject.py:71  inject_target_hidden',
         'File ".../srt/models/dspark.py:233  write_draft_kv',
         "ValueError: cache dtype float8_e4m3fn does not match value dtype bfloat16",
         "```", "", "## Next", "",
         "Cast the hidden states before the KV write."]


def test_a_notes_compact_frames_through_sglangs_dspark_files_give_its_worker(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _NOTE, name="notes.md"))
    assert_verdict(path, "v2", "DSparkWorkerV2")
    assert any("dspark_kv_inject.py" in e.text for e in path.evidence), path.evidence


def test_compact_frames_a_troubleshooting_page_lists_are_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# DSpark troubleshooting", "",
                              "| Symptom | Fix |", "|---|---|",
                              "| `ValueError: cache dtype ... does not match` on the first request | cast the hidden states |", "",
                              "If you see this stack, set the draft KV dtype to the target's:", "",
                              "```",
                              'File ".../srt/speculative/dspark_components/dspark_kv_inject.py:71  inject_target_hidden',
                              'File ".../srt/models/dspark.py:233  write_draft_kv',
                              "ValueError: cache dtype float8_e4m3fn does not match value dtype bfloat16",
                              "```"], name="troubleshooting.md")


# --- SGLang's draft-graph capture record quoted in run notes, no algorithm named -------------------
#
# Only the EAGLE-type workers capture the draft graphs ("Capture draft cuda graph begin", the
# later "Capture draft decode CUDA graph begin. backend=full, ..."): a note quoting its own boot's
# record speculates with the EAGLE machinery, so the EAGLE family's worker is the condition (and
# STANDALONE's subclass), never a decided class while no line names the algorithm.

_ABORTED = ["# Decode-profile attempts, MoE-9 on 8x MI300X (SGLang, speculative on)", "",
            "Five attempts this week; none reached the sweep.", "",
            "## Attempt 1 (aborted)",
            "The boot got as far as the draft graphs and died:", "",
            "    {capture}",
            "    PermissionError: [Errno 13] Permission denied: '/root/.triton/cache/7f/k.json'", "",
            "The cache volume was read-only; remounted and retried.", "",
            "## Attempt 5",
            "The C=32 point finished with a realized accept length of 2.73 before the node was reclaimed."]


def _aborted(capture: str) -> list[str]:
    return [line.replace("{capture}", capture) for line in _ABORTED]


def test_a_run_notes_quoted_draft_capture_record_gives_the_eagle_condition(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _aborted("Capture draft cuda graph begin. This can take up to several minutes. avail mem=31.20 GB"),
                          name="notes.md"))
    assert_verdict(path, "unknown", "EAGLEWorker|EAGLEWorkerV2")
    assert path.conditional is not None and "no line names the algorithm" in path.conditional
    assert any("Capture draft cuda graph begin" in e.text for e in path.evidence), path.evidence


def test_the_later_draft_decode_capture_record_is_the_same_machinery(tmp_path: Path) -> None:
    capture = "Capture draft decode CUDA graph begin. backend=full, num_tokens_per_req=1, bs=[1, 2, 4], avail mem=30.1 GB"
    path = crash_path(run(tmp_path, _aborted(capture), name="notes.md"))
    assert_verdict(path, "unknown", "EAGLEWorker|EAGLEWorkerV2")


def test_a_named_algorithm_outranks_the_machinery(tmp_path: Path) -> None:
    lines = _aborted("Capture draft cuda graph begin. This can take up to several minutes. avail mem=31.20 GB")
    lines[2] = "Five attempts this week with `--speculative-algorithm NEXTN` on sglang 0.5.6; none reached the sweep."
    path = crash_path(run(tmp_path, lines, name="notes.md"))
    assert_verdict(path, "v1", "EAGLEWorker")  # the flag and the release decide, as before


def test_a_page_explaining_the_capture_records_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Speculative decoding start-up: what the log lines mean", "",
                              "With speculation on, SGLang captures the draft model's graphs after the target's.",
                              "You will see:", "",
                              "    Capture draft cuda graph begin. This can take up to several minutes.",
                              "    Capture draft extend cuda graph begin. This can take up to several minutes.", "",
                              "## If capture runs out of memory", "",
                              "Lower `--cuda-graph-max-bs`."], name="startup.md")



def test_the_record_told_in_a_sentence_about_code_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Reading the draft capture path", "",
                              "The worker logs `Capture draft cuda graph begin. This can take up to several minutes.` "
                              "from init_cuda_graphs before it builds the draft runner.", "",
                              "## The runner", "", "It sizes its buffers from the step count and topk."], name="reading.md")


def test_the_record_as_a_string_of_code_is_no_run(tmp_path: Path) -> None:
    # a snippet of the code that prints it (and a story generator building a log) is no boot's print
    for holder in ('    logger.info(f"Capture draft cuda graph begin. This can take up to several minutes. avail mem={m:.2f} GB")',
                   '        + "Capture draft cuda graph begin. This can take up to several minutes. avail mem=1.89 GB"'):
        lines = _aborted("Capture draft cuda graph begin. This can take up to several minutes. avail mem=31.20 GB")
        lines[4] = holder
        assert_no_path(tmp_path, lines, name="notes.md")


def test_a_pull_requests_quoted_record_is_the_code_under_change(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["sgl-project/sglang · pull request #30123 · open", "",
                              "# [Fix] draft graph capture stalls on ROCm", "",
                              "alice · description · 2026-08-02", "", "## Motivation", "", "Boots stall right after", "",
                              "    Capture draft cuda graph begin. This can take up to several minutes. avail mem=40.1 GB", "",
                              "## Modifications", "", "Allocate the workspace before capture."], name="pr.md")

# --- a measured section told in Traditional Chinese under a guide -------------------------------
#
# "實測" (measured), "測得", "我們跑了" tell the writer's own run as their Simplified forms do: a
# guide's later section reporting its own measurement of a NEXTN instance is a run report.

_GUIDE = ["# 壓測指南：Qwen-Next 服務（客戶端）", "",
          "## 1. 環境準備", "", "```bash", "python -m venv .venv && source .venv/bin/activate",
          "pip install locust aiohttp", "```", "",
          "## 2. 執行方式", "", "```bash", "python load_test.py --users 500 --max-tokens 400", "```", ""]
_MEASURED = ["## 3. 調高請求上限之後", "",
             "服務端是兩台 8×H100 上的一個 SGLang 服務（開啟 NEXTN），我們以 600 人併發實測兩種設定。", "",
             "| 項目 | 預設 | 調高 |", "| :--- | :---: | :---: |",
             "| 平均延遲 | 9.8 秒 | 7.1 秒 |", "| 輸出 | 2,840 tok/s | 3,960 tok/s |"]


def test_a_guides_measured_section_in_traditional_chinese_is_a_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _GUIDE + _MEASURED)
    assert_verdict(path, "unknown", "EAGLEWorker|EAGLEWorkerV2")
    assert any("NEXTN" in e.text for e in path.evidence), path.evidence


def test_the_same_guide_without_its_measurement_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _GUIDE + ["## 3. 投機解碼", "", "伺服器端以 NEXTN 投機解碼啟動（由維運設定）。"], name="guide.md")


# --- the flag a promotion replaced, beside the worker it became ----------------------------------
#
# SGLang promotes NEXTN/EAGLE with a Gemma-4 assistant draft to FROZEN_KV_MTP ([[promote]]): a mail
# whose scope names NEXTN and whose quoted record names the Frozen-KV MTP draft worker tells one
# family, not two.

_MAIL = ["From: agent-7", "Subject: status: gemma-4 assistant draft on our sglang fork", "",
         "Scope: NEXTN, topk1, the gemma-4 assistant draft as the head, NVFP4 target.", "",
         "Reran after the calibration patch. The server log now says",
         "`Skipping NVFP4 KV calibration for the Frozen-KV MTP draft worker (it shares the target KV cache)`",
         "and the boot completes. Throughput at C=8 went from 61 to 88 tok/s; accept length 2.2."]


def test_nextn_beside_the_frozen_kv_mtp_worker_it_became_is_one_family(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _MAIL)
    assert_verdict(path, "unknown", "FrozenKVMTPWorker")
    assert any("Frozen-KV MTP" in e.text for e in path.evidence), path.evidence


def test_a_page_telling_the_promotion_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# How SGLang picks the draft worker", "",
                              "FROZEN_KV_MTP is never chosen directly: NEXTN or EAGLE with a Gemma-4 assistant draft "
                              "is promoted to it, and the Frozen-KV MTP draft worker then shares the target KV cache.", "",
                              "Other algorithms keep their own workers."], name="workers.md")


# --- the writer meeting a failure: "we hit ...", "I ran into ..." -------------------------------
#
# "we hit `KeyError: ...` in the loader" tells the writer's run failing as "we got an error" does:
# the findings of a bring-up show their run. A condition ("if we hit it") or the reader's
# ("if you hit ...") tells none.

_FINDINGS = ["# MTP bring-up of the V4 target on mainline vLLM: findings", "",
             "1. The MTP head loads through `vllm/models/deepseek_v4/nvidia/mtp.py`; every rank prints "
             "`MTP draft model loaded: 39 params`.",
             "2. Before the loader fix we hit `KeyError: 'model.layers.61.shared_head.norm.weight'`; "
             "renaming the shard keys fixed it.",
             "3. After that one of the eight workers dies silently during warmup, with no traceback."]


def test_findings_where_the_writer_hit_a_failure_show_their_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _FINDINGS)
    assert_verdict(path, "unknown", "EagleProposer|MTPSpeculator")


def test_a_failure_the_reader_may_hit_shows_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# MTP on the V4 target with vLLM", "",
                              "1. The MTP head loads through `vllm/models/deepseek_v4/nvidia/mtp.py`.",
                              "2. If you hit `KeyError: 'model.layers.61.shared_head.norm.weight'`, rename the shard keys.",
                              "3. If we hit it again on a new checkpoint, we will document the mapping here."],
                   name="mtp.md")


# --- a harness's JSON record of the command it ran, beside its filled-in outcome ----------------
#
# A launch with a shell variable ("$SPEC") is a page's blank for the reader to fill, unless the
# command is a field of a JSON record whose other fields hold the outcome the run gave
# ("status": "ok", "passed": 9): the harness recorded what it ran. A plan's record with empty
# results, or a how-to whose health check answers "ok", stays no run.

_SERVE = ('  "serve_cmd": "SPEC=\'{\\"method\\":\\"dspark\\",\\"num_speculative_tokens\\":5}\'; '
          'exec vllm serve /models/mixer-30b --tensor-parallel-size 2 --speculative-config \\"$SPEC\\"",')


def test_a_harness_manifest_with_its_outcome_filled_in_is_a_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["{", '  "captured_utc": "2026-07-02T11:40:03Z",', '  "vllm_version": "0.25.2",', _SERVE,
                                  '  "gates": ["smoke", "toolprobe"],', '  "results": {',
                                  '    "smoke": {"status": "ok", "served_model": "mixer-30b"},',
                                  '    "toolprobe": {"status": "ok", "passed": 9, "failed": 0}', "  }", "}"])
    assert_verdict(path, "other", "DSparkSpeculator")


def test_a_plans_manifest_with_no_outcome_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["{", '  "plan": "dspark smoke",', _SERVE, '  "gates": ["smoke", "toolprobe"],',
                              '  "results": {}', "}"], name="plan.json")


def test_a_how_tos_health_answer_is_no_outcome_of_a_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# DSpark quick check", "",
                              "Start: `vllm serve $MODEL --speculative-config '{\"method\":\"dspark\",\"num_speculative_tokens\":4}'`", "",
                              "Then `curl localhost:8000/health` returns `{\"status\": \"ok\"}` once the drafter is loaded."],
                   name="check.md")
