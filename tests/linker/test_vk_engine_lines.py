"""vLLM lines only one engine writes decide the engine, with no release or command shown.

V0's ``Speculative metrics: Draft acceptance rate: ..., System efficiency: ...`` (and its
``SpecDecodeWorker stage times``) prove ``SpecDecodeWorker`` drafted; V1's ``SpecDecoding
metrics: ...`` prove the V1 engine. With a method both engines ran (``[ngram]``), the line picks
the engine's class. Every line here is written by us in the shapes vLLM prints; none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.vllm_engine_lines import engine_rows

CRASH = [
    "Traceback (most recent call last):",
    '  File "bench.py", line 40, in <module>',
    "RuntimeError: request failed",
]
V0_METRICS = ("INFO 03-02 11:20:05 metrics.py:401] Speculative metrics: Draft acceptance rate: "
              "0.512, System efficiency: 0.430, Number of speculative tokens: 4, Number of "
              "accepted tokens: 2210, Number of draft tokens: 4316, Number of emitted tokens: 2611.")  # fmt: skip
V1_METRICS = ("INFO 06-11 10:02:33 [metrics.py:86] SpecDecoding metrics: Mean acceptance length: "
              "2.41, Accepted throughput: 31.20 tokens/s, Drafted throughput: 88.00 tokens/s, "
              "Accepted: 312 tokens, Drafted: 880 tokens, Per-position acceptance rate: 0.612, "
              "0.403, 0.226, 0.114, Avg Draft acceptance rate: 35.5%")  # fmt: skip
NGRAM_V0_FLAGS = ("python -m vllm.entrypoints.openai.api_server --model org/Target-8B "
                  "--speculative-model [ngram] --num-speculative-tokens 4 "
                  "--ngram-prompt-lookup-max 3")  # fmt: skip


def test_v0_metrics_line_alone_names_specdecodeworker(tmp_path: Path) -> None:
    # a 0.4/0.5-era paste: the line printed "tokens tokens"; no command, no release
    line = ("INFO 05-20 08:11:02 metrics.py:334] Speculative metrics: Draft acceptance rate: 0.701,"
            " System efficiency: 0.655, Number of speculative tokens: 3, Number of accepted tokens:"
            " 901, Number of draft tokens tokens: 1285, Number of emitted tokens tokens: 1102.")  # fmt: skip
    path = crash_path(run(tmp_path, ["how do I read this line?", line, *CRASH]))
    assert_verdict(path, "other", "SpecDecodeWorker")
    assert path.evidence[0].text.endswith("1102.")


@pytest.mark.parametrize("line", [
    "INFO 09-03 14:00:11 spec_decode_worker.py:980] SpecDecodeWorker stage times: "
    "average_time_per_proposal_tok_ms=2.10 scoring_time_ms=40.22 verification_time_ms=0.88",
    "INFO 11-20 10:01:02 spec_decode_worker.py:371] [Speculative Decoding] Use MQA scorer for "
    "scoring proposals.",
])
def test_v0_worker_lines_name_specdecodeworker(tmp_path: Path, line: str) -> None:
    assert_verdict(crash_path(run(tmp_path, [line, *CRASH])), "other", "SpecDecodeWorker")


def test_v0_metrics_line_settles_ngram_to_ngramworker(tmp_path: Path) -> None:
    # the command alone leaves NgramProposer (V1) or NGramWorker (V0) open
    alone = crash_path(run(tmp_path, [NGRAM_V0_FLAGS, *CRASH], "a.log"))
    assert alone.worker_class is None and "NGramWorker" in (alone.conditional or "")
    path = crash_path(run(tmp_path, [NGRAM_V0_FLAGS, V0_METRICS, *CRASH], "b.log"))
    assert_verdict(path, "other", "NGramWorker")


def test_v1_metrics_line_settles_ngram_to_ngramproposer(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, [NGRAM_V0_FLAGS, V1_METRICS, *CRASH]))
    assert_verdict(path, "other", "NgramProposer")


def test_v0_metrics_line_with_a_draft_model_names_the_draft_worker(tmp_path: Path) -> None:
    cmd = ("vllm serve org/Target-70B -tp 4 --speculative-model org/Small-1B "
           "--num-speculative-tokens 5")  # fmt: skip
    path = crash_path(run(tmp_path, [cmd, V0_METRICS, *CRASH]))
    assert_verdict(path, "other", "MultiStepWorker")


def test_lines_of_both_engines_decide_no_engine(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, [NGRAM_V0_FLAGS, V0_METRICS, V1_METRICS, *CRASH]))
    assert path.worker_class is None


def test_look_alike_and_quoted_lines_decide_nothing(tmp_path: Path) -> None:
    # another tool's line with V0's prefix but V1's fields; a line placed in an old deployment;
    # a V0 line quoted from another post above the writer's own crash through V1's engine
    other = ("Speculative metrics: Draft acceptance rate: 0.642, Mean acceptance length: 3.0, "
             "Accepted throughput: 1.20 tokens/s")  # fmt: skip
    v1_crash = [CRASH[0], '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
                CRASH[-1]]  # fmt: skip
    for n, lines in enumerate(([other, *CRASH], [f"On our old cluster we saw {V0_METRICS[37:]}", *CRASH],
                               [f"> {V0_METRICS}", *v1_crash])):
        path = crash_path(run(tmp_path, lines, f"{n}.log"))
        assert path.worker_class is None and path.conditional is None, lines


def test_a_quoted_v0_line_speaks_where_the_writers_own_lines_show_no_engine(tmp_path: Path) -> None:
    # a reply quoting the post whose run it discusses (quotes.py: quoted lines rank below the
    # writer's own, and speak where those show none)
    path = crash_path(run(tmp_path, [f"> {V0_METRICS}", *CRASH]))
    assert_verdict(path, "other", "SpecDecodeWorker")


def test_every_row_matches_its_own_shape() -> None:
    shapes = {"Speculative metrics: ": V0_METRICS, "SpecDecoding metrics: ": V1_METRICS}
    for head, line in shapes.items():
        row = next(r for r in engine_rows() if r.literal.startswith(head))
        assert row.pattern.search(line), row
    assert {r.engine for r in engine_rows()} == {"V0", "V1"}


THREAD = ["vllm-project/vllm · issue #90001 · closed · Python", "# [Usage]: ngram speed", "",
          "someone · description · 2024-07-30"]  # fmt: skip


def test_mistyped_bracketed_ngram_is_ngram_not_a_draft_model(tmp_path: Path) -> None:
    # a one-letter typo of V0's bracketed value, in a command and in an LLM(...) keyword
    cmd = ("CUDA_VISIBLE_DEVICES=1 python -m vllm.entrypoints.openai.api_server --model org/M-7B "
           "--speculative_model [ngarm] --num_speculative_tokens 4 --ngram-prompt-lookup-max 5")  # fmt: skip
    path = crash_path(run(tmp_path, [*THREAD, "my command:", cmd, *CRASH], "a.log"))
    assert_verdict(path, "other", "NGramWorker")
    script = ['llm = LLM(model="org/M-7B",', '          speculative_model="[n-gram]",',
              "          num_speculative_tokens=3)"]  # fmt: skip
    path = crash_path(run(tmp_path, [*THREAD, *script, *CRASH], "b.log"))
    assert_verdict(path, "other", "NGramWorker")


def test_other_bracketed_value_names_no_draft_worker(tmp_path: Path) -> None:
    cmd = ("python -m vllm.entrypoints.openai.api_server --model org/M-7B "
           "--speculative_model [draft] --num_speculative_tokens 4")  # fmt: skip
    path = crash_path(run(tmp_path, [*THREAD, cmd, *CRASH]))
    assert path.worker_class != "MultiStepWorker" and path.value != "other"


def test_v1s_drafter_line_leaves_a_v0_era_class_undecided(tmp_path: Path) -> None:
    # V1's drafter line beside a V0-spelled EAGLE draft (V0's MultiStepWorker by the flags' era):
    # the text contradicts itself, so the flags' class decides nothing
    v0_flags = ("vllm serve org/Target-8B --speculative-model org/EAGLE-Target-8B "
                "--num-speculative-tokens 3")  # fmt: skip
    drafter = "(EngineCore_0 pid=9) INFO 05-02 22:01:01 [gpu_model_runner.py:1584] Loading drafter model..."
    alone = crash_path(run(tmp_path, [v0_flags, *CRASH], "a.log"))
    assert alone.worker_class == "MultiStepWorker", alone
    path = crash_path(run(tmp_path, [v0_flags, drafter, *CRASH], "b.log"))
    assert path.worker_class is None, path
