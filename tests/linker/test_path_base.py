"""A crash inside a proposer base class (vLLM's and vllm-ascend's ``llm_base_proposer.py``):
the run drafted through one of the base's subclasses, which the family the text names picks
by release (round 12: a CI traceback through the plugin's base under an MTP title, a vLLM
base file named with its line number beside a method)."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

RUNNER = '  File "/w/vllm_ascend/worker/model_runner_v1.py", line 1888, in propose_draft_token_ids'
PLUGIN_BASE = '  File "/w/vllm_ascend/spec_decode/llm_base_proposer.py", line 906, in _propose'
VLLM_BASE = ('  File "/py/site-packages/vllm/v1/spec_decode/llm_base_proposer.py", line 512, '
             "in propose")  # fmt: skip
TAIL = ["    out = self.step(batch)", "RuntimeError: draft step failed"]


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


def test_an_mtp_title_over_the_plugins_base_gives_its_mtp_classes(tmp_path: Path) -> None:
    lines = ["# Fix the MTP acceptance drop with two draft steps", "Traceback (most recent call last):",
             RUNNER, PLUGIN_BASE, *TAIL]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework) == ("unknown", None, "vllm_ascend")
    assert path.conditional is not None and "AscendEagleProposer" in path.conditional
    assert "AscendDraftModelProposer" not in path.conditional  # not an MTP class
    assert path.evidence[0].text.startswith('File "/w/vllm_ascend/spec_decode/llm_base_proposer')


def test_a_family_with_one_subclass_decides_it(tmp_path: Path) -> None:
    lines = ["Serving with speculative decoding (a DFlash head)",
             "Traceback (most recent call last):", VLLM_BASE, *TAIL]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "DFlashProposer")


def test_the_base_alone_proves_speculation_but_names_no_class(tmp_path: Path) -> None:
    path = _path(tmp_path, ["Traceback (most recent call last):", VLLM_BASE, *TAIL])
    assert (path.value, path.worker_class, path.conditional) == ("unknown", None, None)
    assert "subclass of SpecDecodeBaseProposer" in path.evidence[0].reason


def test_a_named_family_no_release_runs_on_the_base_decides_nothing(tmp_path: Path) -> None:
    """Two families named, one without any subclass of the base in the releases read: the
    other family's class is not taken for it."""
    lines = ["# NGRAM run with an EAGLE head", "Traceback (most recent call last):", VLLM_BASE,
             *TAIL]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.worker_class, path.conditional) == (None, None)


def test_the_base_file_named_with_its_line_number_in_prose(tmp_path: Path) -> None:
    lines = ["Our DFlash draft stops at load: the log points at `llm_base_proposer.py:1201`.",
             "Traceback (most recent call last):", '  File "/app/run.py", line 3, in <module>',
             "RuntimeError: engine core died"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework) == ("other", "DFlashProposer", "vllm")
    assert path.evidence[0].lineno == 1


def test_the_base_file_in_a_diff_or_a_fix_is_not_where_it_ran(tmp_path: Path) -> None:
    lines = ["Our DFlash draft: I changed `llm_base_proposer.py:1201` to skip the check.",
             "Traceback (most recent call last):", '  File "/app/run.py", line 3, in <module>',
             "RuntimeError: engine core died"]  # fmt: skip
    assert _path(tmp_path, lines).worker_class is None
