"""What the stream guard (spectrace/guard.py) costs: reading a log through a pipe with the guard
and with it switched off, in the same run; prints the ratio (1.00 = free)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import median_s  # noqa: E402

from spectrace.guard import ReadGuard  # noqa: E402
from spectrace.read import Reader  # noqa: E402


def read_through_pipe(data: bytes) -> int:
    """Every block the Reader hands out for ``data`` written into a pipe by a thread."""
    rfd, wfd = os.pipe()

    def feed() -> None:
        with os.fdopen(wfd, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    with os.fdopen(rfd, "rb") as raw, mock.patch("sys.stdin", mock.Mock(buffer=raw)):
        reader = Reader("-")
        total = sum(b.end - b.start for b in reader.blocks())
    writer.join()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=256, help="log size to pipe through")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    args = parser.parse_args()
    line = (
        b"[2026-02-27 21:00:18 TP3] Decode batch. #running-req: 10, #token: 5120, accept len: 2.5\n"
    )
    data = line * (args.mb * 1024 * 1024 // len(line))
    read_through_pipe(data)  # warm-up: page faults of the first buffers go to neither side
    guarded, bare = [], []
    for _ in range(args.rounds):  # interleaved, so load on a shared box hits both alike
        guarded.append(median_s(lambda: read_through_pipe(data), repeat=1))
        with mock.patch.object(ReadGuard, "check", lambda self, data, delivered: None):
            bare.append(median_s(lambda: read_through_pipe(data), repeat=1))
    guarded_s, bare_s = statistics.median(guarded), statistics.median(bare)
    print(f"{len(data) / 1e6:.0f} MB through a pipe: guard on {guarded_s:.3f} s, "
          f"off {bare_s:.3f} s, ratio {guarded_s / bare_s:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
