"""GPU probe: real CUDA and NCCL waits under py-spy, classified by spectrace (run on a GPU host).

Three "ranks" (argv[0] titles sglang::scheduler_TP0..2) block behind a long GPU kernel
(torch.cuda._sleep): TP0 in ``.item()``, TP1 in ``torch.cuda.synchronize()``, TP2 in an NCCL
work.wait() inside ``forward`` (world size 1, TORCH_NCCL_BLOCKING_WAIT=1). The probe captures the
tree with and without --native, prints the reports and writes the captures to $OUT (or /tmp).
Usage: python3 benchmarks/probe_stacks_gpu.py   (py-spy on PATH or beside the interpreter)
"""

from __future__ import annotations

import io
import os
import site
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console

from spectrace.stacks.capture import CaptureOptions, capture
from spectrace.stacks.model import save_capture
from spectrace.stacks.report import StacksReport
from spectrace.stacks.verdict import analyse

CHILD = r"""
import os, sys, time, torch
SPIN = int(4e11)  # GPU cycles: minutes at ~2 GHz
x = torch.ones(1, device="cuda")
def verify():
    torch.cuda._sleep(SPIN)
    return x.sum().item()
def draft():
    torch.cuda._sleep(SPIN)
    torch.cuda.synchronize()
def forward():
    import torch.distributed as dist
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%s" % os.environ["PROBE_PORT"],
                            rank=0, world_size=1)
    dist.all_reduce(x)
    torch.cuda.synchronize()
    torch.cuda._sleep(SPIN)
    work = dist.all_reduce(x, async_op=True)
    work.wait()
open(sys.argv[2], "w").close()
{"verify": verify, "draft": draft, "nccl": forward}[sys.argv[1]]()
"""


def main() -> None:
    out = Path(os.environ.get("OUT") or "/tmp")
    env = dict(
        os.environ,
        TORCH_NCCL_BLOCKING_WAIT="1",
        PROBE_PORT="29555",
        NCCL_NVLS_ENABLE="0",
        PYTHONPATH=os.pathsep.join(site.getsitepackages()),
    )  # argv[0] titles hide the venv
    marks = [out / f"ready{r}" for r in range(3)]
    script = Path("/tmp/probe_rank.py")  # a file, so captures carry source lines as on servers
    script.write_text(CHILD)
    procs = [
        subprocess.Popen(
            [f"sglang::scheduler_TP{r}", str(script), role, str(marks[r])],
            executable=sys.executable,
            env=env,
        )  # fmt: skip
        for r, role in enumerate(("verify", "draft", "nccl"))
    ]
    try:
        deadline = time.monotonic() + 180
        while not all(m.exists() for m in marks) and time.monotonic() < deadline:
            if any(p.poll() is not None for p in procs):
                raise SystemExit("a rank exited before it blocked")
            time.sleep(0.5)
        time.sleep(5)  # let each rank reach its wait
        for native in (False, True):
            started = time.perf_counter()
            snap = capture(os.getpid(), CaptureOptions(samples=2, interval=0.5, native=native))
            took = time.perf_counter() - started
            save_capture(snap, out / f"gpu_capture_native{int(native)}.json")
            buf = io.StringIO()
            Console(file=buf, width=200, color_system=None).print(StacksReport(snap, analyse(snap)))
            print(f"--- native={native}: capture took {took:.2f} s\n{buf.getvalue()}", flush=True)
    finally:
        for p in procs:
            p.kill()
            p.wait()


if __name__ == "__main__":
    main()
