"""A framework named only in words (a title's or the family line's "on vLLM", "with
TensorRT-LLM", "on SGLang") joins the family to that framework's era rows (path_run.worded_framework).

Our own lines in the shapes of downstream threads (recipe repositories, benchmark trackers:
r30 03 "... vLLM EAGLE3" with a serve line, r29 32 "MTP for dsr1 TRT"), none of whose headers
name a framework's tracker, and look-alikes that must stay without a path: a guide with no run,
a comparison, a PR adding a recipe, two frameworks, an undated page."""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import assert_verdict, crash_path, run

_HEADER = "acme-labs/serving-recipes · {kind} #212 · open · Shell"
# a crash of bare script names: it shows no run of its own, so only the lines can
_PROBE = [
    "Traceback (most recent call last):",
    '  File "probe.py", line 1, in <module>',
    "RuntimeError: probe",
]


def _thread(title: str, day: str | None, *body: str, kind: str = "issue") -> list[str]:
    dated = [f"someone · description · {day}"] if day else []
    return [_HEADER.format(kind=kind), f"# {title}", "", *dated, *body, "", *_PROBE]


def test_mtp_on_vllm_in_2026_is_the_v1_proposer(tmp_path: Path) -> None:
    """MTP "on vLLM" with a benchmark result, posted when every release ran it on the V1
    runner's EagleProposer."""
    lines = _thread("GLM-5 MTP on vLLM stalls after warmup", "2026-03-14",
                    "We serve it with MTP, 2 speculative tokens.",
                    "Output token throughput (tok/s): 812.5")
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "EagleProposer")


def test_an_eagle_draft_on_vllm_in_2024_is_v0s_multi_step_worker(tmp_path: Path) -> None:
    """EAGLE on vLLM, posted before the V1 engine had any proposer: V0 ran it on MultiStepWorker."""
    lines = _thread("EAGLE draft on vLLM gives little speedup for Llama-2-70B", "2024-06-20",
                    "We serve with an EAGLE draft, 4 speculative tokens.",
                    "Throughput: 3.1 requests/s")
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MultiStepWorker")


def test_mtp_with_tensorrt_llm_is_the_mtp_condition(tmp_path: Path) -> None:
    """MTP "with TensorRT-LLM" and an acceptance figure: MTP Eagle or vanilla MTP, by the
    checkpoint and use_mtp_vanilla."""
    lines = _thread("DeepSeek-V3 MTP with TensorRT-LLM: low acceptance", "2025-11-02",
                    "Acceptance rate: 0.41 with 3 draft layers.")
    assert_verdict(crash_path(run(tmp_path, lines)), "unknown", "MTPEagleWorker|MTPWorker")


def test_eagle3_on_vllm_ascend_in_early_2026_is_the_plugins_era_class(tmp_path: Path) -> None:
    """EAGLE3 "on vllm-ascend", posted when the plugin's newest release still ran vLLM's own
    EagleProposer (its AscendEagleProposer came with v0.16)."""
    lines = _thread("Qwen3 EAGLE3 on vllm-ascend: garbage after the first token", "2026-01-20",
                    "Output token throughput (tok/s): 80.1")
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "EagleProposer")


def _none(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and not path.conditional and path.worker_class is None, path


def test_a_guide_with_no_run_names_no_path(tmp_path: Path) -> None:
    """A how-to page naming Medusa and vLLM, with no run of its own."""
    _none(tmp_path, _thread("Running Medusa heads on vLLM: a short guide", "2026-01-05",
                            "Medusa lets vLLM propose several tokens per step.",
                            "Here is how you set it up."))


def test_a_comparison_names_no_framework(tmp_path: Path) -> None:
    """The title names vLLM beside another engine ("slower than LMDeploy"): which one the
    Medusa run the body reports ran on is open."""
    _none(tmp_path, _thread("vLLM serves 30% slower than LMDeploy on Llama-4", "2026-02-10",
                            "We serve with Medusa heads, 4 speculative tokens.",
                            "Output token throughput (tok/s): 391.0"))


def test_two_frameworks_name_none(tmp_path: Path) -> None:
    """The title names vLLM, the family's line names TensorRT-LLM: which one ran is open."""
    _none(tmp_path, _thread("Medusa heads: output garbled on our vLLM box", "2026-02-10",
                            "On TensorRT-LLM the Medusa run gave 391 tok/s"))


def test_an_undated_page_fits_every_era(tmp_path: Path) -> None:
    """No day and no version line: "Medusa on vLLM" fits V0's worker and V1's proposer alike,
    so both are the condition (session 19; before, no path), never the V1 class alone."""
    path = crash_path(run(tmp_path, _thread("Medusa heads on vLLM: output garbled after 2k tokens",
                                            None, "Throughput: 3.1 requests/s")))
    assert_verdict(path, "unknown", "MedusaWorker|MedusaProposer")


def test_a_pull_request_adding_a_recipe_names_its_run(tmp_path: Path) -> None:
    """A downstream PR adding a vLLM Medusa recipe and telling what its run measured shows that
    run: vLLM's Medusa on its day is the V1 runner's MedusaProposer."""
    lines = _thread("Add vLLM Medusa recipe for Llama-4", "2026-02-10",
                    "This adds the recipe and its launch script.",
                    "Ran it on 8x H100: 1.8x output throughput at batch 8.", kind="pull request")
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MedusaProposer")


def test_a_pull_request_adding_a_recipe_with_no_result_names_no_path(tmp_path: Path) -> None:
    """The same recipe PR with no result, log or sweep is a config change (rounds 35-42 label
    them traps; rounds 29-33 had taken them for runs): not_run's CONFIG_CHANGE."""
    _none(tmp_path, _thread("Add vLLM Medusa recipe for Llama-4", "2026-02-10",
                            "This adds the recipe and its launch script.", kind="pull request"))


def test_a_pull_request_adding_an_option_to_a_launcher_names_no_path(tmp_path: Path) -> None:
    """A downstream PR adding a method's option to its code, deploying nothing: no run."""
    _none(tmp_path, _thread("Add a vLLM Medusa option to the launcher", "2026-02-10",
                            "This adds the option and its docs.", kind="pull request"))


_TRT_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py",'
    " line 1210, in _executor_loop",
    "    batch_outputs = self._forward_step(scheduled_batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def test_two_tensorrt_llm_families_are_one_condition_over_both(tmp_path: Path) -> None:
    """A TensorRT-LLM report that ran two families and does not say which crashed: each
    family's class or condition, joined (as the vLLM lookup joins its families)."""
    lines = ["NVIDIA/TensorRT-LLM · issue #9100 · open · Python", "labels: bug",
             "# [Bug] executor dies under load on 1.1.0", "", "someone · description · 2025-10-02",
             "Both our Eagle3 and our MTP configs were in the sweep; one of them took the server down.",
             *_TRT_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "Eagle3OneModelWorker|MTPEagleWorker|MTPWorker")


def test_a_family_with_no_class_leaves_the_pair_open(tmp_path: Path) -> None:
    """MTP beside n-gram, whose flow (engine or PyTorch) the text does not show: n-gram gives
    nothing, so the pair gives no condition either."""
    lines = ["NVIDIA/TensorRT-LLM · issue #9101 · open · Python", "labels: bug",
             "# [Bug] executor dies under load", "", "someone · description · 2025-10-02",
             "Both our N-gram and our MTP configs were in the sweep; one of them took the server down.",
             *_TRT_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not path.conditional, path


def test_a_title_release_tag_is_the_worded_frameworks_release(tmp_path: Path) -> None:
    """A downstream title tags the release ("[v0.6.2]") of the framework its words name: EAGLE
    on that vLLM ran on V0's MultiStepWorker, though the thread's day allows V1 releases."""
    lines = _thread("[v0.6.2] Qwen2 EAGLE draft on vLLM: garbled output after 2k tokens",
                    "2025-10-20", "We serve with an EAGLE draft, 3 speculative tokens.",
                    "Throughput: 2.4 requests/s")
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "MultiStepWorker")
