"""A code listing a report heads with its source file (``# python/sglang/srt/speculative/
eagle_worker_v2.py  (draft())``): the worker whose code the reporter shows as the path that ran.

Why: a bug analysis quotes the code it traced the failure to, headed by the file it comes from;
when that file holds one worker (``path_frames.file_signature``: ``eagle_worker_v2.py`` is the
overlap worker only), the report says which worker its run went through, as a frame would but
without a line of the run. So it ranks as prose, below any frame, dump or command, and it is
never read in a pull request (the code there is under change), on a diff line or in a quote.
"""

from __future__ import annotations

import re

from spectrace.assemblers.run_config import Evidence, trim
from spectrace.assemblers.spec_prose import PROSE_REASON
from spectrace.dialects.base import LogLine
from spectrace.path_frames import file_signature

# a comment line that is only a file's path, maybe with the function it shows: "# a/b/c.py",
# "// sglang/srt/speculative/eagle_worker_v2.py (draft())", "# eagle_worker.py: forward_batch"
_HEAD = re.compile(
    r"^\s*(?:#|//)\s*((?:[\w.-]+/)*[\w-]+\.py)\s*(?:\(\s*[\w.]+(?:\(\))?\s*\)|:\s*[\w.]+(?:\(\))?)?\s*$"
)


def listing_evidence(line: LogLine) -> Evidence | None:
    """The worker a listing headed by this line shows, as prose-rank evidence, or None."""
    if line.quoted or (head := _HEAD.match(line.text)) is None:
        return None
    sig = file_signature(head.group(1))
    if sig is None or sig.worker_class is None:
        return None
    reason = (f"{PROSE_REASON}: a code listing headed by {head.group(1)} (the code the report "
              f"shows its run going through) -> {sig.points_to} ({sig.worker_class})")  # fmt: skip
    return Evidence(line.source, line.lineno, trim(line.raw), reason, sig.points_to, sig.worker_class)
