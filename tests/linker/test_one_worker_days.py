"""Days when SGLang had one speculative worker (path_era._one_worker).

Up to 0.5.1 every algorithm SGLang accepted (EAGLE, EAGLE3, NEXTN) ran ``EAGLEWorker``;
STANDALONE came in 0.5.2, NGRAM in 0.5.3, the v2 worker in 0.5.3.post2. A run on SGLang that
shows speculation without naming its algorithm ("speculative decoding", bench_speculative.py, a
Decode batch line's ``accept len``) on a release or day of that span ran ``EAGLEWorker``.
Our own lines in the shapes of real threads (rounds 40 01, 42 25 and 31), several ways of
writing them, and near misses that must stay without that verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_logs_helpers import assert_verdict, crash_path, run

_PROBE = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/graphs.py", line 88, in replay',
    "    super().replay()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
]


def _issue(title: str, day: str, *body: str, repo: str = "sgl-project/sglang") -> list[str]:
    return [f"{repo} · issue #4100 · closed · Python", f"# {title}", "",
            f"someone · description · {day}", *body, "", *_PROBE]  # fmt: skip


@pytest.mark.parametrize(
    ("title", "day", "body"),
    [
        # the speculative benchmark script fails (round 42 31's shape)
        ("[Bug] bench_speculative.py got error", "2025-03-18", "It fails right after the warmup."),
        # a prose-only report on the draft's top-k with the radix cache (round 42 25's shape)
        ("[Bug] Incorrect topk_index with RadixCache enabled", "2025-08-03",
         "When using speculative decoding with a mixed batch, the draft's topk_index is wrong."),
        # the title names it, the body only the symptom
        ("[Bug] Throughput decreases after using speculative sampling", "2025-04-20",
         "With 32 concurrent requests the throughput halves."),
        ("[Bug] Spec decode hangs the scheduler on 8xH20", "2025-06-02", "Nothing is printed after it."),
        # an acceptance figure or the draft model said of the run
        ("[Bug] Accept length stays at 1.0 for Llama-3.1-8B", "2025-05-12", "Every request is slow."),
        ("[Bug] Garbled output under load", "2025-02-20",
         "The draft model produces NaN logits after ~100 requests on 8xH100."),
    ],
)
def test_speculation_with_no_algorithm_in_the_one_worker_days(
    tmp_path: Path, title: str, day: str, body: str
) -> None:
    """An SGLang issue reporting a speculative run, no algorithm named, posted before 0.5.2."""
    assert_verdict(crash_path(run(tmp_path, _issue(title, day, body))), "v1", "EAGLEWorker")


def test_a_decode_line_with_accept_len_is_the_mark(tmp_path: Path) -> None:
    """A bare SGLang log in an issue (round 40 01's shape): the Decode batch line's accept len
    shows the run speculates, its own stamp gives the day (March 2025)."""
    log = [
        "[2025-03-24 02:56:26 TP0] Prefill batch. #new-seq: 30, #new-token: 3810, #cached-token: 60, "
        "token usage: 0.00, #running-req: 2, #queue-req: 68, ",
        "[2025-03-24 02:56:41 TP0] Decode batch. #running-req: 32, #token: 7352, token usage: 0.01, "
        "accept len: 2.54, gen throughput (token/s): 39.33, largest-len: 0, #queue-req: 68, ",
    ]
    lines = ["sgl-project/sglang · issue #4759 · closed · Python", "# [Bug] Server dies under load", "",
             "[continued]", *log, *_PROBE]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


def test_a_named_release_of_the_span_bounds_it(tmp_path: Path) -> None:
    """No day at all, but check_env's release 0.4.6.post1: every algorithm there ran EAGLEWorker."""
    lines = ["sgl-project/sglang · issue #5200 · open · Python", "# [Bug] speculative decoding crash",
             "", "sglang: 0.4.6.post1", "Speculative decoding crashes after a few requests.", "", *_PROBE]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")


@pytest.mark.parametrize(
    "lines",
    [
        # after 0.5.2/0.5.3: STANDALONE and NGRAM have their own workers, v2 follows
        _issue("[Bug] Spec decode hangs the scheduler", "2025-11-20", "Nothing is printed after it."),
        # before any release had a speculative worker
        _issue("[Bug] Spec decode hangs the scheduler", "2024-11-10", "Nothing is printed after it."),
        # speculation named as off, or asked about
        _issue("[Bug] Llama crash on H100", "2025-03-18", "The crash also happens without speculative decoding."),
        _issue("[Bug] Llama crash on H100", "2025-03-18", "Does speculative decoding make it worse?"),
        # a feature request
        _issue("[Feature] Support speculative decoding for Qwen2-VL", "2025-03-18",
               "It would help latency a lot."),
        # the acceptance figure is another engine's
        _issue("[Bug] Slow decode on 8xH100", "2025-03-18", "vLLM's accept length is 3.1 for this model."),
        # another engine's tracker
        _issue("[Bug] Spec decode hangs the scheduler", "2025-03-18", "Nothing is printed after it.",
               repo="vllm-project/vllm"),
    ],
)
def test_near_misses_get_no_eagle_worker(tmp_path: Path, lines: list[str]) -> None:
    """Outside the span, speculation off or asked about, a request, another engine: no
    EAGLEWorker from this rule."""
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class != "EAGLEWorker", path


@pytest.mark.parametrize(
    "head",
    [
        # a citation under its title (the way people cite a thread)
        ["[Bug] bench_speculative.py got error", "sgl-project/sglang#4536 · closed"],
        # a GitHub page's title as a browser copies it
        ["[Bug] bench_speculative.py got error · Issue #4536 · sgl-project/sglang · GitHub"],
    ],
)
def test_every_copy_form_of_the_thread_head(tmp_path: Path, head: list[str]) -> None:
    """The same report copied with its head in the other forms people paste it (round 42 31's
    citation): SGLang's tracker, a failure reported, March 2025: EAGLEWorker."""
    lines = [*head, "", "someone · comment · 2025-03-18", "It fails right after the warmup.", "", *_PROBE]
    assert_verdict(crash_path(run(tmp_path, lines)), "v1", "EAGLEWorker")
