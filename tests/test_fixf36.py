"""Session 36 (FIXF): vLLM threads whose run sits under a heading or a form that otherwise
sets its words apart, and what their config ran.

1. A docs issue ("### The doc issue") whose body goes on to the writer's own failed run ("I
   tried to run ... with the following command:") is a report of that run, not a quotation of
   the docs page.
2. A published MTP-head checkpoint named as a method-less draft (a Gemma-4 ``-assistant``) on a
   release before the one that rewrites its model_type to MTP is a plain draft model there:
   ``DraftModelProposer``, no MTP-or-draft condition.
3. P-EAGLE (an EAGLE-3 head for parallel drafting) is the EAGLE3 family, and a feature request
   that tells "when I try to deploy X, it throws the error below" shows the writer's run.

Each test writes its own lines in the shape of the text class it covers and asserts what a user
sees (the worker path's class or condition, and the line that proves it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from real_logs_helpers import PROBE, assert_no_path, assert_verdict, roots, run
from spectrace.assemblers.vllm_methods import infer
from spectrace.path_base import line_guard
from spectrace.worker_path import WorkerPath


def probed_path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    """The worker path of a probe crash appended to ``lines`` (the text's own cut traceback
    is a crash of its own)."""
    *_, probe = roots(run(tmp_path, [*lines, "", *PROBE]))
    assert probe.worker_path is not None
    return probe.worker_path

# --- 1 + 2: a docs issue whose body is the writer's failed serve of an assistant draft ---

_DOC_HEAD = ["vllm-project/vllm · issue #50123 · open · Python", "labels: documentation",
             "# [Doc]: the assistant-draft page does not work on the current wheel", "",
             "kato-r · description · 2026-05-20", "### 📚 The doc issue", ""]  # fmt: skip
_SERVE = ["vllm serve google/gemma-4-31B-it --port 9000 \\",
          "  --speculative-config '{\"model\": \"google/gemma-4-31B-it-assistant\", \"num_speculative_tokens\": 3}'"]  # fmt: skip


@pytest.mark.parametrize("body", [
    ["vLLM version: 0.20.0 (PyPI wheel)", "", "I tried to run the assistant draft from the page with this command:", "",
     *_SERVE, "", "It stops at engine start-up with a NotImplementedError about multimodal models."],
    ["**Setup**", "vLLM version: 0.19.1", "", "We launched vllm serve with the page's flags:", "", *_SERVE, "",
     "**Actual**", "The engine core dies before the first request."],
    ["One H100, vLLM 0.20.1.", "I ran the recipe's serve line as given:", *_SERVE,
     "and got the error below at engine init."],
], ids=["tried-prose", "bold-sections", "terse"])  # fmt: skip
def test_a_docs_issue_whose_body_is_the_writers_failed_serve_is_that_run(
    tmp_path: Path, body: list[str]
) -> None:
    path = probed_path(tmp_path, [*_DOC_HEAD, *body])
    assert_verdict(path, "other", "DraftModelProposer")
    assert any("speculative-config" in e.text for e in path.evidence), path.evidence


def test_a_docs_issue_that_only_quotes_the_page_gets_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, [*_DOC_HEAD, "The page currently shows this command:", "", *_SERVE, "",
                              "It should say which release first supports the assistant draft."])  # fmt: skip


@pytest.mark.parametrize(("version", "worker", "condition"), [
    ("0.20.1", "DraftModelProposer", None),  # before gemma4_assistant became an MTP type
    ("0.17.0", "DraftModelProposer", None),
], ids=["0.20.1", "0.17.0"])  # fmt: skip
def test_a_gemma4_assistant_before_its_mtp_rewrite_is_a_plain_draft(
    version: str, worker: str, condition: str | None
) -> None:
    found = infer("google/gemma-4-E4B-it-assistant", version)
    assert found is not None and (found.worker, found.condition) == (worker, condition), found


def test_an_unknown_assistant_name_keeps_the_mtp_or_draft_condition() -> None:
    found = infer("acme/llama-3-8b-assistant", "0.20.1")  # no published head: its config decides
    assert found is not None and found.worker is None and found.condition, found
    assert "DraftModelProposer" in found.condition and "(mtp)" in found.condition, found


# --- 3: P-EAGLE in a vLLM feature request that tells the writer's failed deploy ---

_FEATURE_HEAD = ["vllm-project/vllm · issue #51001 · open · Python", "labels: feature request",
                 "# [Feature]: P-EAGLE heads for vision-language targets", "",
                 "lin-h · description · 2026-05-02", "### 🚀 The feature, motivation and pitch", ""]  # fmt: skip
_CORE = ["EngineCore failed to start.",
         "(EngineCore pid=4411) ERROR 05-02 10:11:12 [core.py:1100] Traceback (most recent call last):",
         '(EngineCore pid=4411) ERROR 05-02 10:11:12 [core.py:1100]   File "/usr/lib/python3/site-packages/vllm/v1/engine/core.py", line 1080, in run_engine_core']  # fmt: skip


@pytest.mark.parametrize("told", [
    ["Parallel drafting for VLMs is missing today. When I try to deploy a P-EAGLE head for Qwen3-VL, it throws the error below:"],
    ["We deployed the PEagle draft for our Gemma-4 target and it raised the following exception:"],
    ["When we try serving with a P EAGLE checkpoint on the 31B model, the engine throws an error:"],
], ids=["when-i-try", "deployed-raised", "blank-spelling"])  # fmt: skip
def test_a_feature_request_telling_a_failed_p_eagle_deploy_is_an_eagle_run(
    tmp_path: Path, told: list[str]
) -> None:
    first, *_ = roots(run(tmp_path, [*_FEATURE_HEAD, *told, "", *_CORE]))  # the engine core's own crash
    path = first.worker_path
    assert path is not None
    assert "EagleProposer" in (path.worker_class or path.conditional or ""), path
    assert any("EAGLE" in e.text.upper() for e in path.evidence), path.evidence


@pytest.mark.parametrize("wish", [
    ["It would be great to support P-EAGLE heads for multimodal targets.",
     "If we try P-EAGLE there, it should not fail at start-up."],
    ["# P-EAGLE on vLLM: how to train and serve a head", "",
     "This guide shows how to export a P-EAGLE head and pass it as the eagle3 draft."],
], ids=["wish", "how-to"])  # fmt: skip
def test_p_eagle_named_in_a_wish_or_a_how_to_gets_no_path(tmp_path: Path, wish: list[str]) -> None:
    head = _FEATURE_HEAD if wish[0].startswith("It") else []
    assert_no_path(tmp_path, [*head, *wish])


@pytest.mark.parametrize(("text", "asked"), [
    ("When I try EAGLE3 on the 8B model, the scheduler dies.", False),
    ("we try MTP with two tokens and the engine hangs", False),
    ("Please try EAGLE3 with fewer tokens.", True),
    ("You could try MTP instead.", True),
], ids=["i-try", "we-try", "please-try", "you-try"])  # fmt: skip
def test_the_writers_own_try_is_not_a_suggestion(text: str, asked: bool) -> None:
    assert (line_guard(text) is not None) is asked, line_guard(text)
