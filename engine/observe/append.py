"""Appends to files that several ranks share (the server log, the events file).

One ``os.write`` per message on an O_APPEND descriptor keeps each message whole between ranks.
``os.write`` may still write less than asked (a signal, a nearly full disk, a pipe): the rest
is written by the loop instead of being dropped, and a write that makes no progress raises.
"""

from __future__ import annotations

import os


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(f"write to fd {fd} made no progress ({len(view)} bytes left)")
        view = view[written:]
