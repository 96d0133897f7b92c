"""V0's SpecDecodeWorker named in a report's sentence (round 13 study: the error a rollout
framework hit, quoted in prose): it tells that vLLM's V0 engine ran speculative decoding, not
which proposer drafted, so alone it is a conditional naming V0's proposers; beside a proposer
class it yields. Every line here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

CRASH = ["```", "RuntimeError: shape mismatch in the scorer", "```"]


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


def test_the_v0_wrapper_named_alone_is_a_condition_on_the_method(tmp_path: Path) -> None:
    said = "After enabling speculation the rollout fails with 'SpecDecodeWorker' object has no attribute 'cache'"
    path = _path(tmp_path, [said, *CRASH])
    assert (path.value, path.worker_class, path.framework) == ("unknown", None, "vllm")
    assert path.conditional is not None and path.conditional.startswith("SpecDecodeWorker (vLLM V0")
    assert "NGramWorker" in path.conditional and "MultiStepWorker" in path.conditional


def test_beside_a_proposer_class_or_in_a_title_the_wrapper_says_nothing(tmp_path: Path) -> None:
    both = ["The SpecDecodeWorker log shows the MLPSpeculatorWorker proposing four tokens", *CRASH]
    path = _path(tmp_path, both)
    assert (path.value, path.worker_class) == ("other", "MLPSpeculatorWorker")
    titled = _path(tmp_path, ["# [Bug]: SpecDecodeWorker crashes on V0", *CRASH])
    assert titled.conditional is None
