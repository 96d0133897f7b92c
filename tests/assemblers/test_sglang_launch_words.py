"""Which command words launch SGLang (rules/paths/sglang_entry.toml, assemblers/launch_words.py),
and the word MTP over a served model no [[promote]] row rewrites (r27 30, r28 10 shapes).

A fork that keeps SGLang's entry point (`python -m sglang.launch_server` with its own `--kt-*`
flags) is an SGLang run; another engine's command word (`ft serve`, `tokenspeed serve`, `python -m
lmdeploy serve api_server`) with SGLang-shaped options under it launches that engine: no decision
and no condition."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, SGL_REPO, thread

from spectrace.assemblers.launch_words import foreign_entry


@pytest.mark.parametrize("entry", [
    "ft serve --model-path acme/Orbit-35B",
    "tokenspeed serve acme/Orbit-35B \\",
    "CUDA_VISIBLE_DEVICES=0,1 quill serve --model-path acme/Orbit-35B \\",
    "python3 -m tokenspeed.launch_server --model-path acme/Orbit-35B \\",
    "python -m lmdeploy serve api_server acme/Orbit-35B \\",
])  # fmt: skip
def test_sglang_shaped_flags_under_another_engine_s_word_name_nothing(tmp_path: Path, entry: str) -> None:
    lines = thread("acme-org/quill", "feat(dflash): support dflash", "2026-08-28",
                   "Implements DFlash block-diffusion drafting for our engine.", "", "### Usage", "",
                   entry, "--speculative-algorithm dflash",
                   "--speculative-draft-model-path /cache/Orbit-35B-DFlash",
                   "--speculative-dflash-block-size 8", "", *PROBE_CRASH, kind="pull request")  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.worker_class is None and not path.conditional, path


@pytest.mark.parametrize("text, foreign", [
    ("python -m sglang.launch_server --kt-method MXFP4 --speculative-algorithm NEXTN", False),
    ("sglang serve --model-path acme/Orbit --speculative-algorithm EAGLE3", False),
    ("python3 -m sglang_router.launch_server --speculative-algorithm EAGLE", False),
    ("We serve it with --speculative-algorithm EAGLE3 and it crashes", False),
    ("we serve it with --speculative-algorithm EAGLE3 and it crashes", False),
    ("python -m pip install sglang --upgrade", False),
    ("dynamo serve graphs.agg:Frontend --SGLangWorker.speculative-algorithm EAGLE", False),
    ("run `quill serve --speculative-algorithm EAGLE3` first", True),
    ("$ python3 -m atom.entrypoints.openai_server --speculative-algorithm EAGLE", True),
])  # fmt: skip
def test_command_words(text: str, foreign: bool) -> None:
    assert foreign_entry(text) is foreign


_KT = ["python -m sglang.launch_server \\", "  --model /mnt/ssd/Orbit-V4-Flash \\",
       "  --kt-weight-path /mnt/ssd/Orbit-V4-Flash \\", "  --kt-method MXFP4 \\",
       "  --kt-cpuinfer 12 \\", "  --attention-backend flashmla \\",
       "  --mem-fraction-static 0.85 \\", "  --reasoning-parser deeps"]  # fmt: skip


@pytest.mark.parametrize("title", [
    "Orbit-V4-Flash MTP failed to start on avx2 + sm89",
    "MTP crashes at startup with CPU experts",
])  # fmt: skip
def test_fork_on_sglang_s_entry_point_with_mtp_title_gets_the_eagle_family(tmp_path: Path, title: str) -> None:
    lines = thread("acme-org/ktfork", title, "2026-08-03", "command to run:", "```", *_KT, "",
                   *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.value == "unknown" and "EAGLEWorkerV2" in (path.conditional or "") and "EAGLEWorker)" in (path.conditional or ""), path


@pytest.mark.parametrize("said", [
    "Serving it with Frozen-KV MTP (`--speculative-algorithm NEXTN`, auto-promoted to `FROZEN_KV_MTP`).",
    "We launch with `--speculative-algorithm EAGLE`, which the server promotes to FROZEN_KV_MTP.",
    "[2026-07-28 10:00:01] Detected Gemma4AssistantForCausalLM draft; promoting --speculative-algorithm NEXTN to FROZEN_KV_MTP.",
])  # fmt: skip
def test_algorithm_said_promoted_gets_the_frozen_kv_mtp_rows(tmp_path: Path, said: str) -> None:
    lines = thread(SGL_REPO, "[Bug] output corrupts at concurrency >= 2", "2026-07-28", said,
                   "- `--speculative-num-steps 3` is clean", "", *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.value == "unknown" and "FrozenKVMTPWorkerV2" in (path.conditional or ""), path
    assert "EAGLEWorker" not in (path.conditional or ""), path


def test_promotion_set_apart_keeps_the_launch_s_algorithm(tmp_path: Path) -> None:
    """Trap: promotion named as what would happen with another draft is not this run's."""
    lines = thread(SGL_REPO, "[Bug] NEXTN hangs on DeepSeek", "2026-07-28",
                   "We run `--speculative-algorithm NEXTN` on DeepSeek-V3.",
                   "If we used a Gemma-4 assistant draft it would be promoted to FROZEN_KV_MTP.",
                   "", *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert "FrozenKVMTP" not in f"{path.conditional} {path.worker_class}", path


@pytest.mark.parametrize("last", ["  --reasoning-parser deeps", "  --reasoning-parser qwen3-th",
                                  "  --tool-call-parser hermes_"])  # fmt: skip
def test_a_launch_cut_inside_its_last_value_is_not_a_plain_launch(tmp_path: Path, last: str) -> None:
    """A paste ending inside a registry name ("deeps" of deepseek-r1): its speculative flags may
    have followed, so the title's family gives the era's condition, not "speculation off"."""
    lines = thread(SGL_REPO, "[Bug] MTP crashes at startup", "2026-08-03", "```",
                   "python -m sglang.launch_server \\", "  --model-path acme/Orbit-V3 \\",
                   "  --tp 8 \\", last, "", *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.value == "unknown" and "EAGLEWorkerV2" in (path.conditional or ""), path


@pytest.mark.parametrize("said", [
    "| metric (B200) | no EAGLE | EAGLE (`--enable-multi-layer-eagle`) |",
    "The crash only happens with NEXTN and `--enable-multi-layer-eagle` on.",
    "EAGLE with --enable-multi-layer-eagle hangs after the first request.",
])  # fmt: skip
def test_multi_layer_flag_beside_an_eagle_word_names_the_multi_layer_workers(tmp_path: Path, said: str) -> None:
    """No algorithm flag: the EAGLE-family word beside the flag (its own table cell) is the
    run's, and the flag builds the multi-layer EAGLE workers (v2 only on this release)."""
    lines = thread(SGL_REPO, "[Bug] MTP accept rate collapses", "2026-05-15",
                   "Running sglang 0.5.16.", said, "", *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert (path.value, path.worker_class) == ("v2", "MultiLayerEagleWorkerV2"), path


def test_multi_layer_flag_in_the_baseline_cell_names_nothing(tmp_path: Path) -> None:
    """Trap: the flag's own cell is the baseline without EAGLE."""
    lines = thread(SGL_REPO, "[Bug] throughput drops", "2026-05-15", "Running sglang 0.5.16.",
                   "| metric | no EAGLE (`--enable-multi-layer-eagle` unset) | tp8 |", "",
                   *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert "MultiLayer" not in f"{path.worker_class} {path.conditional}", path


def test_mtp_over_a_gemma_4_launch_names_no_one_worker(tmp_path: Path) -> None:
    """FROZEN_KV_MTP drafts are Gemma-4's: there "MTP" may be either worker family."""
    kt = [line.replace("Orbit-V4-Flash", "gemma-4-31B-it") for line in _KT]
    lines = thread("acme-org/ktfork", "MTP failed to start", "2026-08-03", "```", *kt, "",
                   *PROBE_CRASH)  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert "EAGLEWorker" not in (path.conditional or "") and path.worker_class is None, path
