"""Session 22 (issue 11, PLUGIN2): the platform plugins' packages, one test driven by their tables."""

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

