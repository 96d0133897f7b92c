"""The run's whole SGLang command is shown and sets no speculative option: an algorithm the
text's sentences name (another engine's fallback, a past setup) is not this run's, as a plain
vLLM launch already reads (ADV s13 x0's shape)."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run

CRASH = ["Traceback (most recent call last):",
         '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", '
         "line 2611, in run_scheduler_process",
         "    scheduler.event_loop_normal()",
         "RuntimeError: CUDA error: an illegal memory access was encountered",
         "sglang: 0.5.6"]  # fmt: skip


@pytest.mark.parametrize(
    "said",
    ["The other team serves this model with EAGLE3 on their cluster and sees no crash.",
     "We plan to enable NEXTN once this is stable.",
     "EAGLE3 draft weights are downloaded but not used yet."],
)
def test_a_sentence_beside_a_whole_plain_command_names_no_algorithm(
    tmp_path: Path, said: str
) -> None:
    lines = ["# [Bug] scheduler dies after an hour", said,
             "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 4 --port 30000",
             *CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and path.conditional is None, path


def test_the_commands_own_algorithm_still_decides(tmp_path: Path) -> None:
    lines = ["# [Bug] scheduler dies after an hour",
             "Our old setup was vLLM 0.9 with ngram, which never crashed.",
             "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 4 "
             "--speculative-algorithm EAGLE3 --speculative-draft-model-path org/eagle3 "
             "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
             *CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class in ("EAGLEWorker", "EAGLEWorkerV2") or path.conditional, path
