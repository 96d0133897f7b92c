"""What a log says about how its server ran: flags with the lines that set them, the evidence
for a worker path, one RunConfig per run.

The model the collector (config.py) fills and the linker, reports and TUI read; kept apart so
that those readers need none of the collector's parsers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

MAX_TEXT = 400  # evidence text is shown in one row


@dataclass(frozen=True, slots=True)
class Evidence:
    """A log line that proves something, with why it matters."""

    source: str
    lineno: int
    text: str  # the line as printed (trimmed for very long lines)
    reason: str  # "server_args dump has disable_overlap_schedule=True -> v1 (EAGLEWorker)"
    points_to: str | None = None  # "v1" | "v2" | "other" | None when it only informs
    worker_class: str | None = None  # the class this evidence names, when it names one
    condition: str | None = None  # a verdict that hangs on the release: "v2 (...) if sglang >= …"
    family: str | None = None  # the family it names where its class runs several (MTP on EagleProposer)
    # the framework the line places the run on, where its class alone does not tell it
    # (``NGramWorker`` is vLLM V0's and TensorRT-LLM's): a run named only in words
    framework: str | None = None


@dataclass(frozen=True, slots=True)
class FlagValue:
    value: object  # the literal value (bool, int, str, None, list...) or its source text
    source: str
    lineno: int
    origin: str  # "server_args", "vllm_config", "launch_command", "warning", "env"


@dataclass(slots=True)
class RunConfig:
    """What the log says about how the server was configured (one per input group)."""

    flags: dict[str, FlagValue] = field(default_factory=dict)
    path_evidence: list[Evidence] = field(default_factory=list)  # warnings, dump-derived
    engine: str | None = None  # "sglang" | "vllm" | "trtllm" | None
    era: str | None = None  # sglang release range told by a warning, e.g. "0.5.7-0.5.10"
    version: str | None = None  # a version the log prints (vLLM does), if any
    server_args: dict[str, object] = field(default_factory=dict)  # the last full dump
    start: tuple[str, int] | None = None  # (source, lineno) of this run's start-up line
    start_ts: datetime | None = None  # when that line was written, if it says
    runs: tuple[RunConfig, ...] = ()  # one per start-up when the input holds several runs
    posts: tuple[PostRun, ...] = ()  # one per post of a thread of two posts or more


# flag set on the config of a crash pasted in another writer's post than the reporter's: its
# value's line is that post's header (words before it are the reporter's run)
OTHER_WRITER = "other_writer_post"


@dataclass(frozen=True, slots=True)
class PostRun:
    """The config a crash pasted in one post of a saved thread reads (config_posts, run_select)."""

    source: str
    lineno: int  # the post's header line; the post runs to the next header
    config: RunConfig
    reporter: bool = True  # written by the thread's reporter, or the reporter is not shown


# Shapes under DP attention: attention TP = tp_size / dp_size; shown only while DP is on.
DP_FLAGS: tuple[str, ...] = ("enable_dp_attention", "dp_size", "moe_dense_tp_size", "ep_size")
# The flags that decide (or explain) the speculative worker path, in display order.
DECISIVE_FLAGS: tuple[str, ...] = (
    "speculative_algorithm",
    "disable_overlap_schedule",
    "SGLANG_ENABLE_SPEC_V2",
    "speculative_eagle_topk",
    "speculative_num_steps",
    "speculative_num_draft_tokens",
    "speculative_disable_batch_threshold",
    "enable_multi_layer_eagle",
    "tp_size",
    *DP_FLAGS,
    "cuda_graph_max_bs",
    "cuda_graph_bs",
    "speculative_config.method",
    "speculative_config.num_spec_tokens",
    "speculative_config.one_model",
)


def trim(text: str) -> str:
    """Evidence text is shown in one row: keep very long lines readable."""
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"
