"""A run's own log records and the runner it states decide, in every wrap and copy form (issue 11,
session 21).

(1) vLLM's logger writes ``LEVEL MM-DD HH:MM:SS [file.py:N] message`` (behind any process prefix,
``(EngineCore_DP0 pid=N)``, ``(Worker_PP1_TP0 pid=N)``, a ``[vLLM]`` tag), and notes often keep
only the ``[file.py:N] message`` part, the message wrapped onto the next line. A record written
by one of vLLM's own drafting or runner modules is a line of a vLLM run: the text's framework
is vLLM even where no launch, no version line and no EngineCore prefix says so. A bare
``[file.py:N]`` counts only for a module no other engine's tree holds (``gpu_model_runner.py``),
and no SGLang or other-engine line moves. (2) A module only the V1 runner's proposers have
(``llm_base_proposer.py``) states the V1 runner, like a module of MRV2 or V0 states theirs.
(3) A runner stated in words is read in its own clause (a table cell, a sentence): a negation
or a "works fine" in another clause of the same line no longer hides it, and one in its own
clause still does. Sealed rounds 52 (09, 10), 53 (24) and 54 (08, 14, 21) failed on these
shapes; every line below is our own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from real_logs_helpers import assert_no_path, probed_path

from spectrace.assemblers.vllm_runner import module_runner, stated_runner
from spectrace.dialects.base import LogLine


def _line(text: str, n: int = 1) -> LogLine:
    return LogLine(source="t", lineno=n, offset=0, text=text, raw=text, dialect="plain", stream="")


def _runner(*texts: str) -> str | None:
    found = stated_runner([_line(t, n) for n, t in enumerate(texts, 1)])
    return found[0] if found else None


def _shown(path: object) -> str:
    return f"{getattr(path, 'worker_class', None)} {getattr(path, 'conditional', None)}"


# ---- (3) the runner stated in words, read in its own clause ---------------------------------

@pytest.mark.parametrize("text", [
    # a table cell quoting the engine's own start-up lines beside an unrelated "still works"
    '| server start | healthy in 90 s; "Initializing a V1 LLM engine (v0.31.0)", "Using V2 Model Runner".'
    " `--max-model-len` still works and warns. |",
    # the run's sentence, then a sentence with a negation about something else
    "We serve Qwen3-8B with eagle3 on the V2 model runner. It does not crash any more.",
    # a notes bullet: the runner in one clause, the V1 path denied in another
    "- Runner: MRV2 (we enabled it for the MTP drafter); the V1 path is not used here",
    # the crash's own sentence, a question after it
    "Our server crashes on MRV2 during graph capture. Is that known?",
    "We hit it on the V2 runner with the MTP drafter; the stack is below.",  # "V2 runner" alone
])
def test_a_runner_stated_in_its_own_clause_is_the_runs(text: str) -> None:
    assert _runner(text) == "v2"


@pytest.mark.parametrize("text", [
    "Works fine on the V2 model runner; we run V1 and it crashes.",  # the other setup works
    "We run 0.30 (not the V2 model runner).",
    "We keep MRV2 off; the crash is on the default runner.",
    "Should we try the V2 model runner? We run the default now.",
    "MRV2 support for this model would be great; our server crashes.",  # a wish about MRV2
    "We run the MTP drafter with the V2 runner off.",
    "Our server crashes, and it is not the V2 runner: the default one.",
    "| MRV2 | not tested | we run the default runner |",  # a table row's cells stay together
])
def test_a_runner_set_apart_in_its_own_clause_states_nothing(text: str) -> None:
    assert _runner(text) is None


def test_an_env_switched_off_still_states_v1() -> None:
    assert _runner("VLLM_USE_V2_MODEL_RUNNER=0 in our launch; the V2 model runner is fast elsewhere.") == "v1"


_BUMP = [
    "# Moving our pinned vLLM server from 0.30.0 to 0.31.0",
    "",
    "Image `vllm/vllm-openai:v0.31.0`, EAGLE-3 speculation as shipped in our compose file.",
    "",
    "| check | result |",
    "|---|---|",
    '| server start | healthy in 121 s; "Initializing a V1 LLM engine (v0.31.0)", '
    "`speculative_config=SpeculativeConfig(method='eagle3', num_spec_tokens=3)`, "
    '"Using V2 Model Runner". `--model` still works and warns. |',
    "| KV cache | 30,784 tokens |",
]


def test_the_engines_runner_line_in_a_table_cell_decides_mrv2(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _BUMP)
    assert (path.value, path.worker_class) == ("other", "EagleSpeculator"), path


def test_the_same_cell_saying_the_runner_was_off_keeps_the_condition(tmp_path: Path) -> None:
    lines = [ln.replace('"Using V2 Model Runner"', "V2 model runner not used") for ln in _BUMP]
    path = probed_path(tmp_path, lines)
    assert path.worker_class != "EagleSpeculator", path


# ---- (1) a vLLM module's log record names vLLM as the run's framework -----------------------

# R54 08's shape in our words: the prefix cut to its tag, the message wrapped by the notes
_BARE_TAGS = [
    "Zusätzlicher Mount für die Draft-Schicht, dann der Start:",
    "```",
    "[eagle.py:1419] Detected MTP model. Sharing target model lm_head weights",
    "                with the draft model.",
    "[gpu_model_runner.py:4578] Model loading took 58.10 GiB memory and 912s",
    "```",
    "-> 4 MTP-Layer geladen, Akzeptanz ok.",
]
_FULL_PREFIX = [
    "Startup of the MTP server (no errors):",
    "INFO 03-02 10:11:12 [eagle.py:1419] Detected MTP model. Sharing target model lm_head",
    "weights with the draft model.",
    "INFO 03-02 10:11:40 [gpu_model_runner.py:4578] Model loading took 61.94 GiB memory",
]
_VLLM_TAGGED = [
    "Logs from the MTP run, copied from the notebook:",
    "[vLLM] INFO 01-03 08:13:06 [eagle.py:1419] ",
    "Detected MTP model. Sharing target model lm_head weights with the draft model.",
]
# R54 21's shape: a pipeline-parallel worker's profile line from the V1 base proposer module
_PP_PROFILE = [
    "Profile on the SM70 box (two pipeline stages):",
    "    (Worker_PP1_TP0 pid=3310) INFO 09-05 18:47:29 [llm_base_proposer.py:873] SM70 MTP proposer "
    "profile avg_ms calls=1200 batch=1 tokens=4 total_gpu=8.1 first_forward=1.4",
    "",
    "(Line numbers are from our patched deployment.)",
]


# the same records in a results table's cell and as notes bullets
_IN_CELLS = [
    "| step | what the log said |",
    "|---|---|",
    "| load | `(EngineCore_DP0 pid=7) INFO 05-11 09:00:01 [gpu_model_runner.py:2345] Model loading took 16.2 GiB` |",
    "| draft | MTP head shares the lm_head with the target |",
]
_BULLETS = [
    "Boot log, the lines that matter:",
    "- `[gpu_model_runner.py:3101] Model loading took 40.10 GiB memory and 210s`",
    "- the MTP drafter loaded right after it, acceptance 0.7",
]


@pytest.mark.parametrize("lines", [_BARE_TAGS, _FULL_PREFIX, _VLLM_TAGGED, _PP_PROFILE, _IN_CELLS, _BULLETS],
                         ids=["bare-tags", "full-prefix", "vllm-tag", "pp-worker", "table-cell", "bullets"])
def test_a_vllm_modules_record_puts_mtp_on_vllm(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


def test_a_v1_base_proposer_tag_states_the_v1_runner() -> None:
    line = "(Worker_PP1_TP0 pid=3310) INFO 09-05 18:47:29 [llm_base_proposer.py:873] draft profile"
    assert module_runner(line) == "v1"
    assert module_runner("DEBUG 09-05 18:47:29 [v1/spec_decode/llm_base_proposer.py:88] x") == "v1"
    # files of V1's spec_decode package that both runners use state nothing
    assert module_runner("DEBUG 09-05 18:47:29 [v1/spec_decode/metrics.py:88] SpecDecoding metrics: x") is None
    assert module_runner("INFO 09-05 18:47:29 [utils.py:88] x") is None


def test_a_v1_module_tag_outranks_an_mrv2_default_release(tmp_path: Path) -> None:
    """0.31 picks MRV2 when the env is unset; the V1 base proposer's own record says V1 ran."""
    lines = [
        "vLLM 0.31.0, MTP with 3 draft tokens:",
        "(EngineCore_DP0 pid=88) INFO 10-09 11:02:03 [llm_base_proposer.py:512] drafter loaded",
    ]
    path = probed_path(tmp_path, lines)
    assert (path.value, path.worker_class) == ("other", "EagleProposer"), path


@pytest.mark.parametrize("lines", [
    # a bare tag of a name other engines' trees also hold: no framework from it
    ["Notes:", "[eagle.py:1419] Detected MTP model.", "MTP looks fine."],
    # SGLang's own prefix
    ["[2026-03-01 10:00:00 TP0] Detected MTP model, sharing lm_head", "MTP on our server works."],
    # a sentence naming the module, no log record
    ["I read eagle.py:1419 where MTP shares the lm_head weights."],
])
def test_no_vllm_record_gives_no_vllm_class(tmp_path: Path, lines: list[str]) -> None:
    path = probed_path(tmp_path, lines)
    assert "Proposer" not in _shown(path) and "Speculator" not in _shown(path), path


def test_a_readme_telling_which_line_to_expect_stays_without_a_path(tmp_path: Path) -> None:
    lines = [
        "# XPU lm_head patch for MTP",
        "",
        "## How to check it applies",
        "",
        "After starting the server you should see this line in your log:",
        "",
        "```",
        "INFO 03-02 10:11:12 [eagle.py:1419] Detected MTP model. Sharing target model lm_head weights",
        "```",
        "",
        "If you do not see it, the patch was not applied.",
    ]
    assert_no_path(tmp_path, lines, name="README.md")


def test_the_record_modules_agree_with_the_frame_tables() -> None:
    """Every ``[records]`` name is a file of vLLM's or vllm-ascend's frame tables; a bare name is
    no other engine's file; no generic module (its records prove nothing of drafting) is listed."""
    from spectrace.assemblers.vllm_runner import runner_table
    from spectrace.path_frames import frame_signatures

    held: dict[str, set[str]] = {}
    for sig in frame_signatures():
        held.setdefault(sig.name.rsplit("/", 1)[-1], set()).add(sig.framework)
    records = runner_table().records
    assert records is not None and "gpu_model_runner.py" in records.bare
    for name in records.prefixed | records.bare:
        assert held.get(name, set()) & {"vllm", "vllm_ascend"}, name
    for name in records.bare:
        assert not held[name] - {"vllm", "vllm_ascend"}, name
    assert not (records.prefixed | records.bare) & {"utils.py", "metrics.py", "loggers.py", "interface.py"}


@pytest.mark.parametrize("line", [
    "INFO 08-05 11:33:17 [loggers.py:123] Avg prompt throughput: 1239.8 tokens/s, Avg generation throughput: 25.9 tokens/s",
    "INFO 08-05 11:34:35 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.38, Accepted: 81 tokens",
    "[2026-03-01 10:00:00 TP0] Decode batch. #running-req: 4, #token: 9000, accept len: 2.9, accept rate: 0.71",
])
def test_no_record_literal_is_in_a_load_line(line: str) -> None:
    from spectrace.assemblers.vllm_runner import LITERALS

    assert not any(lit.decode() in line for lit in LITERALS), line
