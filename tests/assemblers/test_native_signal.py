"""OpenMPI's signal handler report (``[host:pid] *** Process received signal ***``, the
``Signal:`` line, glibc frames under ``[host:pid] [ N] ``): one crash named by its signal,
its frames kept as native frames; frames whose signal lines were cut away still a crash.
Lines written by us in the shape OpenMPI's opal_show_stackframe prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.native import is_backtrace_chatter, parse_native_frame
from spectrace.pipeline import analyse

H = "[gpu-node7:04410] "  # OpenMPI pads the pid to five digits
FRAMES = [
    H + "[ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x3f0a0)[0x7f10aa03f0a0]",
    H + "[ 1] /opt/serve/lib/libkvpool.so(_ZN6kvpool5Arena4growEm+0x4c)[0x7f10bb11224c]",
    H + "[ 2] /opt/serve/lib/libkvpool.so(+0x2b10)[0x7f10bb112b10]",
    H + "[ 3] /usr/bin/python3(PyObject_Call+0x5e)[0x55d0aa11ee5e]",
]


def roots(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "mpi.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [i for i in analyse([str(path)]).incidents if i.root_cause]


def report(signal: str) -> list[str]:
    return [
        H + "*** Process received signal ***",
        H + f"Signal: {signal}",
        H + "Signal code: Address not mapped (1)",
        H + "Failing at address: 0x20",
        *FRAMES,
        H + "*** End of error message ***",
    ]


@pytest.mark.parametrize(
    ("signal", "etype"),
    [("Segmentation fault (11)", "SIGSEGV"), ("Bus error (7)", "SIGBUS"),
     ("Aborted (6)", "SIGABRT"), ("Real-time signal 3 (37)", "Signal")],
)  # fmt: skip
def test_a_signal_report_is_one_crash_named_by_its_signal(
    tmp_path: Path, signal: str, etype: str
) -> None:
    (crash,) = roots(tmp_path, ["loading shards 4/4", *report(signal), "job step finished"])
    assert (crash.exception_type, crash.message) == (etype, signal)
    assert [f.index for f in crash.native_frames] == [0, 1, 2, 3]
    assert crash.native_frames[1].symbol == "_ZN6kvpool5Arena4growEm"
    assert crash.native_frames[2].module == "/opt/serve/lib/libkvpool.so"
    assert crash.lines[-1].endswith("*** End of error message ***")


def test_frames_whose_signal_lines_were_cut_away_are_still_a_crash(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, ["see the backtrace below:", *FRAMES[1:], "thanks"])
    assert crash.exception_type == "Signal"
    assert crash.message.endswith("hit in _ZN6kvpool5Arena4growEm")
    assert len(crash.native_frames) == 3


def test_two_processes_glued_on_one_line_keep_the_later_frame(tmp_path: Path) -> None:
    other = "[gpu-node7:04411] "
    (crash,) = roots(tmp_path, [
        other + "[ 7] /opt/serve/lib/libkvpool.so(+0x2b10)[0x7f10bb112b10]",
        other + "[ 8] " + FRAMES[0],
        *FRAMES[1:],
    ])  # fmt: skip
    assert [f.index for f in crash.native_frames] == [7, 0, 1, 2, 3]


def test_the_prefix_without_a_frame_index_or_address_is_no_frame() -> None:
    assert parse_native_frame(H + "Signal: Segmentation fault (11)") is None
    assert parse_native_frame(H + "[ 2] some words") is None
    assert parse_native_frame("[2026-01-02 10:00:00] [ 1] x.so(+0x1)[0x2]") is None
    assert is_backtrace_chatter(H + "Failing at address: 0x20")
    assert not is_backtrace_chatter(H + "loaded 4 shards")


def test_an_unprefixed_bracketed_line_is_no_signal_report(tmp_path: Path) -> None:
    assert roots(tmp_path, ["[ 1] step done (0x10 bytes)", "[worker:00003] Signal: ready"]) == []


def test_the_abort_a_cpp_exception_ends_in_is_no_second_root_cause(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [
        "terminate called after throwing an instance of 'std::runtime_error'",
        "  what():  kvpool arena exhausted",
        H + "*** Process received signal ***",
        H + "Signal: Aborted (6)",
        H + "Signal code:  (-6)",
        *FRAMES,
        H + "*** End of error message ***",
    ])  # fmt: skip
    assert crash.message == "kvpool arena exhausted"
    assert len(crash.native_frames) == 4


def test_mpiruns_notice_of_that_death_is_no_second_root_cause(tmp_path: Path) -> None:
    rule = "-" * 74
    found = [i for i in analyse_lines(tmp_path, [
        *report("Segmentation fault (11)"),
        rule,
        "Primary job  terminated normally, but 1 process returned",
        "a non-zero exit code. Per user-direction, the job has been aborted.",
        rule,
        "mpirun noticed that process rank 0 with PID 4410 on node gpu-node7 exited on signal 11 (Segmentation fault).",
        rule,
    ])]  # fmt: skip
    assert [(i.exception_type, i.root_cause) for i in found] == [
        ("SIGSEGV", True), ("MPIProcessKilled", False)
    ]
    alone = analyse_lines(tmp_path, found[1].lines[:1])
    assert [(i.exception_type, i.root_cause) for i in alone] == [("MPIProcessKilled", True)]


def analyse_lines(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "mpirun.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)]).incidents
