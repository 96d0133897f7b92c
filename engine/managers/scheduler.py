"""Scheduler: continuous batching, SGLang's two event loops, and dynamic speculation disable.

Each iteration: receive arrivals, admit and prefill them, decide speculation for the decode batch,
``run_batch`` one decode step, ``process_batch_result`` (tokens, events, retired requests).
``event_loop_normal`` processes each step at once; ``event_loop_overlap`` launches step n before
it processes step n-1, so the host's bookkeeping runs while the device computes (a toggle, or a
step whose layout needs the host state, drains first). Speculation turns off as soon as the
decode batch exceeds ``--speculative-disable-batch-threshold`` and back on after
``hysteresis_steps`` consecutive plain steps at or below it: spec -> plain runs the batch's
``clear_for_nonspec``, plain -> spec catches the draft KV up on every token it missed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from spectrace_engine.faults import Fault
from spectrace_engine.managers.io_struct import RequestSource
from spectrace_engine.managers.schedule_batch import Req, ScheduleBatch, alloc_for_extend
from spectrace_engine.managers.schedule_policy import (
    SpecController,
    TokenBudget,
    admit,
    clip_max_new_tokens,
    retract_decode,
)
from spectrace_engine.managers.scheduler_metrics_mixin import SchedulerMetricsMixin, Totals
from spectrace_engine.managers.tp_worker import NAN_MESSAGE, GenerationBatchResult
from spectrace_engine.observe.events import EventWriter
from spectrace_engine.observe.latency import LatencyBook
from spectrace_engine.observe.logs import DecodeStats, EngineLog, prefill_batch_line
from spectrace_engine.server_args import EngineConfig
from spectrace_engine.speculative.spec_info import SpeculativeAlgorithm


@dataclass(slots=True)
class InFlight:
    """A launched decode step: the requests it ran on and what the worker returned."""

    reqs: list[Req]
    bs: int
    result: GenerationBatchResult
    step: int
    context: dict[str, Any]
    launch_ns: int  # wall clock when the step was launched (the trace lays its phases from it)


class Scheduler(SchedulerMetricsMixin):
    """Owns the queues and the running batch; the model worker does the forwards."""

    def __init__(
        self,
        cfg: EngineConfig,
        model_worker: Any,
        log: EngineLog,
        events: EventWriter,
        source: RequestSource,
        progress: Any = None,
    ) -> None:
        self.cfg, self.model_worker, self.log, self.events = cfg, model_worker, log, events
        self.source, self.progress = source, progress
        self.pool, self.syncs = model_worker.pool, model_worker.syncs
        s = cfg.spec
        hyst = 0 if cfg.faults.on(Fault.NO_HYSTERESIS) else s.hysteresis_steps
        threshold = s.disable_batch_threshold if s.enabled else None  # NONE never speculates
        self.spec = SpecController(s.enabled, threshold, hyst)
        self.algorithm = SpeculativeAlgorithm.from_string(s.algorithm)
        self.running = ScheduleBatch([], model_worker.device, self.pool)
        alloc_ahead = max(s.num_steps * s.eagle_topk, s.num_draft_tokens)  # SGLang's per decode
        self.running.alloc_len_per_decode = alloc_ahead if cfg.worker == "v2" else 0
        self.budget = TokenBudget(1 if cfg.worker == "none" else s.num_draft_tokens + alloc_ahead)
        self.waiting: list[Req] = []
        self.it = 0
        self.totals = Totals()
        self.stats = DecodeStats(t_start=time.perf_counter())
        self.context: dict[str, Any] = {}  # what the step was doing, for the error event
        self.last_graph = False
        self.launched = 0  # decode steps started (overlap: one more than processed)
        self.pending: InFlight | None = None  # overlap: the step the device is computing
        self.latency = LatencyBook()  # per-request wall times (arrival, first token, finish)
        self.syncs.clock.restart()  # host time per step counts from here

    # --- loops (SGLang's names: the traceback shows which path ran) -----------------------------
    def event_loop_normal(self) -> None:
        while not self.source.done():
            self.iteration(overlap=False)

    def event_loop_overlap(self) -> None:
        while not self.source.done():
            self.iteration(overlap=True)
        self.drain()

    def iteration(self, overlap: bool) -> None:
        arrived = self.source.arrivals(self.it)
        max_req_len = min(self.cfg.max_seq_len, self.pool.capacity_tokens) - 1
        for r in arrived:
            self.latency.arrive(r.rid)
            clip_max_new_tokens(r, max_req_len)
        self.waiting.extend(arrived)
        new = self.get_new_batch_prefill()
        if new:
            self.run_prefill(new)
        if not self.running.is_empty():
            self.run_decode(overlap)
        self.it += 1

    # --- admission and prefill -------------------------------------------------------------------
    def get_new_batch_prefill(self) -> list[Req]:
        """Requests to admit: request slots, the KV token budget and max_prefill_tokens."""
        room = (self.cfg.max_running_requests or 48) - self.running.batch_size()
        running = self.running.reqs
        new = admit(
            self.waiting, running, self.pool, self.budget, room, self.cfg.max_prefill_tokens
        )
        self.waiting = self.waiting[len(new) :]
        return new

    def run_prefill(self, new: list[Req]) -> None:
        self.syncs.clock.lap("schedule")  # arrivals and admission
        if self.pending is not None and self.spec.over(self.running.batch_size() + len(new)):
            self.drain()  # the switch-off reads host state the step in flight has not written
        bs_after = self.running.batch_size() + len(new)
        if self.spec.over(bs_after):
            self.switch_off(bs_after)
        self.context = {"phase": "prefill", "bs": len(new)}
        t0, before = time.perf_counter(), self.syncs.n
        alloc_for_extend(self.pool, new)
        batch = self.model_worker.forward_extend(new, spec=self.spec.enabled)
        dt = time.perf_counter() - t0
        for r in new:  # the first tokens are on the host now (read in forward_target_extend)
            self.latency.first_token(r.rid)
        self.running.merge_batch(batch)
        if self.spec.enabled:
            self.running.spec_algorithm = self.algorithm
        tokens = sum(r.kv_len for r in new)
        if self.log.tp_rank == 0:
            self.log.info(
                prefill_batch_line(
                    len(new),
                    tokens,
                    self.usage(),
                    bs_after - len(new),
                    len(self.waiting),
                    tokens / max(dt, 1e-9),
                )
            )
        self.events.emit(
            "prefill",
            rids=[r.rid for r in new],
            bs=len(new),
            tokens=tokens,
            spec=self.spec.enabled,
            t_us=round(dt * 1e6, 1),
            host_syncs=self.syncs.n - before,
        )
        self.retire_finished()  # a re-prefilled request may finish on its prefill's token
        self.syncs.clock.lap("prefill")  # host and device: not a decode step's cost

    # --- speculation on/off ------------------------------------------------------------------------
    def switch_off(self, bs: int) -> None:
        """The decision (the batch turns plain) and its clean-up hook, which the fault skips."""
        batch = self.running
        self.model_worker.remember_for_catch_up(batch)
        batch.spec_algorithm = SpeculativeAlgorithm.NONE
        skipped = self.skipped_cleanup()
        if skipped is None:
            self.batch_cleanup(batch)
        else:
            self.events.emit(
                "fault",
                fault=skipped.value,
                detail="ScheduleBatch.clear_for_nonspec skipped on the switch to plain decode",
                spec_info=_shapes(batch),
            )
        cleanup = skipped is None
        self.spec.enabled, self.spec.below = False, 0
        self.log.info(
            f"Speculative decoding disabled: #running-req: {bs} > "
            f"speculative_disable_batch_threshold: {self.spec.threshold}"
        )
        self.events.emit(
            "spec_toggle",
            **{"from": "spec", "to": "plain"},
            reason="bs>threshold",
            bs=bs,
            threshold=self.spec.threshold,
            consecutive=0,
            cleanup_ran=cleanup,
            draft_kv_policy="catch_up",
            caught_up_tokens=0,
        )

    def skipped_cleanup(self) -> Fault | None:
        """The v1 faults under which the ScheduleBatch keeps its spec_info (story crashes 1, 3)."""
        if self.cfg.worker != "v1":
            return None
        for fault in (Fault.STALE_SPEC_INFO, Fault.CLEAR_MWB_SPEC_INFO):
            if self.cfg.faults.on(fault):
                return fault
        return None

    def batch_cleanup(self, batch: ScheduleBatch) -> None:
        unpack = self.cfg.worker == "v1" and self.cfg.faults.on(Fault.ALLOC_UNPACK)
        if unpack:
            self.events.emit(
                "fault",
                fault=Fault.ALLOC_UNPACK.value,
                detail="clear_for_nonspec unpacks alloc_token_slots(...) without backup_state",
            )
        batch.clear_for_nonspec(unpack_alloc=unpack)

    def switch_on(self, bs: int) -> None:
        batch = self.running
        last_only = self.cfg.faults.on(Fault.SKIP_DRAFT_KV_SYNC)
        missed = sum(r.kv_len - r.draft_len for r in batch.reqs)
        self.context = {"phase": "draft_catch_up", "bs": bs}
        batch.spec_info = self.model_worker.catch_up_draft(batch, last_only=last_only)
        batch.spec_algorithm = self.algorithm
        if last_only:
            self.events.emit(
                "fault",
                fault=Fault.SKIP_DRAFT_KV_SYNC.value,
                detail=f"draft KV not caught up on {missed - bs} positions",
            )
        consecutive = self.spec.below
        self.spec.enabled, self.spec.below = True, 0
        self.log.info(
            f"Speculative decoding re-enabled: #running-req: {bs} <= "
            f"speculative_disable_batch_threshold: {self.spec.threshold} "
            f"for {consecutive} steps"
        )
        self.events.emit(
            "spec_toggle",
            **{"from": "plain", "to": "spec"},
            reason="hysteresis_met",
            bs=bs,
            threshold=self.spec.threshold,
            consecutive=consecutive,
            cleanup_ran=True,
            draft_kv_policy="none" if last_only else "catch_up",
            caught_up_tokens=bs if last_only else missed,
        )

    # --- decode ----------------------------------------------------------------------------------
    def run_decode(self, overlap: bool) -> None:
        self.syncs.clock.lap("schedule")  # arrivals, admission, the loop
        if self.pending is not None and not self.can_run_ahead():
            self.drain()  # a toggle or a switched step needs the host state of the step in flight
        batch = self.running
        self.update_running_batch()
        bs = batch.batch_size()
        if bs == 0:
            return
        if self.spec.over(bs):
            self.switch_off(bs)
        elif self.spec.may_resume(bs):
            self.switch_on(bs)
        clock = self.syncs.clock
        clock.lap("schedule")
        self.model_worker.model_runner.step_no = self.events.step = self.launched
        self.launched += 1
        self.context = self.step_context(batch)
        clock.lap("events")
        batch.prepare_for_decode()
        clock.lap("prepare")
        launch_ns = time.time_ns()
        result = self.run_batch(batch)
        clock.lap("kv")  # the worker lapped its phases; then the batch took its lengths and roots
        flight = InFlight(list(batch.reqs), bs, result, self.launched - 1, self.context, launch_ns)
        if overlap and flight.result.future is not None:
            flight, self.pending = self.pending, flight
            if flight is None:
                return
        self.process_batch_result(flight)

    def update_running_batch(self) -> None:
        """SGLang's decode memory check: retract requests when the next step's tokens do not fit."""
        batch = self.running
        if self.pending is not None and not self.budget.check_decode_mem(batch):
            self.drain()  # the step in flight decides what fits, and writes the rows freed here
        if batch.is_empty():
            return
        if self.budget.check_decode_mem(batch):
            self.budget.decay()
            return
        old = self.budget.new_token_ratio
        retracted, self.budget.new_token_ratio = retract_decode(
            batch, self.budget, self.spec.enabled
        )
        self.log.info(
            f"KV cache pool is full. Retract requests. #retracted_reqs: {len(retracted)}, "
            f"#new_token_ratio: {old:.4f} -> {self.budget.new_token_ratio:.4f}"
        )
        free = self.pool.allocator.available_size()
        self.events.emit(
            "retract", rids=[r.rid for r in retracted], bs=batch.batch_size(), free=free
        )
        self.waiting = retracted + self.waiting

    def can_run_ahead(self) -> bool:
        """Launch before processing only when no toggle is due (plain servers: always)."""
        bs = self.running.batch_size()
        return self.spec.stays_on(bs) or self.spec.stays_off(bs) or not self.cfg.spec.enabled

    def run_batch(self, batch: ScheduleBatch) -> GenerationBatchResult:
        """v1 takes the ScheduleBatch (SGLang's v1 does); the others a ModelWorkerBatch, and the
        scheduler keeps what they return for the next step."""
        cols = batch.seq_lens  # the column each request's decode row writes (before the step)
        if self.cfg.worker == "v1":
            result = self.model_worker.forward_batch_generation(batch)
        else:
            result = self.model_worker.forward_batch_generation(batch.get_model_worker_batch())
        if result.next_token_ids is not None:
            batch.output_ids = result.next_token_ids
        if result.seq_lens is not None:
            batch.seq_lens = result.seq_lens
        if result.next_draft_input is not None:
            batch.spec_info = result.next_draft_input
        if result.target_hidden is not None and self.pool.features is not None:
            self.pool.features.write(batch.req_pool_indices, cols, result.target_hidden)
        return result

    def drain(self) -> None:
        """Process the step in flight (overlap mode), if any."""
        flight, self.pending = self.pending, None
        if flight is not None:
            self.process_batch_result(flight)

    def process_batch_result(self, flight: InFlight) -> None:
        """Host side of a finished step: tokens, events, retired requests, the stats line."""
        self.context = flight.context
        accepted, clock = flight.result.accepted, self.syncs.clock
        if flight.result.future is not None:
            self.context["phase"] = "resolve"
            accepted = self.resolve(flight)
        clock.lap("accept")
        self.record_step(flight, accepted)
        clock.lap("events")
        self.retire_finished()
        clock.lap("kv")
        if self.totals.steps % self.cfg.decode_log_interval == 0:
            self.log_decode_batch()
            clock.lap("logging")

    def resolve(self, flight: InFlight) -> list[int] | None:
        """Read the step's tokens (one host read, counted on the step) and append them."""
        before, future = self.syncs.n, flight.result.future
        if flight.result.mode == "decode":  # one token per request
            tokens, nan = future.resolve_tokens(self.syncs)  # type: ignore[union-attr]
            flight.result.resolve_syncs += self.syncs.n - before
            if nan:
                raise ValueError(NAN_MESSAGE)
            for r, tok in zip(flight.reqs, tokens, strict=True):
                if len(r.output) < r.max_new_tokens:
                    r.output.append(tok)
            return None
        rows, nan = future.resolve(self.syncs)  # type: ignore[union-attr]
        flight.result.resolve_syncs += self.syncs.n - before
        if nan:
            raise ValueError(NAN_MESSAGE)
        accepted = []
        for r, row in zip(flight.reqs, rows, strict=True):
            a, room = row[0], r.max_new_tokens - len(r.output)
            r.output.extend(row[1 : a + 2][:room])
            accepted.append(a)
        return accepted if flight.result.mode == "verify" else None

    def step_context(self, batch: ScheduleBatch) -> dict[str, Any]:
        """Rows the target forward will lay out: bs x N when the batch carries spec_info into
        a runner whose graphs are TARGET_VERIFY, one per request otherwise."""
        bs, n = batch.batch_size(), self.model_worker.n_draft
        carried = batch.spec_info is not None and not self.cfg.faults.on(Fault.CLEAR_MWB_SPEC_INFO)
        coupled = self.spec.enabled or (carried and self.cfg.worker == "v1")
        mode = "verify" if self.spec.enabled else "decode"
        return {
            "phase": mode,
            "mode": mode,
            "step": self.launched - 1,
            "bs": bs,
            "spec_enabled": self.spec.enabled,
            "rows": bs * (n if coupled else 1),
            "rows_expected": bs * (n if self.spec.enabled else 1),
            "spec_info": _shapes(batch),
            "running_req": bs,
            "num_draft_tokens": n,
        }

    def retire_finished(self) -> None:
        batch, room = self.running, self.pool.max_len - self.room_per_step
        # one pass of plain comparisons (this runs every step): output full, or the next step's
        # columns would not fit the row (kv_len + room_per_step > max_len)
        done = [
            i
            for i, r in enumerate(batch.reqs)
            if len(r.output) >= r.max_new_tokens or len(r.prompt) + len(r.output) - 1 > room
        ]
        if done:
            self.retire(done)

    def retire(self, done: list[int]) -> None:
        """Free the finished requests' rows and tokens, report them, filter the batch."""
        batch = self.running
        for i in done:
            r = batch.reqs[i]
            r.finish_step = self.totals.steps
            self.pool.release(r.slot, r.kv_allocated_len)
            self.source.on_finish(r, self.it)
            output_ids = r.output[: r.max_new_tokens]
            lat = self.latency.finish(r.rid, len(output_ids))
            self.events.emit(
                "request_finish",
                rid=r.rid,
                prompt_len=len(r.prompt),
                output_ids=output_ids,
                finish_step=r.finish_step,
                **(lat.fields() if lat is not None else {}),
            )
            if self.progress is not None:
                self.progress(self.source.finished, self.source.total)
        gone = set(done)
        batch.filter_batch([i for i in range(batch.batch_size()) if i not in gone])

    @property
    def room_per_step(self) -> int:
        """Columns a request must have left for the next step's verify/draft rows, times the
        steps that may be in flight (overlap: one more launched)."""
        s = self.cfg.spec
        step = self.model_worker.n_draft + s.num_steps * s.eagle_topk + 2
        return (1 if self.cfg.disable_overlap_schedule else 2) * step


def _shapes(batch: ScheduleBatch) -> dict[str, object] | None:
    return None if batch.spec_info is None else batch.spec_info.shapes()  # type: ignore[union-attr]
