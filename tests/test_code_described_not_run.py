"""Code that maps or forwards method names, and questions about what a method would give, are
not runs (``not_run.FLAG_TOLD``, ``FEATURE_FORM``, ``HOW_TO``): a wrapper's pull request
describing how its flags reach the engine ("`--num-speculative-tokens` defaults to ...", "`--spec`
is passed through to vllm serve"), an issue filed on a feature form quoting its own mapping of
method names, a thread titled as a how-to question ("How to reach 250 tok/s with ... on 8xB200")
show no run. The same threads with a run of their own (a ticked measured check, the writer's
launch and crash, a failure in the title) keep it.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, crash_path, run


def test_a_wrappers_pr_describing_its_flags_is_no_run(tmp_path: Path) -> None:
    lines = ["acme-labs/trainkit · pull request #2913 · merged · Python",
             "# feat(serving): serve DFlash drafts on vLLM", "", "dev-a · description · 2026-07-03",
             "## What does this PR do?", "",
             "`serve_vllm` gains vLLM's `dflash` speculative method, so DFlash drafts trained here can be served.",
             "- A DFlash draft is auto-detected from its config, so `--method` can be omitted; an explicit `--method` still wins.",
             "- The draft's `architectures` are rewritten to vLLM's registered `DFlashDraftModel`, as for EAGLE-3 drafts.",
             "- `--num-speculative-tokens` defaults to `block_size - 1` for DFlash (one anchor plus the mask slots).",
             "- Causal drafts are stamped at training time, and a `--dflash-causal` flag covers older checkpoints."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_pass_through_pr_in_web_copy_is_no_run(tmp_path: Path) -> None:
    lines = ["Forward speculative options to the vLLM server by dev-b · Pull Request #512 · acme/servekit · GitHub",
             "", "dev-b wants to merge 2 commits into main", "",
             "- `--speculative-config` is passed through to `vllm serve` unchanged.",
             "- `--spec-method eagle3` maps to vLLM's `eagle3` method and `--spec-method mtp` maps to `deepseek_mtp`.",
             "- `--num-draft-tokens` now defaults to 3 when a draft model is given."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_an_rl_trainers_pr_forwarding_the_algorithm_to_sglang_is_no_run(tmp_path: Path) -> None:
    lines = ["acme/rl-lab pull request #88 · merged", "# rollout: expose speculative decoding for SGLang rollouts", "",
             "dev-c · description · 2026-02-11",
             "The rollout config gains `speculative_algorithm` (EAGLE3 or NEXTN); the `--speculative-algorithm` "
             "option is forwarded to SGLang's server as is.",
             "`--speculative-num-steps` defaults to 3 and `--speculative-eagle-topk` to 1."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_an_enhancement_on_a_feature_form_quoting_its_mapping_is_no_run(tmp_path: Path) -> None:
    lines = ["Allow more MTP method names for the vLLM backend · Issue #4211 · acme/gpu-stack", "",
             "dev-d opened on Mar 2, 2026", "", "### Is your feature request related to a problem? Please describe.",
             "When the algorithm type is MTP, the backend always passes deepseek_mtp to vLLM.", "```",
             "    VLLM_METHODS = {", '        SpecAlgo.EAGLE3: "eagle3",', '        SpecAlgo.MTP: "deepseek_mtp",',
             '        SpecAlgo.NGRAM: "ngram",', "    }", "```",
             "### Describe the solution you'd like", "Let the user pick qwen3_next_mtp or glm4_moe_mtp as well."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_an_enhancement_template_in_the_index_form_is_no_run(tmp_path: Path) -> None:
    lines = ["acme/gpu-stack · issue #4300 · open", "# MTP draft length is fixed at one token", "",
             "dev-e · description · 2026-04-08", "**Is your enhancement related to a problem? Please describe.**",
             "The vLLM backend maps MTP to `{\"method\": \"mtp\", \"num_speculative_tokens\": 1}` whatever the model has.",
             "**Describe the solution you'd like**", "Expose num_speculative_tokens in the model settings."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_how_to_question_thread_about_mtp_is_no_run(tmp_path: Path) -> None:
    lines = ["How to achieve 250 tok/sec with DeepSeek-R1 FP4 on 8xB200 · Issue #3101 · NVIDIA/TensorRT-LLM", "",
             "user-f commented on Mar 26, 2025",
             "So the point is MTP=3? I cannot see the acceptance at runtime, it's hard to judge how MTP speeds it up.",
             "user-g commented on Mar 27, 2025",
             "In theory MTP does not hurt accuracy; the acceptance can be printed with trtllm-bench."]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_how_to_title_in_the_index_form_is_no_run(tmp_path: Path) -> None:
    lines = ["sgl-project/sglang · issue #30111 · closed", "# How can I get better EAGLE3 acceptance for a long-context model",
             "", "user-h · description · 2026-05-30",
             "Would a larger --speculative-num-draft-tokens help, or should the draft be retrained on long prompts?"]  # fmt: skip
    assert_no_path(tmp_path, lines)


# near misses: the same shapes with a run of their own


def test_a_wrappers_pr_with_a_measured_ticked_check_keeps_the_run(tmp_path: Path) -> None:
    lines = ["acme/servekit · pull request #513 · merged", "# feat: forward speculative options to vLLM", "",
             "dev-b · description · 2026-03-02", "- `--speculative-config` is passed through to `vllm serve` unchanged.",
             "## Test plan", "Served through the wrapper on vLLM 0.11.0:",
             "vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/d\", "
             "\"num_speculative_tokens\": 3}'",
             "- [x] EAGLE3 on H100: 2.1x output throughput against the plain server"]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "other", "EagleProposer")


def test_a_how_to_title_over_the_writers_crash_keeps_the_run(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #40222 · open", "# How to fix EAGLE3 crash on 0.10.1", "",
             "user-i · description · 2026-01-10", "I launched:",
             "vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"eagle3\", \"model\": \"acme/d\", "
             "\"num_speculative_tokens\": 3}'",
             "and the engine core dies at the first request."]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "other", "EagleProposer")


def test_a_flag_in_the_writers_own_command_is_still_read(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #40223 · open", "# [Bug]: ngram speculation slows decoding on 0.10.1", "",
             "user-j · description · 2026-01-11", "--speculative-config is set on my server as below:",
             "vllm serve acme/Orbit-8B --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 4, "
             "\"prompt_lookup_max\": 4}'",
             "Decoding is 30% slower than without it."]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, "", *PROBE])), "other", "NgramProposer")
