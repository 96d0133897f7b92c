"""Session 23's debt: a launch command's lines reach the config reader whatever words they also
hold. A continuation line of a pasted command (``--num-scheduler-steps 8 \\``) that happens to
hold a word the document or mention readers look for (a model path under ``/data/guides``, a
chat template named ``instruction.jinja``, an option spelled ``...-steps``) is still the
command's line: 30ca97c narrowed one such word, the collector now keeps such lines itself."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from real_logs_helpers import assert_verdict, crash_path, run

from spectrace.assemblers.not_run import LITERALS as APART_LITERALS
from spectrace.pipeline import build_spec, config_reader_lines
from spectrace.ruleset import RuleSet
from spectrace.scan import scan_range

ROOT = Path(__file__).resolve().parents[1]
CRASH = ["Traceback (most recent call last):", '  File "serve.py", line 3, in <module>',
         "RuntimeError: CUDA error: an illegal memory access was encountered"]  # fmt: skip
ENTRIES = {"vllm": "vllm serve /models/m \\",
           "sglang": "python3 -m sglang.launch_server --model-path /models/m \\",
           "trtllm": "trtllm-serve /models/m \\"}  # fmt: skip


def _options(framework: str) -> list[str]:
    """Every long option spelling of the framework's generated option table."""
    table = tomllib.loads((ROOT / "rules" / "options" / f"{framework}.toml").read_text("utf-8"))
    names = (n for row in table["rows"].split("\n") if row for n in row.split("|")[0].split(","))
    return sorted({n for n in names if n.startswith("--")})


@pytest.mark.parametrize("framework", sorted(ENTRIES))
def test_every_option_line_of_a_command_reaches_the_config_reader(tmp_path: Path, framework: str) -> None:
    """Each option of the framework's table on a command's continuation line that also holds
    one of the words the prose readers scan for: every such line is read as the command's."""
    words = [w for w in (lit.decode().strip() for lit in APART_LITERALS)
             if w.isprintable() and not any(c in w for c in "\\'\"`")]  # a shell word's quotes balance
    options = _options(framework)
    lines, want = [], set()
    for start in range(0, len(options), 40):  # a command spans at most 64 lines
        lines += ["", ENTRIES[framework]]
        for k, option in enumerate(options[start : start + 40]):
            word = words[(start + k) % len(words)]
            lines.append(f"    {option} x{word}x \\")
            want.add(len(lines))
        lines.append("    --port 8000")
    path = tmp_path / "server.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    read = {line.lineno for line in config_reader_lines([scan_range(str(path), build_spec(RuleSet.load(), ()))], None)}
    missing = sorted(want - read)
    assert not missing, [lines[n - 1] for n in missing[:10]]


def _cmd(option: str, tail: str, version: str = "vLLM Version: 0.8.5") -> list[str]:
    """The environment's release line (V0 and V1 both shipped), then a command whose second
    line gives ``option`` and ``tail``."""
    return [version, "python3 -m vllm.entrypoints.openai.api_server --model /models/ds \\",
            f"    {option} {tail} \\",
            """    --speculative-config '{"model": "/models/draft", "method": "eagle", """
            """"num_speculative_tokens": 2}'"""]  # fmt: skip


# V1 fell back to V0 for a non-default value of each (rules/paths/vllm_v0.toml [[fallback]])
FALLBACKS = ["--num-scheduler-steps 8", "--enable-prompt-adapter", "--disable-async-output-proc",
             "--scheduler-delay-factor 0.5", "--preemption-mode swap"]  # fmt: skip
# the same line also holding a word a document or prose reader scans for, as users write them
TAILS = ["--download-dir /data/guides", "--chat-template /opt/templates/instruction.jinja",
         "--served-model-name recipe-eagle", "--tokenizer /models/cookbook-tok",
         "--trust-remote-code --download-dir /mnt/how-to/models", "--seed 0"]  # fmt: skip


@pytest.mark.parametrize("option", FALLBACKS)
def test_a_v0_fallback_option_beside_a_document_word_still_puts_the_run_on_v0(tmp_path: Path, option: str) -> None:
    for i, tail in enumerate(TAILS):
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), [*_cmd(option, tail), *CRASH]))
        assert_verdict(path, "other", "MultiStepWorker")


def test_the_default_value_beside_a_document_word_decides_no_v0(tmp_path: Path) -> None:
    """Near miss: ``--num-scheduler-steps 1`` kept V1, with or without the word."""
    for i, tail in enumerate(TAILS[:3]):
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), [*_cmd("--num-scheduler-steps 1", tail, ""), *CRASH]))
        assert_verdict(path, "unknown", "EagleProposer|MultiStepWorker")
