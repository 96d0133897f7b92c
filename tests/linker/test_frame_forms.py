"""Every tabled frame, in the stack formats users paste, lands on what its table row says
(issue 11: "a log nobody here has seen still lands on a known frame"; tests/frame_logs.py
writes the logs from rules/paths/*.toml, benchmarks/frame_sweep.py runs every row in every
form). Here: every row as a plain traceback, every deciding row with its release under
interleaved rank prefixes, and a sample of rows in every other form; then the mechanisms the
sweep found, each with its near misses.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from frame_logs import COPY_FORMS, FORMS, FrameCase, cases, outcome
from real_logs_helpers import roots, run

from spectrace.dialects.wrappers import peel
from spectrace.pipeline import analyse
from spectrace.worker_path import WorkerPath

# one deciding row of each table and kind (a renamed file, a shared EAGLE file, a plugin's,
# V0's, model runner v2's, a C++ layer), every form
_SAMPLE = (
    "eagle_worker.py", "eagle_worker_v2.py", "speculative/dflash_worker_v2.py",
    "spec_decode/eagle.py", "spec_decode/ngram_worker.py", "v1/worker/gpu/spec_decode/eagle/speculator.py",
    "vllm_ascend/spec_decode/eagle_proposer.py", "vllm_ascend/spec_decode/mtp_proposer.py",
    "_torch/speculative/model_drafter.py", "tensorrt_llm/layers/lookaheadDecodingLayer.cpp",
    "tpu_inference/spec_decode/jax/eagle3.py", "hardware_backend/npu/graph_runner/eagle_draft_npu_graph_runner.py",
)  # fmt: skip


def _selected() -> list[FrameCase]:
    out = [c for c in cases(forms=["plain"]) if not c.release]
    out += [c for c in cases(forms=["ranks"]) if c.release and (c.expect.decide or c.expect.condition)]
    sample = [c for c in cases() if c.row.name in _SAMPLE and c.form not in ("plain", "ranks")]
    return out + sample


@cache
def _tmp() -> Path:
    import tempfile

    return Path(tempfile.mkdtemp(prefix="frame_forms_"))


def _verdict(case: FrameCase) -> WorkerPath | None:
    path = _tmp() / "crash.log"
    path.write_text("\n".join(case.lines) + "\n", encoding="utf-8")
    found = [i for i in analyse([str(path)]).incidents if i.root_cause]
    return found[0].worker_path if found else None


@pytest.mark.parametrize("case", _selected(), ids=lambda c: c.key)
def test_a_tabled_frame_lands_on_its_row(case: FrameCase) -> None:
    path = _verdict(case)
    got = outcome(path, case)
    assert got == "right" or (got in ("cond", "unknown") and not case.expect.decide
                              and not case.expect.condition), (got, path)  # fmt: skip


def test_every_form_is_written() -> None:
    assert set(FORMS) == {"plain", "ranks", "chained", "faulthandler", "pyspy", "cut", "checkout",
                          "elided", "compose", "web"}  # fmt: skip
    assert set(COPY_FORMS) == {"nextline", "docstring", "midline", "sentence", "markdown", "html", "json", "quote",
                               "fold80", "fold80p", *(f"wrap{w}{p}" for w in (60, 80, 100, 120)
                                                      for p in ("", "p"))}  # fmt: skip


# one deciding row per table and era (SGLang v1 and v2, vLLM V0, V1 and MRV2, the Ascend
# plugin, TensorRT-LLM): every copy form, with and without the release
_COPIED = (
    "eagle_worker.py", "eagle_worker_v2.py", "spec_decode/ngram_worker.py", "spec_decode/eagle.py",
    "v1/worker/gpu/spec_decode/eagle/speculator.py", "vllm_ascend/spec_decode/mtp_proposer.py",
    "_torch/speculative/model_drafter.py",
)  # fmt: skip


@pytest.mark.parametrize("case", [c for c in cases(forms=list(COPY_FORMS)) if c.row.name in _COPIED],
                         ids=lambda c: c.key)  # fmt: skip
def test_a_copied_frame_lands_on_its_row(case: FrameCase) -> None:
    """The same crash after a notes file, a wiki, a terminal or a transcript copied it: the
    function on the next line, the frames inside a prose line, every line wrapped at a
    terminal's width (a log prefix on the first piece only, a path cut inside), underscores
    escaped for Markdown, quotes as HTML entities, the traceback inside a JSON string."""
    assert outcome(_verdict(case), case) == "right", case.lines


TRT = "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch"


def _trt_crash(drafter: str, function: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        f'  File "{TRT}/pyexecutor/py_executor.py", line 1420, in _executor_loop',
        "    batch_outputs = self._forward_step(scheduled_batch)",
        f'  File "{TRT}/speculative/{drafter}", line 388, in {function}',
        "    draft_tokens = self.prepare(request)",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    ]


@pytest.mark.parametrize(("stream", "drafter", "function", "worker"), [
    ("stderr", "ngram.py", "prepare_draft_tokens", "NGramDrafter"),
    ("stdout", "model_drafter.py", "prepare_draft_tokens", "ModelDrafter"),
    ("stderr", "draft_target.py", "forward", "DraftTargetOneModelWorker"),
    ("stdout", "sa_worker.py", "forward", "SAWorker"),
])  # fmt: skip
def test_mpirun_tagged_ranks_interleaved_read_as_one_crash(
    stream: str, drafter: str, function: str, worker: str, tmp_path: Path
) -> None:
    """``mpirun --tag-output`` (TensorRT-LLM's multi-GPU runs) puts ``[job,rank]<stream>:`` on
    every line of every rank: the ranks' tracebacks interleave and still name the drafter."""
    lines = [f"[1,{r}]<{stream}>:{line}" for line in _trt_crash(drafter, function) for r in (0, 2)]
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    assert (crash.worker_path.value, crash.worker_path.worker_class) == ("other", worker)
    assert set(crash.ranks) == {"rank0", "rank2"}


@pytest.mark.parametrize("text", [
    "[1,3] is the shape of the draft tensor",
    "[1,3]<stdin>: read 4 bytes",
    "[1,3] <stderr>: spaced",
])  # fmt: skip
def test_a_bracketed_pair_that_is_no_mpirun_tag_stays(text: str) -> None:
    assert peel(text).text == text and peel(text).torch_rank is None


SG = "/usr/local/lib/python3.12/dist-packages/sglang/srt"


def _sg_crash(*frames: tuple[str, str]) -> list[str]:
    body = [line for file, fn in frames
            for line in (f'  File "{SG}/{file}", line 301, in {fn}', "    out = self.step(batch)")]  # fmt: skip
    return ["[2026-11-20 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
            f'  File "{SG}/managers/scheduler.py", line 2700, in run_scheduler_process',
            "    scheduler.run_event_loop()", *body,
            "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]) -> WorkerPath:
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


_LAUNCH = "python3 -m sglang.launch_server --model-path org/target --speculative-algorithm {} " \
          "--speculative-draft-model-path org/draft --tp 2"  # fmt: skip


@pytest.mark.parametrize(("head", "frames", "held"), [
    ([], [("speculative/eagle_worker.py", "forward_batch_generation")], ("EAGLEWorker", "StandaloneWorker")),
    (["sglang: 0.5.10"], [("speculative/eagle_worker.py", "verify")], ("EAGLEWorker", "StandaloneWorker")),
    ([], [("managers/scheduler.py", "event_loop_overlap"), ("speculative/eagle_worker_v2.py", "verify")],
     ("EAGLEWorkerV2", "StandaloneWorkerV2")),
    (["sglang==0.5.16"], [("speculative/eagle_worker_v2.py", "forward_batch_generation")],
     ("EAGLEWorkerV2", "StandaloneWorkerV2", "FrozenKVMTPWorkerV2")),
    (["sglang: 0.5.20"], [("hardware_backend/npu/graph_runner/eagle_draft_npu_graph_runner.py", "replay")],
     ("EAGLEWorkerV2", "StandaloneWorkerV2")),
])  # fmt: skip
def test_a_frame_of_eagle_machinery_decides_eagle_s_worker_without_the_algorithm(
    head: list[str], frames: list[tuple[str, str]], held: tuple[str, ...], tmp_path: Path
) -> None:
    """StandaloneWorker(V2) and FrozenKVMTPWorkerV2 derive from EAGLE's workers (the table's
    bases, sglang_eras.toml's [[shared]] rows), but with no line naming the algorithm a frame of
    their base's file decides EAGLE's worker: EAGLE, EAGLE3 and NEXTN run it far more often, and
    the bundled samples' frame-only crashes must keep their decided EAGLEWorker."""
    path = _path(tmp_path, [*head, *_sg_crash(*frames)])
    assert (path.value, path.worker_class) == (f"v{'2' if held[0].endswith('V2') else '1'}", held[0]), path


@pytest.mark.parametrize(("head", "frame", "decided"), [
    ([_LAUNCH.format("STANDALONE"), "sglang: 0.5.10"], "speculative/eagle_worker.py", ("v1", "StandaloneWorker")),
    ([_LAUNCH.format("STANDALONE"), "sglang: 0.5.10"], "speculative/eagle_worker_v2.py", ("v2", "StandaloneWorkerV2")),
    ([_LAUNCH.format("EAGLE3")], "speculative/eagle_worker_v2.py", ("v2", "EAGLEWorkerV2")),
    (["sglang: 0.5.1"], "speculative/eagle_worker.py", ("v1", "EAGLEWorker")),  # before STANDALONE
    (["sglang: 0.5.5"], "speculative/eagle_worker_v2.py", ("v2", "EAGLEWorkerV2")),  # before its V2
])  # fmt: skip
def test_a_stated_algorithm_or_a_release_before_the_subclasses_still_decides(
    head: list[str], frame: str, decided: tuple[str, str], tmp_path: Path
) -> None:
    path = _path(tmp_path, [*head, *_sg_crash((frame, "forward_batch_generation"))])
    assert (path.value, path.worker_class) == decided, path.conditional


def test_a_dump_saying_off_still_yields_to_the_worker_frame(tmp_path: Path) -> None:
    """Only a frame's own vote turns into a condition: where another vote stands (a dump whose
    algorithm is off), the frames keep theirs and the conflict is told as before."""
    dump = ("[2026-11-20 09:59:00] server_args=ServerArgs(model_path='org/target', "
            "speculative_algorithm=None, disable_overlap_schedule=False)")  # fmt: skip
    path = _path(tmp_path, [dump, *_sg_crash(("speculative/eagle_worker.py", "verify"))])
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")


@pytest.mark.parametrize(("head", "file", "held"), [
    (["sglang: 0.5.23"], "models/mimo_v2_nextn.py", ("EAGLEWorkerV2", "MultiLayerEagleWorkerV2")),
    ([], "models/mimo_v2_nextn.py", ("EAGLEWorkerV2", "MultiLayerEagleWorkerV2")),
])  # fmt: skip
def test_a_draft_model_the_server_runs_multi_layer_names_both_workers(
    head: list[str], file: str, held: tuple[str, ...], tmp_path: Path
) -> None:
    """MiMo-V2's MTP runs on the multi-layer EAGLE workers where the server turns them on for
    it ([[multi_layer]] rows): its draft file's frame names EAGLE's worker or that one."""
    path = _path(tmp_path, [*head, *_sg_crash((file, "forward"))])
    assert path.value == "unknown" and path.conditional is not None, path
    assert all(c in path.conditional for c in held), path.conditional


@pytest.mark.parametrize(("head", "file", "decided"), [
    (["sglang: 0.5.23"], "models/deepseek_nextn.py", ("v2", "EAGLEWorkerV2")),  # no such target
    (["sglang: 0.5.23", _LAUNCH.format("EAGLE") + " --enable-multi-layer-eagle"],
     "models/mimo_v2_nextn.py", ("v2", "MultiLayerEagleWorkerV2")),
])  # fmt: skip
def test_a_draft_model_of_another_target_or_the_flag_stated_decides(
    head: list[str], file: str, decided: tuple[str, str], tmp_path: Path
) -> None:
    path = _path(tmp_path, [*head, *_sg_crash((file, "forward"))])
    assert (path.value, path.worker_class) == decided, path.conditional
