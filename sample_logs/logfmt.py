"""Line builders in the exact formats of SGLang, vLLM 0.11, torchrun/c10 and TRT-LLM.

Shared by make_samples.py and benchmarks/gen_log.py so every generated line has one
definition. Formats follow /work/shared/LOG_FORMATS.md; all text is written by us.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

SITE = "/usr/local/lib/python3.12/dist-packages"
PYLIB = "/usr/lib/python3.12"
ANSI_CYAN = "\x1b[1;36m"
ANSI_RESET = "\x1b[0;0m"


@dataclass
class Log:
    """An append-only list of physical lines that remembers 1-based line numbers."""

    lines: list[str] = field(default_factory=list)

    def add(self, text: str) -> int:
        """Append one physical line (no newline) and return its 1-based number."""
        self.lines.append(text)
        return len(self.lines)

    def extend(self, texts: list[str]) -> int:
        """Append several lines; return the number of the first one."""
        first = len(self.lines) + 1
        self.lines.extend(texts)
        return first

    @property
    def next_lineno(self) -> int:
        return len(self.lines) + 1

    def text(self, newline: str = "\n") -> str:
        return newline.join(self.lines) + newline


@dataclass
class Clock:
    """A wall clock that only moves forward, for consistent timestamps."""

    now: datetime

    def at(self, when: datetime) -> datetime:
        """Jump forward to ``when``; a jump backwards is a bug in the story."""
        if when < self.now:
            raise ValueError(f"clock would go back from {self.now} to {when}")
        self.now = when
        return when

    def tick(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def sgl(ts: datetime, prefix: str = "", ms: bool = False) -> str:
    """SGLang header: ``[YYYY-MM-DD HH:MM:SS(.mmm)( TPn)] ``."""
    stamp = ts.strftime("%Y-%m-%d %H:%M:%S")
    if ms:
        stamp += f".{ts.microsecond // 1000:03d}"
    return f"[{stamp}{' ' + prefix if prefix else ''}] "


def uvicorn(ts: datetime, message: str) -> str:
    """Uvicorn line as SGLang reformats it: ``[ts] INFO:     message``."""
    return f"[{ts.strftime('%Y-%m-%d %H:%M:%S')}] INFO:     {message}"


def caret(code: str, expr: str) -> str:
    """Source line plus the Python 3.11+ caret line under ``expr`` (frame() prints both)."""
    return f"{code}\n{' ' * code.index(expr)}{'^' * len(expr)}"


def server_args_dump(fields: list[tuple[str, object]]) -> str:
    """The one-line ``server_args=ServerArgs(...)`` dump, fields in class order."""
    body = ", ".join(f"{name}={value!r}" for name, value in fields)  # dataclass repr
    return f"server_args=ServerArgs({body})"


def frame(path: str, line: int, func: str, code: str | None) -> list[str]:
    """One traceback frame as Python prints it (two lines when the source is known)."""
    out = [f'  File "{path}", line {line}, in {func}']
    if code is not None:  # "code\n^^^" prints Python 3.11+'s caret line under the source
        out.extend(f"    {part}" for part in code.split("\n"))
    return out


def traceback_body(frames: list[tuple[str, int, str, str | None]], final: str) -> list[str]:
    """``Traceback (most recent call last):`` + frames + the exception line."""
    out = ["Traceback (most recent call last):"]
    for path, line, func, code in frames:
        out.extend(frame(path, line, func, code))
    out.append(final)
    return out


def fault_frame(path: str, line: int, func: str) -> str:
    """faulthandler frame: no comma before ``in`` and no source line."""
    return f'  File "{path}", line {line} in {func}'


def tqdm_redraws(label: str, total: int, secs: list[float], tail: str = "") -> str:
    """A tqdm bar as one physical line of ``\\r`` redraws (what a merged capture holds)."""
    parts = []
    for i in range(total + 1):
        pct = int(100 * i / total)
        elapsed = secs[min(i, len(secs) - 1)]
        rate = f"{i / elapsed:.2f}it/s" if i and elapsed else "?it/s"
        parts.append(
            f"{label}: {pct:3d}% Completed | {i}/{total} [00:{int(elapsed):02d}<00:00, {rate}]{tail}"
        )
    return "\r".join(parts)


def capture_bar(bs_list: list[int], mem: float) -> str:
    """``Capturing batches (bs=.. avail_mem=..)`` tqdm redraws, largest batch first."""
    total = len(bs_list)
    parts = []
    for i, bs in enumerate(sorted(bs_list, reverse=True)):
        pct = int(100 * i / total)
        bar = "█" * (pct // 10) + " " * (10 - pct // 10)
        parts.append(
            f"Capturing batches (bs={bs} avail_mem={mem - 0.05 * i:.2f} GB): "
            f"{pct:3d}%|{bar}| {i}/{total} [00:{i:02d}<00:{total - i:02d},  1.21it/s]"
        )
    parts.append(
        f"Capturing batches (bs=1 avail_mem={mem - 0.05 * total:.2f} GB): 100%|██████████| "
        f"{total}/{total} [00:{total:02d}<00:00,  1.19it/s]"
    )
    return "\r".join(parts)


def nccl_info(host: str, pid: int, dev: int, message: str) -> str:
    """An NCCL_DEBUG=INFO line (bare, straight from libnccl on stdout)."""
    return f"{host}:{pid}:{pid} [{dev}] NCCL INFO {message}"


def c10(rank: int, level: str, ts: datetime, nanos: int, where: str, message: str) -> str:
    """A c10 log line under torchrun: ``[rank3]:[E519 05:58:22.475101234 file:line] msg``."""
    stamp = f"{level}{ts.month}{ts.day:02d} {ts.strftime('%H:%M:%S')}.{nanos:09d}"
    return f"[rank{rank}]:[{stamp} {where}] {message}"


def nccl_timeout_text(rank: int, seq: int, numel: int, ran_ms: int) -> str:
    """ProcessGroupNCCL watchdog timeout message body (after the c10 header)."""
    return (
        f"[PG ID 0 PG GUID 0(default_pg) Rank {rank}] Watchdog caught collective operation "
        f"timeout: WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn={numel}, "
        f"NumelOut={numel}, Timeout(ms)=600000) ran for {ran_ms} milliseconds before timing out."
    )


def vllm(proc: str, pid: int, level: str, ts: datetime, where: str, message: str) -> str:
    """vLLM 0.11 line: always-cyan decorate prefix + ``LEVEL MM-DD HH:MM:SS [file:line] msg``."""
    head = f"{ANSI_CYAN}({proc} pid={pid}){ANSI_RESET} "
    return f"{head}{level} {ts.strftime('%m-%d %H:%M:%S')} [{where}] {message}"


def vllm33(proc: str, pid: int, level: str, ts: datetime, where: str, message: str) -> str:
    """vLLM 0.33 line: the process tag is part of the format; no colour when not a tty."""
    return f"({proc} pid={pid}) {level} {ts.strftime('%m-%d %H:%M:%S')} [{where}] {message}"


def vllm_raw(proc: str, pid: int, text: str) -> str:
    """A plain stdout/stderr line of a vLLM 0.11 process (decorate prefix only)."""
    return f"{ANSI_CYAN}({proc} pid={pid}){ANSI_RESET} {text}"


def trt_py(ts: datetime, sev: str, message: str, mpi_rank: int | None = None) -> str:
    """TRT-LLM Python logger: ``[MM/DD/YYYY-HH:MM:SS] [TRT-LLM] [MPI_Rank r] [E] msg``."""
    rank = f"[MPI_Rank {mpi_rank}] " if mpi_rank is not None else ""
    return f"[{ts.strftime('%m/%d/%Y-%H:%M:%S')}] [TRT-LLM] {rank}[{sev}] {message}"


def trt_cpp(ts: datetime, sev: str, message: str, rank: int | None = None) -> str:
    """TRT-LLM C++ logger: ``MM-DD-YYYY HH:MM:SS.uuuuuu [TRT-LLM] [E] [r] msg``."""
    stamp = ts.strftime("%m-%d-%Y %H:%M:%S.%f")
    where = f"[{rank}] " if rank is not None else ""
    return f"{stamp} [TRT-LLM] [{sev}] {where}{message}"


def cri(ts: datetime, stream: str, text: str, partial: bool = False) -> str:
    """Kubernetes CRI container-log line: ``RFC3339Nano stream P|F text``."""
    stamp = ts.strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
    return f"{stamp} {stream} {'P' if partial else 'F'} {text}"
