"""Every path-table row's frame in every stack format (tests/frame_logs.py), through the whole
pipeline: counts per framework and form of right / cond / unknown / lost / wrong verdicts.

    .venv/bin/python benchmarks/frame_sweep.py [--every-release] [--form F ...] [--copies]
        [--framework NAME ...] [--deciding] [--show wrong,cond,...]

``--copies``: only the copy forms (a notes file's frame with its function on the next line, a
frame mid-sentence, a terminal's fixed-width wrap with and without a log prefix, Markdown- and
HTML-escaped, inside a JSON string, a ``> `` quote).

"right" is the class the row names (or the condition its spans give without a release);
"wrong" a class the row's file does not define; "other" another class it defines; "lost" no
crash read. Exit 1 on any wrong.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from frame_logs import COPY_FORMS, FrameCase, cases, outcome  # noqa: E402

from spectrace.pipeline import analyse  # noqa: E402
from spectrace.worker_path import WorkerPath  # noqa: E402

KINDS = ("right", "other", "cond", "unknown", "lost", "wrong")


def verdict(case: FrameCase, tmp: Path) -> WorkerPath | None:
    """The worker path of the log's root-cause crash (the first), or None if none is read."""
    path = tmp / "crash.log"
    path.write_text("\n".join(case.lines) + "\n", encoding="utf-8")
    roots = [i for i in analyse([str(path)]).incidents if i.root_cause]
    return roots[0].worker_path if roots else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every-release", action="store_true",
                        help="each span's first and last release of a renamed file")
    parser.add_argument("--form", action="append", help="only these forms")
    parser.add_argument("--copies", action="store_true", help="only the copy forms")
    parser.add_argument("--framework", action="append", help="only these tables' rows")
    parser.add_argument("--deciding", action="store_true", help="only rows that name a worker")
    parser.add_argument("--show", default="wrong,lost", help="outcomes to list, comma-separated")
    args = parser.parse_args()
    show = set(args.show.split(","))
    forms = [*(args.form or []), *(COPY_FORMS if args.copies else [])] or None
    todo = [c for c in cases(forms=forms, every_release=args.every_release)
            if (not args.framework or c.row.framework in args.framework)
            and (not args.deciding or c.expect.decide or c.expect.condition)]  # fmt: skip
    counts: dict[tuple[str, str], Counter[str]] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for case in todo:
            path = verdict(case, Path(tmp))
            got = outcome(path, case)
            counts.setdefault((case.row.framework, case.form), Counter())[got] += 1
            if got in show:
                said = (f"{path.value} {path.worker_class} {path.framework} | {path.conditional}"
                        if path is not None else "no crash")  # fmt: skip
                print(f"{got:7} {case.key}: {said}  (expected {case.expect.decide or case.expect.condition})")
    print(f"\n{'framework':17}{'form':14}" + "".join(f"{k:>8}" for k in KINDS))
    total: Counter[str] = Counter()
    for (framework, form), c in sorted(counts.items()):
        total.update(c)
        print(f"{framework:17}{form:14}" + "".join(f"{c[k]:8}" for k in KINDS))
    print(f"{'all':31}" + "".join(f"{total[k]:8}" for k in KINDS))
    print(f"{len(todo)} logs in {time.monotonic() - start:.0f} s")
    return 1 if total["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
