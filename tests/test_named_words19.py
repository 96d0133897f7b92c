"""A run reported in words - the framework and the method named, a measured result or the
writer's own failure report, no launch, config, frame, release or day - gets the family's
classes on that framework across every release (session 19, NAMED).

Before: ``path_run.worded_framework`` read a framework named in words only where a version line,
a sentence-named release or a day bounded the release, and the SGLang era join read a family
only where a release, era line or day did (a family of one class aside), and took no measured
result of an issue, comment or page as a run of its own. So "MTP with vLLM: acceptance rate
0.78, 1520 tok/s" and "We measured accept length 1.02 with MTP on SGLang" were unknown. Now the
lookups name every class the family ran on (vLLM: V0's worker where V0 ran it, the V1 proposer,
each MRV2 speculator; SGLang: the era table's release condition), decided where that is one
class (DFlash2, DSpark, SGLang's NGRAM). Our own lines in several copy forms; a probe crash at
the end. Near misses: a release or day that bounds the run (decided as before), a question, a
plan, another source's numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import assert_verdict, probed_path


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a bare comment: MTP on vLLM measured
    (["MTP with vLLM on 2x H100: acceptance rate 0.78, output throughput 1520 tok/s "
      "(DeepSeek-V3, 1 speculative token)."], "unknown", "EagleProposer|EagleSpeculator|MTPSpeculator"),
    # a copied page: its title line, then the writer's measurement
    (["# EAGLE-3 on vLLM gives 1.7x at batch 1", "",
      "I measured EAGLE-3 with vLLM on one H100: acceptance length 2.9, 1.7x speedup at batch 1."],
     "unknown", "EagleProposer|EagleSpeculator"),
    # n-gram: V0 ran it too, so V0's worker is in the condition
    (["We benchmarked ngram speculative decoding on vLLM for Qwen3-8B: acceptance length 1.6, "
      "output throughput 410 tok/s."], "unknown", "NGramWorker|NgramProposer"),
    # a family the model runner v2 alone builds: one class on every release
    (["DFlash2 drafter with vLLM: acceptance length 4.1, output throughput 95 tok/s on an RTX 3090."],
     "other", "DFlash2Speculator"),
])  # fmt: skip
def test_a_vllm_run_told_in_words_names_every_era(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    """At base each was unknown ("in words: not read, since no version line ... bound the
    release"); deciding the V1 class alone would be wrong for a V0-era or MRV2 run."""
    assert_verdict(probed_path(tmp_path, lines), value, classes)


def test_a_bounded_vllm_run_keeps_its_class(tmp_path: Path) -> None:
    """A release a sentence names still decides the release's class, as before."""
    path = probed_path(tmp_path, ["Tested on vLLM 0.10.1.1 with MTP (2 speculative tokens): "
                                  "acceptance 81%, output token throughput 1520 tok/s."])
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # an issue title and the writer's measurement, no release or day
    (["# MTP accept length collapses to 1.0 on SGLang with DeepSeek-V3", "",
      "We measured accept length 1.02 with MTP (3 steps, topk 1) on 8x H200; it was 2.8 last month."],
     "unknown", "EAGLEWorker|EAGLEWorkerV2"),
    # a bare benchmark comment: one worker on every release
    (["Benchmarked NGRAM speculative decoding served by SGLang on Qwen3-8B: acceptance length "
      "1.9, speedup 1.4x on HumanEval."], "other", "NGRAMWorker"),
    # a draft trained elsewhere, served in SGLang, measured in a table
    (["Trained a DSpark draft for Qwen3-8B on 2k conversations.", "",
      "**Evaluation**: acceptance length measured by serving the exported draft in SGLang, greedy.", "",
      "| eval set | this draft |", "|---|---|", "| MT-Bench | 1.95 |", "| GSM8K | 2.61 |"],
     "v2", "DSparkWorkerV2"),
    # a page copied with its URL on top
    (["https://example.org/posts/serving-deepseek-mtp", "",
      "We served DeepSeek-V3 with MTP on SGLang (EAGLE, 3 steps, topk 1): accept length 2.7 "
      "and a 1.6x speedup at batch 1."],
     "unknown", "EAGLEWorker|EAGLEWorkerV2"),
])  # fmt: skip
def test_an_sglang_run_told_in_words_gets_the_release_condition(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    """At base: "the text shows no run of its own" (a measured result of a non-PR text was no
    run for the era join) or "no release, era line or day bounds the release"."""
    assert_verdict(probed_path(tmp_path, lines), value, classes)


@pytest.mark.parametrize("lines", [
    ["Can MTP on vLLM reach 1500 tok/s on 2x H100?"],  # a question
    ["We will measure EAGLE3 on SGLang next week: accept length and speedup at batch 1."],  # a plan
    ["For reference, the SGLang blog reports accept length 3.2 for EAGLE3 on Llama-3.1-8B."],  # another's
    ["According to the vLLM docs, MTP gives a 1.8x speedup on DeepSeek-V3."],  # the docs'
])  # fmt: skip
def test_no_run_told_gets_no_path(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and not path.conditional, path


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a bare issue body: the writer's requests keep crashing with the method on
    (["### Issue Summary", "When running tool-calling requests with DFlash2 speculative decoding on "
      "vLLM, requests consistently crash inside the grammar backend during verification."],
     "other", "DFlash2Speculator"),
    # an issue title and body on SGLang
    (["# EAGLE3 scheduler stall on SGLang", "",
      "With EAGLE3 enabled on SGLang the scheduler always hangs after the first 200 requests."],
     "unknown", "EAGLEWorker|EAGLEWorkerV2"),
    # a forum post: the engine still crashes
    (["MTP on vLLM with Qwen3-32B: the engine still crashes at 128k context after the fix."],
     "unknown", "EagleProposer|MTPSpeculator"),
    # a bare comment: one worker on every release
    (["NGRAM speculative decoding in SGLang intermittently fails with an illegal memory access at "
      "batch 64."], "other", "NGRAMWorker"),
])  # fmt: skip
def test_a_failure_the_writer_keeps_seeing_is_a_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    """How often it fails ("consistently crash", "always hangs", "still crashes") is the writer's
    observation of their run (``run_results._KEEPS_FAILING``); at base none of these was a run."""
    assert_verdict(probed_path(tmp_path, lines), value, classes)


@pytest.mark.parametrize("lines", [
    ["vLLM crashes when DFlash2 is enabled together with tool calls."],  # a general statement
    ["If you enable MTP on vLLM it will always crash at long context."],  # a hypothetical
    ["MTP on vLLM never crashes for us, even at 128k context."],  # not a failure
    ["Does EAGLE3 on SGLang always hang after warmup, or only with CUDA graphs?"],  # a question
])  # fmt: skip
def test_a_failure_not_seen_is_no_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and not path.conditional, path


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a bare comment: a response's per-request counters, fenced
    (["Carried this on sglang main. DSpark block size 5, one request with return_spec_tokens_details:",
      "", "```json", '{"spec_accept_rate": 0.293, "spec_accept_length": 2.465, "spec_verify_ct": 43}', "```"],
     "v2", "DSparkWorkerV2"),
    # the metrics endpoint's gauge
    (["EAGLE3 on SGLang, after 1k requests the metrics endpoint shows:", "",
      "sglang:spec_accept_length 1.04"], "unknown", "EAGLEWorker|EAGLEWorkerV2"),
    # a vLLM per-request field
    (["MTP with vLLM, the per-request stats: acceptance_rate=0.71, 2 speculative tokens."],
     "unknown", "EagleProposer|MTPSpeculator"),
    # n-gram on SGLang, a JSON line pasted bare
    (["NGRAM on SGLang for a code-editing workload:", '{"spec_accept_rate": 0.41, "spec_accept_length": 1.9}'],
     "other", "NGRAMWorker"),
])  # fmt: skip
def test_a_servers_acceptance_counter_is_a_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    """A counter's own spelling with its value (``run_results._COUNTER``): the spaced "accept
    length 2.4" was a result, the field ``"spec_accept_length": 2.46`` was not."""
    assert_verdict(probed_path(tmp_path, lines), value, classes)


@pytest.mark.parametrize("lines", [
    ["With DSpark on SGLang the response carries `spec_accept_length` when return_spec_tokens_details is set."],
    ["With MTP on vLLM you should see acceptance_rate=0.7 or so."],  # expected
])  # fmt: skip
def test_a_counter_with_no_value_seen_is_no_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


@pytest.mark.parametrize("lines", [
    # a feature PR copied with its URL: a benchmark client, a metric's name, no run
    ["https://github.com/example-org/trainer/pull/2372", "",
     "feat(speculative): add SGLang acceptance benchmark for EAGLE drafters", "",
     "EAGLE training only reports draft loss and top-1 token accuracy, but deployment needs the "
     "acceptance length.", "- `acceptance_rate`: `(accept_length - 1) / speculative_num_steps`"],
    # a vLLM PR header with a figure and no day
    ["example-org/serving · pull request #88 · open · Python", "# Add MTP support to the vLLM recipe",
     "", "MTP on vLLM: acceptance rate 0.78 in my run."],
])  # fmt: skip
def test_an_undated_pull_request_stays_unread(tmp_path: Path, lines: list[str]) -> None:
    """A pull request ran its branch, of a day it does not give; its words are mostly its code's."""
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


@pytest.mark.parametrize(("lines", "value", "classes"), [
    # a results PR in the index form: the figure only in its title, the engine in a note
    (["example-org/bench-rows · pull request #11 · closed · Python",
      "# Add H100 row (vLLM engine): 63.3 → 96.1 tok/s", "", "someone · description · 2026-08-15",
      "Engine note: vLLM 0.27.1 with `--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":2}'`."],
     "unknown", "EagleProposer|MTPSpeculator"),
    # a bare issue under its title, the measured outcome only there
    (["# EAGLE3 on SGLang: acceptance length stuck at 1.0", "",
      "Llama-3.1-8B-Instruct with its EAGLE3 draft, 3 steps."], "unknown", "EAGLEWorker|EAGLEWorkerV2"),
    # a bare post under its own title
    (["# NGRAM on SGLang: 1.4x speedup on code edits", "", "Qwen3-8B, batch 1, 8 draft tokens."],
     "other", "NGRAMWorker"),
    # a forum title
    (["DFlash2 with vLLM: 95 tok/s on a single RTX 3090", "", "Drafter Qwen3-8B-DFlash2, 15 tokens."],
     "other", "DFlash2Speculator"),
])  # fmt: skip
def test_a_title_giving_the_runs_figure_is_a_run(
    tmp_path: Path, lines: list[str], value: str, classes: str
) -> None:
    """A title line was read for its families and release only; its figure (``run_line``) now
    marks the run as a body's result line does."""
    assert_verdict(probed_path(tmp_path, lines), value, classes)


@pytest.mark.parametrize("lines", [
    ["# [Feature] Reach 100 tok/s with MTP on vLLM", "", "It would be great to support this."],
    ["# Add MTP to the vLLM recipe (target: 1.5x speedup)", "", "This PR adds the recipe only."],
])  # fmt: skip
def test_a_title_wishing_a_figure_is_no_run(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


@pytest.mark.parametrize("lines", [
    # a blog post: one family's figure, then broken, then another family as the workaround
    ["Box 1 ran SGLang 0.5.12 at 22 tok/s using NEXTN speculative decoding.", "",
     "NEXTN is currently broken on the SGLang 0.5.12 image after the update.", "",
     "The workaround is NGRAM speculative decoding on SGLang, with a lower accept rate."],
    # an issue comment: EAGLE3 measured before, DFlash tried since
    ["On SGLang, EAGLE3 gave accept length 3.1 last month.",
     "Since the upgrade we switched to DFlash on SGLang and it crashes at startup."],
])  # fmt: skip
def test_runs_of_several_families_told_name_no_worker(tmp_path: Path, lines: list[str]) -> None:
    """A text telling of runs with several SGLang families (not a PR, whose own result line is
    its branch's run): the line with a figure need not be the run the crash is about, so no
    class is decided; since session 37 (e93b139) a condition may list each family told, never one."""
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None, path
    cond = path.conditional or ""
    assert not cond or ("told apart" in cond and cond.count("Worker") >= 2), path


def test_the_explanation_says_an_undated_pull_request_is_not_read(tmp_path: Path) -> None:
    """``--explain-path``: the framework step says why words went unread - a pull request with
    no release or day - and no longer blames a missing release on a text it now reads."""
    from spectrace.pipeline import analyse

    def framework(lines: list[str], name: str) -> str:
        log = tmp_path / name
        log.write_text("\n".join([*lines, *PROBE_LINES]) + "\n", encoding="utf-8")
        (crash,) = [i for i in analyse([str(log)], explain=True).incidents if i.root_cause]
        assert crash.worker_path is not None
        return " ".join(s.why for s in crash.worker_path.trace if s.reader == "framework")

    pull = framework(["example-org/serving · pull request #88 · open · Python",
                      "# Add MTP support to the vLLM recipe", "", "MTP on vLLM: acceptance rate 0.78 in my run."],
                     "pull.txt")  # fmt: skip
    assert "a pull request" in pull and "bound its branch" in pull
    told = framework(["Can MTP on vLLM reach 1500 tok/s on 2x H100?"], "told.txt")
    assert "no day bound the release" not in told


PROBE_LINES = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
               "RuntimeError: spectrace probe"]  # fmt: skip
