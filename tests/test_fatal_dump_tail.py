"""A Python fatal-error dump cut to its last line: ``Extension modules: ...`` with its head cut
away leaves only module names and the count. It is still a crash (never lose one); a sentence
listing a few names with a total is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

MODULES = ", ".join(["_cffi_backend", "numpy.core._multiarray_umath", "torch._C", "zmq.backend.cython",
                     "scipy.linalg._fblas", "msgpack._cmsgpack", "cuda_utils", "__triton_launcher"])  # fmt: skip


@pytest.mark.parametrize("cut", [0, 5, 23])
def test_the_tail_of_a_cut_dump_is_a_fatal_crash(tmp_path: Path, cut: int) -> None:
    lines = ["Our decode server died; all I have is this:", "```",
             f"{MODULES[cut:]} (total: 8)",
             "[2025-11-17 21:22:15 DP1 TP1] GET /health HTTP/1.1 200", "```"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert crash.exception_type == "FatalPythonError"


@pytest.mark.parametrize(
    "line",
    [
        "Loaded plugins: a, b, c (total: 3)",
        "apples, pears, plums, figs, kiwis (total: 5)",  # no module path among them
        f"Extension modules: {MODULES} (total: 8)",  # a whole dump's last line, no dump above
    ],
)
def test_a_list_with_a_total_is_no_crash_of_its_own(tmp_path: Path, line: str) -> None:
    assert roots(run(tmp_path, ["Started.", line, "Done."])) == []


def test_a_whole_dump_stays_one_crash(tmp_path: Path) -> None:
    lines = ["Fatal Python error: Segmentation fault", "",
             "Current thread 0x00007f0a (most recent call first):",
             '  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611 in run_scheduler_process',
             "", f"Extension modules: {MODULES} (total: 8)"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert crash.exception_type == "SIGSEGV"
