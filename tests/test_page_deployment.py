"""A page copied whole (a model card, a README or docs page: no post, no log record, no
writer, no failure or result) whose deployment section gives one command per engine tells how to
serve the model, not a run (``not_run._page_copy``, ``_DEPLOY_HEADING``: a DOCS block to the
end). The same commands in a report of a failure keep their run.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_verdict, crash_path, run

PROBE = ["", "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>',
         "RuntimeError: spectrace probe"]  # fmt: skip
SGL = ("python -m sglang.launch_server --model-path acme-ai/Orbit-3 --tp 8 --speculative-algorithm EAGLE "
       "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")  # fmt: skip
VLLM = "vllm serve acme-ai/Orbit-3 -tp 8 --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'"


def test_a_model_cards_deployment_commands_are_no_run(tmp_path: Path) -> None:
    lines = ["acme-ai/Orbit-3 · Hugging Face", "", "## Deployment", "", "### SGLang", "", SGL, "", "### vLLM", "", VLLM]
    path = crash_path(run(tmp_path, [*lines, *PROBE], name="card.md"))
    assert path.worker_class is None and not path.conditional, path


def test_the_same_commands_in_a_failure_report_keep_their_run(tmp_path: Path) -> None:
    lines = ["## Deployment", "", VLLM, "", "## Error", "",
             "The server crashes with an illegal memory access at the first MTP step on vLLM 0.12.0."]  # fmt: skip
    assert_verdict(crash_path(run(tmp_path, [*lines, *PROBE], name="report.md")), "other", "EagleProposer")
