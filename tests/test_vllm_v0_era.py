"""A vLLM speculative run placed on V0 by its era alone (issue 11, rounds 34 and 35).

V1 built its first proposer in 0.7.3, merged on main after 0.7.2 was out: a report of a
speculative run on an older release, or from a thread whose newest day predates 0.7.2,
ran V0's ``SpecDecodeWorker`` (its proposer worker where the text names the family). The
report is its title about speculative decoding, or a writer's sentence saying they ran it.
Never for a release V1 could speculate on, a question or a wish, another engine's run, or a
text that sets the V1 switch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run
from test_never_wrong import PROBE_CRASH, VLLM_REPO, thread

_ENV = ["### Your current environment", "```", "Collecting environment information...", "```"]

CASES = {
    # a performance title naming the family its run measured ("draft model slower than the target
    # alone", session 24): the family is named, and in January 2025 only V0 ran it
    "a January 2025 writer's draft-model run, no release": (thread(
        VLLM_REPO, "[Performance]: draft model slower than the target alone", "2025-01-20",
        "We benchmarked speculative decoding with a 0.5B draft model at 4 tokens.",
        labels="performance"), "MultiStepWorker"),
    "a title's release before V1 could speculate, no family -> SpecDecodeWorker": (thread(
        VLLM_REPO, "[Bug]: vLLM 0.6.1 crashes with speculative decoding and chunked prefill",
        "2024-10-02", *_ENV), "SpecDecodeWorker"),
    "a title's release and n-gram -> NGramWorker": (thread(
        VLLM_REPO, "[Bug]: ngram speculative decoding hangs on vllm 0.5.5", "2024-09-01",
        "The server stops answering after a few requests."), "NGramWorker"),
    "a 2024 writer's sentence about their draft-model run -> MultiStepWorker": (thread(
        VLLM_REPO, "[Misc]: latency under load", "2024-06-18",
        "We benchmarked speculative decoding with a 1B draft model against the 8B target alone.",
        "At 8 requests per second the p99 doubles.", labels="misc"), "MultiStepWorker"),
    "a 2024 comment saying they ran speculative decoding, no family -> SpecDecodeWorker": (thread(
        VLLM_REPO, "[Usage]: how fast is it", "2024-05-03",
        "Is speculation worth it for chat?", "", "kai · comment · 2024-05-04",
        "I have tested speculative decoding at batch 1 and 16 and saw 1.4x at batch 1.",
        labels="usage"), "SpecDecodeWorker"),
    "a release series in a 2025 sentence: 'vllm 0.5.x with speculative decoding'": (thread(
        VLLM_REPO, "[Bug]: engine stops after a few hundred requests", "2025-03-04",
        "We run vllm 0.5.x with speculative decoding (a 160m draft model) in production."),
     "MultiStepWorker"),
    "the title's own release 'on v0.6.1' read on a 2025 day": (thread(
        VLLM_REPO, "[Bug]: spec decode: illegal memory access with chunked prefill on v0.6.1",
        "2025-03-30", "The server dies under load."), "SpecDecodeWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_v0_era_names_the_v0_worker(tmp_path: Path, name: str) -> None:
    lines, cls = CASES[name]
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    assert (path.value, path.worker_class) == ("other", cls), path


# V1 code shipped from 0.6.4 (opt-in), but no V1 proposer existed on any build before 0.7.2 was
# out: a day in between leaves V0's worker as the condition (unless the run opted into V1)
OPT_IN = {
    "a late-2024 title about speculative decoding, no release (0.6.4 out)": (thread(
        VLLM_REPO, "[Bug]: Speculative Decoding without eager mode returns gibberish", "2024-11-25",
        "I can reproduce it with pip install vllm on 8 H100s."), "SpecDecodeWorker"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(OPT_IN))
def test_a_day_before_v1_could_speculate_gives_v0s_worker_as_the_condition(
    tmp_path: Path, name: str
) -> None:
    lines, cls = OPT_IN[name]
    path = crash_path(run(tmp_path, [*lines, *PROBE_CRASH], name="thread.md"))
    assert path.worker_class is None
    assert path.conditional == f"{cls} (V0 spec_decode) unless the run opted into V1 (VLLM_USE_V1=1)"


NEVER = {
    "a release V1 speculates on": thread(
        VLLM_REPO, "[Bug]: vllm 0.8.5 speculative decoding crash", "2025-05-01", *_ENV),
    "a feature request naming an old release": thread(
        VLLM_REPO, "[Feature]: speculative decoding for Mixtral in vllm 0.5.4", "2024-08-20",
        "Please add it.", labels="feature request"),
    "a plan in a 2024 thread": thread(
        VLLM_REPO, "[Usage]: draft model", "2024-05-03",
        "We will test speculative decoding with a draft model next week.", labels="usage"),
    "a 2024 sentence about another engine's run": thread(
        VLLM_REPO, "[Usage]: speculative decoding speed", "2024-05-03",
        "We tested speculative decoding in SGLang and it was 2x faster.", labels="usage"),
    "a writer's run on a day V1 may have run (no release)": thread(
        VLLM_REPO, "[Usage]: speculative decoding speed", "2025-06-03",
        "We tested speculative decoding with a draft model at 4 tokens.", labels="usage"),
    "an old title release on SGLang's tracker": thread(
        "sgl-project/sglang", "[Bug] sglang 0.2.5 speculative decoding crash", "2024-08-01",
        *_ENV),
    "an old release with the V1 switch set": thread(
        VLLM_REPO, "[Bug]: vllm 0.7.2 speculative decoding crash", "2025-02-10",
        "export VLLM_USE_V1=1", "The engine dies at start-up."),
    "a feature request whose writer uses speculative decoding": thread(
        VLLM_REPO, "[Feature]: per-request draft length", "2024-08-20",
        "We use speculative decoding with a draft model in production and want a per-request length.",
        labels="feature request"),
    "another package's release in the title": thread(
        VLLM_REPO, "[Bug]: speculative decoding crashes with flashinfer v0.1.6", "2025-05-02",
        "It dies in the sampler."),
    "a day after 0.7.2, when a build of main could speculate on V1 (no release)": thread(
        VLLM_REPO, "[Bug]: Speculative Decoding returns gibberish", "2025-02-12",
        "I can reproduce it on 8 H100s."),
    "a release series V1 speculates on": thread(
        VLLM_REPO, "[Bug]: engine stops", "2025-06-04",
        "We run vllm 0.8.x with speculative decoding (an EAGLE head)."),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(NEVER))
def test_no_v0_worker_outside_the_v0_era(tmp_path: Path, name: str) -> None:
    path = crash_path(run(tmp_path, [*NEVER[name], *PROBE_CRASH], name="thread.md"))
    assert path.worker_class not in ("SpecDecodeWorker", "MultiStepWorker", "NGramWorker"), path
