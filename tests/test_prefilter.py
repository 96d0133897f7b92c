"""The pure-Python prefilter (no hyperscan: platforms without a wheel) finds exactly the lines
hyperscan finds, so a triage without it parses the same windows and reports the same crashes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spectrace.pipeline import build_spec
from spectrace.prefilter import Prefilter, _hs
from spectrace.ruleset import RuleSet

NOISE = [
    b"[2026-10-21 08:14:03 TP3] Decode batch. #running-req: 10, #token: 4096, gen throughput (token/s): 352.9",
    b'INFO:     127.0.0.1:53210 - "POST /generate HTTP/1.1" 200 OK',
    b"(EngineCore_0 pid=4242) INFO 10-21 08:14:03 [loggers.py:116] Avg prompt throughput: 0.0",
    b"Capturing batches (bs=16 avail_mem=12.1 GB): 100%|##########| 23/23 [00:02<00:00]",
    b"root bloom zoom -- tp dp  abor  Erro  Killd  spec   v2 sgl ang \xe5\xb7\xb2",
]


def truth(text: bytes, literals: tuple[bytes, ...]) -> list[int]:
    """The lines holding a literal; one that opens with a newline holds only at the start of a
    line a newline precedes (a record cut to column 0), one that ends in a line break where the
    line ends."""
    inside = [lit for lit in literals if not lit.startswith(b"\n") and not lit.endswith(b"\n")]
    opening = tuple(lit[1:] for lit in literals if lit.startswith(b"\n"))
    ending = tuple(lit[:-1] for lit in literals if lit.endswith(b"\n"))
    starts, pos = [], 0
    for line in text.split(b"\n"):
        if any(lit in line for lit in inside) or (pos > 0 and opening and line.startswith(opening)) \
                or (ending and line.endswith(ending)):  # fmt: skip
            starts.append(pos)
        pos += len(line) + 1
    return starts


def mixed_log(literals: tuple[bytes, ...], seed: int) -> bytes:
    """Noise lines, and lines holding a literal at a random place (or cut one byte short)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(3000):
        line = rng.choice(NOISE)
        if rng.random() < 0.2:
            lit = rng.choice(literals)
            lit = lit[:-1] if rng.random() < 0.3 else lit  # almost: must not count
            at = rng.randrange(len(line) + 1)
            line = line[:at] + lit + line[at:]
        lines.append(line)
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize("seed", range(4))
def test_the_fallback_finds_exactly_the_lines_holding_a_literal(seed: int, small: str) -> None:
    literals = build_spec(
        RuleSet.load(), ("Dynamic speculation disable enabled",)
    ).prefilter.literals
    text = mixed_log(literals, seed)
    buf = bytearray(text)
    want = truth(text, literals)
    slow = Prefilter(literals, use_hyperscan=False)
    assert slow.line_starts(buf, 0, len(buf)) == want
    if _hs is not None:
        assert Prefilter(literals).line_starts(buf, 0, len(buf)) == want


@pytest.fixture(params=["literal by literal", "anchors"])
def small(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both fallback searches on the same text: a small input is searched literal by literal
    (no anchors to build), a large one by the anchors: each test text is read both ways."""
    big = 0 if request.param == "anchors" else 1 << 30
    monkeypatch.setattr("spectrace.prefilter.SMALL_BLOCK", big)
    return request.param


def test_a_window_of_a_block_is_judged_alone(small: str) -> None:
    literals = (b"Traceback", b"oom", b"Error")
    text = b"a Traceback\nroom\nnothing\nValueError\n"
    buf = bytearray(b"Error Error\n" + text + b"Traceback\n")
    lo, hi = 12, 12 + len(text)
    got = Prefilter(literals, use_hyperscan=False).line_starts(buf, lo, hi)
    assert got == [12, 24, 37]


def test_every_literal_alone_on_a_line_is_found_where_its_bytes_are_common(small: str) -> None:
    """Noise made of the literals' own bytes makes every byte common, so each literal is
    anchored inside itself (a rare byte, or a trie behind a common one) and must still be found."""
    literals = build_spec(RuleSet.load(), ()).prefilter.literals
    pool = b"".join(literals)
    rng = random.Random(7)
    noise = [bytes(rng.choice(pool) for _ in range(60)).replace(b"\n", b" ") for _ in range(400)]
    noise = [n for n in noise if not any(lit in n for lit in literals)]
    lines = [*noise, *(b"   " + (lit[:-1] if lit.endswith(b"\n") else lit + b"   ") for lit in literals)]
    text = b"\n".join(lines) + b"\n"
    buf = bytearray(text)
    assert Prefilter(literals, use_hyperscan=False).line_starts(buf, 0, len(buf)) == truth(
        text, literals
    )


def test_a_literal_ending_in_a_line_break_finds_the_line_it_ends(small: str) -> None:
    """``tokens/s\\n``: a figure at its line's end, with LF or CRLF line ends, by every search;
    the same words inside a line (vLLM's "0.0 tokens/s, ...") are not that literal."""
    literals = (b"tokens/s\n", b"tokens/s\r\n", b"Traceback")
    text = b"noise\ndecode: 41.2 tokens/s\nAvg: 0.0 tokens/s, Running\nspeed 9 tokens/s\r\nTraceback\n"
    want = [6, 55, 73]
    assert truth(text, literals) == want
    assert Prefilter(literals, use_hyperscan=False).line_starts(bytearray(text), 0, len(text)) == want
    if _hs is not None:
        assert Prefilter(literals).line_starts(bytearray(text), 0, len(text)) == want


def test_a_line_holding_only_an_mpi_frame_reaches_its_rule_without_hyperscan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``) [0x`` (OpenMPI's native frames): its ``)`` is everywhere in a log, so the fallback
    anchors it behind that byte; the frames alone must still make a crash."""
    from spectrace import prefilter
    from spectrace.pipeline import analyse

    monkeypatch.setattr(prefilter, "_hs", None)
    log = tmp_path / "mpi.log"
    noise = [f"[step {i}] loss (avg) {i / 7:.3f} (ok)" for i in range(2000)]
    frames = [
        f"[gpu-node3:0{41230 + r}] [ {n}] /opt/app/lib/libkern.so(launch+0x{n:x}1c) [0x7f3a{n:04x}]"
        for r in (0,)
        for n in range(1, 4)
    ]
    log.write_text("\n".join([*noise, *frames, *noise[:50]]) + "\n", encoding="utf-8")
    (inc,) = analyse([str(log)]).incidents
    assert inc.exception_type == "Signal"


def test_a_small_input_builds_no_anchors() -> None:
    """A pasted excerpt is searched literal by literal: the anchors' cover and tries (a tenth
    of a second or more) are built only for an input larger than ``SMALL_BLOCK``."""
    from spectrace import prefilter

    literals = build_spec(RuleSet.load(), ()).prefilter.literals
    pf = Prefilter(literals, use_hyperscan=False)
    small = bytearray(b"x = 1\n" * 200 + b"RuntimeError: boom\n")
    assert pf.line_starts(small, 0, len(small)) == [1200]
    assert pf._anchors is None
    big = bytearray(b"x = 1\n" * (prefilter.SMALL_BLOCK // 6 + 1) + b"Traceback\n")
    assert pf.line_starts(big, 0, len(big)) == [len(big) - len(b"Traceback\n")]
    assert pf._anchors is not None
