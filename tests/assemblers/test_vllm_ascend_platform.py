"""The Ascend platform as threads show it (round 11: vLLM's plugin list naming vllm_ascend, the
plugin's release in an environment bullet, ``--quantization ascend``) and the plugin's class by
its release, read from every vllm-ascend tag's own dispatch: a run on Ascend never gets vLLM's
CUDA class, and with no plugin release a class renamed between releases stays a condition."""

from __future__ import annotations

import pytest
from asm_helpers import collect_config as collect

from spectrace.assemblers.vllm_config import ascend_release, ascend_signal
from spectrace.assemblers.vllm_plugins import ascend_proposer
from spectrace.linker import global_worker_path

LAUNCH = ("vllm serve /models/q35 --tensor-parallel-size 4 --speculative-config "
          "'{{\"method\": \"{}\", \"num_speculative_tokens\": 1}}'")  # fmt: skip


@pytest.mark.parametrize(
    ("line", "release"),
    [("INFO 07-04 16:26:35 [__init__.py:46] - ascend -> vllm_ascend:register", None),
     ("- vllm-ascend version: 0.23.0", "0.23.0"),
     ("- vllm-ascend版本：0.23.0", "0.23.0"),
     ("+    --quantization ascend \\", None),
     ("image quay.io/ascend/vllm-ascend:v0.19.1rc1", "0.19.1rc1")],
)  # fmt: skip
def test_ascend_platform_lines_and_the_plugin_release(line, release) -> None:
    assert ascend_signal(line) and ascend_release(line) == release


def test_lookalikes_are_no_platform() -> None:
    for line in ("see github.com/vllm-project/vllm-ascend/issues/12",
                 "faster than vllm-ascend and vllm 0.23.0", "--quantization fp8"):  # fmt: skip
        assert not ascend_signal(line) and ascend_release(line) is None


def test_the_plugin_line_without_a_release_names_both_mtp_classes() -> None:
    config = collect("INFO 07-04 16:26:35 [__init__.py:46] - ascend -> vllm_ascend:register",
                     LAUNCH.format("qwen3_5_mtp"))  # fmt: skip
    path = global_worker_path(config)
    assert (path.value, path.worker_class, path.framework, path.family) == (
        "unknown", None, "vllm_ascend", "MTP")  # fmt: skip
    assert path.conditional == ("MtpProposer on vllm-ascend v0.12.0rc1-v0.15.0rc1, "
                                "AscendEagleProposer on vllm-ascend v0.16.0rc1-v0.30.0rc2")  # fmt: skip
    assert "vllm-ascend version" in path.missing[0]


def test_the_release_in_an_environment_bullet_decides_the_plugins_class() -> None:
    path = global_worker_path(collect("- vllm-ascend版本：0.23.0", LAUNCH.format("qwen3_5_mtp")))
    assert (path.value, path.worker_class, path.framework) == ("other", "AscendEagleProposer",
                                                               "vllm_ascend")  # fmt: skip


@pytest.mark.parametrize(
    ("method", "plugin", "worker"),
    [("mtp", "0.13.0", "MtpProposer"), ("mtp", "0.16.0rc1", "AscendEagleProposer"),
     ("eagle3", "0.15.0rc1", "EagleProposer"), ("deepseek_mtp", "0.11.0", "MtpProposer"),
     ("glm4_moe_mtp", "0.14.0rc1", "MtpProposer")],
)  # fmt: skip
def test_each_plugin_release_builds_its_own_class(method, plugin, worker) -> None:
    assert ascend_proposer(method, plugin)[0] == worker


def test_quantization_ascend_makes_an_old_eagle_run_the_plugins_own_class() -> None:
    lines = ["image: quay.io/ascend/vllm-ascend:v0.13.0",
             LAUNCH.format("eagle3") + " --quantization ascend"]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.worker_class, path.framework) == ("EagleProposer", "vllm_ascend")
    cuda = global_worker_path(collect(LAUNCH.format("eagle3")))
    assert (cuda.worker_class, cuda.framework) == ("EagleProposer", "vllm")


def test_a_plugin_release_newer_than_every_tag_read_keeps_the_newest_class() -> None:
    assert ascend_proposer("mtp", "0.31.0")[0] == "AscendEagleProposer"
    assert ascend_proposer("deepseek_mtp", "0.31.0")[0] == "AscendEagleProposer"  # vLLM's mtp


@pytest.mark.parametrize(
    ("vllm", "worker"), [("0.13.0", "MtpProposer"), ("0.17.1", "AscendEagleProposer")]
)
def test_without_the_plugins_release_the_vllm_release_it_pairs_with_decides(vllm, worker) -> None:
    lines = ["export HCCL_BUFFSIZE=512",
             f"INFO 05-02 10:00:00 [api_server.py:1287] vLLM API server version {vllm}",
             LAUNCH.format("mtp")]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.framework) == ("other", worker, "vllm_ascend")
    assert f"paired with vLLM {vllm}" in path.evidence[-1].reason


def test_another_platform_plugin_keeps_the_family_and_names_vllms_class_as_a_condition() -> None:
    lines = ["INFO 05-02 10:00:00 [__init__.py:235] Platform plugin tpu is activated",
             LAUNCH.format("eagle3")]  # fmt: skip
    path = global_worker_path(collect(*lines))
    assert (path.value, path.worker_class, path.family) == ("unknown", None, "EAGLE3")
    assert path.conditional is not None and path.conditional.startswith(
        "EagleProposer on vLLM's GPU"
    )
    cuda = ["INFO 05-02 10:00:00 [__init__.py:235] Automatically detected platform cuda.",
            LAUNCH.format("eagle3")]  # fmt: skip
    assert global_worker_path(collect(*cuda)).worker_class == "EagleProposer"
    npu = ["INFO 05-02 10:00:00 [__init__.py:220] Automatically detected platform npu.",
           "- vllm-ascend version: 0.23.0", LAUNCH.format("eagle3")]  # fmt: skip
    assert global_worker_path(collect(*npu)).worker_class == "AscendEagleProposer"


@pytest.mark.parametrize(
    "named",
    ["see vllm-project/vllm-ascend for the plugin",
     "# [Feature] AscendFooProposer learns a new trick",
     "from vllm_ascend.spec_decode import something"],
)  # fmt: skip
def test_a_text_naming_the_plugin_keeps_vllms_class_a_condition(named) -> None:
    """A thread of the plugin's (its repository, a class of its own, its package) with an
    ``LLM(speculative_config=...)`` snippet: no line shows the run on Ascend or on CUDA, so
    neither vLLM's class nor the plugin's is decided; both are named as conditions."""
    snippet = ['llm = LLM(model="m", speculative_config={"method": "eagle3", '
               '"num_speculative_tokens": 2})', "- vLLM version: v0.20.2"]  # fmt: skip
    path = global_worker_path(collect(named, *snippet))
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional is not None
    assert "EagleProposer on vLLM's GPU" in path.conditional
    assert "AscendEagleProposer on vllm-ascend" in path.conditional
    assert global_worker_path(collect(*snippet)).worker_class == "EagleProposer"


def test_the_plugins_own_thread_is_an_ascend_run() -> None:
    """A thread of the plugin's repository (its header line) is about runs on Ascend: its
    docs and reports launch on NPUs, so the method names the plugin's class."""
    snippet = ['llm = LLM(model="m", speculative_config={"method": "eagle3", '
               '"num_speculative_tokens": 2})', "- vLLM version: v0.20.2"]  # fmt: skip
    header = "vllm-project/vllm-ascend · pull request #77 · open"
    path = global_worker_path(collect(header, *snippet))
    assert (path.value, path.worker_class) == ("other", "AscendEagleProposer")
    sentence = "I read vllm-project/vllm-ascend · issue #5 before filing this"
    assert global_worker_path(collect(sentence, *snippet)).worker_class is None


@pytest.mark.parametrize(
    ("line", "on_ascend"),
    [('  File "/opt/py/site-packages/vllm_ascend/worker/model_runner_v1.py", line 88, in run', True),
     ("    execute_model (vllm_ascend/worker/model_runner_v1.py:88)", True),
     ("see https://github.com/vllm-project/vllm-ascend/blob/main/vllm_ascend/ops/x.py#L3", False),
     ("vllm_ascend/worker/model_runner_v1.py:88 looks wrong to me", False)],
)  # fmt: skip
def test_a_frame_of_the_plugins_code_puts_the_run_on_ascend(line: str, on_ascend: bool) -> None:
    """The plugin's installed code in a traceback or py-spy frame ran: the run is on Ascend
    even where no other line names the plugin (its class by release, never vLLM's CUDA one)."""
    assert bool(ascend_signal(line)) is on_ascend
