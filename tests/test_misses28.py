"""Evidence the readers had in hand but did not join up (session 28, MISSES).

- A shell variable set by an earlier line of the text (``ALGO=EAGLE3``, ``export METHOD=ngram``)
  is what the launch command's ``$ALGO`` / ``${METHOD}`` passes: the shell expands it before the
  server parses its arguments.
- A bare speculative config (``{"method": ...``) continued over several lines is read whole,
  as a one-line one is.
- A loader's error raised under a server's command (a chained traceback whose later part runs
  SGLang's CLI) is that server's launch failing, not another program's run; a draft whose type
  only one SGLang algorithm serves (a Gemma-4 assistant: FROZEN_KV_MTP) names that algorithm
  where the text says it speculates and names none.
- A user's own wrapper script (``./serve-x.sh serve``) is no other engine's command.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, crash_path, probed_path, run

from spectrace.assemblers.launch import shell_assignment
from spectrace.assemblers.launch_words import foreign_entry

_SGLANG = "[2026-03-02 10:00:00] sglang version 0.5.9"
_VLLM = "INFO 03-02 10:00:00 [api_server.py:1000] vLLM API server version 0.10.1"


# --- shell variables ---------------------------------------------------------------------


def test_a_variable_set_above_is_the_algorithm_the_command_passes(tmp_path: Path) -> None:
    forms = (
        ["export ALGO=EAGLE3", "python -m sglang.launch_server --model-path m/Llama-3.1-8B \\",
         "  --speculative-algorithm $ALGO --speculative-draft-model-path d/eagle3-8b \\",
         "  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"],
        ['SPEC_ALGO="EAGLE3"  # the draft head we trained', "python3 -m sglang.launch_server "
         "--model-path m/Qwen3-8B --speculative-algorithm ${SPEC_ALGO} --speculative-draft-model-path d/q3"],
        ["declare -x WHICH='EAGLE3'", "sglang serve --model-path m/Qwen3-8B "
         "--speculative-algorithm \"$WHICH\" --speculative-draft-model-path d/q3"],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), [_SGLANG, *lines])
        assert path.family == "EAGLE3" and path.worker_class is not None, path


def test_a_variable_inside_the_speculative_config_json(tmp_path: Path) -> None:
    forms = (
        ["METHOD=ngram", 'vllm serve m/Llama-3.1-8B --speculative-config "{\\"method\\": \\"$METHOD\\", '
         '\\"num_speculative_tokens\\": 4, \\"prompt_lookup_max\\": 3}"'],
        ["export KIND=ngram", "python -m vllm.entrypoints.openai.api_server --model m/x "
         '--speculative-config "{\\"method\\":\\"${KIND}\\",\\"num_speculative_tokens\\":2}"'],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), [_VLLM, *lines])
        assert_verdict(path, "other", "NgramProposer")
        launched = [e.reason for e in path.evidence if e.reason.startswith("vLLM launch command")]
        assert launched and "'ngram'" in launched[0] and "$" not in launched[0], launched


def test_a_quoted_json_variable_is_one_argument(tmp_path: Path) -> None:
    forms = (
        ["SPEC='{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'",
         'vllm serve m/x --speculative-config "$SPEC" --port 8000'],
        ["export SPEC_JSON='{\"method\":\"ngram\",\"num_speculative_tokens\":5}'",
         "python -m vllm.entrypoints.openai.api_server --model m/x --speculative-config=${SPEC_JSON}"],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), [_VLLM, *lines])
        launched = [e.reason for e in path.evidence if e.reason.startswith("vLLM launch command")]
        assert launched and "'ngram'" in launched[0], path.evidence


def test_a_variable_set_after_the_command_by_a_loop_or_in_two_branches_stays_unseen(tmp_path: Path) -> None:
    command = ("python -m sglang.launch_server --model-path m/x --speculative-algorithm $ALGO "
               "--speculative-draft-model-path d/y")  # fmt: skip
    forms = ([command, "ALGO=EAGLE3"], ["for ALGO in EAGLE3 NGRAM; do", command, "done"],
             ['if [ "$MODE" = fast ]; then', "  ALGO=EAGLE3", "else", "  ALGO=NGRAM", "fi", command])
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), [_SGLANG, *lines])
        assert path.worker_class is None and path.family != "EAGLE3", path


def test_only_a_whole_line_assignment_of_a_literal_is_read() -> None:
    assert shell_assignment("export ALGO=EAGLE3") == ("ALGO", "EAGLE3")
    assert shell_assignment("SPEC='{\"method\": \"mtp\"}'") == ("SPEC", '{"method": "mtp"}')
    assert shell_assignment("ALGO=$(cat algo.txt)") is None  # what it holds is not shown
    assert shell_assignment('ALGO="${DEFAULT}"') is None
    assert shell_assignment("ALGO=EAGLE3 python -m sglang.launch_server") is None  # a prefix
    assert shell_assignment("The setting ALGO=EAGLE3 is what we used") is None


# --- a bare speculative config over several lines -----------------------------------------


def test_a_bare_speculative_config_continued_on_the_next_lines(tmp_path: Path) -> None:
    """No line names the engine: the config's own vocabulary (vLLM's SpeculativeConfig) does."""
    forms = (
        ["  SPEC='{\"method\":\"ngram\",\"num_speculative_tokens\":4,", '        "prompt_lookup_max":3}\'',
         "  SPEC_CONFIG=$SPEC bash launch.sh"],
        ["Config we passed:", '{"method": "ngram",', '  "prompt_lookup_min": 2,', '  "num_speculative_tokens": 5}'],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), ["# dynamic speculation notes, 2025-09-01", *lines,
                                               "Measured 212 tok/s at batch 8."])
        assert_verdict(path, "other", "NgramProposer")


def test_a_json_request_over_lines_is_no_speculative_config(tmp_path: Path) -> None:
    lines = ["# client notes", '{"method": "generate",', '  "params": {"prompt": "hi", "max_tokens": 8}}',
             "The server answered in 40 ms."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- a loader's error under a server's command; a draft only one algorithm serves ---------

_CHAINED = [
    "Traceback (most recent call last):",
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/models/auto/configuration_auto.py", '
    "line 1200, in from_pretrained",
    '    config_class = CONFIG_MAPPING[config_dict["model_type"]]',
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/models/auto/configuration_auto.py", '
    "line 900, in __getitem__",
    "    raise KeyError(key)",
    "KeyError: 'gemma4_assistant'",
    "",
    "During handling of the above exception, another exception occurred:",
    "",
    "Traceback (most recent call last):",
    '  File "/opt/venv/bin/sglang", line 8, in <module>',
    "    sys.exit(main())",
    '  File "/opt/sglang/python/sglang/cli/main.py", line 40, in main',
    "    serve(args, extra_argv)",
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/models/auto/configuration_auto.py", '
    "line 1210, in from_pretrained",
    "ValueError: model type `gemma4_assistant` is not known to this transformers build",
]


def test_a_gemma4_assistant_draft_failing_under_sglang_names_frozen_kv_mtp(tmp_path: Path) -> None:
    heads = (
        ["sgl-project/sglang · issue #1 · open", "# [Bug] gemma 4 with spec decoding will not start in the new image",
         "", "ann · description · 2026-06-01", "Starting Gemma-4 31B with speculative decoding fails:"],
        ["sgl-project/sglang · issue #2 · closed", "# Gemma4 26B plus its assistant draft crashes at launch "
         "(speculative decoding)", "", "bo · description · 2026-05-20"],
    )
    for i, head in enumerate(heads):
        (tmp_path / str(i)).mkdir()
        path = crash_path(run(tmp_path / str(i), [*head, "```", *_CHAINED, "```"]))
        assert path.family == "FROZEN_KV_MTP", path
        assert "FrozenKVMTPWorker" in (path.conditional or path.worker_class or ""), path


def test_the_same_error_from_a_transformers_script_is_no_server_run(tmp_path: Path) -> None:
    script = [line.replace("/opt/venv/bin/sglang", "convert_draft.py").replace(
        "/opt/sglang/python/sglang/cli/main.py", "convert_draft.py") for line in _CHAINED]  # fmt: skip
    lines = ["# SGLang: Gemma4 26B assistant draft conversion fails (speculative decoding)", "",
             "bo · description · 2026-05-20", "```", *script, "```"]  # fmt: skip
    assert_no_path(tmp_path, lines)


def test_a_page_naming_the_draft_type_has_no_run(tmp_path: Path) -> None:
    lines = ["# Serving Gemma 4 on SGLang", "", "The assistant checkpoints carry model type",
             "`gemma4_assistant`; SGLang serves them with speculative decoding when you pass",
             "the draft path. See the cookbook for the flags."]  # fmt: skip
    assert_no_path(tmp_path, lines)


# --- a wrapper script's serve -------------------------------------------------------------


def test_a_wrapper_scripts_serve_is_not_another_engine() -> None:
    assert not foreign_entry("./serve-kimik3.sh serve --detach")
    assert not foreign_entry("bash scripts/run_server.sh serve")
    assert foreign_entry("tokenspeed serve --model m --speculative-algorithm EAGLE3")


def test_a_family_on_a_wrapper_scripts_serve_line_is_the_runs(tmp_path: Path) -> None:
    forms = (
        ["./serve-qwen3.sh serve --detach --speculative-algorithm EAGLE3"],
        ["Our launcher: `scripts/start.sh serve --speculative-algorithm EAGLE3 --port 30000`"],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), ["# Qwen3 serving on our nodes", _SGLANG, *lines,
                                               "Measured 412 tok/s at concurrency 8, accept length 3.1."])
        assert path.family in ("EAGLE", "EAGLE3") and (path.worker_class or path.conditional), path


def test_mtp_beside_a_named_gemma4_assistant_draft_is_frozen_kv_mtp(tmp_path: Path) -> None:
    forms = (
        "We serve google/gemma-4-31B-it with MTP, draft google/gemma-4-31B-it-assistant, 3 steps.",
        "Target gemma-4-26B-A4B-it, NEXTN drafting through gemma-4-26B-A4B-it-assistant (topk 1).",
    )
    for i, said in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), ["# Gemma 4 on SGLang: accept length falls past 2k tokens",
                                               "[2026-07-01 10:00:00] sglang version 0.5.16", said,
                                               "Measured accept length 2.4 at 1k context and 1.3 at 4k."])
        assert_verdict(path, "v2", "FrozenKVMTPWorkerV2")


def test_mtp_on_gemma4_with_no_draft_named_or_another_runs_draft_stays_open(tmp_path: Path) -> None:
    forms = (
        ["# Gemma 4 on SGLang: accept length falls past 2k tokens",
         "We serve google/gemma-4-31B-it with MTP, 3 steps."],
        ["# Llama 3.1 8B with EAGLE on SGLang",
         "We serve meta-llama/Llama-3.1-8B-Instruct with EAGLE, 3 steps; a gemma-4-31B-it-assistant trial comes later."],
    )
    for i, lines in enumerate(forms):
        (tmp_path / str(i)).mkdir()
        path = probed_path(tmp_path / str(i), [*lines, "[2026-07-01 10:00:00] sglang version 0.5.16",
                                               "Measured accept length 2.4 at 1k context."])
        assert "FrozenKV" not in (path.worker_class or "") + (path.conditional or ""), path
