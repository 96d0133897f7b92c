"""A vLLM class the text names as the one that ran or crashed, and engine signals of V0 and the
model runner v2 (issue 11, session 23, NAMEDV0). Our own lines in the shapes users paste: a
class written as running (``Gemma4Proposer.propose``, "in Step3p5MTPProposer") beats the method
table's class of the same family; one of another family leaves a condition over both. Near
misses (a class a PR adds, a comparison, a question) must not move."""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, probed_path, run

ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
MTP = """--speculative-config '{"method": "mtp", "num_speculative_tokens": 3}'"""


@pytest.mark.parametrize("lines", [
    # a fork's PR comment: the method in a launch, the class in a bullet
    ["## Gemma-4 MTP on V100: crash fixes", "",
     f"MTP (`{MTP}`) crashed on every draft step beyond the first:",
     "- `Gemma4Proposer._greedy_sample` was missing the step index argument",
     "Measured with the proposer profile: 17 ms -> 5 ms per step."],
    # a bare crash log: the launch, the writer's sentence, the cut engine traceback
    [f"$ vllm serve /models/g4-31b {MTP}",
     "The engine dies inside `Gemma4Proposer.propose` on the second decode step.", *ENGINE],
    # a Chinese notes file
    [f"启动命令: vllm serve /models/g4-31b {MTP}",
     "崩溃发生在 Gemma4Proposer.propose 里, 第二步草稿时报错", *ENGINE],
    # a blockquoted issue comment, the class as the crash's place
    ["> We run `vllm serve /models/g4 --speculative-config '{\"method\":\"mtp\"}'` on 2xA100.",
     "> It crashed in Gemma4Proposer while building the draft metadata.", *ENGINE],
])
def test_a_class_named_as_running_decides_over_the_method_table(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines)) if ENGINE[0] in lines else probed_path(tmp_path, lines)
    assert_verdict(path, "other", "Gemma4Proposer")
    assert any(e.reason.endswith("-> Gemma4Proposer") and "class that ran" in e.reason for e in path.evidence)


def test_a_model_named_mtp_class_named_as_crashing(tmp_path: Path) -> None:
    lines = ["vLLM 0.24.0, Step-3.5 with its MTP heads:", f"vllm serve stepfun/step-3.5 {MTP}",
             "AssertionError raised from Step3p5MTPProposer.propose() after the first request", *ENGINE]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "Step3p5MTPProposer")


@pytest.mark.parametrize("lines", [
    # a PR adding the class: what it adds did not run
    [f"$ vllm serve /models/g4-31b {MTP}", "This PR adds `Gemma4Proposer` for the Gemma-4 assistant.", *ENGINE],
    # a comparison
    [f"$ vllm serve /models/ds-v3 {MTP}", "Unlike Gemma4Proposer.propose, this path keeps the hidden states.", *ENGINE],
    # a question
    [f"$ vllm serve /models/ds-v3 {MTP}", "Does Gemma4Proposer.propose run here too?", *ENGINE],
    # a link to another report
    [f"$ vllm serve /models/ds-v3 {MTP}", "Same as #40123 where Gemma4Proposer.propose crashed.", *ENGINE],
    # a wrapper or base class names no family
    [f"$ vllm serve /models/ds-v3 {MTP}", "It crashed in SpecDecodeBaseProposer.propose.", *ENGINE],
])
def test_a_class_named_in_other_ways_keeps_the_method_table(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "EagleProposer")


def test_a_class_of_another_family_leaves_a_condition_over_both(tmp_path: Path) -> None:
    lines = ["$ vllm serve /models/llama --speculative-config '{\"method\": \"eagle3\", \"model\": \"/d\"}'",
             "The crash is in NgramProposer.propose, which I did not expect.", *ENGINE]
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", "EagleProposer|NgramProposer")


def _frame(path: str, line: int, function: str, code: str = "") -> list[str]:
    return [f'  File "{path}", line {line}, in {function}', *([f"    {code}"] if code else [])]


_V = "/opt/venv/lib/python3.10/site-packages/vllm"
_IMPORTLIB = [*_frame("/usr/lib/python3.10/importlib/__init__.py", 126, "import_module",
                      "return _bootstrap._gcd_import(name[level:], package, level)"),
              '  File "<frozen importlib._bootstrap>", line 1050, in _gcd_import',
              '  File "<frozen importlib._bootstrap_external>", line 883, in exec_module',
              '  File "<frozen importlib._bootstrap>", line 241, in _call_with_frames_removed']  # fmt: skip
_SPEC_MODULE = _frame(f"{_V}/spec_decode/spec_decode_worker.py", 30, "<module>",
                      "from vllm.spec_decode.medusa_worker import MedusaWorker")
_INIT = _frame(f"{_V}/worker/worker_base.py", 465, "init_worker",
               "mod = importlib.import_module(self.worker_module_name)")


@pytest.mark.parametrize("lines", [
    # 0.6.x: the executor's worker module name, imported by init_worker
    ["Traceback (most recent call last):",
     *_frame(f"{_V}/executor/gpu_executor.py", 40, "_init_executor", "self.driver_worker = self._create_worker()"),
     *_INIT, *_IMPORTLIB, *_SPEC_MODULE,
     *_frame(f"{_V}/spec_decode/medusa_worker.py", 12, "<module>", "from vllm.worker.worker_base import X"),
     "ImportError: cannot import name 'X' from 'vllm.worker.worker_base'"],
    # 0.7.x: the platform's worker_cls, through vLLM's qualname resolver; a Ray worker's prefix
    ["Traceback (most recent call last):",
     *[f"(RayWorkerWrapper pid=812) {t}" for t in [
         *_frame(f"{_V}/worker/worker_base.py", 560, "init_worker",
                 "worker_class = resolve_obj_by_qualname(self.vllm_config.parallel_config.worker_cls)"),
         *_frame(f"{_V}/utils.py", 1980, "resolve_obj_by_qualname", "module = importlib.import_module(module_name)"),
         *_IMPORTLIB, *_SPEC_MODULE]],
     "(RayWorkerWrapper pid=812) ModuleNotFoundError: No module named 'vllm.spec_decode.medusa_worker'"],
    # a dev checkout on Windows-style paths in a notes file, the wrapper's frames cut above
    ["Worker creation failed:", "Traceback (most recent call last):",
     *_frame("C:\\src\\vllm\\vllm\\worker\\worker_base.py", 446, "init_worker"),
     *_frame("C:\\Python310\\lib\\importlib\\__init__.py", 126, "import_module"),
     *_frame("C:\\src\\vllm\\vllm\\spec_decode\\spec_decode_worker.py", 21, "<module>"),
     "OSError: [WinError 126] The specified module could not be found"],
    # a blockquoted reply in an issue thread
    ["> Same here on 0.6.3:", "> ```", "> Traceback (most recent call last):",
     *[f"> {t}" for t in [*_INIT, *_IMPORTLIB, *_SPEC_MODULE]],
     "> RuntimeError: CUDA error: no kernel image is available for execution on the device", "> ```"],
])
def test_v0_creating_its_spec_worker_module_is_a_speculative_v0_run(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "SpecDecodeWorker")


@pytest.mark.parametrize("lines", [
    # a script importing the module: no engine created it
    ["Traceback (most recent call last):", *_frame("bench.py", 3, "<module>",
     "from vllm.spec_decode.spec_decode_worker import SpecDecodeWorker"), *_SPEC_MODULE,
     "ImportError: cannot import name 'X'"],
    # init_worker importing the plain worker: no speculation
    ["Traceback (most recent call last):", *_INIT, *_IMPORTLIB,
     *_frame(f"{_V}/worker/worker.py", 20, "<module>", "from vllm.model_executor import set_random_seed"),
     "ImportError: cannot import name 'set_random_seed'"],
    # a test module importing it (V0's own unit tests import the class directly)
    ["Traceback (most recent call last):",
     *_frame("/src/vllm/tests/spec_decode/utils.py", 8, "<module>", "from vllm.spec_decode import x"),
     *_frame(f"{_V}/spec_decode/__init__.py", 1, "<module>"), *_SPEC_MODULE, "ImportError: boom"],
])
def test_the_spec_worker_module_imported_elsewhere_shows_no_run(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is None and not any("imported by" in e.reason for e in path.evidence), path


STAGE = ("INFO 10-25 02:19:22 spec_decode_worker.py:976] SpecDecodeWorker stage times: "
         "average_time_per_proposal_tok_ms=5.56 scoring_time_ms=43.28 verification_time_ms=1.52")
METRICS = ("INFO 08-01 10:00:00 metrics.py:396] Speculative metrics: Draft acceptance rate: 0.612, "
           "System efficiency: 0.455, Number of speculative tokens: 3, Number of accepted tokens: 1200")


@pytest.mark.parametrize("lines", [
    # a PR comment quoting a user who quoted their own log (two quote levels)
    ["https://github.com/vllm-project/vllm/pull/9000", "[SpecDec] Scorer rework #9000", "",
     "> Thanks! With --enforce-eager the proposal time goes up:", ">", f"> > {STAGE}", ">",
     "> Without it the proposals are faster."],
    # an issue reply quoting the run's metrics line once
    ["Replying to the report above:", f"> {METRICS}", "The acceptance rate looks low for this draft."],
    # a bare paste, no launch
    ["our nightly run:", STAGE, STAGE.replace("5.56", "5.61")],
    # a nested quote without blanks after the marks
    ["Quoting the thread:", f">> {METRICS}", ">> that was with a 68M draft"],
])
def test_a_v0_engine_line_under_its_logger_header_shows_the_run(tmp_path: Path, lines: list[str]) -> None:
    assert_verdict(probed_path(tmp_path, lines), "other", "SpecDecodeWorker")


@pytest.mark.parametrize("lines", [
    # the writer's own V1 line outranks the quoted V0 one
    [f"> {METRICS}", "On 0.10 I get instead:",
     "INFO 08-01 10:00:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.10, "
     "Accepted throughput: 30.1 tokens/s"],
    # the writer's own line sets the quoted one aside as another deployment's
    [f"> {METRICS}", "In our old deployment it printed Speculative metrics: Draft acceptance rate: 0.3, "
     "System efficiency: 0.2, and nothing since."],
])
def test_engine_lines_not_the_runs_own_show_no_v0_worker(tmp_path: Path, lines: list[str]) -> None:
    assert probed_path(tmp_path, lines).worker_class != "SpecDecodeWorker"


_SITE = "/usr/local/lib/python3.12/dist-packages/vllm"
_WARMUP = [*_frame(f"{_SITE}/v1/worker/gpu_worker.py", 254, "compile_or_warm_up_model",
                   "self.model_runner._dummy_sampler_run("),
           *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1765, "_dummy_sampler_run",
                   "dummy_spec_decode_metadata = SpecDecodeMetadata.make_dummy("),
           *_frame(f"{_SITE}/v1/spec_decode/metadata.py", 38, "make_dummy",
                   "cu_num_draft_tokens = torch.from_numpy(cu_num_draft_tokens).to(device)")]  # fmt: skip
_OOB = "RuntimeError: CUDA error: an illegal memory access was encountered"


@pytest.mark.parametrize(("lines", "classes"), [
    # a CI page: timestamped, the engine's prefix on every frame, no method anywhere
    (["[Bug][Failing Test]: structured output test fails on main", "",
      *[f"[2025-05-21T18:59:44Z] ERROR 05-21 11:59:44 [core.py:493] {t}"
        for t in ["EngineCore failed to start.", "Traceback (most recent call last):", *_WARMUP, _OOB]]],
     "EagleProposer|NgramProposer"),
    # a bare crash of a stated release through the rejection sampler
    (["INFO 08-20 10:00:00 [__init__.py:241] vLLM API server version 0.10.1", "Traceback (most recent call last):",
      *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1600, "execute_model",
              "sampler_output = self.rejection_sampler("),
      *_frame(f"{_SITE}/v1/sample/rejection_sampler.py", 120, "forward", "output_token_ids = rejection_sample("),
      *_frame(f"{_SITE}/v1/sample/rejection_sampler.py", 200, "rejection_sample"), _OOB],
     "EagleProposer|MedusaProposer|NgramProposer"),
    # the runner's own draft step, an issue body with no method
    (["Server dies after a few hundred requests", "```", "Traceback (most recent call last):",
      *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1400, "execute_model", "self.propose_draft_token_ids("),
      *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1700, "propose_draft_token_ids"), _OOB, "```"],
     "EagleProposer|NgramProposer"),
    # quoted in a reply
    (["> Same here:", "> Traceback (most recent call last):", *[f"> {t}" for t in _WARMUP], f"> {_OOB}"],
     "EagleProposer|NgramProposer"),
])
def test_a_call_only_speculation_makes_names_the_v1_proposers(
    tmp_path: Path, lines: list[str], classes: str
) -> None:
    path = crash_path(run(tmp_path, lines))
    assert_verdict(path, "unknown", classes)
    assert "Speculator" not in (path.conditional or "") and "Worker" not in (path.conditional or "")


def test_a_stated_release_bounds_the_v1_proposers(tmp_path: Path) -> None:
    lines = ["INFO 05-20 10:00:00 [api_server.py:1043] vLLM API server version 0.9.0",
             "Traceback (most recent call last):", *_WARMUP, _OOB]
    cond = crash_path(run(tmp_path, lines)).conditional or ""
    assert "DFlashProposer" not in cond and "SuffixDecodingProposer" not in cond, cond


@pytest.mark.parametrize("lines", [
    # a unit test calling make_dummy itself: no runner, no run
    ["Traceback (most recent call last):",
     *_frame("/src/vllm/tests/v1/spec_decode/test_eagle.py", 80, "test_prepare_inputs",
             "spec_decode_metadata = SpecDecodeMetadata.make_dummy("),
     *_frame(f"{_SITE}/v1/spec_decode/metadata.py", 38, "make_dummy"), _OOB],
    # the plugin's runner: its own proposers, not vLLM's V1 ones
    ["Traceback (most recent call last):",
     *_frame("/usr/local/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", 900, "_dummy_sampler_run"),
     *_frame(f"{_SITE}/v1/worker/gpu_model_runner.py", 1765, "_dummy_sampler_run"),
     *_frame(f"{_SITE}/v1/spec_decode/metadata.py", 38, "make_dummy"), _OOB],
])
def test_speculative_calls_outside_vllms_v1_runner_give_no_v1_condition(tmp_path: Path, lines: list[str]) -> None:
    path = crash_path(run(tmp_path, lines))
    assert "one of the V1 runner's proposers" not in (path.conditional or ""), path


def test_a_named_method_still_decides_over_a_speculative_call(tmp_path: Path) -> None:
    lines = ["$ vllm serve meta-llama/Llama-3.1-8B --speculative-config '{\"method\": \"ngram\", "
             "\"num_speculative_tokens\": 3, \"prompt_lookup_max\": 4}'",
             "Traceback (most recent call last):", *_WARMUP, _OOB]
    assert_verdict(crash_path(run(tmp_path, lines)), "other", "NgramProposer")


@pytest.mark.parametrize(("lines", "classes", "absent"), [
    # a store copy of an issue: nightly build, the env forced, speculation said, no method
    (["vllm-project/vllm · issue #50123 · open", "# [Bug]: speculative decoding under PP gives wrong output",
      "", "vLLM `0.26.1rc1.dev12+gabc` (nightly), `VLLM_USE_V2_MODEL_RUNNER=1`, two speculative methods tried."],
     "EagleSpeculator|MTPSpeculator|DFlashSpeculator|DSparkSpeculator", "MultiStepWorker"),
    # a bare server log: the env in the launch, the version line, speculation in the writer's line
    (["$ VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /models/x --tensor-parallel-size 2",
      "INFO 04-01 10:00:00 [api_server.py:1043] vLLM API server version 0.24.0",
      "Speculative decoding crashes the server after warm-up on this build."],
     "EagleSpeculator|MTPSpeculator|DFlashSpeculator", "DSparkSpeculator"),
    # notes of a deployment: the runner said for the run
    (["Deploy notes: vLLM 0.29.0 on the V2 model runner (VLLM_USE_V2_MODEL_RUNNER=1).",
      "With speculative decoding on, the engine dies at start-up."],
     "EagleSpeculator|MTPSpeculator|ExtractHiddenStatesSpeculator", "Worker"),
    # an environment list in an issue body
    (["### Your current environment", "- vLLM: 0.25.0", "- env: `VLLM_USE_V2_MODEL_RUNNER=1`",
      "- speculative decoding: enabled (method left at the default of our launcher)",
      "### 🐛 Describe the bug", "CUDA fault after 10 minutes of traffic."],
     "EagleSpeculator|DSparkSpeculator", "ExtractHiddenStatesSpeculator"),
])
def test_speculation_on_the_forced_v2_runner_names_its_speculators(
    tmp_path: Path, lines: list[str], classes: str, absent: str
) -> None:
    path = probed_path(tmp_path, lines)
    assert_verdict(path, "unknown", classes)
    assert absent not in (path.conditional or ""), path.conditional


@pytest.mark.parametrize("lines", [
    # the V1 runner forced
    ["vLLM 0.26.0, VLLM_USE_V2_MODEL_RUNNER=0, speculative decoding enabled: the server hangs"],
    # a feature request for the runner
    ["# [Feature]: speculative decoding support in the V2 model runner", "",
     "Please add speculative decoding to MRV2 (VLLM_USE_V2_MODEL_RUNNER=1)."],
])
def test_no_v2_speculators_without_a_run_on_the_forced_runner(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert "model runner v2's speculators" not in (path.conditional or ""), path


def test_a_named_method_on_the_forced_runner_keeps_its_class(tmp_path: Path) -> None:
    lines = ["VLLM_USE_V2_MODEL_RUNNER=1 vllm serve /m --speculative-config '{\"method\": \"eagle3\", \"model\": \"/d\"}'",
             "INFO 04-01 10:00:00 [api_server.py:1043] vLLM API server version 0.26.0"]
    assert_verdict(probed_path(tmp_path, lines), "other", "EagleSpeculator")
