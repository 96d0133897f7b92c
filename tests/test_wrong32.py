"""Session 32's conditionally wrong verdicts: a commented-out line is no setting and no crash."""
from __future__ import annotations

from real_logs_helpers import probed_path

from spectrace.assemblers.pyconfig import commented_out

COMPOSE = """services:
  inference:
    image: vllm/vllm-openai:v0.20.3
    environment:
      HF_TOKEN: "${HF_TOKEN}"
      # turn on the newer runner later
      # VLLM_USE_V2_MODEL_RUNNER: "1"
    command:
          - "--model"
          - "acme/Widget-30B-A3B"
          # - "--speculative-model"
          # - "[ngram]"
          # launcher said: serve: error: unrecognized arguments: --draft-depth 3
          - --speculative-config
          - '{"num_speculative_tokens":3,"method":"mtp"}'
(APIServer pid=1) INFO 03-02 10:00:01 [utils.py:241] non-default args: {'host': '0.0.0.0', 'model_tag': 'acme/Widget-30B-A3B', 'speculative_config': {'num_speculative_tokens': 3, 'disable_padded_drafter_batch': False, 'method': 'mtp'}}
(EngineCore pid=90) INFO 03-02 10:00:09 [core.py:98] Initializing a V1 LLM engine (v0.20.3) with config: model='acme/Widget-30B-A3B', seed=0, speculative_config=SpeculativeConfig(num_spec_tokens=3, method='mtp', model='acme/Widget-30B-A3B')
(EngineCore pid=90) INFO 03-02 10:00:12 [gpu_model_runner.py:4700] Starting to load model acme/Widget-30B-A3B...
(EngineCore pid=90) INFO 03-02 10:01:40 [gpu_model_runner.py:4720] Loading drafter model...
(APIServer pid=1) INFO:     10.0.0.5:41000 - "GET /health HTTP/1.1" 200 OK
"""


def test_commented_env_and_error_lines_are_notes_not_the_runs(tmp_path):
    path = probed_path(tmp_path, COMPOSE.splitlines())
    assert (path.value, path.worker_class, path.conditional) == ("other", "EagleProposer", None), path


def test_an_uncommented_runner_switch_still_counts(tmp_path):
    text = COMPOSE.replace('# VLLM_USE_V2_MODEL_RUNNER: "1"', 'VLLM_USE_V2_MODEL_RUNNER: "1"')
    text = text.replace("gpu_model_runner.py", "core.py")
    assert probed_path(tmp_path, text.splitlines()).worker_class != "EagleProposer"


def test_commented_out_reads_settings_not_titles():
    assert commented_out('      # VLLM_USE_V2_MODEL_RUNNER: "1"')
    assert commented_out("# export VLLM_USE_V2_MODEL_RUNNER=1")
    assert commented_out("  # - VLLM_FLAG=0  # off for now")
    assert commented_out("# old try: serve: error: unrecognized arguments: --foo")
    assert not commented_out("# VLLM_USE_V2_MODEL_RUNNER=1 crashes the EAGLE drafter on startup")
    assert not commented_out('VLLM_USE_V2_MODEL_RUNNER: "1"')


# ---- an install line of a plugin is no proof its proposer ran ----

NOTES = ["# Bench night 3: suffix drafting on the staging box", "",
         "```", "[setup] pulling the serving image", "[setup] pip installing arctic-inference (suffix decoding)",
         "[setup] done", "```", "",
         "Spec decode: method=suffix, num_speculative_tokens=8.",
         "Acceptance went from 0.21 to 0.64 on the repeated prompts.", "",
         "(APIServer pid=1) INFO 05-01 10:00:00 [metrics.py:96] SpecDecoding metrics: Drafted: 804 tokens,"
         " Accepted: 301 tokens, Mean acceptance length: 2.41"]
VLLM_CLASS = "A hook on `SuffixDecodingProposer.propose` logged each draft it returned during the bench."


def test_a_vllm_class_the_text_names_beats_a_plugin_from_an_install_line(tmp_path):
    path = probed_path(tmp_path, [*NOTES, VLLM_CLASS])
    assert (path.value, path.worker_class) == ("other", "SuffixDecodingProposer"), path


def test_an_install_line_alone_keeps_the_plugin_as_a_condition(tmp_path):
    path = probed_path(tmp_path, NOTES)
    assert path.worker_class is None and "SuffixProposer on arctic_inference" in (path.conditional or ""), path
