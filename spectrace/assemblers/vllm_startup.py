"""Which of vLLM's start-up records belong to one run: a draft model's architecture record is
its run's draft, not a second run.

vLLM logs one start-up in this order: the API server's banner and ``non-default args: {...}``
(``vllm.entrypoints``), then ``Resolved architecture: X`` for the target (``vllm.config.model``),
then, while ``SpeculativeConfig`` builds the draft's ``ModelConfig``, ``Resolved architecture:``
again for the draft (``vllm.config.speculative``: a DSpark run's draft is the target checkpoint's
MTP layers, ``DeepSeekV4MTPModel``), and last the engine core's ``Initializing a V1 LLM engine
... speculative_config=SpeculativeConfig(method=...)`` (``vllm.v1.engine.core``). A draft's
architecture names a method only where no record of its start-up states one: where one does,
an architecture of another family is that method's draft, and reading it as a method of its own
made two runs of one (an Eagle/MTP class beside ``DSparkSpeculator``). One of the stated
method's own family still speaks: vLLM picks the class of method ``mtp`` by the draft's model
type (``Gemma4MTPModel``: ``Gemma4Proposer``).

Where no record states the method, an architecture that several methods' drafts resolve to names
each of them: ``hf_config_override`` gives a DeepSeek-V4 target's own MTP layers the architecture
``DeepSeekV4MTPModel`` for method ``mtp`` and for method ``dspark`` (whose weights ship inside the
target checkpoint), so such a record alone is a condition over both methods' classes, unless the
release shown predates one of them (no release shown: both are possible).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.vllm_config import draft_architecture
from spectrace.assemblers.vllm_proposers import first_release, method_family, proposer_verdict
from spectrace.assemblers.vllm_release import base_release
from spectrace.dialects.base import LogLine

# a record that opens a start-up: the API server's version and its arguments (also V0's)
_HEAD = re.compile(r"vLLM API server version \S|non-default args: \{|args: Namespace\(")
# the engine core's config record: the last record of a start-up that names the method
_ENGINE = re.compile(r"Initializing an? (?:V1 )?LLM engine\b.*\bwith config:")
# methods whose SpeculativeConfig builds no draft ModelConfig (``self.model = "ngram"``...): no
# architecture record can be their draft's
_DRAFTLESS = frozenset({"NGRAM", "SUFFIX", "EXTRACT_HIDDEN_STATES", "CUSTOM_CLASS"})


@dataclass(slots=True)
class _Startup:
    stated: str = ""  # the family of the method a record of this start-up states (one with a draft)
    closed: bool = False  # the engine core's record was read: the next records are a new start-up
    # architecture records read as methods, with their method's family
    drafts: list[tuple[Evidence, str]] = field(default_factory=list)


@dataclass(slots=True)
class StartupDrafts:
    """Per source, the start-up being read: whether a record stated its method, and the draft
    architecture records read as a method before one did."""

    _open: dict[str, _Startup] = field(default_factory=dict)

    def see(self, line: LogLine) -> None:
        """Every config line, before it is read: a banner or arguments record opens a start-up."""
        if _HEAD.search(line.text) is not None:
            self._open[line.source] = _Startup()

    def draft_of_stated(self, line: LogLine, method: object) -> bool:
        """The architecture record on ``line`` (read as ``method``) is the draft of a method of
        another family its start-up stated."""
        stated = self._startup(line).stated
        return bool(stated) and method_family(str(method)) != stated

    def drafted(self, evidence: Evidence, line: LogLine, method: object) -> None:
        """An architecture record was read as ``method``: a later record of its start-up may
        state the method it is the draft of."""
        self._startup(line).drafts.append((evidence, method_family(str(method))))

    def stated(self, line: LogLine, method: object) -> list[Evidence]:
        """A record states the start-up's method: the architecture evidence of another family
        read before it in the same start-up, to withdraw (it was this method's draft)."""
        startup = self._startup(line)
        drafts: list[Evidence] = []
        family = method_family(str(method)) if method is not None else ""
        if family not in ("", *_DRAFTLESS):
            startup.stated = family
            drafts = [e for e, of in startup.drafts if of != family]
            startup.drafts = []
        startup.closed = startup.closed or _ENGINE.search(line.text) is not None
        return drafts

    def _startup(self, line: LogLine) -> _Startup:
        startup = self._open.get(line.source)
        if startup is None or startup.closed:
            startup = self._open[line.source] = _Startup()
        return startup


# draft architectures several methods' drafts resolve to (vllm/config/speculative.py,
# hf_config_override), and those methods, the one the architecture table reads first
SHARED_DRAFTS: dict[str, tuple[str, ...]] = {"DeepSeekV4MTPModel": ("mtp", "dspark")}


def shared_draft(config: RunConfig) -> None:
    """A run whose one class (or runner condition) comes from a draft architecture several
    methods load, no record stating its method: a condition over each method's class."""
    method = config.flags.get("speculative_config.method")
    at = [e for e in config.path_evidence if method is not None
          and (e.source, e.lineno) == (method.source, method.lineno) and (e.worker_class or e.condition)]  # fmt: skip
    others = [e for e in config.path_evidence if e.worker_class and e not in at]
    if method is None or len(at) != 1 or others:
        return
    (drafted,) = at
    arch = draft_architecture(drafted.text)
    methods = SHARED_DRAFTS.get(arch or "", ())
    if str(method.value) not in methods:
        return
    own = drafted.worker_class or drafted.condition or ""
    classes = {str(method.value): own}
    for other in methods:
        cls = proposer_verdict(other, config.version)[2]
        if other not in classes and cls and cls not in own and possible(cls, config.version):
            classes[other] = cls
    if len(classes) < 2:
        return
    condition = "; or ".join(f"{cls} (method {m})" for m, cls in classes.items())
    why = f"the draft architecture {arch} is the draft of each of methods {', '.join(methods)}"
    config.path_evidence = [
        replace(e, points_to=None, worker_class=None, reason=f"{e.reason}; {why}",
                condition=f"{condition}: {why}, and no record states which")
        if e is drafted else e
        for e in config.path_evidence
    ]  # fmt: skip


def possible(cls: str, version: str | None) -> bool:
    """``cls`` may have run: no release shown (a cut banner, a trimmed paste), or one at or
    after the class's first (DSparkSpeculator came in 0.25.0: an older release ran mtp)."""
    release, born = base_release(version), first_release(cls)
    return release is None or born is None or release >= born
