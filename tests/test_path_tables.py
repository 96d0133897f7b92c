"""The path knowledge tables (rules/paths/*.toml): they load, follow the schema, cover every
file of each framework's speculative folders at its newest scanned release, keep every row
the linker decided on before the tables, and name a family for every method value."""

from __future__ import annotations

import json
import sys
import tomllib
import zipfile
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from path_tables import sglang_rules, vllm_rules  # noqa: E402
from path_tables.merge import merge  # noqa: E402
from path_tables.releases import scan, zip_releases  # noqa: E402
from path_tables.rows import render  # noqa: E402

FRAMEWORKS = ("sglang", "vllm", "vllm_ascend", "trtllm")
# vllm_plugins.toml holds the platform plugins' rows, each marked with its plugin
PLUGINS = ("tpu_inference", "vllm_gaudi", "arctic_inference", "vllm_metal", "vllm_rbln")
PATHS = {"v1", "v2", "other", ""}
ROLES = {"worker", "proposer", "scheduler_loop", "shared", "graph_runner", "kernel", "config",
         "draft_model"}
MANIFEST = json.loads((ROOT / "tests" / "fixtures" / "path_tables_latest.json").read_text())

# The tuple spectrace/path_frames.py held before the tables (suffix, function, path, worker,
# needs_spec): every verdict decided on it must stay (the bundled engine's workers/eagle_v1.py
# and eagle_v2.py rows went when the engine took SGLang's own file layout).
BEFORE = [
    ("multi_layer_eagle_worker_v2.py", "", "v2", "MultiLayerEagleWorkerV2", False),
    ("multi_layer_eagle_worker.py", "", "v1", "MultiLayerEagleWorker", False),
    ("standalone_worker_v2.py", "", "v2", "StandaloneWorkerV2", False),
    ("standalone_worker.py", "", "v1", "StandaloneWorker", False),
    ("eagle_worker_v2.py", "", "v2", "EAGLEWorkerV2", False),
    ("eagle_info_v2.py", "", "v2", "EAGLEWorkerV2", False),
    ("eagle_worker.py", "", "v1", "EAGLEWorker", False),
    ("spec_decode/ngram_worker.py", "", "other", "NGramWorker", False),
    ("spec_decode/spec_decode_worker.py", "", "other", "SpecDecodeWorker", False),
    ("spec_decode/multi_step_worker.py", "", "other", "MultiStepWorker", False),
    ("spec_decode/medusa_worker.py", "", "other", "MedusaWorker", False),
    ("spec_decode/mlp_speculator_worker.py", "", "other", "MLPSpeculatorWorker", False),
    ("spec_decode/batch_expansion.py", "", "", "", False),
    ("ngram_worker.py", "", "other", "NGRAMWorker", False),
    ("ngram_info.py", "", "other", "NGRAMWorker", False),
    ("spec_decode/eagle.py", "", "other", "EagleProposer", False),
    ("spec_decode/ngram_proposer.py", "", "other", "NgramProposer", False),
    ("spec_decode/medusa.py", "", "other", "MedusaProposer", False),
    ("spec_decode/draft_model.py", "", "other", "DraftModelProposer", False),
    ("_torch/speculative/mtp.py", "", "", "", False),
    ("_torch/speculative/eagle3.py", "", "", "", False),
    ("_torch/speculative/model_drafter.py", "", "other", "ModelDrafter", False),
    ("scheduler.py", "event_loop_overlap", "v2", "EAGLEWorkerV2", True),
    ("disaggregation/decode.py", "event_loop_overlap_disagg_decode", "v2", "EAGLEWorkerV2", True),
    ("disaggregation/prefill.py", "event_loop_overlap_disagg_prefill", "v2", "EAGLEWorkerV2", True),
    ("scheduler.py", "event_loop_normal", "v1", "EAGLEWorker", True),
    ("disaggregation/decode.py", "event_loop_normal_disagg_decode", "v1", "EAGLEWorker", True),
    ("disaggregation/prefill.py", "event_loop_normal_disagg_prefill", "v1", "EAGLEWorker", True),
    ("managers/overlap_utils.py", "", "v2", "EAGLEWorkerV2", True),
    ("speculative/eagle_info.py", "", "", "", False),
    ("speculative/eagle_utils.py", "", "", "", False),
    ("eagle_draft_cuda_graph_runner.py", "", "", "", False),
    ("eagle_draft_extend_cuda_graph_runner.py", "", "", "", False),
    ("cuda_graph_runner.py", "", "", "", False),
    ("sample/rejection_sampler.py", "", "", "", False),
]


def _table(framework: str) -> dict:
    """A framework's table; a plugin's rows out of vllm_plugins.toml."""
    name = "vllm_plugins" if framework in PLUGINS else framework
    text = resources.files("spectrace.rules").joinpath(f"paths/{name}.toml").read_bytes()
    table = tomllib.loads(text.decode())
    if framework in PLUGINS:
        table["frame"] = [r for r in table["frame"] if r["framework"] == framework]
    return table


def _present() -> list[str]:
    return [fw for fw in FRAMEWORKS if (ROOT / "rules" / "paths" / f"{fw}.toml").exists()]


def _matches(path: str, suffix: str) -> bool:
    return path == suffix or path.endswith("/" + suffix)


@pytest.mark.parametrize("framework", _present() + list(PLUGINS))
def test_rows_follow_the_schema(framework: str) -> None:
    table = _table(framework)
    assert table["frame"], "a table without frames"
    for row in table["frame"]:
        assert row["framework"] == framework and row["path"] in PATHS and row["role"] in ROLES
        assert isinstance(row["bases"], dict), f"{row['file']}: bases is not a table"
        assert set(row["bases"]) <= set(row["classes"]), f"{row['file']}: bases of classes it lacks"
        assert row["source"] in {"generated", "hand"} and len(row["releases"]) == 2
        assert row["file"].endswith((".py", ".cpp", ".h", ".cu")), row["file"]
        assert not row["path"] or row["worker"], f"{row['file']} proves a path but no worker"
    for row in table.get("method", []):
        assert row["family"], f"method {row['value']} names no family"


@pytest.mark.parametrize("framework", sorted(MANIFEST))
def test_every_file_of_the_newest_release_has_a_row(framework: str) -> None:
    """Dropping a file's row (or a file from the scan) fails here."""
    release, files = MANIFEST[framework]["release"], MANIFEST[framework]["files"]
    assert files, f"{framework}: the manifest lists no files"
    rows = [r for r in _table(framework)["frame"] if r["releases"][1] == release]
    missing = [f for f in files if not any(_matches(f, r["file"]) for r in rows)]
    assert not missing, f"{framework}: files of {release} without a row: {missing[:5]}"


def _framework_of(suffix: str) -> str:
    if suffix.startswith(("spec_decode/", "sample/")):
        return "vllm"
    return "trtllm" if suffix.startswith("_torch/") else "sglang"


def test_every_framework_has_its_table() -> None:
    assert _present() == list(FRAMEWORKS)
    assert sorted(MANIFEST) == sorted(FRAMEWORKS + PLUGINS)


@pytest.mark.parametrize("framework", ["sglang", "vllm", "trtllm"])
def test_nothing_decided_before_the_tables_changed(framework: str) -> None:
    rows = _table(framework)["frame"]
    have = {(r["file"], r["function"], r["path"], r["worker"], r["needs_spec"]) for r in rows}
    before = {row for row in BEFORE if _framework_of(row[0]) == framework}
    assert before and sorted(before - have) == []


def test_sglang_methods_name_their_families() -> None:
    methods = {m["value"]: m for m in _table("sglang")["method"]}
    assert methods["EAGLE3"]["family"] == "EAGLE3" and methods["NEXTN"]["family"] == "NEXTN"
    assert (methods["NGRAM"]["path"], methods["NGRAM"]["worker"]) == ("other", "NGRAMWorker")


def _release(folder: Path, version: str, files: dict[str, str]) -> None:
    with zipfile.ZipFile(folder / f"{version}.zip", "w") as zf:
        for name, text in files.items():
            zf.writestr("sglang/" + name, text)


def test_generator_rules_on_a_tree_of_our_own(tmp_path: Path) -> None:
    """The rules, not hand rows, decide a family's v1/v2 workers and a file's life span."""
    spec = "class SpeculativeAlgorithm(Enum):\n    NONE = 1\n    EAGLE = 2\n    ZETA = 3\n"
    _release(tmp_path, "0.9.0", {"srt/speculative/spec_info.py": spec,
                                 "srt/speculative/zeta_worker.py": "class ZetaWorker: pass\n"})
    _release(tmp_path, "0.9.1", {
        "srt/speculative/spec_info.py": spec,
        "srt/speculative/zeta_worker.py": "class ZetaWorker: pass\n",
        "srt/speculative/zeta_worker_v2.py": "class ZetaDraftWorker: pass\nclass ZetaWorkerV2: pass\n",
        "srt/speculative/zeta_info_v2.py": "class ZetaVerifyInputV2: pass\n",
        "srt/models/llama_zeta_eagle3.py": "class LlamaForCausalLMEagle3: pass\n",
    })
    releases = zip_releases(tmp_path, "sglang/")
    history = scan(releases, sglang_rules.scope, sglang_rules.keep_text)
    rows = {r.file: r for r in merge("sglang", sglang_rules.frame_rows(history))}
    v1, v2 = rows["speculative/zeta_worker.py"], rows["speculative/zeta_worker_v2.py"]
    assert (v1.family, v1.worker, v1.path, v1.releases) == ("ZETA", "ZetaWorker", "v1", ("v0.9.0", "v0.9.1"))
    assert (v2.worker, v2.path, v2.releases[0]) == ("ZetaWorkerV2", "v2", "v0.9.1")
    assert (rows["speculative/zeta_info_v2.py"].path, rows["speculative/zeta_info_v2.py"].worker) == ("v2", "ZetaWorkerV2")
    assert rows["models/llama_zeta_eagle3.py"].family == "EAGLE3"
    methods = {m.value: m for m in sglang_rules.method_rows(history)}
    assert set(methods) == {"EAGLE", "ZETA"} and methods["ZETA"].releases == ("v0.9.0", "v0.9.1")
    text = render("h", list(rows.values()), [], list(methods.values()))
    assert tomllib.loads(text)["frame"] and text == render("h", list(rows.values()), [], list(methods.values()))


def test_vllm_rules_follow_the_source_dispatch(tmp_path: Path) -> None:
    """Methods come from the config's Literals (followed through the names they include),
    proposers from the runner's own ``if method == ...`` dispatch, else from the family."""
    config = ('from typing import Literal\nEagleTypes = Literal["eagle3", "zeta_mtp"]\n'
              'SpeculativeMethod = Literal["ngram", "eagle", EagleTypes]\n'
              'class SpeculativeConfig:\n    def f(self):\n        self.method = "draft_model"\n')
    runner = ("from vllm.v1.spec_decode.chain import ChainProposer\n"
              "class GPUModelRunner:\n    def __init__(self):\n"
              "        if self.speculative_config.method == 'ngram':\n"
              "            self.drafter = NgramProposer(self)\n"
              "        elif self.speculative_config.method == 'zeta_mtp':\n"
              "            self.drafter = ZetaProposer(self)\n"
              "    def propose_draft_token_ids(self):\n        pass\n")
    files = {"config.py": config, "v1/worker/gpu_model_runner.py": runner,
             "v1/spec_decode/eagle.py": "class EagleProposer: pass\n",
             "v1/spec_decode/ngram_proposer.py": "class NgramProposer: pass\n",
             "v1/spec_decode/zeta.py": "class ZetaBase: pass\nclass ZetaProposer(ZetaBase): pass\n",
             "v1/spec_decode/chain.py": "class ChainProposer: pass\n",
             "v1/spec_decode/link.py": ("from .chain import ChainProposer\n"
                                        "class LinkProposer(ChainProposer): pass\n")}
    with zipfile.ZipFile(tmp_path / "0.9.0.zip", "w") as zf:
        for name, text in files.items():
            zf.writestr("vllm/" + name, text)
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    history = scan(zip_releases(tmp_path, "vllm/"), rules.scope, rules.keep_text)
    methods = {m.value: (m.family, m.worker, m.path) for m in rules.method_rows(history)}
    assert methods == {
        "ngram": ("NGRAM", "NgramProposer", "other"),
        "zeta_mtp": ("MTP", "ZetaProposer", "other"),
        "eagle": ("EAGLE", "EagleProposer", "other"),
        "eagle3": ("EAGLE3", "EagleProposer", "other"),
        "draft_model": ("DRAFT_MODEL", "", ""),
    }
    rows = {(r.file, r.function): r
            for _rel, r in rules.frame_rows(history, rules.import_graph(zip_releases(tmp_path, "vllm/")))}
    chain, link = rows[("v1/spec_decode/chain.py", "")], rows[("v1/spec_decode/link.py", "")]
    assert (chain.worker, chain.path) == ("", "")  # a base LinkProposer runs through too
    assert (link.worker, link.path) == ("LinkProposer", "other")
    zeta = rows[("v1/spec_decode/zeta.py", "")]
    assert (zeta.worker, zeta.path, zeta.role) == ("ZetaProposer", "other", "proposer")
    runner_row = rows[("v1/worker/gpu_model_runner.py", "propose_draft_token_ids")]
    assert (runner_row.path, runner_row.worker) == ("", "")


def test_a_helper_only_one_path_imports_proves_that_path(tmp_path: Path) -> None:
    spec = "class SpeculativeAlgorithm(Enum):\n    ZETA = 1\n"
    _release(tmp_path, "0.9.2", {
        "srt/speculative/spec_info.py": spec,
        "srt/speculative/zeta_worker.py": (
            "from sglang.srt.speculative.zeta_utils import fold\n"
            "from sglang.srt.speculative import zeta_common\nclass ZetaWorker: pass\n"),
        "srt/speculative/zeta_worker_v2.py": (
            "from .zeta_common import shared\nclass ZetaWorkerV2: pass\n"),
        "srt/speculative/zeta_utils.py": "from .zeta_deep import x\ndef fold(): pass\n",
        "srt/speculative/zeta_deep.py": "x = 1\n",
        "srt/speculative/zeta_common.py": "def shared(): pass\n",
    })
    releases = zip_releases(tmp_path, "sglang/")
    history = scan(releases, sglang_rules.scope, sglang_rules.keep_text)
    rows = {r.file: r for _rel, r in sglang_rules.frame_rows(
        history, sglang_rules.import_graph(releases))}
    assert (rows["speculative/zeta_utils.py"].path, rows["speculative/zeta_utils.py"].worker) == (
        "v1", "ZetaWorker")
    assert rows["speculative/zeta_deep.py"].path == "v1"  # a helper of the helper
    assert rows["speculative/zeta_common.py"].path == ""  # both paths import it: informs
