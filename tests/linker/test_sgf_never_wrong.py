"""Texts SGF's readers must not decide: the spec-v2 switch as an error's advice or inside code,
a kind named by example, multi-layer EAGLE asked about, spec v2 or loose family words in a
request, and SGLang's looser words on another engine's tracker.

Our own lines in the shapes of session 14's trap wrongs (round 34 05: a fix PR's motivation
quoting a ValueError that advises the switch; 34 04: a refactor proposal's string literal; 34 01:
a model repository's arg-check crash with the advice repeated in a reply), each written as
another member of its class."""

from __future__ import annotations

from pathlib import Path

from spectrace.assemblers.spec_prose import advised, named_algorithms
from tests.real_logs_helpers import roots, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/torch/cuda/graphs.py", line 88, in replay',
    "    super().replay()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _paths(tmp_path: Path, lines: list[str]) -> list[str]:
    """Every root cause's verdict, shown as value, class and condition."""
    out = []
    for incident in roots(run(tmp_path, lines)):
        p = incident.worker_path
        out.append("" if p is None else f"{p.value} {p.worker_class or ''} {p.conditional or ''}")
    return out


def _no_v2(tmp_path: Path, lines: list[str]) -> None:
    for shown in _paths(tmp_path, lines):
        assert "V2" not in shown and not shown.startswith("v2"), shown


def test_a_fix_prs_quoted_error_advice_is_no_setting(tmp_path: Path) -> None:
    """A PR's motivation quotes a RuntimeError whose text tells users to set the switch; the PR
    changes the check. Nothing ran with the switch (34 05's class, another error and model)."""
    lines = [
        "sgl-project/sglang · pull request #61000 · open · Python",
        "# [Hybrid] Resolve Falcon-H2 speculative decoding conflict with chunked cache",
        "",
        "dev · description · 2026-05-10",
        "## Motivation",
        "Launching Falcon-H2 with speculative decoding fails at argument checking:",
        "```",
        "RuntimeError: chunked cache for FalconH2ForCausalLM needs the extra buffer; please set",
        "SGLANG_ENABLE_SPEC_V2=1 and --mamba-scheduler-strategy extra_buffer to use it.",
        "```",
        "## Modifications",
        "- switch the strategy automatically on CUDA.",
        "", *_PROBE,
    ]  # fmt: skip
    _no_v2(tmp_path, lines)


def test_a_string_literal_of_proposed_code_is_no_setting(tmp_path: Path) -> None:
    """A cleanup proposal's code raises an error whose string advises the switch (34 04's
    class): code, not the run's environment."""
    lines = [
        "sgl-project/sglang · issue #61001 · open · Python",
        "# [Cleanup] fold the hybrid cache checks into one validator",
        "",
        "dev · description · 2026-05-11",
        "```python",
        "def _check_hybrid(self):",
        "    if self.speculative_algorithm is not None and not self.extra_buffer:",
        '        raise ValueError("hybrid cache with speculative decoding: run with "',
        '                         "SGLANG_ENABLE_SPEC_V2=1 and the extra buffer.")',
        "```",
        "", *_PROBE,
    ]  # fmt: skip
    _no_v2(tmp_path, lines)


def test_an_arg_check_crash_with_the_advice_repeated_names_no_worker(tmp_path: Path) -> None:
    """A model repository's issue: the server dies at argument checking, a reply pastes the
    advice (34 01's class). No algorithm is shown: no v2 condition from the advice."""
    lines = [
        "org/SomeModel · issue #12 · open",
        "# sglang launch error: ValueError: speculative decoding for HybridForCausalLM needs radix cache off",
        "",
        "user · description · 2026-04-01",
        "ValueError: speculative decoding for HybridForCausalLM needs radix cache off.",
        "",
        "maintainer · comment · 2026-04-02",
        "As the message says, you must use --mamba-scheduler-strategy extra_buffer and set SGLANG_ENABLE_SPEC_V2=1.",
        "", *_PROBE,
    ]  # fmt: skip
    _no_v2(tmp_path, lines)


def test_advice_and_settings() -> None:
    """The advice reader: an error's or a check's words, a literal; not a run's own setting."""
    assert advised('        "Use the extra buffer with SGLANG_ENABLE_SPEC_V2=1.")')
    assert advised("ValueError: X needs to be run with SGLANG_ENABLE_SPEC_V2=1")
    assert not advised("SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path m")
    assert not advised("We export SGLANG_ENABLE_SPEC_V2=1 and the server crashes at startup.")
    assert not advised('  env: {"SGLANG_ENABLE_SPEC_V2": "1"}')


def test_a_kind_named_by_example_names_no_algorithm() -> None:
    """"speculative decoding (e.g., EAGLE)" and "methods such as NGRAM" name a kind."""
    assert named_algorithms("With speculative decoding (e.g. EAGLE3), the check fails") == []
    assert named_algorithms("methods such as NGRAM crash") == []
    assert named_algorithms("We run EAGLE3 (e.g. on Llama) and it crashes") == ["EAGLE3"]


def test_multi_layer_asked_about_keeps_the_plain_eagle_worker(tmp_path: Path) -> None:
    """An EAGLE launch on a release past the v1 worker, the writer asking whether multi-layer
    EAGLE would help: the run is EAGLEWorkerV2, not the multi-layer worker."""
    lines = [
        "sgl-project/sglang · issue #61002 · open · Python",
        "# [Bug] EAGLE3 hangs at high concurrency",
        "",
        "user · description · 2026-09-01",
        "sglang 0.5.17",
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path d --speculative-eagle-topk 1",
        "Would multi-layer EAGLE avoid this?",
        "", *_PROBE,
    ]  # fmt: skip
    (shown,) = _paths(tmp_path, lines)
    assert "MultiLayer" not in shown, shown


def test_spec_v2_in_a_request_gives_no_path(tmp_path: Path) -> None:
    """A feature request tagged for spec v2, naming a family: nothing ran."""
    lines = [
        "sgl-project/sglang · issue #61003 · open · Python",
        "# [Feature][SPEC_V2] NGRAM on the overlap worker",
        "",
        "user · description · 2026-03-01",
        "It would be great to run NGRAM with spec v2 and with and without radix cache.",
        "", *_PROBE,
    ]  # fmt: skip
    for shown in _paths(tmp_path, lines):
        assert shown.split()[0] == "unknown" and "Worker" not in shown, shown


def test_loose_words_are_sglangs_only_on_its_tracker(tmp_path: Path) -> None:
    """vLLM's tracker, a [Bug] with "with and without EAGLE3" and a speed word: the SGLang era
    join never reads it (no SGLang class)."""
    lines = [
        "vllm-project/vllm · issue #61004 · open · Python",
        "# [Bug] EAGLE3 2x slower than expected at long context",
        "",
        "user · description · 2026-03-01",
        "I compared Llama-3.1-8B with and without EAGLE3, one request at a time.",
        "", *_PROBE,
    ]  # fmt: skip
    for shown in _paths(tmp_path, lines):
        assert "EAGLEWorker" not in shown, shown


def test_a_family_in_a_cited_report_is_not_the_run(tmp_path: Path) -> None:
    """A bug report whose only family word sits beside another issue's number, a capability or a
    run that used to be: the looser reading keeps those guards of its clause."""
    for said in ("Possibly related to #4411 (an EAGLE hang under DP attention).",
                 "EAGLE3 is supported for this model according to the docs.",
                 "We used to run NEXTN on this cluster."):  # fmt: skip
        lines = [
            "sgl-project/sglang · issue #61005 · open · Python",
            "# [Bug] scheduler hangs after two hours",
            "",
            "user · description · 2026-10-01",
            said,
            "", *_PROBE,
        ]  # fmt: skip
        for shown in _paths(tmp_path, lines):
            assert "Worker" not in shown, (said, shown)


def test_another_writers_crash_on_an_issue_takes_no_title_family(tmp_path: Path) -> None:
    """On an issue (not a pull request) a crash in another writer's comment is that writer's
    run: the title's EAGLE3 is the reporter's, so no EAGLE class for it."""
    lines = [
        "sgl-project/sglang · issue #61006 · open · Python",
        "# [Bug] EAGLE3 outputs repeat after 2k tokens",
        "",
        "reporter · description · 2026-10-01",
        "The outputs loop after 2k tokens.",
        "",
        "someone-else · comment · 2026-10-03",
        "I see a different crash on my plain server:",
        "", *_PROBE,
    ]  # fmt: skip
    for shown in _paths(tmp_path, lines):
        assert "EAGLEWorker" not in shown, shown


def test_a_slime_feature_request_names_no_run(tmp_path: Path) -> None:
    """A feature request on slime's tracker naming an EAGLE3 draft for the rollout: asked for,
    not run."""
    lines = [
        "THUDM/slime · issue #9001 · open · Python",
        "# [Feature] Support EAGLE3 drafts in the SGLang rollout",
        "",
        "user · description · 2026-02-01",
        "It would help to serve an EAGLE3 draft during rollouts to speed up generation.",
        "", *_PROBE,
    ]  # fmt: skip
    for shown in _paths(tmp_path, lines):
        assert "Worker" not in shown, shown
