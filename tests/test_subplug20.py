"""Session 20 (SUBPLUG): the algorithm a text states picks the subclass a shared file's frame
ran; an algorithm named only as a contrast is not the run's.

Shape (round 49 excerpt 16, our own lines here): a write-up of an SGLang STANDALONE run whose
title and prose name STANDALONE and explain it against EAGLE ("Standard EAGLE heads share the
target's width; STANDALONE does not", "unlike EAGLE3", "与 EAGLE 不同"), with frames or cited
lines in ``eagle_worker.py`` - the file EAGLEWorker and its subclass StandaloneWorker share. The
text named two families, so no algorithm was read and the frame decided EAGLEWorker (wrong).
Near misses keep EAGLE's worker: no algorithm named, a switch from one to the other, a line
naming both without setting one apart, a question.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, probed_path, run

_V1 = "/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py"
_V2 = "/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker_v2.py"


def _frames(path: str, function: str = "forward_draft_extend") -> list[str]:
    return [
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1020, in run_batch',
        "    batch_result = self.draft_worker.forward_batch_generation(batch)",
        f'  File "{path}", line 512, in {function}',
        "    hidden = torch.cat([spec_info.hidden_states, idle.hidden_states])",
        "RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 5120 but"
        " got size 2560 for tensor number 1 in the list.",
    ]


def test_a_markdown_write_up_with_standard_eagle_as_contrast_is_standalone(tmp_path: Path) -> None:
    """A bug write-up: the heading names STANDALONE, the body sets EAGLE apart ("Standard EAGLE
    ... by construction"), the frame is in the v1 EAGLE worker file: StandaloneWorker."""
    lines = [
        "# Bug 3: STANDALONE speculative decoding crashes with a narrower draft",
        "",
        "We pair Qwen3-32B (hidden 5120) with Qwen3-1.7B (hidden 2560) under STANDALONE.",
        "Standard EAGLE/EAGLE3 heads share the target's hidden size by construction; STANDALONE"
        " does not.",
        "",
        "```",
        *_frames(_V1),
        "```",
    ]
    assert_verdict(crash_path(run(tmp_path, lines, "bug3.md")), "v1", "StandaloneWorker")


def test_an_index_copy_with_unlike_eagle3_on_the_v2_file_is_standalone_v2(tmp_path: Path) -> None:
    """An issue copied with its index header: the title names STANDALONE, a comment line says
    "Unlike EAGLE3, ..."; the frame is in the v2 worker file on 0.5.10: StandaloneWorkerV2."""
    lines = [
        "sgl-project/sglang · issue #31234 · open · Python",
        "# [Bug] STANDALONE draft crashes in forward_draft_extend on 0.5.10",
        "",
        "someone · description · 2026-04-02",
        "sglang: 0.5.10",
        "Unlike EAGLE3, STANDALONE lets the draft be any small model, so its width differs.",
        "The STANDALONE server dies after a few minutes under load:",
        *_frames(_V2),
    ]
    assert_verdict(crash_path(run(tmp_path, lines)), "v2", "StandaloneWorkerV2")


def test_chinese_notes_setting_eagle_apart_are_standalone(tmp_path: Path) -> None:
    """Chinese debugging notes: "与 EAGLE 不同" (unlike EAGLE) sets EAGLE apart; a bare paste."""
    lines = [
        "## STANDALONE 推测解码崩溃记录",
        "我们用 STANDALONE 推测解码，草稿模型是 Qwen3-1.7B。",
        "与 EAGLE 不同，STANDALONE 的草稿模型宽度可以和目标模型不一样。",
        *_frames(_V1, "verify"),
    ]
    assert_verdict(crash_path(run(tmp_path, lines, "notes.txt")), "v1", "StandaloneWorker")


def test_a_web_copy_whose_eagle_is_unaffected_is_standalone(tmp_path: Path) -> None:
    """A blog page copied with its URL: EAGLE "is not affected" (a contrast after the name), the
    run is STANDALONE; the crash names a line of eagle_worker.py in a sentence and frames it."""
    lines = [
        "https://example.dev/posts/sglang-standalone-width-bug",
        "SGLang STANDALONE and the idle draft input",
        "Our STANDALONE deployment crashed in merge_batch after an idle step.",
        "EAGLE is not affected, because its head always has the target's width.",
        "The idle input is built in `eagle_worker.py:555` with the draft's config.",
        *_frames(_V1, "_draft_preprocess_idle"),
    ]
    assert_verdict(crash_path(run(tmp_path, lines, "page.txt")), "v1", "StandaloneWorker")


def test_ngram_stated_with_eagle_as_contrast_keeps_ngram(tmp_path: Path) -> None:
    """Another pair: NGRAM stated, EAGLE3 set apart ("instead of EAGLE3"); a crash in the NGRAM
    worker's own file stays NGRAMWorker (the contrast rule names no EAGLE class)."""
    lines = [
        "# NGRAM speculative decoding hangs then crashes",
        "We use NGRAM instead of EAGLE3 because we have no draft head for this model.",
        "Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/speculative/ngram_worker.py", line 240,'
        " in forward_batch_generation",
        "    self._prepare_for_speculative_decoding(batch)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    path = crash_path(run(tmp_path, lines, "ngram.md"))
    assert path.worker_class == "NGRAMWorker", path


# ---- near misses: EAGLE's worker stays -------------------------------------------------------


def test_no_algorithm_named_keeps_eagle_worker(tmp_path: Path) -> None:
    """Frames alone: the EAGLE family runs this file far more than its subclasses."""
    assert_verdict(crash_path(run(tmp_path, _frames(_V1))), "v1", "EAGLEWorker")


def test_a_switch_from_standalone_to_eagle3_is_not_standalone(tmp_path: Path) -> None:
    """"switched from STANDALONE to EAGLE3": both named in one clause, neither set apart; an
    earlier line naming STANDALONE alone does not make it the crashed run's."""
    lines = [
        "# Crash after changing the speculative algorithm",
        "STANDALONE ran for a week on this box.",
        "We switched from STANDALONE to EAGLE3 and the server now crashes:",
        *_frames(_V1),
    ]
    path = crash_path(run(tmp_path, lines, "switch.md"))
    assert path.worker_class != "StandaloneWorker", path
    assert "StandaloneWorker" not in (path.conditional or "") or "EAGLEWorker" in (
        path.conditional or ""
    ), path


def test_both_named_in_a_comparison_title_is_not_standalone(tmp_path: Path) -> None:
    """A title comparing the two ("STANDALONE vs EAGLE3") and a line naming EAGLE3 alone as
    the run that crashed: EAGLE's worker."""
    lines = [
        "# STANDALONE vs EAGLE3 on Qwen3-32B",
        "EAGLE3 crashed on the second batch:",
        *_frames(_V1),
    ]
    path = crash_path(run(tmp_path, lines, "cmp.md"))
    assert path.worker_class != "StandaloneWorker", path


def test_eagle3_stated_with_standalone_as_contrast_is_eagle_worker(tmp_path: Path) -> None:
    """The mirror: EAGLE3 is the run, STANDALONE the contrast ("unlike STANDALONE"): EAGLEWorker."""
    lines = [
        "# EAGLE3 verify crash",
        "We run EAGLE3 with a trained head.",
        "Unlike STANDALONE, EAGLE3 reuses the target's hidden states.",
        *_frames(_V1, "verify"),
    ]
    assert_verdict(crash_path(run(tmp_path, lines, "e3.md")), "v1", "EAGLEWorker")


def test_a_cited_line_of_the_shared_file_takes_the_stated_standalone(tmp_path: Path) -> None:
    """The crash's frames are in the batch inputs every EAGLE-type worker shares; the write-up
    cites lines of ``eagle_worker.py`` in its sentences: with STANDALONE stated (EAGLE3 "does
    not hit this"), the cited file names StandaloneWorker, as a frame there would."""
    lines = [
        "## STANDALONE: merge_batch fails after an idle step",
        "Our STANDALONE server pairs a 14B target with a 0.5B draft.",
        "EAGLE3 does not hit this, since its head has the target's width.",
        "```",
        "Traceback (most recent call last):",
        '  File ".../managers/scheduler.py", line 2080, in get_next_batch_to_run',
        "    self.running_batch.merge_batch(self.last_batch)",
        '  File ".../speculative/eagle_info.py", line 804, in merge_batch',
        "    self.hidden_states = torch.cat(",
        "RuntimeError: Sizes of tensors must match except in dimension 0.",
        "```",
        "The idle input comes from `eagle_worker.py:555`, which reads the draft's config;",
        "the real forward writes the target's states at `eagle_worker.py:790`.",
    ]
    assert_verdict(crash_path(run(tmp_path, lines, "writeup.md")), "v1", "StandaloneWorker")


# ---- a platform plugin named by its package, image or repository -----------------------------
# vllm-gaudi's model runner builds NgramProposer for ngram and, for every method vLLM's
# use_eagle() takes (eagle, eagle3, mtp), vLLM's EagleProposer on v0.11.2 and its own
# HpuEagleProposer from v0.13.0; tpu-inference builds its own DFlashProposer (JAX) for dflash
# from v0.25.0 and DFlashTorchaxProposer lives in tpu_inference/spec_decode/vllm/dflash.py.


def _plugin_verdict(path) -> str:  # noqa: ANN001
    return f"{path.worker_class or ''} | {path.conditional or ''}"


def test_gaudi_handoff_notes_with_the_plugin_tree_name_its_proposer(tmp_path: Path) -> None:
    """Handoff notes of a patched vllm-gaudi (its package tree and image named), MTP measured:
    the plugin's HpuEagleProposer, never vLLM's CUDA classes alone."""
    lines = [
        "# Llama-4 on 8x Gaudi3: state of the work",
        "Goal: faster vLLM decode on Gaudi3 (TP=8).",
        "- Work tree: the editable `vllm/` and `vllm_gaudi/` trees are mounted into the container.",
        "- Image: `vllm-gaudi:l4-patch`.",
        "| MTP spec decode (k=2) | 1.7 tokens accepted per step, 31 ms/tok |",
    ]
    path = probed_path(tmp_path, lines)
    got = _plugin_verdict(path)
    assert "HpuEagleProposer" in got, path
    assert "GPU platforms" not in got and "Speculator" not in got, path


def test_a_gaudi_crash_with_plugin_frames_and_a_release_decides(tmp_path: Path) -> None:
    """A bare crash: the launch sets method mtp, the frames run through the plugin's installed
    runner, vLLM 0.19.1 is printed (vllm-gaudi pairs with the same release): HpuEagleProposer."""
    lines = [
        "INFO 09-02 10:00:00 [__init__.py:239] vLLM API server version 0.19.1",
        "vllm serve /models/Qwen3-Next --tensor-parallel-size 4 --speculative-config"
        ' \'{"method": "mtp", "num_speculative_tokens": 1}\'',
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm_gaudi/v1/worker/hpu_model_runner.py",'
        " line 3120, in execute_model",
        "    draft_token_ids = self.propose_draft_token_ids(scheduler_output)",
        "RuntimeError: synStatus=26 [Generic failure] Device acquire failed.",
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class == "HpuEagleProposer" or (
        "HpuEagleProposer" in (path.conditional or "") and "GPU platforms" not in path.conditional
    ), path


def test_a_tpu_inference_journal_names_the_plugins_dflash_proposer(tmp_path: Path) -> None:
    """A dev journal of tpu-inference's DFlash (its package path named): the plugin's own
    DFlash proposer, not vLLM's V1/MRV2 classes."""
    lines = [
        "# 07 - DFlash on v6e: acceptance after the slot fix",
        "Changed tpu_inference/spec_decode/jax/dflash.py so the context rows follow the request.",
        "Re-ran vLLM with DFlash (7 spec tokens): mean acceptance length 5.8 at c=32, 1410 tok/s.",
    ]
    path = probed_path(tmp_path, lines)
    got = _plugin_verdict(path)
    assert "DFlashProposer" in got and "tpu_inference" in got, path
    assert "model runner" not in got and "DFlashSpeculator" not in got, path


def test_a_pip_installed_tpu_inference_page_is_the_plugin(tmp_path: Path) -> None:
    """A copied web page: installed with ``pip install tpu-inference``, EAGLE3 served and
    measured: the plugin's Eagle3Proposer."""
    lines = [
        "https://example.org/notes/vllm-on-tpu-eagle3",
        "Serving Llama 3.1 8B with EAGLE3 on vLLM on a v5e-8",
        "pip install tpu-inference",
        "We measured EAGLE3 on vLLM with 3 speculative tokens: 2.4 accepted tokens per step, 812 tok/s.",
    ]
    path = probed_path(tmp_path, lines)
    assert "Eagle3Proposer" in _plugin_verdict(path), path
    assert "EagleProposer" not in _plugin_verdict(path).replace("Eagle3Proposer", ""), path


def test_a_vllm_tracker_comment_naming_vllm_gaudi_keeps_vllms_class(tmp_path: Path) -> None:
    """A vLLM issue on CUDA whose commenter says vllm-gaudi has the same problem: the run is on
    vLLM's GPU runner; the plugin named in a comment on vLLM's tracker is no platform."""
    lines = [
        "vllm-project/vllm · issue #40001 · open",
        "# [Bug]: MTP crash with Qwen3-Next on H100, vLLM 0.19.1",
        "someone · description · 2026-05-01",
        "vllm serve Qwen/Qwen3-Next-80B-A3B --speculative-config"
        ' \'{"method": "mtp", "num_speculative_tokens": 2}\'',
        "other · comment · 2026-05-02",
        "vllm-gaudi has the same problem, see vllm-project/vllm-gaudi#900.",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/site-packages/vllm/v1/spec_decode/eagle.py", line 300,'
        " in propose",
        "    hidden = self.model(input_ids)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]
    path = crash_path(run(tmp_path, lines))
    assert "Hpu" not in _plugin_verdict(path), path
    assert "EagleProposer" in _plugin_verdict(path), path


def test_a_gaudi_fork_porting_a_method_the_plugin_lacks_keeps_mtps_class(tmp_path: Path) -> None:
    """A vllm-gaudi fork's notes: MTP measured and a DFlash port of its own running: the MTP
    class is the plugin's, the port names no class, and vLLM's DFlash classes are not offered."""
    lines = [
        "# DeepSeek-V3 on Gaudi2 with vLLM: where things stand",
        "Our new `vllm_gaudi/v1/spec_decode/hpu_dflash.py` proposer drafts DFlash blocks.",
        "| Serving (512 in/256 out) | c1 31 tok/s, c64 480 tok/s |",
        "| MTP spec decode (k=1) | 27 ms/tok, 1.9 tokens accepted per step |",
        "| DFlash spec decode (K=7) | runs end to end with wrong tokens, 33 ms/tok |",
    ]
    got = _plugin_verdict(probed_path(tmp_path, lines))
    assert "HpuEagleProposer" in got, got
    assert "DFlashProposer" not in got and "DFlashSpeculator" not in got, got


def test_a_tpu_inference_crash_with_an_eagle3_launch_is_the_plugins_class(tmp_path: Path) -> None:
    """A bare crash log: the launch's config sets eagle3 and the frames run through the
    plugin's installed runner: tpu-inference's Eagle3Proposer, not vLLM's EagleProposer."""
    lines = [
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 8 --speculative-config"
        ' \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",'
        ' "num_speculative_tokens": 3}\'',
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/tpu_inference/runner/tpu_runner.py",'
        " line 640, in execute_model",
        "    self.drafter.prepare_inputs(attn_metadata, input_ids)",
        "ValueError: Incompatible shapes for broadcasting: (8, 128) and (16, 128)",
    ]
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class == "Eagle3Proposer", path


def test_a_vllm_metal_run_gets_no_cuda_class(tmp_path: Path) -> None:
    """vllm-metal named by its package: its proposers are its own files, no method row is
    read for it, so vLLM's CUDA EagleProposer is not offered for its MTP run."""
    lines = [
        "# Gemma on an M4 Max with vLLM",
        "Installed with pip install vllm-metal; the patch is in vllm_metal/v1/spec_decode.py.",
        "MTP with 2 speculative tokens: 1.6 tokens accepted per step, 41 tok/s.",
    ]
    got = _plugin_verdict(probed_path(tmp_path, lines))
    assert "EagleProposer" not in got and "Speculator" not in got, got


def test_a_plugin_pull_request_page_with_no_run_gets_no_path(tmp_path: Path) -> None:
    """A copied vllm-gaudi pull request page (the repository in its title) that renames MTP
    method names in code and shows no run: the plugin's mark opens no lookup by itself."""
    lines = [
        "Spec decode: use the unified MTP method name · Pull Request #700 · vllm-project/vllm-gaudi",
        "",
        "dev commented on Dec 1, 2025",
        "Upstream consolidated the MTP method names, so the plugin must check for \"mtp\" now.",
    ]
    path = probed_path(tmp_path, lines)
    assert path.worker_class is None and not path.conditional, path


# ---- a document's own date line and a dated readings block bound the release -----------------

import pytest  # noqa: E402
from datetime import date  # noqa: E402

from spectrace.assemblers.written_days import written_day  # noqa: E402


@pytest.mark.parametrize(("text", "day"), [
    ("Date: 2026-06-27. Manager: impl-condense. Builds on 09-bench.", date(2026, 6, 27)),
    ("**Date:** Aug 6, 2026", date(2026, 8, 6)),
    ("*Last updated 2026-09-23.* Goal: optimize decode on 8x Gaudi2 until the limits.",
     date(2026, 9, 23)),
    ("Our readings (2026-08-06 UTC):", date(2026, 8, 6)),
    ("My measurements (June 3, 2026):", date(2026, 6, 3)),
    ("Numbers below were measured on 2026-05-14 with the patched image.", date(2026, 5, 14)),
])  # fmt: skip
def test_a_documents_date_and_a_dated_readings_block_are_the_writers_day(
    text: str, day: date
) -> None:
    assert written_day(text) == day


@pytest.mark.parametrize("text", [
    "Release date: 2026-06-27",  # a release's day
    "the model's readings (2026-08-06 checkpoint) differ",  # not the writer's readings
    "Updated the draft on 2026-06-08 and it crashed",  # a sentence, not a dateline
    "It was measured on 2025-01-01 by the vendor that the kernel is fast",  # another's claim
    "Date range: 2026-01-01 to 2026-02-01",
])  # fmt: skip
def test_other_dated_lines_are_no_writers_day(text: str) -> None:
    assert written_day(text) is None
