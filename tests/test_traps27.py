"""Texts with no run of their own get no path (issue 11, session 27, TRAPS27).

The shapes: a git history listing (``git log --oneline``: a sha, then a commit's subject with its
tag or pull request number) printed by a sync job or pasted in an agent's transcript, whose
method and failure words are other changes' titles. Every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import PROBE, assert_no_path, probed_path, roots, run

from spectrace.assemblers.not_run import COMMIT, HUNK, read_apart
from spectrace.dialects.base import LogLine
from spectrace.worker_path import WorkerPath


def decided(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The most decided worker path of the root causes (the text's own and a probe's), as the
    round measure reads a text with several crashes (a troubleshooting table's rows, a probe)."""
    paths = [c.worker_path for c in roots(run(tmp_path, [*lines, "", *PROBE])) if c.worker_path]
    return sorted(paths, key=lambda p: (p.value == "unknown", not p.conditional))[0]

# ---- a git history listing ------------------------------------------------------------------

SYNC_JOB = [
    "## Agent",
    "",
    "Running the nightly rebase of vllm-ascend onto upstream vllm.",
    "",
    "[10:02:11.120] [sync] git log --oneline -4:",
    "9a3c1e7f sync: pull upstream engine changes (3c1d2e4a...77ab90c1)",
    "5be2d0a1 [Spec] Fix draft KV slot leak with EAGLE3 on Ascend (#9021)",
    "c4f8e2d9 [Misc] Bump torch_npu pin (#9017)",
    "0d7e6b3a [Perf] Faster MTP verify on 910C (#8990)",
    "[10:02:11.300] [sync] pushing branch rebase-auto",
]
TOOL_OUTPUT = [
    "### Tool output",
    "",
    "history after the rebase (git log --oneline -4):",
    "4c7d9e1f rebase: follow vllm main to 0ab1c2d3",
    "e09a7b3c [Spec] MTP verify runs out of memory on long prompts (#3310)",
    "18f2c6d4 [Doc] eagle3 tuning notes for 910C (#3307)",
    "5d0e3a7b [Build] raise the torch_npu floor (#3305)",
]


@pytest.mark.parametrize("lines", [SYNC_JOB, TOOL_OUTPUT], ids=["sync-job", "tool-output"])
def test_commit_listing_names_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


def test_own_run_beside_a_commit_listing_keeps_its_path(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "$ git log --oneline -2",
        "f3c9a0b2 [Core] ngram proposer hangs on empty prompts (#6121)",
        "1b2d3e4f [CI] pin transformers (#6119)",
        "$ vllm serve org/target-8b --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"org/target-8b-eagle3\", \"num_speculative_tokens\": 3}'",
        "INFO 10-02 10:05:11 [api_server.py:1100] vLLM API server version 0.11.0",
    ])
    assert path.worker_class == "EagleProposer"


@pytest.mark.parametrize(("line", "commit"), [
    ("5be2d0a1 [Spec] Fix draft KV slot leak with EAGLE3 (#9021)", True),
    ("e41b7c0a29d35f6b8c2e11a4f0d9e8c7b6a5f4e3 Revert \"[SpecDecode] mtp on by default\" (#7712)", True),
    ("a88c31e0 Merge pull request #7701 from someone/eagle-fix", True),
    ("93f1d7c2 [Fix][Spec] eagle3 head dtype crashes the verifier", True),
    ("7d1e0c2b drafter: add ngram fallback (#812)", True),
    ("2286301ebc948bef4d20b6ea705fa1649df7f94c0011983ce3343db64864e7d2", False),  # a container id
    ("a3f9c21b0 finished the EAGLE step in 12 ms", False),  # an id, then a record
    ("deadbeef [rank0] MTP draft step failed", False),
    ("12345678 [Spec] all digits is no sha (#1)", False),
])
def test_commit_subject_shape(line: str, commit: bool) -> None:
    lines = [LogLine("t.md", n, 0, t, t, "plain", "") for n, t in enumerate(["some text", line], 1)]
    assert (read_apart(lines).why("t.md", 2) or "").startswith(COMMIT) == commit


# ---- a driver's saved log that stopped before any engine started -----------------------------

DRIVER_VLLM = [
    "acme-lab/bench-ci · logs/20260203/llama70b_eagle3.log (commit 1a2b3c4d, 2026-02-04)",
    "",
    "[driver] run_bench.sh --engine vllm --model /models/llama70b --arm eagle3 --tp 4",
    "[driver] image: vllm/vllm-openai:v0.11.0",
    "[driver] EAGLE3 arm enabled, 3 draft tokens",
    "FATAL: draft checkpoint does not exist: /models/llama70b-eagle3",
    "[driver] skipping the serving step, uploading the empty summary",
]
DRIVER_SGLANG = [
    "gpu-team/nightly-perf · results/mi300x/2026-01-12/qwen3_nextn_run.out (commit 9f8e7d6c, 2026-01-13)",
    "",
    "== perf driver 2.3 ==",
    "image lmsysorg/sglang:v0.5.6-rocm700",
    "NEXTN speculative arm requested (steps=3)",
    "[ERROR] missing required option --tokenizer-path for the NEXTN arm",
    "[ERROR] 1 argument check failed; nothing was launched",
    "== done ==",
]


@pytest.mark.parametrize("lines", [DRIVER_VLLM, DRIVER_SGLANG], ids=["vllm", "sglang"])
def test_driver_stopped_at_its_own_check_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("started", [
    # the engine launched, then the driver's check failed: the run is the launch's
    "launching: python3 -m sglang.launch_server --model-path /m/qwen3 --speculative-algorithm NEXTN "
    "--speculative-num-steps 3 --tp 8",
    "Starting the SGLang server (PID: 4411), waiting up to 600 s",  # its server process came up
], ids=["launch", "server-pid"])
def test_driver_error_after_the_engine_started_keeps_the_run(tmp_path: Path, started: str) -> None:
    lines = [*DRIVER_SGLANG[:5], started, "ERROR: health endpoint not found after 600 s", "== done =="]
    assert probed_path(tmp_path, lines).worker_class == "EAGLEWorker"


def test_driver_error_in_a_pasted_thread_is_no_saved_log(tmp_path: Path) -> None:
    """Only a saved output's header makes the text a driver's whole log; a report quoting the
    same lines under its own words keeps what they name."""
    lines = ["Our nightly job printed this before I fixed the path:", *DRIVER_SGLANG[2:]]
    assert probed_path(tmp_path, lines).worker_class == "EAGLEWorker"


# ---- a usage line told to the reader in a pull request with an empty template ----------------

def _fork_pr(sentence: str, flags: str) -> list[str]:
    return [
        "acme/sglang-fork · pull request #77 · merged · Python",
        "# Sync the dsv4 branch and repair the dspark drafter",
        "",
        "someone · description · 2026-09-20",
        sentence,
        f"`{flags}`",
        "",
        "## Motivation",
        "",
        "## Accuracy Tests",
    ]


@pytest.mark.parametrize("sentence", [
    "Pulls upstream into the fork and repairs the DSPARK drafter. You may now select it with:",
    "Merges the upstream branch; nothing else changes. To keep drafting on, you should pin the algorithm explicitly:",
], ids=["may-select", "should-pin"])
def test_usage_told_to_the_reader_is_no_run(tmp_path: Path, sentence: str) -> None:
    assert_no_path(tmp_path, _fork_pr(sentence, "--speculative-algorithm DSPARK --speculative-dspark-block-size 4"))


def test_a_failure_the_reader_can_see_keeps_its_launch(tmp_path: Path) -> None:
    lines = _fork_pr("Our server dies at the first decode. With our launch below you can see the crash:",
                     "python -m sglang.launch_server --model-path /m/dsv4 --speculative-algorithm DSPARK")
    assert probed_path(tmp_path, lines).worker_class == "DSparkWorkerV2"


# ---- a runbook: numbered steps, a request, a troubleshooting table; nothing printed ----------

TRTLLM_BOOK = [
    "# Draft-model decoding on a workstation",
    "",
    "> Serve a large target with a small drafter on one box.",
    "",
    "## Step 1. Pull the container",
    "",
    "```bash",
    "docker pull nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc4",
    "```",
    "",
    "## Step 2. Write the options file",
    "",
    "```yaml",
    "speculative_config:",
    "  decoding_type: Eagle",
    "  max_draft_len: 4",
    "  speculative_model_dir: /models/target-eagle3/",
    "```",
    "",
    "## Step 3. Start the server",
    "",
    "```bash",
    "trtllm-serve /models/target --backend pytorch --extra_llm_api_options ./spec.yml",
    "```",
    "",
    "## Step 4. Send a request",
    "",
    "```bash",
    "curl localhost:8000/v1/completions -d '{\"model\": \"target\", \"prompt\": \"A bus slows down and then "
    "stops; explain why the passengers lean forward.\", \"max_tokens\": 64}'",
    "```",
    "",
    "Drafting lets the target check several tokens per pass, which can give a large speedup.",
    "",
    "## Troubleshooting",
    "",
    "| Symptom | Cause | Fix |",
    "|---------|-------|-----|",
    "| Server crashes with CUDA out of memory | KV cache too large | Lower `free_gpu_memory_fraction` to 0.8 |",
    "| NCCL error: unhandled system error | Wrong interface | Set `NCCL_SOCKET_IFNAME` to the active port |",
]
VLLM_BOOK = [
    "# Serving with an EAGLE-3 head",
    "",
    "### Step 1: install",
    "",
    "    pip install vllm==0.11.0",
    "",
    "### Step 2: launch",
    "",
    "    vllm serve org/target-8b --speculative-config '{\"method\": \"eagle3\", \"model\": "
    "\"org/target-8b-eagle3\", \"num_speculative_tokens\": 3}'",
    "",
    "### Step 3: query",
    "",
    "    curl localhost:8000/v1/chat/completions -d '{\"messages\": [{\"role\": \"user\", \"content\": "
    "\"Why does my code fail with a timeout?\"}]}'",
    "",
    "### Step 4: clean up",
    "",
    "    docker rm -f vllm",
    "",
    "| Error | Likely reason | Workaround |",
    "|-------|---------------|------------|",
    "| ValueError: draft vocab mismatch | head built for another target | Use the head trained for this target |",
    "| Engine hangs at 0% | cuda graph capture | Pass `--enforce-eager` |",
]


@pytest.mark.parametrize("lines", [TRTLLM_BOOK, VLLM_BOOK], ids=["trtllm", "vllm"])
def test_runbook_with_troubleshooting_table_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize("shown", [
    # the server's own records pasted under a step: the page's writer ran it
    ["INFO 03-02 10:11:12 [api_server.py:1100] vLLM API server version 0.11.0",
     "ERROR 03-02 10:11:40 [core.py:700] EngineCore failed to start."],
    ["Measured on our box:", "", "| conc | tok/s |", "|------|-------|", "| 1 | 212.4 |", "| 8 | 901.7 |"],
], ids=["server-records", "measured-table"])
def test_runbook_that_shows_its_run_keeps_the_path(tmp_path: Path, shown: list[str]) -> None:
    at = VLLM_BOOK.index("### Step 3: query")
    path = decided(tmp_path, [*VLLM_BOOK[:at], *shown, "", *VLLM_BOOK[at:]])
    assert path.worker_class == "EagleProposer"


# ---- a diff hunk's context lines are code under change ---------------------------------------

def test_diff_context_lines_name_no_run(tmp_path: Path) -> None:
    """A hunk's unchanged lines carry no + or - mark; the header's counts bound the hunk."""
    lines = [
        "## Assistant",
        "",
        "The vllm-ascend patch the sync needs (torch_npu path):",
        "",
        "diff --git a/vllm_ascend/worker/drafter.py b/vllm_ascend/worker/drafter.py",
        "--- a/vllm_ascend/worker/drafter.py",
        "+++ b/vllm_ascend/worker/drafter.py",
        "@@ -40,4 +40,5 @@ class NpuDrafter:",
        "         self.steps = cfg.num_speculative_tokens",
        "-        self.kind = 'x'",
        "+        self.kind = cfg.method",
        "+        self.npu = True",
        "         if cfg.method == \"mtp\":",
        "",
        "push it",
    ]
    assert_no_path(tmp_path, lines)


@pytest.mark.parametrize(("gap", "hunk"), [(1, True), (4, True), (6, True), (9, False)])
def test_hunk_bounds(gap: int, hunk: bool) -> None:
    """Lines up to the longer side's count belong to the hunk; past it, up to both sides'
    count, only lines still carrying a diff prefix do."""
    texts = ["@@ -10,3 +10,5 @@ def f():", *["  x = 1"] * (gap - 1), "    if method == 'mtp':"]
    if gap > 6:
        texts[-1] = "prose after the diff names mtp"
    lines = [LogLine("t.md", n, 0, t.strip(), t, "plain", "") for n, t in enumerate(texts, 1)]
    assert (read_apart(lines).why("t.md", gap + 1) or "").startswith(HUNK) == hunk
