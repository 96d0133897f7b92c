"""Continuous batching plus dynamic speculation disable (threshold + hysteresis) on v1 and v2.

Each iteration: receive arrivals, admit and prefill them, decide speculation for the decode batch,
run one decode step, retire finished requests. Speculation turns off as soon as the decode batch
(running + just admitted) exceeds ``--speculative-disable-batch-threshold`` and back on after
``hysteresis_steps`` consecutive plain steps at or below it. Both transitions do their duty: spec
-> plain clears the batch's spec_info (``clear_for_nonspec``), plain -> spec catches the draft KV
up on every token it missed, so acceptance recovers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from spectrace_engine.bench.load import ClosedLoopLoad
from spectrace_engine.faults import Fault
from spectrace_engine.managers.schedule_batch import Req, ScheduleBatch
from spectrace_engine.managers.tp_worker import StepOutput
from spectrace_engine.observe.events import EventWriter
from spectrace_engine.observe.latency import LatencyBook
from spectrace_engine.observe.logs import (
    DecodeStats,
    EngineLog,
    decode_batch_line,
    graph_word,
    prefill_batch_line,
)
from spectrace_engine.server_args import EngineConfig


@dataclass(slots=True)
class SpecController:
    """The on/off policy; ``below`` counts plain steps at or below the threshold."""

    enabled: bool
    threshold: int | None
    hysteresis: int
    below: int = 0

    def over(self, bs: int) -> bool:
        return self.enabled and self.threshold is not None and bs > self.threshold

    def stays_on(self, bs: int) -> bool:
        """The next step speculates with no toggle (the precondition for running ahead)."""
        return self.enabled and not self.over(bs)

    def may_resume(self, bs: int) -> bool:
        """Called before a plain step; True when speculation should resume for this step."""
        if self.enabled or self.threshold is None or bs > self.threshold:
            self.below = 0
            return False
        if self.below >= self.hysteresis:
            return True
        self.below += 1
        return False


@dataclass(slots=True)
class InFlight:
    """A launched decode step: the requests it ran on and what the worker returned."""

    reqs: list[Req]
    bs: int
    out: StepOutput
    step: int
    context: dict[str, Any]


@dataclass(slots=True)
class Totals:
    steps: int = 0
    spec_steps: int = 0
    accepted: int = 0
    verifies: int = 0
    tokens_out: int = 0


class Scheduler:
    """Owns the queues and the running batch; the worker does the forwards."""

    def __init__(
        self,
        cfg: EngineConfig,
        worker: Any,
        log: EngineLog,
        events: EventWriter,
        load: ClosedLoopLoad,
        progress: Any = None,
    ) -> None:
        self.cfg, self.worker, self.log, self.events, self.load = cfg, worker, log, events, load
        self.pool = worker.pool
        self.progress = progress
        s = cfg.spec
        hyst = 0 if cfg.faults.on(Fault.NO_HYSTERESIS) else s.hysteresis_steps
        threshold = s.disable_batch_threshold if s.enabled else None  # NONE never speculates
        self.spec = SpecController(s.enabled, threshold, hyst)
        self.running = ScheduleBatch([], worker.device, is_spec_v2=cfg.worker == "v2")
        self.waiting: list[Req] = []
        self.it = 0
        self.totals = Totals()
        self.stats = DecodeStats(t_start=time.perf_counter())
        self.context: dict[str, Any] = {}  # what the step was doing, for the error event
        self.last_graph = False
        self.launched = 0  # decode steps started (overlap: one more than completed)
        self.pending: InFlight | None = None  # v2 overlap: the step the device is computing
        self.latency = LatencyBook()  # per-request wall times (arrival, first token, finish)

    # --- loops (SGLang's names: the traceback shows which path ran) -----------------------------
    def event_loop_normal(self) -> None:
        while not self.load.done():
            self.iteration()

    def event_loop_overlap(self) -> None:
        """v2: launch step n, then resolve step n-1 while the device computes step n."""
        while not self.load.done():
            self.iteration(overlap=True)
        self.drain()

    def iteration(self, overlap: bool = False) -> None:
        arrived = self.load.arrivals(self.it)
        for r in arrived:
            self.latency.arrive(r.rid)
        self.waiting.extend(arrived)
        new = self.get_new_batch_prefill()
        if new:
            self.run_prefill(new)
        if not self.running.is_empty():
            self.run_decode_step(overlap)
        self.it += 1

    # --- admission and prefill -------------------------------------------------------------------
    def get_new_batch_prefill(self) -> list[Req]:
        room = (self.cfg.max_running_requests or 48) - self.running.batch_size()
        new, self.waiting = self.waiting[:room], self.waiting[room:]
        return new

    def run_prefill(self, new: list[Req]) -> None:
        if self.pending is not None and self.spec.over(self.running.batch_size() + len(new)):
            self.drain()  # the switch-off reads host state the step in flight has not written
        bs_after = self.running.batch_size() + len(new)
        if self.spec.over(bs_after):
            self.switch_off(bs_after)
        self.context = {"phase": "prefill", "bs": len(new)}
        t0 = time.perf_counter()
        batch = self.worker.forward_extend(new, spec=self.spec.enabled)
        dt = time.perf_counter() - t0
        for r in new:  # the prefill's argmax is on the host now (.tolist() in forward_extend)
            self.latency.first_token(r.rid)
        self.running.merge_batch(batch)
        tokens = sum(len(r.prompt) for r in new)
        if self.log.tp_rank == 0:
            self.log.info(
                prefill_batch_line(
                    len(new),
                    tokens,
                    self.usage(),
                    bs_after - len(new),
                    len(self.waiting),
                    graph_word(self.cfg.device),
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
        )

    # --- speculation on/off ------------------------------------------------------------------------
    def switch_off(self, bs: int) -> None:
        batch = self.running
        self.worker.remember_for_catch_up(batch)
        cleanup = not (self.cfg.faults.on(Fault.STALE_SPEC_INFO) and self.cfg.worker == "v1")
        if cleanup:
            batch.clear_for_nonspec()
        else:
            self.events.emit(
                "fault",
                fault=Fault.STALE_SPEC_INFO.value,
                detail="clear_for_nonspec skipped on the switch to plain decode",
                spec_info=_shapes(batch),
            )
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

    def switch_on(self, bs: int) -> None:
        batch = self.running
        last_only = self.cfg.faults.on(Fault.SKIP_DRAFT_KV_SYNC)
        missed = sum(sum(p.shape[0] for p in r.pending) for r in batch.reqs)
        self.context = {"phase": "draft_catch_up", "bs": bs}
        batch.spec_info = self.worker.catch_up_draft(batch, last_only=last_only)
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
    def run_decode_step(self, overlap: bool = False) -> None:
        if self.pending is not None and not self.spec.stays_on(self.running.batch_size()):
            self.drain()  # a toggle or a plain step needs the host state of the step in flight
        batch = self.running
        bs = batch.batch_size()
        if bs == 0:
            return
        if self.spec.over(bs):
            self.switch_off(bs)
        elif self.spec.may_resume(bs):
            self.switch_on(bs)
        self.worker.step_no = self.events.step = self.launched
        self.launched += 1
        self.context = self.step_context(batch)
        out = self.worker.forward_batch_generation(batch, self.spec.enabled)
        flight = InFlight(list(batch.reqs), bs, out, self.worker.step_no, self.context)
        if out.future is not None and overlap:
            flight, self.pending = self.pending, flight
            if flight is None:
                return
        self.complete(flight)

    def drain(self) -> None:
        """Resolve the step in flight (overlap mode), if any."""
        flight, self.pending = self.pending, None
        if flight is not None:
            self.complete(flight)

    def complete(self, flight: InFlight) -> None:
        """Host side of a finished step: tokens, events, retired requests, the stats line."""
        self.context = flight.context
        accepted = flight.out.accepted
        if flight.out.future is not None:
            self.context["phase"] = "resolve"
            accepted = self.worker.resolve(flight.reqs, flight.out.future)
        self.record_step(flight, accepted)
        self.retire_finished()
        if self.totals.steps % self.cfg.decode_log_interval == 0:
            self.log_decode_batch()

    def step_context(self, batch: ScheduleBatch) -> dict[str, Any]:
        """Rows the forward will lay out, from the same spec_info coefficient the runner uses."""
        bs = batch.batch_size()
        coupled = batch.spec_info is not None and not batch.is_spec_v2
        per_req = batch.spec_info.tokens_per_req() if coupled else 1  # type: ignore[union-attr]
        n = self.worker.n_draft
        mode = "verify" if self.spec.enabled else "decode"
        return {
            "phase": mode,
            "mode": mode,
            "step": self.worker.step_no,
            "bs": bs,
            "spec_enabled": self.spec.enabled,
            "rows": bs * (n if self.spec.enabled else per_req),
            "rows_expected": bs * (n if self.spec.enabled else 1),
            "spec_info": _shapes(batch),
            "running_req": bs,
            "num_draft_tokens": n,
        }

    def record_step(self, flight: InFlight, accepted: list[int] | None) -> None:
        bs, out = flight.bs, flight.out
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
        self.last_graph = out.info.graph != "eager"
        self.events.emit(
            "step",
            step=flight.step,
            mode=out.mode,
            spec_enabled=self.spec.enabled,
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
            num_draft_tokens=self.worker.n_draft,
            emitted_total=made,
            host_syncs=out.host_syncs,
            dirty_rows=out.info.dirty_rows,
        )

    def retire_finished(self) -> None:
        batch = self.running
        keep = []
        for i, r in enumerate(batch.reqs):
            if r.finished or self.out_of_room(r):
                r.finish_step = self.totals.steps
                self.pool.free_slot(r.slot)
                self.load.on_finish(r, self.it)
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
                    self.progress(self.load.finished, self.load.spec.num_requests)
            else:
                keep.append(i)
        if len(keep) != batch.batch_size():
            batch.filter_batch(keep)

    def out_of_room(self, r: Req) -> bool:
        """A request stops when the next step's verify/draft columns would not fit its row."""
        s = self.cfg.spec
        step = self.worker.n_draft + s.num_steps * s.eagle_topk + 2
        in_flight = 2 if self.cfg.worker == "v2" else 1  # overlap: one more step already launched
        return r.kv_len + in_flight * step > self.pool.max_len

    # --- stats lines -------------------------------------------------------------------------------
    def usage(self) -> float:
        used = sum(r.kv_len for r in self.running.reqs)
        return used / self.pool.capacity_tokens

    def log_decode_batch(self) -> None:
        st = self.stats
        elapsed = max(time.perf_counter() - st.t_start, 1e-9)
        running = self.running.batch_size()
        tokens = sum(r.kv_len for r in self.running.reqs)
        thr = st.tokens_out / elapsed
        if self.log.tp_rank == 0:
            self.log.info(
                decode_batch_line(
                    running,
                    tokens,
                    self.usage(),
                    st,
                    self.worker.n_draft,
                    graph_word(self.cfg.device),
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


def _shapes(batch: ScheduleBatch) -> dict[str, object] | None:
    return None if batch.spec_info is None else batch.spec_info.shapes()
