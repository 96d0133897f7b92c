"""vLLM's ``--speculative-config '{...}'`` quoted inside a sentence (no ``vllm serve`` on the
line) still states the method the run asked for; a vLLM log record quoting it in a hint does not."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path

SENTENCE = ("When we serve the checkpoint with --speculative-config "
            "'{\"method\":\"ngram\",\"num_speculative_tokens\":4}', the drafter breaks.")  # fmt: skip


def test_a_sentence_quoting_vllms_flag_and_json_names_the_method() -> None:
    config = collect(SENTENCE)
    assert config.flags["speculative_config.method"].value == "ngram"
    assert global_worker_path(config).worker_class == "NgramProposer"


def test_the_same_words_given_as_an_example_name_no_class() -> None:
    path = global_worker_path(collect("any drafter, e.g. " + SENTENCE))
    assert path.worker_class is None and path.family == "NGRAM"
