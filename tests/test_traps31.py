"""Texts that show no run get no worker path, whatever configs and class names they hold: a
recipe's YAML of serve arguments or a test job's list of them saved bare (``not_run._config_file``).
An issue that pastes a launch command and the crash it gave keeps its path, however short the
crash or when the crash is only a picture; so does a script whose crash runs through the engine.
Our own texts, a probe traceback appended as measure.py does.
"""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import PROBE, assert_no_path, roots, run

RECIPE_YAML = ["max-model-len: 32768", "gpu-memory-utilization: 0.9",
               "speculative-config: '{\"num_speculative_tokens\":4,\"method\":\"eagle3\",\"model\":\"acme/Orbit-8B-e3\"}'"]  # fmt: skip


def _has_path(tmp_path: Path, lines: list[str], name: str = "server.log") -> bool:
    """The text's first crash (its own, or the probe where it has none) has a path."""
    path = roots(run(tmp_path, [*lines, "", *PROBE], name=name))[0].worker_path
    return path is not None and (path.worker_class is not None or path.conditional is not None)


def test_a_recipes_yaml_of_serve_arguments_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, RECIPE_YAML, name="orbit.yaml")


def test_a_yaml_sentence_or_a_lone_setting_is_no_config_file(tmp_path: Path) -> None:
    lines = ["I launched it with this config and it died right after the draft loaded:", *RECIPE_YAML]
    assert _has_path(tmp_path, lines)
    assert _has_path(tmp_path, [RECIPE_YAML[-1]])


def test_a_test_jobs_argument_list_is_no_run(tmp_path: Path) -> None:
    lines = ["cases:", "  - name: orbit-eagle3", "    model: acme/Orbit-8B", "    serve_args:",
             '      - "--tensor-parallel-size"', '      - "2"', '      - "--speculative-config"',
             "      - '{\"method\": \"eagle3\", \"model\": \"acme/Orbit-8B-eagle3\", \"num_speculative_tokens\": 3}'",
             "    checks:", "      accuracy: 0.8"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="cases.yaml")


def test_an_issues_launch_and_its_short_crash_keep_the_path(tmp_path: Path) -> None:
    lines = ["acme/serving · issue #7 · open", "# engine dies with eagle3", "",
             "user-two · description · 2026-02-10",
             "vllm serve acme/Orbit-8B --speculative-config '{\"model\":\"acme/Orbit-8B-e3\", \"method\":\"eagle3\", \"num_speculative_tokens\":3}'",
             "RuntimeError: EagleProposer.propose: 3 draft slots given, 4 expected"]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_an_issues_launch_with_its_error_only_as_a_picture_keeps_the_path(tmp_path: Path) -> None:
    lines = ["acme/serving · issue #8 · open", "# eagle run does not come up", "",
             "user-three · description · 2026-02-11", "command:",
             "python -m sglang.launch_server --tp 2 --model-path acme/Orbit-8B --speculative-algorithm EAGLE "
             "--speculative-draft-model-path acme/Orbit-8B-eagle --speculative-eagle-topk 4 "
             "--speculative-num-draft-tokens 16 --speculative-num-steps 3",
             "![screenshot](https://example.invalid/shot.png)", "please help"]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_a_yaml_file_with_a_crash_through_the_engine_keeps_the_path(tmp_path: Path) -> None:
    lines = [*RECIPE_YAML, "Traceback (most recent call last):",
             '  File "/srv/py/vllm/v1/spec_decode/eagle.py", line 410, in propose',
             "    out = self.model(ids)", "RuntimeError: shape mismatch in draft forward"]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_a_compose_file_saved_alone_is_no_run(tmp_path: Path) -> None:
    lines = ["services:", "  engine:", "    image: acme/vllm:0.24.0",
             "    command: vllm serve acme/Orbit-8B --speculative-config '{ \"num_speculative_tokens\": 2, \"method\": \"mtp\" }'"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="compose.yaml")


# a model card copied as text (its headings lost their marks): the vendor's voice, a comparison row
# labelling its own method, and the usage snippet under "Usage with vLLM"
CARD = [
    "Model Description",
    "A multi-token prediction head for Orbit-70B, fine-tuned on chat transcripts.",
    "The stock head drifts toward the end of a draft. Our fine-tuning closes most of that gap.",
    "| Setup | Mean accepted |", "|---|---|", "| Stock head | 2.9 |", "| Fine-tuned head (ours) | 4.1 |",
    "Usage with vLLM",
    "from vllm import LLM, SamplingParams",
    "engine = LLM(",
    'model="acme/Orbit-70B",',
    "speculative_config={",
    '"model": "acme/Orbit-70B-mtp-ft",',
    '"method": "deepseek_mtp",',
    '"num_speculative_tokens": 5,',
    "},",
    ")",
]  # fmt: skip


def test_a_model_cards_usage_snippet_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, CARD, name="card.txt")


def test_the_writers_own_run_of_a_usage_snippet_keeps_the_path(tmp_path: Path) -> None:
    lines = [CARD[0], "I ran the usage snippet on my server and the engine died at the first draft step:", *CARD[7:],
             "RuntimeError: draft step 0 produced 4 rows, 5 expected"]  # fmt: skip
    assert _has_path(tmp_path, lines)


def test_a_vendors_voice_is_no_run_of_the_writers_but_their_server_is() -> None:
    from spectrace.assemblers.not_run import _telling_mine

    assert not _telling_mine("Our fine-tuning closes most of that gap.")
    assert not _telling_mine("| Fine-tuned head (ours) | 4.1 |")
    assert _telling_mine("Same thing happens on our server with two cards.")
    assert _telling_mine("I used the snippet below.")


# a design document reading source (its basis: repositories' source, line numbers checked with grep;
# its sections headed "measured"; its citations Markdown links to file:line)
DESIGN_DOC = [
    "# Orbit 投机方案 · vllm-ascend 接入设计",
    "",
    "> 依据：两个仓库的本地源码，行号 grep 核对过（实测）。",
    "",
    "## 1. 现有基础（实测）",
    "",
    "| 位置 | 类 | 作用 |",
    "|---|---|---|",
    "| [eagle_proposer.py:88](vscode://file/home/dev/src/plugin/proposers/eagle_proposer.py:88) | AscendEagleProposer | 草稿骨架 |",
    "",
    "## 2. 新增部分",
    "",
    "继承上面的类，只加一个置信度头。",
]  # fmt: skip


def test_a_design_document_reading_source_is_no_run(tmp_path: Path) -> None:
    assert_no_path(tmp_path, DESIGN_DOC, name="design.md")


def test_research_notes_leaving_a_broken_stack_out_of_scope_are_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit on GH200: serving notes (round 2)", "",
             "**Scope:** language models only; image models are out of scope (FP8 still broken there).", "",
             "## Recipe, as the vendor's card gives it", "", "```bash",
             "trtllm-serve <orbit checkpoint> --backend pytorch --extra_llm_api_options spec.yml", "```", "",
             "```yaml", "speculative_config:", "  decoding_type: Eagle", "  max_draft_len: 3",
             "  speculative_model_dir: <orbit eagle3 head>", "```"]  # fmt: skip
    assert_no_path(tmp_path, lines, name="notes.md")


def test_a_run_line_still_binds_where_a_link_or_a_heading_does_not() -> None:
    from spectrace.assemblers.run_bound import first_run_line
    from spectrace.dialects.base import LogLine

    def bound(*texts: str) -> int | None:
        found = first_run_line([LogLine("t.md", n, 0, t, t, "plain", "") for n, t in enumerate(texts, 1)])
        return found.lineno if found is not None else None

    assert bound("| X | [eagle.py:130](https://example.invalid/eagle.py) |") is None
    assert bound("(Worker pid=7) [gpu_model_runner.py:1901] Loading the draft") == 1
    assert bound("## 3. 结果（实测）", "实测吞吐 120 tok/s，接受长度 2.9") == 2
    assert bound("Basis: the source code of both repos, line numbers verified with grep.") is None
    assert bound("I verified it on two cards and it crashed at the first draft step.") == 1


def test_a_plugin_re_registering_its_mtp_model_is_no_mtp_run(tmp_path: Path) -> None:
    lines = ["2026-05-02T00:59:58.0Z Run pytest -sv tests/e2e/multicard/test_moe.py  # vllm-ascend e2e, 2 cards",
             "2026-05-02T01:00:00.1Z [2026-05-02 01:00:00.100][plug][W] Model architecture OrbitMTPModel is "
             "already registered; orbit_plugin.models:OrbitMTP replaces it.",
             "2026-05-02T01:00:03.4Z tests/e2e/test_moe.py::test_orbit_moe_tp2 PASSED",
             "2026-05-02T01:00:05.0Z ===== 1 passed in 4.90s ====="]  # fmt: skip
    assert_no_path(tmp_path, lines, name="ci.log")


def test_a_registry_line_names_no_family_but_a_serving_line_does() -> None:
    from spectrace.path_base import REGISTRY_GUARD, family_words, line_guard

    registry = "ModelRegistry.register_model('OrbitMTPModel', 'orbit_plugin.models:OrbitMTP')"
    assert family_words(registry) == set() and line_guard(registry) == REGISTRY_GUARD
    assert family_words("We serve Orbit-8B with MTP, 2 draft tokens, and the scheduler hangs.") == {"MTP"}


def test_a_dict_cut_by_the_text_ends_at_a_traceback_below_it() -> None:
    from spectrace.assemblers.pyconfig import PyDictSpan
    from spectrace.dialects.base import LogLine

    texts = ["engine = LLM(model='acme/Orbit-8B',", 'speculative_config={"method": "ngr',
             "Traceback (most recent call last):", '  File "probe.py", line 1, in <module>']  # fmt: skip
    lines = [LogLine("t.py", n, 0, t, t, "plain", "") for n, t in enumerate(texts, 1)]
    span = PyDictSpan()
    assert span.start(lines[1])
    joined = span.feed(lines[2])
    assert joined is not None and joined.lineno == 2 and "Traceback" not in joined.text


def test_a_recipe_file_offering_a_variant_for_reproducing_results_is_no_run(tmp_path: Path) -> None:
    lines = ["# Orbit-30B serving recipe (compiled into the site's model page)", "model: acme/Orbit-30B",
             "spec_decoding:", "  # Mode = the method the --speculative-config flag picks; the default is mtp",
             "  modes:", "    mtp:", "      args:", '        - "--speculative-config"',
             "        - '{ \"method\" : \"mtp\", \"num_speculative_tokens\" : 2 }'",
             "    dspark:", "      args:", '        - "--speculative-config"',
             "        - '{ \"method\" : \"dspark\", \"num_speculative_tokens\" : 5 }'",
             "variants:", "  - name: fp8-preview",
             "    description: FP8 (preview) build, kept for reproducing earlier results."]  # fmt: skip
    assert_no_path(tmp_path, lines, name="orbit.yaml")

def test_a_failures_steps_still_read_as_reproducing_it() -> None:
    from spectrace.assemblers.not_run import _REPRO

    assert _REPRO.search("To reproduce, run:") and _REPRO.search("Steps to reproduce the hang")
    assert _REPRO.search("I can reproduce it on two cards")
    assert not _REPRO.search("FP8 (preview): kept for reproducing earlier results.")
    assert not _REPRO.search("Scripts to reproduce the paper's numbers")
