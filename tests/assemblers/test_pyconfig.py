"""A ``speculative_config`` dict in a pasted Python script: read over its lines, as data
(issue 11, round 7). The scripts are written by us in the shapes issue threads show."""

from __future__ import annotations

from pathlib import Path

from spectrace.assemblers.pyconfig import python_spec_dict
from spectrace.pipeline import analyse

SCRIPT = """\
from vllm import LLM, SamplingParams

def main():
    speculative_config = {
        "method": "eagle3",  # the head below
        "model": "/models/{hub}/EAGLE3-Llama-3.1-8B",
        "num_speculative_tokens": 3,
    }
    llm = LLM(
        model="meta-llama/Llama-3.1-8B-Instruct",
        speculative_config=speculative_config,
        max_model_len=2048,
    )
Traceback (most recent call last):
  File "/work/run.py", line 14, in <module>
RuntimeError: our own probe
"""


def _path(tmp_path: Path, text: str):
    log = tmp_path / "script.log"
    log.write_text(text)
    analysis = analyse([str(log)])
    return analysis.config, analysis.incidents[0].worker_path


def test_a_multi_line_dict_in_a_script_names_the_method_and_proposer(tmp_path: Path) -> None:
    config, path = _path(tmp_path, SCRIPT.replace("{hub}", "org"))
    method = config.flags["speculative_config.method"]
    assert (method.value, method.lineno) == ("eagle3", 4)
    assert config.flags["speculative_config.num_spec_tokens"].value == 3
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")


def test_a_model_from_the_vllm_ascend_hub_names_the_plugin(tmp_path: Path) -> None:
    _config, path = _path(tmp_path, SCRIPT.replace("{hub}", "vllm-ascend"))
    assert (path.worker_class, path.framework) == (None, "vllm_ascend")
    # no plugin release: its eagle class was renamed in v0.16.0rc1, so both are named
    assert path.conditional is not None and "AscendEagleProposer on vllm-ascend v0.16.0rc1" in path.conditional
    assert "EagleProposer on vllm-ascend v0.10.2rc1-v0.15.0rc1" in path.conditional
    assert "vllm-ascend version" in path.missing[0]


def test_an_inline_keyword_dict_and_a_cut_one_are_read_without_running_them() -> None:
    line = 'llm = LLM(model="m", speculative_config={"method": "ngram", "prompt_lookup_max": 4})'
    assert python_spec_dict(line) == {"method": "ngram", "prompt_lookup_max": 4}
    cut = 'speculative_config = {"method": "mtp", "num_speculative_tokens": 1, "model": "/m'
    assert python_spec_dict(cut) == {"method": "mtp", "num_speculative_tokens": 1}
    hostile = 'speculative_config = {"method": __import__("os").system("x"), "model": "d"}'
    got = python_spec_dict(hostile)
    assert got is not None and got["model"] == "d" and not isinstance(got["method"], int)
    assert python_spec_dict('--speculative_config \'{"method": "eagle"}\'') is None


def test_an_unclosed_dict_stops_at_its_bound(tmp_path: Path) -> None:
    body = "speculative_config = {\n" + '    "method": "eagle3",\n' + "    1,\n" * 200
    config, _path_ = _path(tmp_path, body + SCRIPT.replace("{hub}", "org").split("Traceback")[1])
    assert config.flags["speculative_config.method"].value == "eagle3"


def test_ascend_env_names_the_plugin_and_a_repository_name_does_not(tmp_path: Path) -> None:
    launch = (
        "export HCCL_BUFFSIZE=512\n"
        "vllm serve /models/Qwen3-8B --speculative-config "
        '\'{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 3}\'\n'
    )
    crash = SCRIPT.split("max_model_len=2048,\n    )\n")[1]
    _config, path = _path(tmp_path, launch + crash)
    assert (path.worker_class, path.framework) == (None, "vllm_ascend")
    assert "AscendNgramProposer on vllm-ascend v0.16.0rc1" in (path.conditional or "")
    _config, path = _path(tmp_path, "vllm-ascend版本：0.23.0\n" + launch + crash)
    assert (path.worker_class, path.framework) == ("AscendNgramProposer", "vllm_ascend")
    url = "see https://github.com/vllm-project/vllm-ascend/issues/1 for the same\n"
    _config, path = _path(tmp_path, url + launch.split("\n", 1)[1] + crash)
    assert (path.worker_class, path.framework) == ("NgramProposer", "vllm")


def test_server_args_written_as_json_with_a_release_in_prose_decide(tmp_path: Path) -> None:
    args = ('I use sglang v0.5.10 and the command is {"tp_size": 4, "trust_remote_code": true, '
            '"speculative_algorithm": "NEXTN", "speculative_eagle_topk": 1, "mem_fraction_'
            'static": 0.8}\n')  # fmt: skip
    crash = SCRIPT.split("max_model_len=2048,\n    )\n")[1]
    config, path = _path(tmp_path, args + crash)
    assert config.flags["speculative_algorithm"].value == "NEXTN"
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")  # spec v2 off before 0.5.11


def test_on_ascend_the_plugins_class_replaces_vllms_cuda_class(tmp_path: Path) -> None:
    launch = (
        "export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True\n"
        "vllm serve /models/Qwen3-8B --speculative-config "
        '\'{"method": "dflash", "model": "/models/Qwen3-8B-DFlash", "num_speculative_tokens": 8}\'\n'
    )
    crash = SCRIPT.split("max_model_len=2048,\n    )\n")[1]
    _config, path = _path(tmp_path, launch + crash)
    assert (path.worker_class, path.framework) == ("AscendDflashProposer", "vllm_ascend")
    assert any(
        "on Ascend vllm-ascend builds AscendDflashProposer" in e.reason for e in path.evidence
    )


def test_the_plugin_named_with_its_release_in_prose_picks_that_releases_class(tmp_path: Path) -> None:
    crash = SCRIPT.split("max_model_len=2048,\n    )\n")[1]
    flag = "--speculative-config '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 2}'\n"
    for env, worker in (("vllm-ascend 0.17.0rc1 on eight A3 cards\n", "AscendEagleProposer"),
                        ("pip install vllm_ascend==0.11.0\n", "MtpProposer")):  # fmt: skip
        config, path = _path(tmp_path, "My setup:\n" + env + flag + crash)
        assert config.flags["platform"].value == "ascend"
        assert (path.worker_class, path.framework) == (worker, "vllm_ascend")
    # the same words without a release, or the plugin's repository, do not show the run on
    # Ascend, but they name the plugin: vLLM's class is then only a condition beside the plugin's
    for prose in ("I read the vllm-ascend docs first\n",
                  "as in vllm-project/vllm-ascend 0.17.0 notes\n"):  # fmt: skip
        config, path = _path(tmp_path, prose + flag + crash)
        assert "platform" not in config.flags and path.worker_class is None
        assert "EagleProposer on vLLM's GPU platforms" in (path.conditional or "")


def test_a_yaml_flow_mapping_in_a_config_file_names_the_method(tmp_path: Path) -> None:
    assert python_spec_dict("speculative_config: {method: ngram, prompt_lookup_max: 4}") == {
        "method": "ngram",
        "prompt_lookup_max": 4,
    }
    assert python_spec_dict("speculative_config: {method: mtp, extra: {depth: 2}}") == {}
    yaml_file = (
        "Our vllm serve --config file (vLLM version: v0.23.0), VLLM_USE_V2_MODEL_RUNNER=0:\n"
        "tensor_parallel_size: 4\n"
        "speculative_config: {method: mtp, num_speculative_tokens: 2}\n"
    )
    crash = SCRIPT.split("max_model_len=2048,\n    )\n")[1]
    _config, path = _path(tmp_path, yaml_file + crash)
    assert (path.worker_class, path.framework) == ("EagleProposer", "vllm")
