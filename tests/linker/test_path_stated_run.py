"""An SGLang run whose algorithm only the report's words name, shown by what SGLang itself
printed: an RL trainer's rollout actor ``(SGLangEngine pid=N)`` in front of a scheduler
traceback, an environment bullet ``Speculative Algorithm: ...``, the EAGLE worker's draft
CUDA-graph capture line, a trainer's ``--sglang-speculative-*`` knobs with no algorithm flag.
The era rule then decides by the post's date, or gives its condition; a text that sets the
name apart from the run (a question, two runs, a quoted post) decides nothing. Every line here
is our own, in the shapes such threads take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

ACTOR = "(SGLangEngine pid=4242)"
LOOP_CRASH = [
    f"{ACTOR} [2025-12-10 06:00:01 TP3] Scheduler hit an exception: Traceback (most recent call last):",
    f'{ACTOR}   File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2701, in run_scheduler_process',
    f"{ACTOR}     scheduler.event_loop_normal()",
    f'{ACTOR}   File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 1120, in event_loop_normal',
    f"{ACTOR}     result = self.run_batch(batch)",
    f"{ACTOR} torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB",
]
PROBE = [
    "Traceback (most recent call last):",
    '  File "/home/me/rollout.py", line 12, in <module>',
    "RuntimeError: rollout worker died",
]


def _path(tmp_path: Path, lines: list[str]):  # noqa: ANN202
    (crash,) = roots(run(tmp_path, lines, name="thread.md"))
    assert crash.worker_path is not None
    return crash.worker_path


def test_a_rollout_actor_crash_under_a_dated_eagle3_title_decides_v1(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "# Policy training with Eagle3 speculative decoding runs out of memory", "",
        "dana · comment · 2025-12-10", "", "```", *LOOP_CRASH, "```",
    ])  # fmt: skip
    assert (path.value, path.worker_class, path.framework) == ("v1", "EAGLEWorker", "sglang")


def test_the_same_crash_without_a_date_is_the_loops_condition(tmp_path: Path) -> None:
    undated = [line.replace("[2025-12-10 06:00:01 TP3] ", "") for line in LOOP_CRASH]
    path = _path(tmp_path, [
        "# Policy training with Eagle3 speculative decoding runs out of memory", "",
        "```", *undated, "```",
    ])  # fmt: skip
    assert path.value == "unknown"
    # the normal loop: v1 while v1 exists, the synchronous V2 worker from 0.5.13
    assert "0.5.13" in path.conditional and "EAGLEWorkerV2" in path.conditional
    assert "EAGLEWorker)" in path.conditional


@pytest.mark.parametrize(
    "sentence",
    [
        "Training works fine with Eagle3; this crash is from the plain rollout.",
        "Would Eagle3 speculative decoding make this worse?",
        "We never ran Eagle3 speculative decoding on this cluster and it runs out of memory",
    ],
)
def test_a_name_set_apart_from_the_run_decides_nothing(tmp_path: Path, sentence: str) -> None:
    path = _path(tmp_path, ["dana · comment · 2025-12-10", "", sentence, "", *LOOP_CRASH])
    assert path.value == "unknown" and not path.conditional


def test_an_environment_bullet_names_the_runs_algorithm(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "# [Bug] illegal memory access with long drafts", "", "erin · description · 2025-10-20",
        "## Environment", "- Model: meta-llama/Llama-3.1-8B-Instruct",
        "- Speculative Algorithm: EAGLE-2 (tree drafts)", "- sglang built from main", "", *PROBE,
    ])  # fmt: skip
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


def test_bullets_of_two_runs_name_no_algorithm(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "erin · description · 2025-10-20", "Two deployments, one of them crashes:",
        "- spec: EAGLE3, topk 1", "- spec: none", "sglang is the engine of both.", "", *PROBE,
    ])  # fmt: skip
    assert path.value != "v1" and path.worker_class is None


def test_the_draft_graph_capture_line_makes_a_title_name_the_runs(tmp_path: Path) -> None:
    lines = [
        "# Draft CUDA graph capture is slow in EAGLE speculative decoding mode", "",
        "frank · description · 2025-09-01", "The target model captures quickly:",
        "`[2025-09-01 10:00:00 TP0] Capture cuda graph end. Time elapsed: 10.00 s.`",
        "but the draft takes much longer:",
        "`[2025-09-01 10:01:00 TP0] Capture draft cuda graph end. Time elapsed: 50.00 s.`", "",
        *PROBE,
    ]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    later = [line.replace("2025-09-01", "2026-09-01") for line in lines]  # v2 the default
    later_path = _path(tmp_path, later)
    assert later_path.value == "unknown" and "0.5.11" in later_path.conditional


def test_a_question_beside_the_capture_line_decides_nothing(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "frank · description · 2025-09-01", "Should EAGLE3 capture its draft graph this slowly?",
        "`[2025-09-01 10:01:00 TP0] Capture draft cuda graph end. Time elapsed: 50.00 s.`", "",
        *PROBE,
    ])  # fmt: skip
    assert path.worker_class is None


TRAINER_KNOBS = [
    "```bash", "SGLANG_ARGS=(", "   --sglang-mem-fraction-static 0.7",
    "   --sglang-speculative-num-steps 3", "   --sglang-speculative-eagle-topk 2",
    "   --sglang-speculative-num-draft-tokens 6", ")", "```",
]  # fmt: skip


def test_trainer_knobs_without_an_algorithm_take_the_named_eagle(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "# tune EAGLE speculative decoding settings of the rollout script", "",
        "gina · description · 2026-02-02", *TRAINER_KNOBS, "", *PROBE,
    ])  # fmt: skip
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert "speculative_eagle_topk" in path.evidence[0].reason


def test_trainer_knobs_beside_a_non_eagle_name_decide_nothing(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "# tune NGRAM speculative decoding settings of the rollout script", "",
        "gina · description · 2026-02-02", *TRAINER_KNOBS, "", *PROBE,
    ])  # fmt: skip
    assert path.worker_class != "EAGLEWorker" and path.value != "v1"


@pytest.mark.parametrize(
    "lines",
    [
        ["The OOM in Eagle3's draft capture is tracked in another issue; this one is at prefill."],
        ["Model card:", "- Speculative decoding: EAGLE3 supported (draft head on the hub)"],
        ["- spec: EAGLE3 on the first node (ok), none on the second node (crash below)"],
        ["Speculative decoding: EAGLE3", "Our server:", "```",
         "python -m sglang.launch_server --model-path org/target --tp 2 --port 30000", "```"],
    ],
)
def test_a_name_beside_the_run_decides_nothing(tmp_path: Path, lines: list[str]) -> None:
    path = _path(tmp_path, ["dana · comment · 2025-12-10", *lines, "", *LOOP_CRASH])
    assert path.worker_class is None


RUNTIME = ["```", "RuntimeError: The size of tensor a (96) must match the size of tensor b (64)", "```"]


def test_a_crash_title_naming_the_draft_head_gives_the_eras_condition(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "sgl-project/sglang · issue #4321 · open", "",
        "# [Bug] SGLang crashes when serving org/big-7.5b with the org/big-7.5b-Eagle3 head", "",
        "ivan · description · 2026-07-01", *RUNTIME,
    ])  # fmt: skip
    assert path.value == "unknown" and "EAGLEWorkerV2" in path.conditional
    assert "EAGLEWorker)" in path.conditional


def test_a_title_saying_ngram_does_not_work_decides_its_worker(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "sgl-project/sglang · issue #4322 · closed", "",
        "# [Bug] NGram speculative decoding doesn't work with the radix cache", "",
        "judy · comment · 2025-11-02", "Same error again with the other backend.", "", *PROBE,
    ])  # fmt: skip
    assert (path.value, path.worker_class) == ("other", "NGRAMWorker")


@pytest.mark.parametrize(
    ("sentence", "worker"),
    [
        ("Every TP worker crashes with NaN logits on a prefix hit in Eagle V2 speculative decoding.",
         "EAGLEWorkerV2"),
        ("Switching to Eagle V2 instead fixes the NaN logits for us.", None),
    ],
)
def test_eagle_v2_said_of_the_run_names_the_v2_worker(
    tmp_path: Path, sentence: str, worker: str | None
) -> None:
    path = _path(tmp_path, ["fix: zero the draft KV of cached prefixes (sgl-project:main)", "",
                            sentence, "", *PROBE])  # fmt: skip
    assert path.worker_class == worker


def test_a_chinese_sentence_under_standalone_names_it(tmp_path: Path) -> None:
    path = _path(tmp_path, [
        "修复 #100。在 STANDALONE 推测解码下,草稿模型的隐藏层大小不同时,EagleDraftInput 拼接时抛出"
        " RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 64 but got"
        " size 32",
    ])  # fmt: skip
    assert path.value == "unknown" and "StandaloneWorker" in path.conditional
