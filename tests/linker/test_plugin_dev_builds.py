"""A platform plugin's dev build lies between two of its releases, never on the next one.

setuptools-scm numbers a vllm-ascend checkout between tags ``0.14.0rc2.dev150+gff3a50d01``:
150 commits after v0.14.0rc1, before whatever tag comes next. Its code is the tag before's or
the tag after's (the proposers are renamed or added on the way), so a class only one of them
built is never decided for it: the verdict names both (or the one both built). People state
such builds in the plugin's collect_env (``vLLM Ascend Version:``), a pip pin or list, a wheel
file name, an environment bullet; the plugin's own tags (``0.16.0rc1``, a tag's local build
``0.14.0rc1+gabc1234``, an image tag ``vllm-ascend:v0.16.0rc1-a3``) still decide. Every line
here is written by us in the real shapes; none is pasted."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrace.assemblers.vllm_config import ascend_release
from spectrace.assemblers.vllm_plugins import ascend_proposer
from spectrace.worker_path import WorkerPath
from tests.real_logs_helpers import assert_verdict, crash_path, run

WS = "/vllm-workspace/vllm-ascend/vllm_ascend"
PKG = "/usr/local/python3.11.14/lib/python3.11/site-packages/vllm_ascend"


@pytest.mark.parametrize(
    ("line", "release"),
    [
        ("vLLM Ascend Version: 0.14.0rc2.dev150+gff3a50d01 (git sha: ff3a50d01)", "0.14.0rc2.dev150+gff3a50d01"),
        ("vllm_ascend==0.15.0rc2.dev12+g1a2b3c4", "0.15.0rc2.dev12+g1a2b3c4"),
        ("- vllm-ascend version: 0.16.0.dev0", "0.16.0.dev0"),
        ("pip install dist/vllm_ascend-0.13.1.dev5+g9f8e7d6-cp311-cp311-linux_aarch64.whl", "0.13.1.dev5+g9f8e7d6"),
        ("[pip3] vllm_ascend==0.14.0rc1+gabc1234", "0.14.0rc1+gabc1234"),
        ("image quay.io/ascend/vllm-ascend:v0.16.0rc1-a3", "0.16.0rc1"),
        ("vLLM Ascend Version: v0.13.0rc3", "0.13.0rc3"),
        ("vllm-ascend==0.7.3.post1", "0.7.3.post1"),
    ],
)
def test_every_spelling_of_the_plugins_build_is_read_whole(line: str, release: str) -> None:
    """The dev counter and the commit stay: dropping them would move the build onto a tag."""
    assert ascend_release(line) == release


@pytest.mark.parametrize(
    ("method", "plugin", "worker", "classes"),
    [
        # after v0.15.0rc1 (EagleProposer), before v0.16.0rc1 (AscendEagleProposer)
        ("eagle3", "0.15.0rc2.dev12+g1a2b3c4", None, {"EagleProposer", "AscendEagleProposer"}),
        ("eagle3", "0.16.0.dev0", None, {"EagleProposer", "AscendEagleProposer"}),
        ("eagle3", "0.16.0rc1.dev7", None, {"EagleProposer", "AscendEagleProposer"}),
        ("mtp", "0.15.0rc2.dev3", None, {"MtpProposer", "AscendEagleProposer"}),
        # between two tags that build the same class: that class
        ("mtp", "0.14.0rc2.dev150+gff3a50d01", "MtpProposer", set()),
        ("eagle3", "0.18.0rc1.dev40+g0a0a0a0", "AscendEagleProposer", set()),
        # a tag, and a local build of a tag, decide as the tag
        ("eagle3", "0.16.0rc1", "AscendEagleProposer", set()),
        ("eagle3", "0.15.0rc1+gabc1234", "EagleProposer", set()),
    ],
)
def test_a_dev_build_names_the_classes_of_the_tags_around_it(
    method: str, plugin: str, worker: str | None, classes: set[str]
) -> None:
    found, _why, condition = ascend_proposer(method, plugin)
    assert found == worker, (found, condition)
    assert all(c in (condition or "") for c in classes), condition


def _issue_copy(plugin_line: str, vllm: str = "0.16.0rc2.dev3+g978a37c82") -> list[str]:
    """A web copy of a plugin issue: collect_env (vLLM's and the plugin's builds), MTP
    drafter log lines written by the plugin's eagle proposer file, the API server timing out."""
    return [
        "https://github.com/vllm-project/vllm-ascend/issues/9101",
        "[Bug]: two-node DeepSeek serve never comes up · Issue #9101 · vllm-project/vllm-ascend",
        "Your current environment",
        "PyTorch version: 2.9.0+cpu",
        "[pip3] torch_npu==2.9.0",
        f"vLLM Version: {vllm} (git sha: 978a37c82)",
        plugin_line,
        "Describe the bug",
        *(f"(Worker_DP0_TP{r}_EP{r} pid={900 + r}) INFO 03-02 11:01:21 [eagle_proposer.py:236] "
          "Detected MTP model. Sharing target model embedding weights with the draft model."
          for r in range(2)),
        "ERROR 03-02 11:02:41 [utils.py:289] Exception occurred while running API servers: "
        "Process ApiServer_0 (PID: 466) died with exit code 1",
        "Traceback (most recent call last):",
        '  File "/usr/local/python3.11.14/lib/python3.11/site-packages/vllm/v1/utils.py", '
        "line 276, in wait_for_completion_or_failure",
        "    raise RuntimeError(",
        "RuntimeError: Process ApiServer_0 (PID: 466) died with exit code 1",
    ]


def _not_later(path: WorkerPath, allowed: set[str]) -> None:
    """Right for the build: a class it may have run, or a condition naming them; never a
    class only a later tag built."""
    named = path.worker_class or ""
    assert named in allowed or (not named and path.conditional), path
    said = f"{path.worker_class} {path.conditional}"
    assert "AscendEagleProposer" not in said or "AscendEagleProposer" in allowed, said


@pytest.mark.parametrize(
    "plugin_line",
    [
        "vLLM Ascend Version: 0.14.0rc2.dev150+gff3a50d01 (git sha: ff3a50d01)",
        "[pip3] vllm_ascend==0.14.0rc2.dev150+gff3a50d01",
        "- vllm-ascend version: 0.14.0rc2.dev150",
        "vllm_ascend                       0.14.0rc2.dev150+gff3a50d01",
    ],
)
def test_an_issue_on_a_dev_build_never_gets_a_later_releases_class(tmp_path: Path, plugin_line: str) -> None:
    """vLLM's own build is 0.16's, the plugin's is 0.14's: the plugin's decides, and its dev
    build is no later release (0.16's AscendEagleProposer was never in it)."""
    path = crash_path(run(tmp_path, _issue_copy(plugin_line)))
    _not_later(path, {"MtpProposer", "EagleProposer"})


def _server(plugin_line: str, method: str = "eagle3") -> list[str]:
    """A bare server log on Ascend: the plugin's build in a pip list, the launch, the crash
    in the plugin's eagle proposer file."""
    head = "(EngineCore_DP0 pid=812) ERROR 03-21 09:20:11 [core.py:710] "
    return [
        plugin_line,
        "INFO 03-21 09:12:03 [__init__.py:216] Platform plugin ascend is activated",
        "(APIServer pid=700) INFO 03-21 09:12:05 [utils.py:233] non-default args: {'model': "
        f"'/data/Qwen3-32B', 'speculative_config': {{'method': '{method}', 'model': "
        "'/data/qwen3-32b-eagle3', 'num_speculative_tokens': 2}}",
        f"{head}EngineCore encountered a fatal error.",
        f"{head}Traceback (most recent call last):",
        f'{head}  File "{WS}/worker/model_runner_v1.py", line 2034, in execute_model',
        f"{head}    self._draft_token_ids = self.propose_draft_token_ids(",
        f'{head}  File "{WS}/spec_decode/eagle_proposer.py", line 412, in _propose',
        f"{head}    hidden_states = self.model(",
        f"{head}RuntimeError: The size of tensor a (2048) must match the size of tensor b (1024) "
        "at non-singleton dimension 0",
    ]


@pytest.mark.parametrize(
    "plugin_line",
    [
        "vllm_ascend==0.15.0rc2.dev12+g1a2b3c4",
        "- vllm-ascend version: 0.16.0.dev0",
        "vLLM Ascend Version: 0.16.0rc1.dev7+g5e5e5e5",
    ],
)
def test_a_build_before_the_rename_is_a_condition_over_both_names(tmp_path: Path, plugin_line: str) -> None:
    path = crash_path(run(tmp_path, _server(plugin_line)))
    assert_verdict(path, "unknown", "EagleProposer|AscendEagleProposer")


@pytest.mark.parametrize(
    ("plugin_line", "worker"),
    [
        ("vllm_ascend==0.16.0rc1", "AscendEagleProposer"),
        ("vLLM Ascend Version: 0.18.0rc1.dev40+g0a0a0a0", "AscendEagleProposer"),
        ("[pip3] vllm_ascend==0.14.0rc1+gabc1234", "EagleProposer"),
    ],
)
def test_tags_and_builds_between_tags_of_one_class_still_decide(
    tmp_path: Path, plugin_line: str, worker: str
) -> None:
    path = crash_path(run(tmp_path, _server(plugin_line)))
    assert (path.value, path.worker_class) == ("other", worker), path


def test_a_frame_on_a_dev_build_names_what_the_tags_around_it_held(tmp_path: Path) -> None:
    """No method: eagle_proposer.py on a build after v0.15.0rc1 (EagleProposer, MtpProposer
    deriving from it) and before v0.16.0rc1 (AscendEagleProposer): those three, not the
    proposers later tags derived from the file (AscendDflashProposer from v0.19.1rc1)."""
    lines = [line for line in _server("vllm_ascend==0.15.0rc2.dev12+g1a2b3c4") if "non-default" not in line]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "EagleProposer|MtpProposer|AscendEagleProposer")
    assert "AscendDflashProposer" not in (path.conditional or ""), path.conditional
