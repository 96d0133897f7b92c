"""An exception quoted alone in Markdown inline code is a crash; one named in prose is not.

Issue reports quote the error they hit as ``Error: `RuntimeError: ...` `` or put it alone in
backticks on the line after ``Error:``; the same report also names exceptions inside
sentences ("I get a `ValueError` when ..."), which are no crash. The lines are ours.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import roots, run

CUDA = "CUDA error: an illegal memory access was encountered"


def test_an_exception_after_a_label_in_inline_code_is_a_crash(tmp_path: Path) -> None:
    [root] = roots(
        run(tmp_path, ["Running the draft model on 4 GPUs.", f"Error: `RuntimeError: {CUDA}`"])
    )
    assert (root.exception_type, root.message) == ("RuntimeError", CUDA)


def test_an_exception_alone_in_backticks_under_error_is_a_crash(tmp_path: Path) -> None:
    lines = ["Error:", "`AttributeError: 'DraftLlamaForCausalLM' object has no attribute 'lm_head' `", "",
             "Full logs attached below."]  # fmt: skip
    [root] = roots(run(tmp_path, lines))
    assert root.exception_type == "AttributeError"
    assert root.message == "'DraftLlamaForCausalLM' object has no attribute 'lm_head'"


def test_exceptions_named_in_prose_are_no_crash(tmp_path: Path) -> None:
    lines = [
        "I get a `ValueError: bad shape` when the batch grows, see above.",
        "The `KeyError` comes back after a restart.",
        "`ValueError`",
        "We catch `RuntimeError: CUDA error` in our wrapper and retry, which works.",
    ]
    assert roots(run(tmp_path, lines)) == []


def test_an_out_of_memory_error_named_in_a_question_is_no_crash(tmp_path: Path) -> None:
    """The OOM rule matches the error as raised (``OutOfMemoryError:``, its repr, a bare line),
    not the class named in a sentence."""
    asked = ["Is `torch.cuda.OutOfMemoryError` expected with 16 draft tokens?",
             "We catch OutOfMemoryError in the client and retry."]  # fmt: skip
    assert roots(run(tmp_path, asked)) == []
    [root] = roots(run(tmp_path, ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."]))
    assert root.crash_class == "cuda_oom"
