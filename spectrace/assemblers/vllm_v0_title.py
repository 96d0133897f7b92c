"""A vLLM report that puts its speculative run on the V0 engine without a config line: a
``[V0]`` tag in the title, a traceback only through V0's engine under a title about
speculative decoding, or a report of a speculative run (its title, or a writer's sentence
saying they ran it) from a release or a day before V1 could speculate.

V0 (vLLM up to 0.9.2) ran every speculative method through ``SpecDecodeWorker``, which wraps
the proposer worker ``create_worker`` builds: ``NGramWorker``, ``MedusaWorker``,
``MLPSpeculatorWorker``, else ``MultiStepWorker`` (draft models, EAGLE and DeepSeek MTP heads).
So a pull request titled ``[Spec Decode][V0] Enable LoRA on the draft model`` reports a V0 run
of a draft model (``MultiStepWorker``), and a 2024 report "Speculative Decode + OpenTelemetry
not working" whose traceback goes through ``vllm/engine/async_llm_engine.py`` and never through
``vllm/v1/`` ran ``SpecDecodeWorker`` (its proposer named where the text names the family).
The era alone also places it: V1 built its first proposer in 0.7.3 (``NgramProposer``), so a
speculative run on an older release ran ``SpecDecodeWorker`` whatever its frames show ("[Bug]:
vllm 0.5.4 NCCL error when applying speculative decoding"), and no build of vLLM held a
V1 proposer before 0.7.2 was out (V1's n-gram proposer was merged on main after
it), so a thread whose newest day predates 0.7.2 ran V0 too ("I've tested speculative decoding
to compare latency" in an April 2024 thread, "I tested the accept length with typical
acceptance sampling" in September 2024, a November 2024 report of speculative decoding on
``pip install vllm``).
A text running V0's own tests (``pytest tests/spec_decode/e2e/test_ngram_correctness.py``, V0's
worker unit tests: rules/paths/vllm_v0.toml ``v0_tests``) ran V0's spec decode whatever its
title says ("[INTEL_HPU][v0] Enable spec decode on HPU" with eagle, medusa, mlp and ngram tests):
one family among the test files gives its V0 worker, several the wrapper ``SpecDecodeWorker``,
never a V1 proposer.
The report's words, ranked as prose: any config line outranks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from packaging.version import Version

from spectrace.assemblers.release_dates import rules_table
from spectrace.assemblers.run_config import Evidence, RunConfig, trim
from spectrace.assemblers.spec_prose import PROSE_REASON, no_spec, sentence_apart
from spectrace.assemblers.thread_head import HeadReader
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.thread_title import Title, TitleReader, methods_in
from spectrace.assemblers.vllm_engine_lines import engine_shown
from spectrace.assemblers.vllm_proposers import v0_worker
from spectrace.assemblers.vllm_release import parse_release
from spectrace.assemblers.vllm_v0_marks import engine_frame, v0_table
from spectrace.dialects.base import LogLine

_V0_TAG = re.compile(r"(?i)\[\s*V0\s*\]")  # "[V0]", "[v0]" beside any other tag
# a title about speculative decoding ("[Spec Decode]", "Speculative Decode + ...")
_SPEC_TITLE = re.compile(r"(?i)\bspec(?:ulative)?[ _-]?decod\w*|\bspeculat\w*")
# a frame of V0's engine, and of anything under vllm/v1/ (the V1 engine)
_V0_FRAME = re.compile(r"[/\\]vllm[/\\](?:engine|worker|executor|spec_decode)[/\\]\w+\.py\b")
_V1_FRAME = re.compile(r"[/\\]vllm[/\\]v1[/\\]")
_DRAFT = re.compile(r"(?i)\bdraft[ _-]?models?\b|\bspeculative[_-]model\b")
_MLP = re.compile(r"(?i)\bmlp[ _-]?speculat\w*")
# the families V0 ran, as the method value its create_worker reads
_V0_METHODS = {"DRAFT_MODEL": "draft_model", "EAGLE": "eagle", "MTP": "deepseek_mtp",
               "NEXTN": "deepseek_mtp",
               "NGRAM": "ngram", "MEDUSA": "medusa", "MLP_SPECULATOR": "mlp_speculator"}  # fmt: skip
_WRAPPER = "SpecDecodeWorker"
_V1_DEFAULT = Version("0.8.0")  # the first release whose default engine is V1
_V1_SPEC = Version("0.7.3")  # V1's first proposer (NgramProposer): older runs speculated on V0
_V1_CODE = Version("0.6.4")  # the first release shipping vllm/v1/ at all
# the newest release a day may allow for a run that could not speculate on V1 even from a build
# of main: V1's first proposer (NgramProposer) was merged after 0.7.2 came out and shipped in 0.7.3
_V1_SPEC_MAIN = Version("0.7.2")
# why such a day leaves a condition, not a verdict: V1 could be opted into (VLLM_USE_V1=1, a
# traceback through vllm/v1/ that the config lines may not hold), and it could not speculate
_OPT_IN_TAIL = "unless the run opted into V1, which then did not speculate"
_OPT_IN = ("the thread's day allows vLLM {newest} at newest, before V1 could speculate even on a "
           "build of main (0.7.2 out), " + _OPT_IN_TAIL)
# what only a speculative run has, as the object of a writer's "I tested/measured ...": its
# acceptance ("the accept length", "the acceptance rate"), V0's typical-acceptance sampler, its
# draft or speculative tokens, an MLP speculator
_SPEC_OBJECT = (r"accept(?:ance)?[ _-]?(?:rate|length|len)\b|typical[ _-]?acceptance"
                r"|(?:draft|speculative)[ _-]tokens?\b|mlp[ _-]?speculat\w*")
# a writer saying they ran speculative decoding themselves ("I've tested speculative decoding
# (SD) to compare latency", "we ran the draft model at 4 tokens"); no wish, plan or question
_RAN = re.compile(
    r"(?i)\b(?:I|we)(?:'ve|\s+have|\s+had)?\s+(?:also\s+|just\s+|now\s+)?(?:tested|ran|run|benchmarked"
    r"|measured|deployed|deploy|served|serve|used|use|profiled)\s+"
    r"(?:(?:(?:with|the|a|an|our|my|vllm'?s?)\s+)*|(?:[^.;!?]|\.(?=\w)){0,60}?\b(?:with|using)"
    r"(?:\s+|(?=[`'\"*]))(?:(?:the|a|an|our|my)\s+)?)[`'\"*]*"
    r"(?:spec(?:ulative)?[ _-]?decod\w*|draft[ _-]?models?|speculative[ _-]model|"
    + _SPEC_OBJECT + ")"
)
# a release series a sentence names ("vllm 0.5.x", "vLLM 0.6"): all of it older than 0.7.3
_SERIES = re.compile(r"(?i)(?<![\w./-])vllm\s*v?0\.([0-6])(?:\.[x*])?(?![\w*]|\.\d)")
# a release the title of vLLM's own tracker gives as its own ("[v0.6.1]", "on v0.6.1",
# "(vllm==0.6.0)"); never one another package's name precedes ("with flashinfer v0.1.6")
_TITLE_RELEASE = re.compile(
    r"(?i)(?:\[\s*v?|(?:^|\s)(?:on|in|with|since|after|from)\s+v|\bvllm\s*(?:==|:)?\s*v?)"
    r"(\d+\.\d+\.\d+)(?![\w.]*\d)"
)
# another engine named in the writer's sentence: "we tested speculative decoding in SGLang"
_OTHER_ENGINE = re.compile(
    r"(?i)\b(?:sglang|tensorrt[-_ ]?llm|trt-?llm|llama\.?cpp|lmdeploy|text-generation-inference|tgi"
    r"|exllama\w*|mlc[-_ ]?llm|deepspeed|transformers|hf generate)\b"
)
# a title guard that makes the thread a wish, a plan or docs (a usage question or a performance
# report still tells runs)
_WISH_APART = re.compile(r"(?i)feat|rfc|roadmap|track|propos|enhancement|docs?\b|documentation|"
                         r"support|add|implement|introduc|plan|example|cookbook|tutorial|guide|how to")
_V1_SWITCH = re.compile(r"""\bVLLM_USE_V1["']?\]?\s*=\s*["']?1\b""")
# the lines the config collector must see for it: V0's frames (titles it reads anyway). Not
# every ``vllm/v1/`` frame: a V1 log's tracebacks would cost every reader a pass (a third more
# time on a frame-heavy log); the V1 runner's own frames reach it through vllm_runner's literals
LITERALS: tuple[bytes, ...] = (b"/vllm/engine/", b"/vllm/worker/", b"/vllm/executor/",
                               b"/vllm/spec_decode/", b"tests/spec_decode/",  # V0's own tests
                               # a writer's own test of what only speculation has (_SPEC_OBJECT)
                               b"ccept length", b"cceptance len", b"cceptance rate",
                               b"ypical acceptance", b"ypical_acceptance", b"raft token")  # fmt: skip


@cache
def _v0_tests() -> re.Pattern[str]:
    """A test command's path into V0's own tests (rules/paths/vllm_v0.toml ``v0_tests``),
    never under ``tests/v1/``."""
    name = "paths/vllm_v0.toml"
    data = rules_table(name)
    paths = data.get("v0_tests")
    alts = "|".join(re.escape(str(p)) for p in (paths if isinstance(paths, list) else []))
    return re.compile(rf"(?<![\w/])(?:\./)?(?:{alts or '(?!)'})")


_TEST_RUN = re.compile(r"(?i)\bpytest\b|\bpython3?\s+-m\s+pytest\b|\bpassed\b")
# the family a V0 test file is about ("test_eagle_correctness.py", "test_multistep_correctness.py":
# the draft model's MultiStepWorker, "test_ngram_worker.py")
_TEST_FAMILY = re.compile(r"(?i)\btest_(eagle|medusa|mlp|ngram|mtp|multi_?step)_")
_TEST_FAMILIES = {"eagle": "EAGLE", "medusa": "MEDUSA", "mlp": "MLP_SPECULATOR", "ngram": "NGRAM",
                  "mtp": "MTP", "multistep": "DRAFT_MODEL", "multi_step": "DRAFT_MODEL"}  # fmt: skip


def _v0_tested(lines: Sequence[LogLine]) -> tuple[LogLine, str | None, str | None] | None:
    """(the first line, V0 proposer worker, family) where the text runs V0's own tests (a
    ``pytest`` line or its result naming a path of ``v0_tests``): one family among the test
    files gives its V0 worker, several or none the wrapper every V0 run went through."""
    pattern = _v0_tests()
    ran = [ln for ln in lines if not ln.quoted and pattern.search(ln.text) and _TEST_RUN.search(ln.text)]
    if not ran:
        return None
    families = {_TEST_FAMILIES[m.lower()] for ln in ran for m in _TEST_FAMILY.findall(ln.text)}
    if len(families) == 1 and (found := v0_worker(_V0_METHODS[next(iter(families))])) is not None:
        return ran[0], found[0], next(iter(families))
    return ran[0], None, None


def v0_titled(config: RunConfig, lines: Sequence[LogLine], newest: Version | None) -> None:
    """Evidence of the V0 proposer worker where a vLLM tracker's title says the run was V0's
    (its ``[V0]`` tag) or, in a text from before V1 was vLLM's default engine (``newest``: the
    newest release its day allows, or the release it prints, below 0.8.0), the frames are V0's
    alone under a title about speculative decoding; or where the run is from V0's era alone
    (``_v0_era``) and its title reports a speculative run or a writer says they ran one.
    Nothing where a config line already names a method or a class. (From 0.8 a V1 run's
    traceback can show ``vllm/engine/`` and ``vllm/executor/`` files too, and cut before its
    ``vllm/v1/`` frames.)"""
    if config.engine not in (None, "vllm"):
        return
    v1_shown = any(_V1_FRAME.search(ln.text) or _V1_SWITCH.search(ln.text) for ln in lines)
    title = _title(lines)
    if not v1_shown and title is not None and _V0_TAG.search(title.text):
        _on_v0(config, f"its [V0] tag (line {title.lineno})")  # the V1 classes words gave
    if "speculative_config.method" in config.flags:
        return
    if any(e.worker_class or e.condition for e in config.path_evidence):
        return
    tested = _v0_tested(lines)  # V0's own tests ran, unless a V1 frame or switch shows V1 too
    if tested is not None and not v1_shown:
        line, worker, family = tested
        _add(config, lines, line.source, line.lineno, worker or _WRAPPER, family,
             f"V0's own tests ran (line {line.lineno}: V0's spec decode built SpecDecodeWorker)")
        return
    if title is None or any(no_spec(line.text) for line in lines):
        return
    spec = _SPEC_TITLE.search(title.text) is not None
    frames = [ln for ln in lines if _V0_FRAME.search(ln.text) or _V1_FRAME.search(ln.text)]
    v1_seen = any(_V1_FRAME.search(ln.text) for ln in frames)
    stated = parse_release(_stated(config, title))
    gone = stated is not None and stated > v0_table().v0_last  # a release without spec_decode/
    engine = None if v1_seen or gone or "platform" in config.flags else engine_frame(lines)
    if engine is None and not (v1_seen or gone or "platform" in config.flags):
        engine = _v0_engine_line(config, lines)  # V0's engine named by its own classes
    if title.apart is None:
        tagged = _V0_TAG.search(title.text) is not None
        at = parse_release(config.version) or newest
        v0_only = not v1_seen and ((bool(frames) and (
            engine is not None or (at is not None and at < _V1_DEFAULT))) or engine is not None)
        # a V1 frame: the run was on V1 (opt-in from 0.6.4), not V0, whatever its era
        era = None if v1_seen else _v0_era(config, lines, newest, title)
        if tagged or (spec and (v0_only or era)):
            worker, family = _proposer(title, lines)
            if worker is None and not (v0_only or era):
                return  # a [V0] tag alone, no family: which proposer is not said
            why = ("its [V0] tag" if tagged else _engine_said(engine) if v0_only
                   else str(era))  # fmt: skip
            _add(config, lines, title.source, title.lineno, worker or _WRAPPER, family,
                 f"a vLLM title about V0 speculative decoding ({why}, line {title.lineno})")  # fmt: skip
            return
    if title.apart is not None and _WISH_APART.search(title.apart):
        return  # a feature request, an RFC, docs: a writer's own use is not the thread's run
    if spec and engine is not None:  # a question about speculative decoding over V0's traceback
        worker, family = _proposer(title, lines)
        _add(config, lines, engine.source, engine.lineno, worker or _WRAPPER, family,
             f"{_engine_said(engine)} (line {engine.lineno}) under a vLLM title "
             f"asking about speculative decoding (line {title.lineno})")  # fmt: skip
        return
    era = None if v1_seen else _v0_era(config, lines, newest, title)
    ran = next((ln for ln in lines if not ln.quoted and (m := _RAN.search(ln.text))
                and not sentence_apart(ln.text, m.start()) and not _OTHER_ENGINE.search(ln.text)),
               None)  # fmt: skip
    if era is None or ran is None:
        return
    worker, family = _proposer(title, lines, ran)
    _add(config, lines, ran.source, ran.lineno, worker or _WRAPPER, family,
         f"a writer reports running speculative decoding on vLLM's tracker ({era}, line {ran.lineno})")


def _v0_engine_line(config: RunConfig, lines: Sequence[LogLine]) -> LogLine | None:
    """The run's own line naming what only V0's engine has (``vllm_engine_lines``: its
    multiprocessing client ``MQLLMEngineClient``, its metrics lines), where no V1 line is shown:
    the script or server ran V0, whatever its release."""
    shown = engine_shown(lines, config.version)
    return shown.line if shown is not None and not shown.v1 else None


def _engine_said(engine: LogLine | None) -> str:
    """How the V0 engine was shown: a frame of it, or a line naming its own classes."""
    if engine is not None and engine_frame([engine]) is None:
        return "a line only V0's engine has (its multiprocessing client or metrics)"
    return "a traceback only through V0's engine"


_V1_CLASS = re.compile(r"\b\w+(?:Proposer(?:GPU)?|Speculator)\b")  # V1's and MRV2's classes


def _on_v0(config: RunConfig, why: str) -> None:
    """The evidence the text's words gave a V1 class (or a condition over V1 classes), made V0's
    worker for its family where the text puts the run on V0 (``why``), or nothing decided for
    a family V0 never ran (EAGLE-3): a [V0] report never names a V1-only class."""
    said = config.flags.get("speculative_config.method")  # the method the words spelled
    out = []
    for e in config.path_evidence:
        if not (e.worker_class and _V1_CLASS.fullmatch(e.worker_class)) and not (
                e.condition and _V1_CLASS.search(e.condition)):  # fmt: skip
            out.append(e)
            continue
        method = _V0_METHODS.get(e.family or "") or (str(said.value) if said is not None else None)
        found = v0_worker(method) if method else None
        head = e.reason.rsplit(" -> ", 1)[0]
        if found is None and e.family is not None:  # a family V0 never ran
            out.append(replace(e, reason=f"{head}: {why} puts the run on V0, which never ran "
                               f"{e.family}", worker_class=None, points_to=None, condition=None))
            continue
        worker = found[0] if found is not None else _WRAPPER
        out.append(replace(e, reason=f"{head} -> {worker} (V0 spec_decode, other): {why}",
                           worker_class=worker, points_to="other", condition=None))
    config.path_evidence = out


def _v0_era(config: RunConfig, lines: Sequence[LogLine], newest: Version | None,
            title: Title | None = None) -> str | None:
    """Why the run can only be V0's by its era, or None: a release the text states (a version
    line, a sentence, the title of vLLM's tracker, a series "vllm 0.5.x") older than V1's first
    proposer (0.7.3; V1 could not speculate), or a newest day before 0.7.2 was out (no build of
    main could speculate on V1 then); never where the V1 switch is set or a V1 engine line shows."""
    if any(_V1_SWITCH.search(ln.text) for ln in lines):
        return None
    shown = engine_shown(lines, config.version)
    if shown is not None and shown.v1:
        return None
    stated = _stated(config, title)
    if stated is not None:
        at = parse_release(stated)
        ok = at is not None and Version(at.base_version) < _V1_SPEC
        return f"vLLM {stated}, before V1 could speculate (0.7.3)" if ok else None
    series = next((m for ln in lines if not ln.quoted and (m := _SERIES.search(ln.text))), None)
    if series is not None:
        return f"vLLM {series.group(0).split()[-1]}, a series before V1 could speculate (0.7.3)"
    if newest is not None and newest < _V1_CODE:
        return f"the thread's day allows vLLM {newest} at newest, before any V1 engine (0.6.4)"
    if newest is not None and newest < _V1_SPEC_MAIN:
        return _OPT_IN.format(newest=newest)
    return None


def _stated(config: RunConfig, title: Title | None) -> str | None:
    """The release the text states: a version line, a sentence's, the title's own."""
    said = config.flags.get("vllm_prose_release")
    titled = _TITLE_RELEASE.search(title.text) if title is not None else None
    return config.version or (str(said.value) if said is not None else None) or (
        titled.group(1) if titled is not None else None)


def _add(config: RunConfig, lines: Sequence[LogLine], source: str, lineno: int, worker: str,
         family: str | None, why: str) -> None:
    """The V0 worker as the verdict; as a condition where the day alone leaves V1 opted into
    (``_OPT_IN``)."""
    config.engine = "vllm"
    line = next(ln for ln in lines if (ln.source, ln.lineno) == (source, lineno))
    said = f"{PROSE_REASON}: {why}" + (f" naming {family}" if family else "")
    if _OPT_IN_TAIL in why:
        condition = f"{worker} (V0 spec_decode) unless the run opted into V1 (VLLM_USE_V1=1)"
        config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw),
                                             f"{said}: {condition}", None, None, condition,
                                             family=family))  # fmt: skip
        return
    reason = f"{said} -> {worker} (V0 spec_decode, other)"
    config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw), reason,
                                         "other", worker, family=family))  # fmt: skip


def _title(lines: Sequence[LogLine]) -> Title | None:
    """The title of a thread filed on vLLM's own tracker (its guard read by the caller)."""
    reader = TitleReader()
    for line in lines:
        title = reader.feed(line)
        if title is not None:
            if title.repo is None:  # a form's title line, its address on a line right below it
                heads = HeadReader()
                found = {tracker_engine(h.repo) for ln in lines if ln.source == title.source
                         and ln.lineno - title.lineno <= _ADDRESS_BELOW
                         and (h := heads.feed(ln)) is not None}  # fmt: skip
                return title if found == {"vllm"} else None
            return title if tracker_engine(title.repo) == "vllm" else None
    return None


_ADDRESS_BELOW = 2  # a copied page's address follows its title line at once (a blank between)


def _proposer(title: Title, lines: Sequence[LogLine], ran: LogLine | None = None
              ) -> tuple[str | None, str | None]:
    """(V0 proposer worker, family) of the one family V0 ran that the title and the text's
    lines name; (None, None) where none is named or the names disagree (EAGLE-3 and later
    families never ran on V0: a text naming one is not read here)."""
    named = set(title.methods) | ({"MLP_SPECULATOR"} if _MLP.search(title.text) else set())
    if ran is not None:  # the writer's own sentence alone: the rest may be the asker's
        named, lines = set(), [ran]
    for line in lines:
        if line.quoted:
            continue
        named |= set(methods_in(line.text))
        if _DRAFT.search(line.text):
            named.add("DRAFT_MODEL")
        if _MLP.search(line.text):
            named.add("MLP_SPECULATOR")
    if len(named) > 1:
        named.discard("DRAFT_MODEL")  # "the EAGLE draft model": the head's family
    if len(named) != 1 or (family := next(iter(named))) not in _V0_METHODS:
        return None, None
    found = v0_worker(_V0_METHODS[family])
    return (found[0], family) if found is not None else (None, None)
