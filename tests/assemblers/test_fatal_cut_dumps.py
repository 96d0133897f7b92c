"""faulthandler dumps pasted cut short: with their ``Fatal Python error`` line, cut after the
first frame (or before it), still the crash with the frames they kept; a lone thread block
whose header was cut away is the crash too, while a dump on a timer (``Timeout (...)!``) or
one a thread asked for (``Current thread``) is no crash. Lines written by us in the shapes
CPython's faulthandler prints."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import analyse

THREAD = "Thread 0x00007f31c2a1b640 (most recent call first):"
FRAMES = ['  File "/srv/app/verify.py", line 88 in check_tree',
          '  File "/srv/app/loop.py", line 12 in run']  # fmt: skip


def incidents(tmp_path: Path, lines: list[str], end: str = "\n") -> list:
    path = tmp_path / "fault.log"
    path.write_text("\n".join(["the server then dies:", *lines]) + end, encoding="utf-8")
    return analyse([str(path)]).incidents


def test_a_fatal_dump_cut_after_its_first_frame_keeps_that_frame(tmp_path: Path) -> None:
    lines = ["Fatal Python error: Segmentation fault", "", THREAD, FRAMES[0], '  File "/srv/ap']
    (inc,) = incidents(tmp_path, lines, end="")
    assert (inc.exception_type, [f.function for f in inc.frames]) == ("SIGSEGV", ["check_tree"])


def test_a_fatal_dump_cut_before_any_frame_is_still_the_crash(tmp_path: Path) -> None:
    (inc,) = incidents(tmp_path, ["Fatal Python error: Aborted", "", THREAD, '  File "/sr'], end="")
    assert (inc.exception_type, inc.frames) == ("SIGABRT", ())


def test_a_lone_thread_block_whose_header_was_cut_is_the_crash(tmp_path: Path) -> None:
    (inc,) = incidents(tmp_path, [THREAD, *FRAMES])
    assert inc.root_cause and inc.kind == "faulthandler"
    assert [f.function for f in inc.frames] == ["run", "check_tree"]
    (cut,) = incidents(tmp_path, [THREAD, '  File "/srv/app/ver'], end="")
    assert cut.root_cause and cut.frames == ()


def test_a_dump_on_a_timer_or_on_request_is_no_crash(tmp_path: Path) -> None:
    assert incidents(tmp_path, ["Timeout (0:05:00)!", THREAD, *FRAMES]) == []
    asked = [THREAD.replace("Thread", "Current thread"), *FRAMES]
    assert incidents(tmp_path, asked) == []


def _garbled(writers: int, seed: int) -> str:
    """Several processes' dumps written at once, their small writes interleaved on one pipe."""
    import random

    rnd = random.Random(seed)
    texts = ["\n".join([THREAD.replace("c2a1", f"{n:04x}"), *FRAMES]) + "\n" for n in range(writers)]
    pos, out = [0] * writers, []
    while any(p < len(t) for p, t in zip(pos, texts, strict=True)):
        i = rnd.randrange(writers)
        if pos[i] < len(texts[i]):
            step = rnd.randint(1, 12)
            out.append(texts[i][pos[i] : pos[i] + step])
            pos[i] += step
    return "".join(out)


def test_interleaved_dumps_make_no_traceback_and_keep_their_fatal_line(tmp_path: Path) -> None:
    for seed in range(6):
        garbled = _garbled(3, seed).splitlines()
        assert all(i.kind != "traceback" for i in incidents(tmp_path, garbled))
        found = incidents(tmp_path, ["Fatal Python error: Segmentation fault", "", *garbled])
        assert [i.exception_type for i in found if i.root_cause] == ["SIGSEGV"]


def test_a_lone_block_beside_another_crash_is_only_stacks_dumped_on_the_way(tmp_path: Path) -> None:
    lines = ["dumping stacks of the stalled scheduler", THREAD, *FRAMES, "",
             "RuntimeError: NCCL communicator was aborted on rank 0"]  # fmt: skip
    assert [i.exception_type for i in incidents(tmp_path, lines)] == ["RuntimeError"]
