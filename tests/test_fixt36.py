"""Session 36 (FIXT, post-FINAL): texts that show no run keep no path.

- A prose line that ends in an example marker ("..., e.g.", "For example,", "such as") captions the
  command or flag on the lines below it as the example it gives, not a run's launch (a fix PR's
  prose quoting "what recipes pass").
- A how-to or skill page that says what failures usually are ("Most failures here are setup
  problems (a broken wheel ...)", "Common errors: ...") tells no failure met: its commands stay the
  reader's to run.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path


def pull(repo: str, title: str, *body: str) -> list[str]:
    """A saved pull request thread: header, title, the description post, then ``body``."""
    return [f"{repo} · pull request #7001 · open · Python", f"# {title}", "", "dev-x · description · 2026-10-02", *body]


# --- a flag on the line below an example marker --------------------------------------------------

_EXAMPLES = {
    "vllm-eg": pull("vllm-project/vllm", "[Spec Decode] Keep the drafter's kv_cache_dtype override on the V2 runner",
                    "## Purpose", "", "The drafter override was dropped by the V2 runner. Most deployments pass it, e.g.",
                    """`--speculative-config '{"method":"eagle3","model":"org/draft-e3","kv_cache_dtype":"fp8"}'`.""",
                    "", "## Test Plan", "", "Unit tests added for the config merge."),
    "vllm-for-instance": pull("vllm-project/vllm", "[Core] Forward the drafter's quantization to the draft config",
                              "The draft config now keeps its own quantization. Users set it for instance",
                              """--speculative-config '{"method": "mtp", "num_speculative_tokens": 2, "quantization": "fp8"}'""",
                              "and the runner used to drop it."),
    "sglang-such-as": pull("sgl-project/sglang", "Refactor draft graph capture arguments",
                           "Draft capture now reads its step count from the server args, which launches set such as",
                           "`--speculative-algorithm EAGLE3 --speculative-num-steps 5 --speculative-eagle-topk 4`",
                           "so the helper no longer takes it as a parameter."),
}  # fmt: skip


@pytest.mark.parametrize("lines", list(_EXAMPLES.values()), ids=list(_EXAMPLES))
def test_a_flag_under_a_line_ending_in_an_example_marker_is_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines, name="thread.md")


def test_a_failing_run_captioned_with_an_example_marker_keeps_its_command(tmp_path: Path) -> None:
    # the marker line tells the failure the command below met: the command is the writer's run
    path = probed_path(tmp_path, [
        "vllm-project/vllm · issue #7002 · open", "# [Bug]: EAGLE3 drafter crashes at the first request", "",
        "user-q · opened · 2026-10-03",
        "The server crashes at the first request with any EAGLE3 draft, for example",
        "vllm serve org/target --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/draft-e3\", "
        "\"num_speculative_tokens\": 3}'",
        "INFO 10-03 10:00:01 [__init__.py:239] Automatically detected platform cuda.",
    ])  # fmt: skip
    assert path.worker_class is not None or path.conditional, path


# --- a how-to page saying what failures usually are ----------------------------------------------

_GUIDES = {
    "skill-trtllm": ["---", "name: mtp-sweep", "description: >", "  Run a throughput sweep of the PyTorch backend with MTP.",
                     "---", "", "# MTP sweep", "",
                     "Most failures here are setup problems (a broken wheel, a stale container), not the sweep.", "",
                     "Run:", "```", "trtllm-serve <model> --backend pytorch --extra_llm_api_options <cfg.yaml> --port 8000",
                     "```", "The config sets `speculative_config: {decoding_type: MTP, num_nextn_predict_layers: 3}`."],
    "howto-sglang": ["# Serving with EAGLE3", "",
                     "Common errors are environment ones: a broken flashinfer wheel or a missing draft checkpoint.", "",
                     "1. Start the server:", "```",
                     "python -m sglang.launch_server --model-path <target> --speculative-algorithm EAGLE3 "
                     "--speculative-draft-model-path <draft>", "```", "2. Send a request to port 30000."],
    "guide-vllm": ["## Running the drafter", "",
                   "Typical failures: a broken CUDA install, a draft that does not match the target's vocab.", "",
                   "```", "vllm serve <model> --speculative-config '{\"method\": \"eagle3\", \"model\": \"<draft>\"}'",
                   "```", "Then point the benchmark client at the server."],
}  # fmt: skip


@pytest.mark.parametrize("lines", list(_GUIDES.values()), ids=list(_GUIDES))
def test_a_guide_saying_what_failures_usually_are_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines, name="SKILL.md")


def test_a_guide_with_a_record_of_its_own_run_keeps_the_run(tmp_path: Path) -> None:
    # the same guide words, but the page pastes what its server printed: a run
    path = probed_path(tmp_path, [
        "# MTP sweep", "", "Most failures here are setup problems (a broken wheel), not the sweep.", "",
        "python -m sglang.launch_server --model-path org/target --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path org/draft",
        "[2026-10-03 10:00:01 TP0] Capture draft cuda graph begin. This can take up to several minutes.",
    ])  # fmt: skip
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
