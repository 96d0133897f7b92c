"""Launch commands in the shapes people paste them, read as the servers' parsers read them.

Every command here is written by us, in the shapes seen in public issue threads (one line,
backslash continuations, flags on their own lines, env prefixes, Markdown, docker run,
docker-compose and Kubernetes YAML, JSON flags).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spectrace.assemblers.config import ConfigCollector
from spectrace.assemblers.launch import LaunchCommand, parse_launch_command, read_command
from spectrace.assemblers.launch_options import OptionTables
from spectrace.assemblers.run_config import RunConfig
from spectrace.pipeline import analyse

TABLES = OptionTables()  # one set for the module: the tables load once


def read(text: str) -> LaunchCommand:
    command = parse_launch_command(text, TABLES)
    assert command is not None, text
    return command


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("python -m sglang.launch_server --model-path m/x --speculative-algorithm EAGLE", "sglang"),
        (
            "python3 -m sglang.launch_server --model-path m/x --speculative-algorithm EAGLE",
            "sglang",
        ),
        ("sglang serve --model-path m/x --speculative-algorithm EAGLE", "sglang"),
        (
            "/opt/venv/bin/python3.12 -m sglang.launch_server --speculative-algorithm EAGLE",
            "sglang",
        ),
    ],
)
def test_sglang_entry_points(text: str, engine: str) -> None:
    command = read(text)
    assert command.engine == engine
    assert command.flags["speculative_algorithm"] == "EAGLE"


def test_vllm_serve_takes_the_model_positional() -> None:
    command = read("vllm serve org/llama-8b --tensor-parallel-size 2 --max-model-len 8192")
    assert (command.engine, command.model) == ("vllm", "org/llama-8b")
    assert command.flags == {"tp_size": 2, "max_model_len": 8192}


def test_vllm_api_server_module() -> None:
    command = read(
        "python -m vllm.entrypoints.openai.api_server --model org/q --speculative-model org/d "
        "--num_speculative_tokens 5"
    )
    assert command.engine == "vllm"
    assert command.flags["speculative_model"] == "org/d"
    assert command.flags["num_speculative_tokens"] == 5  # FlexibleArgumentParser: _ is -


def test_trtllm_serve_reads_click_options_without_abbreviation() -> None:
    command = read(
        "trtllm-serve org/ds-v3 --tp_size 8 --ep_size 4 --extra_llm_api_options c.yaml --tp 8"
    )
    assert (command.engine, command.model) == ("trtllm", "org/ds-v3")
    assert command.flags["tp_size"] == 8 and command.flags["ep_size"] == 4
    assert command.flags["extra_llm_api_options"] == "c.yaml"
    assert command.unknown == ("--tp", "8")  # click takes no prefix: the server would refuse it
    assert read("trtllm-serve serve org/x --backend pytorch").flags == {"backend": "pytorch"}


def test_prefixes_resolve_as_argparse_does() -> None:
    command = read(
        "python -m sglang.launch_server --model-path m --speculative-algo EAGLE "
        "--speculative-draft lmsys/draft --mem-frac 0.7 --tp 4"
    )
    assert command.flags == {
        "model_path": "m",
        "speculative_algorithm": "EAGLE",
        "speculative_draft_model_path": "lmsys/draft",
        "mem_fraction_static": 0.7,
        "tp_size": 4,
    }
    assert command.unknown == ()


def test_ambiguous_prefix_and_unknown_options_stay_unknown() -> None:
    # --speculative-num matches num-steps and num-draft-tokens in every release
    command = read(
        "python -m sglang.launch_server --speculative-num 4 --my-private-flag 7 "
        "--speculative-algorithm EAGLE"
    )
    assert command.flags == {"speculative_algorithm": "EAGLE"}
    assert command.unknown == ("--speculative-num", "4", "--my-private-flag", "7")


def test_nargs_lists_survive() -> None:
    command = read("python -m sglang.launch_server --cuda-graph-bs 1 2 4 8 --tp 2")
    assert command.flags == {"cuda_graph_bs": [1, 2, 4, 8], "tp_size": 2}


def test_store_true_takes_no_value_and_the_positional_stays_the_model() -> None:
    command = read("vllm serve --enforce-eager meta/llama")
    assert command.flags == {"enforce_eager": True}
    assert command.unknown == ("meta/llama",)  # vllm serve's model must come first
    command = read("python -m sglang.launch_server --disable-overlap-schedule --tp 2")
    assert command.flags == {"disable_overlap_schedule": True, "tp_size": 2}


def test_speculative_config_json_yields_method_model_and_tokens() -> None:
    command = read(
        "vllm serve org/l --speculative-config "
        '\'{"method":"eagle3","model":"org/eagle3","num_speculative_tokens":3}\''
    )
    assert command.flags["method"] == "eagle3"
    assert command.flags["draft_model"] == "org/eagle3"
    assert command.flags["num_spec_tokens"] == 3


def test_json_split_over_pasted_lines_and_dotted_keys() -> None:
    command = read(
        "vllm serve org/l \\\n"
        '  --speculative-config \'{"method": "mtp",\n'
        '      "num_speculative_tokens": 2}\' \\\n'
        "  -tp 4"
    )
    assert command.flags["method"] == "mtp" and command.flags["num_spec_tokens"] == 2
    assert command.flags["tp_size"] == 4
    assert command.lines["method"].lineno == 2 and command.lines["tp_size"].lineno == 4
    dotted = read(
        "vllm serve org/l --speculative-config.method ngram --speculative_config.num_speculative_tokens=4"
    )
    assert (dotted.flags["method"], dotted.flags["num_spec_tokens"]) == ("ngram", 4)


def test_unquoted_json_stays_one_value() -> None:
    command = read(
        'vllm serve m --speculative-config {"method": "deepseek_mtp", "num_speculative_tokens": 1}'
    )
    assert (command.flags["method"], command.flags["num_spec_tokens"]) == ("deepseek_mtp", 1)


def test_env_prefixes_and_docker_run() -> None:
    command = read(
        "SGLANG_ENABLE_SPEC_V2=1 CUDA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server --tp 2"
    )
    assert command.env == {"SGLANG_ENABLE_SPEC_V2": "1"} and command.flags == {"tp_size": 2}
    assert read("env SGLANG_ENABLE_SPEC_V2=0 sglang serve --tp 1").env == {
        "SGLANG_ENABLE_SPEC_V2": "0"
    }
    docker = read(
        "docker run --gpus all --shm-size 32g -e SGLANG_ENABLE_SPEC_V2=True -p 30000:30000 "
        "lmsysorg/sglang:v0.5.6 python3 -m sglang.launch_server --model-path m "
        "--speculative-algorithm EAGLE3 --host 0.0.0.0 2>&1 | tee server.log"
    )
    assert docker.env == {"SGLANG_ENABLE_SPEC_V2": "True"}
    assert docker.flags == {"model_path": "m", "speculative_algorithm": "EAGLE3", "host": "0.0.0.0"}
    image = read("docker run --gpus all vllm/vllm-openai:v0.9.2 --model m --enforce-eager")
    assert (image.engine, image.flags) == ("vllm", {"model": "m", "enforce_eager": True})


def test_markdown_debris_is_not_part_of_a_flag() -> None:
    command = read(
        "> $ `python -m sglang.launch_server --model-path m **--speculative-algorithm NEXTN** "
        "--speculative-num-steps 2`"
    )
    assert command.flags == {
        "model_path": "m",
        "speculative_algorithm": "NEXTN",
        "speculative_num_steps": 2,
    }


def test_compose_command_string_and_list() -> None:
    string = read("    command: python3 -m sglang.launch_server --model-path m --tp 8 --ep 8")
    assert string.flags == {"model_path": "m", "tp_size": 8, "ep_size": 8}
    listed = read(
        "    command:\n"
        "      - python3\n"
        "      - -m\n"
        "      - sglang.launch_server\n"
        "      - --speculative-algorithm\n"
        "      - EAGLE\n"
        "      - --cuda-graph-bs\n"
        '      - "1"\n'
        '      - "2"\n'
    )
    assert listed.flags == {"speculative_algorithm": "EAGLE", "cuda_graph_bs": [1, 2]}
    assert listed.lines["speculative_algorithm"].lineno == 5


def test_kubernetes_arrays_block_inline_and_shell_string() -> None:
    block = read(
        "        command:\n"
        "        - vllm\n"
        "        - serve\n"
        "        args:\n"
        "        - org/llama\n"
        "        - --speculative-config\n"
        '        - \'{"method": "eagle", "num_speculative_tokens": 4}\'\n'
    )
    assert (block.model, block.flags["method"], block.flags["num_spec_tokens"]) == (
        "org/llama",
        "eagle",
        4,
    )
    inline = read(
        '        command: ["python3", "-m", "sglang.launch_server"]\n'
        '        args: ["--model-path", "m", "--speculative-algorithm", "STANDALONE", "--tp", "2"]\n'
    )
    assert inline.flags == {"model_path": "m", "speculative_algorithm": "STANDALONE", "tp_size": 2}
    shell = read(
        '        args: ["python3 -m sglang.launch_server --model-path m --dp 2 --enable-dp-attention"]'
    )
    assert shell.flags == {"model_path": "m", "dp_size": 2, "enable_dp_attention": True}


def test_flags_pasted_without_their_command_go_to_the_server_that_knows_them() -> None:
    command = read(
        "--tp 8\n--speculative-algo EAGLE\n--speculative-eagle-topk 1\n--mem-fraction-static 0.78"
    )
    assert command.engine == "sglang"
    assert command.flags["speculative_algorithm"] == "EAGLE" and command.flags["tp_size"] == 8
    assert parse_launch_command("--- Logging error ---", TABLES) is None


def test_a_removed_table_row_changes_the_answer() -> None:
    """The tables, not a list in the code, decide: without the rows of --speculative-eagle-topk
    the same command leaves that option unknown."""
    tables = OptionTables()
    table = tables.get("sglang")
    text = "python -m sglang.launch_server --speculative-eagle-topk 4 --cuda-graph-bs 1 2"
    assert read(text).flags == {"speculative_eagle_topk": 4, "cuda_graph_bs": [1, 2]}
    table.rows = tuple(r for r in table.rows if r.dest != "speculative_eagle_topk")
    table.reindex()
    command = parse_launch_command(text, tables)
    assert command is not None
    assert command.flags == {"cuda_graph_bs": [1, 2]}
    assert command.unknown == ("--speculative-eagle-topk", "4")


def collect(*texts: str) -> RunConfig:
    collector = ConfigCollector(TABLES)
    for i, text in enumerate(texts, start=1):
        collector.feed(line_of(text, i))
    return collector.result()


def line_of(text: str, lineno: int):
    from spectrace.dialects.base import LogLine

    return LogLine("run.log", lineno, 0, text, text, "plain", "")


def test_collector_gives_each_flag_its_own_line() -> None:
    config = collect(
        "export SGLANG_ENABLE_SPEC_V2=1",
        "python -m sglang.launch_server \\",
        "  --model-path m \\",
        "  --speculative-algorithm EAGLE \\",
        "  --cuda-graph-bs 1 2 4 \\",
        "  --tp 2",
        "INFO started",
    )
    flags = config.flags
    assert (flags["speculative_algorithm"].value, flags["speculative_algorithm"].lineno) == (
        "EAGLE",
        4,
    )
    assert (flags["cuda_graph_bs"].value, flags["cuda_graph_bs"].lineno) == ([1, 2, 4], 5)
    assert (flags["tp_size"].value, flags["tp_size"].lineno) == (2, 6)
    assert flags["SGLANG_ENABLE_SPEC_V2"].value is True
    assert {f.origin for f in flags.values()} == {"launch_command", "env"}


def test_the_scan_reaches_lines_without_a_literal(tmp_path: Path) -> None:
    """Through the real scan: YAML items and continuation lines hold no config literal, yet
    they are part of the command (the scan's collector follows the command's span)."""
    log = tmp_path / "deploy.log"
    log.write_text(
        "deployment:\n"
        "        command:\n"
        "        - python3\n"
        "        - -m\n"
        "        - sglang.launch_server\n"
        "        - --model-path\n"
        "        - org/m\n"
        "        - --speculative-algo\n"
        "        - EAGLE\n"
        "        - --mem-frac\n"
        '        - "0.7"\n'
        "        - --cuda-graph-bs\n"
        '        - "4"\n'
        '        - "8"\n'
        "        env:\n"
        "        - name: SGLANG_ENABLE_SPEC_V2\n"
        "and later:\n"
        "$ vllm serve org/l \\\n"
        "    --max-model-len 4096 \\\n"
        "    --gpu-memory-utilization 0.8 \\\n"
        "    -tp 2\n",
        encoding="utf-8",
    )
    flags = analyse([str(log)]).config.flags
    assert (flags["speculative_algorithm"].value, flags["speculative_algorithm"].lineno) == (
        "EAGLE",
        8,
    )
    assert (flags["cuda_graph_bs"].value, flags["cuda_graph_bs"].lineno) == ([4, 8], 12)
    assert (flags["tp_size"].value, flags["tp_size"].lineno) == (2, 21)


def test_kubernetes_env_entry_sets_the_env_with_its_value_line(tmp_path: Path) -> None:
    log = tmp_path / "pod.yaml"
    log.write_text(
        "        args:\n"
        "        - --speculative-algorithm\n"
        "        - EAGLE\n"
        "        env:\n"
        "        - name: SGLANG_ENABLE_SPEC_V2\n"
        '          value: "0"\n'
        "        - name: HF_HOME\n"
        "          value: /cache\n",
        encoding="utf-8",
    )
    flags = analyse([str(log)]).config.flags
    spec_v2 = flags["SGLANG_ENABLE_SPEC_V2"]
    assert (spec_v2.value, spec_v2.lineno, spec_v2.origin) == (False, 6, "launch_command")


def test_hostile_commands_are_read_within_bounds() -> None:
    huge = read("vllm serve m " + " ".join(f"--zz{i} 1" for i in range(5000)))
    assert len(huge.unknown) <= 1000  # MAX_TOKENS: the rest of a runaway line is not read
    braces = read("python -m sglang.launch_server " + "{" * 50_000 + " --tp 2")
    assert braces.engine == "sglang"  # an unclosed brace: plain words, no hang, no error
    cut = read('sglang serve --tp 2 --speculative-algorithm "EAGLE\x00 \x1b[31m --mem-frac')
    assert cut.flags["tp_size"] == 2


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "vllm serve m",
                "python -m sglang.launch_server",
                "trtllm-serve m",
                "--tp",
                "2",
                "'",
                '"',
                "{",
                "}",
                "\\",
                "- ",
                "command:",
                "args: [",
                "]",
                "--speculative-config",
                '{"method": "x"',
                "$ ",
                "**",
                "`",
                "\n",
                "=",
                "--cuda-graph-bs",
                "-tp",
                "|",
                "#",
            ]
        ),  # fmt: skip
        max_size=30,
    )
)
def test_any_mix_of_command_pieces_reads_without_error(pieces: list[str]) -> None:
    text = " ".join(pieces)
    command = parse_launch_command(text, TABLES)
    if command is not None:
        assert command.engine in ("sglang", "vllm", "trtllm")
        assert set(command.lines) >= set(command.flags)
    collect(*text.splitlines())


def test_an_env_flag_alone_still_sets_the_env() -> None:
    config = collect("  --env SGLANG_ENABLE_SPEC_V2=true \\")
    assert config.flags["SGLANG_ENABLE_SPEC_V2"].value is True


def test_the_release_the_log_names_reads_first() -> None:
    """--disable-pi is --disable-piecewise-cuda-graph up to 0.5.11, a deprecated spelling of a
    prefill graph backend from 0.5.14: a log naming 0.5.5 reads it as 0.5.5 does."""
    lines = [line_of("python -m sglang.launch_server --disable-pi --cuda-graph-max-bs 48", 1)]
    old = read_command(lines, TABLES, {"sglang": "0.5.5.post2"})
    new = read_command(lines, TABLES)
    assert old is not None and new is not None
    assert "disable_piecewise_cuda_graph" in old.flags and "cuda_graph_backend_prefill" in new.flags
    assert old.flags["cuda_graph_max_bs"] == new.flags["cuda_graph_max_bs"] == 48


def test_sglang_serve_takes_the_model_positional_as_model_path() -> None:
    command = read("sglang serve org/qwen --speculative-algorithm NEXTN --tp 4")
    assert command.model == "org/qwen"
    assert command.flags == {
        "model_path": "org/qwen",
        "speculative_algorithm": "NEXTN",
        "tp_size": 4,
    }
    launch = read("python -m sglang.launch_server stray --tp 4")
    assert launch.model is None and launch.unknown == ("stray",)  # launch_server takes none


def test_a_python_dict_repr_reads_like_its_json() -> None:
    command = read(
        "vllm serve m --speculative-config \"{'method': 'ngram', 'num_speculative_tokens': 5}\""
    )
    assert (command.flags["method"], command.flags["num_spec_tokens"]) == ("ngram", 5)


def test_two_flags_whose_blank_was_lost_are_both_read() -> None:
    """A paste that lost the blank between a switch and the next flag (``--a--b value``)
    reads as the two flags the server would have got, not as one unknown option."""
    command = read(
        "python3 -m sglang.launch_server --model-path org/m --tp 2"
        " --disable-radix-cache--speculative-algorithm NGRAM"
    )
    assert command.flags["speculative_algorithm"] == "NGRAM"
    assert command.flags["disable_radix_cache"] is True
    assert not command.unknown


def test_a_token_that_is_itself_an_option_is_not_split() -> None:
    command = read("python3 -m sglang.launch_server --model-path org/m --nope--also-nope 1")
    assert "--nope--also-nope" in command.unknown


def test_a_json_flag_cut_by_the_paste_keeps_its_complete_keys() -> None:
    """An issue excerpt that ends inside ``--speculative-config '{...`` still names the method;
    the member the cut went through is not guessed."""
    command = read(
        "vllm serve org/m -tp 4 --speculative-config "
        '\'{"method": "eagle", "model": "org/draft", "num_specu'
    )
    assert (command.flags["method"], command.flags["draft_model"]) == ("eagle", "org/draft")
    assert "num_spec_tokens" not in command.flags
    assert command.flags["tp_size"] == 4


def test_flags_quoted_as_inline_code_in_a_sentence(tmp_path: Path) -> None:
    """Prose that quotes the flags it ran with as inline code: the quoted flags are read, the
    sentence's words are not, and a server's own headed log line quoting a flag sets nothing."""
    log = tmp_path / "issue.txt"
    log.write_text(
        "The server accepts `--speculative-algorithm EAGLE3` together with"
        " `--speculative-eagle-topk 1` and dies at warmup.\n"
        "[2026-01-02 03:04:05] WARNING: consider `--disable-overlap-schedule` here\n",
        encoding="utf-8",
    )
    flags = analyse([str(log)]).config.flags
    assert (flags["speculative_algorithm"].value, flags["speculative_algorithm"].lineno) == (
        "EAGLE3",
        1,
    )
    assert flags["speculative_eagle_topk"].value == 1
    assert "disable_overlap_schedule" not in flags


def test_a_comparison_in_one_quoted_span_does_not_end_the_next(tmp_path: Path) -> None:
    """``--data-parallel-size > 1`` quoted in a sentence is a condition, not a shell redirect:
    the JSON a later span gives vLLM's speculative config is still read (its members elided)."""
    log = tmp_path / "issue.txt"
    log.write_text(
        "Running vLLM with `--data-parallel-size > 1` plus"
        " `--speculative-config '{\"method\": \"mtp\", ...}'` hangs at the first step.\n"
        "A plain `--tensor-parallel-size 4 | tee run.log` is fine.\n",
        encoding="utf-8",
    )
    flags = analyse([str(log)]).config.flags
    assert (flags["speculative_config.method"].value, flags["speculative_config.method"].lineno) == ("mtp", 1)


def test_entry_point_and_flags_quoted_on_separate_bullets(tmp_path: Path) -> None:
    """A change summary: one bullet names the entry point as inline code amid prose, later
    bullets quote the flags; the flags are read as that server's, the bullets' words are not."""
    text = (
        "- Moved our recipe from `python3 -m sglang.launch_server` to `sglang serve` on new nodes\n"
        "- Larger batches: `--cuda-graph-max-bs 32`\n"
        "- Turn on drafting: `--speculative-algo EAGLE --speculative-eagle-topk 1`\n"
        "- Bump the port\n"
    )
    assert _sglang_eagle(tmp_path / "pr.txt", text) == 1


def test_rl_framework_prefixed_sglang_args_in_a_bash_array(tmp_path: Path) -> None:
    """An RL trainer's script passes SGLang's server args as ``--sglang-<arg>`` inside a bash
    array beside its own flags: the prefixed ones are read as SGLang's, the trainer's are not."""
    text = (
        "ROLLOUT=(\n   --rollout-batch-size 8\n   --sglang-mem-fraction-static 0.7\n\n"
        "   --sglang-speculative-algorithm EAGLE\n   --sglang-speculative-eagle-topk 2\n)\n"
    )
    assert _sglang_eagle(tmp_path / "train.sh", text) == 2


def test_rl_framework_prefixed_sglang_args_on_the_trainers_own_command(tmp_path: Path) -> None:
    """The same ``--sglang-<arg>`` pass-through on the trainer's own command line (``python
    train.py ...``, no SGLang entry point): still SGLang's server args, the trainer's own dropped."""
    text = (
        "python train.py --actor-num-nodes 1 --rollout-batch-size 8 --sglang-speculative-algorithm"
        " EAGLE --sglang-speculative-num-steps 3 --sglang-speculative-eagle-topk 2\n"
    )
    assert _sglang_eagle(tmp_path / "train.log", text) == 2


def test_a_sentence_naming_a_trainer_flag_sets_no_sglang_args(tmp_path: Path) -> None:
    """A line with ``--sglang-`` options no SGLang release knows (``--sglang-router-ip``) sets
    nothing."""
    log = tmp_path / "train.log"
    log.write_text("python train.py --sglang-router-ip 10.0.0.1 --sglang-router-port 3000\n")
    config = analyse([str(log)]).config
    assert "speculative_algorithm" not in config.flags and config.engine is None


def test_flags_continuing_another_programs_command_name_no_server(tmp_path: Path) -> None:
    """A fork's own server (``python -m forkname.entrypoints.openai_server ... \\``) continued on
    a bare flag line that speculates through an option no server has (``--method mtp``): not a
    vLLM or SGLang command, so no speculative config is read from it (r26 33 trap)."""
    log = tmp_path / "pr.md"
    log.write_text(
        "python -m forkname.entrypoints.openai_server --kv_cache_dtype fp8 \\\n"
        "  --model /data/DeepSeek-R1-MTP/ -tp 8 --method mtp --num-speculative-tokens 3\n",
        encoding="utf-8",
    )
    config = analyse([str(log)]).config
    assert not any(name.startswith("speculative") for name in config.flags), config.flags


def _sglang_eagle(log: Path, text: str) -> object:
    """The EAGLE topk an SGLang run read from ``text`` sets (its engine and algorithm checked)."""
    log.write_text(text, encoding="utf-8")
    config = analyse([str(log)]).config
    assert config.engine == "sglang"
    assert config.flags["speculative_algorithm"].value == "EAGLE"
    assert "rollout_batch_size" not in config.flags
    return config.flags["speculative_eagle_topk"].value


def test_a_sentence_before_the_command_does_not_open_a_quote() -> None:
    """``I'm ... when I run `vllm serve ...``: the apostrophe of the prose before the entry
    point is not a shell quote, so the command's own JSON flag still reads."""
    command = read(
        "I'm still seeing it when I run `vllm serve org/m -tp 2 --speculative-config"
        ' \'{"method": "mtp", "num_speculative_tokens": 2}\'`'
    )
    assert (command.engine, command.flags["method"], command.flags["tp_size"]) == ("vllm", "mtp", 2)
    assert command.model == "org/m"


def test_one_flag_quoted_in_a_sentence_names_its_server() -> None:
    """``Starting SGLang with `--speculative-algorithm EAGLE3` but without `--speculative-
    draft-model-path` ...``: one flag only SGLang has; the flag quoted without a value sets
    nothing."""
    command = read(
        "Starting it with `--speculative-algorithm EAGLE3` but without"
        " `--speculative-draft-model-path` crashes at start-up."
    )
    assert (command.engine, command.flags) == ("sglang", {"speculative_algorithm": "EAGLE3"})


@pytest.mark.parametrize(
    ("model", "method"),
    [("/srv/heads/medusa", "medusa"), ("org/EAGLE3-Llama-8B", "eagle3"), ("[ngram]", "ngram"),
     ("org/Qwen2-0.5B", None)],
)  # fmt: skip
def test_a_v0_draft_model_names_its_method_when_its_name_does(model: str, method) -> None:
    command = read(
        f"python -m vllm.entrypoints.openai.api_server --model m --speculative-model {model}"
    )
    assert command.flags.get("method") == method


def test_an_abbreviation_newer_releases_find_ambiguous_bounds_the_release() -> None:
    """``--speculative-draft`` is unique up to 0.4.10 and ambiguous from 0.5.2 on (a second
    ``--speculative-draft-*`` option): a command that used it ran before 0.5.2, which settles
    the era (v1 only) when no line names the release."""
    from asm_helpers import collect_config

    from spectrace.linker import global_worker_path

    text = ("python -m sglang.launch_server --model m --speculative-algo EAGLE "
            "--speculative-draft org/eagle-head --speculative-eagle-topk 8 --mem-fraction 0.7")  # fmt: skip
    command = read(text)
    assert command.before == ("0.5.2", "--speculative-draft")
    path = global_worker_path(collect_config(text))
    assert (path.value, path.worker_class) == ("v1", "EAGLEWorker")
    assert any("refused by sglang 0.5.2" in e.reason for e in path.evidence)
    full = read(text.replace("--speculative-draft ", "--speculative-draft-model-path "))
    assert full.before is None
    assert global_worker_path(collect_config(text, "sglang: 0.5.10")).value == "v1"


def test_a_json_value_with_elided_members_keeps_the_ones_shown() -> None:
    command = read('Run it with `--speculative-config {"method":"dflash", ...}` on 8 GPUs')
    assert command is not None and command.flags.get("method") == "dflash"


def test_a_json_value_glued_by_equals_keeps_its_blanks() -> None:
    # argparse splits `--x=value` at "=" before it asks whether the word holds a blank
    command = read(
        "vllm serve org/l --tensor-parallel-size 2 "
        '--speculative-config=\'{"method": "mtp", "num_speculative_tokens": 2}\''
    )
    assert command.flags["method"] == "mtp"
    assert command.flags["num_spec_tokens"] == 2
    assert command.unknown == ()


def test_a_wished_for_command_under_its_caption_is_no_run(tmp_path: Path) -> None:
    """An enhancement thread's "Ideally one would just run:" over an EAGLE3 launch: a wish, so
    no algorithm is read from it (ADV s11 w04)."""
    log = tmp_path / "issue.md"
    log.write_text(
        "Ideally one would just run:\n```\npython3 -m sglang.launch_server --model-path m --tp 2"
        " --speculative-algorithm EAGLE3 --speculative-draft-model-path auto\n```\n",
        encoding="utf-8",
    )
    assert "speculative_algorithm" not in analyse([str(log)]).config.flags
