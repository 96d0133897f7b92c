"""Post-FINAL fixes of session 33 (AFTER33B): texts that show no worker's run.

Each test writes its own lines in the shape of the text class it covers."""

from __future__ import annotations

from pathlib import Path

from real_logs_helpers import assert_no_path, roots, run

# --- a launch whose command line the parser refused (usage line, then "<prog>: error:") --------

_COMPOSE = ["services:", "  llm:", "    image: vllm/vllm-openai:latest", "    command:",
            '      - "--model"', '      - "org/Tiny-8B"', '      - "--speculative-model"',
            '      - "org/Tiny-8B-eagle3"', '      - "--num-speculative-tokens"', '      - "4"', ""]  # fmt: skip


def _refusal(stamp: str) -> list[str]:
    return [f"2026-03-02 10:00:{stamp} | WARNING 03-02 10:00:{stamp} [config.py:120] some default changed",
            f"2026-03-02 10:00:{stamp} | usage: vllm [-h] [-v]",
            f"2026-03-02 10:00:{stamp} |             {{chat,complete,serve,bench}} ...",
            f"2026-03-02 10:00:{stamp} | vllm: error: unrecognized arguments: --speculative-model "
            "org/Tiny-8B-eagle3 --num-speculative-tokens 4"]  # fmt: skip


def test_a_launch_the_argument_parser_refused_ran_no_worker(tmp_path: Path) -> None:
    lines = [*_COMPOSE, *_refusal("01"), *_refusal("09")]
    (tmp_path / "a").mkdir()
    assert_no_path(tmp_path / "a", lines)
    (tmp_path / "b").mkdir()
    (crash,) = roots(run(tmp_path / "b", lines))
    said = " ".join(crash.worker_path.missing)
    assert "failure in the launcher itself" in said and "refused the speculative config" in said, said


def test_a_refused_launch_run_again_that_started_its_engine_keeps_the_run(tmp_path: Path) -> None:
    fixed = ["2026-03-02 10:05:00 | INFO 03-02 10:05:00 [core.py:70] Initializing a V1 LLM engine (v0.11.0) with config: "
             "model='org/Tiny-8B', speculative_config=SpeculativeConfig(method='eagle3', model='org/Tiny-8B-eagle3', "
             "num_spec_tokens=4)"]  # fmt: skip
    paths = [c.worker_path for c in roots(run(tmp_path, [*_COMPOSE, *_refusal("01"), *fixed,
                                                         "", "RuntimeError: probe"]))]  # fmt: skip
    assert any(p is not None and (p.worker_class or p.conditional) for p in paths), paths


def test_a_lone_error_line_without_the_parsers_usage_is_not_read_as_its_refusal() -> None:
    from spectrace.assemblers.not_run import _launch_stopped
    from spectrace.dialects.base import LogLine

    def held(texts: list[str]) -> list[LogLine]:
        return [LogLine(source="x.log", lineno=n, offset=0, text=t, raw=t, dialect="plain", stream="")
                for n, t in enumerate(texts, 1)]

    error = "vllm: error: unrecognized arguments: --speculative-model org/Tiny-8B-eagle3"
    assert _launch_stopped(held([error])) is None
    # a benchmark client's usage is not the server's launcher
    assert _launch_stopped(held(["usage: vllm bench serve [-h]", error.replace("vllm:", "vllm bench serve:")])) is None
    stop = _launch_stopped(held(["usage: vllm [-h] [-v]", error]))
    assert stop is not None and stop[0].lineno == 2


# --- a pilot plan's flags, a source check's flags: no run's -------------------------------------

_SERVICE = ["# Capacity notes for the chat service", "", "## 1. Current service", "",
            "```bash", "python3 -m sglang.launch_server --model-path org/Tiny-30B-A3B --tp-size 2 \\",
            "    --mem-fraction-static 0.8 --max-running-requests 16", "```", "",
            "## 2. Measured", "", "We measured these on our service over 2,000 requests (source: server.log).", "",
            "| metric | value |", "|---|---|", "| TTFT | 2.1s |", "| ITL | 71ms/tok |", ""]  # fmt: skip


def _pilot(heading: str) -> list[str]:
    return [heading, "", "```bash", "--speculative-algorithm NEXTN \\", "--speculative-num-steps 3 \\",
            "--speculative-eagle-topk 1 \\", "--speculative-num-draft-tokens 4", "```", "",
            "Compare ITL and TTFT on the same requests.", ""]  # fmt: skip


def _plain_run(tmp_path: Path, lines: list[str]) -> None:
    """The measured service's own launch speaks: speculation off, no class, no condition."""
    from real_logs_helpers import PROBE

    for crash in roots(run(tmp_path, [*lines, "", *PROBE])):
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path
        assert path.value == "none", path


def test_a_pilot_plans_flags_beside_a_measured_plain_service_give_no_path(tmp_path: Path) -> None:
    for i, heading in enumerate(("### 3.2 Pilot plan (small A/B first, not production)",
                                 "## Canary rollout plan", "### 3.2 试点方案（先小流量）")):  # fmt: skip
        (tmp_path / str(i)).mkdir()
        _plain_run(tmp_path / str(i), [*_SERVICE, *_pilot(heading)])


def test_the_same_flags_under_a_plain_heading_stay_the_runs(tmp_path: Path) -> None:
    from real_logs_helpers import PROBE

    paths = [c.worker_path for c in roots(run(tmp_path, [*_SERVICE, *_pilot("### 3.2 Speculative run"), "", *PROBE]))]
    assert any(p is not None and (p.worker_class or p.conditional) for p in paths), paths


def test_a_source_check_sections_flag_sentences_are_the_codes(tmp_path: Path) -> None:
    told = ["- `NEXTN` is a built-in algorithm (`--speculative-algorithm`), resolved to the EAGLE family; "
            "`--speculative-eagle-topk 1` is the NEXTN mode.", ""]  # fmt: skip
    for i, heading in enumerate(("### 3.1 Source check results", "### 3.1 源码核对结果")):
        (tmp_path / str(i)).mkdir()
        _plain_run(tmp_path / str(i), [*_SERVICE, heading, "", *told])


# --- a docs survey's quoted error lines are its citations ----------------------------------------

_SURVEY = ["# Drafting heads in the published docs: a gap map", "",
           "Copied 2026-08-01 from the docs site.", "", "## Available", "",
           "| # | Topic | Example | URL | State |", "|---|---|---|---|---|",
           '| 1 | mtp config | `{"method":"mtp","num_speculative_tokens":2}` | '
           "https://docs.example.org/spec/mtp.html | Available |",
           '| 2 | draft_model config | `{"method":"draft_model","model":"org/tiny-draft",'
           '"num_speculative_tokens":4}` | https://docs.example.org/spec/draft.html | Available |',
           """| 3 | **Tiny-Next MTP** | `--speculative-config '{"method":"tiny_next_mtp","num_speculative_tokens":1}'` | """
           "https://huggingface.co/org/Tiny-Next-80B | Available |", "",
           "## Limitations the docs state (VERBATIM quotes)", "",
           "1. **One head, many steps** — https://github.com/example/engine/blob/main/engine/config/speculative.py",
           '   > "A depth above one reuses a single head, so acceptance can drop"', "",
           "2. **Assistant heads on old releases** — https://docs.example.org/spec/mtp.html",
           "   > \"If an old release prints `SpeculativeConfig(method='draft_model', ...)` for an assistant head, it is "
           'loading the head as a plain draft model. Move to a release with head support."', "",
           "3. **Heads that are DSpark stages** — same file",
           "   > \"These heads hold DSpark stages; set speculative method 'dspark' rather than 'mtp'.\"",
           "", "4. **Quantised head** — https://docs.example.org/spec/quant.html",
           '   > "Known issue: older builds loading the int4 head stop with:',
           "   >     `KeyError: 'draft_vocab_size'`.",
           '   >     A fix is planned."']  # fmt: skip


def test_an_error_a_docs_survey_quotes_under_its_citation_gives_no_path(tmp_path: Path) -> None:
    for crash in roots(run(tmp_path, _SURVEY)):  # the quoted error is the text's only crash
        path = crash.worker_path
        assert path is not None and path.worker_class is None and not path.conditional, path


# --- a failure word negated in Chinese is no failure met -----------------------------------------


def test_a_plans_negated_failure_criterion_binds_no_run(tmp_path: Path) -> None:
    from spectrace.assemblers.run_bound import first_run_line
    from spectrace.dialects.base import LogLine

    def held(texts: list[str]) -> list[LogLine]:
        return [LogLine(source="x.md", lineno=n, offset=0, text=t, raw=t, dialect="plain", stream="")
                for n, t in enumerate(texts, 1)]

    step = "2. 新增 MLA 版 KV 预计算 → verify: 显存预算不报错"
    assert first_run_line(held([step])) is None
    assert first_run_line(held([step.replace("不报错", "无报错")])) is None
    assert first_run_line(held([step.replace("不报错", "启动时报错")])) is not None  # a failure met
    assert first_run_line(held(["服务启动后崩溃"])) is not None
    from spectrace.assemblers.documents import own_run

    assert not own_run("→ verify: 不报错") and not own_run("无報錯") and own_run("启动就报错") and own_run("啟動失敗")
