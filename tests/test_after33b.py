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
