"""Session 35 (FIXA): output a page shows its reader to expect.

- A page of steps for the reader (a vendor's performance doc, a tutorial, a README) whose output
  blocks are captioned as what the reader should see ("#### Expected Results", "Sample output:",
  "预期结果", "出力例：") shows no run of its own, in any engine and language: its figures and log
  records are what the reader's run should print, and its "reproducing steps" reproduce a
  benchmark's numbers, not a failure. A report whose expected output is followed by what it
  actually got, or a page that then shows its own run, keeps that run.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.shown_output import expected_caption, reader_step


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
