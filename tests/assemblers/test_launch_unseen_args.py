"""A launch command whose arguments come from somewhere the paste does not show (an argument
file, a backtick or ``$(...)`` substitution, a shell variable) is not a command shown whole:
its missing speculative flags may be in there, so it never says speculation was off."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import roots, run

SGL = "python -m sglang.launch_server --model-path org/llama-8b --tp 2"
CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/py/sglang/srt/managers/scheduler.py", line 2611, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _value(tmp_path: Path, *command: str) -> str:
    (crash,) = roots(run(tmp_path, [*command, *CRASH]))
    assert crash.worker_path is not None
    return crash.worker_path.value


@pytest.mark.parametrize(
    "command",
    [
        (f"{SGL} @args.txt",),
        (f"{SGL} `cat spec_flags.txt`",),
        (f"{SGL} $(cat spec_flags.txt)",),
        (f"{SGL} \\", "  --mem-fraction-static 0.8 `cat spec_flags.txt`"),
        (f"{SGL} \\", "  --speculative-draft-model-path `pwd`/eagle --mem-fraction-static 0.8"),
    ],
)
def test_arguments_the_paste_does_not_show_never_say_none(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    assert _value(tmp_path, *command) == "unknown"


@pytest.mark.parametrize(
    "command",
    [
        (SGL,),
        (f"Run `{SGL}` and it crashes:",),  # the whole command as inline code
        (f"{SGL} `--mem-fraction-static 0.8`",),  # a flag as inline code
    ],
)
def test_a_command_shown_whole_without_speculative_flags_is_none(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    assert _value(tmp_path, *command) == "none"
