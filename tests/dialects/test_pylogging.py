"""Python logging's default formats: stamp and level read, rank kept from the writer before."""

from __future__ import annotations

import gzip
from datetime import datetime
from pathlib import Path

import pytest

from spectrace.dialects.detect import REGISTRY, LineParser, last_redraw, normalise
from spectrace.dialects.pylogging import PyLoggingDialect
from spectrace.dialects.wrappers import peel

D = PyLoggingDialect()
SAMPLES = Path(__file__).parents[2] / "sample_logs"
STAMP = datetime(2026, 5, 19, 5, 48, 21, 337000)


@pytest.mark.parametrize(
    ("line", "level", "ts", "text"),
    [
        (
            "2026-05-19 05:48:21,337 - torch.distributed - ERROR - barrier timed out",
            "ERROR", STAMP, "barrier timed out",
        ),
        ("2026-05-19 05:48:21,337 - WARNING - no name given", "WARNING", STAMP, "no name given"),
        (
            "2026-05-19 05:48:21,337 ERROR spec_bench: draft step failed",
            "ERROR", STAMP, "spec_bench: draft step failed",
        ),
        ("2026-05-19 05:48:21 INFO step 100", "INFO", datetime(2026, 5, 19, 5, 48, 21), "step 100"),
        ("ERROR:root:message from basicConfig", "ERROR", None, "message from basicConfig"),
        (
            "WARNING:torch.distributed.run:Setting OMP_NUM_THREADS to 1",
            "WARNING", None, "Setting OMP_NUM_THREADS to 1",
        ),
    ],
)  # fmt: skip
def test_default_formats(line: str, level: str, ts: datetime | None, text: str) -> None:
    h = D.parse(line)
    assert h is not None
    assert (h.level, h.ts, h.text, h.rank) == (level, ts, text, None)


@pytest.mark.parametrize(
    "line",
    [
        "INFO:     Started server process [4242]",  # uvicorn's padded levelprefix
        "ERROR:    Exception in ASGI application",
        "[2026-02-27 21:00:18] ERROR:    Exception in ASGI application",
        "[2026-02-27 21:00:18 TP7] Scheduler hit an exception:",
        "ERROR 10-05 12:01:02 [core.py:710] EngineCore failed",  # vLLM
        "RuntimeError: The size of tensor a (160) must match the size of tensor b (2)",
        "2026-05-19 05:48:21,337 INFOrmational text",
        "ERROR: bare colon",
    ],
)
def test_other_writers_lines_are_not_claimed(line: str) -> None:
    assert D.parse(line) is None


def test_no_sample_line_is_claimed_by_two_dialects() -> None:
    """Detection promotes the last winner, so overlapping dialects would make order matter."""
    claimed = 0
    for path in sorted(SAMPLES.glob("*/*.log*")):
        data = path.read_bytes()
        for raw in (gzip.decompress(data) if path.suffix == ".gz" else data).split(b"\n"):
            body = last_redraw(peel(normalise(raw)).text)
            names = [d.name for d in REGISTRY if d.parse(body) is not None]
            assert len(names) <= 1, f"{path.name}: {names} claim {body[:100]!r}"
            claimed += names == ["logging"]
    assert claimed > 20  # nccl_watchdog's spec_bench progress lines


def test_logging_line_keeps_the_rank_of_the_file_and_heads_its_traceback() -> None:
    p = LineParser("rank2.log")
    p.parse(b"[rank2]:[W519 05:31:02.940383402 ProcessGroupNCCL.cpp:4561] no device_id", 1, 0)
    err = p.parse(b"2026-05-19 05:48:21,337 ERROR spec_bench: draft step 2417 failed", 2, 90)
    assert (err.dialect, err.level, err.ts, err.headed) == ("logging", "ERROR", STAMP, True)
    assert (err.stream, err.rank, err.ts_text) == ("rank2", "rank2", "2026-05-19 05:48:21,337")
    body = p.parse(b"Traceback (most recent call last):", 3, 160)
    assert (body.stream, body.rank) == ("rank2", "rank2")


def test_rank_prefix_kept_by_a_deployment_logging_config() -> None:
    """``asctime LEVEL pid [ TP0 file.py:N] msg``: the tags name the writer, as sglang's own do."""
    p = LineParser("custom.log")
    head = p.parse(
        b"2026-03-02 10:15:42.731 ERROR 4242 [ TP3 scheduler.py:3190] Scheduler hit an exception: "
        b"Traceback (most recent call last):", 1, 0
    )  # fmt: skip
    assert (head.dialect, head.rank, head.stream, head.level) == ("logging", "TP3", "TP3", "ERROR")
    assert head.text.startswith("Scheduler hit an exception:")
    main = D.parse("2026-03-02 10:15:40.001 INFO 4200 [ http_server.py:12] started")
    assert main is not None and (main.rank, main.anonymous, main.text) == (None, False, "started")


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("2024-06-14 08:36:05 | ERROR | srt.tp_worker | Exception in ModelTpServer:",
         "Exception in ModelTpServer:"),  # sglang's 2024 format
        ("2024-06-14 08:36:05.120 | ERROR    | serve.app:generate:88 - request failed",
         "request failed"),  # loguru's default
    ],
)  # fmt: skip
def test_piped_formats(line: str, text: str) -> None:
    h = D.parse(line)
    assert h is not None and (h.level, h.text, h.anonymous) == ("ERROR", text, True)
    assert h.ts is not None and h.ts.date() == datetime(2024, 6, 14).date()


def _headed(rank: str, line: str) -> str:
    """A deployment config that prints its record header before every line of the record."""
    return f"2026-03-02 10:15:42 ERROR 4242 [ {rank} EP0 scheduler.py:3190] {line}"


def _traceback(where: str, exc: str) -> list[str]:
    return [
        "Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/srv/venv/lib/python3.12/site-packages/sglang/srt/managers/scheduler.py", '
        "line 3188, in run_scheduler_process",
        "    scheduler.event_loop_overlap()",
        f'  File "/srv/venv/lib/python3.12/site-packages/sglang/srt/{where}", line 77, in step',
        "    out = self.draft(batch)",
        exc,
    ]


def test_a_header_on_every_line_of_one_record_keeps_it_one_crash(tmp_path: Path) -> None:
    """Each headed line would otherwise close the record before it: one crash per line."""
    from spectrace.pipeline import analyse

    zero = _traceback("speculative/eagle_worker.py", "RuntimeError: CUDA error: illegal memory access")
    one = _traceback("speculative/ngram_worker.py", "ValueError: draft length 0 out of range")
    lines = [_headed(r, t) for pair in zip(zero, one) for r, t in zip(("TP0", "TP1"), pair)]
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    incidents = analyse([str(path)]).incidents
    got = sorted((i.exception_type, i.frames[-1].file.rsplit("/", 1)[-1]) for i in incidents)
    assert got == [("RuntimeError", "eagle_worker.py"), ("ValueError", "ngram_worker.py")]
    assert sorted(r for i in incidents for r in i.ranks) == ["TP0 EP0", "TP1 EP0"]
