"""A sentence a copy hard-wrapped over two lines is read as one (session 18, PROSE).

Mail copies, terminal pastes and many PR bodies wrap prose at 70-100 columns. Read line by line,
"... the whole NGRAM path now runs" / "end-to-end on Intel Gaudi3." says no run on either line,
and "Does the EAGLE3 drafter work ... on vLLM" / "0.10.1? The engine dies ..." names EAGLE3 on a
line with no question mark. ``assemblers/prose_wrap`` joins a line into the prose line above it
when it goes on with it (lower-case start, no list item, no command or code, no fence, no log
record between), and the collector keeps the joined sentence as one line. Every line is ours."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, probed_path, run
from spectrace.assemblers.prose_wrap import ProseWrap
from spectrace.dialects.base import LogLine

VLLM_TB = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    "    engine_core.run_busy_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def test_a_wrapped_run_sentence_shows_an_enabling_prs_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · pull request #40101 · open · Python",
             "# [XPU] Let NGRAM speculative decoding run on Intel accelerators", "",
             "dev-l · description · 2026-09-20", "## Motivation", "",
             "NGRAM was limited to CUDA devices by an allowlist. With two changes in the device checks,",
             "the whole NGRAM path (draft lookup, verify and the KV relocation) now runs",
             "end-to-end on Intel Gaudi3."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "NGRAMWorker")


def test_a_wrapped_run_sentence_in_a_tensorrt_llm_feature_pr(tmp_path: Path) -> None:
    lines = ["NVIDIA/TensorRT-LLM · pull request #13004 · merged · Python", "# [None][feat] Support MTP for GLM-4.5", "",
             "dev-g · description · 2026-04-02", "## Test Coverage",
             "With the new layer mapping the whole MTP path for GLM-4.5 (draft layers, verify and KV rewind) now runs",
             "end to end on 8x B200 with the accuracy suite."]  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "MTPWorker|MTPEagleWorker")


def test_a_wrapped_question_names_no_family_of_the_run(tmp_path: Path) -> None:
    for head in (["vllm-project/vllm · issue #48101 · open · Python", "# [Bug]: engine dies at the first request", "",
                  "dev-m · description · 2025-09-02"],
                 ["[vllm-project/vllm] engine dies at the first request (Issue #48102)", ""]):  # fmt: skip
        lines = [*head, "Does the EAGLE3 drafter from the model card work with the Qwen3-8B target on vLLM",
                 "0.10.1? The engine dies at the first request.", "", *VLLM_TB]  # fmt: skip
        path = crash_path(run(tmp_path, lines))
        assert path.worker_class is None and not path.conditional, path


def _line(n: int, text: str, headed: bool = False) -> LogLine:
    return LogLine("t.md", n, 0, text, text, "plain", "", headed=headed)


def _grown(*texts: str) -> list[tuple[int, str]]:
    wrap = ProseWrap()
    out = []
    for n, text in enumerate(texts, 1):
        out += [(line.lineno, line.text) for line in wrap.feed(_line(n, text, text.startswith("[2026-")))]
    return out


def test_each_line_of_a_wrapped_sentence_reads_it_whole() -> None:
    assert _grown("We serve Qwen3-8B with an EAGLE3 draft on vLLM 0.10.1 and the engine",
                  "dies at the first request. Any idea why? The same happens with the",
                  "other draft too.") == [
        (1, "We serve Qwen3-8B with an EAGLE3 draft on vLLM 0.10.1 and the engine dies at the first request."),
        (2, "We serve Qwen3-8B with an EAGLE3 draft on vLLM 0.10.1 and the engine dies at the first request. "
            "Any idea why? The same happens with the"),
        (2, "We serve Qwen3-8B with an EAGLE3 draft on vLLM 0.10.1 and the engine dies at the first request. "
            "Any idea why? The same happens with the other draft too."),
        (3, "The same happens with the other draft too."),
    ]


def test_only_prose_continuations_join() -> None:
    # a command, a list item, a short line, a fence, a log record, an ended sentence: never joined
    assert _grown("We launch the server with the following command and it crashes at startup",
                  "python -m sglang.launch_server --speculative-algorithm EAGLE") == []
    assert _grown("- the first item of the list is long enough to look like a wrapped line here",
                  "- the second item") == []
    assert _grown("Environment details", "vllm 0.10.1 on one H100") == []
    assert _grown("```", "some code that is long enough to be a wrapped line of prose in a text",
                  "and its next line", "```") == []
    assert _grown("[2026-03-03 10:01:02 TP0] Scheduler started on the node with the draft worker",
                  "and more") == []
    assert _grown("The engine dies at the first request with the EAGLE3 draft on vLLM 0.10.1.",
                  "and a lower-case line after a full stop") == []
    assert _grown("[Bug]: ngram speculative decoding changes greedy output on Qwen3-0.6B / A100",
                  "vllm-project/vllm#41758 · issue · closed · labels: bug") == []
