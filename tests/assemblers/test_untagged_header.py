"""A ``Traceback`` line copied without its process tag heads the tagged frames under it.

A copy from a terminal often starts after the tag of the first line: ``Traceback (most
recent call last):`` bare, then every frame with vLLM's ``(APIServer pid=N)``, ``(EngineCore_DP0
pid=N)`` or ``(VllmWorker rank=N pid=N)`` tag. That is one traceback of the tagged writer, not
a header crash plus a headless one. The lines are ours.
"""

from __future__ import annotations

import pytest
from asm_helpers import assemble

from spectrace.assemblers.tracebacks import CUT_TYPE

FRAMES = [
    '  File "/opt/venv/bin/vllm", line 8, in <module>',
    "    sys.exit(main())",
    '  File "/opt/vllm/vllm/entrypoints/cli/serve.py", line 60, in cmd',
    "    uvloop.run(run_server(args))",
]


@pytest.mark.parametrize(
    "tag", ["(APIServer pid=98)", "(EngineCore_DP0 pid=4410)", "(VllmWorker rank=3 pid=512)"]
)
def test_a_cut_traceback_of_a_tagged_writer_is_one_crash(tag: str) -> None:
    [crash] = assemble(["Traceback (most recent call last):", *(f"{tag} {f}" for f in FRAMES)])
    assert crash.exception_type == CUT_TYPE
    assert [f.function for f in crash.frames] == ["<module>", "cmd"]
    assert crash.lineno == 1 and crash.rank is not None


def test_the_untagged_header_takes_the_exception_line_too() -> None:
    tag = "(EngineCore_DP0 pid=4410)"
    lines = ["Traceback (most recent call last):", *(f"{tag} {f}" for f in FRAMES),
             f"{tag} ValueError: draft length 0"]  # fmt: skip
    [crash] = assemble(lines)
    assert (crash.exception_type, crash.message) == ("ValueError", "draft length 0")
    assert len(crash.frames) == 2


def test_a_header_far_from_tagged_frames_stays_apart() -> None:
    """Only the frame right under the bare header continues it: a tagged writer's frames
    after other lines are its own (cut) traceback."""
    tag = "(APIServer pid=98)"
    lines = ["Traceback (most recent call last):", '  File "/a.py", line 1, in main',
             "KeyError: 'x'", "", "serving again", *(f"{tag} {f}" for f in FRAMES)]  # fmt: skip
    crashes = assemble(lines)
    assert [c.exception_type for c in crashes] == ["KeyError", CUT_TYPE]
