"""A fork's copy of a framework's files is the fork's code (session 15, PLUG).

Aphrodite ships vLLM's V0 ``spec_decode/`` files under ``aphrodite/``, sglang-jax SGLang's
``srt/speculative/`` under ``sgl_jax/``: a frame in those files matches no vLLM or SGLang row
(rules/paths/forks.toml), so the crash is never linked to vLLM's or SGLang's worker. A checkout
of the framework itself inside a folder named like a fork stays the framework's.
"""

from __future__ import annotations

from pathlib import Path

from tests.real_logs_helpers import crash_path, run


def _crash(file: str, function: str) -> list[str]:
    return ["Traceback (most recent call last):",
            f'  File "{file}", line 402, in {function}',
            "    outputs = self._run_step(batch)",
            "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip


def _thread(repo: str, title: str, body: list[str]) -> list[str]:
    return [f"{repo} · issue #812 · open · Python", f"# {title}", "",
            "user-q · description · 2025-01-20", "```", *body, "```"]  # fmt: skip


def test_aphrodite_copy_of_the_v0_draft_worker_is_no_vllm_worker(tmp_path: Path) -> None:
    lines = _thread("aphrodite-engine/aphrodite-engine", "draft model speculation crashes",
                    _crash("/opt/venv/lib/python3.11/site-packages/aphrodite/spec_decode/"
                           "multi_step_worker.py", "sampler_output"))  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class not in ("MultiStepWorker", "SpecDecodeWorker"), path
    assert path.framework != "vllm", path


def test_sglang_jax_copy_of_the_eagle_worker_is_no_sglang_worker(tmp_path: Path) -> None:
    lines = _thread("sgl-project/sglang-jax", "EAGLE3 accept length collapses on v6e",
                    _crash("/home/u/sglang-jax/python/sgl_jax/srt/speculative/eagle_worker.py",
                           "forward_batch_generation"))  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class not in ("EAGLEWorker", "EAGLEWorkerV2"), path


def test_vllm_checkout_in_a_fork_named_folder_stays_vllm(tmp_path: Path) -> None:
    """Must still decide: the nearest package to the file is vLLM's own."""
    lines = _thread("vllm-project/vllm", "[Bug]: ngram spec decode crash on 0.6.3",
                    _crash("/home/aphrodite/src/vllm/vllm/spec_decode/spec_decode_worker.py",
                           "execute_model"))  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "SpecDecodeWorker"), path
