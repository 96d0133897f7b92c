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


def test_the_flag_quoted_as_a_fix_or_another_reports_sets_nothing() -> None:
    """The sentence's own words (its JSON aside) set the flag apart: a fix, another issue's."""
    for line in ("Passing --speculative-config '{\"method\":\"ngram\"}' makes the hang go away.",
                 "#4321 runs with --speculative-config '{\"method\":\"eagle3\"}' and sees it too."):
        assert "speculative_config.method" not in collect(line).flags
