"""TensorRT-LLM headers: the Python ``[ts] [TRT-LLM] [E]`` and C++ ``ts [TRT-LLM] [E] [rank]`` forms.

The rank tag read ``[MPI_Rank r]`` until 2025; TensorRT-LLM 1.x prints ``[RANK r]``, before the
level or, from the PyTorch backend's module loggers, after it (``[E] [_torch][RANK 7] ...``).
"""

from __future__ import annotations

import re

from spectrace.dialects._time import make_ts
from spectrace.dialects.base import Header

_LEVELS = {
    "V": "DEBUG", "D": "DEBUG", "I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL",
    "VERBOSE": "DEBUG", "DEBUG": "DEBUG", "INFO": "INFO", "WARNING": "WARNING",
    "ERROR": "ERROR", "FATAL": "CRITICAL", "CRITICAL": "CRITICAL",
}  # fmt: skip
_HEADER = re.compile(
    r"(?:\[(\d\d)/(\d\d)/(\d{4})-(\d\d:\d\d:\d\d)\] "  # Python logger
    r"|(\d\d)-(\d\d)-(\d{4}) (\d\d:\d\d:\d\d)\.(\d+) )?"  # C++ logger
    r"\[TRT-LLM\] (?:\[(?:MPI_Rank|RANK) (\d+)\] )?\[([VDIWEF])\] ?"
    r"(?:\[(\d+)\] |(?:\[\w+\])?\[(?:MPI_Rank|RANK) (\d+)\] ?)?"  # C++ [r]; [_torch][RANK r]
)
_OLD = re.compile(r"\[TensorRT-LLM\]\[([A-Z]+)\] ?")


class TrtllmDialect:
    """Rank from ``[MPI_Rank r]`` / ``[RANK r]`` or the C++ ``[r]`` after the level."""

    name = "trtllm"

    def parse(self, text: str) -> Header | None:
        m = _HEADER.match(text)
        if m is None:
            return self._parse_old(text)
        pm, pd, py, phms, cm, cd, cy, chms, cfrac, mpi, letter, crank, after = m.groups()
        rank_no = next((r for r in (mpi, crank, after) if r is not None), None)
        rank = f"rank{rank_no}" if rank_no is not None else None
        if py is not None:
            ts, ts_text = make_ts(py, pm, pd, phms), f"{pm}/{pd}/{py}-{phms}"
        elif cy is not None:
            ts, ts_text = make_ts(cy, cm, cd, chms, cfrac), f"{cm}-{cd}-{cy} {chms}.{cfrac}"
        else:
            ts, ts_text = None, None
        return Header(
            dialect=self.name,
            text=text[m.end() :],
            stream=rank or "",
            rank=rank,
            ts=ts,
            ts_text=ts_text,
            level=_LEVELS[letter],
        )

    def _parse_old(self, text: str) -> Header | None:
        m = _OLD.match(text)
        if m is None or m.group(1) not in _LEVELS:
            return None
        return Header(dialect=self.name, text=text[m.end() :], level=_LEVELS[m.group(1)])
