"""A vLLM run's class from its draft's name and its method, as vLLM's own selection makes it
(issue 11, session 22): the runner's ``use_gemma4_mtp()`` branch read from each release's source
(``gemma4_mtp`` is Gemma4Proposer on the V1 runner, Gemma4Speculator where the model runner v2
alone ships, never EagleProposer / MTPSpeculator), and a Gemma-4 model joined to its MTP head in
words. Our own lines, several spellings and copy forms, and near misses that must not move."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.vllm_methods import target_head
from spectrace.assemblers.vllm_proposers import proposer_verdict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from path_tables import vllm_rules  # noqa: E402
from path_tables.releases import scan, zip_releases  # noqa: E402

ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x2816 and 4096x512)"]  # fmt: skip
DEAD = ("(APIServer pid=7) ERROR 06-02 10:11:12 [async_llm.py:480] vllm.v1.engine.exceptions."
        "EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.")


def _release(root: Path, tag: str, files: dict[str, str]) -> None:
    with zipfile.ZipFile(root / f"{tag}.zip", "w") as zf:
        for name, text in files.items():
            zf.writestr("vllm/" + name, text)


_CONFIG = ('from typing import Literal\nMTPModelTypes = Literal["mtp", "zeta_mtp"]\n'
           'SpeculativeMethod = Literal["ngram", "eagle", "draft_model", MTPModelTypes]\n'
           "class SpeculativeConfig:\n"
           "    def use_zeta_mtp(self):\n"
           '        return self.method == "mtp" and getattr(self.draft_model_config.hf_config,'
           ' "model_type", None) == "zeta_mtp"\n'
           "    def uses_draft_model(self):\n        return self.method == \"draft_model\"\n"
           "    def use_eagle(self):\n        return self.method in (\"eagle\", \"mtp\")\n")
_RUNNER = ("class GPUModelRunner:\n    def __init__(self):\n"
           "        if self.speculative_config.method == 'ngram':\n"
           "            self.drafter = NgramProposer(self)\n"
           "        elif self.speculative_config.uses_draft_model():\n"
           "            self.drafter = DraftModelProposer(self)\n"
           "        elif self.speculative_config.use_zeta_mtp():\n"
           "            self.drafter = ZetaHeadProposer(self)\n"
           "        elif self.speculative_config.use_eagle():\n"
           "            self.drafter = EagleProposer(self)\n")
_SPEC = {"v1/spec_decode/eagle.py": "class EagleProposer: pass\n",
         "v1/spec_decode/ngram_proposer.py": "class NgramProposer: pass\n",
         "v1/spec_decode/draft_model.py": "class DraftModelProposer: pass\n",
         "v1/spec_decode/zeta.py": "class ZetaHeadProposer: pass\n"}
# the model runner v2 alone: its registry names mtp's config, the zeta head's model declares its own
_REGISTRY = ("def _builtin(module, name):\n    return module + name\n"
             "_CONFIG_BY_METHOD: dict[str, str] = {\n"
             '    "mtp": _builtin("mtp.config", "MTPSpeculatorConfig"),\n}\n')
_V2 = {"v1/worker/gpu/spec_decode/speculator_config.py": _REGISTRY,
       "v1/worker/gpu/spec_decode/mtp/config.py": (
           "class MTPSpeculatorConfig:\n    base_method = 'mtp'\n"
           "    speculator_class = 'vllm.v1.worker.gpu.spec_decode.mtp.speculator.MTPSpeculator'\n"),
       "v1/worker/gpu/spec_decode/zeta/config.py": (
           "from vllm.v1.worker.gpu.spec_decode.mtp.config import MTPSpeculatorConfig\n"
           "class ZetaSpeculatorConfig(MTPSpeculatorConfig):\n"
           "    speculator_class = 'vllm.v1.worker.gpu.spec_decode.zeta.speculator.ZetaSpeculator'\n"),
       "v1/worker/gpu/spec_decode/mtp/speculator.py": "class MTPSpeculator: pass\n",
       "v1/worker/gpu/spec_decode/zeta/speculator.py": "class ZetaSpeculator: pass\n",
       "model_executor/models/zeta_mtp.py": (
           "from vllm.v1.worker.gpu.spec_decode.zeta.config import ZetaSpeculatorConfig\n"
           "class ZetaMTP:\n    speculator_config_class = ZetaSpeculatorConfig\n")}


def test_a_runner_branch_on_a_config_predicate_names_its_class(tmp_path: Path) -> None:
    """``elif spec.use_zeta_mtp():`` holds for the model type the predicate asks (a method name
    too), before ``use_eagle()``; the plain ``mtp`` stays the EAGLE proposer's (near miss). In a
    release with the model runner v2 alone, the head's model declares its speculator's config."""
    _release(tmp_path, "0.21.0", {"config/speculative.py": _CONFIG,
                                  "v1/worker/gpu_model_runner.py": _RUNNER, **_SPEC})
    _release(tmp_path, "0.34.0", {"config/speculative.py": _CONFIG, **_V2})
    rules = vllm_rules.Rules(vllm_rules.VLLM)
    history = scan(zip_releases(tmp_path, "vllm/"), rules.scope, rules.keep_text)
    rows = {(m.value, m.releases): m.worker for m in rules.method_rows(history)}
    assert rows[("zeta_mtp", ("v0.21.0", "v0.21.0"))] == "ZetaHeadProposer"
    assert rows[("mtp", ("v0.21.0", "v0.21.0"))] == "EagleProposer"
    assert rows[("draft_model", ("v0.21.0", "v0.21.0"))] == "DraftModelProposer"
    assert rows[("zeta_mtp", ("v0.34.0", "v0.34.0"))] == "ZetaSpeculator"
    assert rows[("mtp", ("v0.34.0", "v0.34.0"))] == "MTPSpeculator"


@pytest.mark.parametrize(("release", "cls"), [("0.21.0", "Gemma4Proposer"), ("0.26.0", "Gemma4Proposer"),
                                              ("0.33.0", "Gemma4Proposer"), ("0.34.0", "Gemma4Speculator")])
def test_the_tables_give_gemma4_mtp_its_own_class(release: str, cls: str) -> None:
    _reason, points_to, found = proposer_verdict("gemma4_mtp", release)
    assert (points_to, found) == ("other", cls)
    assert proposer_verdict("mtp", "0.26.0")[2] == "EagleProposer"  # the plain method: unchanged


def _launch(release: str, env: str = "") -> list[str]:
    return [f"vLLM version: {release}",
            f"$ {env}vllm serve google/gemma-4-31B-it --speculative-config "
            """'{"method": "gemma4_mtp", "model": "/models/g4-draft", "num_speculative_tokens": 1}'""",
            *ENGINE]


def test_a_gemma4_mtp_method_runs_the_gemma4_class(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _launch("0.26.0", "VLLM_USE_V2_MODEL_RUNNER=0 ")))
    assert_verdict(path, "other", "Gemma4Proposer")
    path = crash_path(run(tmp_path, _launch("0.34.0"), name="v034.log"))
    assert_verdict(path, "other", "Gemma4Speculator")


@pytest.mark.parametrize("lines", [
    [DEAD, "", "Same failure here serving gemma-4-E4B-it with its MTP assistant drafter under load."],
    ["# [Bug]: Gemma 4 31B with MTP hangs after the first request", *ENGINE],
    ["使用 gemma-4-26B-A4B-it + MTP assistant 草稿模型时服务崩溃", *ENGINE],
    ["> Reproduced with the MTP assistant of google/gemma-4-31B-it, TP=1.", DEAD],
    ["Repro: google/gemma-4-31B-it & its MTP drafter, prefix caching on", *ENGINE],
])
def test_a_gemma4_model_joined_to_its_mtp_head_in_words(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "Gemma4Proposer|Gemma4Speculator")
    assert "EagleProposer" not in (path.conditional or "")


@pytest.mark.parametrize("text", ["Gemma-4 works, but Qwen3.5 MTP fails", "gemma-4-31B-it with Qwen3 MTP",
                                  "Gemma 4 and DeepSeek MTP", "google/gemma-4-31B-it serves fine",
                                  "gemma4 with EAGLE3 vs MTP"])
def test_another_models_mtp_beside_gemma4_is_not_its_head(text: str) -> None:
    assert target_head(text, None) == (None, None)


PROBE = ["Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: a probe"]  # fmt: skip
IMA = "RuntimeError: CUDA error: an illegal memory access was encountered"


@pytest.mark.parametrize("lines", [
    ["vllm-project/vllm · issue #60001 · open",
     "# [Bug]: illegal memory access when the draft model's window is shorter than the target's",
     "- Drafter: `acme/Qwen3-8B-DFlash2` (`method: dflash`, 8 tokens)", "- prefix caching on", IMA],
    ["DFlash2 + vLLM: prefix-cache hits drop to zero · Issue #12 · acme/dflash",
     "Drafter: incoai/Qwen3-27B-DFlash2, k=7. Decode goes 19 -> 24 tok/s vs the model's built-in MTP k=3.",
     "With DFlash2 active, vLLM's prefix cache never hits.", *PROBE],
    ["vllm-project/vllm#60002: DFlash2 草稿模型崩溃",
     "草稿模型：org/GLM-5-Air-DFlash2，method 为 dflash；对比基线是 MTP", IMA],
])
def test_a_dflash2_drafter_in_a_condition_names_the_dflash2_class(tmp_path: Path, lines: list[str]) -> None:
    """Family words giving a condition (a draft model, a compared MTP): the DFlash2 draft's
    method is read as the variant's class, which the V1 runner never builds."""
    path = crash_path(run(tmp_path, lines))
    assert path.value == "unknown" and "DFlash2Speculator" in (path.conditional or ""), path
    assert "DFlashProposer" not in (path.conditional or ""), path


def test_a_plain_dflash_drafter_keeps_the_dflash_classes(tmp_path: Path) -> None:
    lines = ["vllm-project/vllm · issue #60003 · open", "# [Bug]: DFlash drafter crashes in the rejection sampler",
             "Drafter: z-lab/Qwen3-8B-DFlash-b16 (method dflash); the built-in MTP works.", IMA]
    path = crash_path(run(tmp_path, lines))
    assert "DFlash2Speculator" not in (path.conditional or "") and path.worker_class != "DFlash2Speculator"


@pytest.mark.parametrize("lines", [
    ["vllm-project/vllm · issue #60005 · open", "# [Bug]: illegal memory access when the draft model's window is short",
     "- Drafter: `acme/Qwen3-8B-DFlash2` (`method: dflash`, 8 tokens), VLLM_USE_V2_MODEL_RUNNER=0", IMA],
    ["vllm-project/vllm · issue #60006 · open", "# [Bug]: illegal memory access when the draft model's window is short",
     "- vLLM 0.25.1", "- Drafter: `acme/Qwen3-8B-DFlash2` (`method: dflash`, 8 tokens)", IMA],
])
def test_a_dflash2_drafter_off_the_variants_runner_or_releases_keeps_the_method_class(
        tmp_path: Path, lines: list[str]) -> None:
    """The V1 runner stated, or a release before DFlash2Speculator: the variant names no class,
    the method's own class stays in the condition (never a hole)."""
    path = crash_path(run(tmp_path, lines))
    assert "DFlash2Speculator" not in (path.conditional or "") and "None" not in (path.conditional or "")
    assert "DFlashProposer" in (path.conditional or ""), path


ARGS = "vllm serve org/Target --speculative-config '{{\"model\": \"{}\", \"num_speculative_tokens\": 1}}'"


@pytest.mark.parametrize(("draft", "classes"), [
    ("google/gemma-4-31B-it-assistant", ("Gemma4Proposer", "Gemma4Speculator")),
    ("deepseek-ai/DeepSeek-V3", ("EagleProposer", "MultiStepWorker", "EagleSpeculator", "MTPSpeculator")),
    ("/path/to/Qwen3-4B-FP8/", ("MultiStepWorker", "DraftModelProposer", "StandaloneARSpeculator")),
])
def test_an_undated_method_less_draft_names_the_model_runner_v2_classes_too(
        tmp_path: Path, draft: str, classes: tuple[str, ...]) -> None:
    """No release shown: the run may have been on either runner, so the condition over the
    releases names the model runner v2's speculators for the inferred method as well."""
    path = crash_path(run(tmp_path, ["$ " + ARGS.format(draft), *ENGINE]))
    assert path.value == "unknown", path
    assert all(c in (path.conditional or "") for c in classes), path.conditional


def _resolved(head: list[str], arch: str) -> list[str]:
    return [*head,
            "(EngineCore_DP0 pid=88) INFO 10-02 11:00:30 [model.py:547] Resolved architecture: "
            "Gemma4ForConditionalGeneration",
            f"(EngineCore_DP0 pid=88) INFO 10-02 11:00:41 [model.py:547] Resolved architecture: {arch}",
            *ENGINE]


@pytest.mark.parametrize(("head", "value", "classes"), [
    (["vLLM version: 0.26.0", "VLLM_USE_V2_MODEL_RUNNER=0"], "other", "Gemma4Proposer"),
    (["vLLM version: 0.26.0", "VLLM_USE_V2_MODEL_RUNNER=1"], "other", "Gemma4Speculator"),
    (["vLLM version: 0.34.0"], "other", "Gemma4Speculator"),
    ([], "unknown", "Gemma4Proposer|Gemma4Speculator"),
])
def test_a_gemma4_mtp_draft_architecture_names_the_gemma4_class(
        tmp_path: Path, head: list[str], value: str, classes: str) -> None:
    """vLLM resolves a Gemma-4 assistant draft to Gemma4MTPModel (its config's rewrite): the
    Gemma-4 head's own class, never EagleProposer or MTPSpeculator."""
    assert_verdict(crash_path(run(tmp_path, _resolved(head, "Gemma4MTPModel"))), value, classes)


def test_a_gemma4_target_architecture_alone_names_no_method(tmp_path: Path) -> None:
    path = crash_path(run(tmp_path, _resolved(["vLLM version: 0.26.0"], "Gemma4ForCausalLM")))
    assert path.worker_class is None and not path.conditional, path


@pytest.mark.parametrize(("release", "cls"), [("0.16.0", "EagleProposer"), ("0.22.1", "EagleProposer"),
                                              ("0.23.0", "Step3p5MTPProposer"), ("0.33.0", "Step3p5MTPProposer")])
def test_a_model_named_mtp_method_before_its_own_class_ran_on_mtps(release: str, cls: str) -> None:
    """step3p5_mtp is a method name from 0.15.1, Step3p5MTPProposer (v1/spec_decode/step3p5.py,
    the runner's use_step3p5_mtp() branch) from 0.23: before it, vLLM's config read the method
    as mtp and the runner's use_eagle() branch built EagleProposer."""
    assert proposer_verdict("step3p5_mtp", release)[1:] == ("other", cls)


def test_a_step3p5_mtp_launch_on_a_release_before_its_class(tmp_path: Path) -> None:
    lines = ["vLLM version: 0.20.0",
             "$ VLLM_USE_V2_MODEL_RUNNER=0 vllm serve stepfun-ai/Step-3.5-Flash --speculative-config "
             """'{"method": "step3p5_mtp", "num_speculative_tokens": 3}'""", *ENGINE]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "EagleProposer")
