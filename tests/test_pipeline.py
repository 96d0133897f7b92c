"""analyse(): inputs -> incidents, findings, load and file summaries, as the CLI and TUI use it."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

import pytest

from spectrace.errors import InputError
from spectrace.pipeline import analyse, expand_inputs

MARKER = "Dynamic speculation disable enabled"


def sglang_log(extra_decode: int = 3) -> str:
    ts = "[2026-02-27 21:00:{s:02d}{r}] "
    lines = [
        "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative algorithm. "
        "You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap scheduler. ",
        ts.format(s=1, r="")
        + "server_args=ServerArgs(model_path='m', speculative_algorithm='EAGLE3', "
        "speculative_num_steps=3, speculative_eagle_topk=4, speculative_num_draft_tokens=16, "
        "disable_overlap_schedule=True, tp_size=2)",
        ts.format(s=2, r=" TP1")
        + "Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'x'",
    ]
    lines += [
        ts.format(s=3 + i, r=" TP0")
        + f"Decode batch, #running-req: {8 + i}, #token: 100, token usage: 0.01, "
        "accept len: 2.50, accept rate: 0.40, cuda graph: True, gen throughput (token/s): 300.00, #queue-req: 0"
        for i in range(extra_decode)
    ]
    lines += [
        ts.format(s=20, r=" TP1")
        + "Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py", line 2703, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/speculative/eagle_worker.py", line 312, in forward_batch_generation',
        "    logits_output, next_token_ids = self.verify(batch, spec_info)",
        "RuntimeError: The size of tensor a (160) must match the size of tensor b (2) at non-singleton dimension 0",
        "",
        ts.format(s=21, r="")
        + "SIGQUIT received. signum=None, frame=None. It usually means one child failed.",
    ]
    return "\n".join(lines) + "\n"


def test_sglang_crash_end_to_end(tmp_path: Path) -> None:
    (tmp_path / "server.log").write_text(sglang_log())
    seen: list[str] = []
    progress: list[tuple[int, int]] = []
    a = analyse([str(tmp_path / "server.log")], expect=[MARKER],
                on_crash=lambda c: seen.append(c.exception_type),
                on_progress=lambda done, total: progress.append((done, total)))  # fmt: skip
    root = a.incidents[0]
    assert (root.exception_type, root.origin_rank, root.root_cause) == ("RuntimeError", "TP1", True)
    assert root.crash_class == "shape_mismatch" and root.first_seen.lineno == 7
    assert root.worker_path is not None and root.worker_path.value == "v1"
    assert root.load is not None and root.load.running_req == 10 and root.load.lineno == 6
    assert [i.exception_type for i in a.incidents[1:]] == ["SIGQUIT"] and not a.incidents[
        1
    ].root_cause
    assert seen == ["RuntimeError", "SIGQUIT"]
    assert progress[-1][0] == progress[-1][1] == (tmp_path / "server.log").stat().st_size
    (missing,) = [f for f in a.findings if f.kind == "missing_marker"]
    assert (
        MARKER in missing.message
        and missing.worker_path is not None
        and missing.worker_path.value == "v1"
    )
    assert a.config.flags["speculative_eagle_topk"].value == 4
    assert [s.running_req for s in a.load] == [8, 9, 10]
    (summary,) = a.files
    assert (summary.lines, summary.issues) == (14, ())
    assert summary.dialects["sglang"] >= 4


def test_marker_present_gives_no_finding(tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text(
        sglang_log() + f"[2026-02-27 21:00:30 TP0] {MARKER} (threshold=8)\n"
    )
    assert [
        f
        for f in analyse([str(tmp_path / "a.log")], expect=[MARKER]).findings
        if f.kind == "missing_marker"
    ] == []


def test_vllm_log(tmp_path: Path) -> None:
    tag = "\x1b[1;36m(Worker_TP{r} pid=410{r})\x1b[0;0m ERROR 10-17 14:03:53 [multiproc_executor.py:654] "
    body = ["WorkerProc hit an exception.", "Traceback (most recent call last):",
            '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/spec_decode/eagle.py", line 240, in propose',
            "RuntimeError: shape '[8, 3]' is invalid for input of size 21"]  # fmt: skip
    text = "".join(tag.format(r=r) + line + "\r\n" for line in body for r in (1, 0))
    (tmp_path / "v.log").write_text(text)
    a = analyse([str(tmp_path / "v.log")])
    (inc,) = a.incidents
    assert (inc.ranks, inc.header, inc.first_seen.lineno) == (
        ["Worker_TP1", "Worker_TP0"],
        "WorkerProc hit an exception.",
        1,
    )
    assert a.files[0].dialects == {"vllm": 8}


def test_directory_gzip_and_several_files(tmp_path: Path) -> None:
    (tmp_path / "b.log.gz").write_bytes(gzip.compress(sglang_log().encode()))
    (tmp_path / "a.txt").write_text("nothing here\n")
    (tmp_path / "notes.json").write_text("{}")
    (tmp_path / "rank0").write_text("Killed\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert expand_inputs([str(tmp_path)]) == [
        str(tmp_path / n) for n in ("a.txt", "b.log.gz", "rank0")
    ]
    a = analyse([str(tmp_path)])
    assert [f.path.rsplit("/", 1)[1] for f in a.files] == ["a.txt", "b.log.gz", "rank0"]
    assert {i.exception_type for i in a.incidents} == {"RuntimeError", "SIGQUIT", "OOMKilled"}


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(sglang_log().encode())))
    )
    a = analyse(["-"])
    assert a.files[0].path == "<stdin>" and a.incidents[0].exception_type == "RuntimeError"


def test_truncated_gzip_is_a_read_issue_not_an_error(tmp_path: Path) -> None:
    packed = gzip.compress(sglang_log(extra_decode=4000).encode())
    (tmp_path / "t.log.gz").write_bytes(packed[: len(packed) - 40])
    a = analyse([str(tmp_path / "t.log.gz")])
    assert "truncated gzip" in a.files[0].issues[0]
    assert [f.kind for f in a.findings] == ["read_issue"]


@pytest.mark.parametrize("bad", ["missing.log", "emptydir"])
def test_bad_inputs_raise_one_line_input_error(tmp_path: Path, bad: str) -> None:
    (tmp_path / "emptydir").mkdir()
    with pytest.raises(InputError) as err:
        analyse([str(tmp_path / bad)])
    assert "\n" not in str(err.value) and bad in str(err.value)


def test_two_workers_give_the_same_result_as_one(tmp_path: Path) -> None:
    from spectrace.parallel import scan_parallel, split_points
    from spectrace.pipeline import build_spec
    from spectrace.ruleset import RuleSet
    from spectrace.scan import scan_range

    log = tmp_path / "big.log"
    log.write_text(sglang_log(extra_decode=50) * 9)
    spec = build_spec(RuleSet.load(), [MARKER])
    one = scan_range(str(log), spec)
    for parts in (2, 3):
        cut = split_points(str(log), parts)
        assert all(p == 0 or log.read_bytes()[p - 1 : p] == b"\n" for p in cut)
        many = scan_parallel(str(log), spec, parts)
        assert [(c.lineno, c.end_lineno, c.exception_type, c.rank) for c in many.crashes] == [
            (c.lineno, c.end_lineno, c.exception_type, c.rank) for c in one.crashes
        ]
        assert (many.lines, many.bytes) == (one.lines, one.bytes) == (9 * 61, log.stat().st_size)
        assert [s.lineno for s in many.load[-1]] == [s.lineno for s in one.load[-1]]


def test_random_bytes_file_never_raises(tmp_path: Path) -> None:
    import random

    rng = random.Random(3)
    junk = bytes(rng.getrandbits(8) for _ in range(200_000))
    (tmp_path / "junk.log").write_bytes(junk + b"Traceback (most recent call last):\n" + junk)
    a = analyse([str(tmp_path / "junk.log")])
    assert a.files[0].bytes == 400_035


def test_re_fallback_prefilter_finds_the_same_lines() -> None:
    from spectrace.prefilter import Prefilter

    lits = (b"Traceback", b"Error", b"] [E] ", b"sigquit", b"server_args=", b"Killed")
    text = (sglang_log() + "[10/21/2025-08:14:03] [TRT-LLM] [E] bad\nKilled\n").encode()
    buf = bytearray(text)
    fast, slow = Prefilter(lits), Prefilter(lits, use_hyperscan=False)
    want = sorted({text.rfind(b"\n", 0, text.find(lit, i)) + 1 for lit in lits
                   for i in range(len(text)) if text.startswith(lit, i)})  # fmt: skip
    assert slow.line_starts(buf, 0, len(buf)) == want
    assert fast.line_starts(buf, 0, len(buf)) == want
