"""Properties: noise, interleaving, CRLF, ANSI and gzip never change what a triage finds.

The bases are excerpts of the hand-made samples (sample_logs/, written by us in the real
formats); every example is written to a temporary file and run through the whole pipeline.
"""

from __future__ import annotations

import gzip
import random
import re
import tempfile
from functools import cache
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spectrace.errors import InputError
from spectrace.pipeline import analyse
from spectrace.ruleset import RuleSet

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # tests/conftest.py
HEADED = re.compile(r"^(\x1b\[[0-9;]*m)?(\[20\d\d-|\(\w+ pid=\d+\))")
ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
ANSI = ["\x1b[0m", "\x1b[1;31m", "\x1b[32m", "\x1b[0;0m", "\x1b[1;36m", "\x1b[2K", "\x1b[33;1m"]
BENIGN = [
    "[2026-02-27 20:55:01 TP2] Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'transformers.models.glm_ocr'",
    "gpu-node-3:41201:41201 [1] NCCL INFO Channel 02/24 :    0   1   2   3   4   5   6   7",
    "Processing requests:   0%|          | 0/4\rProcessing requests:  50%|█████     | 2/4\rProcessing requests: 100%|██████████| 4/4",
    '[2026-02-27 20:55:02] INFO:     127.0.0.1:51234 - "POST /generate HTTP/1.1" 200 OK',
    "[2026-02-27 20:55:03] Health check: error_msg=None, last exception: None, status=ok",
    "[spec-debug] step=120 drafted=3 accepted=0 acceptance rate: 0.0%",
    '[spec-debug] would raise RuntimeError("draft tree exhausted") at step 7; SPEC_DEBUG_SOFT=1 so continuing',
    "[nv-fabricmanager-agent] TraceBack collection disabled for this container (set FM_TRACEBACK=1 to enable)",
    "[2026-02-27 20:55:04 TP0] Decode batch, #running-req: 4, #token: 9000, token usage: 0.01, accept len: 2.71, accept rate: 0.17, cuda graph: True, gen throughput (token/s): 262.10, #queue-req: 0",
]


def seed_core() -> list[str]:
    """The seed story's config lines plus the last decode lines, both tracebacks and SIGQUIT."""
    lines = (SAMPLES / "seed_story" / "server.log").read_text().splitlines()
    crash = next(i for i, line in enumerate(lines) if "Scheduler hit an exception" in line)
    return lines[:4] + lines[crash - 30 :]


@cache
def bases() -> dict[str, list[str]]:
    vllm = (SAMPLES / "vllm_enginecore" / "vllm_serve.log").read_text().split("\n")[:-1]
    return {
        "seed": seed_core(),
        "vllm": vllm[-110:],
        "chained": (SAMPLES / "chained_traceback" / "server.log").read_text().splitlines()[-90:],
    }


MAGICS = [b"\x1f\x8b", b"BZh9", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd", b"PK\x03\x04", b"\xff\xfe"]


def with_tail(magic: bytes) -> st.SearchStrategy[bytes]:
    """A compression or archive magic followed by junk: the sniffers' worst case."""
    return st.binary(max_size=512).map(lambda tail: magic + tail)


@cache
def rules() -> RuleSet:
    return RuleSet.load()


def run(data: bytes, suffix: str = ".log") -> list[tuple]:
    """Analyse bytes as one file; return each incident's identity (no line numbers)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input{suffix}"
        path.write_bytes(data)
        result = analyse([str(path)], rules=rules())
    return [
        (
            inc.exception_type,
            inc.message,
            inc.root_cause,
            inc.origin_rank,
            tuple(inc.ranks),
            inc.worker_path.value if inc.worker_path else None,
            inc.first_seen.lineno,
        )
        for inc in result.incidents
    ]


def without_lines(found: list[tuple]) -> list[tuple]:
    return [item[:-1] for item in found]


@cache
def reference(name: str) -> list[tuple]:
    found = run(encode(bases()[name]))
    assert any(item[2] for item in found), f"base {name} must hold a root-cause incident"
    return found


def encode(lines: list[str], newline: str = "\n") -> bytes:
    return (newline.join(lines) + newline).encode()


def safe_gaps(lines: list[str]) -> list[int]:
    """Indexes where a whole line may go: between two complete headed records."""
    ok = [0]
    for i in range(1, len(lines) + 1):
        prev_done = HEADED.match(lines[i - 1]) and not lines[i - 1].endswith("\r")
        next_headed = i == len(lines) or HEADED.match(lines[i])
        if prev_done and next_headed and "hit an exception" not in lines[i - 1]:
            ok.append(i)
    return ok


def cut_points(line: str) -> list[int]:
    """Positions in a line that are not inside an escape sequence the line already has."""
    inside = {i for m in ESCAPE.finditer(line) for i in range(m.start() + 1, m.end())}
    return [i for i in range(len(line) + 1) if i not in inside]


names = st.sampled_from(["seed", "vllm", "chained"])


@SETTINGS
@given(name=names, data=st.data())
def test_benign_lines_between_records_change_nothing(name: str, data: st.DataObject) -> None:
    lines = list(bases()[name])
    gaps = safe_gaps(lines)
    inserts = data.draw(
        st.lists(st.tuples(st.sampled_from(gaps), st.sampled_from(BENIGN)), min_size=1, max_size=12)
    )
    for gap, text in sorted(inserts, key=lambda item: -item[0]):
        lines.insert(gap, text)
    assert without_lines(run(encode(lines))) == without_lines(reference(name))


@SETTINGS
@given(
    inserts=st.lists(
        st.tuples(st.integers(min_value=1, max_value=40), st.sampled_from(BENIGN)),
        min_size=1,
        max_size=8,
    )
)
def test_benign_lines_inside_a_traceback_do_not_split_it(inserts: list[tuple[int, str]]) -> None:
    """Merged stdout/stderr and line-buffered stderr let other writers' lines (other ranks'
    headed lines, NCCL INFO, uvicorn, tqdm) land between TP7's unheaded frames."""
    lines = list(bases()["seed"])
    start = next(i for i, line in enumerate(lines) if "TP7] Scheduler hit an exception" in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("RuntimeError:"))
    for pos, text in sorted(((start + 1 + p % (end - start), t) for p, t in inserts), reverse=True):
        lines.insert(pos, text)
    assert without_lines(run(encode(lines))) == without_lines(reference("seed"))


@SETTINGS
@given(name=names)
def test_crlf_line_ends_change_nothing(name: str) -> None:
    assert run(encode(bases()[name], "\r\n")) == reference(name)


@SETTINGS
@given(name=names, data=st.data())
def test_ansi_colour_codes_change_nothing(name: str, data: st.DataObject) -> None:
    lines = list(bases()[name])
    for _ in range(data.draw(st.integers(min_value=1, max_value=30))):
        i = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
        at = data.draw(st.sampled_from(cut_points(lines[i])))
        lines[i] = lines[i][:at] + data.draw(st.sampled_from(ANSI)) + lines[i][at:]
    assert run(encode(lines)) == reference(name)


@SETTINGS
@given(
    name=names,
    cuts=st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=4),
    level=st.integers(1, 9),
)
def test_gzip_even_in_several_members_changes_nothing(
    name: str, cuts: list[float], level: int
) -> None:
    """A .gz made of several concatenated members (as logrotate + cat produce) reads whole."""
    raw = encode(bases()[name])
    points = sorted({0, len(raw), *(int(c * len(raw)) for c in cuts)})
    members = b"".join(
        gzip.compress(raw[a:b], compresslevel=level, mtime=0) for a, b in pairwise(points)
    )
    assert run(members, suffix=".log.gz") == reference(name)


@SETTINGS
@given(blob=st.binary(max_size=8192) | st.sampled_from(MAGICS).flatmap(with_tail))
def test_random_bytes_never_raise(blob: bytes) -> None:
    """Any bytes are read, or refused as one line naming the input (zstd, zip, 7z magic)."""
    try:
        run(blob)
    except InputError as refused:
        assert "input.log: " in str(refused) and "\n" not in str(refused)


@SETTINGS
@given(text=st.text(max_size=2000))
def test_random_text_never_raises(text: str) -> None:
    run(text.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(order=st.randoms(use_true_random=False))
def test_worker_tracebacks_interleaved_any_way_change_nothing(order: random.Random) -> None:
    """Two tagged worker tracebacks of the same moment, merged in any order (TP1's first line
    stays first, so the origin is fixed), are the same one incident."""
    lines = list(bases()["vllm"])
    block = [
        i
        for i, line in enumerate(lines)
        if "(Worker_TP" in line and "multiproc_executor.py:654" in line
    ]
    tp1 = [lines[i] for i in block if "Worker_TP1" in lines[i]]
    tp0 = [lines[i] for i in block if "Worker_TP0" in lines[i]]
    merged, rest = [tp1[0]], [tp1[1:], tp0]
    while any(rest):
        queue = order.choice([q for q in rest if q])
        merged.append(queue.pop(0))
    lines[block[0] : block[-1] + 1] = merged
    assert without_lines(run(encode(lines))) == without_lines(reference("vllm"))
