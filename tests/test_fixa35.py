"""Session 35 (FIXA): output shown as expected, stacks summarised per rank, results dated day first,
lower-case check outcomes.

- A page of steps for the reader (a vendor's performance doc, a tutorial, a README) whose output
  blocks are captioned as what the reader should see ("#### Expected Results", "Sample output:",
  "预期结果", "出力例：") shows no run of its own, in any engine and language: its figures and log
  records are what the reader's run should print, and its "reproducing steps" reproduce a
  benchmark's numbers, not a failure. A report whose expected output is followed by what it
  actually got, or a page that then shows its own run, keeps that run.
- A py-spy summary written per rank (a rank label and the innermost frame on one line, the outer
  frames indented below it, a note after a frame; or the rank prefix a log dialect peels off) is
  read as one stack per label: a frame in a speculative worker's file decides the worker, and the
  summary binds the text to the run it sampled. The same summary under a docs page's "Example
  output:" shows no run.
- A playbook whose results heading is dated day first ("Benchmark 14/09/2026", "05.10.2026")
  reports its run: the image tag in its template table names the release and the bare argument
  line its bootstrap writes is the launch. Dated results still to come (expected, planned, pending)
  report none.
- A check table's outcome cells written in lower case ("| pass |", "| fail — shape mismatch |")
  are a verification record of a run, as PASS/FAIL cells are; the same table under a test plan is
  a plan.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.run_forms import form_of
from spectrace.assemblers.shown_output import expected_caption, reader_step
from spectrace.dialects.base import LogLine


def _line(raw: str) -> LogLine:
    return LogLine("t.log", 1, 0, raw, raw, "plain", "")


# --- pages whose output is captioned as what the reader should expect ---

_TRT_PERF = ["## Reproducing the numbers", "",
             "These steps reproduce our published throughput on eight B200 cards.", "",
             "### B200 low latency", "",
             "To run the benchmark, use the following command:", "",
             "```bash", "cat >./llm-api.yml<<EOF", "speculative_config:", "    decoding_type: MTP",
             "    num_nextn_predict_layers: 2", "EOF", "",
             "trtllm-bench --model deepseek-ai/DeepSeek-V3 throughput --dataset $DATA --tp 8 \\",
             "    --extra_llm_api_options ./llm-api.yml", "```", "",
             "#### Expected Results", "", "Numbers differ across datasets and machines.", "",
             "```", "= PERFORMANCE OVERVIEW", "Request Throughput (req/sec):          0.1520",
             "Total Output Throughput (tokens/sec):  301.7730", "```"]  # fmt: skip

_SGL_RECORDS = ["# Serving a 32B model with EAGLE-3", "", "## Launch", "",
                "To start the server, run the following command:", "", "```",
                "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --speculative-algorithm EAGLE3 \\",
                "  --speculative-draft-model-path org/qwen3-32b-eagle3 --speculative-num-steps 3 --tp 4", "```", "",
                "### Expected output", "", "```",
                "[2026-03-02 10:11:12] Capture draft cuda graph begin. This can take up to several minutes.",
                "[2026-03-02 10:11:40] The server is fired up and ready to roll!", "```"]  # fmt: skip

_VLLM_SAMPLE = ["## Benchmarking prompt lookup", "", "Launch vLLM with the ngram proposer:", "", "```",
                "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
                "'{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'", "```", "",
                "Then run the client against it:", "", "```",
                "vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --num-prompts 200", "```", "",
                "Sample output (figures vary by GPU):", "", "```",
                "Output token throughput (tok/s):         1287.55", "Mean TPOT (ms):                          9.81",
                "```"]  # fmt: skip

_ZH_TRT = ["## 复现步骤", "", "以下步骤用于在 H200 上复现 MTP 的吞吐数据。", "", "运行下面的命令：", "", "```bash",
           "cat > extra.yml <<EOF", "speculative_config:", "  decoding_type: MTP", "  num_nextn_predict_layers: 2", "EOF",
           "trtllm-bench --model deepseek-ai/DeepSeek-V3 throughput --dataset data.jsonl --tp 8 "
           "--extra_llm_api_options extra.yml", "```", "", "### 预期结果", "", "```",
           "Request Throughput (req/sec):                     0.0911",
           "Total Output Throughput (tokens/sec):             186.2231", "```"]  # fmt: skip

_JA_SGL = ["## 再現手順", "", "次のコマンドでサーバーを起動します。", "", "```",
           "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --speculative-algorithm NEXTN "
           "--speculative-num-steps 2 --tp 8", "```", "", "ベンチマークを実行します。", "", "```",
           "python -m sglang.bench_serving --backend sglang --num-prompts 100", "```", "", "出力例：", "", "```",
           "Output token throughput (tok/s):         2210.31", "Accept length:                           2.71",
           "```"]  # fmt: skip


@pytest.mark.parametrize("lines", [_TRT_PERF, _SGL_RECORDS, _VLLM_SAMPLE, _ZH_TRT, _JA_SGL],
                         ids=["trtllm-perf-doc", "sglang-expected-records", "vllm-sample-output",
                              "chinese-expected-results", "japanese-output-example"])  # fmt: skip
def test_a_page_whose_output_is_captioned_as_expected_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_the_page_says_why_it_shows_no_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _TRT_PERF)
    assert path.missing and "a page telling the reader what to run" in path.missing[0], path.missing


# a bug report's steps with an expected block and the actual one after it: the run is the report's
_REPORT = ["## Steps to reproduce", "", "Run the following command on SGLang 0.5.17:", "", "```",
           "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path org/qwen3-8b-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4", "```", "", "Then send any chat request.", "",
           "### Expected output", "", "A normal answer.", "", "### Actual output", "",
           "The answer turns to gibberish after a few tokens and repeats one word."]  # fmt: skip

# a page of steps, then a section with the writer's own run's records
_PAGE_THEN_RUN = [*_SGL_RECORDS, "", "### Our run on 4x H100 (2026-05-04)", "", "```",
                  "[2026-05-04 10:11:12] Capture draft cuda graph begin. This can take up to several minutes.",
                  "[2026-05-04 10:11:40] Decode batch. #running-req: 8, accept len: 3.12, "
                  "gen throughput (token/s): 812.40, #queue-req: 0", "```"]  # fmt: skip

# the writer's run, an "expected" sentence, then what they got
_EXPECTED_BUT_GOT = ["I launched vLLM 0.11.0 with an EAGLE3 draft:", "", "```",
                     "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle3\", "
                     "\"model\": \"org/eagle3-llama3.1-8b\", \"num_speculative_tokens\": 3}'", "```", "",
                     "Expected output: about 2.5 accepted tokens per step, like the docs' sample output.", "",
                     "But I got:", "", "```", "Avg Draft acceptance rate: 12.1%, Mean acceptance length: 1.36",
                     "```"]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "line"), [
    (_REPORT, "v2", "EAGLEWorkerV2", 6),
    (_PAGE_THEN_RUN, "unknown", "EAGLEWorkerV2|EAGLEWorker", None),
    (_EXPECTED_BUT_GOT, "other", "EagleProposer", None),
], ids=["report-expected-then-actual", "page-then-own-run", "expected-but-got"])  # fmt: skip
def test_a_run_beside_an_expected_block_keeps_its_path(
    tmp_path: Path, lines: list[str], value: str, classes: str, line: int | None
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    if line is not None:
        assert any(e.lineno == line for e in path.evidence), path.evidence


@pytest.mark.parametrize(("text", "expected"), [
    ("#### Expected Results", True), ("Sample output (numbers vary by GPU):", True),
    ("### Example output", True), ("The output should look something like this:", True),
    ("### 预期结果", True), ("输出示例：", True), ("出力例：", True), ("期待される出力", True),
    ("예상 출력:", True), ("Пример вывода:", True), ("Salida esperada:", True),
    ("### Actual output", False), ("Expected output vs actual output:", False),
    ("The server prints its output to stdout.", False), ("## Results", False),
])  # fmt: skip
def test_expected_captions_in_every_language(text: str, expected: bool) -> None:
    assert expected_caption(text) is expected


@pytest.mark.parametrize(("text", "step"), [
    ("运行下面的命令：", True), ("使用以下命令启动服务：", True), ("次のコマンドでサーバーを起動します。", True),
    ("다음 명령을 실행합니다.", True), ("Выполните следующую команду:", True), ("Ejecute el siguiente comando:", True),
    ("我们运行了下面的服务，结果很慢。", False), ("サーバーが落ちました。", False),
])  # fmt: skip
def test_steps_to_the_reader_in_other_languages(text: str, step: bool) -> None:
    assert reader_step(text) is step


# --- py-spy summaries written per rank ---

_HANDOFF = ["# Handoff: decode hang with MTP under PD", "", "State on 2026-08-02. Candidate fix under test.", "",
            "## What the stacks show", "",
            "py-spy on all eight ranks, sampled twice 5 s apart, no movement:", "", "```",
            "DP0,2,4,6:  broadcast             (torch/distributed/distributed_c10d.py:2790)",
            "DP3,5,7:    all_gather_into_tensor (torch/distributed/distributed_c10d.py:3990)",
            "DP1:        init_forward_metadata (attn_backend.py:512)",
            "              prepare_for_draft_extend (base_spec_worker.py:150)",
            "              forward_batch_generation (eagle_worker_v2.py:1190)",
            "              event_loop_overlap_disagg_decode (decode.py:1800)   <- PD decode loop",
            "```", "", "Seven ranks wait in a collective; DP1 never joins it."]  # fmt: skip

_ISSUE_TP = ["[Bug] server stops answering after a few hundred requests with EAGLE", "",
             "After ~300 requests nothing comes back; GPU util stays at 100% on every rank.",
             "I took py-spy dumps of the four TP ranks twice, 10 s apart; they did not move:", "", "```",
             "TP0,2,3:  all_reduce        (torch/distributed/distributed_c10d.py:2501)",
             "TP1:      draft_forward     (sglang/srt/speculative/eagle_worker.py:402)   <- never returns",
             "            draft           (sglang/srt/speculative/eagle_worker.py:377)",
             "            event_loop_normal (sglang/srt/managers/scheduler.py:861)", "```"]  # fmt: skip

_VLLM_RANKS = ["Decode hangs on vllm==0.10.1 with an EAGLE3 draft; py-spy on the workers:", "", "```",
               "[rank0]: all_reduce   (torch/distributed/distributed_c10d.py:2806)",
               "[rank1]: propose      (vllm/v1/spec_decode/eagle.py:233)",
               "           execute_model (vllm/v1/worker/gpu_model_runner.py:1602)", "```"]  # fmt: skip


# torch's rank prefix, which the paste dialect peels off the line
_SGL_RANKS = ["SGLang 0.5.15 with EAGLE3 froze under load; py-spy of the two TP ranks:", "", "```",
              "[rank0]: broadcast    (torch/distributed/distributed_c10d.py:2790)",
              "[rank1]: verify       (sglang/srt/speculative/eagle_worker_v2.py:640)",
              "           forward_batch_generation (sglang/srt/speculative/eagle_worker_v2.py:1190)", "```"]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes", "line"), [
    (_HANDOFF, "v2", "EAGLEWorkerV2", 10),
    (_ISSUE_TP, "v1", "EAGLEWorker", 7),
    (_SGL_RANKS, "v2", "EAGLEWorkerV2", 4),
    # a frame in vLLM's eagle.py names its class by release, as a traceback's frame does
    (_VLLM_RANKS, "unknown", "EagleProposer", 4),
], ids=["dp-ranks-handoff", "tp-ranks-issue", "sglang-rank-prefix", "vllm-rank-prefix"])  # fmt: skip
def test_a_rank_labelled_pyspy_summary_decides_by_its_worker_frames(
    tmp_path: Path, lines: list[str], value: str, classes: str, line: int | None
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    if line is not None:
        assert any(e.lineno == line and "py-spy" in e.reason for e in path.evidence), path.evidence


def test_a_docs_page_with_a_summary_as_example_output_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Debugging a stuck server", "", "## Collect stacks", "",
                              "Run `py-spy dump --pid <PID>` on each scheduler process.", "",
                              "Example output:", "", "```",
                              "TP0:  broadcast   (torch/distributed/distributed_c10d.py:2790)",
                              "TP1:  verify      (sglang/srt/speculative/eagle_worker_v2.py:610)",
                              "        forward_batch_generation (sglang/srt/speculative/eagle_worker_v2.py:1200)",
                              "```", "", "## Next steps", "",
                              "Compare the ranks to find the one that never reached the collective."])  # fmt: skip


@pytest.mark.parametrize("raw", [
    "DP1:        init_forward_metadata (attn_backend.py:512)",
    "              forward_batch_generation (eagle_worker_v2.py:1190)",
    "              event_loop_overlap_disagg_decode (decode.py:1800)   <- PD decode loop",
    "[rank3] | all_reduce (dist/comm.py:12)",
])  # fmt: skip
def test_a_summary_line_is_a_frame_a_line(raw: str) -> None:
    assert form_of(_line(raw)) == "one-frame-per-line trace"


def test_a_frame_named_in_a_sentence_is_no_dump_line() -> None:
    assert form_of(_line("The hang sits in forward_batch_generation (eagle_worker_v2.py:1190), see below.")) is None


# --- a playbook's results dated day first, its image tag and its bare argument line ---

def _playbook(image: str, args: str, results: list[str], title: str = "# Cluster operations playbook") -> list[str]:
    return [title, "", "## Template", "", "| Field | Value |", "|---|---|", f"| Image | `{image}` |",
            "| Disk | 40 GB |", "", "## Arguments the bootstrap writes into the config", "", "```bash", args, "```", "",
            *results]  # fmt: skip


_DFLASH_ARGS = ("--tp 2 --speculative-algorithm DFLASH --speculative-draft-model-path /models/draft-dflash "
                "--speculative-num-draft-tokens 8 --mem-fraction-static 0.88 --port 18000")
_NGRAM_ARGS = ("--tensor-parallel-size 2 --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4, "
               "\"prompt_lookup_max\": 4}' --max-model-len 32768")
_EAGLE_ARGS = ("--tp 4 --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 "
               "--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8")


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # Vietnamese headings, the day written 14/09/2026
    (_playbook("lmsysorg/sglang:v0.5.17", _DFLASH_ARGS,
               ["## 3. Kết quả benchmark", "", "### 3.1 Benchmark 14/09/2026 (draft 8, fp8)",
                "| Máy | Decode tok/s | TTFT |", "|---|---|---|", "| A | 31.2 | 4.1s |", "| B | 28.7 | 5.0s |"],
               title="# Sổ tay vận hành cụm suy luận"), "v2", "DFlashWorkerV2"),
    # vLLM's image, the day written 05.10.2026
    (_playbook("vllm/vllm-openai:v0.11.0", _NGRAM_ARGS,
               ["## Resultados", "", "### Benchmark 05.10.2026", "| Nodo | tok/s | TTFT |", "|---|---|---|",
                "| n1 | 412.5 | 0.9s |"], title="# Manual de operación del clúster"), "other", "NgramProposer"),
    # English, the day in the heading's parenthesis; 0.5.9 runs EAGLE3 on the v1 worker
    (_playbook("lmsysorg/sglang:v0.5.9", _EAGLE_ARGS,
               ["## Results (07/11/2026)", "", "| Batch | tok/s | accept len |", "|---|---|---|", "| 1 | 88.4 | 3.1 |"]),
     "v1", "EAGLEWorker"),
], ids=["vietnamese-dflash", "spanish-vllm-ngram", "english-eagle3"])  # fmt: skip
def test_a_playbook_with_results_dated_day_first_decides(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(e.lineno == 13 for e in path.evidence), path.evidence  # the bootstrap's argument line


@pytest.mark.parametrize("results", [
    ["## Expected results 14/09/2026", "", "| Node | Decode tok/s | TTFT |", "|---|---|---|", "| A | TBD | TBD |"],
    ["## Benchmark plan 14/09/2026", "", "| Node | Decode tok/s |", "|---|---|", "| A | 30 (target) |"],
    ["## Benchmark 14/09/2026", "", "| Node | Decode tok/s |", "|---|---|", "| A | pending |"],
], ids=["expected", "plan", "pending"])  # fmt: skip
def test_a_playbook_whose_dated_results_are_still_to_come_gets_no_path(tmp_path: Path, results: list[str]) -> None:
    assert_no_path(tmp_path, _playbook("lmsysorg/sglang:v0.5.17", _DFLASH_ARGS, results))


# --- a check table whose outcome cells are written in lower case ---

_NGRAM_CHECKS = ["# Results: prompt-lookup speculation on vLLM 0.11.0", "",
                 "Llama-3.1-8B on one L40S, greedy, 512 max tokens.", "", "## Bring-up checks", "",
                 "| # | check | result |", "|---|---|---|",
                 "| 1 | engine takes the `ngram` speculative config | pass |",
                 "| 2 | greedy output matches speculation off | pass — 32/32 identical |", "",
                 "## Throughput", "", "| config | conc 1 | conc 8 |", "|---|---|---|",
                 "| baseline | 92.4 tok/s | 611.0 tok/s |", "| ngram k=4 | 131.8 tok/s | 702.5 tok/s |"]  # fmt: skip

_EAGLE_CHECKS = ["Checks on vLLM 0.12.0 with an EAGLE3 draft for Llama-3.1-8B (num_speculative_tokens 3):", "",
                 "| check | outcome |", "|---|---|", "| draft head loads | pass |",
                 "| first request | fail — shape mismatch in the draft's fc layer |"]  # fmt: skip

_NEXTN_CHECKS = ["# NEXTN checks on SGLang 0.5.9", "", "## Setup", "",
                 "DeepSeek-V3 on 8x H200: `--speculative-algorithm NEXTN --speculative-num-steps 3 "
                 "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4`.", "", "## Checks", "",
                 "| check | result |", "|---|---|", "| MTP head loads | pass |",
                 "| gsm8k, 200 questions | pass — 0.952 |"]  # fmt: skip


@pytest.mark.parametrize(("lines", "value", "classes"), [
    (_NGRAM_CHECKS, "other", "NgramProposer"),
    (_EAGLE_CHECKS, "other", "EagleProposer"),
    (_NEXTN_CHECKS, "v1", "EAGLEWorker"),
], ids=["vllm-ngram-results", "vllm-eagle3-fail-row", "sglang-nextn-checks"])  # fmt: skip
def test_a_check_table_with_lower_case_outcomes_shows_its_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    assert_verdict(probed_path(tmp_path, lines), value, classes)


def test_the_same_checks_in_a_test_plan_show_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Bring-up for EAGLE3 on SGLang 0.5.17", "", "## Test plan", "",
                              "| # | check | outcome |", "|---|---|---|",
                              "| 1 | engine takes the EAGLE3 speculative config | pass |",
                              "| 2 | greedy output matches speculation off | pass |", "",
                              "Run each check and fill the table in."])  # fmt: skip


@pytest.mark.parametrize(("raw", "form"), [
    ("| 2 | draft loads beside the target | pass — one KV group |", "a check's outcome"),
    ("| first request | fail: shape mismatch |", "a check's outcome"),
    ("| mode | passthrough |", None),
])  # fmt: skip
def test_lower_case_outcome_cells(raw: str, form: str | None) -> None:
    assert form_of(_line(raw)) == form
