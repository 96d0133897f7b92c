"""What /proc says about a process tree: parents, command lines, environments, ptrace limits."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CAP_SYS_PTRACE = 19
_ENV_KEYS = (
    "RANK",
    "LOCAL_RANK",
    "TP_RANK",
    "SGLANG_TP_RANK",
    "SGLANG_DP_RANK",
    "DP_RANK",
    "OMPI_COMM_WORLD_RANK",
    "PMI_RANK",
    "SLURM_PROCID",
)


@dataclass(frozen=True, slots=True)
class ProcInfo:
    pid: int
    ppid: int
    comm: str
    cmdline: str  # NUL separators turned into spaces; setproctitle titles show up here
    env: dict[str, str]  # only the rank-related variables (never the rest: secrets live there)


def exists(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").exists()


def alive(pid: int) -> bool:
    """Running or sleeping, not gone and not a zombie waiting to be reaped."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text(errors="replace")
    except OSError:
        return False
    fields = raw.rpartition(")")[2].split()
    return bool(fields) and fields[0] not in ("Z", "X")


def _stat(pid: int) -> tuple[str, int] | None:
    """(comm, ppid) from /proc/PID/stat; comm may hold spaces and parentheses, so split at the last ')'."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text(errors="replace")
    except OSError:
        return None
    head, _, tail = raw.rpartition(")")
    fields = tail.split()
    if len(fields) < 2:
        return None
    return head.partition("(")[2], int(fields[1])


def parents() -> dict[int, int]:
    """pid -> ppid for every process visible now."""
    result: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                result[int(entry.name)] = stat[1]
    return result


def descendants(root: int) -> list[int]:
    """The root and every descendant, breadth first (parents before children)."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parents().items():
        children.setdefault(ppid, []).append(pid)
    order, queue = [], [root]
    while queue:
        pid = queue.pop(0)
        order.append(pid)
        queue.extend(sorted(children.get(pid, ())))
    return order


def info(pid: int) -> ProcInfo | None:
    stat = _stat(pid)
    if stat is None:
        return None
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        cmd = b""
    cmdline = cmd.rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace").strip()
    return ProcInfo(pid=pid, ppid=stat[1], comm=stat[0], cmdline=cmdline or stat[0], env=_env(pid))


def _env(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    env: dict[str, str] = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.decode(errors="replace").partition("=")
        if sep and key in _ENV_KEYS:
            env[key] = value
    return env


def uid(pid: int | str) -> int | None:
    """Real uid of a process ("self" for ours)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def has_ptrace_cap() -> bool:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> CAP_SYS_PTRACE & 1)
    except (OSError, ValueError, IndexError):
        return False
    return False


def ptrace_scope() -> int | None:
    """kernel.yama.ptrace_scope, or None when Yama is not in this kernel."""
    try:
        return int(Path("/proc/sys/kernel/yama/ptrace_scope").read_text().strip())
    except (OSError, ValueError):
        return None


def python_version_hint(pid: int) -> str | None:
    """ "3.14" when the process maps a libpython or runs a pythonX.Y binary, else None."""
    names: list[str] = []
    try:
        names.append(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/maps", errors="replace") as fh:
            names.extend(line.rsplit(" ", 1)[-1] for line in fh if "libpython" in line)
    except OSError:
        pass
    for name in names:
        base = os.path.basename(name.strip())
        for prefix in ("libpython", "python"):
            if base.startswith(prefix) and base[len(prefix) :][:1].isdigit():
                version = base[len(prefix) :].split(".so")[0]
                return ".".join(version.split(".")[:2])
    return None


def source_line(pid: int, filename: str, line: int, cache: dict[str, list[str]]) -> str | None:
    """The source line as the process sees it (through /proc/PID/root, so containers work)."""
    if line <= 0 or not filename.startswith("/"):
        return None
    try:
        root = os.readlink(f"/proc/{pid}/root")
    except OSError:
        root = "/"
    path = filename if root == "/" else f"/proc/{pid}/root{filename}"
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                cache[path] = fh.read(4_000_000).splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip()[:200] if line <= len(lines) else None
