"""A vLLM report that likens its failure to another thread it cites, naming that thread's
method beside its own (round 41 20: "Open issue #42261 (gemma4 + MTP, same assert) matches this
signature" above the writer's dspark configuration): the cited thread's family word is not the
run's, so the writer's own family decides. Lines are our own, in the shapes reports take."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import probed_path

HEAD = ["vllm-project/vllm · issue #70030 · open", "# [Bug]: device assert after a NaN verify row",
        "", "someone · description · 2026-08-20"]  # fmt: skip



@pytest.mark.parametrize(
    "cited",
    [
        "Open issue #42261 (gemma4 + MTP, same assert, intermittent) matches this signature.",
        "This looks like https://github.com/vllm-project/vllm/issues/42261 (MTP on gemma4).",
        "Probably a duplicate of #42261, which saw it with MTP.",
    ],
)
def test_a_cited_threads_family_leaves_the_writers_own(tmp_path: Path, cited: str) -> None:
    path = probed_path(tmp_path, [*HEAD, cited, "Configuration: spec decode with dspark, 7 draft tokens."])
    assert (path.value, path.worker_class) == ("other", "DSparkSpeculator")
    assert "dspark" in path.evidence[0].text


@pytest.mark.parametrize(
    "line",
    [
        # the writer's own clause names MTP; the citation is another clause
        "We run MTP and it fails the same way, same as #42261.",
        # a fix's citation likens nothing: the fixed thread may be the run
        "Fixes #42261 (MTP crash on gemma4).",
    ],
)
def test_the_writers_own_or_a_fixed_threads_family_stays(tmp_path: Path, line: str) -> None:
    path = probed_path(tmp_path, [*HEAD, line, "Configuration: spec decode with dspark, 7 draft tokens."])
    assert path.worker_class is None
    assert path.conditional is not None and "EagleProposer" in path.conditional


def test_a_citation_alone_keeps_its_family(tmp_path: Path) -> None:
    """Every family word cited: the cited thread may be the same setup, so it still counts."""
    path = probed_path(tmp_path, [*HEAD, "vLLM 0.30.0 on 8 H100s.",
                            "Open issue #42261 (gemma4 + MTP) matches this signature."])  # fmt: skip
    assert path.worker_class is not None or path.conditional is not None
