"""Session 34 fixer FIXC: run reports the gates set aside, and engines known by their own records.

Each test writes its own lines in the shape of the text class it covers.

- A user's report whose launch has its paths and addresses redacted as placeholders
  (``<MODEL_PATH>``) beside the writer's measured figure ("21.4 tokens/s", at a line's end or
  before a bracket) or the writer judging their own result ("my throughput is much lower than
  ...") is a run, not a page telling the reader what to run; a page whose figure is promised
  ("up to"), shown as what output looks like, or a claim with no subject of the writer's stays
  a page.
- A feature request's motivation quoting the records its writer's run printed (SGLang's
  draft-graph capture record under its ``[day time TPn]`` prefix, vLLM's engine config record) shows
  that run; a record the request proposes, one with a blank to fill in, a record told in a
  sentence, or a plain run's records under a wish for a method show none of the method.
- Triton's TensorRT-LLM backend launched with a draft model beside its target
  (``launch_triton_server.py --tensorrt_llm_model_name "<draft>,<target>" --multi-model``, split
  over lines or built as a Python list) is the engine flow's draft-target run
  (ExternalDraftTokensLayer); a walkthrough page of it, or a launch of one model, is none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

# --- a report with a redacted launch and the writer's own figure ---------------------------------

_SGL_REDACTED = ("python3 -m sglang.launch_server --model-path <MODEL_PATH> --tp 16 --nnodes 2 --node-rank 0"
                 " --dist-init-addr <MASTER_IP>:5000 --speculative-algorithm EAGLE --speculative-draft-model-path"
                 " <DRAFT_PATH> --speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 3")


def _digest_report(result: str) -> list[str]:
    return ["## Issue #N/A: NEXTN throughput on two nodes stays far below the other thread's", "",
            "**Link**: https://github.com/example-org/sglang/issues/9001", "**State**: open", "",
            "### Description", "", "Setup:", "- sglang 0.4.6.post2", "- 2 x 8 H800, model DeepSeek-V3", "",
            "Launch (node 0; our paths and addresses are left out):", _SGL_REDACTED, "", "result:", result, ""]


@pytest.mark.parametrize("result", [
    "Output throughput per request: 21.4 tokens/s",  # the figure ends the line
    "Per-request decode speed : 21.4 tokens/s (8 clients)",  # a bracket after it
    "单请求输出 21.4 tokens/s（并发 8）",  # a full-width bracket, Chinese words
    "decode 21.4 tokens/s | prefill 3100 tokens/s",  # a bar between two figures
], ids=["line-end", "bracket", "full-width", "bar"])
def test_a_redacted_launch_beside_the_writers_figure_in_tokens_per_second_is_a_run(
        tmp_path: Path, result: str) -> None:
    assert_verdict(probed_path(tmp_path, _digest_report(result)), "v1", "EAGLEWorker")


def test_a_vllm_report_with_a_redacted_launch_and_its_figures_under_headings_is_a_run(tmp_path: Path) -> None:
    lines = ["# eagle3 decode slower than without it", "", "## Environment", "", "vLLM 0.10.1.1, one H100 80GB.", "",
             "## Command", "",
             "vllm serve <your-model-dir> --speculative-config '{\"method\": \"eagle3\", \"model\": \"<your-draft-dir>\","
             " \"num_speculative_tokens\": 3}' --max-model-len 8192", "",
             "## Numbers", "", "- batch 1 decode: 38.5 tokens/s (draft on)", "- batch 1 decode: 52.0 tokens/s (draft off)"]
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


@pytest.mark.parametrize("judged", [
    "My throughput is much lower than the figures on the blog post. Which setting should I change?",
    "this result is slower than the one shown in #8123, how can I speed it up?",
    "Our decode speed was noticeably worse than the numbers in the release notes.",
], ids=["my-lower", "this-slower", "our-worse"])
def test_a_redacted_launch_beside_the_writer_judging_their_result_is_a_run(tmp_path: Path, judged: str) -> None:
    lines = ["## speculative run slower than the published numbers", "", "sglang version: 0.4.5", "",
             "### Command", "",
             "python -m sglang.launch_server --model-path <YOUR_MODEL> --speculative-algorithm EAGLE"
             " --speculative-draft-model-path <YOUR_DRAFT> --speculative-num-steps 5 --speculative-eagle-topk 4"
             " --speculative-num-draft-tokens 8 --host <HOST> --port <PORT>", "", judged]
    assert_verdict(probed_path(tmp_path, lines), "v1", "EAGLEWorker")


def test_a_page_whose_figures_are_promised_or_shown_as_samples_stays_a_page(tmp_path: Path) -> None:
    launch = ("python3 -m sglang.launch_server --model-path <MODEL_PATH> --tp 8 --speculative-algorithm EAGLE"
              " --speculative-draft-model-path <DRAFT_PATH> --speculative-num-steps 3")
    promised = ["# Serving a large model with EAGLE", "", "## Launch", "", "Replace the placeholders with your paths:",
                launch, "", "## Performance", "", "Expected output throughput: up to 150 tokens/s per request."]
    sample = ["# Tuning speculative decoding", "", "## Setup", "", launch, "", "## Reading the numbers", "",
              "A typical result line looks like `Output throughput: 42 tokens/s`. When your speed is lower than"
              " the baseline, try fewer steps."]
    claim = ["# EAGLE-3 on vLLM", "", "## Quick start", "",
             "vllm serve <model> --speculative-config '{\"method\": \"eagle3\", \"model\": \"<draft>\","
             " \"num_speculative_tokens\": 3}'", "", "## Notes", "",
             "At large batch sizes EAGLE can be slower than plain decoding. If your throughput is lower than"
             " expected, lower num_speculative_tokens."]
    for n, lines in enumerate((promised, sample, claim)):
        (tmp_path / str(n)).mkdir()
        assert_no_path(tmp_path / str(n), lines)


# --- a feature request quoting the records its writer's run printed ------------------------------

_SGL_RECORDS = ["[2025-08-20 10:12:01 TP0] Capture cuda graph end. Time elapsed: 11.02 s. mem usage=0.61 GB.",
                "[2025-08-20 10:13:05 TP0] Capture draft cuda graph end. Time elapsed: 58.40 s. mem usage=0.30 GB."]


def _feature(title: str, caption: str, records: list[str]) -> list[str]:
    return [title, "", "## Motivation", "", caption, "", "```", *records, "```", "",
            "Capturing the draft graphs in parallel could shorten the start-up."]


def test_a_feature_requests_own_draft_capture_record_shows_its_eagle_run(tmp_path: Path) -> None:
    lines = _feature("# [Feature] faster draft model graph capture for EAGLE",
                     "On our deployment the two capture records are:", _SGL_RECORDS)
    assert_verdict(probed_path(tmp_path, lines), "v1", "EAGLEWorker")


def test_a_web_copied_feature_request_with_its_records_in_backticks_shows_its_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #9100 · open", "# [Feature] Speed up the draft graphs of EAGLE", "",
             "frank · description · 2025-08-21", "### Motivation", "",
             "The target's graphs are quick:", "", f"`{_SGL_RECORDS[0]}`", "", "the draft's are not:", "",
             f"`{_SGL_RECORDS[1]}`"]
    assert_verdict(probed_path(tmp_path, lines), "v1", "EAGLEWorker")


def test_a_feature_request_with_no_family_word_keeps_the_capture_records_condition(tmp_path: Path) -> None:
    lines = _feature("# [Feature] faster draft model graph capture", "Our start-up today:", _SGL_RECORDS)
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EAGLEWorker|StandaloneWorker")


def test_a_vllm_feature_request_quoting_its_engines_config_record_shows_its_run(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #30001 · open", "# [Feature]: keep the drafter's compiled graphs on disk", "",
             "carol · description · 2025-09-05", "### 🚀 The feature, motivation and pitch", "",
             "Each restart spends a minute on the drafter. From this morning's start-up:", "", "```",
             "(EngineCore_DP0 pid=811) INFO 09-05 08:10:02 [core.py:75] Initializing a V1 LLM engine (v0.10.1.1) with"
             " config: model='org/Tiny-8B', speculative_config=SpeculativeConfig(method='eagle3',"
             " model='org/Tiny-8B-eagle3', num_spec_tokens=3), tokenizer='org/Tiny-8B', dtype=torch.bfloat16",
             "(EngineCore_DP0 pid=811) INFO 09-05 08:11:05 [gpu_model_runner.py:2000] Graph capturing finished in 61"
             " secs, took 0.52 GiB", "```"]
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleProposer")


@pytest.mark.parametrize("lines", [
    # the record told in a sentence as what a docs page says, no prefix
    ["sgl-project/sglang · issue #9101 · open", "# [Feature] Support a faster draft capture for EAGLE", "",
     "bob · description · 2025-08-20", "### Motivation", "",
     "It would be nice if the EAGLE worker captured its draft graphs faster. The docs say capture ends with a line"
     " like `Capture draft cuda graph end. Time elapsed: ...`."],
    # the writer's plain run's records under a wish for a method
    _feature("# [Feature] Support EAGLE3 speculative decoding for Qwen3-Next",
             "We serve it today without speculation; start-up shows:",
             ["[2025-10-02 09:00:01 TP0] Load weight end. type=Qwen3NextForCausalLM, dtype=torch.bfloat16,"
              " avail mem=40.12 GB, mem usage=35.20 GB.",
              "[2025-10-02 09:00:40 TP0] Capture cuda graph end. Time elapsed: 20.11 s. mem usage=1.02 GB."]),
    # a record the request proposes the engine should print
    ["vllm-project/vllm · issue #30002 · open", "# [Feature]: log the drafter's method at start-up", "",
     "dave · description · 2025-09-05", "### 🚀 The feature, motivation and pitch", "",
     "Users cannot tell from the log which proposer the engine built. I propose a start-up record such as:", "",
     "```", "(EngineCore_DP0 pid=1) INFO 09-05 08:10:02 [eagle.py:88] Built EagleProposer for method='eagle3' with"
     " 3 speculative tokens", "```"],
    # a record with a blank left to fill in
    _feature("# [Feature] print how long the EAGLE draft capture takes", "A line with the time would help:",
             ["[2025-08-20 10:13:05 TP0] Capture draft cuda graph end. Time elapsed: <seconds> s."]),
], ids=["docs-sentence", "plain-run-records", "proposed-record", "template-record"])
def test_a_feature_request_whose_records_are_no_run_of_the_method_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# --- Triton's TensorRT-LLM backend serving a draft beside its target ------------------------------

_TRITON_RECORDS = ["[TensorRT-LLM][INFO] Using GPU device ids: 0",
                   "[TensorRT-LLM][WARNING] iter_stats_max_iterations is not specified, will use default value of 1000"]


@pytest.mark.parametrize("launch", [
    # the command split over lines, the model list on its own line, the draft named first
    ["root@pod-7:/srv# python3 /srv/tensorrtllm_backend/scripts/launch_triton_server.py \\",
     "    --model_repo=/srv/repo \\", '    --tensorrt_llm_model_name "tllm_draft,tllm_target" \\',
     "    --multi-model \\", "    --log &"],
    # an argument list built in Python
    ['    cmd = ["python3", "scripts/launch_triton_server.py", "--model_repo", repo,'
     ' "--tensorrt_llm_model_name", "tensorrt_llm,tensorrt_llm_draft", "--multi-model"]'],
    # one line, the list after "="
    ["python3 scripts/launch_triton_server.py --world_size=1 --model_repo=/models/repo"
     " --tensorrt_llm_model_name=tensorrt_llm,tensorrt_llm_draft --multi-model"],
], ids=["split-lines", "python-list", "one-line"])
def test_a_triton_launch_serving_a_draft_beside_its_target_runs_external_draft_tokens(
        tmp_path: Path, launch: list[str]) -> None:
    lines = ["# Draft/target speculative decoding on Triton gives empty answers", "",
             "Started the server like this:", "", *launch, *_TRITON_RECORDS, "",
             "Every request with num_draft_tokens=4 comes back empty."]
    assert_verdict(probed_path(tmp_path, lines), "other", "ExternalDraftTokensLayer")


def test_a_walkthrough_page_of_the_triton_draft_target_launch_gets_no_path(tmp_path: Path) -> None:
    lines = ["# Triton draft-target walkthrough", "", "## 1. Build the engines", "",
             "Follow the draft-target example to build both engines.", "", "## 2. Launch", "", "```bash",
             "python3 scripts/launch_triton_server.py \\", "    --model_repo=/opt/repo \\",
             '    --tensorrt_llm_model_name "tensorrt_llm_draft,tensorrt_llm" \\', "    --multi-model", "```", "",
             "## 3. Query", "", "Send requests with the speculative client."]
    assert_no_path(tmp_path, lines)


def test_a_triton_launch_of_one_model_names_no_draft_target_run(tmp_path: Path) -> None:
    lines = ["Triton server with one engine crashes on start:", "",
             "python3 scripts/launch_triton_server.py \\", "    --model_repo=/srv/repo \\",
             '    --tensorrt_llm_model_name "tensorrt_llm" \\', "    --log", *_TRITON_RECORDS]
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "ExternalDraftTokensLayer" and "ExternalDraftTokensLayer" not in (path.conditional or "")
