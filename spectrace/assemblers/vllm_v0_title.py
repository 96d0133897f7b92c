"""A vLLM report that puts its speculative run on the V0 engine without a config line: a
``[V0]`` tag in the title, or a traceback only through V0's engine under a title about
speculative decoding.

V0 (vLLM up to 0.9.2) ran every speculative method through ``SpecDecodeWorker``, which wraps
the proposer worker ``create_worker`` builds: ``NGramWorker``, ``MedusaWorker``,
``MLPSpeculatorWorker``, else ``MultiStepWorker`` (draft models, EAGLE and DeepSeek MTP heads).
So a pull request titled ``[Spec Decode][V0] Enable LoRA on the draft model`` reports a V0 run
of a draft model (``MultiStepWorker``), and a 2024 report "Speculative Decode + OpenTelemetry
not working" whose traceback goes through ``vllm/engine/async_llm_engine.py`` and never through
``vllm/v1/`` ran ``SpecDecodeWorker`` (its proposer named where the text names the family).
The report's words, ranked as prose: any config line outranks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from packaging.version import Version

from spectrace.assemblers.run_config import Evidence, RunConfig, trim
from spectrace.assemblers.spec_prose import PROSE_REASON, no_spec
from spectrace.assemblers.thread_repo import tracker_engine
from spectrace.assemblers.thread_title import Title, TitleReader, methods_in
from spectrace.assemblers.vllm_proposers import v0_worker
from spectrace.assemblers.vllm_release import parse_release
from spectrace.dialects.base import LogLine

_V0_TAG = re.compile(r"\[\s*V0\s*\]")
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
# the lines the config collector must see for it: V0's frames (titles it reads anyway). Not
# every ``vllm/v1/`` frame: a V1 log's tracebacks would cost every reader a pass (a third more
# time on a frame-heavy log); the V1 runner's own frames reach it through vllm_runner's literals
LITERALS: tuple[bytes, ...] = (b"/vllm/engine/", b"/vllm/worker/", b"/vllm/executor/",
                               b"/vllm/spec_decode/")  # fmt: skip


def v0_titled(config: RunConfig, lines: Sequence[LogLine], newest: Version | None) -> None:
    """Evidence of the V0 proposer worker where a vLLM tracker's title says the run was V0's
    (its ``[V0]`` tag) or, in a text from before V1 was vLLM's default engine (``newest``: the
    newest release its day allows, or the release it prints, below 0.8.0), the frames are V0's
    alone under a title about speculative decoding; nothing where a config line already names
    a method or a class. (From 0.8 a V1 run's traceback can show ``vllm/engine/`` and
    ``vllm/executor/`` files too, and cut before its ``vllm/v1/`` frames.)"""
    if config.engine not in (None, "vllm") or "speculative_config.method" in config.flags:
        return
    if any(e.worker_class or e.condition for e in config.path_evidence):
        return
    title = _title(lines)
    if title is None or any(no_spec(line.text) for line in lines):
        return
    tagged = _V0_TAG.search(title.text) is not None
    frames = [ln for ln in lines if _V0_FRAME.search(ln.text) or _V1_FRAME.search(ln.text)]
    v0_only = bool(frames) and not any(_V1_FRAME.search(ln.text) for ln in frames)
    at = parse_release(config.version) or newest
    v0_only = v0_only and at is not None and at < _V1_DEFAULT
    if not (tagged or (v0_only and _SPEC_TITLE.search(title.text))):
        return
    worker, family = _proposer(title, lines)
    if worker is None:
        if not v0_only:
            return  # a [V0] tag alone, no family: which proposer is not said
        worker = _WRAPPER
    why = "its [V0] tag" if tagged else "a traceback only through V0's engine"
    reason = (f"{PROSE_REASON}: a vLLM title about V0 speculative decoding ({why}, line "
              f"{title.lineno})" + (f" naming {family}" if family else "") +
              f" -> {worker} (V0 spec_decode, other)")  # fmt: skip
    config.engine = "vllm"
    line = next(ln for ln in lines if (ln.source, ln.lineno) == (title.source, title.lineno))
    config.path_evidence.append(Evidence(line.source, line.lineno, trim(line.raw), reason,
                                         "other", worker, family=family))  # fmt: skip


def _title(lines: Sequence[LogLine]) -> Title | None:
    """The title of a thread filed on vLLM's own tracker, where its guard sets nothing apart."""
    reader = TitleReader()
    for line in lines:
        title = reader.feed(line)
        if title is not None:
            ok = tracker_engine(title.repo) == "vllm" and title.apart is None
            return title if ok else None
    return None


def _proposer(title: Title, lines: Sequence[LogLine]) -> tuple[str | None, str | None]:
    """(V0 proposer worker, family) of the one family V0 ran that the title and the text's
    lines name; (None, None) where none is named or the names disagree (EAGLE-3 and later
    families never ran on V0: a text naming one is not read here)."""
    named = set(title.methods) | ({"MLP_SPECULATOR"} if _MLP.search(title.text) else set())
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
