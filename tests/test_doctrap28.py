"""Documents that hold no record of a run get no path (issue 11, session 28, DOCTRAP).

The shapes: a code recon note, a design and status doc, a fix plan, a rollout plan: a text of
sections whose failure and method words are its subject (a symptom it explains, a condition it
plans for, a config it documents), with no log record, no frame, no writer telling a run of
theirs, no measured figure and no outcome told in the past. And a plan's step: a command a gate
follows (a criterion still to meet). The same documents that also tell what happened when their
writer ran them keep their paths. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, probed_path, run, crash_path

# ---- a code recon note: file anchors, a promotion rule, a plan for the first live check ---------

SGL_RECON = [
    "lab-user/spark-notes · notes/eagle_path_reading_2026-05-02.md (abc1234 2026-05-02)",
    "",
    "# Reading the EAGLE path in our SGLang checkout",
    "",
    "Scope: source reading for the draft lane; nothing was served for this note.",
    "",
    "## Findings",
    "",
    "The path is `EAGLE`: when the draft config carries a NextN head, `--speculative-algorithm NEXTN`"
    " is promoted to `EAGLE` in `sglang/srt/server_args.py`.",
    "",
    "## Where the code lives",
    "",
    "- `sglang/srt/speculative/eagle_worker.py`",
    "  - builds the draft runner and the verify inputs.",
    "- `sglang/srt/speculative/spec_info.py`",
    "  - maps each algorithm name to its worker class.",
    "",
    "## Next check",
    "",
    "- Run the plain rows first, then the drafted rows once the non-spec row is green.",
    "- If the draft step crashes during capture, look at the graph runner's batch sizes.",
    "- If verify diverges, compare the two attention backends' metadata.",
]
VLLM_RECON = [
    "# How the proposer is picked in vLLM",
    "",
    "Notes from going through the tree; there is no serving result here.",
    "",
    "## Selection",
    "",
    "A `--speculative-config` with method `eagle3` ends in `EagleProposer` on the V1 runner.",
    "",
    "## Open questions",
    "",
    "- Should the drafter fail on a vocabulary mismatch, the loader raises before capture.",
    "- When the draft length grows past the limit, the scheduler trims the request.",
]


@pytest.mark.parametrize("lines", [SGL_RECON, VLLM_RECON], ids=["sglang-recon", "vllm-recon"])
def test_a_note_that_reads_code_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


# ---- a design and status doc: mechanism, a config example, files, a plan ------------------------

TRT_DESIGN = [
    "# Tree drafting for our TensorRT-LLM branch",
    "",
    "The scheme drafts a small tree per step and verifies it in one target pass.",
    "",
    "## Configuration",
    "",
    "```python",
    "speculative_config = {",
    '    "decoding_type": "Eagle",',
    '    "max_draft_len": 4,',
    "}",
    "```",
    "",
    "## Status",
    "",
    "- The sampler change is merged; the fallback path stays fail-closed.",
    "- Still to prove: a soak with drafting on and off, compared on one node.",
]


def test_a_design_doc_names_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, TRT_DESIGN)


# ---- the same documents telling their writer's own run keep the path ----------------------------


def test_the_note_with_the_writers_outcome_keeps_the_run(tmp_path: Path) -> None:
    """The writer says they ran it and what happened: the note reports a run."""
    lines = [*VLLM_RECON, "", "## Trial", "", "We launched it on 0.10.1 and the server died at warmup."]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_the_note_with_an_outcome_told_in_the_past_keeps_the_run(tmp_path: Path) -> None:
    lines = [*VLLM_RECON, "", "## Smoke run", "", "The 0.10.1 smoke run crashed at the first verify step."]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_the_note_with_a_measured_figure_keeps_the_run(tmp_path: Path) -> None:
    lines = [*VLLM_RECON, "", "## Numbers", "", "- decode: 142 tok/s on one H100, vLLM 0.10.1"]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_the_note_with_the_servers_records_keeps_the_run(tmp_path: Path) -> None:
    lines = [
        *VLLM_RECON,
        "",
        "INFO 05-02 10:01:15 [api_server.py:1090] vLLM API server version 0.10.1",
        "INFO 05-02 10:01:40 [gpu_model_runner.py:1901] Loading drafter model...",
    ]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_a_figure_set_as_a_target_is_no_result(tmp_path: Path) -> None:
    """"target: accept rate >= 40%" is what the check must reach, not what a run gave."""
    lines = [*TRT_DESIGN, "- Expected — rejected drafts down 30% / target accept rate >= 40%"]
    assert_no_path(tmp_path, lines)


# ---- a plan's step: a command a gate follows ----------------------------------------------------

def _plan(gate: str) -> list[str]:
    return [
        "owner/quant-kit · docs/serve_plan.md (commit 1122aab, 2026-04-09)",
        "",
        "# Serving the quantized checkpoint",
        "",
        "We quantized the checkpoint last week; serving it is the next phase.",
        "",
        "## Phase 3 — serve with drafting",
        "",
        "Bring the server up with the draft head:",
        "```bash",
        "vllm serve /ckpt/model-q \\",
        "    --tensor-parallel-size 2 \\",
        "    --speculative-config '{\"method\": \"eagle3\", \"model\": \"/ckpt/draft\", \"num_speculative_tokens\": 3}'",
        "```",
        gate,
    ]


@pytest.mark.parametrize("gate", [
    "**Gate:** the server comes up and the log shows an acceptance rate above 30%.",
    "Pass criteria: requests return text and the draft loads without a warning.",
], ids=["gate", "pass-criteria"])
def test_a_command_a_gate_follows_is_a_plan_step(tmp_path: Path, gate: str) -> None:
    assert_no_path(tmp_path, _plan(gate))


def test_a_command_its_output_follows_is_a_run(tmp_path: Path) -> None:
    """The same command followed by what the server printed: the writer ran it."""
    lines = [*_plan("Output:")[:-1], "Output:",
             "INFO 04-09 11:02:03 [api_server.py:1090] vLLM API server version 0.10.1",
             "INFO 04-09 11:02:30 [gpu_model_runner.py:1901] Loading drafter model..."]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


def test_a_gate_with_a_crash_through_the_tree_keeps_the_crash(tmp_path: Path) -> None:
    """A plan whose step then crashed in the engine's tree: the crash shows the run."""
    lines = [
        *_plan("**Gate:** the server comes up."),
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py", line 210, in propose',
        "RuntimeError: draft forward failed",
    ]
    assert crash_path(run(tmp_path, lines)).worker_class == "EagleProposer"


# ---- records a dialect did not head, an error line as printed, an error named in a plan -------


def test_log_records_with_a_cut_prefix_keep_the_run(tmp_path: Path) -> None:
    """Worker records pasted with their prefix cut ("Worker_TP0 pid=56] x.py:N] ...") are what
    the server printed: the note reports a run."""
    lines = [
        *VLLM_RECON,
        "",
        "## What the head printed",
        "",
        "```",
        "Worker_TP0 pid=41] gpu_model_runner.py:1901] Loading drafter model...",
        "Worker_TP0 pid=41] api_server.py:1090] vLLM API server version 0.10.1",
        "```",
    ]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"


MOD_README = [
    "ops-team/serving-mods · mods/draft-table-headroom/README.md",
    "",
    "# draft-table-headroom",
    "",
    "Patch for a buffer sized without the draft tokens. With MTP on vLLM 0.10.1 the step fails:",
    "",
    "```",
    "RuntimeError: block table too small (511 vs 512)",
    "```",
    "",
    "## Fix",
    "",
    "Add one block of headroom in `vllm/v1/worker/block_table.py` when `num_speculative_tokens` is set.",
    "",
    "## Checked with",
    "",
    "- vLLM 0.10.1 image, MTP with two draft tokens, a context length that fills whole blocks",
]


def test_an_error_line_as_printed_is_the_documents_record(tmp_path: Path) -> None:
    """A mod's README quoting the error its run printed: the crash is the run's record."""
    path = crash_path(run(tmp_path, MOD_README))
    assert path.worker_class is not None or path.conditional, path


def test_an_error_named_in_a_plan_sentence_is_no_record(tmp_path: Path) -> None:
    lines = [
        "acme-ml/fleet-docs · docs/drafting-rollout.md (commit 9a8b7c6, 2026-10-03)",
        "",
        "# Turning on EAGLE for the batch tier",
        "",
        "On Monday the batch tier moves to `--speculative-algorithm EAGLE` on SGLang 0.5.9.",
        "Should the restart fail with `RuntimeError`, go back to plain decoding.",
    ]
    assert_no_path(tmp_path, lines)


def test_a_figure_behind_a_comparison_sign_is_a_threshold(tmp_path: Path) -> None:
    lines = [*TRT_DESIGN, "- Keep drafting on while acceptance stays high (>60%); turn it off below (<30%)."]
    assert_no_path(tmp_path, lines)


# ---- a command's name in a feature PR's prose is no command line --------------------------------

TRT_FEATURE = [
    "NVIDIA/TensorRT-LLM · pull request #4512 · merged · Python",
    "# [TRTLLM-1234][feat] Eagle3 spec-decode option defaults",
    "",
    "dev-one · description · 2026-01-10",
    "## Description",
    "",
    "### 1. Draft vocabulary defaults to the target's",
    "",
    "- Right now, a user who starts eagle3 through trtllm-serve, must give the draft vocabulary size by hand.",
    "",
    "### 2. Rename the pytorch backend's `decoding_type: Eagle` to `decoding_type: Eagle3`",
    "",
    "- The older Eagle heads and Eagle3 heads differ and should carry different names.",
    "- A reader of the yaml then sees decoding_type: Eagle3 and knows which head is meant.",
]
VLLM_FEATURE = [
    "vllm-project/vllm · pull request #40001 · open · Python",
    "# [Feature] EAGLE-3 spec decode with a smaller draft vocabulary",
    "",
    "alice-dev · description · 2026-02-01",
    "## Purpose",
    "",
    "- Launching an eagle3 draft under `vllm serve`, the engine refuses a draft whose vocabulary is smaller.",
    "- This PR maps the draft's tokens onto the target's, so method eagle3 works with such drafts.",
]


@pytest.mark.parametrize("lines", [TRT_FEATURE, VLLM_FEATURE], ids=["trtllm-serve", "vllm-serve"])
def test_a_command_named_in_a_feature_prs_prose_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_the_feature_pr_with_its_own_command_line_keeps_the_run(tmp_path: Path) -> None:
    """The same PR's test section runs the command with its arguments and gives a figure."""
    lines = [
        *VLLM_FEATURE,
        "",
        "## Test Result",
        "",
        "`vllm serve org/target-8b --speculative-config '{\"method\": \"eagle3\", \"model\": \"org/draft\"}'`"
        " on 0.10.1: 131 tok/s with the mapped draft.",
    ]
    assert probed_path(tmp_path, lines).worker_class == "EagleProposer"
