"""Round 4's open parser items (docs/real-logs.md): cut tracebacks, bare torchrun tables, stamps
inside messages. Every line is written by us in the real formats."""

from __future__ import annotations

from pathlib import Path

from spectrace.assemblers.crash import CrashKind
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.dialects.base import LogLine
from spectrace.pipeline import Analysis, analyse
from spectrace.ruleset import RuleSet

SITE = "/opt/venv/lib/python3.12/site-packages"
LAUNCHER_CUT = [
    "Traceback (most recent call last):",
    f'  File "{SITE}/dynamo/sdk/cli/serve_dynamo.py", line 88, in main',
    "    worker.run()",
]
ENGINE_CUT = [
    "Traceback (most recent call last):",
    f'  File "{SITE}/vllm/engine/multiprocessing/engine.py", line 380, in run_mp_engine',
    "    engine = MQLLMEngine.from_vllm_config(",
]
RULE = "=" * 60


def run(tmp_path: Path, lines: list[str]) -> Analysis:
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)])


def test_two_cut_tracebacks_of_one_stream_ending_elsewhere_are_both_kept(tmp_path: Path) -> None:
    a = run(tmp_path, [*LAUNCHER_CUT, *ENGINE_CUT, ""])
    assert [i.first_seen.lineno for i in a.incidents] == [1, 4]


def test_a_cut_traceback_printed_twice_is_one_crash(tmp_path: Path) -> None:
    (inc,) = run(tmp_path, [*ENGINE_CUT, *ENGINE_CUT, ""]).incidents
    assert inc.first_seen.lineno == 1


def test_a_full_traceback_logged_then_printed_again_is_one_crash(tmp_path: Path) -> None:
    full = [*ENGINE_CUT, "ValueError: max_model_len 65536 exceeds the model's 32768"]
    (inc,) = run(tmp_path, [*full, *full]).incidents
    assert inc.exception_type == "ValueError"


def _table(first: str, rank: int, code: int) -> list[str]:
    return [
        "[0]:",
        f"  time      : {first}",
        "  host      : gpu-node-2.cluster",
        f"  rank      : {rank} (local_rank: {rank % 8})",
        f"  exitcode  : {code} (pid: 52{rank:03d})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def bare_child_failed(rank: int = 5, code: int = 1) -> list[str]:
    return [
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        RULE,
        "train.py FAILED",
        "-" * 60,
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "-" * 60,
        "Root Cause (first observed failure):",
        *_table("2026-03-01_12:00:00", rank, code),
        RULE,
    ]


def test_bare_child_failed_line_reads_its_root_cause_table(tmp_path: Path) -> None:
    (inc,) = run(tmp_path, bare_child_failed()).incidents
    assert inc.message == "train.py FAILED (first failure: rank5, exitcode 1)"
    assert inc.origin_rank == "rank5"
    assert inc.first_seen.ts_text == "2026-03-01_12:00:00"


def test_bare_child_failed_table_ends_at_its_closing_rule(tmp_path: Path) -> None:
    after = "RuntimeError: CUDA error: an illegal memory access was encountered"
    a = run(tmp_path, [*bare_child_failed(), after])
    assert [i.exception_type for i in a.incidents][-1] == "RuntimeError"
    assert a.incidents[0].origin_rank == "rank5"


def test_bare_child_failed_line_without_a_table_keeps_its_own_message(tmp_path: Path) -> None:
    line = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
    (inc,) = run(tmp_path, [line, "accelerate launch exited"]).incidents
    assert inc.origin_rank is None and "first failure" not in inc.message


SLURM = "slurmstepd: error: *** JOB 123 ON gpu-b04 CANCELLED AT 2026-03-01T12:00:00"


def test_slurm_cancel_takes_the_time_its_message_prints(tmp_path: Path) -> None:
    (cause,) = run(tmp_path, [SLURM + " DUE TO TIME LIMIT ***"]).incidents
    assert (cause.exception_type, cause.message) == ("SlurmCancelled", "DUE TO TIME LIMIT")
    assert cause.first_seen.ts_text == "2026-03-01T12:00:00"
    (hand,) = run(tmp_path, [SLURM + " ***"]).incidents
    assert hand.first_seen.ts_text == "2026-03-01T12:00:00"


def test_ascend_error_record_takes_its_printed_time(tmp_path: Path) -> None:
    line = "[ERROR] 2026-03-01-12:00:00 (PID:1234, Device:0, RankID:-1) ERR00100 PTA call acl api failed"
    (inc,) = run(tmp_path, [line]).incidents
    assert (inc.exception_type, inc.first_seen.ts_text) == ("ERR00100", "2026-03-01-12:00:00")
    assert inc.first_seen.ts is not None and inc.first_seen.ts.hour == 12


def _line(text: str) -> LogLine:
    return LogLine(
        source="x.log", lineno=1, offset=0, text=text, raw=text, dialect="plain", stream=""
    )


def test_a_user_rule_ts_group_places_the_crash_and_a_bad_stamp_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(
        "[[crash]]\nid = 'job_died'\npattern = 'job died at (?P<ts>\\S+)'\nliterals = ['job died']\n",
        encoding="utf-8",
    )
    matcher = FatalMatcher(RuleSet.load([tmp_path]))
    good = matcher.match_line(_line("job died at 2026-03-01T12:00:00.250"))
    assert good is not None and good.kind is CrashKind.FATAL_LINE
    assert (good.ts_text, good.ts and good.ts.microsecond) == ("2026-03-01T12:00:00.250", 250000)
    bad = matcher.match_line(_line("job died at 2026-13-45T99:00:00"))
    assert bad is not None and (bad.ts, bad.ts_text) == (None, None)
