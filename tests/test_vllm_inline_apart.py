"""An inline vLLM config inside someone else's words (ADV s11 b01): a blog's or a guide's
launch quoted in a sentence is not the run's, even beside the writer's own plain launch."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import VLLM_CRASH, VLLM_REPO, thread

_INLINE = ("`vllm serve acme/Orbit-70B --speculative-config '{\"method\": \"eagle3\", "
           "\"model\": \"acme/e3-70b\"}'`")  # fmt: skip


@pytest.mark.parametrize("said", [
    f"> From the vLLM blog: {_INLINE} gives 2.1x.",
    f"The tutorial uses {_INLINE} for its numbers.",
    f"According to the guide, {_INLINE} is the fastest setup.",
])  # fmt: skip
def test_another_s_inline_launch_names_no_class(tmp_path: Path, said: str) -> None:
    lines = thread(VLLM_REPO, "[Bug]: engine dies at startup on H20", "2026-02-01", said,
                   "Our own launch:", "```", "vllm serve acme/Orbit-70B --tensor-parallel-size 4",
                   "```", "```", *VLLM_CRASH, "```")  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert path.worker_class is None and not path.conditional, path


def test_the_writer_s_own_inline_launch_still_decides(tmp_path: Path) -> None:
    lines = thread(VLLM_REPO, "[Bug]: engine dies at startup on H20", "2026-02-01",
                   f"We start the server with {_INLINE} and it dies after warmup.",
                   "```", *VLLM_CRASH, "```")  # fmt: skip
    path = crash_path(run(tmp_path, lines, name="thread.md"))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path
