"""Ports of SGLang with its flags (the JAX/TPU port's ``sgl_jax.launch_server``, filed on
``sgl-project/sglang-jax``): their runs name no SGLang worker, however the interpreter is called
(``python3 -u -m``, ``python -X faulthandler -m``) and whatever the title's algorithm is."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run

from spectrace.assemblers.launch_words import foreign_entry
from spectrace.assemblers.sglang_version import about_sglang

JAX_CRASH = ["Traceback (most recent call last):",
             '  File "/opt/venv/lib/python3.12/site-packages/sgl_jax/srt/managers/scheduler.py", '
             "line 640, in run_batch",
             "    out = self.model_worker.forward_batch_generation(batch)",
             "ValueError: draft tokens exceed the page table"]  # fmt: skip


@pytest.mark.parametrize(
    "command",
    ["python3 -u -m sgl_jax.launch_server --model-path Qwen/Qwen3-32B --speculative-algorithm "
     "EAGLE --speculative-num-steps 2 --tp-size 8",
     "python -X faulthandler -m sgl_jax.launch_server --model-path m --speculative-algorithm NGRAM",
     "python3 -O -m tokenspeed.launch_server --model m --speculative-algorithm EAGLE3"],
)
def test_a_port_launched_with_interpreter_options_is_another_engine(command: str) -> None:
    assert foreign_entry(command)


@pytest.mark.parametrize(
    "command",
    ["python3 -u -m sglang.launch_server --model-path m --speculative-algorithm EAGLE",
     "python -X faulthandler -m sglang.launch_server --model-path m",
     "python3 -u -m dynamo.trtllm --model-path m"],
)
def test_sglangs_own_modules_stay_its_own_with_interpreter_options(command: str) -> None:
    assert not foreign_entry(command)


def test_the_ports_repository_is_not_about_sglang() -> None:
    assert not about_sglang("sgl-project/sglang-jax · issue #2201 · open · Python")
    assert about_sglang("sgl-project/sglang · issue #2201 · open · Python")
    assert about_sglang("head: someone:fix-eagle -> sgl-project:main")


@pytest.mark.parametrize(
    "launch",
    ["python3 -u -m sgl_jax.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
     "--speculative-algorithm EAGLE --speculative-draft-model-path org/eagle-llama3 --tp-size 4",
     "(no command shown: the TPU pod runs our default config)"],
)
def test_an_issue_on_the_jax_ports_tracker_names_no_sglang_worker(
    tmp_path: Path, launch: str
) -> None:
    """The title's EAGLE is the port's: no SGLang worker, no SGLang era condition."""
    lines = ["sgl-project/sglang-jax · issue #2201 · open · Python",
             "# [Bug] EAGLE speculative decoding hangs on TPU v5p after warmup",
             "tpu-user · description · 2026-02-10", launch, *JAX_CRASH]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and path.conditional is None, path
