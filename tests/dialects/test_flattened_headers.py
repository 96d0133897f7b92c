"""Logs pasted without their newlines beyond vLLM's headers: SGLang's stamped prefix,
torchrun's ``[rankN]:`` and a bare Python traceback are split back into their lines, and the
crash is found whole. Lines written by us in each format."""

from __future__ import annotations

from pathlib import Path

from spectrace.dialects.flattened import split_flattened
from spectrace.pipeline import analyse

SHAPE = "RuntimeError: The size of tensor a (160) must match the size of tensor b (10) at non-singleton dimension 0"
BARE = [
    "Traceback (most recent call last):",
    '  File "/srv/app/serve.py", line 40, in <module>',
    "    main()",
    '  File "/srv/app/serve.py", line 31, in main',
    "    engine.step(batch)",
    SHAPE,
]


def test_a_bare_traceback_gets_its_lines_and_indents_back() -> None:
    assert split_flattened(" ".join(x.strip() for x in BARE).encode()) == [x.encode() for x in BARE]


def test_sglang_headers_split() -> None:
    head = "[2026-05-01 10:00:00 TP3] "
    lines = [head + "Scheduler hit an exception: Traceback (most recent call last):",
             head + '  File "/x/sglang/srt/managers/scheduler.py", line 900, in event_loop_normal',
             head + SHAPE]  # fmt: skip
    assert split_flattened(" ".join(lines).encode()) == [x.encode() for x in lines]


def test_torchrun_rank_prefixes_split() -> None:
    lines = ["[rank2]: Traceback (most recent call last):",
             '[rank2]:   File "/x/run.py", line 9, in <module>', "[rank2]: " + SHAPE]  # fmt: skip
    assert split_flattened(" ".join(lines).encode()) == [x.encode() for x in lines]


def test_a_line_that_only_mentions_a_traceback_stays_whole() -> None:
    line = "INFO retrying: the worker printed a Traceback (most recent call last) earlier " * 2
    assert split_flattened(line.encode()) == [line.encode()]


def test_the_flattened_bare_traceback_is_one_decoded_crash(tmp_path: Path) -> None:
    log = tmp_path / "issue.txt"
    log.write_text("I ran the server and got: " + " ".join(x.strip() for x in BARE) + "\n")
    (crash,) = analyse([str(log)]).incidents
    assert (crash.exception_type, crash.root_cause) == ("RuntimeError", True)
    assert [f.function for f in crash.frames] == ["<module>", "main"]
    assert crash.shape_mismatch is not None and crash.shape_mismatch.numbers["a"] == 160
