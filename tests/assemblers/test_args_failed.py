"""A flag typed with extra dashes (``----speculative-config``) still carries the config the user
meant; a run that died in vLLM's argument parsing built no proposer, so the class its config
asks for is a condition, not a decision."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path

SERVE = "`vllm serve my/model {} '{{\"method\": \"ngram\", \"num_speculative_tokens\": 5}}'` fails"


def test_extra_dashes_on_a_flag_keep_the_config_beside_it() -> None:
    config = collect(SERVE.format("----speculative-config"))
    assert config.flags["speculative_config.method"].value == "ngram"
    assert global_worker_path(config).worker_class == "NgramProposer"


def test_a_crash_in_argument_parsing_keeps_the_asked_class_as_a_condition() -> None:
    for crash in ('  File "/venv/lib/vllm/engine/arg_utils.py", line 1400, in create_engine_config',
                  "vllm serve: error: unrecognized arguments: --speculative_config"):  # fmt: skip
        path = global_worker_path(collect(SERVE.format("--speculative-config"), crash))
        assert (path.worker_class, path.family) == (None, "NGRAM")
        assert path.conditional is not None and "NgramProposer" in path.conditional
        assert any("argument parsing" in e.reason for e in path.evidence)
    # vLLM's own log header naming the file is not a crash there
    header = "WARNING 09-15 10:00:00 [arg_utils.py:1762] some default changed"
    path = global_worker_path(collect(SERVE.format("--speculative-config"), header))
    assert path.worker_class == "NgramProposer"
