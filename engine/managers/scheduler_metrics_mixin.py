"""SchedulerMetricsMixin: the step events and the ``Decode batch`` lines (SGLang keeps its
scheduler's stats logging in a mixin of the same name)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from spectrace_engine.observe.logs import DecodeStats, decode_batch_line

if TYPE_CHECKING:
    from spectrace_engine.managers.scheduler import InFlight


@dataclass(slots=True)
class Totals:
    steps: int = 0
    spec_steps: int = 0
    accepted: int = 0
    verifies: int = 0
    tokens_out: int = 0


class SchedulerMetricsMixin:
    """Counts steps and tokens, emits step events, writes the stats lines (rank 0)."""

    totals: Totals
    stats: DecodeStats
    last_graph: bool
    running: Any
    waiting: list
    pool: Any
    log: Any
    events: Any
    model_worker: Any

    def record_step(self, flight: InFlight, accepted: list[int] | None) -> None:
        bs, out = flight.bs, flight.result
        self.totals.steps += 1
        emitted = [a + 1 for a in accepted] if accepted is not None else None
        made = sum(emitted) if emitted is not None else bs
        self.totals.tokens_out += made
        self.stats.steps += 1
        self.stats.tokens_out += made
        if accepted is not None:
            self.totals.spec_steps += 1
            self.totals.verifies += bs
            self.totals.accepted += sum(accepted)
            self.stats.spec_verifies += bs
            self.stats.spec_accepted += sum(accepted)
        self.last_graph = out.info.graph == "replay"  # a real CUDA graph, never the emulation
        self.events.emit(
            "step",
            step=flight.step,
            launch_ns=flight.launch_ns,
            mode=out.mode,
            spec_enabled=flight.context["spec_enabled"],
            bs=bs,
            padded_bs=out.info.padded_bs,
            rows=out.info.rows,
            rows_expected=flight.context["rows_expected"],
            graph=out.info.graph,
            graph_key=out.info.graph_key,
            phases=out.phases,
            phases_gpu=out.gpu_phases or None,
            spec_info=out.spec_shapes,
            accepted=accepted,
            emitted=emitted,
            num_draft_tokens=self.model_worker.n_draft,
            emitted_total=made,
            host_syncs=out.host_syncs,
            resolve_syncs=out.resolve_syncs,
            dirty_rows=out.info.dirty_rows,
            verify_in_graph=out.info.epilogue,
        )

    # --- stats lines -------------------------------------------------------------------------------
    def used_tokens(self) -> int:
        """SGLang's ``num_used``: the pool's tokens not on the allocator's free list."""
        return self.pool.capacity_tokens - self.pool.allocator.available_size()

    def usage(self) -> float:
        return self.used_tokens() / self.pool.capacity_tokens

    def log_decode_batch(self) -> None:
        st = self.stats
        elapsed = max(time.perf_counter() - st.t_start, 1e-9)
        running = self.running.batch_size()
        tokens = self.used_tokens()
        thr = st.tokens_out / elapsed
        if self.log.tp_rank == 0:
            self.log.info(
                decode_batch_line(
                    running,
                    tokens,
                    self.usage(),
                    st,
                    self.model_worker.n_draft,
                    self.last_graph,
                    thr,
                    len(self.waiting),
                )
            )
        emitted = st.spec_accepted + st.spec_verifies
        self.events.emit(
            "decode_log",
            running_req=running,
            tokens=tokens,
            accept_len=emitted / st.spec_verifies if st.spec_verifies else None,
            gen_throughput=round(thr, 2),
            queue_req=len(self.waiting),
            spec_enabled=self.spec.enabled,
        )
        self.stats = DecodeStats(t_start=time.perf_counter())
