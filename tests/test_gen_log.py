"""benchmarks/gen_log.py: its truth points at real lines, and the pipeline finds every root crash."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from spectrace.pipeline import Analysis, analyse

GEN = Path(__file__).resolve().parent.parent / "benchmarks" / "gen_log.py"
FIRST_LINE = {
    "shape_mismatch": "Scheduler hit an exception: Traceback (most recent call last):",
    "chained": "Scheduler hit an exception: Traceback (most recent call last):",
    "interleaved": "Scheduler hit an exception: Traceback (most recent call last):",
    "faulthandler": "Fatal Python error: Segmentation fault",
    "cuda_fatal": "Process group watchdog thread terminated with exception: CUDA error",
    "nccl_watchdog": "Watchdog caught collective operation timeout",
}


def generate(out: Path, *extra: str) -> dict:
    cmd = [
        sys.executable,
        str(GEN),
        "--size-mb",
        "3",
        "--ranks",
        "4",
        "--seed",
        "7",
        "--out",
        str(out),
        *extra,
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    return json.loads(Path(f"{out}.truth.json").read_text())


@cache
def generated(tmp: Path) -> tuple[dict, Analysis]:
    truth = generate(tmp / "gen.log")
    return truth, analyse([str(tmp / "gen.log")])


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, Analysis]:
    tmp = tmp_path_factory.mktemp("gen")
    truth, result = generated(tmp)
    return tmp / "gen.log", truth, result


def test_truth_lines_point_at_the_crash_lines(gen: tuple[Path, dict, Analysis]) -> None:
    path, truth, _ = gen
    lines = path.read_bytes().decode("utf-8").split("\n")  # keep tqdm's \r inside lines
    assert len(lines) - 1 == truth["lines"]
    for crash in truth["crashes"]:
        scenario = truth["incidents"][crash["incident"]]["scenario"]
        assert FIRST_LINE[scenario] in lines[crash["line"] - 1], crash


def test_every_scenario_appears_in_a_small_file(gen: tuple[Path, dict, Analysis]) -> None:
    _, truth, _ = gen
    assert {inc["scenario"] for inc in truth["incidents"]} == set(FIRST_LINE)


def test_same_seed_same_bytes(tmp_path: Path, gen: tuple[Path, dict, Analysis]) -> None:
    path, _, _ = gen
    generate(tmp_path / "again.log")
    assert (tmp_path / "again.log").read_bytes() == path.read_bytes()


def test_gzip_output_decompresses_to_the_same_log(
    tmp_path: Path, gen: tuple[Path, dict, Analysis]
) -> None:
    path, _, _ = gen
    truth = generate(tmp_path / "gen.log.gz", "--gzip")
    assert gzip.decompress((tmp_path / "gen.log.gz").read_bytes()) == path.read_bytes()
    assert truth["gzip"] is True


def test_pipeline_finds_every_root_crash_at_its_line(gen: tuple[Path, dict, Analysis]) -> None:
    """Recall: each true root incident is a root incident of the same type starting at its line."""
    _, truth, result = gen
    found = {(i.exception_type, i.first_seen.lineno) for i in result.incidents if i.root_cause}
    missed = [
        (inc["scenario"], inc["type"], inc["lines"][0])
        for inc in truth["incidents"]
        if inc["root_cause"]
        and inc["type"] != "CUDAError"
        and (inc["type"], inc["lines"][0]) not in found
    ]
    assert not missed, f"missed {missed}; found {sorted(found, key=lambda f: f[1])}"


def test_every_ranked_occurrence_is_attributed(gen: tuple[Path, dict, Analysis]) -> None:
    """Each rank of a multi-rank crash is listed on an incident of that crash's type."""
    _, truth, result = gen
    ranks = {(i.exception_type, r) for i in result.incidents for r in i.ranks}
    lost = [
        (c["type"], c["rank"])
        for c in truth["crashes"]
        if c["rank"]
        and c["type"] not in ("CUDAError", "NCCLTimeout")
        and (c["type"], c["rank"]) not in ranks
    ]
    assert not lost, lost


def test_watchdog_timeouts_are_collateral_of_the_cuda_fault(
    gen: tuple[Path, dict, Analysis],
) -> None:
    """The NCCL timeouts 10 minutes after rank 3's CUDA fault are its collateral, not roots."""
    _, truth, result = gen
    cuda_line = next(
        inc["lines"][0] for inc in truth["incidents"] if inc["scenario"] == "cuda_fatal"
    )
    cuda = [i for i in result.incidents if i.first_seen.lineno == cuda_line]
    timeouts = [
        i
        for i in result.incidents
        if "Watchdog caught collective operation timeout" in " ".join(i.lines)
        or "WorkNCCL" in i.message
    ]
    assert cuda and timeouts, [
        (i.id, i.exception_type, i.first_seen.lineno) for i in result.incidents
    ]
    assert all(not t.root_cause and t.caused_by == cuda[0].id for t in timeouts), [
        (t.id, t.caused_by, cuda[0].id) for t in timeouts
    ]


def test_one_root_incident_per_true_crash(gen: tuple[Path, dict, Analysis]) -> None:
    """Ranks failing together (even interleaved line by line) make one root incident, no more."""
    _, truth, result = gen
    roots = [i for i in result.incidents if i.root_cause]
    problems = []
    for inc in truth["incidents"]:
        lines = set(inc["lines"])
        hits = [r.id for r in roots if lines & {o.lineno for o in r.occurrences}]
        if inc["root_cause"] and len(hits) != 1:
            problems.append(
                f"{inc['scenario']} at {inc['lines']}: {len(hits)} root incidents {hits}"
            )
        if not inc["root_cause"] and hits:
            problems.append(
                f"{inc['scenario']} at {inc['lines']}: collateral reported as root {hits}"
            )
    assert not problems, problems


def test_each_crash_is_linked_to_the_worker_path_its_frames_prove(
    gen: tuple[Path, dict, Analysis],
) -> None:
    """Every launch in the generated log is v1 (EAGLEWorker), and so is every traceback."""
    _, truth, result = gen
    by_line = {o.lineno: i for i in result.incidents for o in i.occurrences}
    wrong = [
        (inc["scenario"], inc["lines"][0], by_line[inc["lines"][0]].worker_path)
        for inc in truth["incidents"]
        if inc["worker_path"] and inc["lines"][0] in by_line
        and getattr(by_line[inc["lines"][0]].worker_path, "value", None) != inc["worker_path"]
    ]  # fmt: skip
    assert not wrong, wrong


def test_a_headerless_segfault_dump_is_not_pinned_on_an_unrelated_rank(
    gen: tuple[Path, dict, Analysis],
) -> None:
    """The dump carries no rank; only the watchdog line after it names one (scheduler_N)."""
    _, truth, result = gen
    fault = next(inc for inc in truth["incidents"] if inc["scenario"] == "faulthandler")
    found = next(i for i in result.incidents if i.first_seen.lineno == fault["lines"][0])
    assert found.origin_rank in (None, fault["named_rank"]), (found.origin_rank, found.ranks)
