"""Session 34 (FIXB): path evidence a text gives, and records a text only cites.

Each test writes its own lines in the shape of the text class it covers; each asserts what a
user sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path, roots, run
from spectrace.assemblers.pyconfig import record_told_apart

# --- an engine record a survey, a caveat or a how-to quotes is no run's record -------------------

_REPR = "`SpeculativeConfig(method='draft_model', ...)`"


def _survey(heading: str, caveat: str) -> list[str]:
    """A survey of an engine's docs: a table of what the docs cover, then a section of caveats,
    each a quotation under its link; the last quotes a known error."""
    return ["# Drafting heads in three docs sites: what each one covers", "",
            "Gathered 2026-09-03 from the public pages; no engine was started.", "",
            "| # | Topic | Config | Page |", "|---|---|---|---|",
            '| 1 | MTP heads | `{"method":"mtp","num_speculative_tokens":2}` | https://docs.example.net/spec/mtp |',
            '| 2 | small drafts | `{"method":"draft_model","model":"org/mini-draft"}` | https://docs.example.net/spec/d |',
            "", heading, "",
            "1. **Assistant heads, older builds**: https://docs.example.net/spec/mtp",
            f'   > "{caveat}"', "",
            "2. **Int4 heads**: https://docs.example.net/spec/quant",
            '   > "Older builds that load an int4 head stop with',
            "   >     `KeyError: 'head_vocab'`.",
            '   >     The fix is scheduled."']  # fmt: skip


@pytest.mark.parametrize(("heading", "caveat"), [
    ("## Caveats", f"If an older build prints {_REPR} for an assistant head, it treats the head as a "
                   "plain draft model; use a build with head support."),
    ("## Gotchas", f"Should the server show {_REPR} for an assistant head, the head is loaded as a plain draft."),
    ("## Known issues", f"Expect {_REPR} from builds that predate head support; upgrade to read the head."),
    ("## 注意事项", f"如果旧版本打印 {_REPR}，说明助手头被当作普通草稿模型加载，请升级。"),
    ("## 注意点", f"もしログに {_REPR} と出たら、アシスタントヘッドが通常のドラフトとして読まれています。"),
], ids=["if-caveats", "should-gotchas", "expect-known-issues", "chinese-if", "japanese-if"])
def test_a_record_a_docs_caveat_supposes_gives_no_path(tmp_path: Path, heading: str, caveat: str) -> None:
    assert_no_path(tmp_path, _survey(heading, caveat))


def test_a_how_to_promising_the_record_gives_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Serve a small model with its MTP head", "",
        "1. Install: `pip install -U vllm`", "2. Start it:", "",
        "```bash", "vllm serve org/mini-7b --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2}'",
        "```", "",
        "3. Once the head loads you will see `SpeculativeConfig(method='mtp', model='org/mini-7b', "
        "num_spec_tokens=2)` in the server's log."])  # fmt: skip


@pytest.mark.parametrize("said", [
    f"Our server log prints {_REPR} at start-up, then the engine dies:",
    f"Why does my server print {_REPR} for the assistant head? It then dies:",
    f"The log shows {_REPR} right before it dies:",
], ids=["ours", "my-question", "third-person-report"])
def test_the_writers_own_record_in_inline_code_stays_the_runs(tmp_path: Path, said: str) -> None:
    (crash,) = roots(run(tmp_path, [
        "# assistant head dies at start-up", "", "vLLM 0.20.0 on one L4.", said, "",
        "```", "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 88, in __init__',
        "KeyError: 'head_vocab'", "```"]))  # fmt: skip
    path = crash.worker_path
    assert path is not None
    assert_verdict(path, "other", "DraftModelProposer")
    assert any("SpeculativeConfig(" in e.text for e in path.evidence), path.evidence


@pytest.mark.parametrize(("line", "apart"), [
    (f"If an older build prints {_REPR}, the head was read as a draft.", True),
    (f"The docs say builds print {_REPR} here.", True),
    (f"When I start it the log prints {_REPR} and dies.", False),
    (f"config: {_REPR}", False),
    ("`INFO 01-02 10:00:00 [core.py:1] speculative_config=SpeculativeConfig(method='eagle3')`", False),
], ids=["if", "docs", "first-person", "label", "record-in-code"])
def test_which_sentences_set_a_quoted_record_apart(line: str, apart: bool) -> None:
    assert record_told_apart(line) is apart


# --- a Gemma-4 checkpoint tied to its MTP head drafts with the Gemma-4 proposer alone -----------

_GEMMA4_CLASSES = ("Gemma4Proposer", "Gemma4Speculator")


@pytest.mark.parametrize("lines", [
    ["# Gemma-4 26B: MTP-K3 against plain decoding, vLLM nightly on two A5000s", "",
     "| workload | no MTP tok/s | MTP-K3 tok/s |", "|---|---|---|", "| chat | 60.1 | 95.8 |",
     "| code | 57.3 | 103.0 |", "", "The 31B container with MTP died at import (a stale overlay)."],
    ["# A/B on the home rig (2026-06-16)", "", "Setup: two RTX A5000, vLLM nightly image, TP 2.", "",
     "Target: Gemma-4 26B A4B (instruction tuned). Drafter: its assistant model, MTP with K=3.", "",
     "| workload | no-MTP tok/s | MTP tok/s |", "|---|---|---|", "| chat | 60.1 | 95.8 |"],
    ["## Speculative decoding check", "",
     "We served gemma-4-E2B-it with a vLLM main build and turned on MTP with the assistant checkpoint, "
     "2 speculative tokens.", "Mean acceptance length 1.8; 210 tok/s against 150 tok/s plain."],
], ids=["title-ties", "assistant-drafter", "one-sentence"])
def test_a_gemma4_checkpoint_tied_to_its_mtp_head_narrows_to_its_proposer(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", "|".join(_GEMMA4_CLASSES))
    assert "EagleProposer" not in path.conditional and "else" not in path.conditional, path.conditional
    assert any(e.family == "MTP" for e in path.evidence), path.evidence


def test_mtp_tied_to_another_model_beside_a_gemma4_baseline_keeps_both(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["# MTP on two models, vLLM 0.23.1", "",
                                  "Qwen3.5-27B with MTP (2 tokens): acceptance length 2.2, 1.6x over plain.",
                                  "Gemma-4 31B served plain as the baseline: 41 tok/s."])  # fmt: skip
    assert_verdict(path, "unknown", "Gemma4Proposer|EagleProposer")


def test_a_how_to_tying_gemma4_to_its_head_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# Serving Gemma 4 with speculative decoding", "",
        "To serve Gemma-4 26B with its MTP assistant on vLLM, pass the assistant checkpoint as the draft:", "",
        "```bash", "vllm serve google/gemma-4-26B-it --speculative-config "
        "'{\"model\": \"google/gemma-4-26B-it-assistant\", \"num_speculative_tokens\": 3}'", "```", "",
        "Expect an acceptance length around 2.5 on chat workloads."])  # fmt: skip


@pytest.mark.parametrize(("text", "tied"), [
    ("# Gemma-4 26B: MTP-K3 against plain decoding", True),
    ("We served gemma-4-E2B-it (a main build) and turned on MTP", True),
    ("Gemma-4 31B without MTP is slower", False),
    ("Gemma-4 26B vs Qwen3-30B with MTP", False),
    ("gemma-4-31B-it, then EAGLE3 and MTP on another box", False),
], ids=["title", "sentence", "without", "another-model", "clause-break"])
def test_which_clauses_tie_a_gemma4_checkpoint_to_its_head(text: str, tied: bool) -> None:
    from spectrace.assemblers.vllm_methods import target_head

    assert (target_head(text, None)[0] == "Gemma4Proposer") is tied


# --- an engine's start-up record cut to column 0 in a pasted block shows the run -----------------


def test_a_reports_engine_records_cut_to_column_0_show_its_draft_model_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "# Reproducing GRPO with a draft-model speculator", "", "## Components", "", "| part | version |",
        "|---|---|", "| trainer | our RL stack at 3f2a1b0 |",
        "| vLLM | custom build of commit 9c8d7e6 (0.14.0rc2.dev156) |", "", "## Training config", "",
        "```yaml", "policy:", "  generation:", "    vllm_kwargs:", "      speculative_config:",
        "        method: draft_model", "        model: org/tiny-0.6b", "        num_speculative_tokens: 5",
        "```", "", "## Verified", "", "| check | result |", "|---|---|", "| 20 steps finish | yes |",
        "| reward rises | yes |", "", "Speculative decoding was confirmed active in the generation workers:",
        "", "```",
        "Initializing a V1 LLM engine (v0.14.0rc2.dev156+g9c8d7e6) with config: model='org/policy-8b', speculative_config=",
        "SpeculativeConfig(method='draft_model', model='org/tiny-0.6b', num_spec_tokens=5)",
        "Loading drafter model...", "Starting to load draft model org/tiny-0.6b. TP=1, rank=0",
        "Model loading took 1.2 GiB and 9.8 seconds", "```"])  # fmt: skip
    assert_verdict(path, "other", "DraftModelProposer")


def test_sglang_pool_records_cut_to_column_0_show_the_nextn_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "# lite checkpoint, NEXTN", "", "- engine: sglang 0.5.9, TP 8",
        "- speculative algorithm: NEXTN, 3 draft tokens", "", "```",
        "KV Cache is allocated. #tokens: 612400, KV size: 21.02 GB", "Memory pool end. avail mem=16.77 GB", "```"])  # fmt: skip
    assert_verdict(path, "v1", "EAGLEWorker")
    assert any("0.5.9" in e.reason for e in path.evidence), path.evidence


def test_vllm_kv_records_cut_to_column_0_show_the_draft_model_run(tmp_path: Path) -> None:
    path = probed_path(tmp_path, [
        "# policy rollout check", "", "- vLLM 0.14.0rc2.dev156",
        "- speculative_config: method draft_model, draft org/tiny-0.6b, 5 tokens", "", "```",
        "GPU KV cache size: 455,120 tokens", "Maximum concurrency for 32,768 tokens per request: 13.89x", "```"])  # fmt: skip
    assert_verdict(path, "unknown", "DraftModelProposer")


def test_the_records_a_how_to_promises_show_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [
        "# What a healthy start looks like", "",
        "After `vllm serve org/policy-8b --speculative-config '{\"method\": \"draft_model\", \"model\": "
        "\"org/tiny-0.6b\", \"num_speculative_tokens\": 5}'` you should see lines like:", "",
        "```", "Model loading took 1.2 GiB and 9.8 seconds", "GPU KV cache size: 455,120 tokens", "```"])  # fmt: skip


@pytest.mark.parametrize("backend", ["literal by literal", "anchors", "hyperscan"])
def test_a_line_start_literal_keeps_a_column_0_record_not_a_headed_one(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spectrace import prefilter

    if backend == "hyperscan" and prefilter._hs is None:
        pytest.skip("no hyperscan wheel here")
    monkeypatch.setattr(prefilter, "SMALL_BLOCK", 0 if backend == "anchors" else 1 << 30)
    lines = [b"[2026-01-02 10:00:00 TP0] KV Cache is allocated. #tokens: 9000, KV size: 1.0 GB",
             b"(EngineCore pid=7) INFO 01-02 10:00:00 [gpu_worker.py:1] Model loading took 1.2 GiB",
             b"Model loading took 1.2 GiB and 9.8 seconds", b"  Model loading took 1.2 GiB",
             b"our Model loading took note"]  # fmt: skip
    text = b"\n".join([b"noise", *lines]) + b"\n"
    found = prefilter.Prefilter((b"\nModel loading took ", b"\nKV Cache is allocated. #tokens: "),
                                use_hyperscan=backend == "hyperscan").line_starts(bytearray(text), 0, len(text))
    assert [text[at:].split(b"\n", 1)[0] for at in found] == [b"Model loading took 1.2 GiB and 9.8 seconds"]


# --- a result or config record names its draft by the class a run loads, under any key ----------


@pytest.mark.parametrize(("lines", "value", "classes", "draft"), [
    (['{', '  "experiment": "coder pool-cap sweep",', '  "engine": "sglang-v0.5.15 + 12 local patches",',
      '  "draft": {"architecture": "LlamaForCausalLMEagle3", "path": "org/coder-head"},',
      '  "arms": [{"name": "cap-4k", "status": "ok", "accept_len": 2.71},',
      '           {"name": "cap-8k", "status": "blocked", "symptom": "scheduler assert at boot"}]', '}'],
     "v2", "EAGLEWorkerV2", "LlamaForCausalLMEagle3"),
    (['{"run": "bench-0412", "framework": "vllm==0.19.1", "model": "org/llama-8b",',
      ' "drafter": {"arch": "Eagle3LlamaForCausalLM", "repo": "org/llama-8b-head"},',
      ' "num_spec_tokens": 3, "result": {"passed": true, "acceptance_rate": 0.61}}'],
     "other", "EagleProposer", "Eagle3LlamaForCausalLM"),
    (["# results of run 2026-05-11T08:00, written by bench.py", "[run]", 'framework = "vllm 0.18.0"',
      'status = "passed"', "", "[speculation]", 'drafter_arch = "Eagle3Qwen3ForCausalLM"',
      "num_speculative_tokens = 3", "", "[results]", "output_throughput = 812.4", "acceptance_length = 2.44"],
     "other", "EagleProposer", "Eagle3Qwen3ForCausalLM"),
    (['{"job": "sweep-17", "stack": "sglang-0.5.9", "target": "org/dsv3-lite",',
      ' "speculator": {"class": "DeepseekV3ForCausalLMNextN", "steps": 2, "topk": 1, "draft_tokens": 3},',
      ' "outcome": {"status": "ok", "accept_length": 2.31}}'],
     "v1", "EAGLEWorker", "DeepseekV3ForCausalLMNextN"),
], ids=["sglang-json-draft-field", "vllm-json-drafter-arch", "vllm-toml", "sglang-json-speculator-class"])
def test_a_records_draft_class_and_engine_field_name_the_runs_worker(
    tmp_path: Path, lines: list[str], value: str, classes: str, draft: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(draft in e.text for e in path.evidence), path.evidence


def test_a_records_template_with_a_draft_class_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# template: fill in and pass to the launcher (no results yet)",
                              "engine: sglang-v0.5.15", "model: <your target>", "draft:",
                              "  architecture: LlamaForCausalLMEagle3", "  path: <your draft>"])  # fmt: skip


def test_a_table_of_draft_classes_by_engine_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Draft architectures by engine", "", "| engine | draft class |", "|---|---|",
                              "| SGLang | LlamaForCausalLMEagle3 |", "| vLLM | Eagle3LlamaForCausalLM |", "",
                              "Both load an EAGLE-3 head; pick the one your engine expects."])  # fmt: skip


@pytest.mark.parametrize(("text", "release"), [
    ('"engine": "sglang-v0.5.15 + 25 patches"', (0, 5, 15)), ("stack: sglang-0.5.12", (0, 5, 12)),
    ("sglang-router-0.2.1", None), ("sglang-0.5.3.post1.dist-info", (0, 5, 3, 1)),
], ids=["v-hyphen", "hyphen", "router", "dist-info"])
def test_a_release_joined_to_sglang_by_a_hyphen(text: str, release: tuple[int, ...] | None) -> None:
    from spectrace.assemblers.framework_names import frameworks_named
    from spectrace.assemblers.sglang_version import sglang_releases

    assert sglang_releases(text) == ({release} if release else set())
    assert ("sglang" in frameworks_named(text)) is (release is not None)


def test_a_top_k_left_untold_on_a_release_where_it_turns_v2_off_is_a_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, ["# EAGLE3 run", "",
                                  "We ran EAGLE3 (steps 3) on SGLang v0.5.12; accept length 2.9, 88 tok/s."])  # fmt: skip
    assert_verdict(path, "unknown", "EAGLEWorkerV2|EAGLEWorker")
    assert "speculative_eagle_topk" in path.conditional, path.conditional


# --- the writer names the family's worker in words beside the crash the text reports ------------

_RED = ["# Run summary: spec-on boot of the assistant-head gate (status: RED)", "",
        "- target: org/gemma-4-31b-it", "- draft: org/gemma-4-31b-it-assistant",
        "- engine: our sglang fork at commit 1a2b3c4", "", "## Result", "",
        "- spec-off server: ready after 74 s", "- spec-on server: never ready", "", "## Why red", ""]


@pytest.mark.parametrize(("told", "crash", "classes"), [
    (["The Frozen-KV MTP draft worker calibrates the draft's fp4 KV scales at boot; that step failed, "
      "and freeing the allocator afterwards hit:"],
     ["```", "RuntimeError: CUDA error: device-side assert triggered", "```"], "FrozenKVMTPWorker|FrozenKVMTPWorkerV2"),
    (["With FROZEN_KV_MTP, the draft worker calibrates the draft's fp4 KV scales at boot; that step failed:"],
     ["    RuntimeError: CUDA error: device-side assert triggered"], "FrozenKVMTPWorker|FrozenKVMTPWorkerV2"),
    (["The NEXTN draft worker died in its first extend:"],
     ["> AssertionError: draft extend got 0 tokens for a running request"], "EAGLEWorker|EAGLEWorkerV2"),
    (["DFlash 草稿 worker 在 cuda graph capture 阶段崩溃："],
     ["    torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB"], "DFlashWorker|DFlashWorkerV2"),
], ids=["frozen-kv-words", "algorithm-then-draft-worker", "nextn-quoted-crash", "chinese-dflash"])
def test_a_worker_named_in_words_beside_the_reported_crash_names_its_class(
    tmp_path: Path, told: list[str], crash: list[str], classes: str
) -> None:
    (first, *_) = roots(run(tmp_path, [*_RED, *told, *crash]))
    path = first.worker_path
    assert path is not None
    assert_verdict(path, "unknown", classes)
    assert any(e.lineno == len(_RED) + 1 for e in path.evidence), path.evidence


def test_a_design_note_naming_the_worker_beside_an_expected_error_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Design: calibration in the Frozen-KV MTP draft worker", "",
                              "The Frozen-KV MTP draft worker must skip fp4 KV calibration. Without the guard, "
                              "older builds are known to stop with:", "",
                              "```", "RuntimeError: CUDA error: device-side assert triggered", "```", "",
                              "Plan: add the guard, then run the identity gate."])  # fmt: skip


def test_a_reading_guides_known_issue_naming_the_worker_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# SGLang speculative workers: a reading guide", "", "## Known issues", "",
                              "- The EAGLE worker can hit an illegal memory access when the draft's vocabulary "
                              "is larger than the target's:", "",
                              "```", "RuntimeError: CUDA error: an illegal memory access was encountered", "```"])  # fmt: skip
