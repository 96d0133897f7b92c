"""Known gaps closed: a message wrapped over lines keeps its text, an init failure and the
RuntimeError reporting it are one root cause, hints name the flags of the log's own framework,
runs given together keep their own config. Lines written by us in the frameworks' formats."""

from __future__ import annotations

from pathlib import Path

from spectrace.pipeline import analyse

TB = ["Traceback (most recent call last):", '  File "/srv/x/sglang/srt/managers/scheduler.py", '
      "line 900, in event_loop_normal", "    self.run_batch()"]  # fmt: skip


def roots(tmp_path: Path, lines: list[str], name: str = "server.log") -> list:
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [i for i in analyse([str(log)]).incidents if i.root_cause]


def test_a_message_a_terminal_wrapped_keeps_its_second_line_and_is_decoded(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [*TB,
        "RuntimeError: The size of tensor a (160) must match the size of tensor b (10) at",
        "non-singleton dimension 0", ""])  # fmt: skip
    assert crash.message.endswith("at non-singleton dimension 0")
    assert crash.shape_mismatch is not None and crash.shape_mismatch.numbers["dim"] == 0


def test_indented_details_under_a_colon_are_part_of_the_message(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [*TB,
        "RuntimeError: Error(s) in loading state_dict for Eagle3Head:",
        "\tsize mismatch for fc.weight: copying a param with shape torch.Size([4096, 12288]) from "
        "checkpoint, the shape in current model is torch.Size([4096, 8192]).", ""])  # fmt: skip
    assert "size mismatch for fc.weight" in crash.message
    assert crash.crash_class == "shape_mismatch"


def test_cuda_notes_under_a_cuda_error_do_not_join_a_complete_message(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, [*TB,
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "CUDA kernel errors might be asynchronously reported at some other API call.",
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", ""])  # fmt: skip
    assert crash.message == "CUDA error: an illegal memory access was encountered"


def test_init_failure_and_the_error_reporting_it_are_one_root(tmp_path: Path) -> None:
    lines = [
        "[2026-05-01 10:00:00 TP0] Failed to initialize the CUDA graph runner: CUDA out of "
        "memory. Tried to allocate 2.00 GiB.",
        "[2026-05-01 10:00:00 TP0] Scheduler hit an exception: " + TB[0], *TB[1:],
        "RuntimeError: CUDA graph runner initialization failed", "",
    ]  # fmt: skip
    (crash,) = roots(tmp_path, lines)
    assert crash.crash_class == "cuda_oom"
    assert any(h.startswith("GPU memory ran out: lower --mem-fraction-static") for h in crash.hints)


def test_an_unrelated_error_after_an_init_failure_stays_a_root(tmp_path: Path) -> None:
    lines = ["[2026-05-01 10:00:00 TP0] Failed to initialize the tokenizer: CUDA out of memory.",
             "[2026-05-01 10:00:00 TP0] Scheduler hit an exception: " + TB[0], *TB[1:],
             "RuntimeError: CUDA graph runner initialization failed", ""]  # fmt: skip
    assert len(roots(tmp_path, lines)) == 2


def test_a_vllm_oom_names_vllm_flags_only(tmp_path: Path) -> None:
    tag = "(EngineCore_DP0 pid=700) ERROR 05-01 10:06:00 [core.py:700] "
    (crash,) = roots(tmp_path, [tag + "EngineCore failed to start.", tag + "Traceback (most recent call last):",
        tag + '  File "/venv/vllm/v1/worker/gpu_model_runner.py", line 2500, in capture_model',
        tag + "    self._dummy_run(bs)",
        tag + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."])  # fmt: skip
    text = " ".join(crash.hints)
    assert "--gpu-memory-utilization" in text and "--mem-fraction-static" not in text


def test_a_trtllm_oom_names_the_kv_cache_fraction(tmp_path: Path) -> None:
    (crash,) = roots(tmp_path, ["Traceback (most recent call last):",
        '  File "/venv/tensorrt_llm/_torch/pyexecutor/resource_manager.py", line 300, in __init__',
        "    self.pool = torch.empty(size)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.", ""])  # fmt: skip
    text = " ".join(crash.hints)
    assert "free_gpu_memory_fraction" in text and "--" not in text


def test_runs_given_together_keep_their_own_config(tmp_path: Path) -> None:
    def run(day: int, n: int, bs: int, message: str) -> str:
        return "\n".join([
            f"[2026-05-0{day} 10:00:00] server_args=ServerArgs(speculative_algorithm='EAGLE', "
            f"speculative_num_draft_tokens={n}, speculative_eagle_topk=1, speculative_num_steps=3)",
            f"[2026-05-0{day} 10:00:05 TP0] Decode batch. #running-req: {bs}, #token: 900, "
            "token usage: 0.02, gen throughput (token/s): 300.00, #queue-req: 0",
            f"[2026-05-0{day} 10:00:06 TP0] Scheduler hit an exception: " + TB[0], *TB[1:],
            message, "",
        ])  # fmt: skip
    (tmp_path / "a.log").write_text(run(1, 16, 10, "RuntimeError: The size of tensor a (160) "
                                     "must match the size of tensor b (10) at non-singleton dimension 0"))
    (tmp_path / "b.log").write_text(run(2, 8, 6, "RuntimeError: shape '[6, 8]' is invalid for "
                                     "input of size 48"))  # fmt: skip
    by_file = {i.first_seen.source.rsplit("/", 1)[-1]: i for i in analyse([str(tmp_path)]).incidents}
    a, b = by_file["a.log"].explanation, by_file["b.log"].explanation
    assert a is not None and a.facts["num_draft_tokens"] == 16 and "160" in a.terms
    assert b is not None and b.facts["num_draft_tokens"] == 8 and "48" in b.terms


def test_a_short_message_does_not_swallow_the_log_line_after_it(tmp_path: Path) -> None:
    crashes = roots(tmp_path, [*TB, "ValueError: request 0 failed: bad input", "serving request 1",
                               *TB, "ValueError: request 1 failed: bad input"])  # fmt: skip
    assert [c.message for c in crashes] == ["request 0 failed: bad input"]
    assert len(crashes[0].occurrences) == 2
