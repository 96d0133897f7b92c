"""tools/real_logs/perturb.py: each paste transformation keeps what a text shows.

The tool reads every excerpt of a round again after each transformation (CRLF, colour codes,
a bug template, an environment dump, stripped timestamps, a rank prefix, a second copy, ...) and
reports any verdict class that changes. Here: the transformations touch only what they say they
touch, and on a tiny round of our own text none of them moves a verdict."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "real_logs"))
import perturb as P  # noqa: E402

SGLANG_V1 = """Server dies at the first batch, command below.

```
python3 -m sglang.launch_server --model-path org/m --speculative-algorithm EAGLE --speculative-eagle-topk 4
[2026-11-02 10:00:01] server_args=ServerArgs(model_path='org/m', speculative_algorithm='EAGLE', \
speculative_eagle_topk=4, disable_overlap_schedule=True, tp_size=1)
[2026-11-02 10:00:09 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 311, in forward_batch_generation
    self.verify(batch, spec_info)
RuntimeError: shape '[40, 4]' is invalid for input of size 150
```
"""

VLLM_EAGLE3 = """Crash with an EAGLE-3 draft on vLLM 0.10.1, launched like this:

```
vllm serve org/llama-8b --speculative-config '{"method": "eagle3", "model": "org/e3", "num_speculative_tokens": 3}'
```

Log:

```
INFO 08-12 09:14:02 [core.py:71] Initializing a V1 LLM engine (v0.10.1) with config: model='org/llama-8b', \
speculative_config=SpeculativeConfig(method='eagle3', model='org/e3', num_spec_tokens=3)
ERROR 08-12 09:15:40 [core.py:634] EngineCore encountered a fatal error.
ERROR 08-12 09:15:40 [core.py:634] Traceback (most recent call last):
ERROR 08-12 09:15:40 [core.py:634]   File "/usr/lib/python3/vllm/v1/worker/gpu_model_runner.py", line 1620, in execute_model
ERROR 08-12 09:15:40 [core.py:634]     draft_token_ids = self.drafter.propose(
ERROR 08-12 09:15:40 [core.py:634]   File "/usr/lib/python3/vllm/v1/spec_decode/eagle.py", line 212, in propose
ERROR 08-12 09:15:40 [core.py:634]     hidden_states = self.model(
ERROR 08-12 09:15:40 [core.py:634] RuntimeError: CUDA error: an illegal memory access was encountered
```

Any idea what is wrong?
"""

SGLANG_V2_NO_CRASH = """Accept length drops to 1.0 after a few minutes. SGLang 0.5.6 with SGLANG_ENABLE_SPEC_V2=1 set.

[2026-03-02 11:20:01] server_args=ServerArgs(model_path='org/qwen3-8b', tp_size=2, speculative_algorithm='EAGLE3', \
speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4, disable_overlap_schedule=False)
[2026-03-02 11:20:44 TP0] Decode batch, #running-req: 12, #token: 5120, accept len: 3.10, gen throughput (token/s): 1402.11
[2026-03-02 11:25:44 TP0] Decode batch, #running-req: 12, #token: 9120, accept len: 1.00, gen throughput (token/s): 512.40
"""

PLAN = """Rollout plan for next week
1. Turn speculation on in staging with the EAGLE draft head.
2. Watch the acceptance length for a day, then decide.
"""

ROUND = {"01": ("path", "EAGLEWorker", SGLANG_V1), "02": ("path", "EagleProposer", VLLM_EAGLE3),
         "03": ("path", "EAGLEWorkerV2", SGLANG_V2_NO_CRASH), "04": ("trap", "", PLAN)}


def test_crlf_and_trailing_space_touch_only_line_ends() -> None:
    assert P.crlf("a\nb\r\nc\n") == "a\r\nb\r\nc\r\n"
    assert P.trailing_space("a\n\nb\n") == "a  \n \t\nb  \n"


def test_prose_transformations_leave_records_and_code_alone() -> None:
    text = "We see this on two nodes.\nINFO 05-01 10:00:00 [core.py:1] engine ready now\n```\nplain words in a fence\n```\n"
    nb = P.nbsp_prose(text)
    assert nb.split("\n")[0] == "We\u00a0see\u00a0this\u00a0on\u00a0two\u00a0nodes."
    assert nb.split("\n")[1:] == text.split("\n")[1:]
    zw = P.zero_width_prose(text)
    assert zw.startswith("\u200bWe see") and zw.split("\n")[1:] == text.split("\n")[1:]


def test_colour_codes_go_around_a_records_level_only() -> None:
    text = "We get an ERROR each time\nWARNING 05-01 10:00:00 [x.py:2] slow\n"
    assert P.ansi_levels(text) == "We get an ERROR each time\n\x1b[33mWARNING\x1b[0m 05-01 10:00:00 [x.py:2] slow\n"


def test_markdown_wrappers() -> None:
    assert "```text\nboom\n```" in P.bug_template("boom\n")
    assert P.bug_template("```\nboom\n```\n").count("```\nboom\n```") == 1
    assert P.unfenced("a\n```text\nb\n```\nc\n") == "a\nb\nc\n"
    assert P.indent4("a\n\nb\n") == "    a\n\n    b\n"
    assert P.details("a\n").startswith("<details><summary>log</summary>\n\na\n")
    assert P.env_before("boom\n").endswith("```\n\nboom\n") and "PyTorch version" in P.env_before("x")
    assert P.env_after("boom\n").startswith("boom\n\nGPUs:") and "NVIDIA-SMI" in P.env_after("x")
    assert P.second_try("boom\n").count("boom") == 2


@pytest.mark.parametrize(("line", "stamps", "levels"), [
    ("INFO 05-01 10:00:00 [core.py:12] up", "INFO [core.py:12] up", "05-01 10:00:00 [core.py:12] up"),
    ("(APIServer pid=7) WARNING 05-01 10:00:00 [a.py:1] w", "(APIServer pid=7) WARNING [a.py:1] w",
     "(APIServer pid=7) 05-01 10:00:00 [a.py:1] w"),
    ("[2026-11-02 10:00:09 TP0] Scheduler hit", "[TP0] Scheduler hit", "[2026-11-02 10:00:09 TP0] Scheduler hit"),
    ("[2026-11-02 10:00:01] server_args=x", "server_args=x", "[2026-11-02 10:00:01] server_args=x"),
    ("2026-01-02T10:00:00.123Z ERROR boom", "ERROR boom", "2026-01-02T10:00:00.123Z boom"),
    ("2026-01-02 10:00:00,123 - sglang - INFO - up", "sglang - INFO - up", "2026-01-02 10:00:00,123 - sglang - up"),
    ("We restarted at 2026-01-02 10:00:00 and it held.", "We restarted at 2026-01-02 10:00:00 and it held.",
     "We restarted at 2026-01-02 10:00:00 and it held."),
])
def test_stamps_and_levels_come_off_records(line: str, stamps: str, levels: str) -> None:
    assert P.strip_stamps(line + "\n") == stamps + "\n"
    assert P.strip_levels(line + "\n") == levels + "\n"


def test_a_rank_prefix_goes_on_output_lines_only() -> None:
    text = ("It fails like this:\nvllm serve org/m\nTraceback (most recent call last):\n"
            '  File "/x/eagle.py", line 3, in propose\n    self.model(x)\nRuntimeError: bad\n'
            "(APIServer pid=3) INFO 05-01 10:00:00 [a.py:1] up\n")
    assert P.rank_paren(text).split("\n") == [
        "It fails like this:", "vllm serve org/m", "(Worker_TP0 pid=1234) Traceback (most recent call last):",
        '(Worker_TP0 pid=1234)   File "/x/eagle.py", line 3, in propose', "(Worker_TP0 pid=1234)     self.model(x)",
        "(Worker_TP0 pid=1234) RuntimeError: bad", "(APIServer pid=3) INFO 05-01 10:00:00 [a.py:1] up", ""]
    # the text's own day, or none: a day it does not give would date its run
    assert P.rank_bracket("RuntimeError: bad\n") == "[TP1] RuntimeError: bad\n"
    assert P.rank_bracket("Seen on 2026-02-03.\nRuntimeError: bad\n").endswith(
        "\n[2026-02-03 10:00:00 TP1] RuntimeError: bad\n")


def test_a_saved_threads_head_stays_on_top() -> None:
    page = "Draft head crashes at start #123\nhttps://github.com/org/engine/issues/123\nOpen\n\nIt crashes.\n"
    assert P.env_before(page).startswith("Draft head crashes at start #123\nhttps://github.com/org/engine/issues/123"
                                         "\nOpen\n\nEnvironment:")
    assert P.env_before(page).endswith("```\n\nIt crashes.\n")
    # a second try repeats the body, not the page's head
    again = P.second_try(page)
    assert again.count("https://github.com/org/engine/issues/123") == 1 and again.count("It crashes.") == 2
    assert P.bug_template(page).startswith("Draft head crashes at start #123\nhttps://")
    assert "### 🐛 Describe the bug\n\n```text\nIt crashes.\n```" in P.bug_template(page)
    assert P.details(page).startswith("Draft head crashes at start #123\nhttps://github.com/org/engine/issues/123"
                                      "\nOpen\n\n<details><summary>log</summary>\n\nIt crashes.\n")
    index = "org/engine · issue #123 · open\n# Draft head crashes at start\n\nIt crashes.\n"
    assert P.details(index).startswith("org/engine · issue #123 · open\n# Draft head crashes at start\n\n<details>")
    digest = "# org/engine#123: Draft head crashes\n\n| field | value |\n| --- | --- |\n" \
             "| Issue | [#123](https://github.com/org/engine/issues/123) |\n| state | open |\n\nIt crashes.\n"
    assert P.env_before(digest).split("Environment:")[0].endswith("| state | open |\n\n")
    told = "Draft head crashes #123\nOpen\n\nSee https://github.com/org/engine/pull/9 for the fix.\nIt crashes.\n"
    assert P.env_before(told).startswith("Draft head crashes #123\nOpen\n\nEnvironment:")
    filled = "### Your current environment\n\nx\n\n### 🐛 Describe the bug\n\nIt crashes.\n"
    assert P.bug_template(filled) == filled
    assert P.env_before("It crashes.\n").startswith("Environment:")


def test_no_transformation_moves_a_verdict_of_our_round(tmp_path: Path) -> None:
    (tmp_path / "r" / "ex").mkdir(parents=True)
    for eid, (_kind, _accept, text) in ROUND.items():
        (tmp_path / "r" / "ex" / f"{eid}.txt").write_text(text, encoding="utf-8")
    (tmp_path / "r" / "truth.tsv").write_text(
        "id\tkind\taccept\tnote\n" + "".join(f"{eid}\t{k}\t{a}\tours\n" for eid, (k, a, _t) in ROUND.items()))
    exs = P.excerpts([tmp_path / "r"], set())
    readers = P.Readers(ROOT, 1)
    base = [c for c, _ in readers.classes([(ex, "base", P.read(ex.path)) for ex in exs])]
    assert base[:3] == ["right", "right", "right"] and base[3].startswith("no-path"), base
    table = P.perturb(exs, readers, list(P.TRANSFORMS))
    moved = {name: (f.lost, f.wrong, f.trapped, f.other) for name, f in table.items() if f.count or f.other}
    assert moved == {}
