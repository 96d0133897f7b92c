"""A pull request's sentence telling what the code does for a method ("NGRAM has no draft
model, so `draft_graph` is omitted", "When the method is ngram, no draft forward runs", "MTP does
not load a separate draft model") names the code's cases, not the method the PR was checked
with (``not_run.CODE_TOLD``; round 40 09: a server-info PR verified with EAGLE3 was decided
NGRAMWorker from such a bullet). The run's own method, told elsewhere, decides; a PR that only
tells the code gets no path; an issue's own run and a fix PR's failure keep their method.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip


def thread(repo: str, kind: str, title: str, day: str, *body: str) -> list[str]:
    return [f"{repo} · {kind} #4250 · open · Python", f"# {title}", "", f"ivy · description · {day}", *body]


DECIDED: dict[str, tuple[list[str], str, str]] = {
    "an SGLang PR: NGRAM bullet, EAGLE3 run told in prose": (thread(
        "sgl-project/sglang", "pull request", "Report draft graph memory in /server_info", "2026-08-02",
        "## Summary", "- Adds a `draft_graph` key to `memory_usage` for every spec worker.",
        "- NGRAM has no draft model, so `draft_graph` is omitted for it.", "",
        "Tested on H200 with sglang 0.5.16 and EAGLE3 (topk 1, 3 steps): `draft_graph` reads 0.47 GB."),
        "v2", "EAGLEWorkerV2"),
    "a vLLM PR: 'when the method is ngram', verified with eagle3": (thread(
        "vllm-project/vllm", "pull request", "[Spec Decode] Count draft tokens in the scheduler stats", "2026-08-12",
        "When the method is ngram, no draft forward runs, so the draft time stays 0.",
        "Verified with eagle3 on an H100 (vLLM 0.24.0): draft time 1.8 ms per step, acceptance length 2.7."),
        "unknown", "EagleProposer|EagleSpeculator"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(DECIDED))
def test_the_run_method_decides_not_the_code_told(tmp_path: Path, name: str) -> None:
    lines, value, classes = DECIDED[name]
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="report.md"))
    assert_verdict(path, value, classes)
    assert "Ngram" not in (path.conditional or "") and "NGRAM" not in (path.conditional or ""), path


def test_a_pr_telling_only_the_code_gets_no_path(tmp_path: Path) -> None:
    lines = thread("sgl-project/sglang", "pull request", "Skip draft CUDA graph capture when no draft model",
                   "2026-08-05", "NGRAM does not load a draft model, so draft graph capture is skipped for it; "
                   "DFlash already handles this in its own worker.")  # fmt: skip
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="report.md"))
    assert path.worker_class is None and not path.conditional, path


KEPT: dict[str, tuple[list[str], str, str]] = {
    "an issue's own NGRAM launch beside the same sentence": (thread(
        "sgl-project/sglang", "issue", "[Bug] NGRAM verify crashes at long context on 0.5.16", "2026-09-01",
        "I launch `python -m sglang.launch_server --model Qwen/Qwen3-32B --speculative-algorithm NGRAM` on sglang "
        "0.5.16 and it crashes after about 30k tokens.", "NGRAM has no draft model, so this must be in verify."),
        "other", "NGRAMWorker"),
    "a fix PR whose sentence tells the failure under NGRAM": (thread(
        "sgl-project/sglang", "pull request", "Fix NGRAM verify at long context", "2026-09-03",
        "With NGRAM on sglang 0.5.16 the scheduler crashes because `draft_graph` is None at long context."),
        "other", "NGRAMWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(KEPT))
def test_a_run_or_failure_under_the_method_keeps_it(tmp_path: Path, name: str) -> None:
    lines, value, classes = KEPT[name]
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), value, classes)
