"""vLLM releases without the V1 model runner (0.34+): the runner v2 builds the speculator its
method's registered config names, so the class a verdict names changes with the release; a
method the release no longer takes ran nothing. The registry shapes below are written by us."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest
from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from path_tables import vllm_rules  # noqa: E402
from path_tables.releases import scan, zip_releases  # noqa: E402

VERSION = "INFO 11-02 08:00:00 [api_server.py:1287] vLLM API server version {}"
ARGS = ("INFO 11-02 08:00:00 [cli_args.py:309] non-default args: {{'model': 'org/Big-70B', "
        "'speculative_config': {{'method': '{}', 'model': 'org/head', "
        "'num_speculative_tokens': 3}}}}")  # fmt: skip


@pytest.mark.parametrize(
    ("method", "release", "worker"),
    [("eagle3", "0.34.0", "EagleSpeculator"), ("eagle3", "0.33.0", "EagleProposer"),
     ("qwen3_next_mtp", "0.34.0", "MTPSpeculator"), ("draft_model", "0.34.0", "StandaloneARSpeculator"),
     ("ngram", "0.34.0", "NgramGPUSpeculator")],
)  # fmt: skip
def test_the_release_names_the_runner_v2_speculator(method, release, worker) -> None:
    path = global_worker_path(collect(VERSION.format(release), ARGS.format(method)))
    if release == "0.33.0":  # both runners ship and MRV2 is the default: the V1 class or MRV2's
        assert path.worker_class is None and worker in (path.conditional or ""), path
        assert "EagleSpeculator" in (path.conditional or "")
        return
    assert (path.value, path.worker_class) == ("other", worker)
    if release == "0.34.0":
        assert "model runner v2" in path.evidence[0].reason


def test_a_method_the_release_no_longer_takes_names_no_proposer() -> None:
    path = global_worker_path(collect(VERSION.format("0.33.0"), ARGS.format("medusa")))
    assert path.value == "unknown" and path.worker_class is None and path.family == "MEDUSA"
    assert "no longer takes it" in path.evidence[0].reason


def test_the_generator_reads_the_registry_only_where_the_v1_runner_is_gone(tmp_path: Path) -> None:
    pkg = "vllm.v1.worker.gpu.spec_decode"
    registry = ("def _builtin(module, name):\n    return module + name\n"
                "_CONFIG_BY_METHOD: dict[str, str] = {\n"
                "    'eagle': _builtin('eagle.config', 'EagleSpeculatorConfig'),\n"
                "    'eagle3': _builtin('eagle.config', 'Eagle3SpeculatorConfig'),\n"
                "    'mtp': _builtin('mtp.config', 'MTPSpeculatorConfig'),\n}\n")
    eagle = (f"class EagleSpeculatorConfig:\n    speculator_class = '{pkg}.eagle.speculator.EagleSpeculator'\n"
             "class Eagle3SpeculatorConfig(EagleSpeculatorConfig):\n    base_method = 'eagle3'\n")
    mtp = (f"from {pkg}.eagle.config import EagleSpeculatorConfig\n"
           "class MTPSpeculatorConfig(EagleSpeculatorConfig):\n"
           f"    speculator_class = ('{pkg}.mtp.speculator.'\n        'MTPSpeculator')\n")
    base = "v1/worker/gpu/spec_decode/"
    files = {base + "speculator_config.py": registry, base + "eagle/config.py": eagle,
             base + "mtp/config.py": mtp}
    for tag, runner in (("0.9.0", True), ("0.9.1", False)):
        with zipfile.ZipFile(tmp_path / f"{tag}.zip", "w") as zf:
            for name, text in files.items():
                zf.writestr("vllm/" + name, text)
            if runner:
                zf.writestr("vllm/v1/worker/gpu_model_runner.py", "class GPUModelRunner: pass\n")
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    history = scan(zip_releases(tmp_path, "vllm/"), rules.scope, rules.keep_text)
    rows = {(r.value, r.worker, r.releases) for r in vllm_rules.speculator_rows(history, vllm_rules.VLLM)}
    assert rows == {("eagle", "EagleSpeculator", ("v0.9.1", "v0.9.1")),
                    ("eagle3", "EagleSpeculator", ("v0.9.1", "v0.9.1")),
                    ("mtp", "MTPSpeculator", ("v0.9.1", "v0.9.1"))}  # fmt: skip


def test_a_speculator_a_draft_declares_gets_its_configs_family(tmp_path: Path) -> None:
    pkg = "vllm.v1.worker.gpu.spec_decode"
    mtp = (f"class MTPSpeculatorConfig:\n    base_method = 'mtp'\n"
           f"    speculator_class = '{pkg}.mtp.speculator.MTPSpeculator'\n")  # fmt: skip
    head = (f"from {pkg}.mtp.config import MTPSpeculatorConfig\n"
            "class HeadConfig(MTPSpeculatorConfig):\n"
            f"    speculator_class = '{pkg}.head.speculator.HeadSpeculator'\n")  # fmt: skip
    with zipfile.ZipFile(tmp_path / "0.9.1.zip", "w") as zf:
        zf.writestr("vllm/v1/worker/gpu/spec_decode/mtp/config.py", mtp)
        zf.writestr("vllm/v1/worker/gpu/spec_decode/head/config.py", head)
        zf.writestr("vllm/v1/worker/gpu/spec_decode/head/speculator.py", "class HeadSpeculator: pass\n")
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    history = scan(zip_releases(tmp_path, "vllm/"), rules.scope, rules.keep_text)
    assert vllm_rules.built_speculators(history) == {"MTPSpeculator": "MTP", "HeadSpeculator": "MTP"}
    rows = {r.file: r for _rel, r in rules.frame_rows(history)}
    head_row = rows["v1/worker/gpu/spec_decode/head/speculator.py"]
    assert (head_row.family, head_row.worker, head_row.path) == ("MTP", "HeadSpeculator", "other")
