"""A vLLM platform plugin that builds its own proposer for a method (ArcticInference:
``arctic`` -> ArcticProposer; round 14): the plugin's class from its [[method]] rows, decided at
the method's line, and a title naming the plugin's method in its own thread."""

from __future__ import annotations

from pathlib import Path

from asm_helpers import collect_config as collect
from real_logs_helpers import roots, run

from spectrace.linker import global_worker_path

SERVE = ("vllm serve org/m --speculative_config \"{\\\"method\\\": \\\"arctic\\\", "
         "\\\"model\\\": \\\"org/lstm\\\", \\\"num_speculative_tokens\\\": 3}\"")  # fmt: skip


def test_the_plugins_method_names_its_own_class() -> None:
    path = global_worker_path(collect("pip install arctic-inference[vllm]", SERVE))
    assert (path.value, path.worker_class, path.framework) == ("other", "ArcticProposer",
                                                               "arctic_inference")  # fmt: skip
    assert path.evidence[0].lineno == 2


def test_the_same_method_without_the_plugin_names_no_class() -> None:
    assert global_worker_path(collect(SERVE)).worker_class is None


def test_a_title_naming_the_plugins_speculator_in_its_thread(tmp_path: Path) -> None:
    lines = ["snowflakedb/ArcticInference · issue #7 · open",
             "# Arctic LSTM Speculator stops at long prompts", "Traceback (most recent call last):",
             '  File "/py/vllm/v1/executor/multiproc_executor.py", line 500, in worker_busy_loop',
             "RuntimeError: worker died"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    assert crash.worker_path.worker_class == "ArcticProposer"
