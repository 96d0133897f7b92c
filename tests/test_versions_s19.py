"""Every way a crash log states its engine's release (issue 11, session 19): an installed
package's folder or wheel, a pip install from a git tag, a checkout of a tag, a Markdown table
row naming the engine, an image of the user's own whose name carries the engine, and vLLM's
collect_env line wherever it sits. Each read release decides the worker path a launch leaves
to the release; a release of another package, or one the line sets apart, decides nothing.
Our own lines, in the shapes people paste."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import crash_path, run

from spectrace.assemblers.sglang_version import find_sglang_version
from spectrace.assemblers.vllm_config import prose_version

_SGL_LAUNCH = ("python3 -m sglang.launch_server --model-path org/target-8b --speculative-algorithm EAGLE "
               "--speculative-draft-model-path org/target-8b-eagle --speculative-num-steps 3 --tp 2")  # fmt: skip
_SGL_CRASH = [
    "Traceback (most recent call last):",
    '  File "/opt/py/lib/python3.11/site-packages/sglang/srt/layers/attention/triton_backend.py", line 90, in forward',
    "    out = self.kernel(q, k, v)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip
_OLD, _NEW = "EAGLEWorker", "EAGLEWorkerV2"  # sglang 0.4.x runs v1 alone; 0.5.13 on runs v2 alone


@pytest.mark.parametrize(("env", "worker"), [
    # an installed package's folder, as pip show / a frame / find prints it
    (["Location: /opt/venv/lib/python3.12/site-packages/sglang-0.5.14.dist-info"], _NEW),
    (["/usr/lib/python3/dist-packages/sglang-0.4.7.post1.dist-info/METADATA"], _OLD),
    (["  sglang-0.4.6.egg-info/PKG-INFO"], _OLD),
    # a wheel or an sdist
    (["$ pip install ./dist/sglang-0.5.15-py3-none-any.whl"], _NEW),
    (["Downloading sglang-0.4.6.post1.tar.gz (1.2 MB)"], _OLD),
    # pip installing a tag of the repository
    (['pip install "git+https://github.com/sgl-project/sglang.git@v0.5.14#subdirectory=python"'], _NEW),
    # a checkout of a release tag, in a command or a sentence
    (["git clone https://github.com/sgl-project/sglang && cd sglang && git checkout v0.5.15",
      'pip install -e "python[all]"'], _NEW),
    (["cd sglang; git checkout tags/v0.4.6"], _OLD),
    (["Built from the v0.5.15 tag of sglang."], _NEW),
    (["I installed sglang from source at tag v0.4.7."], _OLD),
    (["Checked out source: tag `v0.5.15` (`f63458b`)."], _NEW),
    (["git clone -b v0.4.6 https://github.com/sgl-project/sglang.git"], _OLD),
    # the package's answer on the line that asks it
    (['$ python -c "import sglang; print(sglang.__version__)"  # 0.4.6.post1'], _OLD),
    ([">>> sglang.__version__ '0.5.14'"], _NEW),
    # a Markdown table row naming the engine
    (["| Component | Version |", "|---|---|", "| SGLang | 0.4.6.post1 |", "| CUDA | 12.4 |"], _OLD),
    (["| key | value |", "| --- | --- |", "| sglang version | `v0.5.14` |"], _NEW),
    (["|**SGLang**|0.5.15|"], _NEW),
    (["| GPU | 8x H200 |", "| SGLang | 0.5.14-dev (image: lmsysorg/sglang:dev) |"], _NEW),
    # an image of the user's own whose name carries the engine and a published release
    (["We run our registry.example.com/infra/dgx-spark-sglang:0.5.14 image and it crashed:"], _NEW),
    (["docker run --gpus all myteam/sglang-patched:v0.4.6-cu124 \\"], _OLD),
])  # fmt: skip
def test_a_stated_sglang_release_decides_the_worker(tmp_path: Path, env: list[str], worker: str) -> None:
    path = crash_path(run(tmp_path, [*env, _SGL_LAUNCH, *_SGL_CRASH]))
    assert path.worker_class == worker, path
    assert any(r in " ".join(e.reason for e in path.evidence) for r in ("0.4.", "0.5.1")), path


@pytest.mark.parametrize("env", [
    ["sgl_kernel-0.4.6.dist-info"],  # another package's folder
    ["sglang_router-0.4.6-py3-none-any.whl"],
    ["| sgl-kernel | 0.4.6 |"],  # another package's row
    ["| SGLang | 0.4.6 | 0.5.14 |"],  # a row comparing two releases: either may have run
    ["| SGLang | 0.4.6 |", "| SGLang | 0.5.14 |"],
    ["docker run myteam/sglang-router:0.4.6"],  # the router's image, not the engine's
    ["docker run myteam/sglang-serving:1.2.0"],  # a tag of the team's own, no SGLang release
    ["After upgrading sglang from 0.4.6 to 0.5.14 the crash appears."],
    ["cd sglang && git checkout v0.4.6 works fine for us."],  # the release said to work
    ["cd flashinfer && git checkout v0.2.5"],  # another package's tag
    ["We pinned the flashinfer tag v0.2.5 for the build."],
])  # fmt: skip
def test_what_states_no_sglang_release_leaves_the_condition(tmp_path: Path, env: list[str]) -> None:
    path = crash_path(run(tmp_path, [*env, _SGL_LAUNCH, *_SGL_CRASH]))
    assert path.value == "unknown" and path.conditional, path


@pytest.mark.parametrize(("text", "release"), [
    ("sglang-0.5.3.post1.dist-info", (0, 5, 3, 1)),
    ("| SGLang | v0.5.10 |", (0, 5, 10)),
    ("| sglang | 0.5.10.post1 |", (0, 5, 10, 1)),
])  # fmt: skip
def test_the_release_read_whole(text: str, release: tuple[int, ...]) -> None:
    assert find_sglang_version(text) == release


_VLLM_CRASH = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/linear.py", line 500, in forward',
    "    output = self.quant_method.apply(self, x)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip
_VLLM_LAUNCH = ("vllm serve org/target-8b --speculative-config "
                "'{\"method\": \"eagle\", \"model\": \"org/target-8b-eagle\", \"num_speculative_tokens\": 4}'")  # fmt: skip


@pytest.mark.parametrize(("env", "after"), [
    (["Collecting environment information...", "vLLM Version: 0.7.3", "vLLM Build Flags:"], []),
    (["vLLM Version                 : 0.7.3"], []),  # collect_env's newer padded layout
    (["vLLM Version                 : 0.7.3.dev705+g01220ce89 (git sha: 01220ce89)"], []),
    (["vLLM Version: 0.7.3+empty (Editable install)"], []),
    ([], ["INFO 03-12 10:00:00 api_server.py:585] vLLM API server version 0.7.3"]),  # printed after
    ([], ["vLLM Version: 0.7.3"]),  # the environment pasted under the traceback
    ([], ["(APIServer pid=1) INFO 05-02 10:00:00 [utils.py:233] ",  # the newer servers' logo
          "       █     █     █▄   ▄█", " ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.7.3",
          "  █▄█▀ █     █     █     █  model   org/target-8b"]),
    ([], [" ▄▄ ▄█ █     █     █ ▀▄▀ █  version \x1b[1m0.7.3\x1b[0m"]),  # in colour
    (["| vLLM | 0.7.3 |"], []),
    (["Location: /usr/local/lib/python3.12/dist-packages/vllm-0.7.3.dist-info"], []),
    (["[pip3] vllm==0.7.3"], []),  # collect_env's package row of the engine itself
    (["$ pip list | grep vllm", "vllm                              0.7.3"], []),
    (["vllm                      0.7.3                    pypi_0    pypi"], []),  # conda list
    (["$ pip show vllm", "Name: vllm", "Version: 0.7.3", "Summary: A high-throughput and memory-efficient engine"], []),
    (["docker run --gpus all vllm/vllm-openai:v0.7.3 \\"], []),  # the run's image
    ([], ["vLLM 0.7.3 on 8x H100."]),  # the one release the text names
])  # fmt: skip
def test_a_stated_vllm_release_decides_the_launch(tmp_path: Path, env: list[str], after: list[str]) -> None:
    path = crash_path(run(tmp_path, [*env, _VLLM_LAUNCH, *after, *_VLLM_CRASH]))
    assert path.worker_class == "MultiStepWorker", path  # 0.7.3 ran V0 unless V1 was opted into
    assert "0.7.3" in " ".join(e.reason for e in path.evidence), path


@pytest.mark.parametrize("env", [
    ["Upgrading from vLLM 0.7.3 to 0.10.1 did not help."],  # a move: either may be the run's
    ["It works on vLLM 0.7.3 but crashes on the new release."],  # the working one
    ["Fixed in vLLM 0.7.3, please upgrade."],
    ["[pip3] vllm==0.7.3", "INFO 05-02 10:00:00 api_server.py:585] vLLM API server version 0.10.1"],
    ["Name: vllm-ascend", "Version: 0.7.3"],  # another package's pip show
    ["vllm-flash-attn                   0.7.3"],  # another package's pip list row
])  # fmt: skip
def test_what_states_no_vllm_release_keeps_the_launch(tmp_path: Path, env: list[str]) -> None:
    path = crash_path(run(tmp_path, [*env, _VLLM_LAUNCH, *_VLLM_CRASH]))
    assert path.worker_class != "MultiStepWorker", path


@pytest.mark.parametrize(("text", "release"), [
    ("| vLLM | 0.10.1.1 |", "0.10.1.1"),
    ("| **vllm** | v0.11.0 |", "0.11.0"),
    ("/opt/venv/lib/python3.12/site-packages/vllm-0.10.1.dist-info", "0.10.1"),
    ("pip install vllm-0.10.1-cp38-abi3-manylinux1_x86_64.whl", "0.10.1"),
    ("pip install git+https://github.com/vllm-project/vllm.git@v0.10.1", "0.10.1"),
    ("cd vllm && git checkout v0.10.1", "0.10.1"),
    (">>> vllm.__version__ '0.10.1'", "0.10.1"),
    ("git clone -b v0.10.1 https://github.com/vllm-project/vllm.git", "0.10.1"),
])  # fmt: skip
def test_vllm_release_forms(text: str, release: str) -> None:
    assert prose_version(text) == release


@pytest.mark.parametrize("text", ["| vllm-ascend | 0.10.1 |", "vllm_ascend-0.10.1.dist-info", "| vLLM | 0.10.1 | 0.11.0 |",
                                  "git clone -b v0.10.1rc1 https://github.com/vllm-project/vllm-ascend.git",
                                  "cd flashinfer && git checkout v0.2.5"])
def test_what_is_no_vllm_release_form(text: str) -> None:
    assert prose_version(text) is None


_TRT_RUN = [
    "trtllm-serve org/target-8b --extra_llm_api_options spec.yaml",
    "speculative_config:", "  decoding_type: Eagle3", "  max_draft_len: 3", "  speculative_model_dir: org/target-8b-eagle3",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 900, in _loop',
    "    self._forward_step(batch)",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]  # fmt: skip


@pytest.mark.parametrize("row", ["| TensorRT-LLM | 1.1.0rc2 |", "|**TRT-LLM version**|`v1.1.0`|"])
def test_a_tensorrt_llm_table_row_gives_the_release_defaults(tmp_path: Path, row: str) -> None:
    path = crash_path(run(tmp_path, ["| Component | Version |", "|---|---|", row, *_TRT_RUN]))
    assert path.worker_class == "Eagle3OneModelWorker", path  # eagle3_one_model's default in 1.1
    assert "1.1.0" in " ".join(e.reason for e in path.evidence), path


@pytest.mark.parametrize("row", ["| TRT-LLM | 45.2 | 30.1 |", "| TensorRT-LLM | 1.0.0 | 1.1.0 |"])
def test_a_results_row_or_two_releases_leave_the_condition(tmp_path: Path, row: str) -> None:
    path = crash_path(run(tmp_path, [row, *_TRT_RUN]))
    assert path.value == "unknown" and path.conditional, path


_MTP_LAUNCH = ("vllm serve org/moe-mtp --tensor-parallel-size 16 "
               "--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'")  # fmt: skip


@pytest.mark.parametrize(("env", "proposer"), [
    (["vLLM Version: 0.17.0", "vLLM Ascend Version: 0.17.0rc1"], "AscendEagleProposer"),
    (["vLLM Ascend Version: 0.17.0rc1"], "AscendEagleProposer"),  # the plugin's line alone
    (["vLLM Ascend Version: 0.13.0rc1"], "MtpProposer"),
])  # fmt: skip
def test_the_plugin_collect_env_line_places_the_run_and_its_release(
    tmp_path: Path, env: list[str], proposer: str
) -> None:
    path = crash_path(run(tmp_path, [*env, _MTP_LAUNCH, *_VLLM_CRASH]))
    assert path.worker_class == proposer, path
