"""A vLLM run put on V0 though its method is spelled the V1 way (round 27 15's shape: a pull
request "Enabled DeepSeek-Eagle on vLLM V0 for Gaudi" with ``{"method": "eagle"}`` and
``--use-v2-block-manager``): V0's worker, or the condition over both engines where only a
V0-era option places it; never a decision for a method V0 never ran."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

HEADER = "example-org/vllm-fork · pull request #812 · closed · Python"
CRASH = ["Traceback (most recent call last):", '  File "serve.py", line 3, in <module>',
         "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def _cmd(method: str, *extra: str) -> list[str]:
    return ["python3 -m vllm.entrypoints.openai.api_server --model /models/ds \\",
            *[f"    {x} \\" for x in extra],
            f"""    --speculative-config '{{"model": "/models/draft", "method": "{method}", """
            """"num_speculative_tokens": 2}'"""]  # fmt: skip


def _path(tmp_path: Path, name: str, lines: list[str]):
    (tmp_path / name).mkdir()
    return crash_path(run(tmp_path / name, lines))


def test_a_title_saying_v0_puts_an_eagle_method_on_multistepworker(tmp_path: Path) -> None:
    for i, title in enumerate(("# Enable MTP heads on vLLM V0 for our accelerator",
                               "# [V0] EAGLE drafts stall with chunked prefill",
                               "# Fix EAGLE on the V0 engine with pipeline parallel")):
        path = _path(tmp_path, str(i), [HEADER, title, "", *_cmd("eagle"), *CRASH])
        assert_verdict(path, "other", "MultiStepWorker")


def test_an_option_v1_fell_back_for_puts_the_run_on_v0(tmp_path: Path) -> None:
    path = _path(tmp_path, "a", [*_cmd("eagle", "--num-scheduler-steps 8"), *CRASH])
    assert_verdict(path, "other", "MultiStepWorker")
    path = _path(tmp_path, "b", [*_cmd("deepseek_mtp", "--enable-prompt-adapter"), *CRASH])
    assert_verdict(path, "other", "MultiStepWorker")


def test_an_option_left_at_its_default_decides_no_v0(tmp_path: Path) -> None:
    """``--num-scheduler-steps 1`` keeps V1 (no fallback), though only releases with V0 had it."""
    path = _path(tmp_path, "a", [*_cmd("eagle", "--num-scheduler-steps 1"), *CRASH])
    assert_verdict(path, "unknown", "EagleProposer|MultiStepWorker")


def test_an_option_removed_with_v0_leaves_both_engines_open(tmp_path: Path) -> None:
    path = _path(tmp_path, "a", [*_cmd("eagle", "--use-v2-block-manager"), *CRASH])
    assert_verdict(path, "unknown", "EagleProposer|MultiStepWorker")


def test_v0_said_for_a_method_v0_never_ran_decides_nothing(tmp_path: Path) -> None:
    path = _path(tmp_path, "a", [HEADER, "# Speculative decoding on vLLM V0 for Gaudi", "",
                                 *_cmd("eagle3"), *CRASH])  # fmt: skip
    assert path.worker_class is None


def test_titles_about_removing_v0_or_comparing_engines_are_not_the_run(tmp_path: Path) -> None:
    for i, title in enumerate(("# [V0 deprecation] Remove V0 spec decode workers",
                               "# EAGLE slower on V1 than on vLLM V0")):
        path = _path(tmp_path, str(i), [HEADER, title, "", *_cmd("eagle"), *CRASH])
        assert_verdict(path, "other", "EagleProposer")


def test_the_v1_switch_set_for_the_run_outranks_a_v0_title(tmp_path: Path) -> None:
    lines = [HEADER, "# EAGLE on vLLM V0 for Gaudi", "", "export VLLM_USE_V1=1",
             *_cmd("eagle"), *CRASH]  # fmt: skip
    assert_verdict(_path(tmp_path, "a", lines), "other", "EagleProposer")


def test_a_one_line_command_the_config_reader_judged_gets_no_family_vote(tmp_path: Path) -> None:
    """The config reader read the command and said "V0 never ran eagle3: no class"; the family
    lookup of words must not name EagleProposer from the same line (one-line command, offline
    ``LLM(...)``, an underscore flag)."""
    lines = (
        """vllm serve /models/ds --speculative-config '{"model": "/models/draft", """
        """"method": "eagle3", "num_speculative_tokens": 2}'""",
        """python -m vllm.entrypoints.openai.api_server --model /models/ds --speculative_config """
        """'{"method":"eagle3","model":"/models/draft","num_speculative_tokens":3}'""",
        """llm = LLM(model="/models/ds", speculative_config={"method": "eagle3", """
        """"model": "/models/draft", "num_speculative_tokens": 2})""",
    )
    for i, line in enumerate(lines):
        path = _path(tmp_path, str(i), [HEADER, "# Speculative decoding on vLLM V0 for Gaudi", "",
                                        line, *CRASH])  # fmt: skip
        assert path.worker_class is None and not path.conditional, (line, path)


def test_the_same_one_line_command_without_a_v0_title_still_decides(tmp_path: Path) -> None:
    lines = [HEADER, "# Speculative decoding crashes on Gaudi", "",
             """vllm serve /models/ds --speculative-config '{"model": "/models/draft", """
             """"method": "eagle3", "num_speculative_tokens": 2}'""", *CRASH]  # fmt: skip
    assert_verdict(_path(tmp_path, "a", lines), "other", "EagleProposer")


def _v0_frames(frame: str) -> list[str]:
    """A crash through ``frame`` (path under vllm/, function) of the engine that ran the run."""
    path, func = frame.split(":")
    return ["Traceback (most recent call last):",
            f'  File "/opt/venv/lib/python3.12/site-packages/vllm/{path}", line 300, in {func}',
            "    outputs = self.model_executor.execute_model(",
            "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def test_a_frame_only_v0s_engine_runs_puts_the_method_on_v0(tmp_path: Path) -> None:
    """V1 fell back to V0 for the run (0.8-0.9.2): its traceback goes through V0's engine
    (rules/paths/vllm_v0.toml engine_frame), so EAGLE drafted through MultiStepWorker."""
    for i, frame in enumerate(("engine/llm_engine.py:step", "engine/async_llm_engine.py:engine_step",
                               "worker/model_runner.py:execute_model")):
        path = _path(tmp_path, str(i), [*_cmd("eagle"), *_v0_frames(frame)])
        assert_verdict(path, "other", "MultiStepWorker")


def test_a_v0_engine_frame_for_a_method_v0_never_ran_decides_nothing(tmp_path: Path) -> None:
    path = _path(tmp_path, "a", [*_cmd("eagle3"), *_v0_frames("engine/llm_engine.py:step")])
    assert path.worker_class is None


def test_a_frame_that_hands_a_run_to_v1_keeps_v1s_class(tmp_path: Path) -> None:
    """``from_engine_args`` of V0's files handed V1 runs to V1's engine (0.7-0.10)."""
    lines = [*_cmd("eagle"), *_v0_frames("engine/llm_engine.py:from_engine_args")]
    assert_verdict(_path(tmp_path, "a", lines), "other", "EagleProposer")
