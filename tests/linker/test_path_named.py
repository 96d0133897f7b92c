"""A vLLM run whose text names its speculative method only in words (round 14: an MTP title over
EngineCore frames, a "Draft Model" CI title, a test id ``test_ngram_correctness`` on the plugin):
the method's class, or the condition over the classes the words allow."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

ENGINE = ["Traceback (most recent call last):",
          '  File "/py/site-packages/vllm/v1/engine/core.py", line 700, in run_engine_core',
          "    engine_core.run_busy_loop()",
          "TimeoutError: the step took too long"]  # fmt: skip


def _path(tmp_path: Path, lines: list[str]):
    (crash,) = roots(run(tmp_path, lines))
    assert crash.worker_path is not None
    return crash.worker_path


def test_a_title_naming_mtp_over_engine_frames_names_its_proposer(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# V1 engine with MTP speculative decoding stalls", *ENGINE])
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")
    assert path.evidence[-1].lineno == 1


def test_a_draft_model_title_names_the_draft_model_proposer(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# Spec decode with a Draft Model breaks at capture", *ENGINE])
    assert (path.value, path.worker_class) == ("other", "DraftModelProposer")


def test_families_with_different_classes_are_a_condition(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# EAGLE and N-gram drafts both crash at capture", *ENGINE])
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional is not None and "EagleProposer" in path.conditional


def test_a_model_named_mtp_method_beside_another_family_is_a_condition(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# TP=2 spec decode (glm4_moe_mtp / DFlash) crashes at sync", *ENGINE])
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional is not None
    assert "EagleProposer" in path.conditional and "DFlashProposer" in path.conditional


def test_a_method_value_only_vllm_spells_names_the_engine(tmp_path: Path) -> None:
    """A title writing the method as vLLM's config value (``glm4_moe_mtp``) over a crash with
    no frame of any engine: the value itself says the run is vLLM's, so its class decides; the
    same words with a value SGLang also spells (``frozen_kv_mtp``) name no engine."""
    crash = ["Traceback (most recent call last):", '  File "/app/bench.py", line 3, in <module>',
             "RuntimeError: illegal address"]  # fmt: skip
    path = _path(tmp_path, ["# illegal address with glm4_moe_mtp and 4 draft tokens", *crash])
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer", "vllm")
    (tmp_path / "b").mkdir()
    other = _path(tmp_path / "b", ["# illegal address with frozen_kv_mtp and 4 draft tokens", *crash])
    assert (other.worker_class, other.framework) == (None, None)


def test_a_test_id_on_the_plugin_names_its_classes_by_release(tmp_path: Path) -> None:
    lines = ["INFO 05-02 10:00:00 [__init__.py:40] Platform plugin ascend is activated",
             "FAILED tests/e2e/test_spec.py::test_ngram_correctness - RuntimeError",
             "Traceback (most recent call last):",
             '  File "/w/vllm_ascend/worker/model_runner_v1.py", line 88, in execute_model',
             "RuntimeError: device error"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.conditional is not None and "AscendNgramProposer" in path.conditional


def test_words_in_a_run_that_is_not_vllms_name_nothing(tmp_path: Path) -> None:
    lines = ["# MTP run crashes", "Traceback (most recent call last):",
             '  File "/app/serve.py", line 3, in <module>', "RuntimeError: boom"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.worker_class, path.conditional) == (None, None)


RUNTIME = ["Traceback (most recent call last):",
           '  File "/py/tensorrt_llm/runtime/generation.py", line 3300, in decode',
           "AssertionError: cross attention is not supported"]  # fmt: skip


def test_medusa_named_over_the_engine_runtime_is_its_decoding_layer(tmp_path: Path) -> None:
    path = _path(tmp_path, ["# Serving a seq2seq model with Medusa heads", *RUNTIME])
    assert (path.value, path.worker_class, path.family) == ("other", "MedusaDecodingLayer",
                                                            "MEDUSA")  # fmt: skip


def test_a_lookahead_config_name_beside_an_engine_build_names_its_layer(tmp_path: Path) -> None:
    lines = ["# lookAheadRuntimeConfig is ignored by the server",
             "trtllm-build --checkpoint_dir /c --output_dir /e", *RUNTIME[:1],
             '  File "/app/client.py", line 9, in <module>', "RuntimeError: bad request"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "LookaheadDecodingLayer")


def test_a_trtllm_family_word_without_the_engine_flow_is_a_condition(tmp_path: Path) -> None:
    lines = ["# Medusa on TensorRT-LLM 1.0", "Traceback (most recent call last):",
             '  File "/py/tensorrt_llm/executor/worker.py", line 10, in run',
             "RuntimeError: executor died"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.worker_class is None
    assert path.conditional is not None and "MedusaDecodingLayer" in path.conditional


# ---- a saved thread's header places a run no line of its own places (rounds 15/16) ----------

PLAIN = ["Traceback (most recent call last):", '  File "/app/client.py", line 3, in <module>',
         "RuntimeError: wrong tokens after the second call"]  # fmt: skip


def test_the_trackers_header_places_a_lookahead_run_its_day_puts_on_the_engine_flow(
    tmp_path: Path,
) -> None:
    """Filed on TensorRT-LLM's tracker in 2024, before its PyTorch backend (0.17): lookahead
    named in the title ran the engine flow's decoding layer."""
    lines = ["NVIDIA/TensorRT-LLM · issue #9001 · open · Python",
             "# Lookahead decoding gives different text on each call",
             "someone · description · 2024-08-02", *PLAIN]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class, path.framework) == ("other", "LookaheadDecodingLayer",
                                                               "trtllm")  # fmt: skip
    assert "before the PyTorch backend" in path.evidence[-1].reason


def test_a_header_of_a_downstream_repository_places_nothing(tmp_path: Path) -> None:
    lines = ["some-org/serving-stack · issue #12 · open · Go",
             "# Lookahead decoding gives different text on each call", *PLAIN]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.worker_class, path.conditional, path.framework) == (None, None, None)


def test_mtp_named_for_a_trtllm_release_is_the_mtp_condition(tmp_path: Path) -> None:
    """A PyTorch-backend family named beside the TensorRT-LLM release: what a YAML saying
    ``decoding_type: MTP`` gives, a condition on the keys the text does not show."""
    lines = ["**Version:** TensorRT-LLM 1.2.0rc3",
             "With MTP and attention DP enabled, warmup dies with an illegal address.", *PLAIN]  # fmt: skip
    path = _path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("unknown", None)
    assert path.conditional is not None
    assert "MTPEagleWorker" in path.conditional and "MTPWorker" in path.conditional


def test_a_plugin_test_id_with_the_method_beside_a_version_names_its_family(tmp_path: Path) -> None:
    """A failing spec-decode test id (``test_v1_mtp_correctness``, ``test_mtp1_...``) printed
    above the plugin's worker traceback: its method's family on the plugin."""
    lines = ["FAILED tests/e2e/spec_decode_v1/test_v1_mtp_correctness.py::test_mtp2_correctness_graph",
             "Traceback (most recent call last):",
             '  File "/work/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2100, in profile_run',
             "RuntimeError: NPU out of memory"]  # fmt: skip
    path = _path(tmp_path, lines)
    assert path.family == "MTP" and path.framework == "vllm_ascend"
    assert path.worker_class or path.conditional


def test_an_mtp_run_of_a_target_with_its_own_head_names_that_head(tmp_path: Path) -> None:
    """Step-3.5 drafts with its own MTP layers through Step3p5MTPProposer (where vLLM ships it),
    not EagleProposer: a launch with no release gives that class as the condition, and so does
    a title naming the model and MTP; a release that has the class decides it on the V1 model
    runner, and where the runner is not said (0.22 on may default to MRV2) both classes do."""
    serve = ("vllm serve stepfun-ai/Step-3.5-Flash --tensor-parallel-size 8 --speculative-config "
             """'{"method": "mtp", "num_speculative_tokens": 1}'""")  # fmt: skip
    path = _path(tmp_path, [serve, *ENGINE])
    assert path.worker_class is None and "Step3p5MTPProposer" in (path.conditional or "")
    (tmp_path / "b").mkdir()
    dated = _path(tmp_path / "b", ["INFO 03-02 10:00:00 [api_server.py:1] vLLM API server version 0.25.0",
                                   "export VLLM_USE_V2_MODEL_RUNNER=0", serve, *ENGINE])  # fmt: skip
    assert dated.worker_class == "Step3p5MTPProposer"
    (tmp_path / "d").mkdir()
    later = _path(tmp_path / "d", ["INFO 03-02 10:00:00 [api_server.py:1] vLLM API server version 0.25.0",
                                   serve, *ENGINE])  # fmt: skip
    assert later.worker_class is None
    assert all(c in (later.conditional or "") for c in ("Step3p5MTPProposer", "MTPSpeculator"))
    (tmp_path / "c").mkdir()
    title = _path(tmp_path / "c", ["# [Bug]: Step-3.5-Flash MTP drafting stalls", *ENGINE])
    assert title.worker_class is None and "Step3p5MTPProposer" in (title.conditional or "")
