"""Engine configuration and SGLang's server-args resolution (which worker really runs, and why)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from spectrace_engine.faults import Fault

SPEC_ALGORITHMS = ("EAGLE", "EAGLE3")
MODELS = ("tiny", "tiny-hi-entropy", "smollm2", "synth-1b", "synth-3b")  # synth: random

# Verbatim SGLang 0.5.7-0.5.10 texts (LOG_FORMATS.md 1.4-1.5); printed bare, before logging is set up.
WARN_MAX_RUNNING = (
    "Max running requests is reset to 48 for speculative decoding. You can override this by "
    "explicitly setting --max-running-requests."
)
WARN_SPEC_V2_ON = (
    "Spec v2 is enabled for eagle/eagle3 speculative decoding and overlap schedule is turned on."
)
WARN_OVERLAP_OFF = (
    "Overlap scheduler is disabled when spec v2 is off or using unsupported speculative algorithm. "
    "You can set env SGLANG_ENABLE_SPEC_V2=True to enable the experimental overlap scheduler. "
)
WARN_MIXED_CHUNK = "Mixed chunked prefill is disabled because of using eagle speculative decoding."
WARN_DRAFT_TOKENS = (
    "speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when "
    "speculative_eagle_topk == 1"
)
ERR_V2_TOPK = "Spec v2 currently only supports topk = 1 for speculative decoding."


@dataclass(frozen=True, slots=True)
class SpecConfig:
    """Speculation knobs under SGLang's names; ``algorithm=None`` is plain decoding."""

    algorithm: str | None = "EAGLE"
    num_steps: int = 3
    eagle_topk: int = 1
    num_draft_tokens: int = 4
    disable_batch_threshold: int | None = None  # the story's patch flag
    hysteresis_steps: int = 4  # consecutive decode steps at or below the threshold to re-enable
    # sampling verify only: < 1.0 accepts more drafts than the target would (lossy, SGLang's knobs)
    accept_threshold_single: float = 1.0
    accept_threshold_acc: float = 1.0
    # load studies on random weights: mean emitted tokens per verify, drawn (kernels/verify_simulated)
    simulate_accept_len: float | None = None

    @property
    def enabled(self) -> bool:
        return self.algorithm is not None


SAMPLING_EPS = 1e-6  # SGLang's _SAMPLING_EPS: a smaller temperature means greedy


@dataclass(frozen=True, slots=True)
class SamplingParams:
    """The run's sampling params under SGLang's names; temperature 0 (or top_k 1) is greedy."""

    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = -1  # -1: the whole vocabulary, as in SGLang

    @property
    def greedy(self) -> bool:
        return self.temperature < SAMPLING_EPS or self.top_k == 1

    def problems(self) -> list[str]:
        out = []
        if not self.temperature >= 0.0:
            out.append(f"--temperature must be >= 0, got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            out.append(f"--top-p must be in (0, 1], got {self.top_p}")
        if self.top_k == 0 or self.top_k < -1:
            out.append(f"--top-k must be -1 (off) or >= 1, got {self.top_k}")
        return out

    def preferred_json(self) -> str | None:
        """SGLang's ``preferred_sampling_params`` (a JSON string); None keeps the greedy default."""
        if self == SamplingParams():
            return None
        return json.dumps(
            {"temperature": self.temperature, "top_p": self.top_p, "top_k": self.top_k}
        )


@dataclass(frozen=True, slots=True)
class FaultConfig:
    faults: frozenset[Fault] = frozenset()
    fault_step: int = 6  # decode step at which one-shot faults (nan_logits, hang) fire
    hang_s: float = 45.0  # how long hang_before_collective blocks its rank

    def on(self, fault: Fault) -> bool:
        return fault in self.faults


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """Everything a run needs; ``resolve`` applies SGLang's forcing rules before use."""

    model: str = "tiny"
    device: str = "cpu"
    dtype: str = "float32"
    tp_size: int = 1
    enable_spec_v2: bool = False  # SGLANG_ENABLE_SPEC_V2 (``--worker v2``)
    disable_overlap_schedule: bool = False  # --disable-overlap-schedule (forced on for spec v1)
    max_prefill_tokens: int = 16384  # prompt tokens one prefill batch admits (at least one request)
    disable_cuda_graph: bool = False
    cuda_graph_bs: tuple[int, ...] = ()  # () = 1, 2, 4, 8, then every 8 up to max_running
    max_running_requests: int | None = None
    max_total_tokens: int | None = None  # KV pool tokens; None: every slot's full context
    max_seq_len: int = 384  # KV columns per request slot (context + draft scratch)
    decode_log_interval: int = 10
    verify_backend: str = "auto"  # "auto" (triton on CUDA, torch on CPU) | "torch" | "triton"
    verify_in_graph: bool = True  # verify captured in the target's verify graph (CUDA graphs)
    seed: int = 0
    cpu_threads: int = 1  # intra-op threads on CPU; 1 avoids spin-waits on a shared machine
    dist_timeout_s: float = 20.0
    spec: SpecConfig = field(default_factory=SpecConfig)
    faults: FaultConfig = field(default_factory=FaultConfig)
    sampling: SamplingParams = field(default_factory=SamplingParams)

    @property
    def worker(self) -> str:
        """'v2' (EAGLEWorkerV2), 'v1' (EAGLEWorker) or 'none' (TpModelWorker alone), as SGLang's
        create_worker picks from the resolved flags: v2 exactly when the overlap scheduler is on."""
        if not self.spec.enabled:
            return "none"
        return "v1" if self.disable_overlap_schedule else "v2"

    @property
    def worker_class(self) -> str:
        return {"v1": "EAGLEWorker", "v2": "EAGLEWorkerV2", "none": "TpModelWorker"}[self.worker]

    @property
    def graph_bs(self) -> tuple[int, ...]:
        """Capture sizes, sorted ascending, covering max_running_requests."""
        if self.cuda_graph_bs:
            return tuple(sorted(set(self.cuda_graph_bs)))
        top = self.max_running_requests or 48
        sizes = [b for b in (1, 2, 4, 8) if b < top] + list(range(8, top + 8, 8))
        return tuple(sorted({min(b, top) for b in sizes}))

    def validate(self) -> list[str]:
        """Problems a user must fix, one sentence each; empty when the config can run."""
        s, out = self.spec, []
        if self.model not in MODELS:
            out.append(f"unknown model {self.model!r} (choose from {', '.join(MODELS)})")
        if self.device not in ("cpu", "cuda"):
            out.append(f"unknown device {self.device!r} (cpu or cuda)")
        if self.dtype not in ("float32", "bfloat16", "float16"):
            out.append(f"unknown dtype {self.dtype!r} (float32, bfloat16 or float16)")
        if self.verify_backend not in ("auto", "torch", "triton"):
            out.append(
                f"--verify-backend must be auto, torch or triton, got {self.verify_backend!r}"
            )
        if self.tp_size < 1:
            out.append("--tp must be at least 1")
        out += self.sampling.problems()
        if s.enabled:
            if s.algorithm not in SPEC_ALGORITHMS:
                out.append(f"unknown --speculative-algorithm {s.algorithm!r} (EAGLE, EAGLE3, NONE)")
            if s.num_steps < 1 or s.eagle_topk < 1 or s.num_draft_tokens < 2:
                out.append("speculative steps and topk must be >= 1, num_draft_tokens >= 2")
            elif s.num_draft_tokens - 1 > s.eagle_topk + (s.num_steps - 1) * s.eagle_topk**2:
                out.append(
                    f"--speculative-num-draft-tokens {s.num_draft_tokens} exceeds the "
                    f"{s.eagle_topk + (s.num_steps - 1) * s.eagle_topk**2} candidates + root of "
                    f"topk {s.eagle_topk} x steps {s.num_steps}"
                )
            if (
                self.worker == "v2"
                and s.eagle_topk > 1
                and not self.faults.on(Fault.V2_ALLOW_TOPK_GT1)
            ):
                out.append(ERR_V2_TOPK + " (use --worker v1, or --fault v2_allow_topk_gt1)")
        if not (0.0 <= s.accept_threshold_single <= 1.0 and 0.0 < s.accept_threshold_acc <= 1.0):
            out.append("--speculative-accept-threshold-single must be in [0, 1], -acc in (0, 1]")
        out += self.simulation_problems()
        if s.disable_batch_threshold is not None and s.disable_batch_threshold < 1:
            out.append("--speculative-disable-batch-threshold must be at least 1")
        if self.max_total_tokens is not None and self.max_total_tokens < 1:
            out.append("--max-total-tokens must be at least 1")
        if self.max_running_requests is not None and self.max_running_requests > max(self.graph_bs):
            out.append("--max-running-requests exceeds the largest --cuda-graph-bs")
        return out

    def simulation_problems(self) -> list[str]:
        m, s = self.spec.simulate_accept_len, self.spec
        if m is None:
            return []
        if not s.enabled:
            return ["--simulate-accept-len needs speculative decoding"]
        if not 1.0 <= m <= s.num_steps + 1:
            return [f"--simulate-accept-len must be in [1, {s.num_steps + 1}] (steps + 1), got {m}"]
        if not self.sampling.greedy:
            return ["--simulate-accept-len runs greedy verifies: drop --temperature"]
        return []


def resolve(cfg: EngineConfig) -> tuple[EngineConfig, list[str]]:
    """SGLang 0.5.7-0.5.10 ``_handle_speculative_decoding``: forced values + the bare warnings.

    Spec v2 (SGLANG_ENABLE_SPEC_V2) keeps the overlap scheduler on unless it was disabled on the
    command line; without it speculation forces the overlap scheduler off (v1). A plain server
    keeps the overlap scheduler as given. ``--verify-backend auto`` becomes Triton on CUDA (the
    compiled kernels) and the torch reference on CPU (Triton there only interprets)."""
    if cfg.verify_backend == "auto":
        cfg = replace(cfg, verify_backend="triton" if cfg.device == "cuda" else "torch")
    s, warnings = cfg.spec, []
    if not s.enabled:
        return cfg, warnings
    if cfg.max_running_requests is None:
        cfg = replace(cfg, max_running_requests=48)
        warnings.append(WARN_MAX_RUNNING)
    if cfg.enable_spec_v2 and not cfg.disable_overlap_schedule:
        warnings.append(WARN_SPEC_V2_ON)
    else:
        cfg = replace(cfg, disable_overlap_schedule=True)
        warnings.append(WARN_OVERLAP_OFF)
    warnings.append(WARN_MIXED_CHUNK)
    if s.eagle_topk == 1 and s.num_draft_tokens != s.num_steps + 1:
        warnings.append(WARN_DRAFT_TOKENS)
        cfg = replace(cfg, spec=replace(s, num_draft_tokens=s.num_steps + 1))
    return cfg, warnings
