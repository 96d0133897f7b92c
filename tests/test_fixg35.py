"""Session 35 (FIXG): a draft named as DFlash2 (a variant of SGLang's DFLASH algorithm) names
the DFLASH family, so a text whose other lines name an EAGLE-family method (a cross-reference to
another issue's NextN draft) is never read as an EAGLE run.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import assert_no_path, assert_verdict, probed_path
from spectrace.assemblers.prose_wrap import ProseWrap
from spectrace.assemblers.spec_prose import named_algorithms
from spectrace.dialects.base import LogLine


@pytest.mark.parametrize(("text", "names"), [
    ("A DFlash2 drafter serves the 27B target", ["DFLASH"]),
    ("we serve it with the DFlash-2 draft", ["DFLASH"]),
    ("dflash_2 acceptance collapsed", ["DFLASH"]),
    ("DFlash 20 layers", ["DFLASH"]),  # a count after the name: DFlash, not a variant
    ("EAGLE3 drafts", ["EAGLE3"]),
], ids=["dflash2", "dash", "underscore", "count-after", "eagle3"])  # fmt: skip
def test_a_dflash2_draft_is_named_as_dflash(text: str, names: list[str]) -> None:
    assert named_algorithms(text) == names


# an SGLang report on a DFlash2 draft; its launch is cut before any speculative flag, and a
# wrapped sentence points at another issue about an MTP (NextN) draft
_REPORT = ["[Bug] DFlash2 draft accepts almost nothing after quantizing it", "",
           "Reporter: kim-o, 2026-09-20", "",
           "Our DFlash2 draft checkpoint loads and serves, yet every draft token gets rejected and",
           "decode runs slower than with no drafter at all. The unquantized weights are fine.",
           "A similar report exists for a quantized draft in #41234 (an MTP draft with a",
           "NextN head, fp8), which fails at load instead.", "",
           "python3 -m sglang.launch_server --model-path /models/target-int4 \\",
           "  --tp"]  # fmt: skip


def test_a_dflash2_report_naming_another_issues_nextn_draft_gets_no_eagle_condition(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _REPORT)
    assert not any("EAGLEWorker" in c for c in [path.conditional or "", path.worker_class or ""]), path


@pytest.mark.parametrize(("lines", "value", "classes", "said"), [
    # an SGLang issue on a release that only has the v2 DFlash worker
    (["sglang 0.5.17: crash in verify with a DFlash2 drafter", "",
      "We run SGLang 0.5.17 and serve Qwen3-8B with the DFlash2 draft; the scheduler dies after 200 requests."],
     "v2", "DFlashWorkerV2", "DFlash2"),
    # a bullet list of the environment, the drafter written with a dash
    (["Our server dies under load; environment:", "", "- SGLang 0.5.16", "- Speculative algorithm: DFlash-2 (block size 8)",
      "- 1x H100", "", "It crashed three times last night with the same assert."],
     "v2", "DFlashWorkerV2", "DFlash-2"),
    # Chinese: the release and the draft in one sentence
    (["我们在 SGLang 0.5.15 上使用 DFlash2 草稿模型运行 Qwen3-32B，服务启动后崩溃。"],
     "v2", "DFlashWorkerV2", "DFlash2"),
], ids=["issue-sentence", "env-bullets", "chinese"])  # fmt: skip
def test_a_dflash2_run_on_a_known_release_decides_the_dflash_worker(
    tmp_path: Path, lines: list[str], value: str, classes: str, said: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, value, classes)
    assert any(said in e.text for e in path.evidence), path.evidence


def test_a_how_to_about_dflash2_drafts_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# How to serve a DFlash2 draft with SGLang", "",
                              "This guide explains how to pick a DFlash2 drafter for your target model.",
                              "Step 1: download the draft checkpoint.",
                              "Step 2: pass it to the server with the DFLASH algorithm."])  # fmt: skip


# --- a pull request adding a config that it says is the one a live deployment runs ---

_PR_HEAD = ["acme/infer-recipes · pull request #88 · open · Python",
            "# sglang/llama-4-scout: FP8 TP=8 + EAGLE3 compose", "", "b-ortiz · description · 2026-03-02",
            "## What", "", "Adds a compose file for the FP8 checkpoint with an EAGLE3 draft.", ""]  # fmt: skip


@pytest.mark.parametrize("told", [
    ["## Config (faithful to the live stack)", "",
     "SGLang v0.5.9 · TP=8 · FP8 · EAGLE3 drafter (3 steps, 4 draft tokens) · mem-fraction 0.85"],
    ["The values below are identical to our production deployment:", "",
     "- SGLang 0.5.9", "- TP=8, FP8 weights", "- EAGLE3, 3 steps, top-k 1, 4 draft tokens"],
    ["Copied from the running server's compose, nothing retuned.", "",
     "| engine | SGLang 0.5.9 |", "| spec | EAGLE3 3/1/4 |"],
], ids=["dotted-summary", "bullets", "table"])  # fmt: skip
def test_a_config_pr_said_to_be_the_live_stack_is_a_run(tmp_path: Path, told: list[str]) -> None:
    path = probed_path(tmp_path, [*_PR_HEAD, *told])
    assert path.worker_class is not None or path.conditional, path
    assert "EAGLEWorker" in (path.worker_class or path.conditional or ""), path


@pytest.mark.parametrize("plan", [
    ["## Config", "", "We should make the staging config identical to the production deployment.",
     "SGLang v0.5.9 · TP=8 · FP8 · EAGLE3 drafter (3 steps, 4 draft tokens)"],
    ["## Config", "", "SGLang v0.5.9 · TP=8 · FP8 · EAGLE3 drafter (3 steps, 4 draft tokens)"],
], ids=["plan-to-match", "no-run-told"])  # fmt: skip
def test_a_config_pr_not_said_to_run_gets_no_path(tmp_path: Path, plan: list[str]) -> None:
    assert_no_path(tmp_path, [*_PR_HEAD, *plan])


# --- a sentence wrapped inside a parenthesis, its next line opening with a capitalised name ---

def _lines(texts: list[str]) -> list[LogLine]:
    return [LogLine("t.log", i + 1, 0, t, t, "plain", "") for i, t in enumerate(texts)]


def _fed(texts: list[str]) -> dict[int, str]:
    wrap, out = ProseWrap(), {}
    for line in _lines(texts):
        out[line.lineno] = line.text
        out.update({grown.lineno: grown.text for grown in wrap.feed(line)})
    return out


@pytest.mark.parametrize(("upper", "lower"), [
    ("The same weights work when unquantized; a similar report is open as #41234 (an", "NextN draft with fp8 weights), which fails at load."),
    ("We saw the same acceptance drop on the other cluster last week (see the thread by", "Mira about EAGLE3 heads), and it went away after a rebuild."),
    ("Der Fehler tritt nur mit dem quantisierten Entwurfsmodell auf (nicht mit dem", "Original in BF16), obwohl beide gleich konfiguriert sind."),
], ids=["issue-ref", "see-thread", "german"])  # fmt: skip
def test_a_line_inside_an_open_parenthesis_goes_on_below(upper: str, lower: str) -> None:
    fed = _fed([upper, lower])
    assert lower.split(")")[0] in fed[1] and upper.split("(")[-1] in fed[2], fed


@pytest.mark.parametrize("texts", [
    ["A long sentence about the crash that ends its parenthesis (twice) but not the line", "Next line starts anew."],
    ["A long sentence that opens a parenthesis and keeps going for quite a while (like",
     "- a list item below it"],
], ids=["closed", "list-item"])  # fmt: skip
def test_a_capitalised_line_after_a_closed_parenthesis_or_an_item_stays_apart(texts: list[str]) -> None:
    assert _fed(texts)[2] == texts[1]


_STORE = ["sgl-project/sglang · issue #512 · open · Python",
          "# [Bug] Quantized DFlash2 draft accepts almost nothing", "",
          "kim-o · description · 2026-09-20", "### Summary", "",
          "Our quantized DFlash2 draft checkpoint loads into `DFlash2DraftModel`, serves, and then rejects",
          "nearly every draft token; decode runs slower than with no drafter at all.", "",
          "The unquantized weights are fine. A similar report exists for a quantized draft in #41234 (an",
          "NextN draft with fp8 weights), which fails at load instead.", "",
          "```", "python3 -m sglang.launch_server \\", "  --model-path /models/target-int4 \\", "  --tp"]  # fmt: skip


def test_a_dflash2_report_citing_a_nextn_issue_in_a_wrapped_parenthesis_keeps_the_dflash_family(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _STORE)
    assert_verdict(path, "unknown", "DFlashWorkerV2|DFlashWorker")
    assert any("DFlash2" in e.text for e in path.evidence), path.evidence


def test_a_dflash2_guide_with_a_wrapped_parenthesis_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Guide: choosing a draft for SGLang", "",
                              "This page explains how to pick a DFlash2 draft for a target model and when to prefer (the",
                              "NextN heads some checkpoints ship) instead.", "",
                              "Step 1: download the draft.", "Step 2: start the server with the DFLASH algorithm."])  # fmt: skip


# --- a draft named by its own kind (its architecture or its config block), no algorithm flag ---

def _issue(number: int, title: str, body: list[str]) -> list[str]:
    return [f"sgl-project/sglang · issue #{number} · open · Python", f"# [Bug] {title}", "",
            "ro-m · description · 2026-10-04", "", *body]  # fmt: skip


@pytest.mark.parametrize("body", [
    ["On sglang 0.5.15 our draft checkpoint (its `dflash_config` has block_size 8) serves at half the "
     "expected speed; it crashed twice under load too."],
    ["sglang 0.5.15, one H100, the server crashed twice under load.", "",
     "| draft | architecture | block |", "|---|---|---|", "| ours-ft | `DFlash2DraftModel` | 8 |"],
    ["Mit sglang 0.5.15 stürzt der Server zweimal unter Last ab; der Entwurf ist ein `DFlashDraftModel`."],
], ids=["config-field", "table-cell", "german"])  # fmt: skip
def test_a_draft_named_by_its_dflash_kind_decides_the_dflash_worker(tmp_path: Path, body: list[str]) -> None:
    path = probed_path(tmp_path, _issue(902, "slow decode with my draft", body))
    assert_verdict(path, "v2", "DFlashWorkerV2")


def test_a_page_describing_dflash_draft_architectures_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Draft architectures in SGLang", "",
                              "This page explains which draft architectures SGLang loads.",
                              "A DFlash draft declares `DFlashDraftModel` in its config and carries a `dflash_config` block.",
                              "To use one, pass the draft path and pick the DFLASH algorithm."])  # fmt: skip
