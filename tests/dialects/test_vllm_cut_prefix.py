"""A vLLM traceback whose lines lost their level and stamp but kept the logger's ``[file.py:N]``.

vLLM's formatter repeats ``LEVEL MM-DD HH:MM:SS [file.py:N]`` on every line of a logged
traceback. A log collector that files the level and time as fields (Loki, Kibana), or a copy
that starts mid-line, leaves ``[core.py:720]   File "...", line 860, in _propose`` on each line:
still the traceback's frames, read as such (the plugin's or vLLM's proposer file ran). A
message line with the same tag that is no traceback part stays plain text. Every line here is
written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.dialects.vllm import VllmDialect
from tests.real_logs_helpers import assert_verdict, crash_path, run

ASCEND = "/home/dev/src/vllm-ascend/vllm_ascend"
SITE = "/usr/local/lib/python3.12/dist-packages/vllm"


def _frames(tag: str, pkg: str, proposer: str) -> list[str]:
    return [
        f'{tag}  File "{pkg}/worker/model_runner_v1.py", line 1642, in propose_draft_token_ids',
        f"{tag}    draft_token_ids = self.drafter.generate_token_ids(",
        f'{tag}  File "{pkg}/spec_decode/{proposer}", line 860, in generate_token_ids',
        f"{tag}    draft_token_ids = self._propose(",
        f'{tag}  File "{pkg}/spec_decode/{proposer}", line 1223, in _propose',
        f"{tag}    attn_mask = self.attn_mask_builder.get_splitfuse_a",
    ]


@pytest.mark.parametrize("tag", ["[core.py:720] ", "[multiproc_executor.py:824] "])
def test_cut_plugin_frames_are_the_plugins_proposer_file(tmp_path: Path, tag: str) -> None:
    """Bare lines, no header, no exception (the paste is cut at both ends): the frames still
    put the run in the plugin's eagle proposer file, whose classes changed by release."""
    path = crash_path(run(tmp_path, _frames(tag, ASCEND, "eagle_proposer.py")))
    assert_verdict(path, "unknown", "EagleProposer|AscendEagleProposer|MtpProposer")


def test_a_whole_cut_traceback_with_its_exception(tmp_path: Path) -> None:
    tag = "[core.py:720] "
    lines = [f"{tag}Traceback (most recent call last):",
             *_frames(tag, ASCEND, "eagle_proposer.py"),
             f"{tag}AttributeError: 'AttentionMaskBuilder' object has no attribute 'get_splitfuse_attn_mask'"]  # fmt: skip
    path = crash_path(run(tmp_path, ["vllm_ascend==0.13.0rc1", *lines]))
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


def test_cut_vllm_frames_in_a_cuda_proposer(tmp_path: Path) -> None:
    tag = "[multiproc_executor.py:824] "
    lines = [f"{tag}Traceback (most recent call last):",
             f'{tag}  File "{SITE}/v1/worker/gpu_model_runner.py", line 3120, in propose_draft_token_ids',
             f"{tag}    draft_token_ids = self.drafter.propose(",
             f'{tag}  File "{SITE}/v1/spec_decode/ngram_proposer.py", line 131, in propose',
             f"{tag}    return self.batch_propose(",
             f"{tag}IndexError: index 4096 is out of bounds for axis 0 with size 4096"]  # fmt: skip
    path = crash_path(run(tmp_path, lines))
    assert (path.value, path.worker_class) == ("other", "NgramProposer"), path


@pytest.mark.parametrize(
    ("line", "body"),
    [
        ('[core.py:720]   File "/x/vllm/v1/engine/core.py", line 3, in run', '  File "/x/vllm/v1/engine/core.py", line 3, in run'),
        ("[core.py:720] Traceback (most recent call last):", "Traceback (most recent call last):"),
        ("[core.py:720]     self.run()", "    self.run()"),
        ("[core.py:720] RuntimeError: NPU out of memory", "RuntimeError: NPU out of memory"),
    ],
)
def test_the_tag_is_peeled_from_traceback_parts(line: str, body: str) -> None:
    header = VllmDialect().parse(line)
    assert header is not None and header.text == body and header.level is None


@pytest.mark.parametrize(
    "line",
    [
        "[core.py:720] Loading weights took 3.2 seconds",  # a message: no traceback part
        "[eagle.py:12](https://github.com/vllm-project/vllm/blob/main/eagle.py#L12) is where it fails",
        "see [core.py:720]   File x",
    ],
)
def test_other_lines_with_a_file_tag_stay_plain(line: str) -> None:
    assert VllmDialect().parse(line) is None
