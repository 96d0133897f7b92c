"""vLLM runs told in a title, a table or a measured line (issue 11, session 24, VTOLD).

A bug or performance title that reports the run's own outcome names that run's family even where
a speed word or a count stands in it: "Garbled MTP replies whenever more than two requests share
a batch" (a count, no comparison), "Gemma 4 31B MTP - Slower T/S at high context" (the run is
slow, not slower than a plain one), "[Performance] ... EAGLE3 2.1-2.3x decode" (the run's own
figure). The Gemma-4 assistant head is read through its size, tuning and quantization words
("gemma-4-31B w4a16 + the official MTP assistant"). Our own lines, with near misses that must keep
no path: two methods compared, a pull request's speed-up, a feature request, a GPU count."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, assert_verdict, probed_path

from spectrace.assemblers.quotes import plain_run
from spectrace.assemblers.thread_title import guard
from spectrace.assemblers.vllm_methods import target_head
from spectrace.dialects.base import LogLine
from spectrace.path_base import family_words


def _store(repo: str, kind: str, title: str, body: list[str], day: str = "2026-08-11") -> list[str]:
    return [f"{repo} · {kind} · open · Python", f"# {title}", "", f"someone · description · {day}", *body]


@pytest.mark.parametrize("title", [
    "Garbled MTP replies whenever more than two requests share a decode batch",
    "EAGLE3 drafts go wrong with fewer than 4 requests in flight",
    "MTP hangs on prompts longer than 32k tokens",
])  # fmt: skip
def test_a_count_in_a_title_is_no_comparison(title: str) -> None:
    assert guard(title) is None


@pytest.mark.parametrize("title", [
    "MTP is slower than plain decoding",
    "EAGLE3 uses more memory than MTP",
    "[Performance] EAGLE3 vs MTP on H100",
])  # fmt: skip
def test_a_comparison_in_a_title_still_sets_it_apart(title: str) -> None:
    assert guard(title) is not None


_PLAIN_BODY = ["## Environment", "", "Image: our own build of the OpenAI server on 6x RTX PRO 6000",
               "Traffic at concurrency 1 looks perfect; at 2 the output turns to word salad."]  # fmt: skip


def test_a_count_in_an_mtp_title_keeps_the_run_s_mtp(tmp_path: Path) -> None:
    lines = _store("vllm-project/vllm", "issue #70001",
                   "[Bug]: MTP drafts turn to noise once more than two requests share a batch", _PLAIN_BODY)
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|MTPSpeculator")


@pytest.mark.parametrize("body", [
    ["### Environment", "vLLM Version: 0.28.0", "GPU: 2x A100 80G"],
    ["Collecting environment information...", "vLLM Version                 : 0.28.0",
     "vLLM Build Flags: CUDA Archs: Not Set; ROCm: Disabled"],
])  # fmt: skip
def test_a_slower_gemma4_mtp_title_is_that_run_s_gemma4_head(tmp_path: Path, body: list[str]) -> None:
    lines = _store("vllm-project/vllm", "issue #70002", "[Bug]: Gemma 4 31B MTP - Slower T/S at high context", body)
    assert_verdict(probed_path(tmp_path, lines), "unknown", "Gemma4Proposer|Gemma4Speculator")


def test_a_performance_title_with_the_run_s_figure_is_its_family(tmp_path: Path) -> None:
    lines = _store("vllm-project/vllm", "issue #70003",
                   "[Performance] Kimi-K2 on 8x H200 after the router fix: EAGLE3 1.8-2.0x decode",
                   ["## Summary", "", "We re-ran the recipe on a nightly with correctness gates in front of",
                    "every measurement: 12/12 prompts pass, TTFT 3.1s p50 at 128K."])  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "unknown", "EagleProposer|EagleSpeculator")


@pytest.mark.parametrize(("kind", "title"), [
    ("issue #70004", "[Performance] EAGLE3 vs MTP on 8x H200: 1.8x decode"),  # two methods compared
    ("pull request #70005", "[Spec Decode] Make EAGLE3 1.5x faster by fusing the draft step"),  # a PR's code
    ("issue #70006", "[Feature]: make MTP 2x faster on long prompts"),  # a request
    ("issue #70007", "[Performance] EAGLE3 on 8x B200 benchmark plan"),  # a GPU count, no figure
])  # fmt: skip
def test_titles_that_report_no_run_of_their_own_keep_no_path(tmp_path: Path, kind: str, title: str) -> None:
    lines = _store("vllm-project/vllm", kind, title, ["Details to follow.", "", "Thanks!"])
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("text", [
    "measured on an A100 80G (vllm 0.28.0 stock, gemma-4-31B w4a16 + the official MTP assistant, batch 1)",
    "Gemma 4 26B QAT NVFP4 with MTP, 3 draft tokens",
    "gemma-4-26B-A4B-it-FP8 + its MTP assistant",
])  # fmt: skip
def test_a_quantized_gemma4_joined_to_its_mtp_head_is_the_head(text: str) -> None:
    assert target_head(text, None) == ("Gemma4Proposer", None)


@pytest.mark.parametrize("text", [
    "gemma-4-31B w4a16 works; Qwen3.5 MTP fails",  # another model's MTP
    "gemma-4-31B w4a16 without speculation",
])  # fmt: skip
def test_a_gemma4_target_without_its_head_is_no_head(text: str) -> None:
    assert target_head(text, None) == (None, None)


def _line(text: str) -> LogLine:
    return LogLine(source="t.md", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream="")


@pytest.mark.parametrize("said", [
    "**The crash is fixed, not hidden**: all sweeps complete and speculation is still on (5 draft tokens).",
    "All runs finish. Disabling speculation would also make the assert go away, which is why we checked it.",
    "Turning off speculative decoding could hide it too, so the draft count is logged.",
])  # fmt: skip
def test_a_run_still_speculating_or_a_what_if_is_no_plain_run(said: str) -> None:
    assert not plain_run(_line(said))


@pytest.mark.parametrize("said", [
    "Same crash without speculative decoding.",
    "If I disable speculation, it still crashes.",
    "Spec decode is off and the server still dies at step 2.",
])  # fmt: skip
def test_a_plain_run_told_stays_plain(said: str) -> None:
    assert plain_run(_line(said))


def test_a_recipe_pr_re_measuring_dspark_with_vllm_bench_is_that_run(tmp_path: Path) -> None:
    lines = _store("example-org/serving-recipes", "pull request #74",
                   "docs(recipes): re-measure the kimi recipe on the new image, add pd-dspark",
                   ["The new image fixes the DSpark crash under load, so every combination was re-measured.",
                    "", "`vllm bench serve`, 1024 in / 128 out, `--ignore-eos`, `--seed 0`.", "",
                    "| c | `mixed` | `mixed-dspark` |", "|---:|---:|---:|", "| 4 | 50.1 | 140.2 |", "",
                    "**The crash is fixed, not hidden**: every sweep completes and speculation is still on",
                    "(7 draft tokens). Disabling speculation would also make the assert disappear, which is",
                    "why that check is there."], day="2026-08-02")  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkSpeculator")


def test_the_same_pr_whose_run_is_said_plain_keeps_no_dspark(tmp_path: Path) -> None:
    lines = _store("example-org/serving-recipes", "pull request #75",
                   "docs(recipes): re-measure the kimi recipe on the new image",
                   ["The new image fixes the DSpark crash under load.", "",
                    "`vllm bench serve`, 1024 in / 128 out, `--ignore-eos`, `--seed 0`.", "",
                    "We measured it without speculative decoding; the server still crashes at c=64."],
                   day="2026-08-02")  # fmt: skip
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and "DSpark" not in (path.conditional or ""), path


@pytest.mark.parametrize("text", [
    "Each EAGLE drop should cost a single block, whereas a faulty mask loses the whole prefix.",
    "prefix caching beside the EAGLE/MTP block drop stays untested on hybrid models",
    "which group carries the flag: the coordinator marks every eagle group when none is annotated",
    "the EAGLE-group fallback flags all groups",
])  # fmt: skip
def test_the_kv_cache_mechanism_named_after_eagle_is_no_method(text: str) -> None:
    assert family_words(text) == set()


@pytest.mark.parametrize(("text", "families"), [
    ("we serve EAGLE3 drafts on 0.20.1 and acceptance drops to 1.2", {"EAGLE3"}),
    ("EAGLE dropped the acceptance rate after the upgrade", {"EAGLE"}),
    ("MTP drops tokens under load", {"MTP"}),
    ("we saw an EAGLE3 drop in acceptance after the upgrade", {"EAGLE3"}),
])  # fmt: skip
def test_a_method_beside_a_drop_word_is_still_the_method(text: str, families: set[str]) -> None:
    assert family_words(text) == families


def test_a_title_about_what_is_untested_names_no_run() -> None:
    assert guard("Hybrid models leave the EAGLE block drop + prefix caching untested (a DSpark setup hits it)")


_ANALYSIS = ["## 4. Why the hit rate is zero", "",
             "| prefix tokens | all flagged | grp0 only | no EAGLE |", "|---:|---:|---:|---:|",
             "| 1,024 | 0 | 768 | 1,024 |", "",
             "The `grp0 only` column shows the one-block loss that an EAGLE drop on a full-attention group",
             "should cause. Each EAGLE drop should cost a single block, whereas a faulty mask loses the",
             "whole prefix, and the overall hit rate hides which of the two happened."]  # fmt: skip


def test_an_analysis_issue_on_the_eagle_drop_gets_no_path(tmp_path: Path) -> None:
    lines = _store("vllm-project/vllm", "issue #70010",
                   "Hybrid models with 3 attention groups leave the EAGLE/MTP block drop + prefix caching "
                   "untested (a DeepSeek-V4-Flash + DSpark setup hits it)", _ANALYSIS)
    assert_no_path(tmp_path, lines)


def test_a_dspark_run_that_reasons_about_the_eagle_drop_keeps_its_dspark(tmp_path: Path) -> None:
    lines = _store("vllm-project/vllm", "issue #70011",
                   "[Bug]: DSpark prefix cache hit rate is 0% on DeepSeek-V4-Flash",
                   ["We serve with `--speculative-config '{\"method\": \"dspark\", \"num_speculative_tokens\": 5}'`"
                    " on vLLM 0.27.0.", *_ANALYSIS])  # fmt: skip
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkSpeculator")


@pytest.mark.parametrize("title", ["[Bug]: MTP crashes on an untested GPU", "[Bug]: EAGLE3 hangs on untested hardware"])
def test_a_bug_title_naming_untested_hardware_still_reports_its_run(title: str) -> None:
    assert guard(title) is None
