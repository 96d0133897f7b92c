"""vLLM V0: the proposer worker that drafted, where the crash's frames show only its wrapper.

V0 (``vllm/spec_decode/``, vLLM 0.6-0.9.2) drafts through ``SpecDecodeWorker``, which wraps
the proposer worker ``SpecDecodeWorker.create_worker`` builds for the method: NGramWorker for
``[ngram]``, MedusaWorker and MLPSpeculatorWorker for those heads, MultiStepWorker for a draft
model, EAGLE and MTP heads. A traceback through the wrapper (``_vocab_size``,
``_verify_tokens``) proves the V0 engine ran speculation, not which proposer drafted; the
run's speculative config (a ``--speculative-config`` with only a draft model, an LLM(...)
``speculative_model=``) says which. That proposer is the verdict, shown on the config's line,
and the wrapper's frame stays beside it as the proof of the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from spectrace.assemblers.run_config import Evidence, RunConfig
from spectrace.assemblers.vllm_proposers import v0_worker

# wrappers every V0 method ran under (their frames tell V0, not the proposer)
V0_WRAPPERS = ("SpecDecodeWorker", "Top1Proposer", "SmallerTpProposerWorker")
_REASON = "vLLM V0 engine"


def v0_proposer(evidence: Sequence[Evidence], config: RunConfig) -> list[Evidence]:
    """``evidence`` with the config's V0 proposer worker first where a wrapper frame votes and
    no stronger vote names a proposer; unchanged otherwise (a method V0 never ran, EAGLE-3 or
    ``mtp``, leaves the wrapper's verdict and any disagreement as they are)."""
    wrapper = next((e for e in evidence
                    if e.points_to == "other" and e.worker_class in V0_WRAPPERS), None)  # fmt: skip
    if wrapper is None or config.engine not in (None, "vllm"):
        return list(evidence)
    if any(e.points_to and e.worker_class and e.worker_class not in V0_WRAPPERS
           and not e.reason.startswith("vLLM") for e in evidence):  # fmt: skip
        return list(evidence)  # a frame or message names the proposer itself
    flags = config.flags
    method, model = (flags.get(f"speculative_config.{k}") for k in ("method", "model"))
    found = v0_worker(method.value if method else None, model.value if model else None)
    at = method or model
    if found is None or at is None:
        return list(evidence)
    worker, family = found
    said = f"the run's speculative method '{method.value}'" if method else (
        f"the run's draft model '{model.value}' (no method)")  # fmt: skip
    text = next((e.text for e in evidence if (e.source, e.lineno) == (at.source, at.lineno)
                 and e.reason.startswith("vLLM")), f"speculative_config: {at.value}")  # fmt: skip
    reason = (
        f"{_REASON} ({wrapper.worker_class} in the crash, line {wrapper.lineno}) with {said}: "
        f"SpecDecodeWorker.create_worker builds {worker} -> other ({worker})"
    )
    decided = Evidence(at.source, at.lineno, text, reason, "other", worker, family=family or None)
    rest = [replace(e, condition=None) if e.condition and e.reason.startswith("vLLM config")
            else e for e in evidence]  # fmt: skip  (V0 settles the release's condition)
    return [decided, *rest]
