"""A vLLM speculative run that names no method, placed on V0 by its traceback or by what the
writer measured (issue 11, round 38 25 and 37's shapes).

V0 ran every speculative method through ``SpecDecodeWorker``. A traceback through a function
only V0's engine runs (``AsyncLLMEngine.__init__``, V0's ``Worker.determine_num_available_blocks``;
rules/paths/vllm_v0.toml ``engine_frame``) under a vLLM title about speculative decoding
ran it on any release, even with no day in the text and the title a question. A writer who
measured what only speculation has ("I tested the accept length with typical acceptance
sampling") on a day before any V1 code shipped (0.6.4) ran it too. Never for the hand-over methods V1 runs
pass through (``from_engine_args``), beside a ``vllm/v1/`` frame, under a wish, for a title
not about speculation, on a day V1 may have run, or for a plan.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread

_SITE = "/home/ivy/venv/lib/python3.10/site-packages/vllm"


def _undated(title: str, *post: str, repo: str = VLLM_REPO) -> list[str]:
    """A thread whose excerpt lost its day: header, labels, title, a continued turn."""
    return [f"{repo} · issue #777 · closed · Python", "labels: usage", f"# {title}", "",
            "[turn 0 by ivy, continued]", *post]  # fmt: skip


def _frame(prefix: str, path: str, line: int, func: str, code: str) -> list[str]:
    return [f'{prefix}  File "{_SITE}/{path}", line {line}, in {func}', f"{prefix}    {code}"]


_ASYNC_INIT = [  # V0's AsyncLLMEngine built by from_engine_args, under torchrun's rank prefix
    "[rank0]: Traceback (most recent call last):",
    *_frame("[rank0]: ", "engine/async_llm_engine.py", 691, "from_engine_args", "engine = cls("),
    *_frame("[rank0]: ", "engine/async_llm_engine.py", 578, "__init__",
            "self.engine = self._engine_class(*args, **kwargs)"),
    "[rank0]: RuntimeError: shapes do not match",
]  # fmt: skip
_WORKER_PROFILE = [  # V0's GPU worker profiling the KV cache
    "Traceback (most recent call last):",
    *_frame("", "worker/worker.py", 229, "determine_num_available_blocks", "self.model_runner.profile_run()"),
    *_frame("", "worker/model_runner.py", 1331, "profile_run", "self.execute_model(model_input, kv_caches)"),
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
]  # fmt: skip
_ENGINE_STEP = [  # V0's LLMEngine stepping
    "Traceback (most recent call last):",
    *_frame("", "engine/llm_engine.py", 1386, "step", "outputs = self.model_executor.execute_model("),
    "IndexError: index 4096 is out of bounds for dimension 0 with size 4096",
]  # fmt: skip
_MP_ENGINE = [  # V0's engine process behind the OpenAI server
    "Process SpawnProcess-1:", "Traceback (most recent call last):",
    *_frame("", "engine/multiprocessing/engine.py", 390, "run_mp_engine", "engine = MQLLMEngine.from_engine_args("),
    "ValueError: the draft and target vocab sizes differ",
]  # fmt: skip
_HANDOVER = [  # only the class method that hands a V1 run to V1's engine
    "Traceback (most recent call last):",
    *_frame("", "engine/async_llm_engine.py", 640, "from_engine_args", "return async_engine_cls.from_vllm_config("),
    "RuntimeError: Engine core initialization failed.",
]  # fmt: skip
_WITH_V1 = [
    *_ASYNC_INIT[:-1],
    '[rank0]:   File "/srv/vllm/vllm/v1/worker/gpu_model_runner.py", line 1500, in execute_model',
    "[rank0]:     logits = self.model(",
    _ASYNC_INIT[-1],
]

CASES = {
    "a question title over AsyncLLMEngine.__init__, no day -> SpecDecodeWorker": (_undated(
        "[Usage]: Does speculative decoding support pipeline parallelism ?", "```shell",
        *_ASYNC_INIT, "```"), "SpecDecodeWorker"),
    "a bug title over V0's worker profiling, no day -> SpecDecodeWorker": (_undated(
        "[Bug]: OOM at start-up with speculative decoding", *_WORKER_PROFILE), "SpecDecodeWorker"),
    "an ngram title over LLMEngine.step -> NGramWorker": (_undated(
        "[Bug]: ngram speculative decoding dies after a few requests", *_ENGINE_STEP), "NGramWorker"),
    "a server title over V0's engine process -> SpecDecodeWorker": (_undated(
        "[Bug]: OpenAI server with speculative decoding exits at start-up", *_MP_ENGINE),
     "SpecDecodeWorker"),
    "a 2024 writer who tested the accept length with typical acceptance -> SpecDecodeWorker": (thread(
        VLLM_REPO, "[Performance]: the accept rate of typical acceptance sampling", "2024-09-02",
        "I tested the `accept length` (tokens per step) with`typical acceptance sampling`.",
        "It is smaller than with the default rejection sampler.", labels="performance"),
     "SpecDecodeWorker"),
    "a 2024 writer who benchmarked the acceptance length -> SpecDecodeWorker": (thread(
        VLLM_REPO, "[Misc]: temperature and acceptance", "2024-07-11",
        "We benchmarked the acceptance length at temperature 0.7 and 0: 2.1 and 2.6 tokens per step.",
        labels="misc"), "SpecDecodeWorker"),
}  # fmt: skip


def _probed(lines: list[str]) -> list[str]:
    """``lines`` with the probe crash where they hold no traceback of their own."""
    return lines if any("Traceback" in ln for ln in lines) else [*lines, "", *PROBE_CRASH]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_v0_run_without_a_method_names_the_v0_worker(tmp_path: Path, name: str) -> None:
    lines, cls = CASES[name]
    path = crash_path(run(tmp_path, _probed(lines), name="thread.md"))
    assert (path.value, path.worker_class) == ("other", cls), path


_V0 = ("SpecDecodeWorker", "MultiStepWorker", "NGramWorker", "MLPSpeculatorWorker")
NEVER = {
    "only from_engine_args, which handed V1 runs over, no day": _undated(
        "[Usage]: Does speculative decoding support pipeline parallelism ?", *_HANDOVER),
    "V0's engine frame beside a vllm/v1/ frame": _undated(
        "[Bug]: speculative decoding crash", *_WITH_V1),
    "a feature request over V0's engine frame": _undated(
        "[Feature]: speculative decoding with pipeline parallelism", *_ASYNC_INIT),
    "V0's engine frame with a stated release after V0's spec_decode/": _undated(
        "[Bug]: speculative decoding crash", "vllm==0.10.1", *_ENGINE_STEP),
    "a title not about speculation over V0's engine frame": _undated(
        "[Bug]: OOM at start-up", *_WORKER_PROFILE),
    "V0's engine frame on SGLang's tracker": _undated(
        "[Bug] speculative decoding OOM", *_WORKER_PROFILE, repo="sgl-project/sglang"),
    "a writer's measured acceptance on a day V1 may have run": thread(
        VLLM_REPO, "[Performance]: typical acceptance", "2025-06-02",
        "I tested the acceptance rate with typical acceptance sampling.", labels="performance"),
    # V1 was opt-in then, but could speculate only from a build of main after 0.7.2 was out
    "a writer's run on a day V1 could speculate (a build of main), no release": thread(
        VLLM_REPO, "[Usage]: latency with a draft", "2025-02-12",
        "We tested speculative decoding with a 1B draft model: p50 went from 41 ms to 30 ms.",
        labels="usage"),
    "a plan to measure the acceptance rate in 2024": thread(
        VLLM_REPO, "[Misc]: acceptance", "2024-07-11",
        "We will measure the acceptance length at temperature 0.7 next week.", labels="misc"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_no_v0_worker_where_v0_is_not_shown(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, _probed(NEVER[name]), name="thread.md"))
    assert path.worker_class not in _V0, path
