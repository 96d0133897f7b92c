"""vLLM's engine-input dump (``[dump_input.py:N] Dumping input data for V1 LLM engine ...``),
logged only when an engine step raised: the engine core's crash when its traceback is not in
the text, never a second root cause beside that traceback. Lines written by us in vLLM's
logger format."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import analyse

EC = "(EngineCore_DP0 pid=5120) "
DUMP = (
    EC + "ERROR 03-14 08:10:11 [dump_input.py:72] Dumping input data for V1 LLM engine "
    "(v0.31.0) with config: model='/m/tiny', speculative_config=None, tokenizer='/m/tiny', "
    "dtype=torch.bfloat16, max_seq_len=4096, tensor_parallel_size=1, "
)
SCHED = (EC + "ERROR 03-14 08:10:11 [dump_input.py:79] Dumping scheduler output for model "
         "execution: SchedulerOutput(scheduled_new_reqs=[], num_scheduled_tokens={r1: 1})")  # fmt: skip
TB = [
    EC + "ERROR 03-14 08:10:11 [core.py:866] EngineCore encountered a fatal error.",
    EC + "ERROR 03-14 08:10:11 [core.py:866] Traceback (most recent call last):",
    EC + 'ERROR 03-14 08:10:11 [core.py:866]   File "/v/vllm/v1/engine/core.py", line 857, in run_engine_core',
    EC + "ERROR 03-14 08:10:11 [core.py:866]     engine_core.run_busy_loop()",
    EC + 'ERROR 03-14 08:10:11 [core.py:866]   File "/v/vllm/v1/worker/gpu_model_runner.py", line 2210, in execute_model',
    EC + "ERROR 03-14 08:10:11 [core.py:866]     logits = self.model.compute_logits(hidden)",
    EC + "ERROR 03-14 08:10:11 [core.py:866] IndexError: index 9 is out of bounds for dimension 0 with size 4",
]  # fmt: skip


def incidents(tmp_path: Path, lines: list[str]) -> list:
    path = tmp_path / "engine.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyse([str(path)]).incidents


def test_a_dump_whose_traceback_was_cut_away_is_the_engine_cores_crash(tmp_path: Path) -> None:
    (inc,) = incidents(tmp_path, ["model loaded", DUMP, SCHED])
    assert inc.root_cause and inc.exception_type == "EngineStepFailed"
    assert inc.message == "Dumping input data for V1 LLM engine (v0.31.0)"
    assert inc.origin_rank == "EngineCore_DP0"


def test_the_dump_beside_its_traceback_is_no_second_crash(tmp_path: Path) -> None:
    found = incidents(tmp_path, ["model loaded", DUMP, SCHED, *TB])
    assert [(i.exception_type, i.root_cause) for i in found] == [("IndexError", True)]
    worker = [line.replace(EC, "(Worker_TP0 pid=5130) ") for line in TB[1:]]
    found = incidents(tmp_path, ["model loaded", *worker, DUMP, SCHED])
    assert [i.exception_type for i in found] == ["IndexError"]  # the worker's, printed first


def test_a_dump_far_from_another_crash_is_its_own(tmp_path: Path) -> None:
    filler = [f"INFO 03-14 08:0{n % 10}:00 [loggers.py:1] Engine 000: running {n}" for n in range(500)]
    found = incidents(tmp_path, [*TB[1:], *filler, DUMP, SCHED])
    assert [i.exception_type for i in found if i.root_cause] == ["IndexError", "EngineStepFailed"]


def test_the_older_two_line_dump_counts_too(tmp_path: Path) -> None:
    head = "ERROR 03-14 08:10:11 [dump_input.py:69] "
    (inc,) = incidents(tmp_path, [head + "Dumping input data",
                                  head + "V0 LLM engine (v0.8.5) with config: model='/m/tiny', "])  # fmt: skip
    assert inc.root_cause and inc.exception_type == "EngineStepFailed"


def test_a_sentence_about_the_dump_is_no_crash_of_its_own(tmp_path: Path) -> None:
    found = incidents(tmp_path, ["We see vLLM printing its Dumping input data block only on errors."])
    assert found == []


def test_the_dump_line_without_its_logger_header_counts(tmp_path: Path) -> None:
    bare = DUMP[DUMP.index("[dump_input.py"):]  # the paste kept only the logger location
    (inc,) = incidents(tmp_path, ["pasted from the server:", bare])
    assert inc.root_cause and inc.exception_type == "EngineStepFailed" and not inc.mentioned
