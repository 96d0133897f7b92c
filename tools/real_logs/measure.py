#!/usr/bin/env python3
"""Measure spectrace's worker-path verdicts on a round of real-log excerpts.

Usage: measure.py ROUND_DIR [ROUND_DIR ...] CHECKOUT [--label NAME] [--only 03,07] [--in-process]

ROUND_DIR holds ex/NN.txt (one excerpt each, saved as the thread shows it) and truth.tsv:
    id<TAB>kind<TAB>accept<TAB>note
kind:
    path    the text holds evidence; accept = the right worker classes, '|' separated
            (any one is right; a family-level truth lists every class of the family); a token
            family:X (e.g. family:MEDUSA) says which family a class-less verdict may name
            ("family": family right, no class; not counted right, not wrong)
    trap    the text shows no run / no path; any decided or conditional path is wrong, except
            the verdict "none" (the run did not speculate: no speculative worker path), which
            is what a trap asks for and is counted as "no-path (none)" (from session 19; the
            figures of earlier sessions counted it wrong)
    none    no evidence either way (kept out of every figure)
CHECKOUT is a source tree of spectrace (a git worktree or `git archive` of a commit) with a
symlink spectrace/rules -> ../rules; it is run with $SPECTRACE_PY (default: this python) and
PYTHONPATH=CHECKOUT, so its own code and rules decide.
An excerpt whose root-cause incidents carry no worker_path is run again with a three-line probe
traceback appended ("probe"), so that the run's verdict shows.
Writes ROUND_DIR/results_<label>.tsv and prints the totals.
--in-process: one python for the checkout reads every excerpt of every ROUND_DIR (the same
pipeline and verdicts as `spectrace triage --format json`, without a start per excerpt): the whole
regression net in minutes instead of an hour on a loaded two-core machine.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

PY = os.environ.get("SPECTRACE_PY", sys.executable)  # a python with spectrace's dependencies
PROBE = ("\nTraceback (most recent call last):\n"
         '  File "probe.py", line 1, in <module>\n'
         "RuntimeError: spectrace probe\n")


def triage(checkout: Path, text_path: Path) -> dict:
    checkout = checkout.resolve()
    env = dict(os.environ, PYTHONPATH=str(checkout), NO_COLOR="1")
    # cwd=checkout: `python -m` puts the cwd first on sys.path, so any other cwd holding a
    # spectrace/ folder (the caller's working tree) would be measured instead of CHECKOUT
    out = subprocess.run([PY, "-m", "spectrace", "triage", "--format", "json", str(text_path.resolve())],
                         capture_output=True, text=True, env=env, timeout=300, cwd=checkout)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"error": (out.stderr or out.stdout)[-300:]}


def serve() -> None:
    """--worker: excerpt paths on stdin, one verdict document per line on stdout (run under
    PYTHONPATH=CHECKOUT, so the checkout's own pipeline decides)."""
    from spectrace.reports.json import incident_document
    from spectrace.triage import analyse_paths

    for line in sys.stdin:
        try:
            analysis = analyse_paths([line.rstrip("\n")])
            doc = {"incidents": [incident_document(i, failing=False) for i in analysis.incidents]}
        except Exception as exc:  # a crash of the measured checkout is a result, not the end
            doc = {"error": repr(exc)[-300:]}
        print(json.dumps(doc), flush=True)


class InProcess:
    """One worker process per checkout; triage() answers through it."""

    def __init__(self, checkout: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(checkout.resolve()), NO_COLOR="1")
        self.proc = subprocess.Popen([PY, str(Path(__file__).resolve()), "--worker"], env=env,
                                     cwd=checkout.resolve(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def __call__(self, checkout: Path, text_path: Path) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{text_path.resolve()}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline() or '{"error": "worker died"}')


def paths_of(doc: dict) -> list[dict]:
    return [i["worker_path"] for i in doc.get("incidents", [])
            if i.get("root_cause") and i.get("worker_path")]


def verdict(doc: dict) -> dict | None:
    """The most decided worker path among the root causes."""
    ps = paths_of(doc)
    if not ps:
        return None
    rank = {"v1": 0, "v2": 0, "other": 0, "none": 0, "unknown": 1}
    return sorted(ps, key=lambda p: (rank.get(p.get("value"), 2), 0 if p.get("conditional") else 1))[0]


def classify(kind: str, accept: set[str], p: dict | None) -> str:
    value = (p or {}).get("value")
    cls = (p or {}).get("worker_class") or ""
    cond = (p or {}).get("conditional") or ""
    decided = value in ("v1", "v2", "other", "none")
    if kind == "trap":
        if value == "none":
            return "no-path (none)"
        if decided:
            return "wrong"
        return "wrong-cond" if cond else "no-path"
    if decided and not cls:
        # a family named with no worker class: "family" when the truth lists that family
        # (accept token family:X), else "family?" (judge by hand); never counted right
        fam = (p or {}).get("family") or ""
        fams = {a[7:] for a in accept if a.startswith("family:")}
        if not fams:
            return "family?"
        return "family" if fam in fams else "wrong"
    if decided:
        return "right" if cls in accept else "wrong"
    if cond:
        return "cond-right" if any(a in cond for a in accept) else "cond-wrong"
    return "unknown"


def shown(p: dict | None) -> str:
    """A verdict in one line: value, class and condition."""
    if p is None:
        return ""
    return (f"{p.get('value')} {p.get('worker_class') or ''}".strip()
            + (f" | cond: {p['conditional']}" if p.get("conditional") else ""))


def read_truth(round_dir: Path) -> list[tuple[str, str, set[str]]]:
    """(id, kind, accepted classes) of each excerpt truth.tsv lists."""
    rows = []
    for line in (round_dir / "truth.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if parts[0] == "id" or len(parts) < 2:
            continue
        rows.append((parts[0], parts[1], {x for x in (parts[2] if len(parts) > 2 else "").split("|") if x}))
    return rows


def judge(run: Callable[[Path, Path], dict], checkout: Path, src: Path) -> tuple[dict | None, bool, dict]:
    """(verdict, probed, document) of one text file: a text whose root causes carry no worker
    path is read again with the probe crash appended, so that the run's verdict shows."""
    doc = run(checkout, src)
    p = verdict(doc)
    if p is not None:
        return p, False, doc
    # newline="": the text keeps its own line ends (a CRLF paste is read as pasted), and the
    # probe takes them too
    with src.open(encoding="utf-8", errors="replace", newline="") as f:
        text = f.read()
    probe = PROBE.replace("\n", "\r\n") if "\r\n" in text else PROBE
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8", newline="") as f:
        f.write(text + probe)
    try:
        return verdict(run(checkout, Path(f.name))), True, doc
    finally:
        os.unlink(f.name)


def measure_round(round_dir: Path, checkout: Path, label: str, only: set[str],
                  run: Callable[[Path, Path], dict]) -> None:
    rows = []
    for eid, kind, accept in read_truth(round_dir):
        if only and eid not in only:
            continue
        p, probe, doc = judge(run, checkout, round_dir / "ex" / f"{eid}.txt")
        crashes = sum(1 for i in doc.get("incidents", []) if i.get("root_cause"))
        c = classify(kind, accept, p)
        rows.append((eid, kind, c, probe, crashes, shown(p), doc.get("error", "")))
    out = round_dir / f"results_{label}.tsv"
    with out.open("w") as f:
        for r in rows:
            f.write("\t".join([r[0], r[1], r[2], "probe" if r[3] else "", str(r[4]), r[5], r[6]]) + "\n")
    ev = [r for r in rows if r[1] == "path"]
    traps = [r for r in rows if r[1] == "trap"]
    right = [r for r in ev if r[2] in ("right", "cond-right")]
    n = len(ev) or 1
    print(f"== {round_dir.name} [{label}] evidence {len(ev)}: right {len(right)} ({100*len(right)//n}%: "
          f"{sum(r[2]=='right' for r in ev)} decided, {sum(r[2]=='cond-right' for r in ev)} conditional), "
          f"unknown {sum(r[2]=='unknown' for r in ev)}, wrong {sum(r[2]=='wrong' for r in ev)}, "
          f"cond-wrong {sum(r[2]=='cond-wrong' for r in ev)}, family-only {sum(r[2].startswith('family') for r in ev)}; traps {len(traps)}: "
          f"no-path {sum(r[2].startswith('no-path') for r in traps)} ({sum(r[2]=='no-path (none)' for r in traps)} by 'none'), "
          f"wrong {sum(not r[2].startswith('no-path') for r in traps)}", flush=True)
    for r in rows:
        print(f"  {r[0]:>4} {r[1]:<5} {r[2]:<10} {'probe' if r[3] else '     '} {r[5][:150]} {r[6][:80]}")


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        return serve()
    ap = argparse.ArgumentParser()
    ap.add_argument("round_dirs", type=Path, nargs="+")
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--label", default=None)
    ap.add_argument("--only", default="")
    ap.add_argument("--in-process", action="store_true")
    a = ap.parse_args()
    label = a.label or a.checkout.name
    only = {s for s in a.only.split(",") if s}
    run = InProcess(a.checkout) if a.in_process else triage
    for round_dir in a.round_dirs:
        if (round_dir / "truth.tsv").exists():
            measure_round(round_dir, a.checkout, label, only, run)


if __name__ == "__main__":
    sys.exit(main())
