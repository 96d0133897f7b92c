"""A post's day bounds the release a vLLM run could hold (release_dates.newest_at): a report
written before vllm-ascend renamed its EAGLE class ran the old one, a report older than a
method's V1 proposer ran V0; ``VLLM_USE_V1`` set for the run picks the engine outright."""

from __future__ import annotations

from asm_helpers import collect_config as collect

from spectrace.linker import global_worker_path

RUN = ["INFO 05-02 10:00:00 [__init__.py:40] Platform plugin ascend is activated",
       "vllm serve /models/q --speculative-config '{\"method\": \"eagle3\", "
       "\"model\": \"/m/d\", \"num_speculative_tokens\": 2}'"]  # fmt: skip


def test_an_old_post_day_decides_the_class_of_its_releases() -> None:
    path = global_worker_path(collect("alice · comment · 2025-11-01", *RUN))
    assert (path.value, path.worker_class, path.framework) == ("other", "EagleProposer",
                                                               "vllm_ascend")  # fmt: skip
    assert "the text's dates allow vllm-ascend" in path.evidence[0].reason


def test_a_recent_day_or_none_leaves_the_condition() -> None:
    for lines in (RUN, ["alice · comment · 2026-06-01", *RUN]):
        path = global_worker_path(collect(*lines))
        assert path.worker_class is None and path.conditional is not None
        assert "AscendEagleProposer" in path.conditional and "EagleProposer on" in path.conditional


def test_a_date_inside_a_sentence_bounds_nothing() -> None:
    path = global_worker_path(collect("This broke after the 2025-11-01 upgrade.", *RUN))
    assert path.worker_class is None


V0_NGRAM = ("python -m vllm.entrypoints.openai.api_server --model /m --speculative-model "
            '"[ngram]" --num-speculative-tokens 5 --ngram-prompt-lookup-max 4')  # fmt: skip


def test_a_post_older_than_the_v1_proposer_ran_v0() -> None:
    """A method both engines ran (V0's spelling, no release): a post whose day allows no vLLM
    release with the V1 class is V0's worker; a later day keeps the engine condition."""
    old = global_worker_path(collect("bob · comment · 2024-12-01", V0_NGRAM))
    assert (old.value, old.worker_class) == ("other", "NGramWorker")
    assert "the text's dates allow vLLM 0.6.6" in old.evidence[0].reason
    later = global_worker_path(collect("bob · comment · 2025-06-01", V0_NGRAM))
    assert later.worker_class is None and "NGramWorker (V0)" in (later.conditional or "")


def test_the_engine_switch_set_for_the_run_picks_the_engine() -> None:
    for line, worker in (("export VLLM_USE_V1=1", "NgramProposer"),
                         ('os.environ["VLLM_USE_V1"] = "0"', "NGramWorker")):  # fmt: skip
        path = global_worker_path(collect(line, V0_NGRAM))
        assert (path.value, path.worker_class) == ("other", worker)
        assert "VLLM_USE_V1" in path.evidence[0].reason
    said = global_worker_path(collect("should I set VLLM_USE_V1 here?", V0_NGRAM))
    assert said.worker_class is None
