"""Evidence the linker still missed (session 32, MISSES32).

- A model runner v2 speculator draws its graph-capture progress bar under its own name
  ("Capturing dspark CUDA graphs (FULL):  40%|..."): a stderr that kept the bars alone shows
  that speculator ran, as its capture record naming the speculator would. A name
  whose graph manager several classes share (``eagle``: every autoregressive head, MTP's
  too) decides no class; a bar inside a sentence or one a page tells the reader to expect is
  no run.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, assert_verdict, probed_path

# --- a speculator's capture progress bar ----------------------------------------------------

_E = "(EngineCore pid=4242)"


def _bars(name: str) -> list[str]:
    return [f"{_E} Model weights in memory after 6.4 s (7.9 GiB)",
            f"{_E} Capturing CUDA graphs (PIECEWISE): 35%|###5      | 7/20 [00:01<00:01,  9.90it/s]",
            f"{_E} Capturing CUDA graphs (FULL): 100%|##########| 20/20 [00:02<00:00,  9.80it/s]",
            f"{_E} Capturing {name} CUDA graphs (FULL):  30%|###       | 6/20 [00:00<00:01, 60.10it/s]"]


def test_a_speculators_own_capture_bar_names_it(tmp_path: Path) -> None:
    assert_verdict(probed_path(tmp_path, _bars("dspark")), "other", "DSparkSpeculator")


def test_a_bar_of_a_graph_manager_shared_by_several_heads_decides_none(tmp_path: Path) -> None:
    path = probed_path(tmp_path, _bars("eagle"))
    assert path.worker_class is None, path  # MTP's head draws the same bar


def test_the_targets_bars_alone_name_no_speculator(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _bars("dspark")[:3])


def test_a_bar_quoted_inside_a_sentence_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Serving notes", "",
                              "On a good start the dspark graphs bar reads `Capturing dspark CUDA graphs (FULL)` then the API opens."])


def test_a_bar_a_page_tells_the_reader_to_expect_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["## Checking the draft", "", "Once the server is up you should see this bar:", "",
                              f"{_E} Capturing dspark CUDA graphs (FULL):  95%|#########5| 19/20 [00:00<00:00, 80.00it/s]"])


# --- a draft model's id told as the draft; the launch line's family -----------------------

from spectrace.path_base import family_words  # noqa: E402


def test_a_draft_id_told_as_the_draft_names_its_family() -> None:
    assert family_words("Booted once with the `EAGLE3-Mixer-14B` draft on two cards.") == {"EAGLE3"}
    assert family_words("draft model: acme/Mixer-14B-DFlash-b8") == {"DFLASH"}
    assert family_words("the Mixer-14B draft was loaded") == set()  # no family in the id
    assert family_words("served Mixer-14B-MTP as the target") == set()  # a target's id, no draft


def _bench_note() -> list[str]:
    return ["# Long-context decode on two consumer cards (2026-05-02)", "",
            "Summary: the short-prompt bars (Mixer EAGLE3 88, Mixer-B DFlash 71) do not hold at depth.", "",
            "## The A/B", "",
            "One boot (`Mixer-14B-AWQ` + `EAGLE3-Mixer-14B` draft, tp 2, `--speculative-attention-mode prefill`,"
            " `--cuda-graph-max-bs 2`, ctx 131072).", "",
            "| arm | depth | tok/s | accept len |", "|---|---|---|---|",
            "| short | 1K | 91.4 | 5.02 |", "| long | 120K | 2.1 | 1.60 |", "",
            "We measured both arms on the same server; the long arm fell to 2.1 tok/s."]


def test_the_launch_lines_draft_names_the_runs_family_over_a_summary(tmp_path: Path) -> None:
    assert_verdict(probed_path(tmp_path, _bench_note()), "unknown", "EAGLEWorkerV2|EAGLEWorker")


def test_a_draft_on_a_launch_line_a_page_tells_the_reader_to_run_gives_no_path(tmp_path: Path) -> None:
    assert_no_path(tmp_path, ["# Mixer serving guide", "", "## Quick start", "", "To serve it, run:", "",
                              "```bash", "python3 -m sglang.launch_server --port 30000 --model-path acme/Mixer-14B \\",
                              "  --speculative-draft-model-path acme/EAGLE3-Mixer-14B --cuda-graph-max-bs 4",
                              "```", "", "Use the `EAGLE3-Mixer-14B` draft for the best speed."])


# --- a command inside a single-quoted script (`bash -lc '` on a line of its own) -----------

from real_logs_helpers import crash_path, run  # noqa: E402

from spectrace.assemblers.launch_span import shell_words  # noqa: E402


def test_a_quote_written_inside_a_single_quoted_script_is_a_quote() -> None:
    line = """  --speculative-config '\\''{"method":"mtp","num_speculative_tokens":2}'\\''"""
    assert shell_words(line) == ["--speculative-config", '{"method":"mtp","num_speculative_tokens":2}']
    last = """  --speculative-config '\\''{"method":"mtp"}'\\'''"""  # the script's own closing quote
    assert shell_words(last) == ["--speculative-config", '{"method":"mtp"}']
    whole = """bash -lc 'vllm serve m --speculative-config '\\''{"method":"mtp"}'\\'''"""
    assert shell_words(whole) == ["bash", "-lc", """vllm serve m --speculative-config '{"method":"mtp"}'"""]


def _scripted(config: str) -> list[str]:
    return ["Deployed on the eight-card box with:", "", "```", "docker exec srv bash -lc '",
            "NCCL_DEBUG=WARN \\", "/opt/env/bin/vllm serve acme/Orca-70B \\",
            "  --tensor-parallel-size 8 --max-model-len 65536 \\",
            f"  --speculative-config '\\''{config}'\\'''", "```", "",
            "Throughput held at 41 tok/s for the first hour, then the engine died:", "",
            "Traceback (most recent call last):",
            '  File "/srv/src/vllm/v1/engine/core.py", line 901, in run_engine_core',
            "    engine_core.run_busy_loop()",
            "RuntimeError: slot 4097 is past the end of the draft table"]


def test_the_method_of_a_command_inside_a_single_quoted_script_is_read(tmp_path: Path) -> None:
    lines = _scripted('{"model":"acme/orca-ngram","method":"ngram","num_speculative_tokens":4,"prompt_lookup_max":4}')
    path = crash_path(run(tmp_path, lines))
    assert path.worker_class is not None or path.conditional, path
    assert "Ngram" in (path.worker_class or path.conditional or ""), path


# --- a structured deployment record's method and draft size ---------------------------------


def _record(*keys: str) -> list[str]:
    return ["{", '  "when": "2026-04-11",', '  "host": "rack-b7",', '  "runtime": {',
            '    "tensor_parallel_size": 4,', *keys, '    "max_num_seqs": 16', "  },",
            '  "incidents": [', '    "engine core died during warm-up, restarted by the watchdog"', "  ],",
            '  "health": "ok after restart"', "}"]


def test_a_json_records_method_and_draft_size_are_its_vllm_config(tmp_path: Path) -> None:
    lines = _record('    "speculative_method": "dspark",', '    "num_speculative_tokens": 5,')
    assert_verdict(probed_path(tmp_path, lines), "other", "DSparkSpeculator")


def test_a_records_method_key_without_the_draft_size_is_any_programs(tmp_path: Path) -> None:
    assert_no_path(tmp_path, _record('    "speculative_method": "dspark",'))
