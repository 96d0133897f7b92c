"""Session 22 (issue 11, PLUGIN2): the classes a method has had in every release of its framework
(vLLM's or a platform plugin's), for a run no release bounds; and the plugins' packages."""

from __future__ import annotations

import pytest

from spectrace.assemblers.vllm_plugins import plugin_package


@pytest.mark.parametrize(
    ("path", "plugin"),
    [
        ("/usr/local/lib/python3.11/site-packages/vllm_ascend/spec_decode/eagle_proposer.py", "vllm_ascend"),
        ("vllm_ascend/worker/model_runner_v1.py", "vllm_ascend"),
        ("C:\\envs\\x\\Lib\\site-packages\\vllm_gaudi\\v1\\worker\\hpu_model_runner.py", "vllm_gaudi"),
        ("/workspace/tpu_inference/runner/tpu_runner.py", "tpu_inference"),
        ("/opt/venv/lib/python3.12/site-packages/arctic_inference/vllm/spec_dec/x.py", "arctic_inference"),
        # near misses: vLLM's own tree, a module file named like a package, a prose word
        ("/usr/lib/python3/site-packages/vllm/v1/spec_decode/eagle.py", None),
        ("vllm_ascend.py", None),
        ("my_vllm_ascend_notes/eagle.py", None),
    ],
)
def test_plugin_package(path: str, plugin: str | None) -> None:
    assert plugin_package(path) == plugin


# --- a run on the plugin's tracker with no release: every era of the plugin ------------------
# (each text: another user, another copy form; the probe stands for the crash it tells)

from pathlib import Path  # noqa: E402

from tests.real_logs_helpers import PROBE, assert_verdict, roots, run  # noqa: E402


def _verdict(tmp_path: Path, lines: list[str]):
    """The path of the text's own crash, or of a probe appended where it shows none."""
    crashes = roots(run(tmp_path, lines))
    if crashes and crashes[0].worker_path is not None and (
        crashes[0].worker_path.value != "unknown" or crashes[0].worker_path.conditional
    ):
        return crashes[0].worker_path
    path = roots(run(tmp_path, [*lines, "", *PROBE]))[-1].worker_path
    assert path is not None
    return path


PLUGIN_TRACKER = {
    "index header, ngram": (
        ["vllm-project/vllm-ascend · issue #4101 · closed", "",
         "# [Bug]: ngram spec decode mode run failed", "",
         "ngram speculative decoding crashes on the first request with a shape error."],
        "NGramWorker|NgramProposer|AscendNgramProposer",
    ),
    "page title, MTP": (
        ["[Bug]: MTP run fails on DeepSeek-V3 · Issue #4102 · vllm-project/vllm-ascend", "",
         "With MTP enabled the engine dies on the first request."],
        "MultiStepWorker|MtpProposer|AscendEagleProposer",
    ),
    "wiki heading, draft model": (
        ["# vllm-project/vllm-ascend#4103: [Bug]: draft model speculative decoding crashes", "",
         "The draft model run crashes at the first request: hidden size mismatch."],
        "MultiStepWorker|AscendDraftModelProposer",
    ),
    "Chinese citation, EAGLE": (
        ["vllm-project/vllm-ascend#4104 · issue · open", "",
         "# [Bug]: EAGLE 投机推理启动后崩溃", "",
         "使用 EAGLE 投机推理时，首个请求就崩溃。"],
        "MultiStepWorker|EagleProposer|AscendEagleProposer",
    ),
}


@pytest.mark.parametrize("case", PLUGIN_TRACKER)
def test_plugin_tracker_gives_every_plugin_era(tmp_path: Path, case: str) -> None:
    lines, classes = PLUGIN_TRACKER[case]
    path = _verdict(tmp_path, lines)
    assert_verdict(path, "unknown", classes)
    assert "DraftModelProposer on the V1" not in path.conditional  # vLLM's CUDA classes never ran there
    assert "on the model runner v2 (vLLM" not in path.conditional


def test_plugin_release_keeps_its_class(tmp_path: Path) -> None:
    """Near miss: the plugin's release named: that release's class, decided, no era widening."""
    lines = ["vllm-project/vllm-ascend · issue #4105 · closed", "",
             "# [Bug]: ngram spec decode mode run failed on vllm-ascend v0.11.0", "",
             "vllm-ascend version: 0.11.0", "ngram speculative decoding crashes on the first request."]  # fmt: skip
    assert_verdict(_verdict(tmp_path, lines), "other", "NgramProposer")


# --- vLLM's tracker, a plugin file named in the bug's words: the plugin's eras too ------------

PLUGIN_PATH_NAMED = {
    "Chinese wiki page, draft model": [
        "# vllm-project/vllm#52001: [Bug]: draft/target hidden size 不兼容",
        "",
        "### 🐛 Describe the bug - 使用 Qwen3-0.6B 作为 draft，Qwen3-8B 作为 target - 首条请求立即崩溃 -"
        " 崩溃原因位于 vllm_ascend/spec_decode/eagle_proposer.py 的 hidden state 拷贝",
    ],
    "English body, draft model": [
        "vllm-project/vllm · issue #52002 · open",
        "",
        "# [Bug]: draft model run crashes on the first request",
        "",
        "The crash is in vllm_ascend/spec_decode/eagle_proposer.py where the draft buffer is filled.",
    ],
    "files list, draft model": [
        "[Bug]: draft model proposer shape mismatch · Issue #52003 · vllm-project/vllm",
        "",
        "A small draft model crashes the server at the first request.",
        "Related files:",
        "- `vllm_ascend/spec_decode/eagle_proposer.py`",
        "- `vllm/v1/spec_decode/eagle.py`",
    ],
    "absolute path in prose, draft model": [
        "vllm-project/vllm#52004 · issue · closed",
        "",
        "# [Bug]: speculative decoding with a draft model dies",
        "",
        "It fails in /usr/local/python3.11/lib/python3.11/site-packages/vllm_ascend/spec_decode/"
        "eagle_proposer.py when the draft model runs.",
    ],
}


@pytest.mark.parametrize("case", PLUGIN_PATH_NAMED)
def test_plugin_file_named_adds_the_plugins_eras(tmp_path: Path, case: str) -> None:
    path = _verdict(tmp_path, PLUGIN_PATH_NAMED[case])
    # both frameworks' classes: the writer's run may be on the plugin or on vLLM's GPU runner
    assert_verdict(path, "unknown", "AscendDraftModelProposer|DraftModelProposer|MultiStepWorker")


@pytest.mark.parametrize(
    "named",
    [
        "The crash is in vllm/v1/spec_decode/eagle.py where the draft buffer is filled.",
        # a link into the plugin's repository: a citation, not the writer's code
        "Compare https://github.com/vllm-project/vllm-ascend/blob/main/vllm_ascend/spec_decode/eagle_proposer.py",
    ],
)
def test_no_plugin_file_keeps_vllms_eras(tmp_path: Path, named: str) -> None:
    """Near misses: vLLM's own file, or a link to the plugin's: vLLM's eras only."""
    lines = ["vllm-project/vllm · issue #52005 · open", "",
             "# [Bug]: draft model run crashes on the first request", "", named]  # fmt: skip
    path = _verdict(tmp_path, lines)
    assert_verdict(path, "unknown", "MultiStepWorker|DraftModelProposer")
    assert "Ascend" not in path.conditional


# --- the plugin's tracker with a day and no release: the eras the day allows -----------------

DATED_EARLY = {
    "index header, post header": [
        "vllm-project/vllm-ascend · issue #4201 · closed", "",
        "# [Bug]: ngram spec decode mode run failed", "",
        "**alice** commented on Mar 3, 2025", "",
        "ngram speculative decoding crashes on the first request.",
    ],
    "page title, opener line": [
        "[Bug]: ngram crashes · Issue #4203 · vllm-project/vllm-ascend", "",
        "alice opened this issue on Mar 3, 2025", "",
        "ngram speculative decoding crashes on the first request.",
    ],
}


@pytest.mark.parametrize("case", DATED_EARLY)
def test_plugin_tracker_before_its_v1_proposers(tmp_path: Path, case: str) -> None:
    """A day before the plugin's V1 proposers (spring 2025): vLLM's V0 worker on the plugin,
    never the later NgramProposer / AscendNgramProposer alone."""
    assert_verdict(_verdict(tmp_path, DATED_EARLY[case]), "other", "NGramWorker")


def test_plugin_tracker_late_day_reads_the_v1_eras(tmp_path: Path) -> None:
    """Near miss: a day after the plugin's V1 proposers shipped (as vLLM's own day rule reads a
    day after its V1 class): the V1 eras begun by then, not V0's, not the later MRV2 class."""
    lines = ["[Bug]: MTP crashes · Issue #4204 · vllm-project/vllm-ascend", "",
             "alice opened this issue on Mar 3, 2026", "",
             "With MTP on, the server crashes on the first request."]  # fmt: skip
    path = _verdict(tmp_path, lines)
    assert_verdict(path, "unknown", "MtpProposer|AscendEagleProposer")
    assert "MultiStepWorker" not in path.conditional and "AscendMTPSpeculator" not in path.conditional


def test_plugin_tracker_day_inside_its_v0_releases(tmp_path: Path) -> None:
    """A day whose newest plugin release still shipped V0's spec decode, after its first V1
    proposer file: both, as a condition (never the V1 class decided)."""
    lines = ["[Bug]: MTP crashes · Issue #4205 · vllm-project/vllm-ascend", "",
             "alice opened this issue on Jun 20, 2025", "",
             "With MTP on, the server crashes on the first request."]  # fmt: skip
    assert_verdict(_verdict(tmp_path, lines), "unknown", "MultiStepWorker|MtpProposer")
