"""A vLLM text that puts its run on the V0 engine by a ``[v0]``/``[V0]`` tag (any case, beside any
other tag) or by running V0's own tests (``pytest tests/spec_decode/e2e/...``, V0's worker unit
tests) gets V0's spec-decode classes, never a V1-only class (``vllm_v0_title``): several families
tested -> the wrapper every V0 run went through (``SpecDecodeWorker``); one -> its V0 proposer
worker. V1's test tree (``tests/v1/spec_decode/``) and a ``[V1]`` tag keep the V1 class.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_verdict, crash_path, run

V1_ONLY = ("EagleProposer", "MedusaProposer", "NgramProposer", "DraftModelProposer", "EagleSpeculator")


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202 - the probe's WorkerPath
    return crash_path(run(tmp_path, [*lines, "", *PROBE]))


def _v0_only(tmp_path: Path, lines: list[str], cls: str) -> None:
    path = _path(tmp_path, lines)
    said = f"{path.worker_class or ''} {path.conditional or ''}"
    assert not any(c in said for c in V1_ONLY), path
    assert_verdict(path, "other", cls)


TESTS = ["Tested with the spec decode e2e tests below (chunked prefill is not supported here):", "```",
         "VLLM_SKIP_WARMUP=true pytest -v tests/spec_decode/e2e/test_eagle_correctness.py::test_eagle_e2e_greedy_correctness",
         "VLLM_SKIP_WARMUP=true pytest -v tests/spec_decode/e2e/test_medusa_correctness.py::test_medusa_e2e_greedy_correctness",
         "VLLM_SKIP_WARMUP=true pytest -v tests/spec_decode/e2e/test_ngram_correctness.py::test_ngram_e2e_greedy_correctness",
         "```"]  # fmt: skip


def test_a_lowercase_v0_tag_over_several_families_tests_is_the_v0_wrapper(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · pull request #17555 · closed · Python", "# [XPU][v0] Enable spec decode on XPU", "",
             "dev-n · description · 2025-04-20", "This PR enables spec decode on XPU.", *TESTS]  # fmt: skip
    _v0_only(tmp_path, lines, "SpecDecodeWorker")


def test_the_v0_test_tree_in_a_web_copy_with_no_tag(tmp_path: Path) -> None:
    lines = ["Enable speculative decoding on the Gaudi backend by dev-o · Pull Request #16001 · vllm-project/vllm · GitHub",
             "", "dev-o wants to merge 3 commits into main", *TESTS]  # fmt: skip
    _v0_only(tmp_path, lines, "SpecDecodeWorker")


def test_a_v0_tag_with_one_family_tested_is_its_v0_worker(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm#16100 · pull request · merged", "# [Spec Decode] [V0] Fix MLP speculator on CPU", "",
             "dev-p · description · 2025-03-02",
             "pytest tests/spec_decode/e2e/test_mlp_correctness.py -k test_mlp_e2e_greedy_correctness passed on CPU."]  # fmt: skip
    _v0_only(tmp_path, lines, "MLPSpeculatorWorker")


def test_v0_worker_unit_tests_in_a_bare_body_are_the_v0_wrapper(tmp_path: Path) -> None:
    lines = ["Ran the V0 unit tests for the proposer change:",
             "pytest tests/spec_decode/test_spec_decode_worker.py tests/spec_decode/test_multi_step_worker.py -q",
             "58 passed in 212.30s", "The draft model path (vllm serve acme/Orbit-8B with a draft model) is unchanged."]  # fmt: skip
    path = _path(tmp_path, lines)
    said = f"{path.worker_class or ''} {path.conditional or ''}"
    assert not any(c in said for c in V1_ONLY), path


def test_a_lowercase_v0_tag_on_a_fix_title_is_v0s_worker(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · pull request #16300 · merged · Python",
             "# [Bugfix][v0] Fix ngram speculation crash with prefix caching", "", "dev-s · description · 2025-04-02",
             "With `--speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4}'` and prefix "
             "caching on, the server crashes at the second request."]  # fmt: skip
    _v0_only(tmp_path, lines, "NGramWorker")


def test_a_lowercase_v0_tag_on_a_bug_title_naming_the_method_is_v0s_worker(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #16400 · closed", "# [Bug][v0]: ngram speculation hangs after a few hundred requests",
             "", "user-t · description · 2025-05-06", "The server stops answering; the last log line is the scheduler's."]  # fmt: skip
    _v0_only(tmp_path, lines, "NGramWorker")


def test_a_v0_tag_over_a_method_the_title_spells_is_v0s_worker(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #15801 · closed",
             "# [Bug][v0]: deepseek_mtp speculation repeats tokens at batch 32", "", "user-u · description · 2025-03-28",
             "With the MTP module as `--speculative-model` and one speculative token, batch 1 is fine."]  # fmt: skip
    _v0_only(tmp_path, lines, "MultiStepWorker")


# near misses: V1's tree and tag keep the V1 class


def test_v1_spec_decode_tests_keep_the_v1_class(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · pull request #20001 · merged · Python", "# [Spec Decode] Fix EAGLE with chunked prefill", "",
             "dev-q · description · 2025-07-02",
             "pytest tests/v1/spec_decode/test_eagle.py tests/v1/e2e/test_spec_decode.py -k eagle: 31 passed"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert "SpecDecodeWorker" not in f"{path.worker_class} {path.conditional}", path


def test_a_v1_tag_is_not_a_v0_tag(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · pull request #20002 · merged · Python", "# [V1][Spec Decode] Fix ngram proposer crash", "",
             "dev-r · description · 2025-06-02", "Crash seen with vllm serve acme/Orbit-8B --speculative-config "
             "'{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'"]  # fmt: skip
    assert_verdict(_path(tmp_path, lines), "other", "NgramProposer")
