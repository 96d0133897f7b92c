"""Whether a text (or one post of a thread) shows a run of its own: the one definition the
path readers share.

Why: a pull request adding a method, a feature request or a docs page names families and
classes that no run of the text built; only where the text also holds a run's own lines may
its words name that run's path. A run shows by its lines: a launch command, a server_args or
engine-config dump, a vLLM args line, a TensorRT-LLM config, a server warning or capture log
(``RUN_ORIGINS``, the origins of the flags such lines set), the engine's version line, or a
line of a test, serve or benchmark command or its result (``run_line``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spectrace.assemblers.run_config import RunConfig

# origins of flags a run's own lines set (a command, a dump, a config, a server's warning)
RUN_ORIGINS = frozenset({"launch_command", "server_args", "vllm_config", "vllm_args",
                         "trtllm_config", "warning", "capture_log"})  # fmt: skip
# a line showing a run: a test, serve or benchmark command, a result figure
_RUN_LINE = re.compile(
    r"(?i)(?:^|[\s`$])(?:pytest|vllm serve|vllm bench|python3? -m vllm\.|lm_eval|trtllm-serve"
    r"|trtllm-bench|python3? \S*benchmark\S*\.py)\b"
    r"|\b(?:acceptance (?:rate|length)|accept(?:ed)? length|throughput)\b\W{0,4}(?:\w+\W{1,3}){0,3}\s*\d"
    r"|\d\s*(?:tokens?/s|tok/s)\b|\b\d+ passed\b"
)
# What the scan keeps a line for, so that ``run_line`` can see it. Not the words every server
# prints on its own load lines ("gen throughput (token/s)", vLLM's "Avg prompt throughput:
# 0.0 tokens/s"): they would make most lines of a server's log a config line (8x slower
# triage); a benchmark's result keeps its own spelling ("Output token throughput (tok/s):",
# vllm bench's "Throughput: ", trtllm-bench's "(tokens/sec)", bench_one_batch's "12.3 token/s").
RUN_LITERALS = ("pytest", "vllm serve", "vllm bench", "-m vllm.", "lm_eval", "trtllm-serve",
                "trtllm-bench", "benchmark", "cceptance", "ccept length", "tok/s", "req/s",
                "Throughput: ", "/sec)", " passed",
                *(f"{d} token/s" for d in "0123456789"))  # fmt: skip


def run_line(text: str) -> bool:
    """The line shows a run: a test, serve or benchmark command, or a result figure."""
    return _RUN_LINE.search(text) is not None


def shows_run(config: RunConfig, held: Callable[[str, int], bool] | None = None) -> bool:
    """A flag of ``config`` set by a run's own line (within ``held``, where given: one post's
    lines), or, for the whole text, the engine's version line."""
    if held is None and config.version is not None:
        return True
    return any(flag.origin in RUN_ORIGINS and (held is None or held(flag.source, flag.lineno))
               for flag in config.flags.values())  # fmt: skip
