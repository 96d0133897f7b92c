"""The one place the stages are wired: inputs -> scan -> records -> incidents -> linked analysis."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spectrace.assemblers import config as config_mod
from spectrace.assemblers import load as load_mod
from spectrace.assemblers.crash import Crash
from spectrace.assemblers.fatal import FatalMatcher
from spectrace.assemblers.load import LoadSample
from spectrace.assemblers.not_run import DENIALS, NotRun, read_apart
from spectrace.assemblers.quotes import holds_run, plain_run
from spectrace.assemblers.run_config import Evidence, FlagValue, RunConfig
from spectrace.assemblers.sections import not_run_lines
from spectrace.assemblers.stated_plain import STATED_PLAIN_FLAG, planned_flags, stated_plain
from spectrace.dialects._time import stamp_day
from spectrace.dialects.base import LogLine
from spectrace.dialects.paste import PASTE_LITERALS
from spectrace.errors import InputError
from spectrace.fleet.nodes import tag_nodes
from spectrace.incidents import Incident, build_incidents, crash_signature
from spectrace.linker import WorkerPath, global_worker_path, link
from spectrace.lookback import nearest
from spectrace.missing_rank import name_missing
from spectrace.parallel import plan_workers, scan_parallel
from spectrace.path_trace import PathTrace
from spectrace.path_mention_kinds import APART_KIND, FORM_KIND
from spectrace.path_mentions import Mention, find_mentions, mention_literals, names_only
from spectrace.prefilter import STRUCTURAL_LITERALS, Prefilter
from spectrace.rank_layout import RankLayout
from spectrace.read import STDIN
from spectrace.ruleset import RuleSet
from spectrace.scan import ScanResult, ScanSpec, scan_range
from spectrace.stacks.pasted import DUMP_LITERALS, PastedDump, inside_dump
from spectrace.stacks.sniff import is_capture_file, is_flight_dump


@dataclass(frozen=True, slots=True)
class FileSummary:
    path: str
    lines: int
    bytes: int
    dialects: dict[str, int]  # dialect name -> lines attributed (on parsed lines)
    issues: tuple[str, ...] = ()  # non-fatal read problems: "truncated gzip at byte N", ...


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # "missing_marker" | "hang" | "path_conflict" | "read_issue" | "skipped_input" | "unread_input"
    message: str
    detail: str | None = None
    worker_path: WorkerPath | None = None
    evidence: tuple[Evidence, ...] = ()


@dataclass(slots=True)
class Analysis:
    files: list[FileSummary]
    incidents: list[Incident]
    findings: list[Finding]
    config: RunConfig
    load: list[LoadSample] = field(default_factory=list)  # bounded sample for charts
    pasted: list[PastedDump] = field(default_factory=list)  # py-spy/faulthandler text in the logs


# beside logs, never logs themselves: read one by naming it
NOT_LOG_SUFFIXES = (".jsonl", ".md", ".py", ".toml", ".yaml", ".yml", ".csv", ".html", ".ipynb")
STACK_SUFFIXES = (".json", ".pkl", ".pickle")  # `spectrace stacks --save`, torch flight recorder
LOAD_PER_RANK = 64  # samples per rank kept for charts
# the map over inputs done elsewhere (spectrace.fleet: --jobs, --ray): (paths, rules, the spec
# built from them, progress) -> one ScanResult per path, in order; the merge below stays the same
Mapper = Callable[
    [Sequence[str], RuleSet, ScanSpec, Callable[[int, int], None] | None], list[ScanResult]
]


def expand_inputs(inputs: Sequence[str]) -> list[str]:
    """Files as given; directories -> their log files (sorted); "-" is stdin."""
    paths: list[str] = []
    for item in inputs:
        if item == STDIN:
            paths.append(item)
            continue
        path = Path(item)
        if path.is_dir():
            found = sorted(str(p) for p in path.rglob("*") if _is_log(p, path))
            if not found:
                raise InputError(f"{item}: directory has no log files to read")
            paths.extend(found)
        elif not path.exists():
            raise InputError(f"{item}: no such file")
        else:
            paths.append(item)
    if not paths:
        raise InputError("no input given")
    return paths


def _is_log(path: Path, root: Path) -> bool:
    """A file under ``root`` to read by content whatever its name (``job.stdout``, ``*.err``,
    none; binary ones are skipped and named later), or a stacks capture / flight dump (which
    split_inputs routes): not hidden (nor in a hidden folder such as .git), and not the data or
    source kept beside logs (expected.json, events.jsonl, README.md)."""
    if not path.is_file() or any(part.startswith(".") for part in path.relative_to(root).parts):
        return False
    if path.suffix in STACK_SUFFIXES:
        return is_capture_file(path) or is_flight_dump(path)
    return path.suffix.lower() not in NOT_LOG_SUFFIXES


def build_spec(rules: RuleSet, expect: Sequence[str]) -> ScanSpec:
    """The hot literal set: crash structure, rule literals, config lines and expected markers."""
    markers = tuple(dict.fromkeys(m for m in expect if m))
    # a worker file named in a sentence (``eagle_worker_v2.py:828``) travels with the config
    # lines: path_mentions reads it, the config reader does not
    config_literals = config_mod.CONFIG_LITERALS + mention_literals()
    literals = (
        STRUCTURAL_LITERALS + PASTE_LITERALS + DUMP_LITERALS + rules.literals + config_literals
        + tuple(m.encode() for m in markers)
    )  # fmt: skip
    return ScanSpec(
        matcher=FatalMatcher(rules),
        prefilter=Prefilter(literals),
        markers=markers,
        config_literals=config_literals,
        load_literals=load_mod.LOAD_LITERALS,
        parse_load=load_mod.parse_load_line,
        signature=crash_signature,
    )


def analyse(
    inputs: Sequence[str],
    *,
    rules: RuleSet | None = None,
    expect: Sequence[str] = (),
    on_progress: Callable[[int, int], None] | None = None,
    on_crash: Callable[[Crash], None] | None = None,
    mapper: Mapper | None = None,
    explain: bool = False,
) -> Analysis:
    """Scan every input, assemble crashes, group them into incidents and link each to the run
    (``explain``: each verdict carries its readers' findings, ``path_trace``)."""
    paths = expand_inputs(inputs)
    rules = rules if rules is not None else RuleSet.load()
    spec = build_spec(rules, expect)
    results = (
        _scan_all(paths, spec, on_progress, on_crash)
        if mapper is None
        else mapper(paths, rules, spec, on_progress)
    )
    results = tag_nodes(results)  # logs of several hosts: ranks read node03/TP7
    lines = [line for result in results for line in result.config_lines]
    apart = read_apart(lines)  # the blocks that are not the run: config and mentions both skip them
    config, aside = _run_config(results, lines, apart)
    # worker files a sentence names: weak path evidence; with quotes ranked below the writer's
    # own, a quoted crash (another post's) has the quoted lines' and no config, the others theirs
    if aside:
        mentions = find_mentions([ln for ln in lines if not ln.quoted])
        quoted = find_mentions([ln for ln in lines if ln.quoted])
    else:
        mentions = quoted = find_mentions(lines, apart)
    pasted = [d for r in results for d in r.pasted]  # found in the scan's one pass
    # a dump's frames and locals (a repr saying "NCCL error") are no crash lines
    crashes = [c for r in results for c in r.crashes if not inside_dump(c, pasted)]
    samples = {
        (c.source, c.lineno): s for r in results for c, s in zip(r.crashes, r.load, strict=True)
    }
    incidents = build_incidents(crashes)
    walls = [(ln.source, ln.lineno) for ln in lines if plain_run(ln)]
    for incident in incidents:
        first = incident.first_seen
        load = nearest(samples.get((first.source, first.lineno), []), first.rank)
        at = (first.source, first.lineno)
        run, heard = (RunConfig(), _quoted_heard(at, quoted, mentions)) if aside and first.quoted else (config, mentions)
        trace = PathTrace(lines, heard, walls) if explain else None  # --explain-path
        link(incident, run, load, *_unwalled(at, walls, pasted, incidents, heard), trace)
    return Analysis(
        files=[_summary(r) for r in results],
        incidents=incidents,
        findings=_findings(results, spec.markers, config) + _hangs(incidents, crashes, config),
        config=config,
        load=_load_chart([s for r in results for ss in r.load for s in ss]),
        pasted=pasted,
    )


def _quoted_heard(at: tuple[str, int], quoted: Sequence[Mention], mentions: Sequence[Mention]) -> list[Mention]:
    """What a quoted crash (words behind a ``> `` mark) hears: the quoted lines' own mentions,
    and a denial of the whole text's run (``not_run.DENIALS``: a page of instructions, a
    document) its own lines gave that runs over the crash's line: an error a survey or a docs
    page quotes under its citation is the page's quotation, not a run the text shows."""
    return [*quoted, *(m for m in mentions if m.kind == APART_KIND and m.name.startswith(DENIALS)
                       and m.source == at[0] and m.lineno <= at[1] <= m.last and m not in quoted)]  # fmt: skip


def _unwalled(
    at: tuple[str, int],
    walls: Sequence[tuple[str, int]],
    dumps: Sequence[PastedDump],
    others: Sequence[Incident],
    mentions: Sequence[Mention],
) -> tuple[list[PastedDump], list[Incident], list[Mention]]:
    """The dumps, other crashes and named files on the crash's side of every plain-run wall;
    a denial of the whole text's run (``not_run.DENIALS``: a document, a page of instructions)
    that runs over the crash's line is on its side wherever it opens, and so is the text's line
    in a run's form (``run_forms``: whether the text shows a run at all)."""
    return (
        [d for d in dumps if not _walled(at, (d.source, d.lineno), walls)],
        [o for o in others if not _walled(at, (o.first_seen.source, o.first_seen.lineno), walls)],
        [m for m in mentions if not _walled(at, (m.source, m.lineno), walls) or m.kind == FORM_KIND
         or (m.kind == APART_KIND and m.name.startswith(DENIALS) and m.source == at[0]
             and m.lineno <= at[1] <= m.last)],
    )


def _walled(one: tuple[str, int], other: tuple[str, int], walls: Sequence[tuple[str, int]]) -> bool:
    """A writer's sentence saying a run is plain lies between a crash and another crash or a
    pasted dump ("mine, on a plain server:" under another user's traceback or another node's
    py-spy dump): two runs, not ranks of one, so they lend each other no frames."""
    low, high = sorted((one[1], other[1]))
    return one[0] == other[0] and any(src == one[0] and low < n < high for src, n in walls)


def config_reader_lines(
    results: Sequence[ScanResult], plain: LogLine | None, apart: NotRun | None = None
) -> list[LogLine]:
    """The scan's config lines the config collector reads: not a wish or code under review,
    and not a line kept only for a file or word the mention readers look for. A line the scan
    kept as a launch command's continuation (``ScanResult.carried``) is read whatever such word
    it also holds (``--num-scheduler-steps 8 --download-dir /data/guides \\``). ``apart``: the
    lines' ``read_apart`` blocks when the caller has read them already."""
    lines = [line for result in results for line in result.config_lines]
    carried = set().union(*(r.carried for r in results))
    wished = not_run_lines(lines, apart)  # a feature form's wish, code under review: never a run
    wished |= planned_flags(lines, plain)  # a flag to add only after a run stated plain
    return [line for line in lines if (line.source, line.lineno) not in wished
            and ((line.source, line.lineno) in carried or not names_only(line, config_mod.CONFIG_LITERALS))]  # fmt: skip


def _run_config(
    results: Sequence[ScanResult], lines: Sequence[LogLine], apart: NotRun
) -> tuple[RunConfig, bool]:
    """The config the lines state, and whether a quoted crash is another post's: the collector
    ranked quoted lines below the writer's own, or only the writer's lines state a run
    (``assemblers/quotes.py``). A crash's day bounds the release of every run before it when
    no config line is dated; a quoted crash's day is another post's, unless only quotes
    crashed."""
    plain = stated_plain(lines)  # the run's options stated beside "no speculation"
    collector = config_mod.ConfigCollector()
    for line in config_reader_lines(results, plain, apart):
        collector.feed(line)
    crashes = [c for r in results for c in r.crashes]
    own = [c for c in crashes if not c.quoted] or crashes
    collector.crash_day(max((d for c in own if (d := stamp_day(c.ts)) is not None), default=None))
    config = collector.result()
    if plain is not None:
        config.flags[STATED_PLAIN_FLAG] = FlagValue(True, plain.source, plain.lineno, "prose")
    own = not any(line.quoted for line in lines) and holds_run(config)
    return config, collector.quotes_aside or own


def _scan_all(paths: Sequence[str], spec: ScanSpec, on_progress: Callable[[int, int], None] | None,
              on_crash: Callable[[Crash], None] | None) -> list[ScanResult]:  # fmt: skip
    sizes = [0 if p == STDIN else os.path.getsize(p) for p in paths]
    total, done = sum(sizes), 0
    results = []
    for path, size in zip(paths, sizes, strict=True):
        base = done

        def progress(pos: int, base: int = base) -> None:
            if on_progress is not None:
                on_progress(base + pos, total)

        workers = plan_workers(path, None)
        if workers > 1:
            results.append(scan_parallel(path, spec, workers, on_crash=on_crash, on_block=progress))
        else:
            results.append(scan_range(path, spec, on_crash=on_crash, on_block=progress))
        done += size
    return results


def _hangs(incidents: list[Incident], crashes: Sequence[Crash], config: RunConfig) -> list[Finding]:
    """Collectives all ranks but one timed out in: the timeouts name that rank (and its
    crash); with no crash of it in the log, it is a hang finding."""
    layout = RankLayout.from_flags(config.flags)
    return [Finding(kind="hang", message=m) for m in name_missing(incidents, crashes, layout)]


def _summary(result: ScanResult) -> FileSummary:
    return FileSummary(result.source, result.lines, result.bytes, dict(result.dialects),
                       tuple(result.issues))  # fmt: skip


def _findings(
    results: Sequence[ScanResult], markers: Sequence[str], config: RunConfig
) -> list[Finding]:
    seen = set().union(*(r.markers for r in results)) if results else set()
    findings = []
    missing = [m for m in markers if m not in seen]
    paths = _run_paths(config) if missing else []
    for marker in missing:
        for path, run in paths:
            findings.append(Finding(
                kind="missing_marker",
                message=f'expected marker "{marker}" never appears in the log',
                detail=f"worker path from config: {path.value}"
                + (f" ({path.worker_class})" if path.worker_class else "") + run,
                worker_path=path,
                evidence=path.evidence,
            ))  # fmt: skip
    for result in results:
        for issue in result.issues:
            findings.append(Finding(kind="read_issue", message=f"{result.source}: {issue}"))
    return findings


def _run_paths(config: RunConfig) -> list[tuple[WorkerPath, str]]:
    """(worker path, " in the run started at FILE:N") of each run whose config shows one: the
    runs of one log may have taken different paths, and the merged config would mix them.
    One input run, or no run with a path: the path of the whole config, said as before."""
    found = []
    for run in config.runs:
        path = global_worker_path(run)
        if path.value != "unknown":
            where = f" in the run started at {run.start[0]}:{run.start[1]}" if run.start else ""
            found.append((path, where))
    return found or [(global_worker_path(config), "")]


def _load_chart(samples: Sequence[LoadSample]) -> list[LoadSample]:
    """De-duplicated samples in log order, the newest LOAD_PER_RANK of each rank."""
    unique = {(s.source, s.lineno): s for s in samples}
    ordered = sorted(unique.values(), key=lambda s: (s.source, s.lineno))
    per_rank: dict[str | None, list[LoadSample]] = {}
    for sample in ordered:
        per_rank.setdefault(sample.rank, []).append(sample)
    kept = {id(s) for group in per_rank.values() for s in group[-LOAD_PER_RANK:]}
    return [s for s in ordered if id(s) in kept]
