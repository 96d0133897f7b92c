"""Frames that show a speculative file was imported, or a draft named for its kind of head,
are read for what they prove (rounds 17's study misses, lines written by us)."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

VL = "/opt/venv/lib/python3.11/site-packages/vllm"
TAG = "(EngineCore_0 pid=42) ERROR 08-01 10:00:00 [core.py:700] "


def test_an_import_time_frame_of_a_proposer_file_names_no_proposer(tmp_path: Path) -> None:
    """vLLM's model runner imports every proposer module on every run: a ``<module>`` frame of
    one, failing on its own import, proves neither speculation nor that proposer."""
    body = ["Traceback (most recent call last):",
            f'  File "{VL}/v1/worker/gpu_model_runner.py", line 40, in <module>',
            "    from vllm.v1.spec_decode.ngram_proposer import NgramProposer",
            f'  File "{VL}/v1/spec_decode/ngram_proposer.py", line 6, in <module>',
            "    from numba import jit",
            "ImportError: numpy version too new for numba"]  # fmt: skip
    (crash,) = roots(run(tmp_path, [TAG + line for line in body]))
    path = crash.worker_path
    assert path is not None
    assert (path.value, path.worker_class, path.conditional) == ("unknown", None, None)


def test_the_same_file_running_its_proposer_still_names_it(tmp_path: Path) -> None:
    body = ["Traceback (most recent call last):",
            f'  File "{VL}/v1/spec_decode/ngram_proposer.py", line 120, in propose',
            "    drafts = self.batch_propose(n, ids, tokens)",
            "IndexError: index 9 is out of bounds"]  # fmt: skip
    (crash,) = roots(run(tmp_path, [TAG + line for line in body]))
    assert crash.worker_path is not None and crash.worker_path.worker_class == "NgramProposer"


def test_an_accelerator_checkpoint_as_v0_draft_is_an_mlp_speculator(tmp_path: Path) -> None:
    """IBM's MLPSpeculator heads are published as ``*-accelerator``: V0 runs them on
    MLPSpeculatorWorker, never the draft-model worker."""
    lines = ["ValueError: Expected both speculative_model and num_speculative_tokens to be "
             "provided, but found speculative_model='acme/llama-7b-accelerator' and "
             "num_speculative_tokens=6.", "vLLM version 0.5.1"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.worker_class, path.family) == ("MLPSpeculatorWorker", "MLP_SPECULATOR")


def test_a_family_named_in_words_is_the_verdicts_family(tmp_path: Path) -> None:
    """MTP named for a vLLM run runs on EagleProposer: the verdict names MTP, not EAGLE (the
    title's release bounds the era: an undated thread's words name every era's class)."""
    lines = ["vllm-project/vllm · issue #4 · open · Python",
             "# [Bug]: MTP speculative decoding fails at startup for this checkpoint on 0.10.1",
             "Traceback (most recent call last):", '  File "/app/serve.py", line 3, in <module>',
             "TypeError: unsupported operand"]  # fmt: skip
    (crash,) = roots(run(tmp_path, lines))
    path = crash.worker_path
    assert path is not None
    assert (path.worker_class, path.framework, path.family) == ("EagleProposer", "vllm", "MTP")
