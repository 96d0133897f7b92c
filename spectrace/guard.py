"""Endless or exploding inputs stopped with one read issue: binary streams, NUL floods, bombs.

A regular plain file ends by itself; a pipe of ``/dev/urandom`` or a gzip bomb would not (or
only after hours), so the Reader asks this guard after every read whether to go on.
"""

from __future__ import annotations

from dataclasses import dataclass

SAMPLE_BYTES = 8 * 1024  # judged per read: enough to tell text from binary, cheap at any size
BINARY_SHARE = 0.05  # more control bytes than this (tab, newline, CR, FF, BS, ESC aside)
MAX_BINARY_RUN = 64 * 1024 * 1024  # of binary reads in a row on a stream: no log looks so
MAX_NUL_RUN = 4 * 1024 * 1024 * 1024  # a copytruncate hole piped through a stream can be big
BOMB_RATIO = 1000  # decoded bytes per byte on disk; one gzip layer cannot pass 1032
BOMB_FLOOR = 1024 * 1024 * 1024  # below this much decoded text the ratio is not judged
_COUNTED = bytes(range(0x20)).translate(None, b"\t\n\r\x0c\x08\x1b")  # controls no log is full of
_NOT_COUNTED = bytes(c for c in range(256) if c not in _COUNTED)


def _gib(n: int) -> str:
    return f"{n / 1024**3:.1f} GiB" if n >= 1024**3 else f"{n // 1024**2} MiB"


@dataclass(slots=True)
class ReadGuard:
    """Counts what a stream or a decoder delivered; ``check`` says why to stop, or None."""

    stream: bool  # not a regular file: it may never end
    disk_size: int  # bytes on disk of an encoded file; 0 when plain or unknown
    binary_run: int = 0
    nul_run: int = 0

    def check(self, data: memoryview | bytes | bytearray, delivered: int) -> str | None:
        """``data`` was just read; ``delivered`` is all the decoded bytes read so far."""
        if self.disk_size and delivered > max(BOMB_FLOOR, BOMB_RATIO * self.disk_size):
            return (
                f"stopped decompressing after {_gib(delivered)}, over {BOMB_RATIO} times its "
                f"{self.disk_size}-byte file (a decompression bomb?); to read it all, "
                "decompress it yourself and pipe it in"
            )
        if not self.stream:
            return None
        sample = bytes(data[:SAMPLE_BYTES])
        if not sample.strip(b"\x00"):
            self.nul_run += len(data)
            if self.nul_run > MAX_NUL_RUN:
                return f"stopped after {_gib(self.nul_run)} of NUL bytes in a row (like /dev/zero)"
            return None
        self.nul_run = 0
        controls = len(sample.translate(None, _NOT_COUNTED))
        if controls <= BINARY_SHARE * len(sample):
            self.binary_run = 0
            return None
        self.binary_run += len(data)
        if self.binary_run > MAX_BINARY_RUN:
            return f"stopped after {_gib(self.binary_run)} of binary data in a row; not a text log"
        return None
