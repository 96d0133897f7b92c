"""Newline counting for line numbers: the one per-byte pass a scan cannot skip."""

from __future__ import annotations

from typing import Any

from spectrace.read import BLOCK_SIZE

NUMPY_MIN_SPAN = 256 * 1024  # spans below this are counted with bytearray.count
NUMPY_INPUT_MIN = 256 * 1024 * 1024  # numpy's import (~0.25 s) pays back from about here


class LineCounter:
    """Counts newlines; numpy (when installed) is ~3x faster than bytearray.count on big spans.

    One per scan: it owns a scratch buffer, so it is not shared between threads.
    """

    def __init__(self, use_numpy: bool = False) -> None:
        self._np: Any = None
        self._tmp: Any = None
        self._tried = not use_numpy

    def __call__(self, buf: bytearray, lo: int, hi: int) -> int:
        if hi - lo < NUMPY_MIN_SPAN or not self._load():
            return buf.count(b"\n", lo, hi)
        np = self._np
        if self._tmp is None or len(self._tmp) < hi - lo:
            self._tmp = np.empty(max(hi - lo, BLOCK_SIZE), dtype=np.bool_)
        view = memoryview(buf)[lo:hi]
        try:
            out = self._tmp[: hi - lo]
            np.equal(np.frombuffer(view, dtype=np.uint8), 10, out=out)
            return int(np.count_nonzero(out))
        finally:
            view.release()

    def _load(self) -> bool:
        if not self._tried:
            self._tried = True
            try:
                import numpy
            except ImportError:
                return False
            self._np = numpy
        return self._np is not None
