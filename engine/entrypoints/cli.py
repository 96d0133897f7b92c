"""``spectrace engine run|bench``: flags (SGLang's names) -> EngineConfig -> launch. No torch here.

torch is imported only inside the commands, because spectrace's CLI imports this module just to
register the ``engine`` group.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text
from spectrace_engine.faults import parse_faults
from spectrace_engine.server_args import (
    EngineConfig,
    FaultConfig,
    SamplingParams,
    SpecConfig,
    resolve,
)

from spectrace.errors import InputError, UsageError

engine_app = typer.Typer(
    help="Run the bundled, instrumented EAGLE engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_CRASH = 1
PROMPT_AND_DRAFT_ROOM = 96  # prompt columns plus the verify/draft scratch of one step
TRUE = ("true", "1", "yes", "y")
# verify options shared by `run` and `bench`
VerifyBackend = Annotated[
    str,
    typer.Option("--verify-backend", help="auto (triton on CUDA, torch on CPU) | torch | triton"),
]
VerifyOutsideGraph = Annotated[
    bool,
    typer.Option(
        "--verify-outside-graph",
        help="Launch the token choice (verify, or plain sampling) after the graph replay (baseline)",
    ),
]
SimulateAcceptLen = Annotated[
    float | None,
    typer.Option(
        "--simulate-accept-len",
        help="Draw each verify's accept length to this mean (random-weight models; simulated)",
    ),
]


def _ints(text: str | None, flag: str) -> tuple[int, ...]:
    if not text:
        return ()
    try:
        return tuple(int(x) for x in text.replace(" ", ",").split(",") if x)
    except ValueError:
        raise UsageError(f"{flag} takes integers separated by commas, got {text!r}") from None


def build_config(
    *,
    model: str = "tiny",
    algorithm: str = "EAGLE",
    steps: int = 3,
    topk: int = 1,
    draft_tokens: int | None = None,
    threshold: int | None = None,
    hysteresis: int = 4,
    worker: str | None = None,
    disable_overlap_schedule: bool = False,
    faults: Sequence[str] = (),
    tp: int = 1,
    device: str = "cpu",
    disable_cuda_graph: bool = False,
    cuda_graph_bs: str | None = None,
    max_running: int | None = None,
    max_total_tokens: int | None = None,
    log_interval: int = 10,
    verify_backend: str = "auto",
    verify_outside_graph: bool = False,
    simulate_accept_len: float | None = None,
    fault_step: int = 6,
    hang_s: float = 45.0,
    dist_timeout: float = 20.0,
    dtype: str = "float32",
    context_length: int = 384,
    temperature: float = 0.0,
    top_p: float = 1.0,
    top_k: int = -1,
    seed: int = 0,
    accept_threshold_single: float = 1.0,
    accept_threshold_acc: float = 1.0,
) -> tuple[EngineConfig, list[str]]:
    """Flags -> resolved config + the bare warnings; any problem raises UsageError (exit 2)."""
    if worker not in (None, "v1", "v2"):
        raise UsageError(f"--worker must be v1 or v2, got {worker!r}")
    spec_v2 = (
        worker == "v2" if worker else os.environ.get("SGLANG_ENABLE_SPEC_V2", "").lower() in TRUE
    )
    try:
        fault_set = parse_faults(faults)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    algo = None if algorithm.upper() == "NONE" else algorithm.upper()
    spec = SpecConfig(
        algo,
        steps,
        topk,
        draft_tokens or steps + 1,
        threshold,
        hysteresis,
        accept_threshold_single,
        accept_threshold_acc,
        simulate_accept_len,
    )
    cfg = EngineConfig(
        model=model,
        device=device,
        dtype=dtype,
        tp_size=tp,
        enable_spec_v2=spec_v2,
        disable_overlap_schedule=disable_overlap_schedule,
        disable_cuda_graph=disable_cuda_graph,
        cuda_graph_bs=_ints(cuda_graph_bs, "--cuda-graph-bs"),
        max_running_requests=max_running,
        max_total_tokens=max_total_tokens,
        decode_log_interval=log_interval,
        verify_backend=verify_backend,
        verify_in_graph=not verify_outside_graph,
        dist_timeout_s=dist_timeout,
        max_seq_len=context_length,
        seed=seed,
        spec=spec,
        faults=FaultConfig(fault_set, fault_step, hang_s),
        sampling=SamplingParams(temperature, top_p, top_k),
    )
    cfg, warnings = resolve(cfg)
    problems = cfg.validate()
    if problems:
        raise UsageError(problems[0])
    return cfg, warnings


def check_weights(model: str, tp: int = 1, algorithm: str = "EAGLE3") -> None:
    """Missing or corrupt shipped weights (the target and the head ``algorithm`` reads), no such
    head, or a model that does not split over ``tp`` ranks: one line (exit 2) before any rank."""
    from spectrace_engine.models.loader import head_file, tp_problem

    if model == "smollm2" and algorithm == "EAGLE":
        raise UsageError("smollm2 ships an EAGLE-3 head only: use --speculative-algorithm EAGLE3")
    if model != "smollm2" and not model.startswith("synth-"):  # synth-*: no files
        from spectrace_engine.models.weights import verified_file

        for name in (f"{model}.target.safetensors", head_file(model, algorithm)):
            verified_file(name)
    problem = tp_problem(model, tp)
    if problem is not None:
        raise UsageError(problem)


def check_devices(device: str, tp: int) -> None:
    """One GPU per TP rank: NCCL refuses two ranks on one device, so say it up front."""
    if device != "cuda":
        return
    import torch

    have = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if have < tp:
        raise UsageError(f"--device cuda --tp {tp} needs {tp} CUDA devices, found {have}")


@engine_app.command("run")
def run(
    out: Annotated[Path, typer.Option("--out", help="Directory for engine.log and events*.jsonl")],
    model: Annotated[str, typer.Option(help="tiny | tiny-hi-entropy | smollm2")] = "tiny",
    speculative_algorithm: Annotated[str, typer.Option("--speculative-algorithm")] = "EAGLE",
    speculative_num_steps: Annotated[int, typer.Option("--speculative-num-steps")] = 3,
    speculative_eagle_topk: Annotated[int, typer.Option("--speculative-eagle-topk")] = 1,
    speculative_num_draft_tokens: Annotated[
        int | None, typer.Option("--speculative-num-draft-tokens")
    ] = None,
    speculative_disable_batch_threshold: Annotated[
        int | None, typer.Option("--speculative-disable-batch-threshold")
    ] = None,
    hysteresis_steps: Annotated[int, typer.Option("--hysteresis-steps")] = 4,
    worker: Annotated[
        str | None,
        typer.Option(
            help="v1 (EAGLEWorker) or v2 (EAGLEWorkerV2); default from SGLANG_ENABLE_SPEC_V2"
        ),
    ] = None,
    disable_overlap_schedule: Annotated[
        bool, typer.Option("--disable-overlap-schedule", help="Normal event loop (spec: v1)")
    ] = False,
    fault: Annotated[list[str] | None, typer.Option(help="A fault switch (repeatable)")] = None,
    tp: Annotated[int, typer.Option("--tp")] = 1,
    device: Annotated[str, typer.Option(help="cpu | cuda")] = "cpu",
    dtype: Annotated[str, typer.Option(help="float32 | bfloat16")] = "float32",
    disable_cuda_graph: Annotated[bool, typer.Option("--disable-cuda-graph")] = False,
    cuda_graph_bs: Annotated[str | None, typer.Option("--cuda-graph-bs")] = None,
    max_running_requests: Annotated[int | None, typer.Option("--max-running-requests")] = None,
    max_total_tokens: Annotated[
        int | None,
        typer.Option("--max-total-tokens", help="KV pool size in tokens (SGLang's flag)"),
    ] = None,
    num_requests: Annotated[int, typer.Option("--num-requests")] = 16,
    concurrency: Annotated[str, typer.Option(help="One value or a comma sweep")] = "4",
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens")] = 32,
    ramp_clients: Annotated[
        int | None,
        typer.Option(
            "--ramp-clients", help="Start with this many clients, the rest join at --ramp-step"
        ),
    ] = None,
    ramp_step: Annotated[int, typer.Option("--ramp-step")] = 0,
    decode_log_interval: Annotated[int, typer.Option("--decode-log-interval")] = 10,
    verify_backend: VerifyBackend = "auto",
    verify_outside_graph: VerifyOutsideGraph = False,
    simulate_accept_len: SimulateAcceptLen = None,
    fault_step: Annotated[int, typer.Option("--fault-step")] = 6,
    hang_seconds: Annotated[float, typer.Option("--hang-seconds")] = 45.0,
    dist_timeout: Annotated[float, typer.Option("--dist-timeout")] = 20.0,
    context_length: Annotated[int, typer.Option("--context-length")] = 384,
    temperature: Annotated[
        float,
        typer.Option("--temperature", help="0 = greedy; > 0 samples (speculation stays lossless)"),
    ] = 0.0,
    top_p: Annotated[float, typer.Option("--top-p")] = 1.0,
    top_k: Annotated[int, typer.Option("--top-k", help="-1 = whole vocabulary")] = -1,
    random_seed: Annotated[int, typer.Option("--random-seed", help="Seeds the sampler")] = 0,
    speculative_accept_threshold_single: Annotated[
        float, typer.Option("--speculative-accept-threshold-single", help="< 1 is lossy")
    ] = 1.0,
    speculative_accept_threshold_acc: Annotated[
        float, typer.Option("--speculative-accept-threshold-acc", help="< 1 is lossy")
    ] = 1.0,
) -> None:
    """Serve a closed-loop load and write an SGLang-format log plus JSONL events."""
    cfg, warnings = build_config(
        model=model,
        algorithm=speculative_algorithm,
        steps=speculative_num_steps,
        topk=speculative_eagle_topk,
        draft_tokens=speculative_num_draft_tokens,
        threshold=speculative_disable_batch_threshold,
        hysteresis=hysteresis_steps,
        worker=worker,
        disable_overlap_schedule=disable_overlap_schedule,
        faults=fault or [],
        tp=tp,
        device=device,
        disable_cuda_graph=disable_cuda_graph,
        cuda_graph_bs=cuda_graph_bs,
        max_running=max_running_requests,
        max_total_tokens=max_total_tokens,
        log_interval=decode_log_interval,
        verify_backend=verify_backend,
        verify_outside_graph=verify_outside_graph,
        simulate_accept_len=simulate_accept_len,
        fault_step=fault_step,
        hang_s=hang_seconds,
        dist_timeout=dist_timeout,
        dtype=dtype,
        context_length=context_length,
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        seed=random_seed,
        accept_threshold_single=speculative_accept_threshold_single,
        accept_threshold_acc=speculative_accept_threshold_acc,
    )
    if max_new_tokens + PROMPT_AND_DRAFT_ROOM > context_length:
        raise UsageError(
            f"--max-new-tokens {max_new_tokens} does not fit --context-length {context_length} "
            f"(keep {PROMPT_AND_DRAFT_ROOM} columns for the prompt and draft rows)"
        )
    levels = _ints(concurrency, "--concurrency")
    if not levels:
        raise UsageError("--concurrency needs at least one value")
    from spectrace_engine.bench.load import LoadSpec

    loads = [LoadSpec(num_requests, c, max_new_tokens, ramp_clients, ramp_step) for c in levels]
    for ld in loads:
        if ld.problems():
            raise UsageError(ld.problems()[0])
    check_weights(model, tp, speculative_algorithm.upper())
    check_devices(device, tp)
    try:  # an --out that is a file or unwritable is the user's to fix, before any rank starts
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write under --out {out}: {exc.strerror or exc}") from None
    console = Console(stderr=True)
    worst = 0
    for ld in loads:
        target = out if len(loads) == 1 else out / f"c{ld.concurrency}"
        worst = max(worst, _run_one(cfg, ld, target, warnings, console))
    raise typer.Exit(worst)


def _run_one(
    cfg: EngineConfig, load: object, out: Path, warnings: list[str], console: Console
) -> int:
    from rich.progress import Progress
    from spectrace_engine.entrypoints.launch import launch

    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"{cfg.worker} c={load.concurrency}", total=load.num_requests)  # type: ignore[attr-defined]
        result = launch(
            cfg,
            load,
            out,
            warnings,  # type: ignore[arg-type]
            progress=lambda done, total: bar.update(task, completed=done),
        )
    s = result.summary
    if result.exit_code:
        first = result.errors[0] if result.errors else None
        what = f"{first.exc_type}: {first.message} (TP{first.rank})" if first else "a rank died"
        console.print(Text(f"engine crashed: {what}", style="bold red"))
    else:
        console.print(
            Text(
                f"ok: {s.get('requests_finished')} requests, "
                f"{s.get('gen_throughput')} tok/s, accept len "
                f"{s.get('mean_emitted') or 1.0:.2f}, worker {cfg.worker}"
            )
        )
    console.print(Text(f"log: {result.log_path}"))
    for p in result.event_paths:
        console.print(Text(f"events: {p}"))
    return EXIT_CRASH if result.exit_code else 0


@engine_app.command("trace")
def trace(
    run_dir: Annotated[Path, typer.Argument(metavar="RUN", help="An engine run's --out directory")],
    out: Annotated[Path | None, typer.Option("--out", help="Default: RUN/trace.json")] = None,
) -> None:
    """Write RUN's events as a Perfetto / Chrome trace (open it in ui.perfetto.dev)."""
    from spectrace_engine.observe.trace import write_trace

    if not any(run_dir.glob("events*.jsonl")):
        raise InputError(f"no engine events under {run_dir} (events*.jsonl from `engine run`)")
    target = out or run_dir / "trace.json"
    try:
        n = write_trace(run_dir, target)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot write the trace of {run_dir}: {exc}") from None
    Console(stderr=True).print(Text(f"trace: {target} ({n} events), open in ui.perfetto.dev"))


@engine_app.command("bench")
def bench(
    out: Annotated[Path, typer.Option("--out")],
    model: Annotated[str, typer.Option(help="tiny | tiny-hi-entropy | smollm2")] = "tiny",
    device: Annotated[str, typer.Option()] = "cpu",
    dtype: Annotated[str, typer.Option()] = "float32",
    concurrency: Annotated[str, typer.Option()] = "1,2,4,8,16,32,64",
    thresholds: Annotated[str, typer.Option(help="Dynamic-disable thresholds to sweep")] = "2,8,32",
    configs: Annotated[
        str, typer.Option(help="Configs (plain,v2-chain,v2-dd,v1-tree,v1-tree-dd); empty: all")
    ] = "",
    num_requests: Annotated[
        int, typer.Option("--num-requests", help="Per level; raised to 2 x concurrency")
    ] = 32,
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens")] = 64,
    context_length: Annotated[
        int, typer.Option("--context-length", help="KV columns per request")
    ] = 384,
    disable_cuda_graph: Annotated[bool, typer.Option("--disable-cuda-graph")] = False,
    verify_backend: VerifyBackend = "auto",
    verify_outside_graph: VerifyOutsideGraph = False,
    simulate_accept_len: SimulateAcceptLen = None,
    bandwidth_tbps: Annotated[
        float, typer.Option("--bandwidth-tbps", help="HBM bandwidth for the floor (H200: 4.3)")
    ] = 4.3,
    peak_tflops: Annotated[
        float, typer.Option("--peak-tflops", help="Matmul peak for the FLOP floor (H200 BF16: 989)")
    ] = 989.0,
    min_steps: Annotated[
        int, typer.Option("--min-steps", help="Size each run for at least this many decode steps")
    ] = 0,
    report_only: Annotated[
        bool, typer.Option("--report-only", help="Render OUT/rows.jsonl of an earlier sweep")
    ] = False,
) -> None:
    """Concurrency sweep: plain, v1 tree, v2 chain, dynamic disable; table, verdicts, CSV, PNG."""
    from spectrace_engine.bench.sweep import (
        BenchSpec,
        bench_algorithm,
        bench_configs,
        load_rows,
        render,
        run_bench,
    )

    console = Console(stderr=True, width=None if sys.stderr.isatty() else 140)  # logs: no folding
    if report_only:
        try:
            rows = load_rows(out)
        except OSError as exc:
            raise InputError(f"no sweep to report under {out}: {exc}") from None
        if not rows:
            raise InputError(f"no finished runs in {out / 'rows.jsonl'}")
        render(rows, out, console, required=True)
        return
    levels = _ints(concurrency, "--concurrency")
    if not levels or min(levels) < 1:
        raise UsageError("--concurrency needs positive integers")
    if bandwidth_tbps <= 0:
        raise UsageError("--bandwidth-tbps must be positive")
    if max_new_tokens < 1 or max_new_tokens + PROMPT_AND_DRAFT_ROOM > context_length:
        raise UsageError(
            f"--max-new-tokens must be 1..{context_length - PROMPT_AND_DRAFT_ROOM} "
            f"(--context-length {context_length})"
        )
    only = tuple(c.strip() for c in configs.split(",") if c.strip())
    known = ("plain", "v2-chain", "v2-dd", "v1-tree", "v1-tree-dd")
    if unknown := [c for c in only if c not in known]:
        raise UsageError(
            f"--configs: unknown {', '.join(unknown)} (choose from {', '.join(known)})"
        )
    runs = []
    algorithm = bench_algorithm(model)
    for name, kw in bench_configs(_ints(thresholds, "--thresholds"), algorithm, only):
        kw = {
            **kw,
            "model": model,
            "device": device,
            "dtype": dtype,
            "disable_cuda_graph": disable_cuda_graph,
            "verify_backend": verify_backend,
            "verify_outside_graph": verify_outside_graph,
            "max_running": max(48, *levels),  # every client of the top level runs at once
            "context_length": context_length,
        }
        if kw["algorithm"] != "NONE":
            kw["simulate_accept_len"] = simulate_accept_len
        runs.append((name, *build_config(**kw)))
    check_weights(model, algorithm=algorithm)
    check_devices(device, 1)
    if peak_tflops <= 0 or min_steps < 0:
        raise UsageError("--peak-tflops must be positive and --min-steps at least 0")
    spec = BenchSpec(
        levels, num_requests, max_new_tokens, bandwidth_tbps * 1e12, min_steps, peak_tflops * 1e12
    )
    try:
        rows = run_bench(runs, spec, out, console)
    except OSError as exc:
        raise InputError(f"cannot write bench results under {out}: {exc}") from None
    render(rows, out, console)
