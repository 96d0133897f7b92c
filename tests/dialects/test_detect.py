"""LineParser: normalisation, stream attribution, promotion, year fill-in, and junk never raising."""

from __future__ import annotations

import random

from spectrace.dialects.detect import MAX_LINE, Detector, LineParser, normalise


def test_normalise_ansi_crlf_and_bad_utf8() -> None:
    assert (
        normalise(b"\x1b[1;36m(APIServer pid=1)\x1b[0;0m INFO x\r\n") == "(APIServer pid=1) INFO x"
    )
    assert normalise(b"caf\xc3\xa9 \xff ok") == "caf\u00e9 \ufffd ok"
    assert normalise(b"bell\x07 and nul\x00") == "bell and nul"
    assert len(normalise(b"x" * (MAX_LINE * 2))) == MAX_LINE


def test_redraws_keep_the_last_state_after_wrappers_are_peeled() -> None:
    p = LineParser("r")
    line = p.parse(b"sglang-1  | Loading:  50%|##  | 2/4\rLoading: 100%|####| 4/4\r", 1, 0)
    assert (line.text, line.stream) == ("Loading: 100%|####| 4/4", "sglang-1")
    bar = b"Capturing batches (bs=48): 3%|#| 1/36\r" * 4000  # a 150 KB redraw line
    crash = p.parse(
        bar
        + b"[2026-02-27 21:00:18 TP1] Scheduler hit an exception: Traceback (most recent call last):",
        2,
        0,
    )
    assert crash.rank == "TP1" and crash.text.startswith("Scheduler hit an exception")


def test_a_line_with_bold_words_reads_once_in_its_raw_text() -> None:
    """Bold taken off inside a line is no wrapper: the raw text shown as evidence must not
    repeat the line's first words by the length the ``**`` marks took (it read "Pairing
    Pairing a dense draft model ..." before session 25)."""
    p = LineParser("issue.md")
    line = p.parse(b"Pairing a **dense draft model** with a **hybrid main model** fails at init.", 1, 0)
    assert line.raw == line.text == "Pairing a dense draft model with a hybrid main model fails at init."
    wrapped = p.parse(b"sglang-1  | [2026-02-27 21:00:18 TP7] **Scheduler hit an exception:** boom", 2, 0)
    assert wrapped.raw == "sglang-1  | [2026-02-27 21:00:18 TP7] Scheduler hit an exception: boom"
    row = p.parse(b"| 2026-02-27T21:00:18Z | the **draft worker died** at step 3 |", 3, 0)
    assert row.raw.count("the draft worker died") == 1 and not row.raw.startswith("| 2026-02-27T21:00:18Z | 20")


def test_headless_lines_join_the_last_headed_stream() -> None:
    p = LineParser("s.log")
    p.parse(
        b"[2026-02-27 21:00:18 TP7] Scheduler hit an exception: Traceback (most recent call last):",
        1,
        0,
    )
    cont = p.parse(b'  File "/s/scheduler.py", line 1, in f', 2, 90)
    assert (cont.stream, cont.rank, cont.headed, cont.inferred) == ("TP7", "TP7", False, True)


def test_vllm_process_tag_is_the_stream_even_without_header() -> None:
    p = LineParser("v.log")
    line = p.parse(
        b"\x1b[1;36m(EngineCore_DP0 pid=3990)\x1b[0;0m Traceback (most recent call last):", 1, 0
    )
    assert (line.stream, line.rank, line.dialect, line.inferred) == (
        "EngineCore_DP0 pid=3990",
        "EngineCore_DP0",
        "vllm",
        False,
    )


def test_year_less_stamps_take_the_inputs_year() -> None:
    p = LineParser("x")
    p.parse(b"[2026-03-02 14:03:52.179 TP1] x", 1, 0)
    c10 = p.parse(b"[rank1]:[E302 14:03:52.902113554 ProcessGroupNCCL.cpp:1904] y", 2, 40)
    assert (
        c10.ts is not None and c10.ts.year == 2026 and c10.rank == "rank1" and c10.dialect == "c10"
    )


def test_detector_promotes_the_last_winner() -> None:
    d = Detector()
    d.detect("INFO 10-05 12:00:00 [a.py:1] x")
    assert d._order[0].name == "vllm"
    d.detect("[2026-02-27 20:49:03 TP2] y")
    assert d._order[0].name == "sglang"


def test_cri_partial_lines_are_joined() -> None:
    p = LineParser("k")
    first = p.parse(b"2025-07-25T07:53:08.217Z stderr P [2025-07-25 07:53:08 TP1] Runtime", 1, 0)
    assert first.text == "" and p.pending
    whole = p.parse(b"2025-07-25T07:53:08.217Z stderr F Error: boom", 2, 60)
    assert whole.text == "RuntimeError: boom" and whole.rank == "TP1" and not p.pending


def test_random_bytes_never_raise() -> None:
    rng = random.Random(7)
    p = LineParser("junk")
    for i in range(3000):
        raw = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 200)))
        if i % 3 == 0:
            raw = b"[2026-02-27 20:49:03 TP" + raw  # junk after a plausible prefix
        line = p.parse(raw.replace(b"\n", b""), i + 1, 0)
        assert isinstance(line.text, str)


def test_year_less_stamps_roll_over_new_year() -> None:
    p = LineParser("v")
    dec = p.parse(b"(Worker_TP0 pid=1) ERROR 12-31 23:59:59 [core.py:1] a", 1, 0)
    jan = p.parse(b"(EngineCore_DP0 pid=2) ERROR 01-01 00:00:01 [core.py:2] b", 2, 60)
    assert dec.ts is not None and jan.ts is not None and jan.ts > dec.ts
