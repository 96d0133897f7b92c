"""Texts that show no run get no worker path from method words or launch arguments that are not
a run's (session 31, TRAPS31B): a plan's expected test failure is no crash, a Markdown bullet's
words are no flag's value. The other side is guarded in the same file: a reporter's own failure
told in words, a bare flag block and a user's launch command with its crash keep theirs.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, crash_path, roots, run

from spectrace.assemblers.launch import parse_launch_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.mention import expected_outcome


def _has_path(tmp_path: Path, lines: list[str], name: str = "notes.md") -> bool:
    path = crash_path(run(tmp_path, [*lines, "", *PROBE], name=name))
    return path.worker_class is not None or bool(path.conditional)


# ---- a plan's expected failure is not a crash ---------------------------------------------------

PLAN = [
    "# Drafter sweep for the kestrel box -- plan, part 2",
    "",
    "- [ ] **Step 4: Run the new unit test and watch it fail**",
    "",
    "Run: `pytest tests/test_sweep_math.py -q`",
    "Expected: FAILS with `ImportError` until step 5 writes sweep_totals.",
    "",
    "- [ ] **Step 5: Write sweep_totals in sweep.py**",
]  # fmt: skip


def test_a_plans_expected_failure_is_no_crash(tmp_path: Path) -> None:
    assert roots(run(tmp_path, PLAN, name="plan.md")) == []


def test_an_outcome_a_step_foresees_is_no_report() -> None:
    for line in ("Expected: FAIL with ImportError", "**Expected result:** fails with KeyError",
                 "This call should fail with ValueError until the hook lands",
                 "the loader is expected to raise KeyError here"):  # fmt: skip
        at = line.rfind(" ", 0, line.index("Error")) + 1
        assert expected_outcome(line, at), line


def test_a_reporters_failure_beside_an_expectation_stays_a_report(tmp_path: Path) -> None:
    line = "Expected: the server starts. Actual: it fails with AssertionError right after the draft loads."
    at = line.index("AssertionError")
    assert not expected_outcome(line, at)
    found = roots(run(tmp_path, ["# Orbit-8B with EAGLE3 dies at start", "", line], name="issue.md"))
    assert [i.exception_type for i in found] == ["AssertionError"]


# ---- a Markdown bullet's words are not the value of a flag quoted above them ------------------

CONSTRAINTS = [
    "# kestrel drafter benchmark -- plan",
    "",
    "## Rules every task keeps",
    "",
    "- **Repeatable:** fix `--seed`; write down the exact server flags, `-ngl 99`, context per slot.",
    "- **Commits land on `trunk`** (a private repo). Messages end with the reviewer's name.",
    "- Anchor figure: the reference box did 70 -> 210 tok/s with llama.cpp and a small drafter.",
    "",
    "Expected: kq-small ~15G, kq-big ~18G, dflash ~1.5G on disk.",
]  # fmt: skip


def test_a_bullet_after_a_quoted_flag_is_no_value_of_it(tmp_path: Path) -> None:
    assert not _has_path(tmp_path, CONSTRAINTS, name="plan.md")


def test_a_flag_list_item_under_a_quoted_flag_is_still_read() -> None:
    command = parse_launch_command(
        "Key launch flags: `--speculative-algorithm EAGLE3`\n- --speculative-num-steps 3\n", OptionTables()
    )
    assert command is not None and command.engine == "sglang"
    assert command.flags.get("speculative_num_steps") == 3, command.flags


def test_a_users_launch_and_its_crash_keep_their_path(tmp_path: Path) -> None:
    issue = [
        "# [Bug] EAGLE3 crash at batch 16",
        "",
        "I launched the server like this:",
        "",
        "```",
        "python -m sglang.launch_server --tp 1 --model-path acme/Orbit-8B --speculative-algorithm EAGLE3 \\",
        "  --speculative-draft-model-path acme/Orbit-8B-eagle3 --speculative-num-steps 3 \\",
        "  --speculative-eagle-topk 1 --tp 1 --speculative-num-draft-tokens 4",
        "```",
        "",
        "Expected: no crash. Instead the scheduler fails with the error below.",
    ]  # fmt: skip
    assert _has_path(tmp_path, issue, name="issue.md")


# ---- SGLang's option names passed to the JAX port are not an SGLang launch --------------------

JAX_TEST = [
    "import unittest",
    "",
    "from sgl_jax.srt.utils import stop_all",
    "from sgl_jax.test.test_utils import (",
    "    DEFAULT_URL_FOR_TEST,",
    "    popen_launch_server,",
    ")",
    "",
    "",
    "class TestDraftChain(unittest.TestCase):",
    "    @classmethod",
    "    def setUpClass(cls):",
    "        cls.server = popen_launch_server(",
    "            \"acme/Orbit-8B\",",
    "            DEFAULT_URL_FOR_TEST,",
    "            other_args=[",
    "                \"--speculative-algorithm\",",
    "                \"EAGLE3\",",
    "                \"--speculative-draft-model-path\",",
    "                \"acme/Orbit-8B-eagle3\",",
    "                \"--speculative-num-steps\",",
    "                \"2\",",
    "                \"--tp-size\",",
    "                \"4\",",
    "            ],",
    "        )",
]  # fmt: skip


def test_a_test_of_the_jax_port_passing_sglangs_flags_is_no_sglang_run(tmp_path: Path) -> None:
    assert not _has_path(tmp_path, JAX_TEST, name="test_spec.py")


def test_an_sglang_run_that_names_the_jax_port_in_passing_keeps_its_path(tmp_path: Path) -> None:
    issue = [
        "# [Bug] EAGLE3 illegal memory access at batch 32",
        "",
        "The same model is fine on sglang-jax (TPU); on H100 with SGLang it dies:",
        "",
        "python -m sglang.launch_server --tp 1 --model-path acme/Orbit-8B --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path acme/Orbit-8B-eagle3 --speculative-num-steps 3 "
        "--speculative-eagle-topk 4 --speculative-num-draft-tokens 16",
        "",
        "Traceback (most recent call last):",
        '  File "/srv/py/sglang/srt/managers/scheduler.py", line 2900, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        '  File "/srv/py/sglang/srt/speculative/eagle_worker.py", line 300, in forward_batch_generation',
        "    logits_output, next_token_ids = self.verify(batch, spec_info)",
        "RuntimeError: CUDA error: misaligned address",
    ]  # fmt: skip
    path = crash_path(run(tmp_path, issue, name="issue.md"))
    assert path.worker_class == "EAGLEWorker", path
